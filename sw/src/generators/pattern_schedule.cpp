// SPDX-License-Identifier: Apache-2.0
#include "pattern_schedule.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <numeric>
#include <random>

#include "totex/bounds/bounds.hpp"
#include "cnf.hpp"
#include "totex/error.hpp"
#include "product_routes.hpp"
#include "route_packing.hpp"

namespace totex {
namespace {

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

// How much work a second of --budget buys, measured on the 2-core development machine (a quiet
// torus:8x8 nic run): greedy placements tried (find_word calls); SAT work is counted as in cnf.hpp.
constexpr double kPlacementsPerSecond = 5.0e6;
/// A SAT call that could not afford this many conflicts is not started.
constexpr std::int64_t kMinConflicts = 2000;
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// One destination offset from one source colour: a route item whose NIC keys are colours
/// (`inject` the source colour: every node of it follows the pattern; `eject` the destinations').
using Pattern = RouteItem;

/// The link classes: one per (dimension, delta, colour of the link's tail). With one colour every
/// node follows the same patterns (invariance under every translation); with two (tori of even
/// sides and hypercubes, coloured by the parity of the coordinate sum) the nodes of each colour
/// follow their own (invariance under the even translations), twice the patterns and freedom.
/// Every move flips the colour there, so a pattern's colour in each step follows from its start.
class Directions {
 public:
  Directions(const Topology& t, int colours) : colours_(colours) {
    for (std::size_t d = 0; d < t.factors().size(); ++d) {
      const int k = t.factors()[d].size;
      const bool complete = t.factors()[d].kind == FactorKind::Complete;
      for (int delta = 1; delta < k; ++delta)
        if (complete || k == 2 || delta == 1 || delta == k - 1) id_[{static_cast<int>(d), delta}] = count_++;
    }
  }
  [[nodiscard]] bool has(int dim, int delta) const { return id_.count({dim, delta}) != 0; }
  /// The class of a move out of a node of colour `colour`.
  [[nodiscard]] int id(int dim, int delta, int colour) const { return id_.at({dim, delta}) * colours_ + colour; }
  [[nodiscard]] int count() const { return count_ * colours_; }
  [[nodiscard]] int colours() const { return colours_; }

