// SPDX-License-Identifier: Apache-2.0
#include "hypercube_pipeline.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <string>

#include "hypercube_doubling.hpp"

namespace totex {
namespace {

/// Seeds (block orders and offset orders) tried before giving up.
constexpr unsigned kSeeds = 16;

/// Blocks of a permutation: per block, the displacement sigma(i) - i of each of its positions.
using Blocks = std::vector<std::vector<int>>;
/// A multiset of displacements: value -> count.
using Multiset = std::map<int, std::int64_t>;

/// One +a (or -a, mirrored) with parts back that sum to a, as a cycle 0 -> a -> a - b1 -> ... -> 0
/// over a + 1 positions; the positions it skips are fixed points (zeros, counted down).
bool cycles(Multiset& plus, Multiset& minus, int sign, std::int64_t& zeros, Blocks& out) {
  for (;;) {
    int a = 0;
    for (const auto& [v, c] : plus)
      if (c > 0) a = std::max(a, v);
    if (a == 0) return true;
    --plus[a];
    int need = a;
    std::vector<int> parts;
    for (auto it = minus.rbegin(); it != minus.rend(); ++it)
      while (it->second > 0 && it->first <= need) {
        parts.push_back(it->first);
        --it->second;
        need -= it->first;
      }
    if (need != 0) return false;
    std::vector<int> sigma(static_cast<std::size_t>(a) + 1, -1);
    sigma[0] = a;
    int at = a;
    for (int b : parts) {
      sigma[static_cast<std::size_t>(at)] = at - b;
      at -= b;
    }
    std::vector<int> block;
    for (int i = 0; i <= a; ++i) {
      if (sigma[static_cast<std::size_t>(i)] < 0) {
        block.push_back(0);
        --zeros;
      } else {
        block.push_back(sigma[static_cast<std::size_t>(i)] - i);
      }
    }
    if (sign < 0) {  // tau(i) = L-1-sigma(L-1-i) has the displacements negated and reversed
      std::reverse(block.begin(), block.end());
      for (int& d : block) d = -d;
    }
    out.push_back(std::move(block));
  }
}

/// Blocks whose displacements are exactly `disp` (sum zero), or nothing.
std::optional<Blocks> realize(const Multiset& disp) {
  Multiset plus, minus;
  std::int64_t zeros = 0;
  for (const auto& [v, c] : disp) {
    if (v > 0) plus[v] = c;
    if (v < 0) minus[-v] = c;
    if (v == 0) zeros = c;
  }
  Blocks out;
  for (auto& [a, p] : plus) {
    std::int64_t& q = minus[a];
    const std::int64_t m = std::min(p, q);
    p -= m;
    q -= m;
    for (std::int64_t i = 0; i < m / a; ++i) {  // 2a positions: a shifted by +a, a by -a
      std::vector<int> block(static_cast<std::size_t>(a), a);
      block.insert(block.end(), static_cast<std::size_t>(a), -a);
      out.push_back(std::move(block));
    }
    for (std::int64_t i = 0; i < m % a; ++i) {  // a + 1 positions: +a, a - 1 fixed points, -a
      std::vector<int> block(static_cast<std::size_t>(a) + 1, 0);
      block.front() = a;
      block.back() = -a;
      zeros -= a - 1;
      out.push_back(std::move(block));
    }
  }
  if (!cycles(plus, minus, 1, zeros, out) || !cycles(minus, plus, -1, zeros, out) || zeros < 0) return std::nullopt;
  for (std::int64_t i = 0; i < zeros; ++i) out.push_back({0});
  return out;
}

/// The r delays (w - 1) of the last part, mean exactly c + 1: delays c + 1 first, then, for an
/// odd rest, one c + 3 with two c, then pairs c + 1 + a, c + 1 - a. Counts are taken from `count`.
std::optional<Multiset> last_part(Multiset& count, int c, std::int64_t r, int n) {
  Multiset take;
  const auto grab = [&](int delay, std::int64_t k) {
    count[delay] -= k;
    take[delay] += k;
  };
  std::int64_t rest = r;
  grab(c + 1, std::min(count[c + 1], rest));
  rest = r - take[c + 1];
  if (rest % 2 == 1) {
    if (count[c + 3] < 1 || count[c] < 2) return std::nullopt;
    grab(c + 3, 1);
    grab(c, 2);
    rest -= 3;
  }
  for (int a = 1; a <= n && rest > 0; ++a) {
    const std::int64_t p = std::min({count[c + 1 + a], count[c + 1 - a], rest / 2});
    grab(c + 1 + a, p);
    grab(c + 1 - a, p);
    rest -= 2 * p;
  }
  if (rest != 0) return std::nullopt;
  return take;
}

/// Step and delay of each offset slot, in injection order (t = 0, 1, ..., N - 2).
struct Slot {
  int t = 0, delay = 0;
};

/// Routes: which offset of its weight each slot sends, and the order of its dimensions, so that
/// no dimension carries two pattern hops in one step.
class Router {
 public:
  Router(int n, int steps) : n_(n), owner_(static_cast<std::size_t>(n), std::vector<int>(static_cast<std::size_t>(steps) + 1, -1)) {}

