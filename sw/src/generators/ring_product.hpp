// SPDX-License-Identifier: Apache-2.0
/// The ring-product construction for tori of three or more dimensions (issue 29): a
/// translation-invariant periodic schedule of the torus B x C_m (C_m a ring of size m, B the other
/// dimensions) built from a translation-invariant periodic schedule of B of period P_B.
///
/// The message of offset (d, c) (d in B, c in the ring) first makes its |c| ring moves, then takes
/// B's route for d. If B's route for d leaves in slot s_B(d), the copy for ring offset c leaves B's
/// part in slot p = s_B(d) + q P_B of the period P = W P_B (W >= m windows), with a window q of its
/// own per c: the m copies of B's schedule then hold B's link tracks in different slots (a slot of
/// B's track is held by one route of B modulo P_B, hence by one copy modulo P). What is left is the
/// ring: the |c| moves end at p, so they hold the ring track of c's sign in slots p - |c| .. p - 1,
/// the message is injected at p - |c| and ejected at p + |route of d|. Which window each c takes
/// (and the sign of a tie at m/2) is asked of a local search, then of CaDiCaL (one variable per
/// offset, window and ring offset; at most one holder per ring slot, inject slot and eject slot);
/// the messages of offset (0, c), which have no B part, end their moves in a slot where no route of
/// B starts or ends. On torus:8x8x8, m P_B = 512 = the period bound: the ring tracks are then full
/// too, and CaDiCaL finds the windows in about a second.
#pragma once
#include <string>
#include <vector>

#include "pattern_schedule.hpp"
#include "totex/model.hpp"
#include "totex/network/topology.hpp"

namespace totex {

/// Empty when the construction applies (nic or all-port, a torus of three or more dimensions, every
/// factor a ring of size >= 3, every node a processor), else why not.
[[nodiscard]] std::string ring_product_why_not(const Topology& t, Model m);

struct RingProductPlan {
  std::vector<PlacedPattern> patterns;  // one per destination offset (node 0's messages), starts < period
  int period = 0;                       // 0: none found
  std::vector<std::string> log;         // one line per attempt: ring dimension, B and its period, windows
  bool capped = false;                  // a SAT call was stopped by its wall-clock safety cap (cnf.hpp)
};

/// The periodic plan with the shortest period over the ring dimensions tried (the largest size
/// first; sizes already tried are skipped); `budget` is shared by B's periodic schedules and the
/// SAT calls. Empty patterns (period 0) when no SAT call found a plan. Built under nic whatever `m`
/// (all-port's rules are nic's without the NIC ports). Throws UsageError where
/// ring_product_why_not() is not empty.
[[nodiscard]] RingProductPlan ring_product_periodic(const Topology& t, Model m, double budget);

/// The one-shot schedule (algorithm "product"): the periodic plan's messages, each sent once,
/// from the slot of the period after which the last arrival is earliest. The plan is built under
/// nic, whose schedules also meet all-port's rules, so an all-port request gets the same patterns.
[[nodiscard]] Schedule ring_product_schedule(const Topology& t, Model m, double budget, std::vector<std::string>& log);

}  // namespace totex
