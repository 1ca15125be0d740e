// SPDX-License-Identifier: Apache-2.0
/// Where one switch gets its shift state for the step entering its stage: a table with one state
/// per step (any schedule), or only m^0, to which the switch adds the step's base-d digit
/// n-1-j (paper 002: M^x = M^0 (+)_d digit_{n-1-j}(x), j = the stage).
#pragma once
#include <systemc>

#include <string>
#include <vector>

#include "model_check.hpp"
#include "totex/min_controller.hpp"
#include "totex/network/min_network.hpp"

namespace totex::sim {

class MinSwitchState : public sc_core::sc_module {
 public:
  sc_core::sc_in<unsigned> step{"step"};
  sc_core::sc_out<unsigned> state{"state"};

  MinSwitchState(const sc_core::sc_module_name& name, const MinNetwork& net, int stage, MinConfigMode mode,
                 int max_steps)
      : sc_core::sc_module(name), d_(net.radix()), digit_(net.stages() - 1 - stage), mode_(mode),
        table_(static_cast<std::size_t>(max_steps), 0) {
    SC_HAS_PROCESS(MinSwitchState);
    SC_METHOD(present);
    sensitive << step << written_;
  }

  /// A load-port write: table entry `entry` (table mode) or m^0 (computed mode, entry ignored).
  void write(unsigned entry, unsigned value) {
    if (value >= static_cast<unsigned>(d_)) {
      model_check_failed(name(), "state " + std::to_string(value) + " >= d");
      return;
    }
    if (mode_ == MinConfigMode::Computed) m0_ = value;
    else if (entry < table_.size()) table_[entry] = value;
    else model_check_failed(name(), "table entry " + std::to_string(entry) + " >= MaxSteps");
    written_.notify(sc_core::SC_ZERO_TIME);
  }

 private:
  void present() {
    const unsigned x = step.read();
    if (mode_ == MinConfigMode::Computed)
      state.write((m0_ + static_cast<unsigned>(totex::digit(static_cast<int>(x), digit_, d_))) %
                  static_cast<unsigned>(d_));
    else
      state.write(x < table_.size() ? table_[x] : 0U);
  }

  int d_;
  int digit_;
  MinConfigMode mode_;
  std::vector<unsigned> table_;
  unsigned m0_ = 0;
  sc_core::sc_event written_;
};

}  // namespace totex::sim
