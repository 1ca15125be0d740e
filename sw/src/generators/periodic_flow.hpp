// SPDX-License-Identifier: Apache-2.0
/// The periodic question with every route (private to the periodic generator): one variable per
/// message, directed link and slot (the message crosses that link in that slot, modulo the
/// period), flow conservation at every node and slot. The minimal-route models
/// (periodic_parts.hpp) fix each message's routes in advance; this one lets a message take any
/// walk, so its UNSAT is a proof for every schedule under the model, and its SAT may use detours.
#pragma once
#include <chrono>
#include <cstdint>
#include <vector>

#include "cnf.hpp"
#include "periodic_parts.hpp"
#include "totex/model.hpp"
#include "totex/network/topology.hpp"
#include "totex/traffic/traffic.hpp"

namespace totex::periodic {

/// The every-route model's size at period P: messages x directed links x P.
[[nodiscard]] std::int64_t every_route_vars(const Topology& t, int period);

/// Solves the every-route model at `period` under nic (each NIC injects at most one message and
/// ejects at most one per slot; a message is delivered where it first reaches its destination).
/// On Sat, `packed` gets one item per message with the walk found as its only candidate and
/// `placed` its injection slot (for expand_node). `limit.conflicts` decides the outcome;
/// `limit.safety` is a wall-clock cap only (`stats.capped` says when it fired).
[[nodiscard]] SatOutcome every_route_sat(const Topology& t, int period, const SatLimit& limit, Problem& packed,
                                         std::vector<Placement>& placed, std::int64_t* variables = nullptr,
                                         SatStats* stats = nullptr);

/// The same question under any model, for checking bounds against exact minima: nic as above;
/// all-port without the NIC limits (every link one message per slot, no waiting at relays);
/// single-port with waiting at relays (a message may stay at a node from one slot to the next)
/// and each node sending at most one and receiving at most one message per slot. On Sat,
/// `schedule` (if given) gets the schedule found, period `period`, absolute steps from the
/// injection slots (verify it with verify_periodic). With `traffic` (not null) the messages are
/// its flits, a pair's flits injected in slot order (they are interchangeable, so every schedule
/// relabelled in that order is one the model admits): its UNSAT is a proof for that traffic.
/// `clauses` (if given) gets the model's size.
[[nodiscard]] SatOutcome every_route_decide(const Topology& t, Model m, int period, const SatLimit& limit,
                                            Schedule* schedule = nullptr, SatStats* stats = nullptr,
                                            const Traffic* traffic = nullptr, std::int64_t* clauses = nullptr);

}  // namespace totex::periodic
