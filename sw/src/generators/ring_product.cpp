// SPDX-License-Identifier: Apache-2.0
#include "ring_product.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>

#include "cnf.hpp"
#include "periodic_parts.hpp"
#include "totex/bounds/bounds.hpp"
#include "totex/error.hpp"
#include "totex/generators/periodic.hpp"
#include "totex/network/spec.hpp"

namespace totex {
namespace {

using Clock = std::chrono::steady_clock;

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

/// One route of B's schedule out of node 0: its destination's coordinates, its slot and moves.
struct BaseRoute {
  std::vector<int> offset;
  std::int64_t start = 0;
  std::vector<std::pair<int, int>> moves;
};

/// Node 0's routes in B's translation-invariant schedule (every other node's are their translates).
std::vector<BaseRoute> base_routes(const Topology& b, const Schedule& s) {
  std::vector<std::vector<std::pair<std::int64_t, std::pair<int, int>>>> hops(at(b.nodes()));
  s.for_each_step([&](std::size_t step, const std::vector<Transfer>& transfers) {
    for (const Transfer& tr : transfers) {
      if (tr.msg.src != 0) continue;
      const std::vector<int> from = b.coordinates(tr.from);
      const std::vector<int> to = b.coordinates(b.neighbor(tr.from, tr.port));
      for (std::size_t d = 0; d < from.size(); ++d)
        if (from[d] != to[d]) {
          const int size = b.factors()[d].size;
          hops[at(tr.msg.dst)].push_back(
              {static_cast<std::int64_t>(step), {static_cast<int>(d), ((to[d] - from[d]) % size + size) % size}});
        }
    }
  });
  std::vector<BaseRoute> routes;
  for (NodeId v = 1; v < b.nodes(); ++v) {
    auto& h = hops[at(v)];
    std::sort(h.begin(), h.end());
    BaseRoute r{b.coordinates(v), h.empty() ? 0 : h.front().first, {}};
    for (std::size_t j = 0; j < h.size(); ++j) {
      // nic moves every message one hop per step: a gap would be a buffered relay
      if (h[j].first != r.start + static_cast<std::int64_t>(j))
        throw std::logic_error("ring product: the base schedule holds a message at a relay");
      r.moves.push_back(h[j].second);
    }
    if (r.moves.empty()) throw std::logic_error("ring product: the base schedule lacks a message");
    routes.push_back(std::move(r));
  }
  return routes;
}

/// A ring offset taken one way: `hops` moves of sign `sign` (a tie at m/2 has a label per sign).
struct Label {
  int offset = 0;
  int sign = 1;
  int hops = 0;
};

std::vector<Label> ring_labels(int m) {
  std::vector<Label> labels{{0, 1, 0}};
  for (int c = 1; c < m; ++c) {
    if (c <= m - c) labels.push_back({c, 1, c});
    if (m - c <= c) labels.push_back({c, -1, m - c});
  }
  return labels;
}

/// The moves one node's messages make round a ring of size m, one per offset (a tie counted once).
std::int64_t ring_moves(int m) {
  std::int64_t moves = 0;
  for (int c = 1; c < m; ++c) moves += std::min(c, m - c);
  return moves;
}

struct PlanAttempt {
  SatOutcome outcome = SatOutcome::Unknown;
  std::vector<PlacedPattern> patterns;
  std::int64_t variables = 0;  // SAT only
  bool capped = false;         // SAT stopped by the wall-clock safety cap (cnf.hpp), not its conflicts
};

/// One message placed: B's route `route` (-1: none, the offset (0, c)) leaves B's part at slot
/// `b_slot`, label `label`'s ring moves before it (ending at b_slot).
struct Choice {
  int route;
  int label;
  std::int64_t b_slot;
};

/// The question of the header for `windows` windows of `window` slots (a multiple of B's period:
/// B's schedule is valid modulo any multiple of its period), asked by SAT and by a local search.
/// Resources: the + ring track (0 .. P-1), the - ring track (P .. 2P-1), inject and eject slots.
struct Windows {
  Windows(const Topology& topo, int ring_dim_, const std::vector<BaseRoute>& base, int window_, int windows_)
      : t(topo), ring_dim(ring_dim_), routes(base), window(window_), windows(windows_),
        m(topo.factors()[at(ring_dim_)].size), P(static_cast<std::int64_t>(windows_) * window_), labels(ring_labels(m)) {
    // Offset (0, c) has no B part. Its ring moves end in a slot e0 + q * window, e0 a slot of the
    // window in which no route of B is injected or ejected, like a route of B of no moves (where
    // there is one: torus:8x8 has exactly one, its slot sums force it).
    std::vector<char> taken(at(window), 0);
    for (const BaseRoute& r : routes) {
      taken[at(r.start % window)] = 1;
      taken[at((r.start + static_cast<std::int64_t>(r.moves.size())) % window)] = 1;
    }
    const auto free_slot = std::find(taken.begin(), taken.end(), 0);
    e0 = free_slot == taken.end() ? -1 : free_slot - taken.begin();
  }
  [[nodiscard]] std::size_t slot(std::int64_t x) const { return at((x % P + P) % P); }
  [[nodiscard]] std::int64_t b_slot(int route, int q) const {
    return (route >= 0 ? routes[at(route)].start % window : e0) + static_cast<std::int64_t>(q) * window;
  }
  [[nodiscard]] int length(int route) const { return route >= 0 ? static_cast<int>(routes[at(route)].moves.size()) : 0; }
  [[nodiscard]] std::size_t resources() const { return at(4 * P); }
  template <class F>
  void for_each_resource(const Choice& c, F f) const {
    const Label& l = labels[at(c.label)];
    for (int j = 0; j < l.hops; ++j) f((l.sign > 0 ? 0 : at(P)) + slot(c.b_slot - l.hops + j));
    f(at(2 * P) + slot(c.b_slot - l.hops));
    f(at(3 * P) + slot(c.b_slot + length(c.route)));
  }
  /// Both ring tracks full: every slot held.
  [[nodiscard]] bool tracks_full() const {
    return ring_moves(m) * (static_cast<std::int64_t>(routes.size()) + 1) == 2 * P;
  }
  [[nodiscard]] std::vector<PlacedPattern> patterns(const std::vector<Choice>& placed) const {
    std::vector<int> others;  // B's dimensions in the torus
    for (int d = 0; d < static_cast<int>(t.factors().size()); ++d)
      if (d != ring_dim) others.push_back(d);
    std::vector<PlacedPattern> out;
    for (const Choice& ch : placed) {
      const Label& l = labels[at(ch.label)];
      if (ch.route < 0 && l.offset == 0) continue;
      std::vector<int> dst(t.factors().size(), 0);
      dst[at(ring_dim)] = l.offset;
      PlacedPattern pp;
      pp.start = static_cast<std::int64_t>(slot(ch.b_slot - l.hops));
      for (int j = 0; j < l.hops; ++j) pp.word.moves.push_back({ring_dim, l.sign > 0 ? 1 : m - 1});
      if (ch.route >= 0) {
        const BaseRoute& r = routes[at(ch.route)];
        for (std::size_t d = 0; d < others.size(); ++d) dst[at(others[d])] = r.offset[d];
        for (const auto& mv : r.moves) pp.word.moves.push_back({others[at(mv.first)], mv.second});
      }
      pp.dst = t.node_at(dst);
      out.push_back(std::move(pp));
    }
    return out;
  }

