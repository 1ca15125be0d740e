// SPDX-License-Identifier: Apache-2.0
/// Delivery traces and the scoreboard every engine (ref, rtl, systemc, cosim) reports through.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "totex/network/min_network.hpp"
#include "totex/schedule.hpp"
#include "totex/network/topology.hpp"
#include "totex/traffic/traffic.hpp"

namespace totex {

/// The payload check value of message (src, dst): a 16-bit mix both ends can recompute.
[[nodiscard]] std::uint32_t payload_of(NodeId src, NodeId dst);
/// Flit `flit` of a multi-flit pair: payload_of(src, dst) plus flit times an odd constant (16
/// bits), so flit 0 is the one-flit payload and no two of a pair's first 65536 flits share one.
[[nodiscard]] std::uint32_t payload_of(NodeId src, NodeId dst, std::int32_t flit);

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

/// When a run of a schedule delivers a message: the step and the cycle (relative to the start of
/// the exchange) in which it arrives. This timing comes from the schedule under test; what must
/// be delivered at all does not (see Scoreboard).
struct ExpectedDelivery {
  Delivery delivery;
  std::int64_t cycle;
  std::int32_t flit = 0;  // the flit of its pair (multi-flit traffic; 0 otherwise)
};

/// Checks observed deliveries. What must arrive is derived from the network alone, never from
/// the schedule under test: every ordered pair of distinct processors exactly once on a direct
/// network, all N*N pairs (the self slot included) on a MIN. Each delivery must reach its
/// destination, carry payload_of(src, dst), arrive once, and (when timing is given) carry the
/// step and arrive in the cycle the timing predicts. Errors name the cycle, node and message.
class Scoreboard {
 public:
  /// Cycle-exact: `timing` (from the schedule) says when each message arrives.
  Scoreboard(const Topology& t, const std::vector<ExpectedDelivery>& timing);
  Scoreboard(const MinNetwork& net, const std::vector<ExpectedDelivery>& timing);
  /// A MIN's configurations of a traffic (MinSchedule::traffic): its flits, no self slot.
  Scoreboard(const MinNetwork& net, const std::vector<ExpectedDelivery>& timing, const Traffic& traffic);
  /// Cycle-exact, for a traffic other than all: what must arrive is its flits. A pair's flit f
  /// carries payload_of(src, dst, f), which names it; the flits of a pair must arrive in index
  /// order (flit f + 1 not in an earlier cycle than flit f; finish() checks).
  Scoreboard(const Topology& t, const std::vector<ExpectedDelivery>& timing, const Traffic& traffic);
  /// No cycle expectation (dynamic routing): completeness, place, payload and duplicates only.
  explicit Scoreboard(const Topology& t);
  /// No cycle expectation, for a traffic: every flit of it exactly once, at its destination, with
  /// payload_of(src, dst, f). `in_order`: a pair's flits must also arrive in index order (as the
  /// timed constructor checks); without it an adaptive network may deliver them in any order
  /// (reordered() counts the flits that overtook an earlier one of their pair).
  Scoreboard(const Topology& t, const Traffic& traffic, bool in_order);
  void observe(std::int64_t cycle, NodeId at, NodeId src, NodeId dst, std::int64_t step, std::uint32_t payload);
  /// Reports every required message not seen; call once at the end.
  void finish();
  [[nodiscard]] const std::vector<std::string>& errors() const { return errors_; }
  [[nodiscard]] std::int64_t delivered() const { return delivered_; }
  /// The number of messages the network requires (not the number the schedule delivers).
  [[nodiscard]] std::int64_t expected_count() const { return required_count_; }
  [[nodiscard]] std::int64_t last_cycle() const { return last_cycle_; }
  [[nodiscard]] const std::vector<Delivery>& trace() const { return trace_; }
  /// Deliveries observed in each cycle (index = cycle), for the cycle-level view (`sim --plot`).
  [[nodiscard]] const std::vector<std::int64_t>& per_cycle() const { return per_cycle_; }
  /// After finish(): flits that arrived before an earlier flit of their pair (0 for one flit per pair).
  [[nodiscard]] std::int64_t reordered() const { return reordered_; }

 private:
  static constexpr std::int32_t kNotRequired = -2;
  static constexpr std::int32_t kUntimed = -1;
  Scoreboard(int nodes, const std::vector<NodeId>& senders, bool self_slot, const std::vector<ExpectedDelivery>* timing);
  void error(std::string text);
  /// What must arrive: every flit of `traffic` (one slot per flit when a pair has several).
  void require(const Topology& t, const Traffic& traffic);
  void require(const std::string& network, const Traffic& traffic);
  void fill_timing();  // each required flit's entry of timing_ (the last wins)
  /// The message's index: (src*N + dst) * flits_ + flit.
  [[nodiscard]] std::size_t pair(NodeId src, NodeId dst, std::int32_t flit = 0) const {
    return (static_cast<std::size_t>(src) * static_cast<std::size_t>(nodes_) + static_cast<std::size_t>(dst)) *
               static_cast<std::size_t>(flits_) +
           static_cast<std::size_t>(flit);
  }
  /// "message (s,d)", or "flit (s,d)#f" when pairs carry several flits (the verifier's names).
  [[nodiscard]] std::string name(NodeId src, NodeId dst, std::int32_t flit) const;
  int nodes_;
  bool timed_;
  bool in_order_ = true;        // a pair's flits must arrive in index order
  std::int64_t reordered_ = 0;  // flits that overtook an earlier one of their pair
  std::int32_t flits_ = 1;  // most flits of a pair (1: one message per pair)
  std::vector<ExpectedDelivery> timing_;
  std::vector<std::int32_t> slot_;  // pair(src, dst, flit) -> kNotRequired, kUntimed or the position in timing_
  std::vector<bool> seen_;          // pair(src, dst, flit) delivered already
  std::vector<std::int64_t> seen_cycle_;  // multi-flit only: the cycle each flit arrived in
  std::vector<Delivery> trace_;
  std::vector<std::int64_t> per_cycle_;
  std::vector<std::string> errors_;
  std::int64_t required_count_ = 0;
  std::int64_t delivered_ = 0;
  std::int64_t last_cycle_ = -1;
  std::int64_t error_count_ = 0;
};

/// MIN: message (s, t) of step x arrives in cycle x + stages - 1 (one pipeline register per stage).
[[nodiscard]] std::vector<ExpectedDelivery> expected_deliveries(const MinNetwork& net, const MinSchedule& s);
/// Direct network: a message arrives in the step of its last hop (cycle = step).
[[nodiscard]] std::vector<ExpectedDelivery> expected_deliveries(const Topology& t, const Schedule& s);

}  // namespace totex
