// SPDX-License-Identifier: Apache-2.0
#include "ilp.hpp"

#include <CbcModel.hpp>
#include <CbcSolver.hpp>
#include <CoinPackedMatrix.hpp>
#include <CoinPackedVector.hpp>
#include <OsiClpSolverInterface.hpp>

#include <string>

namespace totex {

std::int64_t BinaryProgram::elements() const {
  std::int64_t e = 0;
  for (const Row& r : rows) e += static_cast<std::int64_t>(r.columns.size());
  return e;
}

namespace {
// CbcMain1's hook between its phases: nothing to add.
int no_callback(CbcModel*, int) { return 0; }
}  // namespace

SatOutcome solve_binary(const BinaryProgram& program, const IlpLimit& limit, std::vector<char>& value, IlpStats& stats) {
  const auto n = static_cast<std::size_t>(program.columns);
  CoinPackedMatrix matrix(false, 0, 0);  // row-ordered
  matrix.setDimensions(0, program.columns);
  std::vector<double> lower, upper;
  for (const BinaryProgram::Row& r : program.rows) {
    matrix.appendRow(CoinPackedVector(static_cast<int>(r.columns.size()), r.columns.data(), r.coefficients.data()));
    lower.push_back(r.lower);
    upper.push_back(r.upper);
  }
  const std::vector<double> zero(n, 0.0), one(n, 1.0);
  OsiClpSolverInterface lp;
  lp.loadProblem(matrix, zero.data(), one.data(), zero.data(), lower.data(), upper.data());
  for (int c = 0; c < program.columns; ++c) lp.setInteger(c);
  lp.messageHandler()->setLogLevel(0);
  CbcModel model(lp);
  model.messageHandler()->setLogLevel(0);
  // The cbc command's own setup (CbcMain0/1: preprocessing, cuts, the feasibility pump and the
  // other heuristics, as `cbc FILE -solve` runs them), single-threaded and seeded as built, so the
  // same program gets the same answer; the nodes are the work limit.
  CbcSolverUsefulData data;
  data.noPrinting_ = true;
  data.useSignalHandler_ = false;
  CbcMain0(model, data);
  const std::string nodes = std::to_string(limit.nodes), seconds = std::to_string(limit.safety_seconds);
  const char* argv[] = {"totex", "-log", "0", "-slog", "0", "-maxNodes", nodes.c_str(), "-seconds", seconds.c_str(), "-solve", "-quit"};
  CbcMain1(static_cast<int>(sizeof argv / sizeof argv[0]), argv, model, no_callback, data);
  stats.nodes = model.getNodeCount();
  stats.capped = model.isSecondsLimitReached();
  if (const double* x = model.bestSolution(); x != nullptr) {
    value.assign(n, 0);
    for (std::size_t c = 0; c < n; ++c) value[c] = x[c] > 0.5 ? 1 : 0;
    return SatOutcome::Sat;
  }
  return model.isProvenInfeasible() && !stats.capped ? SatOutcome::Unsat : SatOutcome::Unknown;
}

}  // namespace totex
