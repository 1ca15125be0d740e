// SPDX-License-Identifier: Apache-2.0
/// The rotation construction for square 2D tori (issue 29): a translation-invariant schedule whose
/// cost grows with the hops, not with a search over them.
///
/// Every node sends the same relative routes (patterns). The N - 1 offsets are split into four
/// streams related by quarter turns; stream q sends, in its own frame, only "east" and "north"
/// moves, and a common word w (period k: e = m + 1 easts, then k - e norths, m = floor(k/2)) tells
/// every stream which of its two moves it makes in each step. A quarter turn maps the four frames'
/// (east, north) onto (E,N), (N,W), (W,S), (S,E), so in every step the four streams use four
/// different link classes: every link of the torus is busy in every step of the core.
/// Each stream's routes are cut from w: one route straddles each east-to-north edge of w and one
/// each north-to-east edge, so a route is labelled by where it starts and ends in w. The labels
/// follow a cyclic sequence (a_i, b_i) (docs/scale.md#the-rotation-construction) under which the
/// routes cut from w are exactly the stream's offsets; the four streams run it a fixed spacing
/// apart, chosen so that the labels they are at always differ, so no two streams start (inject)
/// or end (eject) a route in the same step: the nic rule. Offsets the streams cannot take (on even
/// sides the antipode (m, m)) are placed after the core by a first fit on the free link classes;
/// periodic schedules first try the period bound, the core's patterns next to its free link
/// slots placed again with them by SAT (periodic_repair.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "pattern_schedule.hpp"
#include "totex/model.hpp"
#include "totex/network/topology.hpp"

namespace totex {

/// Empty when the construction applies (a k x k torus, every node a processor, k >= 11 other
/// than 12), else why not.
[[nodiscard]] std::string rotation_why_not(const Topology& t);

struct RotationPlan {
  std::vector<PlacedPattern> patterns;  // one per destination offset (node 0's messages)
  std::int64_t core_steps = 0;          // the last step of the core + 1
  std::int64_t steps = 0;               // makespan (one-shot) or the period (periodic)
  int tail_routes = 0;                  // offsets placed after the core by first fit
  int idle_routes = 0;                  // core slots whose offset another stream sends (left idle)
  bool repaired = false;                // periodic: the tail placed by the SAT repair at the period bound
  std::vector<std::string> log;         // periodic: the repair's solves
};

/// The patterns of the one-shot schedule (periodic = false) or of a periodic schedule of period
/// `steps` (periodic = true: the cyclic label sequence as it is, routes may wrap past the period;
/// at the period bound when the repair finds the rest a place). Throws UsageError where
/// rotation_why_not() is not empty.
[[nodiscard]] RotationPlan rotation_patterns(const Topology& t, Model m, bool periodic);

/// The one-shot schedule (algorithm "rotation"), lazy past a few tens of millions of transfers.
[[nodiscard]] Schedule rotation_schedule(const Topology& t, Model m, std::vector<std::string>& log);

}  // namespace totex
