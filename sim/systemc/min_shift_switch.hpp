// SPDX-License-Identifier: Apache-2.0
/// A d x d shift-state switch (paper 002): in state k, input u is connected to output (u + k) mod d.
/// Registered outputs: what enters in a cycle leaves in the next.
#pragma once
#include <systemc>

#include <string>

#include "min_flit.hpp"
#include "model_check.hpp"

namespace totex::sim {

class MinShiftSwitch : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk{"clk"};
  sc_core::sc_in<bool> rst_n{"rst_n"};
  sc_core::sc_in<unsigned> state{"state"};
  sc_core::sc_vector<sc_core::sc_in<MinFlit>> in{"in"};
  sc_core::sc_vector<sc_core::sc_out<MinFlit>> out{"out"};

  MinShiftSwitch(const sc_core::sc_module_name& name, int radix) : sc_core::sc_module(name), d_(radix) {
    in.init(static_cast<std::size_t>(d_));
    out.init(static_cast<std::size_t>(d_));
    SC_HAS_PROCESS(MinShiftSwitch);
    SC_METHOD(edge);
    sensitive << clk.pos();
    dont_initialize();
  }

 private:
  void edge() {
    const unsigned k = state.read();
    if (rst_n.read() && k >= static_cast<unsigned>(d_))
      model_check_failed(name(), "state " + std::to_string(k) + " is not a shift state < " + std::to_string(d_));
    for (int u = 0; u < d_; ++u) {
      const auto v = static_cast<std::size_t>((u + static_cast<int>(k % static_cast<unsigned>(d_))) % d_);
      out[v].write(rst_n.read() ? in[static_cast<std::size_t>(u)].read() : MinFlit{});
    }
  }
  int d_;
};

}  // namespace totex::sim
