// SPDX-License-Identifier: Apache-2.0
/// The in-memory schedules: one type for direct networks, one for MINs.
#pragma once
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "totex/min_network.hpp"
#include "totex/model.hpp"
#include "totex/topology.hpp"

namespace totex {

/// The personalized message from `src` to `dst`.
struct Message {
  NodeId src;
  NodeId dst;
  bool operator==(const Message& o) const { return src == o.src && dst == o.dst; }
};

/// In one step, message `msg` crosses the directed link leaving `from` through `port`.
struct Transfer {
  Message msg;
  NodeId from;
  Port port;
  bool operator==(const Transfer& o) const { return msg == o.msg && from == o.from && port == o.port; }
};

/// A direct-network schedule: steps[t] lists every link crossing of step t. What each node
/// injects, relays, stores (buffers) or delivers follows from the transfers; see node_actions().
struct Schedule {
  std::string topology;  // spec
  Model model = Model::SinglePort;
  std::string algorithm;
  std::vector<std::vector<Transfer>> steps;
  [[nodiscard]] std::int64_t transfer_count() const;
};

/// What happens at nodes in one step, derived from a schedule.
struct NodeActions {
  std::vector<std::vector<Message>> inject;   // per node: messages leaving their source
  std::vector<std::vector<Message>> deliver;  // per node: messages arriving at their destination
  std::vector<std::vector<Message>> store;    // per node: messages held at a relay over the step
};
/// Per step, derived by replaying the transfers (assumes a schedule the verifier accepts).
[[nodiscard]] std::vector<NodeActions> node_actions(const Topology& t, const Schedule& s);

/// A MIN schedule: one configuration (a shift state per switch) per step; in step x every
/// terminal s that is not idle sends its message to the output permutation_x(s) reaches. The
/// self slot is counted (a terminal sends N messages, one to itself), as in paper 002.
struct MinSchedule {
  std::string topology;  // spec
  std::string algorithm;
  std::vector<MinConfiguration> configurations;
  /// idle[x] lists the terminals that send nothing in step x; empty (or short) = all send.
  std::vector<std::vector<int>> idle;
  /// When set, configurations were derived from this M^0 by M^x = M^0 (+)_d digit_{n-1-j}(x).
  std::vector<std::uint8_t> m0;
  /// Cycles for the whole exchange: one configuration per cycle plus the pipeline fill.
  [[nodiscard]] bool sends(std::size_t step, int terminal) const;
  [[nodiscard]] std::int64_t steps(const MinNetwork& net) const {
    return configurations.empty() ? 0
                                  : static_cast<std::int64_t>(configurations.size()) + net.stages() - 1;
  }
};

/// A schedule of either kind (the network decides which: spec.hpp's Network).
using AnySchedule = std::variant<Schedule, MinSchedule>;

}  // namespace totex
