// SPDX-License-Identifier: Apache-2.0
#include "torus_rotation.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <optional>
#include <random>
#include <stdexcept>
#include <tuple>

#include "cnf.hpp"
#include "periodic_repair.hpp"
#include "product_routes.hpp"
#include "totex/bounds/bounds.hpp"
#include "totex/error.hpp"

namespace totex {
namespace {

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

/// The periodic repair's SAT work, in seconds of the development machine (cnf.hpp: counted in
/// conflicts, the same answer on every machine; torus:16x16 needs 14 of them, 14x14 10, 20x20 3,
/// 18x18 is unknown after 100), and the wall-clock safety stop.
constexpr double kRepairWorkSeconds = 20.0;
constexpr int kRepairSeconds = 300;

/// The four link classes in quarter-turn order: a quarter turn maps class c to c + 1 (mod 4).
/// Class c is (dimension, delta): E = (0, +1), N = (1, +1), W = (0, -1), S = (1, -1).
std::pair<int, int> link_class(int c, int k) {
  switch (c & 3) {
    case 0: return {0, 1};
    case 1: return {1, 1};
    case 2: return {0, k - 1};
    default: return {1, k - 1};
  }
}

/// (x, y) turned q quarter turns, reduced mod k.
std::array<int, 2> turn(int x, int y, int q, int k) {
  for (int i = 0; i < (q & 3); ++i) {
    const int nx = -y;
    y = x;
    x = nx;
  }
  return {((x % k) + k) % k, ((y % k) + k) % k};
}

/// The stream's offsets in its own frame: a easts and b norths, 1 <= a <= m, 0 <= b <= bmax, and
/// the word w: e easts then n norths, period k. sigma(a, b) = (e - a, n - b) maps the grid onto
/// itself; H, a product S_A x S_B of labels with H and sigma(H) partitioning the grid, gives the
/// labels (docs/scale.md#the-rotation-construction): half the rows and every column, or half the
/// columns (the upper half: large a labels start the streams early) and every row.
struct Frame {
  int k = 0, m = 0, bmax = 0, e = 0, n = 0;
  std::vector<int> labels_a, labels_b;  // S_A, S_B
};

/// The stream's grid and word on a k x k torus, no labels chosen.
Frame base_frame(int k) {
  Frame f;
  f.k = k;
  f.m = k / 2;
  f.bmax = k % 2 == 0 ? f.m - 1 : f.m;
  f.e = f.m + 1;
  f.n = k - f.e;
  return f;
}

std::vector<Frame> frames_of(int k) {
  const Frame f = base_frame(k);
  const int rows = f.bmax + 1;
  std::vector<Frame> out;
  if (rows % 2 == 0) {  // rows pair up under b -> n - b: the lower half of the rows, every column
    Frame g = f;
    for (int a = 1; a <= f.m; ++a) g.labels_a.push_back(a);
    for (int b = 0; b < rows / 2; ++b) g.labels_b.push_back(b);
    out.push_back(g);
  }
  if (f.m % 2 == 0) {  // columns pair up under a -> e - a: the upper half of the columns, every row
    Frame g = f;
    for (int a = f.m / 2 + 1; a <= f.m; ++a) g.labels_a.push_back(a);
    for (int b = 0; b < rows; ++b) g.labels_b.push_back(b);
    out.push_back(g);
  }
  return out;
}

/// The label sequence: i = u p + v, a_i = S_A[v], b_i = S_B[(s v + u) mod r]. (a_i, b_i) runs over
/// H once and so does (a_{i+1}, b_i), for any s. The four streams run the sequence `spacing`
/// positions apart; s and the spacing are chosen so that the four positions a stream apart always
/// carry four different a labels and four different b labels. Empty when no choice does.
struct Labels {
  std::vector<int> a, b;
  std::int64_t spacing = 1;
};

bool four_differ(const std::vector<int>& x, std::size_t spacing) {
  const std::size_t n = x.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t d1 = 0; d1 < 4; ++d1)
      for (std::size_t d2 = d1 + 1; d2 < 4; ++d2)
        if (x[(i + d1 * spacing) % n] == x[(i + d2 * spacing) % n]) return false;
  return true;
}

Labels label_sequence(const Frame& f) {
  const auto p = static_cast<int>(f.labels_a.size());
  const auto r = static_cast<int>(f.labels_b.size());
  if (p < 4 || r < 4) return {};
  const auto M = static_cast<std::size_t>(p * r);
  for (std::size_t spacing = 1; spacing < M; ++spacing)
    for (int s = 0; s < r; ++s) {
      Labels l;
      l.spacing = static_cast<std::int64_t>(spacing);
      for (int u = 0; u < r; ++u)
        for (int v = 0; v < p; ++v) {
          l.a.push_back(f.labels_a[static_cast<std::size_t>(v)]);
          l.b.push_back(f.labels_b[static_cast<std::size_t>((s * v + u) % r)]);
        }
      if (four_differ(l.a, spacing) && four_differ(l.b, spacing)) return l;
    }
  return {};
}

/// Where no product H works (odd k = 11, 13: a side of the grid has fewer than four labels; k = 2
/// mod 4: sigma fixes the offset (e/2, n/2), which no H can hold), a depth-first search for a
/// sequence with the same two properties over the grid less sigma's fixed point: the routes
/// (a_i, b_i) and sigma(a_{i+1}, b_i) are those offsets, each once, and the four positions a
/// spacing apart carry four different a and four different b labels. Spacings 1..3, eight fixed
/// seeds, a node budget per try: deterministic (own shuffle), milliseconds where it is used. The
/// fixed point, turned four ways, is left to the tail (first fit after the core).
class LabelSearch {
 public:
  LabelSearch(const Frame& f, int spacing, unsigned seed)
      : f_(f), rows_(f.bmax + 1), s_(spacing), rng_(seed), used_(static_cast<std::size_t>(f.m * (f.bmax + 1)), 0) {
    int free = f.m * rows_;
    for (int a = 1; a <= f.m; ++a)
      for (int b = 0; b < rows_; ++b)
        if (f.e - a == a && f.n - b == b) {  // sigma's fixed point
          used_[cell(a, b)] = 1;
          --free;
        }
    M_ = free / 2;
    a_.assign(at(M_), 0);
    b_.assign(at(M_), 0);
  }
  std::optional<Labels> run() {
    if (!step(0)) return std::nullopt;
    return Labels{a_, b_, s_};
  }

