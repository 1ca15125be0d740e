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
/// The periodic construction is run up to hypercube:11 (hypercube:12 needs 4092 detours and found
/// no routing in 16 seeds).
constexpr int kMaxPeriodicDimensions = 11;

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
/// odd rest, one c + 3 with two c, then pairs c + 1 + a, c + 1 - a, a = `first_a` first and then
/// 1, 2, ... (which pairs the last part takes decides whether the first part's blocks exist).
/// Counts are taken from `count`.
std::optional<Multiset> last_part(Multiset& count, int c, std::int64_t r, int n, int first_a) {
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
  std::vector<int> order{first_a};
  for (int a = 1; a <= n; ++a)
    if (a != first_a) order.push_back(a);
  for (const int a : order) {
    if (rest == 0) break;
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

/// An offset to route: its bits, and whether it takes a detour (one dimension outside its bits
/// crossed twice: two hops more, used by the periodic schedule to make the delays add up).
struct Offset {
  unsigned bits = 0;
  bool detour = false;
};

/// Routes: which offset of its delay each slot sends, and the order of its moves, so that no
/// dimension carries two pattern hops in one step (modulo the period, if any).
class Router {
 public:
  Router(int n, int steps, int period)
      : n_(n), period_(period), owner_(static_cast<std::size_t>(n), std::vector<int>(static_cast<std::size_t>(steps) + 1, -1)) {}

  /// The dimension crossed in each step t + j of the offset, or empty (none fits; the step `ban`
  /// of dimension `ban_dim` kept free). A detour tries each dimension outside the offset's bits,
  /// never as the last move (the message would reach its destination early and move on).
  std::vector<int> fit(const Offset& o, int t, int ban_dim = -1, int ban_step = -1) const {
    std::vector<int> items;
    for (int i = 0; i < n_; ++i)
      if ((o.bits >> i) & 1U) items.push_back(i);
    const auto w = static_cast<int>(items.size());
    if (!o.detour) return match(items, w, t, ban_dim, ban_step);
    for (int x = 0; x < n_; ++x) {
      if ((o.bits >> x) & 1U) continue;
      std::vector<int> with = items;
      with.push_back(x);
      with.push_back(x);
      std::vector<int> order = match(with, w, t, ban_dim, ban_step);
      if (!order.empty()) return order;
    }
    return {};
  }
  /// Marks the steps of a route as held by slot `who` (-1: frees them).
  void take(int t, const std::vector<int>& order, int who) {
    for (std::size_t j = 0; j < order.size(); ++j) owner_[static_cast<std::size_t>(order[j])][step(t + static_cast<int>(j))] = who;
  }
  [[nodiscard]] int owner(int dim, int s) const { return owner_[static_cast<std::size_t>(dim)][step(s)]; }

 private:
  [[nodiscard]] std::size_t step(int s) const { return static_cast<std::size_t>(period_ > 0 ? s % period_ : s); }
  /// Items (dimensions; those from index `w` on are the detour's) onto positions 0..L-1 at free
  /// steps: a bipartite matching by augmenting paths. Returns the dimension of each position.
  std::vector<int> match(const std::vector<int>& items, int w, int t, int ban_dim, int ban_step) const {
    const auto L = static_cast<int>(items.size());
    std::vector<int> at(static_cast<std::size_t>(L), -1);  // at[j]: the item in position j
    const auto allowed = [&](int k, int j) {
      const int dim = items[static_cast<std::size_t>(k)];
      if (k >= w && j == L - 1) return false;
      if (dim == ban_dim && step(t + j) == step(ban_step)) return false;
      return owner_[static_cast<std::size_t>(dim)][step(t + j)] < 0;
    };
    std::vector<char> seen;
    const std::function<bool(int)> augment = [&](int k) {
      for (int j = 0; j < L; ++j) {
        if (seen[static_cast<std::size_t>(j)] || !allowed(k, j)) continue;
        seen[static_cast<std::size_t>(j)] = 1;
        if (at[static_cast<std::size_t>(j)] < 0 || augment(at[static_cast<std::size_t>(j)])) {
          at[static_cast<std::size_t>(j)] = k;
          return true;
        }
      }
      return false;
    };
    for (int k = 0; k < L; ++k) {
      seen.assign(static_cast<std::size_t>(L), 0);
      if (!augment(k)) return {};
    }
    std::vector<int> order(static_cast<std::size_t>(L));
    for (int j = 0; j < L; ++j) order[static_cast<std::size_t>(j)] = items[static_cast<std::size_t>(at[static_cast<std::size_t>(j)])];
    return order;
  }

  int n_, period_;
  std::vector<std::vector<int>> owner_;  // [dimension][step]: the slot whose hop it carries, -1 free
};

struct Route {
  Offset offset;
  int t = 0;
  std::vector<int> order;
};

/// One try with a seed: the routes of every slot, or nothing if a slot found no route. `pool[k]`
/// holds the offsets of delay k (route length - 1).
std::optional<std::vector<Route>> route_all(int n, const std::vector<Slot>& slots, std::vector<std::vector<Offset>> pool, int steps,
                                            int period, unsigned seed) {
  std::mt19937 rng(seed);
  for (auto& p : pool) std::shuffle(p.begin(), p.end(), rng);
  std::vector<int> order(slots.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  // Longest first: their routes have the least freedom.
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return slots[static_cast<std::size_t>(a)].delay > slots[static_cast<std::size_t>(b)].delay;
  });
  Router router(n, steps, period);
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
    // Rip-up: free one step of one dimension by rerouting the slot that holds it.
    const Offset d = candidates.back();
    for (int dim = 0; dim < n && !placed; ++dim) {
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

std::vector<PlacedPattern> patterns_of(const Topology& t, const std::vector<Route>& routes) {
  std::vector<PlacedPattern> patterns;
  for (const Route& route : routes) patterns.push_back(hypercube_pattern(t, route.offset.bits, route.t, route.order));
  return patterns;
}

/// The offsets by delay (popcount - 1), none detoured.
std::vector<std::vector<Offset>> offsets_by_delay(int n) {
  std::vector<std::vector<Offset>> pool(static_cast<std::size_t>(n));
  for (unsigned d = 1; d < (1U << n); ++d) pool[static_cast<std::size_t>(__builtin_popcount(d) - 1)].push_back({d, false});
  return pool;
}

/// An order of `delays` over the positions 0..P-1 in which the ejections i + delay are distinct
/// modulo P, by min-conflicts local search (swap two positions' delays; a conflicted position
/// picked at random, the best of 40 random partners, a worse swap now and then). Seeded.
std::optional<std::vector<int>> cyclic_order(std::vector<int> delays, int P, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::sort(delays.begin(), delays.end());
  const auto n = static_cast<int>(delays.size());
  const auto target = [&](int i, int d) { return static_cast<std::size_t>((i + d) % P); };
  std::vector<int> occ(static_cast<std::size_t>(P), 0);
  for (int i = 0; i < n; ++i) ++occ[target(i, delays[static_cast<std::size_t>(i)])];
  std::vector<int> conflicted;
  const auto refresh = [&] {
    conflicted.clear();
    for (int i = 0; i < n; ++i)
      if (occ[target(i, delays[static_cast<std::size_t>(i)])] > 1) conflicted.push_back(i);
  };
  refresh();
  const std::int64_t max_moves = 200LL * n + 100000;
  const auto excess = [](int c) { return c > 1 ? c - 1 : 0; };
  for (std::int64_t move = 0; move < max_moves && !conflicted.empty(); ++move) {
    if (move % 64 == 0) refresh();
    if (conflicted.empty()) break;
    const int i = conflicted[std::uniform_int_distribution<std::size_t>(0, conflicted.size() - 1)(rng)];
    int best_j = -1, best_delta = 0;
    for (int tries = 0; tries < 40; ++tries) {
      const int j = std::uniform_int_distribution<int>(0, n - 1)(rng);
      const int di = delays[static_cast<std::size_t>(i)], dj = delays[static_cast<std::size_t>(j)];
      if (di == dj) continue;
      const std::size_t ti = target(i, di), tj = target(j, dj), ni = target(i, dj), nj = target(j, di);
      const int before = excess(occ[ti]) + excess(occ[tj]) + excess(occ[ni]) + excess(occ[nj]);
      --occ[ti];
      --occ[tj];
      ++occ[ni];
      ++occ[nj];
      const int after = excess(occ[ti]) + excess(occ[tj]) + excess(occ[ni]) + excess(occ[nj]);
      ++occ[ti];
      ++occ[tj];
      --occ[ni];
      --occ[nj];
      if (best_j < 0 || after - before < best_delta) {
        best_j = j;
        best_delta = after - before;
      }
    }
    if (best_j < 0 || (best_delta > 0 && std::uniform_int_distribution<int>(0, 19)(rng) != 0)) continue;
    int& di = delays[static_cast<std::size_t>(i)];
    int& dj = delays[static_cast<std::size_t>(best_j)];
    --occ[target(i, di)];
    --occ[target(best_j, dj)];
    std::swap(di, dj);
    ++occ[target(i, di)];
    ++occ[target(best_j, dj)];
    if (occ[target(i, di)] > 1) conflicted.push_back(i);
    if (occ[target(best_j, dj)] > 1) conflicted.push_back(best_j);
  }
  refresh();
  if (!conflicted.empty()) return std::nullopt;
  return delays;
}

/// The two parts' blocks (injection order within each part still free), or nothing.
struct Plan {
  int c = 0;
  std::int64_t r = 0;
  Blocks first, last;
};

std::optional<Plan> plan(int n) {
  const std::int64_t K = (std::int64_t{1} << n) - 1;  // offsets
  Multiset all;                                        // delay w - 1 -> offsets
  std::int64_t sum = 0;
  for (int w = 1; w <= n; ++w) {
    std::int64_t k = 1;
    for (int i = 0; i < w; ++i) k = k * (n - i) / (i + 1);  // binomial(n, w)
    all[w - 1] = k;
    sum += k * (w - 1);
  }
  Plan p;
  p.c = static_cast<int>(sum / K);
  p.r = sum - p.c * K;
  // Pairs a = 1 first covers every n <= 16 but 13 and 15; pairs a = 2 first covers those.
  for (const int first_a : {1, 2}) {
    Multiset count = all;
    const std::optional<Multiset> last = last_part(count, p.c, p.r, n, first_a);
    if (!last) continue;
    Multiset first_disp, last_disp;
    for (const auto& [delay, k] : count)
      if (k > 0) first_disp[delay - p.c] = k;
    for (const auto& [delay, k] : *last)
      if (k > 0) last_disp[delay - p.c - 1] = k;
    std::optional<Blocks> first = realize(first_disp), second = realize(last_disp);
    if (!first || !second) continue;
    p.first = std::move(*first);
    p.last = std::move(*second);
    return p;
  }
  return std::nullopt;
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
    const std::optional<std::vector<Route>> routes = route_all(n, slots, offsets_by_delay(n), steps, 0, seed);
    if (routes) return patterns_of(t, *routes);
  }
  return std::nullopt;
}

std::optional<std::vector<PlacedPattern>> hypercube_pipeline_periodic_patterns(const Topology& t) {
  if (!hypercube_doubling_applies(t)) return std::nullopt;
  const int n = static_cast<int>(t.factors().size());
  if (n > kMaxPeriodicDimensions) return std::nullopt;
  const int P = (1 << n) - 1;  // the period bound N - 1 (nic_ejection)
  // With P = N - 1 every slot of every NIC injects once and ejects once, so the delays (route
  // length - 1) must add up to a multiple of P: the smallest multiple c P at or above the minimal
  // routes' sum with an even difference, made up by x detours of two hops each.
  std::int64_t minimal = 0;
  for (unsigned d = 1; d <= static_cast<unsigned>(P); ++d) minimal += __builtin_popcount(d) - 1;
  std::int64_t c = (minimal + P - 1) / P;
  if ((c * P - minimal) % 2 != 0) ++c;
  const std::int64_t x = (c * P - minimal) / 2;
  // The lightest offsets take the detours (the all-ones offset has no dimension to spare).
  std::vector<Offset> offsets;
  for (unsigned d = 1; d <= static_cast<unsigned>(P); ++d) offsets.push_back({d, false});
  std::stable_sort(offsets.begin(), offsets.end(),
                   [](const Offset& a, const Offset& b) { return __builtin_popcount(a.bits) < __builtin_popcount(b.bits); });
  std::int64_t detours = 0;
  for (Offset& o : offsets)
    if (detours < x && __builtin_popcount(o.bits) < n) {
      o.detour = true;
      ++detours;
    }
  if (detours < x) return std::nullopt;
  std::vector<std::vector<Offset>> pool(static_cast<std::size_t>(n) + 2);
  std::vector<int> delays;
  for (const Offset& o : offsets) {
    const int delay = __builtin_popcount(o.bits) - 1 + (o.detour ? 2 : 0);
    pool[static_cast<std::size_t>(delay)].push_back(o);
    delays.push_back(delay);
  }
  for (unsigned seed = 1; seed <= kSeeds; ++seed) {
    const std::optional<std::vector<int>> order = cyclic_order(delays, P, seed);
    if (!order) continue;
    std::vector<Slot> slots;
    for (int i = 0; i < P; ++i) slots.push_back({i, (*order)[static_cast<std::size_t>(i)]});
    const std::optional<std::vector<Route>> routes = route_all(n, slots, pool, P, P, seed);
    if (routes) return patterns_of(t, *routes);
  }
  return std::nullopt;
}

}  // namespace totex