 private:
  std::map<std::pair<int, int>, int> id_;
  int count_ = 0;
  int colours_ = 1;
};

/// Whether every move flips the parity of the coordinate sum: every factor a ring of even size or
/// two nodes (a hypercube's dimension).
bool two_colourable(const Topology& t) {
  return std::all_of(t.factors().begin(), t.factors().end(), [](const Factor& f) {
    return f.size == 2 || (f.kind == FactorKind::Ring && f.size % 2 == 0);
  });
}

int colour_of(const Topology& t, NodeId v, int colours) {
  if (colours == 1) return 0;
  const std::vector<int> c = t.coordinates(v);
  return std::accumulate(c.begin(), c.end(), 0) % 2;
}

/// Clauses the pattern model of `steps` steps needs, roughly.
std::int64_t estimate_clauses(const std::vector<Pattern>& pats, std::int64_t steps) {
  std::int64_t c = 0;
  for (const Pattern& p : pats) {
    const std::int64_t window = std::max<std::int64_t>(0, steps - p.hops + 1);
    std::int64_t counters = 0;  // sequential counters: steps * count clauses per class used
    for (const DimNeed& d : p.needs) counters += d.choices * 2 * steps * (d.count + 2);
    c += window * (p.hops + 3) + steps * 8 + counters;
  }
  return c;
}

/// The pattern model with `steps` steps as SAT, time-indexed: start[p][s]; active[p][c] iff p is
/// on the way in step c (a window of `hops` steps after its start); go[p][c][d] iff p crosses a
/// link of class d in step c. An active pattern crosses exactly one class per step and each class
/// it needs at most `count` times; as it is active for exactly `hops` = the sum of the counts
/// steps, it crosses each exactly `count` times (an antipodal need's sign fixes which of its two
/// classes may be used), so its moves form a minimal route (any order of them is one). Each class
/// carries at most one pattern per step. With two colours a class is also split by the colour of
/// the link's tail, which in step c is the pattern's colour plus (c - start) mod 2: a variable for
/// the parity of the start decides which half each crossing lands in. On Sat, `pats` get starts
/// and routes.
SatOutcome solve_patterns(Model m, const Directions& dirs, std::vector<Pattern>& pats, std::int64_t steps,
                          std::int64_t conflicts, Clock::time_point end, std::int64_t& used,
                          const std::vector<Pattern>* hint) {
  CaDiCaL::Solver solver;
  Cnf cnf(solver);
  struct Vars {
    std::vector<int> start;                // start[s]
    std::vector<int> active;               // active[c]
    std::vector<int> sign;                 // per need with two choices: true = delta[1]
    std::vector<std::vector<int>> go;      // go[k * 2 + choice][c]
  };
  std::vector<Vars> v(pats.size());
  std::vector<std::vector<std::vector<int>>> on_class(at(dirs.count()), std::vector<std::vector<int>>(at(steps)));
  const int colours = dirs.colours();
  // starts_at[s * colours + colour]: patterns of that source colour starting in step s; ends_at
  // alike by destination colour (nic: one NIC port per node).
  std::vector<std::vector<int>> starts_at(at(steps * colours)), ends_at(at(steps * colours));
  for (std::size_t i = 0; i < pats.size(); ++i) {
    const Pattern& p = pats[i];
    Vars& x = v[i];
    const std::int64_t last = steps - p.hops;
    if (last < 0) return SatOutcome::Unsat;
    x.active.resize(at(steps));
    for (int& a : x.active) a = cnf.var();
    const int odd_start = colours == 2 ? cnf.var() : 0;  // the start step is odd
    std::vector<std::vector<int>> covers(at(steps));  // starts whose window contains step c
    for (std::int64_t s = 0; s <= last; ++s) {
      x.start.push_back(cnf.var());
      starts_at[at(s * colours + p.inject)].push_back(x.start.back());
      ends_at[at((s + p.hops - 1) * colours + p.eject)].push_back(x.start.back());
      if (odd_start != 0) cnf.clause({-x.start.back(), s % 2 == 1 ? odd_start : -odd_start});
      for (std::int64_t c = s; c < s + p.hops; ++c) {
        cnf.clause({-x.start.back(), x.active[at(c)]});
        covers[at(c)].push_back(x.start.back());
      }
    }
    cnf.exactly_one(x.start);
    for (std::int64_t c = 0; c < steps; ++c) {
      std::vector<int> cl{-x.active[at(c)]};
      cl.insert(cl.end(), covers[at(c)].begin(), covers[at(c)].end());
      cnf.clause(cl);
    }
    const std::size_t nk = p.needs.size();
    x.go.assign(2 * nk, {});
    std::vector<std::vector<int>> per_step(at(steps));
    for (std::size_t k = 0; k < nk; ++k) {
      const DimNeed& d = p.needs[k];
      x.sign.push_back(d.choices == 2 ? cnf.var() : 0);
      for (int ch = 0; ch < d.choices; ++ch) {
        std::vector<int>& go = x.go[2 * k + at(ch)];
        go.resize(at(steps));
        for (std::int64_t c = 0; c < steps; ++c) {
          go[at(c)] = cnf.var();
          cnf.clause({-go[at(c)], x.active[at(c)]});
          if (d.choices == 2) cnf.clause({-go[at(c)], ch == 0 ? -x.sign[k] : x.sign[k]});
          per_step[at(c)].push_back(go[at(c)]);
          // The tail's colour if the start is even; an odd start flips it.
          const int even_colour = static_cast<int>((p.inject + c) % 2);
          if (colours == 1) {
            on_class[at(dirs.id(d.dim, d.delta[at(ch)], 0))][at(c)].push_back(go[at(c)]);
            continue;
          }
          for (int odd = 0; odd < 2; ++odd) {  // crossing with this start parity -> a class use
            const int use = cnf.var();
            cnf.clause({-go[at(c)], odd == 1 ? -odd_start : odd_start, use});
            on_class[at(dirs.id(d.dim, d.delta[at(ch)], even_colour ^ odd))][at(c)].push_back(use);
          }
        }
        cnf.at_most(go, d.count);
      }
    }
    for (std::int64_t c = 0; c < steps; ++c) {  // one class per active step
      std::vector<int> cl{-x.active[at(c)]};
      cl.insert(cl.end(), per_step[at(c)].begin(), per_step[at(c)].end());
      cnf.clause(cl);
      cnf.at_most(per_step[at(c)], 1);
    }
  }
  for (auto& cls : on_class)
    for (auto& lits : cls) cnf.at_most(lits, 1);
  if (m == Model::Nic)
    for (std::size_t i = 0; i < starts_at.size(); ++i) {
      cnf.at_most(starts_at[i], 1);
      cnf.at_most(ends_at[i], 1);
    }
  if (hint != nullptr) {  // start the search from the incumbent, each start clipped into its window
    for (std::size_t i = 0; i < pats.size(); ++i) {
      const Pattern& h = (*hint)[i];
      const std::int64_t s0 = std::min<std::int64_t>(h.start, static_cast<std::int64_t>(v[i].start.size()) - 1);
      for (std::size_t s = 0; s < v[i].start.size(); ++s) solver.phase(static_cast<std::int64_t>(s) == s0 ? v[i].start[s] : -v[i].start[s]);
      for (std::size_t k = 0; k < pats[i].needs.size(); ++k)
        for (int ch = 0; ch < pats[i].needs[k].choices; ++ch) {
          const std::pair<int, int> move{pats[i].needs[k].dim, pats[i].needs[k].delta[at(ch)]};
          const std::vector<int>& go = v[i].go[2 * k + at(ch)];
          for (std::int64_t c = 0; c < steps; ++c) {
            const std::int64_t j = c - s0;
            const bool taken = j >= 0 && j < static_cast<std::int64_t>(h.word.moves.size()) && h.word.moves[at(j)] == move;
            solver.phase(taken ? go[at(c)] : -go[at(c)]);
          }
        }
    }
  }
  const SatOutcome result = solve_limited(solver, conflicts, end, used);
  if (result != SatOutcome::Sat) return result;
  for (std::size_t i = 0; i < pats.size(); ++i) {
    Pattern& p = pats[i];
    const Vars& x = v[i];
    for (std::size_t s = 0; s < x.start.size(); ++s)
      if (solver.val(x.start[s]) > 0) p.start = static_cast<std::int64_t>(s);
    p.word.moves.clear();
    for (std::int64_t c = p.start; c < p.start + p.hops; ++c)
      for (std::size_t k = 0; k < p.needs.size(); ++k)
        for (int ch = 0; ch < p.needs[k].choices; ++ch)
          if (solver.val(x.go[2 * k + at(ch)][at(c)]) > 0) p.word.moves.emplace_back(p.needs[k].dim, p.needs[k].delta[at(ch)]);
  }
  return SatOutcome::Sat;
}


}  // namespace

Schedule expand_patterns(const Topology& t, Model m, const std::vector<PlacedPattern>& patterns, std::string algorithm) {
  const MoveTable moves(t);
  Schedule s{t.spec(), m, std::move(algorithm), {}};
  std::int64_t steps = 0;
  for (const PlacedPattern& p : patterns)
    steps = std::max(steps, p.start + static_cast<std::int64_t>(p.word.moves.size()));
  s.steps.resize(at(steps));
  for (NodeId src = 0; src < t.nodes(); ++src) {
    const std::vector<int> sc = t.coordinates(src);
    const int colour = std::accumulate(sc.begin(), sc.end(), 0) % 2;
    for (const PlacedPattern& p : patterns) {
      if (p.source_colour >= 0 && p.source_colour != colour) continue;
      std::vector<int> dc = t.coordinates(p.dst);
      for (std::size_t d = 0; d < dc.size(); ++d) dc[d] = (dc[d] + sc[d]) % t.factors()[d].size;
      const NodeId dst = t.node_at(dc);
      NodeId v = src;
      for (std::size_t j = 0; j < p.word.moves.size(); ++j) {
        const int cls = moves.move_class(p.word.moves[j].first, p.word.moves[j].second);
        s.steps[at(p.start) + j].push_back({{src, dst}, v, moves.port(v, cls)});
        v = moves.next(v, cls);
      }
    }
  }
  return s;
}

namespace {

/// Patterns placed for every node, steps produced on demand: in step c every pattern whose word
/// is under way moves each source's message one hop (colours as in expand_patterns).
struct PatternPlan {
  PatternPlan(const Topology& topo, std::vector<PlacedPattern> placed) : t(topo), moves(topo), patterns(std::move(placed)) {
    std::sort(patterns.begin(), patterns.end(),
              [](const PlacedPattern& a, const PlacedPattern& b) { return a.start < b.start; });
    const auto n = at(t.nodes());
    dims = t.factors().size();
    colour.resize(n);
    coords.reserve(n * dims);
    for (NodeId v = 0; v < t.nodes(); ++v) {
      const std::vector<int> c = t.coordinates(v);
      colour[at(v)] = static_cast<char>(std::accumulate(c.begin(), c.end(), 0) % 2);
      coords.insert(coords.end(), c.begin(), c.end());
    }
    for (const PlacedPattern& p : patterns) {
      const auto h = static_cast<std::int64_t>(p.word.moves.size());
      steps = std::max(steps, p.start + h);
      const std::int64_t sources =
          p.source_colour < 0 ? t.nodes()
                              : std::count(colour.begin(), colour.end(), static_cast<char>(p.source_colour));
      transfers += sources * h;
    }
  }
  /// The node reached from `v` by adding `offset`'s coordinates (node 0's view of the pattern),
  /// numbered as Topology::node_at does; from the tabulated coordinates, since the cursor calls it
  /// N times per pattern (1.7e7 times on torus:64x64).
  [[nodiscard]] NodeId translate(NodeId v, NodeId offset) const {
    const int* a = &coords[at(v) * dims];
    const int* b = &coords[at(offset) * dims];
    NodeId id = 0;
    for (std::size_t d = dims; d-- > 0;) {
      const int size = t.factors()[d].size;
      id = id * size + (a[d] + b[d]) % size;
    }
    return id;
  }
  const Topology t;
  const MoveTable moves;
  std::vector<PlacedPattern> patterns;  // by start
  std::vector<char> colour;
  std::size_t dims = 0;
  std::vector<int> coords;  // node v's coordinates at [v * dims, (v + 1) * dims)
  std::int64_t steps = 0, transfers = 0;
};

class PatternCursor : public StepCursor {
 public:
  explicit PatternCursor(std::shared_ptr<const PatternPlan> plan)
      : plan_(std::move(plan)), src_(plan_->patterns.size()), dst_(plan_->patterns.size()), pos_(plan_->patterns.size()) {}
  bool next(std::vector<Transfer>& out) override {
    out.clear();
    if (c_ >= plan_->steps) return false;
    const PatternPlan& p = *plan_;
    while (next_ < p.patterns.size() && p.patterns[next_].start == c_) {  // patterns starting now
      const PlacedPattern& pat = p.patterns[next_];
      for (NodeId v = 0; v < p.t.nodes(); ++v)
        if (pat.source_colour < 0 || pat.source_colour == p.colour[at(v)]) {
          src_[next_].push_back(v);
          dst_[next_].push_back(p.translate(v, pat.dst));
        }
      pos_[next_] = src_[next_];
      live_.push_back(next_++);
    }
    for (std::size_t li = 0; li < live_.size();) {
      const std::size_t i = live_[li];
      const PlacedPattern& pat = p.patterns[i];
      const auto [dim, delta] = pat.word.moves[at(c_ - pat.start)];
      const int cls = p.moves.move_class(dim, delta);
      std::vector<NodeId>& here = pos_[i];
      for (std::size_t s = 0; s < here.size(); ++s) {
        out.push_back({{src_[i][s], dst_[i][s]}, here[s], p.moves.port(here[s], cls)});
        here[s] = p.moves.next(here[s], cls);
      }
      if (c_ + 1 == pat.start + static_cast<std::int64_t>(pat.word.moves.size())) {  // done: free its state
        std::vector<NodeId>().swap(src_[i]);
        std::vector<NodeId>().swap(dst_[i]);
        std::vector<NodeId>().swap(pos_[i]);
        live_[li] = live_.back();
        live_.pop_back();
      } else {
        ++li;
      }
    }
    ++c_;
    return true;
  }

