// SPDX-License-Identifier: Apache-2.0
// A 0-1 feasibility program solved by COIN-OR CBC (Debian coinor-libcbc-dev), for the placement
// models where SAT stalls: tightly packed slots, where the LP relaxation (which CBC's feasibility
// pump rounds) points at a placement (docs/traffic.md, route-sat's two-turn stage).
#pragma once

#include <cstdint>
#include <vector>

#include "cnf.hpp"

namespace totex {

/// Every column is 0 or 1; a row bounds sum(coef x col) between `lower` and `upper`.
struct BinaryProgram {
  struct Row {
    std::vector<int> columns;
    std::vector<double> coefficients;
    double lower = 0, upper = 0;
  };
  int columns = 0;
  std::vector<Row> rows;
  [[nodiscard]] std::int64_t elements() const;
};

/// What a solve may take: `nodes` branch-and-bound nodes after the root (the work limit, counted,
/// so a loaded machine decides the same), and `safety_seconds` of wall clock (a cap far beyond
/// what the nodes take, against a runaway solve only).
struct IlpLimit {
  std::int64_t nodes = 0;
  double safety_seconds = 600;
};

struct IlpStats {
  std::int64_t nodes = 0;
  bool capped = false;  // the safety cap, not the nodes, stopped it
};

/// Sat with `value` (per column, 0 or 1) satisfying every row; Unsat when CBC proves none does;
/// Unknown when the nodes ran out first.
SatOutcome solve_binary(const BinaryProgram& program, const IlpLimit& limit, std::vector<char>& value, IlpStats& stats);

}  // namespace totex
