// SPDX-License-Identifier: Apache-2.0
/// The periodic generators' shared state (private): one run of periodic_schedule (the table in
/// periodic.cpp) and the packing search (periodic_packing.cpp), auto's last entry and the one
/// behind --algo greedy and --algo exact.
#pragma once
#include <chrono>
#include <string>
#include <vector>

#include "pattern_schedule.hpp"
#include "ring_product.hpp"
#include "totex/generators/periodic.hpp"

namespace totex::periodic {

/// One run of periodic_schedule: the request, the bound, the outcome being built.
struct Run {
  Run(const Topology& topo, Model model, const PeriodicRequest& r);
  const Topology& t;
  Model m;
  const PeriodicRequest& request;
  std::string algo;  // the --algo name ("auto" when none)
  bool nic;
  double budget;     // --budget, 4 when not given
  int bound;         // the period bound
  PeriodicOutcome out;
  RingProductPlan product;  // the ring product's plan, when auto ran it and went on
  Schedule list;            // the traffic list scheduler's, on a network with failed links, when auto ran it and went on (period 0: none)
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  /// A line on stderr before a stage whose work may pass Progress::kQuietSeconds (`may_take`,
  /// estimated from its counted work), or once the run has: "schedule --periodic T: what (N s so far)".
  void stage(const std::string& what, double may_take) const;
  /// The wall-clock safety cap of one SAT call (cnf.hpp): far beyond what its conflicts take.
  [[nodiscard]] double safety_seconds() const { return 20 * budget + 120; }
  /// A capped call: marks the outcome and says so on stderr (the log line says so too).
  void capped(const std::string& what);
  /// A period at the bound is optimal, whatever the routes (the bound holds for every schedule).
  void prove_if_at_bound(int period);
  /// A construction's patterns as the outcome (translation-invariant).
  PeriodicOutcome constructed(std::vector<PlacedPattern> patterns, const std::string& algorithm, int period);
};

/// The traffic list scheduler's periodic schedule of `all` as the run's outcome (periodic-list).
[[nodiscard]] PeriodicOutcome list_outcome(Run& run, Schedule s);

/// The names of the bound's terms that equal it ("link_traversals, bisection").
[[nodiscard]] std::string terms_at(const LowerBound& lb);
/// Seconds since `t0`, as the search log writes them ("1.234 s").
[[nodiscard]] std::string seconds_since(std::chrono::steady_clock::time_point t0);

/// The packing search: translation-invariant on products of rings, per message elsewhere (or
/// with --algo exact); first fit, the mirror quotient's local search on meshes, breakout local
/// search, and SAT at and below the first fit's period, with the detour and symmetric searches at
/// the bound (docs/periodic.md, "The generators"). Throws UsageError / ResourceError where it
/// does not apply.
[[nodiscard]] PeriodicOutcome packing_schedule(Run& run);

}  // namespace totex::periodic
