// SPDX-License-Identifier: Apache-2.0
#include "totex/pattern_schedule.hpp"

#include <algorithm>
#include <cadical.hpp>
#include <chrono>
#include <map>
#include <numeric>
#include <random>

#include "totex/bounds.hpp"
#include "totex/error.hpp"
#include "totex/product_routes.hpp"
#include "totex/verify.hpp"

namespace totex {
namespace {

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// One destination offset: its needs (from node 0) and, once placed, start and route.
struct Pattern {
  NodeId dst = 0;
  std::vector<DimNeed> needs;
  int hops = 0;
  std::int64_t start = -1;
  Word word;
};

/// The link classes: one per (dimension, delta).
class Directions {
 public:
  explicit Directions(const Topology& t) {
    for (std::size_t d = 0; d < t.factors().size(); ++d) {
      const int k = t.factors()[d].size;
      const bool complete = t.factors()[d].kind == FactorKind::Complete;
      for (int delta = 1; delta < k; ++delta)
        if (complete || k == 2 || delta == 1 || delta == k - 1) id_[{static_cast<int>(d), delta}] = count_++;
    }
  }
  [[nodiscard]] int id(int dim, int delta) const { return id_.at({dim, delta}); }
  [[nodiscard]] int count() const { return count_; }

 private:
  std::map<std::pair<int, int>, int> id_;
  int count_ = 0;
};

/// Greedy: patterns in `order`, each at its earliest start with any minimal route that fits.
std::int64_t greedy(const MoveTable& moves, Model m, const Directions& dirs, std::vector<Pattern>& pats,
                    const std::vector<std::size_t>& order) {
  std::vector<std::vector<std::uint8_t>> occ;
  std::vector<std::uint8_t> inj, ej;
  auto grow = [&](std::int64_t step) {
    while (static_cast<std::int64_t>(occ.size()) <= step) {
      occ.emplace_back(at(dirs.count()), 0);
      inj.push_back(0);
      ej.push_back(0);
    }
  };
  const MoveFree is_free = [&](std::int64_t step, NodeId, int dim, int delta) {
    grow(step);
    return occ[at(step)][at(dirs.id(dim, delta))] == 0;
  };
  std::int64_t steps = 0;
  for (std::size_t i : order) {
    Pattern& p = pats[i];
    for (std::int64_t start = 0;; ++start) {
      grow(start + p.hops);
      if (m == Model::Nic && (inj[at(start)] || ej[at(start + p.hops - 1)])) continue;
      if (!find_word(moves, 0, p.needs, start, is_free, p.word)) continue;
      p.start = start;
      for (std::size_t j = 0; j < p.word.moves.size(); ++j)
        occ[at(start) + j][at(dirs.id(p.word.moves[j].first, p.word.moves[j].second))] = 1;
      inj[at(start)] = 1;
      ej[at(start + p.hops - 1)] = 1;
      steps = std::max(steps, start + p.hops);
      break;
    }
  }
  return steps;
}

/// A CNF under construction, fed straight into CaDiCaL.
class Cnf {
 public:
  explicit Cnf(CaDiCaL::Solver& s) : solver_(s) {}
  int var() { return ++vars_; }
  void clause(std::initializer_list<int> lits) { clause(std::vector<int>(lits)); }
  void clause(const std::vector<int>& lits) {
    for (int l : lits) solver_.add(l);
    solver_.add(0);
    ++clauses_;
  }
  /// Sinz's sequential counter: at most k of `x` are true.
  void at_most(const std::vector<int>& x, int k) {
    const std::size_t n = x.size();
    if (static_cast<std::size_t>(k) >= n) return;
    if (k == 0) {
      for (int l : x) clause({-l});
      return;
    }
    std::vector<std::vector<int>> s(n - 1, std::vector<int>(at(k)));
    for (auto& row : s)
      for (int& v : row) v = var();
    clause({-x[0], s[0][0]});
    for (int j = 1; j < k; ++j) clause({-s[0][at(j)]});
    for (std::size_t i = 1; i + 1 < n; ++i) {
      clause({-x[i], s[i][0]});
      clause({-s[i - 1][0], s[i][0]});
      for (int j = 1; j < k; ++j) {
        clause({-x[i], -s[i - 1][at(j - 1)], s[i][at(j)]});
        clause({-s[i - 1][at(j)], s[i][at(j)]});
      }
      clause({-x[i], -s[i - 1][at(k - 1)]});
    }
    clause({-x[n - 1], -s[n - 2][at(k - 1)]});
  }
  void exactly_one(const std::vector<int>& x) {
    at_most(x, 1);
    clause(x);
  }
  [[nodiscard]] std::int64_t clauses() const { return clauses_; }
  [[nodiscard]] int vars() const { return vars_; }

