// SPDX-License-Identifier: Apache-2.0
/// Scheduled-mode network interface of one node. Its message store is addressed by slot: slot
/// d < N is the node's own message for destination d (only the payload is loaded: region 1,
/// index d), slot N + j is entry j of the relay buffer (single-port schedules that park a message
/// at a relay). Lane l reads its slot in the same cycle; reading a buffer entry frees it, and an
/// entry freed in a cycle may be written by that cycle's store.
/// Checks: an own message sent twice or to the node itself, a read of an empty or missing buffer
/// entry, a store into a full or missing entry, an ejected message addressed to another node.
#pragma once
#include <systemc>
#include <vector>

#include "direct_common.hpp"

namespace totex::sim {

class DirectNic : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> clear;
  sc_core::sc_in<bool> cfg_we;
  sc_core::sc_in<std::uint64_t> cfg_addr;
  sc_core::sc_in<std::uint32_t> cfg_data;
  sc_core::sc_in<int> step;
  sc_core::sc_vector<sc_core::sc_in<bool>> lane_valid;  // [L]
  sc_core::sc_vector<sc_core::sc_in<int>> lane_slot;    // [L]
  sc_core::sc_vector<sc_core::sc_out<std::uint64_t>> lane_data;  // [L]
  sc_core::sc_in<bool> store_valid;
  sc_core::sc_in<int> store_entry;
  sc_core::sc_in<std::uint64_t> store_data;
  sc_core::sc_vector<sc_core::sc_in<bool>> eject;            // [P] from the router
  sc_core::sc_vector<sc_core::sc_in<std::uint64_t>> in_data;  // [P] the node's input links
  sc_core::sc_out<bool> error;
  sc_core::sc_out<int> occupancy;   // relay-buffer entries in use
  sc_core::sc_out<int> recv_count;  // messages ejected since the start

  SC_HAS_PROCESS(DirectNic);
  DirectNic(const sc_core::sc_module_name& name, const DirectLayout& layout, int node, DirectChecks& checks);
  /// Stores a load-port write of a message payload addressed to this NIC (false: not ours, or
  /// out of range). The port calls it on a write edge; the backdoor load calls it directly.
  bool store(const LoadAddress& a, std::uint64_t data);

 private:
  void on_clock();
  void read_lanes();
  void fail(const std::string& what);
  /// The destination of own slot {flit, dst}: its low node bits.
  [[nodiscard]] int dst_of(int slot) const { return slot & ((1 << layout_.node_bits) - 1); }

  const DirectLayout& layout_;
  const MsgFormat fmt_;
  const int node_;
  const int n_;
  const int own_;    // own flits' slots {flit, dst} (N with one flit per pair)
  const int slots_;  // relay-buffer entries B
  DirectChecks& checks_;
  std::vector<std::uint64_t> payload_;  // [own slot]
  std::vector<char> sent_;              // [own slot]
  std::vector<std::uint64_t> buffer_;   // [B]
  std::vector<char> full_;              // [B]
  sc_core::sc_event changed_;
};

}  // namespace totex::sim
