// SPDX-License-Identifier: Apache-2.0
/// Octant pipelines for k x k x k tori (issue 29): a translation-invariant schedule in which every
/// link class is busy in nearly every step, built from walks in de Bruijn-like graphs.
///
/// Number the link classes in the order x+, y+, z+, x-, y-, z- (0..5). A pipeline on three classes
/// (c1, c2, c3) runs routes one after another: at each of its pushes the route on c3 leaves, the
/// route on c2 moves to c3, the one on c1 to c2, and a new route starts on c1. A route then makes
/// (g1, g2, g3) moves in c1, c2, c3, three consecutive gaps between pushes, and its offset lies in
/// the octant of those three classes. A walk that uses every triple of a set once (an Eulerian
/// walk in the graph whose nodes are gap pairs) sends every offset of that set, with the three
/// classes busy in every step but the first and last two gaps.
///
/// Two pipelines on disjoint classes run at once, (0,1,2) with (3,4,5), then (1,2,3) with
/// (4,5,0), (2,3,4) with (5,0,1), and (0,2,4) with (1,3,5) for the alternating octants; the offsets
/// with a zero coordinate go the same way on two-class pipelines (the twelve quadrants, three at a
/// time). Under nic no two pipelines may push in the same step: the walks keep a random in-tree of
/// last exits, so that any order of the other edges completes, and back-track on a clash. Offsets
/// with a coordinate k/2 may take either sign; they are shared out between the octants that hold
/// them so that the two pipelines of a phase carry the same number of moves. What no walk carries
/// (the axes, (k/2, k/2, 0) and its turns, (k/2, k/2, k/2)) is placed last by first fit. The best
/// seed's schedule is then shortened by cube_compaction.hpp.
/// docs/scale.md#octant-pipelines-3-d-cubes.
#pragma once
#include <string>
#include <vector>

#include "totex/model.hpp"
#include "totex/network/topology.hpp"
#include "totex/schedule.hpp"

namespace totex {

/// Empty when the construction applies (nic or all-port, a torus k x k x k with k >= 6, every node
/// a processor), else why not.
[[nodiscard]] std::string octant_why_not(const Topology& t, Model m);

/// The schedule (algorithm "octant"), the shortest over the seeds that `budget` allows, compacted
/// with as much work again (the work is counted in walk steps and compaction units, so the result
/// is the same on every machine). Throws UsageError where
/// octant_why_not() is not empty.
[[nodiscard]] Schedule octant_schedule(const Topology& t, Model m, double budget, std::vector<std::string>& log);

}  // namespace totex
