// SPDX-License-Identifier: Apache-2.0
/// Tail compaction of a translation-invariant nic schedule of a k x k x k torus (issue 49): the
/// routes that end last are taken out and put back earlier, each where it displaces the fewest
/// moves of others, which go back in the queue (min-conflicts re-insertion with a short tabu). A
/// length is kept once the queue empties; the pass stops at counted work, never on a clock.
/// docs/scale.md#octant-pipelines-3-d-cubes.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace totex {

/// One offset's route, the same at every node: the message for offset v leaves at `start` and makes
/// one move a step on the link classes `classes` (0..5: x+, y+, z+, x-, y-, z-).
struct CubeRoute {
  std::array<int, 3> v{};
  std::int64_t start = 0;
  std::vector<int> classes;
};

/// Shortens `routes` (a valid schedule: one route per link class and step, one start and one end per
/// step, each route minimal) as far as `work_limit` units of work allow (a unit: one state of the
/// placement's dynamic program). The result is valid and never longer. Returns the work spent;
/// `note` says what it reached.
std::int64_t compact_cube_tail(int k, std::vector<CubeRoute>& routes, std::int64_t work_limit, std::uint64_t seed,
                               std::string& note);

}  // namespace totex
