// SPDX-License-Identifier: Apache-2.0
/// Completes a translation-invariant periodic schedule of a 2-D torus by SAT, locally: the
/// patterns near the schedule's defects (link slots nobody uses, or used twice modulo the period)
/// are taken out, and they and the offsets nobody sends are placed again, on any minimal route
/// and start, in the resources left free. Used by the rotation construction
/// (torus_rotation.hpp) on even sides, whose core leaves a few offsets (the antipode, on k = 2
/// mod 4 also sigma's fixed point) that no first fit can add without a longer period: the link
/// slots they need are free, but scattered.
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pattern_schedule.hpp"
#include "totex/network/topology.hpp"

namespace totex {

/// `core` placed modulo `period` plus `rest` (offsets with no pattern), as patterns of period
/// `period` under nic (at most one pattern per link class, start and end per slot), or nullopt.
/// Tries windows of radius 0 and 2 slots around the defects, CaDiCaL's work shared by the solves
/// (`work`: conflicts times clauses, cnf.hpp; stopped at `end`, a safety stop only); `log` gets a
/// line per solve. The solver starts from the core's placements (decision phases), which is most
/// of a solution.
[[nodiscard]] std::optional<std::vector<PlacedPattern>> repair_periodic(const Topology& t,
                                                                        const std::vector<PlacedPattern>& core,
                                                                        const std::vector<NodeId>& rest,
                                                                        std::int64_t period, double work,
                                                                        std::chrono::steady_clock::time_point end,
                                                                        std::vector<std::string>& log);

}  // namespace totex
