// SPDX-License-Identifier: Apache-2.0
/// The run-wide signals of the SystemC direct network: clock and reset, the load port (as the
/// harness drives it and as the nodes see it, i.e. ignored while busy) and the run controller's
/// outputs.
#pragma once
#include <systemc>

namespace totex::sim {

struct DirectBus {
  sc_core::sc_signal<bool> clk{"clk"};
  sc_core::sc_signal<bool> rst_n{"rst_n"};  // only the Verilated parts of a co-simulation have a reset
  sc_core::sc_signal<bool> cfg_we_in{"cfg_we_in"};
  sc_core::sc_signal<bool> cfg_we{"cfg_we"};
  sc_core::sc_signal<std::uint64_t> cfg_addr{"cfg_addr"};
  sc_core::sc_signal<std::uint32_t> cfg_data{"cfg_data"};
  sc_core::sc_signal<bool> start{"start"};
  sc_core::sc_signal<bool> clear{"clear"};
  sc_core::sc_signal<bool> busy{"busy"};
  sc_core::sc_signal<bool> done{"done"};
  sc_core::sc_signal<int> step{"step"};
  sc_core::sc_signal<bool> all_done{"all_done"};
  sc_core::sc_signal<bool> error{"error"};
};

}  // namespace totex::sim
