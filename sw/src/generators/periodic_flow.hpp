// SPDX-License-Identifier: Apache-2.0
/// The periodic nic question with every route (private to the periodic generator): one variable
/// per message, directed link and slot (the message crosses that link in that slot, modulo the
/// period), flow conservation at every node and slot, and no waiting. The minimal-route models
/// (periodic.hpp) fix each message's routes in advance; this one lets a message take any walk, so
/// its UNSAT is a proof for every schedule under the model, and its SAT may use detours.
#pragma once
#include <chrono>
#include <cstdint>
#include <vector>

#include "cnf.hpp"
#include "periodic.hpp"
#include "totex/network/topology.hpp"

namespace totex::periodic {

/// The every-route model's size at period P: messages x directed links x P.
[[nodiscard]] std::int64_t every_route_vars(const Topology& t, int period);

/// Solves the every-route model at `period` under nic (each NIC injects at most one message and
/// ejects at most one per slot; a message is delivered where it first reaches its destination).
/// On Sat, `packed` gets one item per message with the walk found as its only candidate and
/// `placed` its injection slot (for expand_node). `conflicts` bounds the work, `end` is a safety stop.
[[nodiscard]] SatOutcome every_route_sat(const Topology& t, int period, std::int64_t conflicts,
                                         std::chrono::steady_clock::time_point end, Problem& packed,
                                         std::vector<Placement>& placed, std::int64_t* variables = nullptr);

}  // namespace totex::periodic
