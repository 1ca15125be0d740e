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

/// Solves with at most `conflicts` conflicts and stops at `end` (a safety stop only); `used` gets
/// the conflicts spent (learned clauses: the same on every machine).
SatOutcome solve_limited(CaDiCaL::Solver& solver, std::int64_t conflicts, std::chrono::steady_clock::time_point end,
                         std::int64_t& used);

}  // namespace totex
