// SPDX-License-Identifier: Apache-2.0
/// What the SAT stages of the generators share: a CNF fed straight into CaDiCaL (with Sinz's
/// sequential counters), a wall-clock safety stop and a work counter. The work of a solve is
/// counted in conflicts, so that a budget gives the same answer on every machine.
#pragma once
#include <cadical.hpp>
#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace totex {

/// A conflict costs time in proportion to the model's size, so SAT work is counted in conflicts
/// times clauses: this many buy a second of --budget on the 2-core development machine (a quiet
/// torus:8x8 nic run).
constexpr double kConflictClausesPerSecond = 6.0e8;

enum class SatOutcome { Sat, Unsat, Unknown };

/// The outcome as the search logs write it: "SAT", "UNSAT" or "unknown (budget)".
inline const char* outcome_word(SatOutcome o) {
  return o == SatOutcome::Sat ? "SAT" : o == SatOutcome::Unsat ? "UNSAT" : "unknown (budget)";
}

/// A CNF under construction, fed straight into CaDiCaL.
class Cnf {
 public:
  explicit Cnf(CaDiCaL::Solver& s) : solver_(s) {}
  int var() { return ++vars_; }
  void clause(std::initializer_list<int> lits) { clause(std::vector<int>(lits)); }
  void clause(const std::vector<int>& lits);
  /// Sinz's sequential counter: at most k of `x` are true.
  void at_most(const std::vector<int>& x, int k);
  /// Exactly k of `x` are true (k >= 1): a sequential counter defined both ways, r(i, j) = "at
  /// least j + 1 of x[0..i]", about 4 n k clauses.
  void exactly(const std::vector<int>& x, int k);
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

/// The limits of one solve. `conflicts` is the work limit and the only one that decides an
/// outcome, so a result is the same on an idle and on a loaded machine; `safety` is a wall-clock
/// cap far beyond what the conflicts take, against a runaway solve only. A solve it stops is
/// marked (SatStats::capped), and the stages that make it say so in their log.
struct SatLimit {
  std::int64_t conflicts = 0;
  std::chrono::steady_clock::time_point safety = std::chrono::steady_clock::time_point::max();
  /// A pool of work shared by several calls, in conflicts times clauses (kConflictClausesPerSecond
  /// a second): the call takes at most `share` of what is left (its conflicts lowered to fit its
  /// model) and what it spends is taken off. nullptr: no pool.
  double* work = nullptr;
  double share = 1.0;
  double min_work = 0;  // with a pool: the call may take at least this much, whatever is left
};
/// A wall-clock safety cap `seconds` from now (safety_cap(1e9): none to speak of).
[[nodiscard]] std::chrono::steady_clock::time_point safety_cap(double seconds);
/// What a solve spent, and whether the safety cap (not its conflicts) stopped it.
struct SatStats {
  std::int64_t conflicts = 0;  // learned clauses, one per conflict: the same on every machine
  std::int64_t limit = 0;      // the conflicts the call was allowed (after the work pool)
  bool capped = false;         // Unknown because the wall clock ran out: depends on the machine
};
/// The log's words for a capped solve.
inline constexpr const char* kCappedNote = "stopped by the wall-clock safety cap before its conflicts ran out (a machine-dependent result)";

/// Solves within `limit` (`clauses`: the model's, for the work pool); `stats` gets the conflicts
/// spent and whether the safety cap fired. Unknown without solving when the pool cannot pay for
/// one conflict.
SatOutcome solve_limited(CaDiCaL::Solver& solver, const SatLimit& limit, SatStats& stats, std::int64_t clauses = 0);
/// The same with the limits as arguments: at most `conflicts` conflicts, `end` a safety stop only;
/// `used` gets the conflicts spent, `capped` (if given) whether `end` stopped it.
SatOutcome solve_limited(CaDiCaL::Solver& solver, std::int64_t conflicts, std::chrono::steady_clock::time_point end,
                         std::int64_t& used, bool* capped = nullptr);

}  // namespace totex