 private:
  CaDiCaL::Solver& solver_;
  int vars_ = 0;
  std::int64_t clauses_ = 0;
};

class Deadline : public CaDiCaL::Terminator {
 public:
  explicit Deadline(Clock::time_point end) : end_(end) {}
  bool terminate() override { return Clock::now() >= end_; }

 private:
  Clock::time_point end_;
};

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

enum class SatOutcome { Sat, Unsat, Unknown };

/// The pattern model with `steps` steps as SAT, time-indexed: start[p][s]; active[p][c] iff p is
/// on the way in step c (a window of `hops` steps after its start); go[p][c][d] iff p crosses a
/// link of class d in step c. An active pattern crosses exactly one class per step and each class
/// it needs at most `count` times; as it is active for exactly `hops` = the sum of the counts
/// steps, it crosses each exactly `count` times (an antipodal need's sign fixes which of its two
/// classes may be used), so its moves form a minimal route (any order of them is one). Each class
/// carries at most one pattern per step. On Sat, `pats` get starts and routes.
SatOutcome solve_patterns(Model m, const Directions& dirs, std::vector<Pattern>& pats, std::int64_t steps,
                          Clock::time_point end) {
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
  std::vector<std::vector<int>> starts_at(at(steps)), ends_at(at(steps));
  for (std::size_t i = 0; i < pats.size(); ++i) {
    const Pattern& p = pats[i];
    Vars& x = v[i];
    const std::int64_t last = steps - p.hops;
    if (last < 0) return SatOutcome::Unsat;
    x.active.resize(at(steps));
    for (int& a : x.active) a = cnf.var();
    std::vector<std::vector<int>> covers(at(steps));  // starts whose window contains step c
    for (std::int64_t s = 0; s <= last; ++s) {
      x.start.push_back(cnf.var());
      starts_at[at(s)].push_back(x.start.back());
      ends_at[at(s + p.hops - 1)].push_back(x.start.back());
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
        const int cls = dirs.id(d.dim, d.delta[at(ch)]);
        for (std::int64_t c = 0; c < steps; ++c) {
          go[at(c)] = cnf.var();
          cnf.clause({-go[at(c)], x.active[at(c)]});
          if (d.choices == 2) cnf.clause({-go[at(c)], ch == 0 ? -x.sign[k] : x.sign[k]});
          on_class[at(cls)][at(c)].push_back(go[at(c)]);
          per_step[at(c)].push_back(go[at(c)]);
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
    for (std::int64_t s = 0; s < steps; ++s) {
      cnf.at_most(starts_at[at(s)], 1);
      cnf.at_most(ends_at[at(s)], 1);
    }
  Deadline deadline(end);
  solver.connect_terminator(&deadline);
  const int result = solver.solve();
  solver.disconnect_terminator();
  if (result == 20) return SatOutcome::Unsat;
  if (result != 10) return SatOutcome::Unknown;
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

/// Every node follows every pattern.
Schedule expand(const Topology& t, Model m, const std::vector<Pattern>& pats) {
  std::vector<PlacedPattern> placed;
  placed.reserve(pats.size());
  for (const Pattern& p : pats) placed.push_back({p.dst, p.start, p.word});
  return expand_patterns(t, m, placed, "pattern");
}

std::int64_t makespan(const std::vector<Pattern>& pats) {
  std::int64_t steps = 0;
  for (const Pattern& p : pats) steps = std::max(steps, p.start + p.hops);
  return steps;
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
    for (const PlacedPattern& p : patterns) {
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
  const auto t0 = Clock::now();
  const auto end = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.time_budget_seconds));
  const Directions dirs(t);
  const MoveTable moves(t);
  std::vector<Pattern> pats;
  const std::vector<int> origin = t.coordinates(0);
  for (NodeId d = 1; d < t.nodes(); ++d) {
    Pattern p;
    p.dst = d;
    p.needs = minimal_needs(t, origin, t.coordinates(d));
    for (const DimNeed& n : p.needs) p.hops += n.count;
    pats.push_back(std::move(p));
  }
  PatternResult r;
  const std::int64_t bound = lower_bound(t, m).steps;

  // Greedy, longest first; then a local search over the order (move one pattern elsewhere, keep
  // the order if the schedule is no longer, with the sum of end steps breaking ties so that
  // plateaus are crossed) while the budget's first half lasts.
  std::vector<std::size_t> order(pats.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return pats[a].hops > pats[b].hops; });
  auto score = [&](std::vector<Pattern>& trial, const std::vector<std::size_t>& ord) {
    const std::int64_t steps = greedy(moves, m, dirs, trial, ord);
    std::int64_t ends = 0;
    for (const Pattern& p : trial) ends += p.start + p.hops;
    return std::pair<std::int64_t, std::int64_t>{steps, ends};
  };
  std::vector<Pattern> best = pats;
  auto current = score(best, order);
  std::int64_t best_steps = current.first;
  std::mt19937_64 rng(o.seed);
  int tries = 1;
  std::vector<Pattern> trial = pats;
  while (best_steps > bound && seconds_since(t0) < o.time_budget_seconds / 2 && pats.size() > 1) {
    std::vector<std::size_t> next = order;
    std::uniform_int_distribution<std::size_t> pick(0, next.size() - 1);
    const std::size_t from = pick(rng), to = pick(rng);
    const std::size_t moved = next[from];
    next.erase(next.begin() + static_cast<std::ptrdiff_t>(from));
    next.insert(next.begin() + static_cast<std::ptrdiff_t>(to), moved);
    const auto sc = score(trial, next);
    ++tries;
    if (sc <= current) {
      current = sc;
      order.swap(next);
      if (sc.first < best_steps) {
        best_steps = sc.first;
        best = trial;
      }
    }
  }
  r.greedy_steps = best_steps;
  r.log.push_back("greedy: " + std::to_string(best_steps) + " steps, local search over " + std::to_string(tries) + " orders, " +
                  std::to_string(seconds_since(t0)).substr(0, 5) + " s");

  // SAT on the pattern model: bisect between the bound and the best so far.
  std::int64_t lo = bound, hi = best_steps;  // hi is feasible
  while (lo < hi && Clock::now() < end) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (estimate_clauses(pats, mid) > o.max_clauses) {
      r.log.push_back("sat: pattern model of " + std::to_string(mid) + " steps too large, skipped");
      break;
    }
    std::vector<Pattern> candidate = pats;
    const auto call0 = Clock::now();
    const SatOutcome out = solve_patterns(m, dirs, candidate, mid, end);
    const std::string took = std::to_string(seconds_since(call0)).substr(0, 5) + " s";
    if (out == SatOutcome::Sat) {
      r.log.push_back("sat: " + std::to_string(mid) + " steps feasible, " + took);
      best = candidate;
      hi = makespan(best);
    } else {
      r.log.push_back("sat: " + std::to_string(mid) + " steps " +
                      (out == SatOutcome::Unsat ? "infeasible in the pattern model" : "unknown (time budget)") + ", " + took);
      lo = mid + 1;
    }
  }
  r.schedule = expand(t, m, best);
  return r;
}

}  // namespace totex
