// SPDX-License-Identifier: Apache-2.0
/// A MIN exchange engine as a SystemC top: load port, run controller, one switch-state source per
/// switch, the network and one NIC per terminal. The network and the NICs come from factories, so
/// the same top runs the pure SystemC models or Verilated RTL in either place (co-simulation).
///
/// Load port and timing: the contract written at the top of rtl/totex_min_top.sv (regions 0
/// switch table, 1 M^0, 2 send queue, 3 control = last step; writes only while idle; edge 0
/// samples start; step x is injected in cycle x and ejected in cycle x + n; busy for S + n - 1
/// cycles; done while the last step is ejected).
#pragma once
#include <systemc>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "min_ports.hpp"
#include "min_switch_state.hpp"
#include "model_check.hpp"
#include "totex/min_controller.hpp"
#include "totex/network/min_network.hpp"

namespace totex::sim {

class MinTop : public sc_core::sc_module {
 public:
  using MakeNetwork = std::function<std::unique_ptr<MinNetworkPorts>(const char* name)>;
  using MakeNic = std::function<std::unique_ptr<MinNicPorts>(const char* name, int terminal)>;

  sc_core::sc_in<bool> clk{"clk"};
  sc_core::sc_in<bool> rst_n{"rst_n"};
  sc_core::sc_in<bool> cfg_we{"cfg_we"};
  sc_core::sc_in<std::uint64_t> cfg_addr{"cfg_addr"};
  sc_core::sc_in<std::uint64_t> cfg_data{"cfg_data"};
  sc_core::sc_in<bool> start{"start"};
  sc_core::sc_in<bool> phase_in{"phase_in"};

  // Outputs, as signals the harness and the trace read.
  sc_core::sc_signal<bool> busy{"busy"}, done{"done"}, error{"error"};
  sc_core::sc_signal<unsigned> step{"step"};
  sc_core::sc_vector<sc_core::sc_signal<MinFlit>> eject{"eject"};
  sc_core::sc_vector<sc_core::sc_signal<unsigned>> recv_count{"recv_count"};

  MinTop(const sc_core::sc_module_name& name, const MinNetwork& net, MinConfigMode mode, int max_steps,
         int payload_bits, const MakeNetwork& make_network, const MakeNic& make_nic)
      : sc_core::sc_module(name), net_(net), mode_(mode), layout_(net, max_steps, payload_bits),
        max_steps_(max_steps) {
    const auto n = static_cast<std::size_t>(net.terminals());
    const auto sw = static_cast<std::size_t>(net.switches());
    const auto stages = static_cast<std::size_t>(net.stages());
    eject.init(n);
    recv_count.init(n);
    inj_.init(n);
    nic_error_.init(n);
    q_we_.init(n);
    state_.init(sw);
    stage_step_valid_.init(stages);
    stage_step_.init(stages);
    last_.write(static_cast<unsigned>(net.terminals() - 1));

    network_ = make_network("network");
    network_->clk(clk);
    network_->rst_n(rst_n);
    network_->step_valid(inject_);
    network_->step(step);
    network_->out_step_valid(out_step_valid_);
    network_->out_step(out_step_);
    for (std::size_t g = 0; g < sw; ++g) network_->state[g](state_[g]);
    for (std::size_t j = 0; j < stages; ++j) {
      network_->stage_step_valid[j](stage_step_valid_[j]);
      network_->stage_step[j](stage_step_[j]);
    }
    for (std::size_t t = 0; t < n; ++t) {
      network_->inject[t](inj_[t]);
      network_->eject[t](eject[t]);
    }
    for (int j = 0; j < net.stages(); ++j)
      for (int i = 0; i < net.switches_per_stage(); ++i) {
        const auto g = static_cast<std::size_t>(j * net.switches_per_stage() + i);
        auto src = std::make_unique<MinSwitchState>(("state_source_" + std::to_string(g)).c_str(), net, j, mode, max_steps);
        src->step(stage_step_[static_cast<std::size_t>(j)]);
        src->state(state_[g]);
        states_.push_back(std::move(src));
      }
    for (std::size_t t = 0; t < n; ++t) {
      auto nic = make_nic(("nic_" + std::to_string(t)).c_str(), static_cast<int>(t));
      nic->clk(clk);
      nic->rst_n(rst_n);
      nic->q_we(q_we_[t]);
      nic->q_slot(cfg_entry_);
      nic->q_data(cfg_data);
      nic->clear(start_now_);
      nic->phase(phase_);
      nic->unique(unique_);
      nic->inject(inject_);
      nic->step(step);
      nic->inj(inj_[t]);
      nic->ej(eject[t]);
      nic->ej_step(out_step_);
      nic->recv_count(recv_count[t]);
      nic->error(nic_error_[t]);
      nics_.push_back(std::move(nic));
    }

    SC_HAS_PROCESS(MinTop);
    SC_METHOD(edge);
    sensitive << clk.pos();
    dont_initialize();
    SC_METHOD(decode);
    sensitive << cfg_we << cfg_addr << start << busy;
    SC_METHOD(status);
    sensitive << out_step_valid_ << out_step_ << last_ << phase_ << repeat_;
    for (auto& e : nic_error_) sensitive << e;
  }

