// SPDX-License-Identifier: Apache-2.0
/// Run controller of the SystemC direct network (contract: totex_direct_ctrl's timing in
/// sw/hw/include/totex/direct_controller.hpp). Edge 0 samples start = 1 while idle; cycle c runs
/// with step = c. Scheduled: busy in cycles 0..last (last = the `last` control register, loaded
/// at region 2 index 0), done in cycle last. Dynamic: busy until every NIC is done (all_done),
/// done in that cycle; step saturates. clear = start && !busy, the cycle before edge 0.
#pragma once
#include <systemc>

#include "direct_common.hpp"

namespace totex::sim {

class DirectCtrl : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> cfg_we;  // already gated with !busy by the top
  sc_core::sc_in<std::uint64_t> cfg_addr;
  sc_core::sc_in<std::uint32_t> cfg_data;
  sc_core::sc_in<bool> start;
  sc_core::sc_in<bool> all_done;
  sc_core::sc_out<bool> clear;
  sc_core::sc_out<bool> busy;
  sc_core::sc_out<bool> done;
  sc_core::sc_out<int> step;

  SC_HAS_PROCESS(DirectCtrl);
  DirectCtrl(const sc_core::sc_module_name& name, const DirectLayout& layout, DirectChecks& checks);

 private:
  void on_clock();
  void decide();

  const DirectLayout& layout_;
  DirectChecks& checks_;
  const bool dynamic_;
  const int step_max_;
  sc_core::sc_signal<int> last_;
};

}  // namespace totex::sim