  /// The dimension crossed in each step t + j of offset d, or empty (none fits; `ban` kept free).
  std::vector<int> fit(unsigned d, int t, int ban_dim = -1, int ban_step = -1) const {
    std::vector<int> dims;
    for (int i = 0; i < n_; ++i)
      if ((d >> i) & 1U) dims.push_back(i);
    const auto w = static_cast<int>(dims.size());
    std::vector<int> at(static_cast<std::size_t>(w), -1);  // at[j]: index into dims
    std::vector<int> of(static_cast<std::size_t>(w), -1);  // of[k]: position j of dims[k]
    const auto free = [&](int k, int j) {
      const int dim = dims[static_cast<std::size_t>(k)];
      return owner_[static_cast<std::size_t>(dim)][static_cast<std::size_t>(t + j)] < 0 &&
             !(dim == ban_dim && t + j == ban_step);
    };
    std::vector<char> seen;
    const std::function<bool(int)> augment = [&](int j) {
      for (int k = 0; k < w; ++k) {
        if (seen[static_cast<std::size_t>(k)] || !free(k, j)) continue;
        seen[static_cast<std::size_t>(k)] = 1;
        if (of[static_cast<std::size_t>(k)] < 0 || augment(of[static_cast<std::size_t>(k)])) {
          of[static_cast<std::size_t>(k)] = j;
          at[static_cast<std::size_t>(j)] = k;
          return true;
        }
      }
      return false;
    };
    for (int j = 0; j < w; ++j) {
      seen.assign(static_cast<std::size_t>(w), 0);
      if (!augment(j)) return {};
    }
    std::vector<int> order(static_cast<std::size_t>(w));
    for (int j = 0; j < w; ++j) order[static_cast<std::size_t>(j)] = dims[static_cast<std::size_t>(at[static_cast<std::size_t>(j)])];
    return order;
  }
  /// Marks the steps of a route as held by slot `who` (-1: frees them).
  void take(int t, const std::vector<int>& order, int who) {
    for (std::size_t j = 0; j < order.size(); ++j)
      owner_[static_cast<std::size_t>(order[j])][static_cast<std::size_t>(t) + j] = who;
  }
  [[nodiscard]] int owner(int dim, int step) const { return owner_[static_cast<std::size_t>(dim)][static_cast<std::size_t>(step)]; }