  [[nodiscard]] const MinPortLayout& layout() const { return layout_; }
  [[nodiscard]] MinNetworkPorts& network() { return *network_; }
  [[nodiscard]] const sc_core::sc_vector<sc_core::sc_signal<MinFlit>>& injected() const { return inj_; }
  [[nodiscard]] const sc_core::sc_vector<sc_core::sc_signal<unsigned>>& states() const { return state_; }
  /// Adds the top's own signals to a trace file.
  void trace(sc_core::sc_trace_file* tf, int terminals_traced) const {
    const std::string p = std::string(name()) + ".";
    for (const auto* s : {&busy, &done, &error, &inject_, &phase_, &start_now_}) sc_core::sc_trace(tf, *s, p + s->basename());
    sc_core::sc_trace(tf, step, p + "step");
    sc_core::sc_trace(tf, last_, p + "last_step");
    sc_core::sc_trace(tf, out_step_, p + "out_step");
    for (int t = 0; t < terminals_traced; ++t) {
      const auto i = static_cast<std::size_t>(t);
      sc_trace(tf, inj_[i].read(), p + "inject_" + std::to_string(t));
      sc_trace(tf, eject[i].read(), p + "eject_" + std::to_string(t));
      sc_core::sc_trace(tf, recv_count[i], p + "recv_count_" + std::to_string(t));
    }
    for (std::size_t g = 0; g < state_.size(); ++g) sc_core::sc_trace(tf, state_[g], p + "state_" + std::to_string(g));
  }

 private:
  /// The load port's fields {region, index, entry}, decoded by the library (MinPortLayout::fields).
  [[nodiscard]] MinPortLayout::AddressFields address() const { return layout_.fields(cfg_addr.read()); }

  void decode() {
    const bool accepted = cfg_we.read() && !busy.read();
    const MinPortLayout::AddressFields a = address();
    for (std::size_t t = 0; t < q_we_.size(); ++t)
      q_we_[t].write(accepted && a.region == MinPortLayout::kRegionSendQueue && a.index == t);
    cfg_entry_.write(static_cast<unsigned>(a.entry));  // step_bits wide
    start_now_.write(start.read() && !busy.read());
  }

  void status() {
    done.write(out_step_valid_.read() && out_step_.read() == last_.read());
    bool any = false;
    for (const auto& e : nic_error_) any = any || e.read();
    error.write(any);
    // Labels may repeat a source only when a longer table sends them in slots that stay idle.
    // A traffic's configurations (control register repeat) may repeat a pair in either phase.
    unique_.write(!repeat_.read() && (phase_.read() || last_.read() == static_cast<unsigned>(net_.terminals() - 1)));
  }