 private:
  std::shared_ptr<const PatternPlan> plan_;
  std::vector<std::vector<NodeId>> src_, dst_, pos_;  // per live pattern: each message's ends and where it is
  std::vector<std::size_t> live_;
  std::size_t next_ = 0;
  std::int64_t c_ = 0;
};

class PatternSource : public StepSource {
 public:
  explicit PatternSource(std::shared_ptr<const PatternPlan> plan) : plan_(std::move(plan)) {}
  [[nodiscard]] std::size_t step_count() const override { return at(plan_->steps); }
  [[nodiscard]] std::int64_t transfer_count() const override { return plan_->transfers; }
  [[nodiscard]] std::unique_ptr<StepCursor> cursor() const override { return std::make_unique<PatternCursor>(plan_); }

 private:
  std::shared_ptr<const PatternPlan> plan_;
};

}  // namespace

Schedule pattern_schedule_of(const Topology& t, Model m, std::vector<PlacedPattern> patterns, std::string algorithm,
                             std::int64_t lazy_above) {
  auto plan = std::make_shared<const PatternPlan>(t, std::move(patterns));
  if (plan->transfers <= lazy_above) return expand_patterns(t, m, plan->patterns, std::move(algorithm));
  Schedule s{t.spec(), m, std::move(algorithm), {}};
  s.source = std::make_shared<PatternSource>(std::move(plan));
  return s;
}

bool pattern_model_applies(const Topology& t) {
  if (!t.is_product() || t.is_partial()) return false;
  return std::all_of(t.factors().begin(), t.factors().end(),
                     [](const Factor& f) { return f.kind != FactorKind::Path || f.size == 2; });
}

PatternResult pattern_schedule(const Topology& t, Model m, const PatternOptions& o) {
  if (!pattern_model_applies(t))
    throw UsageError("--algo pattern needs a product of rings and complete graphs with a processor at every node "
                     "(torus, ring, hypercube, ghc), not " + t.spec());
  if (m == Model::SinglePort) throw UsageError("--algo pattern schedules all-port and nic; for single-port use a2");
  if (o.colours == 2 && !two_colourable(t))
    throw UsageError("two-colour patterns need every factor a ring of even size or two nodes, not " + t.spec());
  if (o.colours < 0 || o.colours > 2) throw UsageError("pattern colours must be 0, 1 or 2");
  const auto t0 = Clock::now();
  const MoveTable moves(t);
  PatternResult r;
  const std::int64_t bound = lower_bound(t, m).steps;
  // The search is limited by work (placements tried, SAT conflicts times clauses), so that a run
  // gives the same schedule on every machine and under any load; the clock is only a safety stop.
  const double budget = std::max(0.0, o.time_budget_seconds);
  const auto safety_end = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(safety_stop_seconds(budget)));
  bool stopped_by_clock = false;
  const std::function<bool()> out_of_time = [&] { return stopped_by_clock = stopped_by_clock || Clock::now() >= safety_end; };
  std::mt19937_64 rng(o.seed);

