// SPDX-License-Identifier: Apache-2.0
/// Translation-invariant ("pattern") schedules for Cayley products: rings, tori, hypercubes,
/// generalized hypercubes and their products. Every node sends the same relative route in the
/// same steps, so the whole exchange is N-1 patterns (one per destination offset) and all
/// routers share one table. Each link class (dimension, direction) is then used by at most one
/// pattern per step, and under nic at most one pattern starts and one ends per step: a small
/// packing problem, solved by a greedy (any minimal route, earliest start), a search over the
/// order and a large neighbourhood search (route_packing.hpp), then tightened with CaDiCaL on the
/// pattern model itself. On tori of even sides and hypercubes a second round lets each colour
/// (coordinate-sum parity) follow its own patterns.
///
/// A pattern-model SAT result is a schedule; a pattern-model UNSAT result proves nothing about
/// asymmetric schedules and is never reported as a proof (the exact mode, exact.hpp, is).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "totex/model.hpp"
#include "product_routes.hpp"
#include "totex/schedule.hpp"
#include "totex/network/topology.hpp"

namespace totex {

/// Rings and complete graphs only, every node a processor (paths are not vertex-transitive).
[[nodiscard]] bool pattern_model_applies(const Topology& t);

struct PatternOptions {
  /// The search's work (placements and SAT conflicts, about seconds on the development machine;
  /// the same schedule on any machine); the wall clock stops it only at safety_stop_seconds().
  double time_budget_seconds = 4.0;
  std::int64_t max_clauses = 8'000'000;  // larger pattern models skip the SAT stage
  std::uint64_t seed = 1;
  /// 1: every node follows the same patterns; 2: the nodes of each colour (parity of the
  /// coordinate sum; tori of even sides, hypercubes) follow their own; 0: the generator's choice.
  int colours = 0;
};

struct PatternResult {
  Schedule schedule;                // algorithm "pattern"
  std::int64_t greedy_steps = 0;    // best greedy before SAT
  std::vector<std::string> log;     // one line per stage: what ran, steps, seconds
};

/// One pattern placed: the message from node 0 to `dst` leaves in step `start` and takes the
/// moves of `word` in consecutive steps; every other node sends the translated message alike
/// (only the nodes whose coordinate sum has parity `source_colour`, when that is 0 or 1).
struct PlacedPattern {
  NodeId dst = 0;
  std::int64_t start = 0;
  Word word;
  int source_colour = -1;
};

/// The schedule in which every node follows every pattern (translation by the product's group).
[[nodiscard]] Schedule expand_patterns(const Topology& t, Model m, const std::vector<PlacedPattern>& patterns,
                                       std::string algorithm);

inline constexpr std::int64_t kLazyPatternTransfers = 50'000'000;
/// The same schedule as expand_patterns, lazy (steps generated on demand, schedule.hpp's
/// StepSource) when it has more than `lazy_above` transfers: torus:64x64 has 5.4e8.
[[nodiscard]] Schedule pattern_schedule_of(const Topology& t, Model m, std::vector<PlacedPattern> patterns,
                                           std::string algorithm, std::int64_t lazy_above = kLazyPatternTransfers);

/// all-port or nic; throws UsageError where pattern_model_applies() is false.
[[nodiscard]] PatternResult pattern_schedule(const Topology& t, Model m, const PatternOptions& o = {});

}  // namespace totex