  void edge() {
    if (!rst_n.read()) {
      busy.write(false);
      inject_.write(false);
      step.write(0);
      phase_.write(false);
      last_.write(static_cast<unsigned>(net_.terminals() - 1));
      repeat_.write(false);
      return;
    }
    if (start.read() && busy.read()) model_check_failed(name(), "start while busy (ignored)");
    if (cfg_we.read() && busy.read()) model_check_failed(name(), "load-port write while busy (ignored)");
    if (cfg_we.read() && !busy.read()) load();
    if (start_now_.read()) {
      busy.write(true);
      inject_.write(true);
      step.write(0);
      phase_.write(phase_in.read());
      return;
    }
    if (inject_.read()) {
      if (step.read() == last_.read()) inject_.write(false);
      else step.write(step.read() + 1);
    }
    const std::size_t last_stage = stage_step_.size() - 1;
    if (stage_step_valid_[last_stage].read() && stage_step_[last_stage].read() == last_.read()) busy.write(false);
  }

  /// One accepted load-port write (send-queue writes go to the NICs through q_we_).
  void load() {
    const MinPortLayout::AddressFields a = address();
    const auto data = cfg_data.read();
    const bool table = mode_ == MinConfigMode::Table;
    switch (a.region) {
      case MinPortLayout::kRegionSwitchTable:
      case MinPortLayout::kRegionM0:
        if ((a.region == MinPortLayout::kRegionSwitchTable) != table)
          model_check_failed(name(), "region " + std::to_string(a.region) + " written in the other mode");
        else if (a.index >= states_.size())
          model_check_failed(name(), "switch " + std::to_string(a.index) + " out of range");
        else
          states_[a.index]->write(static_cast<unsigned>(a.entry), static_cast<unsigned>(data));
        break;
      case MinPortLayout::kRegionSendQueue:
        if (a.index >= q_we_.size()) model_check_failed(name(), "send queue of terminal " + std::to_string(a.index) + " >= N");
        break;
      default:
        if (a.index == MinPortLayout::kControlRepeat && data <= 1)
          repeat_.write(data == 1);
        else if (a.index != MinPortLayout::kControlSteps || data >= static_cast<std::uint64_t>(max_steps_) ||
            (!table && data != static_cast<std::uint64_t>(net_.terminals() - 1)))
          model_check_failed(name(), "control write " + std::to_string(data) + " to register " + std::to_string(a.index) +
                                         " is not allowed");
        else
          last_.write(static_cast<unsigned>(data));
    }
  }

  MinNetwork net_;
  MinConfigMode mode_;
  MinPortLayout layout_;
  int max_steps_;
  std::unique_ptr<MinNetworkPorts> network_;
  std::vector<std::unique_ptr<MinSwitchState>> states_;
  std::vector<std::unique_ptr<MinNicPorts>> nics_;
  // Registers of the run controller.
  sc_core::sc_signal<bool> inject_{"inject"}, phase_{"phase"};
  sc_core::sc_signal<unsigned> last_{"last_step"};
  sc_core::sc_signal<bool> repeat_{"repeat"};
  // Wires.
  sc_core::sc_signal<bool> start_now_{"start_now"}, unique_{"unique"};
  sc_core::sc_signal<unsigned> cfg_entry_{"cfg_entry"};
  sc_core::sc_vector<sc_core::sc_signal<bool>> q_we_{"q_we"};
  sc_core::sc_vector<sc_core::sc_signal<MinFlit>> inj_{"inj"};
  sc_core::sc_vector<sc_core::sc_signal<bool>> nic_error_{"nic_error"};
  sc_core::sc_vector<sc_core::sc_signal<unsigned>> state_{"state"};
  sc_core::sc_vector<sc_core::sc_signal<bool>> stage_step_valid_{"stage_step_valid"};
  sc_core::sc_vector<sc_core::sc_signal<unsigned>> stage_step_{"stage_step"};
  sc_core::sc_signal<bool> out_step_valid_{"out_step_valid"};
  sc_core::sc_signal<unsigned> out_step_{"out_step"};
};

}  // namespace totex::sim
