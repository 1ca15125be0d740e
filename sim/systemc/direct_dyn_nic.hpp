// SPDX-License-Identifier: Apache-2.0
/// Dynamic-mode network interface of one node: a send queue of {dst, payload} entries (region 1,
/// index = slot; injection order = slot order; direct_queue_slots() of them: (N - 1) x the
/// heaviest pair's flits) offered to the router one per cycle while the run
/// is busy, and a receiver that counts and checks what is ejected. The counts to send and to
/// receive are loaded at region 2, index 1 and 2. done: everything sent and received.
/// Handshake: inj_valid and inj_data are registered; a message moves when inj_valid and the
/// router's inj_ready are both high before an edge (both sides see the same values).
/// Checks: an ejected message for another node, more messages than expected.
#pragma once
#include <systemc>
#include <vector>

#include "direct_common.hpp"

namespace totex::sim {

class DirectDynNic : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> clear;
  sc_core::sc_in<bool> active;
  sc_core::sc_in<bool> cfg_we;
  sc_core::sc_in<std::uint64_t> cfg_addr;
  sc_core::sc_in<std::uint32_t> cfg_data;
  sc_core::sc_out<bool> inj_valid;
  sc_core::sc_out<std::uint64_t> inj_data;
  sc_core::sc_in<bool> inj_ready;
  sc_core::sc_in<bool> ej_valid;
  sc_core::sc_in<std::uint64_t> ej_data;
  sc_core::sc_out<bool> done;
  sc_core::sc_out<bool> error;
  sc_core::sc_out<int> sent_count;
  sc_core::sc_out<int> recv_count;

  SC_HAS_PROCESS(DirectDynNic);
  DirectDynNic(const sc_core::sc_module_name& name, const DirectLayout& layout, int node, DirectChecks& checks);
  /// Stores a load-port write addressed to this NIC: a send-queue entry or its send and receive
  /// counts (false: not ours, or out of range). The port calls it on a write edge; the backdoor
  /// load calls it directly.
  bool store(const LoadAddress& a, std::uint64_t data);

 private:
  void on_clock();

  const DirectLayout& layout_;
  const MsgFormat fmt_;
  const int node_;
  DirectChecks& checks_;
  std::vector<std::uint64_t> queue_;  // {dst, payload}
  std::size_t send_ = 0, recv_target_ = 0, sent_ = 0, received_ = 0;
};

}  // namespace totex::sim
