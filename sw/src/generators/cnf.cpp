// SPDX-License-Identifier: Apache-2.0
#include "cnf.hpp"

#include <algorithm>

namespace totex {
namespace {
std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

/// The wall-clock safety cap: remembers that it fired.
class SafetyCap : public CaDiCaL::Terminator {
 public:
  explicit SafetyCap(std::chrono::steady_clock::time_point end) : end_(end) {}
  bool terminate() override {
    fired = fired || std::chrono::steady_clock::now() >= end_;
    return fired;
  }
  bool fired = false;

 private:
  std::chrono::steady_clock::time_point end_;
};

/// Counts learned clauses (one per conflict): the work a solve call did, the same on every machine.
class LearnCounter : public CaDiCaL::Learner {
 public:
  bool learning(int) override {
    ++learned;
    return false;
  }
  void learn(int) override {}
  std::int64_t learned = 0;
};
}  // namespace

void Cnf::clause(const std::vector<int>& lits) {
  for (int l : lits) solver_.add(l);
  solver_.add(0);
  ++clauses_;
}

void Cnf::at_most(const std::vector<int>& x, int k) {
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

void Cnf::exactly(const std::vector<int>& x, int k) {
  const std::size_t n = x.size();
  if (k < 1 || static_cast<std::size_t>(k) > n) {
    clause(std::vector<int>{});  // k of n cannot be true: the empty clause
    return;
  }
  std::vector<std::vector<int>> r(n, std::vector<int>(at(k)));
  for (auto& row : r)
    for (int& v : row) v = var();
  // Row 0: r(0, 0) = x0, the rest false.
  clause({-x[0], r[0][0]});
  clause({x[0], -r[0][0]});
  for (int j = 1; j < k; ++j) clause({-r[0][at(j)]});
  for (std::size_t i = 1; i < n; ++i) {
    // r(i, j) = r(i-1, j) or (x_i and r(i-1, j-1)), r(i-1, -1) true.
    for (int j = 0; j < k; ++j) {
      const int here = r[i][at(j)], up = r[i - 1][at(j)];
      clause({-up, here});
      if (j == 0) {
        clause({-x[i], here});
        clause({-here, up, x[i]});
      } else {
        const int diag = r[i - 1][at(j - 1)];
        clause({-x[i], -diag, here});
        clause({-here, up, x[i]});
        clause({-here, up, diag});
      }
    }
    clause({-x[i], -r[i - 1][at(k - 1)]});  // not k + 1
  }
  clause({r[n - 1][at(k - 1)]});  // at least k
}

std::chrono::steady_clock::time_point safety_cap(double seconds) {
  using Clock = std::chrono::steady_clock;
  const double s = std::min(seconds, 1e9);  // far beyond any run, and within the clock's range
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(std::max(0.0, s)));
}

SatOutcome solve_limited(CaDiCaL::Solver& solver, const SatLimit& limit, SatStats& stats, std::int64_t clauses) {
  std::int64_t conflicts = limit.conflicts;
  const double per_conflict = static_cast<double>(std::max<std::int64_t>(clauses, 1));
  if (limit.work != nullptr)
    conflicts = std::min<std::int64_t>(
        conflicts, static_cast<std::int64_t>(std::max({0.0, *limit.work * limit.share, limit.min_work}) / per_conflict));
  stats.limit = conflicts;
  if (conflicts < 1) {
    stats.conflicts = 0;
    stats.capped = false;
    return SatOutcome::Unknown;
  }
  const SatOutcome o = solve_limited(solver, conflicts, limit.safety, stats.conflicts, &stats.capped);
  if (limit.work != nullptr) *limit.work -= static_cast<double>(stats.conflicts) * per_conflict;
  return o;
}

SatOutcome solve_limited(CaDiCaL::Solver& solver, std::int64_t conflicts, std::chrono::steady_clock::time_point end,
                         std::int64_t& used, bool* capped) {
  solver.limit("conflicts", static_cast<int>(std::min<std::int64_t>(conflicts, 2'000'000'000)));
  SafetyCap cap(end);
  solver.connect_terminator(&cap);
  LearnCounter counter;
  solver.connect_learner(&counter);
  const int result = solver.solve();
  solver.disconnect_terminator();
  solver.disconnect_learner();
  used = counter.learned;
  if (capped != nullptr) *capped = result != 10 && result != 20 && cap.fired;
  if (result == 20) return SatOutcome::Unsat;
  return result == 10 ? SatOutcome::Sat : SatOutcome::Unknown;
}

}  // namespace totex