 private:
  static constexpr std::int64_t kBudget = 200'000;
  [[nodiscard]] std::size_t cell(int a, int b) const { return at((a - 1) * rows_ + b); }
  [[nodiscard]] bool window_ok(int p) const {  // positions p, p + s, p + 2s, p + 3s (cyclic)
    for (int q1 = 0; q1 < 4; ++q1)
      for (int q2 = q1 + 1; q2 < 4; ++q2) {
        const std::size_t x = at((p + q1 * s_) % M_), y = at((p + q2 * s_) % M_);
        if (a_[x] == a_[y] || b_[x] == b_[y]) return false;
      }
    return true;
  }
  bool step(int i) {
    if (++nodes_ > kBudget) return false;
    if (i == M_) {
      if (used_[cell(f_.e - a_[0], f_.n - b_[at(M_ - 1)])]) return false;  // the route closing the cycle
      for (int p = 0; p < M_; ++p)
        if (!window_ok(p)) return false;
      return true;
    }
    std::vector<std::pair<int, int>> cand;
    for (int a = 1; a <= f_.m; ++a)
      for (int b = 0; b < rows_; ++b) {
        if (used_[cell(a, b)]) continue;
        if (i > 0) {
          const std::size_t back = cell(f_.e - a, f_.n - b_[at(i - 1)]);
          if (used_[back] || back == cell(a, b)) continue;
        }
        bool ok = true;
        for (int q = 1; q <= 3 && ok; ++q) {
          const int j = i - q * s_;
          ok = j < 0 || (a_[at(j)] != a && b_[at(j)] != b);
        }
        if (ok) cand.emplace_back(a, b);
      }
    for (std::size_t n = cand.size(); n > 1; --n) std::swap(cand[n - 1], cand[rng_() % n]);
    for (const auto& [a, b] : cand) {
      const std::size_t here = cell(a, b);
      const std::size_t back = i > 0 ? cell(f_.e - a, f_.n - b_[at(i - 1)]) : here;
      used_[here] = used_[back] = 1;
      a_[at(i)] = a;
      b_[at(i)] = b;
      if (step(i + 1)) return true;
      used_[here] = used_[back] = 0;
    }
    return false;
  }
  const Frame& f_;
  int rows_;
  int M_ = 0;
  int s_;
  std::mt19937 rng_;
  std::vector<char> used_;
  std::vector<int> a_, b_;
  std::int64_t nodes_ = 0;
};

std::optional<std::pair<Frame, Labels>> frame_and_labels(int k) {
  for (const Frame& f : frames_of(k))
    if (Labels l = label_sequence(f); !l.a.empty()) return std::pair{f, std::move(l)};
  if ((k % 2 == 1 && k >= 11) || (k % 4 == 2 && k >= 14)) {
    const Frame f = base_frame(k);
    for (int spacing = 1; spacing <= 3; ++spacing)
      for (unsigned seed = 0; seed < 8; ++seed)
        if (std::optional<Labels> l = LabelSearch(f, spacing, seed).run()) return std::pair{f, std::move(*l)};
  }
  return std::nullopt;
}

Word local_word(int easts, int norths, bool norths_first, int q, int k) {
  Word w;
  const std::pair<int, int> east = link_class(q, k), north = link_class(q + 1, k);
  if (norths_first)
    for (int i = 0; i < norths; ++i) w.moves.push_back(north);
  for (int i = 0; i < easts; ++i) w.moves.push_back(east);
  if (!norths_first)
    for (int i = 0; i < norths; ++i) w.moves.push_back(north);
  return w;
}

}  // namespace

