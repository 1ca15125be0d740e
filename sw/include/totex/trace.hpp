// SPDX-License-Identifier: Apache-2.0
/// Delivery traces and the scoreboard every engine (ref, rtl, systemc, cosim) reports through.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "totex/min_network.hpp"
#include "totex/schedule.hpp"
#include "totex/topology.hpp"

namespace totex {

/// The payload check value of message (src, dst): a 16-bit mix both ends can recompute.
[[nodiscard]] std::uint32_t payload_of(NodeId src, NodeId dst);

/// One delivery; `step` counts as the schedule counts (pipeline latency excluded).
struct Delivery {
  std::int64_t step;
  NodeId dst;
  NodeId src;
  std::uint32_t payload;
  bool operator==(const Delivery& o) const {
    return step == o.step && dst == o.dst && src == o.src && payload == o.payload;
  }
};

/// Deliveries in canonical order (step, dst, src) and their SHA-256 over lines
/// "<step> <dst> <src> <payload>\n".
[[nodiscard]] std::string trace_sha256(std::vector<Delivery> trace);

/// What a run of a schedule must deliver: for every message the step and the cycle (relative to
/// the start of the exchange) in which it arrives.
struct ExpectedDelivery {
  Delivery delivery;
  std::int64_t cycle;
};

/// Checks observed deliveries against the expectation: right node, right source and payload,
/// exactly once, in exactly the predicted cycle. Errors name the cycle, node and message.
class Scoreboard {
 public:
  Scoreboard(int nodes, std::vector<ExpectedDelivery> expected);
  void observe(std::int64_t cycle, NodeId at, NodeId src, NodeId dst, std::int64_t step, std::uint32_t payload);
  /// Reports every message not seen; call once at the end.
  void finish();
  [[nodiscard]] const std::vector<std::string>& errors() const { return errors_; }
  [[nodiscard]] std::int64_t delivered() const { return delivered_; }
  [[nodiscard]] std::int64_t expected_count() const { return static_cast<std::int64_t>(expected_.size()); }
  [[nodiscard]] std::int64_t last_cycle() const { return last_cycle_; }
  [[nodiscard]] const std::vector<Delivery>& trace() const { return trace_; }

 private:
  void error(std::string text);
  int nodes_;
  std::vector<ExpectedDelivery> expected_;
  std::vector<std::int64_t> index_;  // (src*N+dst) -> position in expected_, -1 if none
  std::vector<bool> seen_;
  std::vector<Delivery> trace_;
  std::vector<std::string> errors_;
  std::int64_t delivered_ = 0;
  std::int64_t last_cycle_ = -1;
  std::int64_t error_count_ = 0;
};

/// MIN: message (s, t) of step x arrives in cycle x + stages - 1 (one pipeline register per stage).
[[nodiscard]] std::vector<ExpectedDelivery> expected_deliveries(const MinNetwork& net, const MinSchedule& s);
/// Direct network: a message arrives in the step of its last hop (cycle = step).
[[nodiscard]] std::vector<ExpectedDelivery> expected_deliveries(const Topology& t, const Schedule& s);

}  // namespace totex