  // One colour first (N - 1 patterns, every node alike); then, where the network is two-colourable
  // and the bound not met, two (each colour its own patterns) from the one-colour schedule, which
  // is a two-colour one with both colours alike. Two colours reach what translation invariance
  // forbids (ring:16 nic: 33 steps, not 36) but the model is twice as large.
  const bool then_two = o.colours == 0 && two_colourable(t);
  std::vector<int> phases = o.colours == 0 ? std::vector<int>{1} : std::vector<int>{o.colours};
  if (then_two) phases.push_back(2);
  std::vector<Pattern> best;
  int best_colours = 0;
  for (const int colours : phases) {
    // Up to 64 nodes the larger model's freedom pays most; on larger networks the one-colour
    // neighbourhood search (measured: torus:16x16 nic 529 with all the work, 539 with 40 %).
    const double two_share = t.nodes() <= 64 ? 0.6 : 0.2;
    const double share = phases.size() == 1 ? 1.0 : colours == 1 ? 1 - two_share : two_share;
    const std::int64_t placements = static_cast<std::int64_t>(share * budget / 2 * kPlacementsPerSecond);
    std::int64_t sat_work = static_cast<std::int64_t>(share * budget / 2 * kConflictClausesPerSecond);
    const std::string name = colours == 2 ? "two colours: " : "";
    const Directions dirs(t, colours);
    std::vector<int> colour(at(t.nodes()));
    for (NodeId v = 0; v < t.nodes(); ++v) colour[at(v)] = colour_of(t, v, colours);
    // The patterns: per source colour, one per destination offset; a colour-1 source is one step
    // along dimension 0 from node 0.
    std::vector<Pattern> pats;
    const std::vector<int> origin = t.coordinates(0);
    for (int c = 0; c < colours; ++c) {
      std::vector<int> from = origin;
      from[0] = c;
      for (NodeId d = 1; d < t.nodes(); ++d) {
        Pattern p;
        p.dst = d;
        p.src = t.node_at(from);
        p.inject = c;
        p.eject = c ^ colour[at(d)];
        p.needs = minimal_needs(t, origin, t.coordinates(d));
        for (const DimNeed& n : p.needs) p.hops += n.count;
        if (!best.empty()) {  // the one-colour schedule, followed by this colour too
          p.start = best[at(d - 1)].start;
          p.word = best[at(d - 1)].word;
        }
        pats.push_back(std::move(p));
      }
    }
    std::vector<int> resource(at(t.nodes()) * at(moves.classes()));
    for (NodeId v = 0; v < t.nodes(); ++v)
      for (std::size_t d = 0; d < t.factors().size(); ++d)
        for (int delta = 1; delta < t.factors()[d].size; ++delta)
          if (dirs.has(static_cast<int>(d), delta))
            resource[at(v) * at(moves.classes()) + at(moves.move_class(static_cast<int>(d), delta))] =
                dirs.id(static_cast<int>(d), delta, colour[at(v)]);
    RoutePacking packing(moves, m, std::move(resource), dirs.count(), colours);
    std::int64_t work = 0;
    std::vector<Pattern> incumbent = pats;
    if (best.empty()) {
      // Greedy, longest first, and a local search over the order: a quarter of the placements.
      std::vector<std::size_t> order(pats.size());
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return pats[a].hops > pats[b].hops; });
      const std::int64_t tries = order_search(packing, incumbent, order, bound, placements / 4, work, rng, out_of_time);
      r.greedy_steps = packed_makespan(incumbent);
      r.log.push_back(name + "greedy: " + std::to_string(r.greedy_steps) + " steps, local search over " +
                      std::to_string(tries) + " orders (" + std::to_string(work) + " placements), " +
                      std::to_string(seconds_since(t0)).substr(0, 5) + " s");
    } else {
      for (const Pattern& p : incumbent) packing.restore(p);
    }
    // Large neighbourhood search from that packing: a round re-places a few patterns where a new
    // order re-places all of them, so it goes much further on large networks.
    std::vector<Pattern> current = incumbent;
    const std::int64_t rounds = lns_improve(packing, current, incumbent, bound, placements, work, rng, out_of_time);
    r.log.push_back(name + "lns: " + std::to_string(packed_makespan(incumbent)) + " steps after " + std::to_string(rounds) +
                    " rounds (" + std::to_string(work) + " placements in all), " + std::to_string(seconds_since(t0)).substr(0, 5) + " s");

    // SAT on the pattern model, one step shorter than the best so far, again and again (a SAT
    // answer improves the schedule; an infeasible pattern model proves nothing about other
    // schedules, so bisecting down to the bound would spend the work on proofs of no use). The
    // search starts from the incumbent's assignment.
    for (std::int64_t target = packed_makespan(incumbent) - 1; target >= bound && !out_of_time(); target = packed_makespan(incumbent) - 1) {
      const std::int64_t clauses = estimate_clauses(pats, target);
      if (clauses > o.max_clauses || sat_work / clauses < kMinConflicts) {
        r.log.push_back(name + "sat: the pattern model of " + std::to_string(target) + " steps (about " +
                        std::to_string(clauses) + " clauses) is too large for the work left, skipped");
        break;
      }
      std::vector<Pattern> candidate = pats;
      const auto call0 = Clock::now();
      std::int64_t used = 0;
      const SatOutcome out = solve_patterns(m, dirs, candidate, target, sat_work / clauses, safety_end, used, &incumbent);
      sat_work -= used * clauses;
      const std::string took = std::to_string(seconds_since(call0)).substr(0, 5) + " s, " + std::to_string(used) + " conflicts";
      if (out != SatOutcome::Sat) {
        r.log.push_back(name + "sat: " + std::to_string(target) + " steps " +
                        (out == SatOutcome::Unsat ? "infeasible in this pattern model" : "unknown (work limit)") + ", " + took);
        break;
      }
      r.log.push_back(name + "sat: " + std::to_string(target) + " steps feasible, " + took);
      incumbent = std::move(candidate);
    }
    if (best.empty() || packed_makespan(incumbent) < packed_makespan(best)) {
      best = std::move(incumbent);
      best_colours = colours;
    }
    if (packed_makespan(best) == bound || stopped_by_clock) break;
  }
  if (stopped_by_clock)
    r.log.push_back("stopped by the safety time limit (" + std::to_string(safety_stop_seconds(budget)).substr(0, 5) +
                    " s) before the work limit: this result depends on the machine's speed and load");
  std::vector<PlacedPattern> placed;
  placed.reserve(best.size());
  for (const Pattern& p : best) placed.push_back({p.dst, p.start, p.word, best_colours > 1 ? p.inject : -1});
  r.schedule = pattern_schedule_of(t, m, std::move(placed), "pattern");
  return r;
}

}  // namespace totex