std::string rotation_why_not(const Topology& t) {
  if (!t.is_product() || t.is_partial() || t.factors().size() != 2) return "needs a torus KxK with every node a processor";
  const Factor& f0 = t.factors()[0];
  const Factor& f1 = t.factors()[1];
  if (f0.kind != FactorKind::Ring || f1.kind != FactorKind::Ring || f0.size != f1.size)
    return "needs a torus KxK with every node a processor";
  const int k = f0.size;
  if (!frame_and_labels(k))
    return "needs K >= 11 other than 12 (four streams need four distinct labels: a product of labels gives them "
           "for K odd >= 15 and K = 0 mod 4 >= 16, a search for K = 11, 13 and K = 2 mod 4 >= 14)";
  return "";
}

RotationPlan rotation_patterns(const Topology& t, Model m, bool periodic) {
  if (const std::string why = rotation_why_not(t); !why.empty()) throw UsageError("--algo rotation " + why);
  (void)m;  // the core meets nic's port rule, and all-port has none
  const int k = t.factors()[0].size;
  const auto [f, l] = *frame_and_labels(k);
  const auto M = static_cast<std::int64_t>(l.a.size());  // periods of w in the core
  const std::int64_t core = M * k;                         // steps each stream's track is busy
  auto node_of = [&](std::array<int, 2> c) { return t.node_at({c[0], c[1]}); };

  // Start: stream q at sequence position q0 + q * spacing; q0 with the largest first labels (earliest starts).
  std::int64_t q0 = 0;
  int best = -1;
  for (std::int64_t i = 0; i < M; ++i) {
    int low = f.m + 1;
    for (std::int64_t q = 0; q < 4; ++q) low = std::min(low, l.a[at((i + q * l.spacing) % M)]);
    if (low > best) {
      best = low;
      q0 = i;
    }
  }

  RotationPlan plan;
  std::vector<int> owner(at(t.nodes()), -1);  // offset node -> stream that sends it
  std::vector<std::int64_t> busy_until(4, 0);
  for (int q = 0; q < 4; ++q) {
    for (std::int64_t j = 0; j < M; ++j) {
      const std::size_t i = at((q0 + q * l.spacing + j) % M), next = at((q0 + q * l.spacing + j + 1) % M);
      const int a = l.a[i], b = l.b[i];
      const int a2 = f.e - l.a[next], b2 = f.n - b;  // the route from this north run into the next east run
      const std::int64_t en_start = j * k + (f.e - a), ne_start = j * k + f.e + b;
      for (const auto& [easts, norths, start, norths_first] :
           {std::tuple{a, b, en_start, false}, std::tuple{a2, b2, ne_start, true}}) {
        const std::array<int, 2> g = turn(easts, norths, q, k);
        const NodeId dst = node_of(g);
        busy_until[at(q)] = std::max(busy_until[at(q)], start + easts + norths);
        if (owner[at(dst)] >= 0) {  // on even sides (m, 0) turned twice is (m, 0) again: left idle
          ++plan.idle_routes;
          continue;
        }
        owner[at(dst)] = q;
        plan.patterns.push_back({dst, start, local_word(easts, norths, norths_first, q, k), -1});
      }
    }
  }
  plan.core_steps = *std::max_element(busy_until.begin(), busy_until.end());
  if (!periodic) {  // one-shot: the first stream starts in step 0 (w's phase is free)
    std::int64_t first = plan.core_steps;
    for (const PlacedPattern& p : plan.patterns) first = std::min(first, p.start);
    for (PlacedPattern& p : plan.patterns) p.start -= first;
    plan.core_steps -= first;
  }

  // The offsets no stream sends (on even sides the antipode (m, m)): first fit on the link classes
  // left free, after the core (one-shot) or modulo a period grown until they fit (periodic).
  std::vector<NodeId> rest;
  for (NodeId d = 1; d < t.nodes(); ++d)
    if (owner[at(d)] < 0) rest.push_back(d);
  plan.tail_routes = static_cast<int>(rest.size());
  const MoveTable moves(t);
  if (periodic && !rest.empty()) {
    // At the period bound every link is busy in every slot, so the free link slots are exactly
    // what the rest needs, but scattered: a local SAT repair (periodic_repair.hpp) re-routes the
    // core's patterns near them. Else the first fit below, on a longer period.
    const std::int64_t bound = periodic_lower_bound(lower_bound(t, m)).steps;
    if (auto repaired = repair_periodic(t, plan.patterns, rest, bound, kRepairWorkSeconds * kConflictClausesPerSecond,
                                        std::chrono::steady_clock::now() + std::chrono::seconds(kRepairSeconds),
                                        plan.log)) {
      plan.repaired = true;
      plan.patterns = std::move(*repaired);
      plan.steps = bound;
      return plan;
    }
  }
  for (std::int64_t period = core;; ++period) {
    const std::int64_t horizon = plan.core_steps + 4 * k * static_cast<std::int64_t>(rest.size() + 1);
    const std::int64_t len = periodic ? period : horizon;
    std::vector<std::array<char, 4>> used(at(len), {0, 0, 0, 0});
    std::vector<char> starts(at(len), 0), ends(at(len), 0);
    auto slot = [&](std::int64_t s) { return at(periodic ? s % period : s); };
    auto cls_of = [&](int dim, int delta) { return dim + (delta == 1 ? 0 : 2); };
    // Modulo a period longer than the core, the core's last routes wrap onto its first steps:
    // a clash there means a longer period.
    bool fitted = true;
    auto mark = [&](char& c) {
      fitted = fitted && !c;
      c = 1;
    };
    for (const PlacedPattern& p : plan.patterns) {
      const auto h = static_cast<std::int64_t>(p.word.moves.size());
      mark(starts[slot(p.start)]);
      mark(ends[slot(p.start + h - 1)]);
      for (std::int64_t j = 0; j < h; ++j)
        mark(used[slot(p.start + j)][at(cls_of(p.word.moves[at(j)].first, p.word.moves[at(j)].second))]);
    }
    if (!fitted && !periodic) throw std::logic_error("rotation: the core uses a link class twice in a step");
    std::vector<PlacedPattern> extra;
    for (const NodeId d : fitted ? rest : std::vector<NodeId>{}) {
      const std::vector<DimNeed> needs = minimal_needs(t, {0, 0}, t.coordinates(d));
      std::int64_t hops = 0;
      for (const DimNeed& nd : needs) hops += nd.count;
      const MoveFree is_free = [&](std::int64_t s, NodeId, int dim, int delta) {
        return !used[slot(s)][at(cls_of(dim, delta))];
      };
      bool placed = false;
      const std::int64_t last_start = periodic ? period : horizon - hops;
      for (std::int64_t s = 0; s < last_start && !placed; ++s) {
        if (starts[slot(s)] || ends[slot(s + hops - 1)]) continue;
        Word w;
        if (!find_word(moves, 0, needs, s, is_free, w)) continue;
        starts[slot(s)] = 1;
        ends[slot(s + hops - 1)] = 1;
        for (std::int64_t j = 0; j < hops; ++j)
          used[slot(s + j)][at(cls_of(w.moves[at(j)].first, w.moves[at(j)].second))] = 1;
        extra.push_back({d, s, std::move(w), -1});
        placed = true;
      }
      if (!placed) {
        fitted = false;
        break;
      }
    }
    if (!fitted) {
      if (!periodic) throw std::logic_error("rotation: an offset found no room after the core");
      if (period > plan.core_steps + 4 * k * static_cast<std::int64_t>(rest.size() + 1))
        throw std::logic_error("rotation: no period up to the core + 4k per extra offset fits");
      continue;
    }
    plan.patterns.insert(plan.patterns.end(), extra.begin(), extra.end());
    plan.steps = 0;
    for (const PlacedPattern& p : plan.patterns)
      plan.steps = std::max(plan.steps, p.start + static_cast<std::int64_t>(p.word.moves.size()));
    if (periodic) plan.steps = period;
    return plan;
  }
}

Schedule rotation_schedule(const Topology& t, Model m, std::vector<std::string>& log) {
  const RotationPlan plan = rotation_patterns(t, m, false);
  log.push_back("core " + std::to_string(plan.core_steps) + " steps (every link busy in every step once all four "
                "streams run), " + std::to_string(plan.tail_routes) + " offset(s) placed after it, " +
                std::to_string(plan.idle_routes) + " core slot(s) left idle: " + std::to_string(plan.steps) + " steps");
  return pattern_schedule_of(t, m, plan.patterns, "rotation");
}

}  // namespace totex
