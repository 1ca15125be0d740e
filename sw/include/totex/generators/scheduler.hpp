// SPDX-License-Identifier: Apache-2.0
/// The algorithm choice for direct networks: one entry point that runs a named generator, or
/// (`auto`, the default) every generator that applies within a time budget, verifies each and
/// keeps the shortest verified schedule.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "totex/model.hpp"
#include "totex/schedule.hpp"
#include "totex/network/topology.hpp"
#include "totex/verify/verify.hpp"

namespace totex {

struct ScheduleRequest {
  ScheduleRequest(std::string algorithm_name = "auto", double budget = 0, RunLimits run_limits = {})
      : algorithm(std::move(algorithm_name)), budget_seconds(budget), limits(std::move(run_limits)) {}
  std::string algorithm = "auto";  // auto | a named generator (direct_algorithms())
  /// For auto, pattern, greedy and exact: the search's work (about seconds on the development
  /// machine; exact: seconds). 0: default_budget_seconds() of the network.
  double budget_seconds = 0;
  /// The run limit for what can be estimated beforehand (first passes, the replay that verifies).
  RunLimits limits;
};

/// One generator auto ran (or the one named), with what it gave.
struct Attempt {
  std::string algorithm;
  std::int64_t steps = 0;  // 0 when it produced nothing
  bool verified = false;
  double seconds = 0;
  std::string note;  // e.g. "not applicable", "stopped at the time budget"
};

struct ScheduleOutcome {
  Schedule schedule;
  std::string algorithm;             // the generator whose schedule this is
  std::vector<Attempt> tried;        // in the order they ran
  std::vector<std::string> log;      // search progress (greedy, SAT calls)
  std::int64_t lower_bound = 0;
  bool proven_optimal = false;       // steps == lower bound, or an exact infeasibility proof of steps - 1
  std::string proof;                 // how optimality is proven, empty when it is not
  VerifyReport report;               // the verifier's report on `schedule` (callers need not replay it again)
};

/// The default search budget: 4 s, 8 s above 128 nodes (the neighbourhood search needs the work
/// there: torus:16x16 nic 529 steps at 4, 524 at 8); on networks outside the families (degraded,
/// graph files) the list scheduler's default for N(N-1) flits (list_default_budget_seconds).
[[nodiscard]] double default_budget_seconds(const Topology& t);

/// Every generator name, with the topologies and models it applies to, for --help and errors.
[[nodiscard]] std::string direct_algorithm_help();

/// Runs the requested generator (throws UsageError when it does not apply, naming what does).
[[nodiscard]] ScheduleOutcome schedule_direct(const Topology& t, Model m, const ScheduleRequest& r);

}  // namespace totex
