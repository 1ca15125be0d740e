// SPDX-License-Identifier: Apache-2.0
/// Schedule generators. `pairwise` is the correct-but-not-optimal baseline for every topology
/// and model; `latin` is paper 002's optimal MIN schedule.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "totex/network/min_network.hpp"
#include "totex/network/placement.hpp"
#include "totex/schedule.hpp"
#include "totex/network/topology.hpp"

namespace totex {

/// MPI-style pairwise exchange: in round r node s sends to (s + r) mod N (processor i to processor
/// i + r of a partially populated network), on a fixed shortest
/// path (BFS, lowest port first), each message placed at the earliest step where all of its
/// hops fit the model's limits (hops on consecutive steps, so no relay ever buffers).
[[nodiscard]] Schedule pairwise_schedule(const Topology& t, Model m);

/// Dimension-order schedule for tori with d >= 2 equal sides K >= 3, built for the partially
/// populated tori of paper 004 (processors only; empty nodes relay): every processor pair on its
/// routing's path (placement.hpp routes(): ODR, or for UDR the dimension order that fits
/// earliest), hops on consecutive steps (no buffering), packed greedily (the best of three
/// first-fit orders). Algorithm name odr|udr. Throws UsageError for other topologies.
[[nodiscard]] Schedule dimension_order_schedule(const Topology& t, Model m, Routing r);

/// Pairwise for a MIN: round-major messages packed first-fit into configurations whose switch
/// states agree; unused switches are left in state 0.
[[nodiscard]] MinSchedule pairwise_schedule(const MinNetwork& net);

/// M^0 of paper 002: zeros for d > 2; for d = 2 any initial states (Corollary 4).
[[nodiscard]] std::vector<std::uint8_t> zero_m0(const MinNetwork& net);
/// M^x = M^0 (+)_d digit_{n-1-j}(x) for switch i of stage j.
[[nodiscard]] MinConfiguration configuration_from_m0(const MinNetwork& net,
                                                     const std::vector<std::uint8_t>& m0, int x);
/// Paper 002's schedule: the N configurations M^0..M^{N-1}.
[[nodiscard]] MinSchedule latin_schedule(const MinNetwork& net, const std::vector<std::uint8_t>& m0);

/// A[j][x] = the input that reaches output j in configuration x (paper 002's matrix A).
[[nodiscard]] std::vector<std::vector<int>> arrival_matrix(const MinNetwork& net,
                                                           const MinSchedule& s);
/// Every row and column of an N x N matrix over 0..N-1 is a permutation.
[[nodiscard]] bool is_latin_square(const std::vector<std::vector<int>>& a);

/// Phase 1 of paper 002: labels go through the MIN; label s reaching output t in step x means
/// processor s must send its message for t in step x. Returns send_order[s][x] = t (-1 when s is idle in step x).
[[nodiscard]] std::vector<std::vector<int>> label_phase_send_order(const MinNetwork& net,
                                                                   const MinSchedule& s);

}  // namespace totex