 private:
  int n_;
  std::vector<std::vector<int>> owner_;  // [dimension][step]: the slot whose hop it carries, -1 free
};

struct Route {
  unsigned offset = 0;
  int t = 0;
  std::vector<int> order;
};

/// One try with a seed: the routes of every slot, or nothing if a slot found no route.
std::optional<std::vector<Route>> route_all(int n, const std::vector<Slot>& slots, int steps, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::vector<unsigned>> pool(static_cast<std::size_t>(n));
  for (unsigned d = 1; d < (1U << n); ++d) pool[static_cast<std::size_t>(__builtin_popcount(d) - 1)].push_back(d);
  for (auto& p : pool) std::shuffle(p.begin(), p.end(), rng);
  std::vector<int> order(slots.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  // Heaviest first: their routes have the least freedom.
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return slots[static_cast<std::size_t>(a)].delay > slots[static_cast<std::size_t>(b)].delay;
  });
  Router router(n, steps);
  std::vector<Route> routes(slots.size());
  for (int s : order) {
    const Slot& slot = slots[static_cast<std::size_t>(s)];
    auto& candidates = pool[static_cast<std::size_t>(slot.delay)];
    bool placed = false;
    for (std::size_t i = candidates.size(); i-- > 0 && !placed;) {
      std::vector<int> r = router.fit(candidates[i], slot.t);
      if (r.empty()) continue;
      router.take(slot.t, r, s);
      routes[static_cast<std::size_t>(s)] = {candidates[i], slot.t, std::move(r)};
      candidates.erase(candidates.begin() + static_cast<std::ptrdiff_t>(i));
      placed = true;
    }
    if (placed) continue;
    // Rip-up: free one step of one of its dimensions by rerouting the slot that holds it.
    const unsigned d = candidates.back();
    for (int dim = 0; dim < n && !placed; ++dim) {
      if (!((d >> dim) & 1U)) continue;
      for (int j = 0; j <= slot.delay && !placed; ++j) {
        const int other = router.owner(dim, slot.t + j);
        if (other < 0) continue;
        Route& o = routes[static_cast<std::size_t>(other)];
        router.take(o.t, o.order, -1);
        std::vector<int> moved = router.fit(o.offset, o.t, dim, slot.t + j);
        if (!moved.empty()) {
          router.take(o.t, moved, other);
          std::vector<int> r = router.fit(d, slot.t);
          if (!r.empty()) {
            o.order = std::move(moved);
            router.take(slot.t, r, s);
            routes[static_cast<std::size_t>(s)] = {d, slot.t, std::move(r)};
            candidates.pop_back();
            placed = true;
            break;
          }
          router.take(o.t, moved, -1);
        }
        router.take(o.t, o.order, other);
      }
    }
    if (!placed) return std::nullopt;
  }
  return routes;
}

/// The two parts' blocks (injection order within each part still free), or nothing.
struct Plan {
  int c = 0;
  std::int64_t r = 0;
  Blocks first, last;
};

std::optional<Plan> plan(int n) {
  const std::int64_t K = (std::int64_t{1} << n) - 1;  // offsets
  Multiset count;                                      // delay w - 1 -> offsets
  std::int64_t sum = 0;
  for (int w = 1; w <= n; ++w) {
    std::int64_t k = 1;
    for (int i = 0; i < w; ++i) k = k * (n - i) / (i + 1);  // binomial(n, w)
    count[w - 1] = k;
    sum += k * (w - 1);
  }
  Plan p;
  p.c = static_cast<int>(sum / K);
  p.r = sum - p.c * K;
  const std::optional<Multiset> last = last_part(count, p.c, p.r, n);
  if (!last) return std::nullopt;
  Multiset first_disp, last_disp;
  for (const auto& [delay, k] : count)
    if (k > 0) first_disp[delay - p.c] = k;
  for (const auto& [delay, k] : *last)
    if (k > 0) last_disp[delay - p.c - 1] = k;
  std::optional<Blocks> first = realize(first_disp), second = realize(last_disp);
  if (!first || !second) return std::nullopt;
  p.first = std::move(*first);
  p.last = std::move(*second);
  return p;
}

}  // namespace

std::string hypercube_pipeline_why_not(const Topology& t) {
  if (!hypercube_doubling_applies(t)) return "needs a hypercube with a processor at every node";
  const int n = static_cast<int>(t.factors().size());
  if (!plan(n)) return "has no permutation blocks for hypercube:" + std::to_string(n) + " (docs/scale.md)";
  return "";
}

std::optional<std::vector<PlacedPattern>> hypercube_pipeline_patterns(const Topology& t) {
  if (!hypercube_pipeline_why_not(t).empty()) return std::nullopt;
  const int n = static_cast<int>(t.factors().size());
  const Plan p = *plan(n);
  const auto steps = static_cast<int>((std::int64_t{1} << n) - 1 + p.c + (p.r > 0 ? 1 : 0));  // the bound
  for (unsigned seed = 1; seed <= kSeeds; ++seed) {
    Blocks order = p.first;
    std::mt19937 rng(seed);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<Slot> slots;
    for (const auto& block : order)
      for (int d : block) slots.push_back({static_cast<int>(slots.size()), p.c + d});
    for (const auto& block : p.last)
      for (int d : block) slots.push_back({static_cast<int>(slots.size()), p.c + 1 + d});
    const std::optional<std::vector<Route>> routes = route_all(n, slots, steps, seed);
    if (!routes) continue;
    std::vector<PlacedPattern> patterns;
    for (const Route& route : *routes) {
      std::vector<int> coords(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) coords[static_cast<std::size_t>(i)] = static_cast<int>((route.offset >> i) & 1U);
      PlacedPattern pattern{t.node_at(coords), route.t, {}};
      for (int dim : route.order) pattern.word.moves.emplace_back(dim, 1);
      patterns.push_back(std::move(pattern));
    }
    return patterns;
  }
  return std::nullopt;
}

}  // namespace totex
