// SPDX-License-Identifier: Apache-2.0
/// The N x N d-nary banyan MIN as a SystemC model: n stages of N/d shift switches, wired as
/// totex::MinNetwork says (omega, baseline or butterfly), and the step tag that travels with each
/// stage so the switch-state sources know which step's state to present.
#pragma once
#include <systemc>

#include <memory>
#include <string>
#include <vector>

#include "min_ports.hpp"
#include "min_shift_switch.hpp"
#include "totex/network/min_network.hpp"

namespace totex::sim {

class MinBanyan : public MinNetworkPorts {
 public:
  MinBanyan(const sc_core::sc_module_name& name, const MinNetwork& net)
      : MinNetworkPorts(name, net.terminals(), net.switches(), net.stages()), net_(net) {
    const int n = net.terminals(), d = net.radix(), stages = net.stages();
    // lines_[j][l]: output line l of stage j (registers of its switches); the last stage drives `eject`.
    for (int j = 0; j + 1 < stages; ++j)
      lines_.push_back(std::make_unique<sc_core::sc_vector<sc_core::sc_signal<MinFlit>>>(
          ("stage" + std::to_string(j) + "_out").c_str(), static_cast<std::size_t>(n)));
    for (int j = 0; j < stages; ++j) {
      // feeder[l] = the line (terminal for stage 0, previous stage's output otherwise) entering input line l.
      std::vector<int> feeder(static_cast<std::size_t>(n));
      for (int b = 0; b < n; ++b) feeder[static_cast<std::size_t>(net.line_into_stage(j, b))] = b;
      for (int i = 0; i < net.switches_per_stage(); ++i) {
        auto sw = std::make_unique<MinShiftSwitch>(
            ("switch_s" + std::to_string(j) + "_" + std::to_string(i)).c_str(), d);
        sw->clk(clk);
        sw->rst_n(rst_n);
        sw->state(state[static_cast<std::size_t>(j * net.switches_per_stage() + i)]);
        for (int u = 0; u < d; ++u) {
          const auto line = static_cast<std::size_t>(i * d + u);
          const auto from = static_cast<std::size_t>(feeder[line]);
          if (j == 0) sw->in[static_cast<std::size_t>(u)](inject[from]);
          else sw->in[static_cast<std::size_t>(u)]((*lines_[static_cast<std::size_t>(j - 1)])[from]);
          if (j + 1 == stages) sw->out[static_cast<std::size_t>(u)](eject[line]);
          else sw->out[static_cast<std::size_t>(u)]((*lines_[static_cast<std::size_t>(j)])[line]);
        }
        switches_.push_back(std::move(sw));
      }
    }
    step_valid_q_.assign(static_cast<std::size_t>(stages), false);
    step_q_.assign(static_cast<std::size_t>(stages), 0);
    SC_HAS_PROCESS(MinBanyan);
    SC_METHOD(step_edge);
    sensitive << clk.pos();
    dont_initialize();
    SC_METHOD(step_entering);
    sensitive << step_valid << step << step_changed_;
  }

  /// The output lines of stage j (j < n-1), for tracing.
  [[nodiscard]] const sc_core::sc_vector<sc_core::sc_signal<MinFlit>>& stage_lines(int j) const {
    return *lines_[static_cast<std::size_t>(j)];
  }

 private:
  /// Each stage's register holds the step that entered it in the previous cycle.
  void step_edge() {
    for (std::size_t j = step_q_.size(); j-- > 0;) {
      step_valid_q_[j] = rst_n.read() && (j == 0 ? step_valid.read() : step_valid_q_[j - 1]);
      step_q_[j] = j == 0 ? step.read() : step_q_[j - 1];
    }
    step_out_valid_ = step_valid_q_.back();
    step_out_ = step_q_.back();
    step_changed_.notify(sc_core::SC_ZERO_TIME);
  }
  void step_entering() {
    for (std::size_t j = 0; j < step_q_.size(); ++j) {
      stage_step_valid[j].write(j == 0 ? step_valid.read() : step_valid_q_[j - 1]);
      stage_step[j].write(j == 0 ? step.read() : step_q_[j - 1]);
    }
    out_step_valid.write(step_out_valid_);
    out_step.write(step_out_);
  }

  MinNetwork net_;
  std::vector<std::unique_ptr<sc_core::sc_vector<sc_core::sc_signal<MinFlit>>>> lines_;
  std::vector<std::unique_ptr<MinShiftSwitch>> switches_;
  std::vector<bool> step_valid_q_;
  std::vector<unsigned> step_q_;
  bool step_out_valid_ = false;
  unsigned step_out_ = 0;
  sc_core::sc_event step_changed_;
};

}  // namespace totex::sim