  const Topology& t;
  int ring_dim;
  const std::vector<BaseRoute>& routes;
  int window, windows, m;
  std::int64_t P;
  std::vector<Label> labels;
  std::int64_t e0 = -1;
};

/// SAT: one variable per route, window and label (offsets (0, c): per label and window of e0, or
/// per slot where no slot is free); at most one holder per resource and slot.
PlanAttempt sat_windows(const Windows& w, const SatLimit& limit) {
  CaDiCaL::Solver solver;
  solver.configure("sat");  // satisfiable where the windows suffice; the ring tracks are tight
  Cnf cnf(solver);
  std::vector<std::vector<int>> holders(w.resources());
  std::vector<std::pair<int, Choice>> choices;
  // Offering the ring moves after B's route too (from b_slot + len) made the model harder:
  // torus:8x8x8 at 512, SAT in 1 s with moves before only, unknown after 28 s.
  const auto add = [&](const Choice& c) {
    const int v = cnf.var();
    w.for_each_resource(c, [&](std::size_t r) { holders[r].push_back(v); });
    choices.push_back({v, c});
    return v;
  };
  for (int i = 0; i < static_cast<int>(w.routes.size()); ++i) {
    std::vector<std::vector<int>> per_window(at(w.windows)), per_offset(at(w.m));
    for (int q = 0; q < w.windows; ++q)
      for (int l = 0; l < static_cast<int>(w.labels.size()); ++l) {
        const int v = add({i, l, w.b_slot(i, q)});
        per_window[at(q)].push_back(v);
        per_offset[at(w.labels[at(l)].offset)].push_back(v);
      }
    for (const auto& x : per_window) cnf.at_most(x, 1);
    for (const auto& x : per_offset) cnf.exactly_one(x);
  }
  for (int c = 1; c < w.m; ++c) {
    std::vector<int> any;
    for (int l = 0; l < static_cast<int>(w.labels.size()); ++l) {
      if (w.labels[at(l)].offset != c) continue;
      if (w.e0 >= 0)
        for (int q = 0; q < w.windows; ++q) any.push_back(add({-1, l, w.b_slot(-1, q)}));
      else
        for (std::int64_t p = 0; p < w.P; ++p) any.push_back(add({-1, l, p}));
    }
    cnf.exactly_one(any);
  }
  for (const auto& h : holders)
    if (h.size() > 1) cnf.at_most(h, 1);
  if (w.tracks_full())  // every ring slot held (redundant, propagates)
    for (std::size_t r = 0; r < at(2 * w.P); ++r) cnf.clause(holders[r]);
  PlanAttempt a;
  a.variables = cnf.vars();
  SatStats stats;
  a.outcome = solve_limited(solver, limit, stats);
  a.capped = stats.capped;
  if (a.outcome != SatOutcome::Sat) return a;
  std::vector<Choice> placed;
  for (const auto& [v, c] : choices)
    if (solver.val(v) > 0) placed.push_back(c);
  a.patterns = w.patterns(placed);
  return a;
}

/// Min-conflicts local search over the same question where a slot e0 is free: each route (and the
/// offsets (0, c), as a route of no moves at e0) holds its labels in a permutation of its windows;
/// a step takes a resource held twice, one of its holders, and the best of swapping that holder's
/// window with another window of its route or turning a tie round (ties broken at random; a
/// random such move one time in ten). Seeded: the same on every machine. It settles models with
/// slack on the ring tracks in milliseconds (torus:8x16x16, 8 windows of 525: 0.014 s, CaDiCaL
/// 2.6 s) and none that are full (torus:8x8x8, 6x6x6: SAT does). Neither settles torus:16x16x16
/// at 8400 (ring tracks 97.5 % full, B's 255 routes in 525 slots): the search stalls at about 2,800
/// resources held twice, even at 17 windows; CaDiCaL is unknown after 125 s.
PlanAttempt local_search_windows(const Windows& w, std::int64_t work, std::uint64_t seed) {
  PlanAttempt a;
  if (w.e0 < 0) return a;
  std::mt19937_64 rng(seed);
  const int items = static_cast<int>(w.routes.size()) + 1;  // the last: the offsets (0, c)
  const auto route_of = [&](int i) { return i + 1 == items ? -1 : i; };
  // lab[i][q]: the label in window q of item i, -1 none.
  std::vector<std::vector<int>> lab(at(items), std::vector<int>(at(w.windows), -1));
  std::vector<int> count(w.resources(), 0);
  std::vector<std::vector<std::pair<int, int>>> holders(w.resources());
  std::vector<int> over, over_at(w.resources(), -1);  // resources held more than once
  const auto bump = [&](std::size_t r, int d) {
    const int before = count[r];
    count[r] += d;
    if (before <= 1 && count[r] > 1) {
      over_at[r] = static_cast<int>(over.size());
      over.push_back(static_cast<int>(r));
    } else if (before > 1 && count[r] <= 1) {
      const int last = over.back();
      over[at(over_at[r])] = last;
      over_at[at(last)] = over_at[r];
      over.pop_back();
      over_at[r] = -1;
    }
    return (count[r] > 1 ? count[r] - 1 : 0) - (before > 1 ? before - 1 : 0);
  };
  // Adds (d = 1) or removes (d = -1) item i's label l in window q; returns the change of the cost
  // (the holders beyond one, summed over the resources).
  const auto touch = [&](int i, int q, int l, int d, bool keep_holders) {
    if (l < 0) return 0;
    int delta = 0;
    w.for_each_resource({route_of(i), l, w.b_slot(route_of(i), q)}, [&](std::size_t r) {
      delta += bump(r, d);
      if (!keep_holders) return;
      auto& h = holders[r];
      if (d > 0) h.push_back({i, q});
      else h.erase(std::find(h.begin(), h.end(), std::make_pair(i, q)));
    });
    return delta;
  };
  const int tie = w.m % 2 == 0 ? w.m / 2 : -1;
  std::vector<int> tie_label;  // the labels of the tie offset (+ then -)
  for (int l = 0; l < static_cast<int>(w.labels.size()); ++l)
    if (w.labels[at(l)].offset == tie) tie_label.push_back(l);
  for (int i = 0; i < items; ++i) {
    std::vector<int> mine;  // one label per offset (0 only for routes of B), a tie either way
    for (int c = i + 1 == items ? 1 : 0; c < w.m; ++c)
      if (c == tie) mine.push_back(tie_label[rng() % 2]);
      else
        for (int l = 0; l < static_cast<int>(w.labels.size()); ++l)
          if (w.labels[at(l)].offset == c) mine.push_back(l);
    mine.resize(at(w.windows), -1);
    std::shuffle(mine.begin(), mine.end(), rng);
    for (int q = 0; q < w.windows; ++q) {
      lab[at(i)][at(q)] = mine[at(q)];
      touch(i, q, mine[at(q)], 1, true);
    }
  }
  // A move: swap windows q and q2 of item i (q2 < 0: turn q's tie round).
  const auto apply = [&](int i, int q, int q2, bool keep) {
    int& lq = lab[at(i)][at(q)];
    int delta = touch(i, q, lq, -1, keep);
    if (q2 < 0) {
      lq = lq == tie_label[0] ? tie_label[1] : tie_label[0];
      return delta + touch(i, q, lq, 1, keep);
    }
    int& l2 = lab[at(i)][at(q2)];
    delta += touch(i, q2, l2, -1, keep);
    std::swap(lq, l2);
    return delta + touch(i, q, lq, 1, keep) + touch(i, q2, l2, 1, keep);
  };
  for (std::int64_t spent = 0; !over.empty() && spent < work;) {
    const auto& h = holders[at(over[rng() % over.size()])];
    const auto [i, q] = h[rng() % h.size()];
    std::vector<int> moves;  // q2, or -1 for the tie turn
    for (int q2 = 0; q2 < w.windows; ++q2)
      if (q2 != q && lab[at(i)][at(q2)] != lab[at(i)][at(q)]) moves.push_back(q2);
    if (lab[at(i)][at(q)] >= 0 && w.labels[at(lab[at(i)][at(q)])].offset == tie) moves.push_back(-1);
    if (moves.empty()) continue;
    int pick = moves[rng() % moves.size()];
    if (rng() % 10 != 0) {
      int best = 0, ties = 0;
      for (int q2 : moves) {
        const int d = apply(i, q, q2, false);
        apply(i, q, q2, false);  // a swap (or a turn) twice is the identity
        spent += 1;
        if (ties == 0 || d < best) {
          best = d;
          pick = q2;
          ties = 1;
        } else if (d == best && rng() % static_cast<std::uint64_t>(++ties) == 0) {
          pick = q2;
        }
      }
    }
    apply(i, q, pick, true);
    ++spent;
  }
  if (!over.empty()) return a;
  a.outcome = SatOutcome::Sat;
  std::vector<Choice> placed;
  for (int i = 0; i < items; ++i)
    for (int q = 0; q < w.windows; ++q)
      if (lab[at(i)][at(q)] >= 0) placed.push_back({route_of(i), lab[at(i)][at(q)], w.b_slot(route_of(i), q)});
  a.patterns = w.patterns(placed);
  return a;
}

std::string seconds_text(Clock::time_point t0) {
  return std::to_string(std::chrono::duration<double>(Clock::now() - t0).count()).substr(0, 5) + " s";
}

}  // namespace

std::string ring_product_why_not(const Topology& t, Model m) {
  if (m == Model::SinglePort) return "schedules nic and all-port";
  if (!t.is_product() || t.factors().size() < 3 || t.is_partial())
    return "needs a torus of three or more dimensions, every node a processor";
  for (const Factor& f : t.factors())
    if (f.kind != FactorKind::Ring || f.size < 3) return "needs every dimension a ring of size >= 3";
  return "";
}

RingProductPlan ring_product_periodic(const Topology& t, Model m, double budget) {
  if (const std::string why = ring_product_why_not(t, m); !why.empty())
    throw UsageError("the ring product " + why + " (" + t.spec() + ")");
  m = Model::Nic;  // the plan is built under nic for all-port too (nic's rules include all-port's)
  // Every SAT call stops at its conflicts (the same plan on every machine); the wall clock is a
  // safety cap per call only, 40 x budget + 120 s, which marks the log when it fires. Its
  // conflicts take much less than that: torus:12x12x12 (budget 8), 14 windows, 2 M conflicts in
  // 38 s on a quiet machine; at 10 x budget + 60 (140 s) a loaded machine reached the cap there.
  const auto conflicts = static_cast<std::int64_t>(budget * 2.5e5);
  const double safety_seconds = 40 * budget + 120;
  const std::int64_t bound = periodic_lower_bound(lower_bound(t, m)).steps;
  const int dims = static_cast<int>(t.factors().size());
  std::vector<int> order(at(dims));
  for (int d = 0; d < dims; ++d) order[at(d)] = d;
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return t.factors()[at(a)].size > t.factors()[at(b)].size; });
  RingProductPlan best;
  // One attempt: `windows` windows of `window` slots (a multiple of B's period) on B's routes, the
  // local search first (it settles the models with slack), then SAT (the full ones).
  const auto attempt = [&](int ring_dim, const std::string& head, const std::vector<BaseRoute>& routes, int window,
                           int windows) {
    const auto s0 = Clock::now();
    const Windows w(t, ring_dim, routes, window, windows);
    PlanAttempt a = local_search_windows(w, static_cast<std::int64_t>(budget * 2.5e5), 1);
    std::string how = "local search";
    if (a.outcome != SatOutcome::Sat) {
      a = sat_windows(w, {conflicts, safety_cap(safety_seconds)});
      how = "local search: none; SAT: " + std::string(outcome_word(a.outcome)) + ", " + std::to_string(a.variables) +
            " variables" + (a.capped ? std::string(", ") + kCappedNote : std::string());
      if (a.capped) best.capped = true;
    }
    const std::int64_t period = static_cast<std::int64_t>(window) * windows;
    best.log.push_back(head + ", " + std::to_string(windows) + " windows of " + std::to_string(window) + ": period " +
                       std::to_string(period) + " " + (a.outcome == SatOutcome::Sat ? "found" : "not found") + " (" + how +
                       "), " + seconds_text(s0));
    if (a.outcome == SatOutcome::Sat && (best.period == 0 || period < best.period)) {
      best.patterns = std::move(a.patterns);
      best.period = static_cast<int>(period);
    }
    return a.outcome;
  };
  std::vector<int> sizes_tried;
  for (int ring_dim : order) {
    if (best.period == bound) break;
    const int ring = t.factors()[at(ring_dim)].size;
    if (std::find(sizes_tried.begin(), sizes_tried.end(), ring) != sizes_tried.end()) continue;
    sizes_tried.push_back(ring);
    std::string spec = "torus:";
    for (int d = 0; d < dims; ++d)
      if (d != ring_dim) spec += (spec.back() == ':' ? "" : "x") + std::to_string(t.factors()[at(d)].size);
    const Topology base = parse_topology(spec);
    PeriodicRequest req;
    req.budget_seconds = budget / 2;  // B's SAT calls: the ring's are the larger ones
    req.translation_invariant_only = true;
    const PeriodicOutcome bo = periodic_schedule(base, m, req);
    const int pb = bo.schedule.period;
    const std::string head = "ring dimension " + std::to_string(ring_dim) + " (size " + std::to_string(ring) +
                             "), base " + spec + " period " + std::to_string(pb) + " (" + bo.algorithm + ")";
    if (!bo.translation_invariant) {
      best.log.push_back(head + ": not translation-invariant, skipped");
      continue;
    }
    const std::int64_t ring_hops = ring_moves(ring) * base.nodes();
    // The period: at least `ring` windows, each ring track holding half the ring moves, the bound.
    const std::int64_t need = std::max(bound, (ring_hops + 1) / 2);
    const int w0 = std::max<int>(ring, static_cast<int>((need + pb - 1) / pb));
    // B at a longer period of its own where ring windows of it reach a shorter period than
    // windows of B's best: torus:6x6x6 takes 6 windows of 36 (216) where 35 needs 7 (245).
    if (const int pc = static_cast<int>((need + ring - 1) / ring);
        pc > pb && static_cast<std::int64_t>(pc) * ring < static_cast<std::int64_t>(w0) * pb &&
        (best.period == 0 || static_cast<std::int64_t>(pc) * ring < best.period)) {
      const periodic::Problem prob = periodic::translation_invariant_problem(base, m == Model::Nic);
      std::vector<periodic::Placement> pl;
      std::optional<std::vector<periodic::Placement>> g = periodic::greedy_pack(prob, pc);
      if (g) pl = std::move(*g);
      SatStats stats;
      const SatOutcome o =
          g ? SatOutcome::Sat : periodic::sat_pack(prob, pc, {conflicts, safety_cap(safety_seconds)}, pl, nullptr,
                                                   periodic::SatHint::None, &stats);
      if (stats.capped) best.capped = true;
      const std::string head_c = "ring dimension " + std::to_string(ring_dim) + " (size " + std::to_string(ring) +
                                 "), base " + spec + " period " + std::to_string(pc) + " (" +
                                 (g ? "first fit" : o == SatOutcome::Sat ? "SAT" : "not found") + ")";
      if (o == SatOutcome::Sat) {
        const Schedule bs = periodic::expand_translation_invariant(base, m, prob, pl, pc);
        attempt(ring_dim, head_c, base_routes(base, bs), pc, ring);
      } else {
        best.log.push_back(head_c);
      }
    }
    // Windows of one period of B: windows of several would bunch the slots where B's routes
    // start (torus:8x8x16, 16 windows of 128: every route of B starts in the first 64, UNSAT).
    // A longer period only where the shorter is infeasible.
    const std::vector<BaseRoute> routes = base_routes(base, bo.schedule);
    for (int w = w0; w <= w0 + 2; ++w) {
      if (best.period > 0 && static_cast<std::int64_t>(w) * pb >= best.period) break;
      if (attempt(ring_dim, head, routes, pb, w) != SatOutcome::Unsat) break;
    }
  }
  return best;
}

