// SPDX-License-Identifier: Apache-2.0
/// Schedule memory of one node: `depth` table entries of `entry_bits`, written 32 bits at a time
/// through the load port (region 0, index = {step, word}, word w = entry bits [32w +: 32]) and read
/// at the current step. The entry is decoded here into the router's and the NIC's controls
/// (layout in sw/hw/include/totex/direct_controller.hpp): per input its action, per inject lane the
/// output port and the NIC slot, and the relay-buffer entry of a store.
#pragma once
#include <systemc>
#include <vector>

#include "direct_common.hpp"

namespace totex::sim {

class DirectScheduleMem : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> cfg_we;
  sc_core::sc_in<std::uint64_t> cfg_addr;
  sc_core::sc_in<std::uint32_t> cfg_data;
  sc_core::sc_in<int> step;
  sc_core::sc_in<bool> active;
  sc_core::sc_vector<sc_core::sc_out<int>> act;         // [P] DirectLayout::kAct*
  sc_core::sc_vector<sc_core::sc_out<bool>> lane_valid;  // [L] route != 0 while active
  sc_core::sc_vector<sc_core::sc_out<int>> lane_port;    // [L] route - 1
  sc_core::sc_vector<sc_core::sc_out<int>> lane_slot;    // [L]
  sc_core::sc_out<int> store_entry;

  SC_HAS_PROCESS(DirectScheduleMem);
  DirectScheduleMem(const sc_core::sc_module_name& name, const DirectLayout& layout, int node);
  /// Stores a load-port write addressed to this memory (false: not ours, or out of range). The
  /// port calls it on a write edge; the backdoor load (`--load backdoor`) calls it directly.
  bool store(const LoadAddress& a, std::uint64_t data);

 private:
  void on_clock();
  void read();
  [[nodiscard]] std::uint64_t field(std::size_t entry, int lsb, int width) const;

  const DirectLayout& layout_;
  const std::uint64_t node_;
  std::vector<std::uint32_t> mem_;  // depth * words
  sc_core::sc_event written_;
};

}  // namespace totex::sim
