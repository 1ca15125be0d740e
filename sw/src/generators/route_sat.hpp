// SPDX-License-Identifier: Apache-2.0
/// A SAT stage for route packings (route_packing.hpp) whose items have fixed sources (messages,
/// or orbits of messages under a mesh's rotations): keep the items that start before some step,
/// and re-pack the rest into fewer steps, each on one of a few candidate routes (its own and
/// each dimension order) from any start in the tail. Time-indexed: one variable per item, route
/// and start; at most one item per resource and step, and under nic per NIC key and step. The
/// solver starts from the incumbent's assignment. The searches pack a schedule's start tightly
/// and leave its end ragged, so the tail is where a step is won (8x8 mesh, nic: 131 -> 130 with
/// the last 16 steps free). An infeasible answer proves nothing (the routes are restricted and
/// the head is fixed).
#pragma once
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "cnf.hpp"
#include "route_packing.hpp"

namespace totex {

/// The candidate routes of an item: its own word first, then each order of its dimensions (each
/// dimension's moves in a row), without repeats.
[[nodiscard]] std::vector<Word> candidate_words(const RouteItem& item);

/// Tries to pack the placed `items` into `steps` steps, the ones that start before `free_from`
/// where they are, the others on any candidate_words() route from any start in [free_from,
/// steps - hops]. At most `max_conflicts` conflicts and `work` (conflicts times clauses,
/// cnf.hpp; what the call spends is taken off); a call whose model could not afford 1000
/// conflicts is not made (Unknown). On Sat the free items get their new starts and words. `end`
/// is a wall-clock safety cap only; `capped` (if given) says whether it stopped the call.
SatOutcome sat_repack(const RoutePacking& packing, std::vector<RouteItem>& items, std::int64_t steps,
                      std::int64_t free_from, std::int64_t max_conflicts, std::int64_t& work,
                      std::chrono::steady_clock::time_point end, bool* capped = nullptr);

/// Shortens `best` (placed items of `packing`) one step at a time down to `bound`: each target
/// tries sat_repack with the last 16, then 24, then 32 steps free (all of them once a tail
/// reaches the target), each call at most `max_conflicts` conflicts, until a target finds none or
/// `work` runs out. Returns one line per call (target, tail, answer, conflicts).
std::vector<std::string> tail_sat_improve(const RoutePacking& packing, std::vector<RouteItem>& best, std::int64_t bound,
                                          std::int64_t max_conflicts, std::int64_t& work,
                                          std::chrono::steady_clock::time_point end);

}  // namespace totex