Schedule ring_product_schedule(const Topology& t, Model m, double budget, std::vector<std::string>& log) {
  // Built under nic, whose rules include all-port's (one message per link and step, no relay
  // waits): the same patterns serve an all-port request (torus:8x16x16, where no table applies).
  RingProductPlan plan = ring_product_periodic(t, m, budget);
  for (std::string& line : plan.log) log.push_back("product: " + line);
  if (plan.period == 0) return Schedule{t.spec(), m, "product", {}};  // the verifier rejects it
  // Each message sent once: the periodic schedule's copies of one period, the period cut at the
  // slot that makes the last arrival earliest (no two of them meet: they all run in the periodic one).
  const std::int64_t P = plan.period;
  std::int64_t best_cut = 0, best_end = -1;
  for (std::int64_t cut = 0; cut < P; ++cut) {
    std::int64_t last = 0;
    for (const PlacedPattern& p : plan.patterns)
      last = std::max(last, (p.start - cut + P) % P + static_cast<std::int64_t>(p.word.moves.size()));
    if (best_end < 0 || last < best_end) {
      best_end = last;
      best_cut = cut;
    }
  }
  for (PlacedPattern& p : plan.patterns) p.start = (p.start - best_cut + P) % P;
  log.push_back("product: period " + std::to_string(P) + " cut at slot " + std::to_string(best_cut) + ": " +
                std::to_string(best_end) + " steps");
  // Lazy past a few million transfers: auto holds it while the generators after it run
  // (torus:8x16x16: 42 M transfers, 2.2 GB peak with it materialized beside pattern's).
  constexpr std::int64_t kLazyAbove = 4'000'000;
  return pattern_schedule_of(t, m, std::move(plan.patterns), "product", kLazyAbove);
}

}  // namespace totex
