// SPDX-License-Identifier: Apache-2.0
/// Any traffic on a MIN (docs/traffic.md, "On a MIN"): configurations whose switch states carry
/// the traffic's flits, a terminal idle in a step where it has nothing to send. `all` keeps paper
/// 002's Latin schedule (self slot included); every other traffic has no self slot.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "totex/bounds/bounds.hpp"
#include "totex/network/min_network.hpp"
#include "totex/network/topology.hpp"
#include "totex/schedule.hpp"
#include "totex/traffic/min_terminals.hpp"
#include "totex/traffic/traffic.hpp"

namespace totex {

/// Lower bound of a configuration schedule of `traffic` (docs/models.md, "A MIN with a traffic"):
/// a terminal injects one flit and receives one per configuration, and each switch output line
/// carries one flit per configuration (every pair has one path), plus the n - 1 pipeline cycles.
[[nodiscard]] LowerBound min_traffic_lower_bound(const MinNetwork& net, const Traffic& traffic);

struct MinTrafficOutcome {
  MinSchedule schedule;  // traffic tag set
  LowerBound bound;
  bool proven_optimal = false;  // its cycles equal the bound, or one configuration fewer is UNSAT
  std::string proof;            // why it is optimal ("" when not proven)
  std::vector<std::string> log;
};

/// Configurations for `traffic` (not all): `all:M` repeats the Latin configurations 1..N-1 M times
/// (the bound); otherwise flits are coloured greedily into configurations (two flits conflict
/// when they share a source, a destination or a switch that they need in different states), then
/// recoloured class by class (Culberson's iterated greedy, never worse), then a tabu search one
/// configuration below the best, until the bound or `budget_seconds` of counted work (conflict
/// checks; 0: 4 s) is spent; on small instances CaDiCaL then tries one configuration fewer (UNSAT
/// proves the schedule optimal). Deterministic.
[[nodiscard]] MinTrafficOutcome min_traffic_schedule(const MinNetwork& net, const Traffic& traffic, double budget_seconds);

}  // namespace totex
