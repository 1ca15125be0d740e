// SPDX-License-Identifier: Apache-2.0
#include "cnf.hpp"

#include <algorithm>

namespace totex {
namespace {
std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

class Deadline : public CaDiCaL::Terminator {
 public:
  explicit Deadline(std::chrono::steady_clock::time_point end) : end_(end) {}
  bool terminate() override { return std::chrono::steady_clock::now() >= end_; }

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

SatOutcome solve_limited(CaDiCaL::Solver& solver, std::int64_t conflicts, std::chrono::steady_clock::time_point end,
                         std::int64_t& used) {
  solver.limit("conflicts", static_cast<int>(std::min<std::int64_t>(conflicts, 2'000'000'000)));
  Deadline deadline(end);
  solver.connect_terminator(&deadline);
  LearnCounter counter;
  solver.connect_learner(&counter);
  const int result = solver.solve();
  solver.disconnect_terminator();
  solver.disconnect_learner();
  used = counter.learned;
  if (result == 20) return SatOutcome::Unsat;
  return result == 10 ? SatOutcome::Sat : SatOutcome::Unknown;
}

}  // namespace totex
