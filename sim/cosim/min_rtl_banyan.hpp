// SPDX-License-Identifier: Apache-2.0
/// The Verilated rtl/totex_banyan.sv (`verilator --sc`) in the place of the SystemC network: packs
/// the SystemC-side flits and states into its vectors and unpacks its outputs.
#pragma once
#include <systemc>

#include "Vtotex_banyan.h"
#include "min_ports.hpp"
#include "sc_bits.hpp"
#include "totex/network/min_network.hpp"

namespace totex::sim {

class MinRtlBanyan : public MinNetworkPorts {
 public:
  MinRtlBanyan(const sc_core::sc_module_name& name, const MinNetwork& net, const MinPortLayout& layout)
      : MinNetworkPorts(name, net.terminals(), net.switches(), net.stages()), net_(net), layout_(layout),
        rtl_("rtl") {
    rtl_.clk_i(clk);
    rtl_.rst_ni(rst_n);
    rtl_.state_i(state_i_);
    rtl_.step_valid_i(step_valid_i_);
    rtl_.step_i(step_i_);
    rtl_.valid_i(valid_i_);
    rtl_.data_i(data_i_);
    rtl_.stage_step_valid_o(stage_step_valid_o_);
    rtl_.stage_step_o(stage_step_o_);
    rtl_.valid_o(valid_o_);
    rtl_.data_o(data_o_);
    rtl_.out_step_valid_o(out_step_valid_o_);
    rtl_.out_step_o(out_step_o_);
    SC_HAS_PROCESS(MinRtlBanyan);
    SC_METHOD(pack);
    sensitive << step_valid << step;
    for (auto& s : state) sensitive << s;
    for (auto& f : inject) sensitive << f;
    SC_METHOD(unpack);
    sensitive << stage_step_valid_o_ << stage_step_o_ << valid_o_ << data_o_ << out_step_valid_o_ << out_step_o_;
  }

  Vtotex_banyan& rtl() { return rtl_; }

 private:
  void pack() {
    const int sw = idx_width(net_.radix()), sxw = layout_.step_bits, mw = message_bits();
    StateT st{};
    for (std::size_t g = 0; g < state.size(); ++g) set_bits(st, static_cast<int>(g) * sw, sw, state[g].read());
    state_i_.write(st);
    step_valid_i_.write(step_valid.read());
    StepT sx{};
    set_bits(sx, 0, sxw, step.read());
    step_i_.write(sx);
    ValidT v{};
    DataT d{};
    for (std::size_t t = 0; t < inject.size(); ++t) {
      const MinFlit& f = inject[t].read();
      set_bits(v, static_cast<int>(t), 1, f.valid ? 1U : 0U);
      set_bits(d, static_cast<int>(t) * mw, mw, f.valid ? min_pack(f, layout_) : 0U);
    }
    valid_i_.write(v);
    data_i_.write(d);
  }

  void unpack() {
    const int sxw = layout_.step_bits, mw = message_bits();
    for (std::size_t j = 0; j < stage_step.size(); ++j) {
      stage_step_valid[j].write(get_bits(stage_step_valid_o_.read(), static_cast<int>(j), 1) != 0);
      stage_step[j].write(static_cast<unsigned>(get_bits(stage_step_o_.read(), static_cast<int>(j) * sxw, sxw)));
    }
    for (std::size_t t = 0; t < eject.size(); ++t) {
      const bool valid = get_bits(valid_o_.read(), static_cast<int>(t), 1) != 0;
      eject[t].write(valid ? min_unpack(true, get_bits(data_o_.read(), static_cast<int>(t) * mw, mw), layout_) : MinFlit{});
    }
    out_step_valid.write(out_step_valid_o_.read());
    out_step.write(static_cast<unsigned>(get_bits(out_step_o_.read(), 0, sxw)));
  }

  [[nodiscard]] int message_bits() const { return layout_.message_bits(); }

  using StateT = port_type_t<decltype(Vtotex_banyan::state_i)>;
  using StepT = port_type_t<decltype(Vtotex_banyan::step_i)>;
  using ValidT = port_type_t<decltype(Vtotex_banyan::valid_i)>;
  using DataT = port_type_t<decltype(Vtotex_banyan::data_i)>;
  MinNetwork net_;
  MinPortLayout layout_;
  Vtotex_banyan rtl_;
  sc_core::sc_signal<StateT> state_i_{"state_i"};
  sc_core::sc_signal<bool> step_valid_i_{"step_valid_i"};
  sc_core::sc_signal<StepT> step_i_{"step_i"};
  sc_core::sc_signal<ValidT> valid_i_{"valid_i"};
  sc_core::sc_signal<DataT> data_i_{"data_i"};
  sc_core::sc_signal<port_type_t<decltype(Vtotex_banyan::stage_step_valid_o)>> stage_step_valid_o_{"stage_step_valid_o"};
  sc_core::sc_signal<port_type_t<decltype(Vtotex_banyan::stage_step_o)>> stage_step_o_{"stage_step_o"};
  sc_core::sc_signal<ValidT> valid_o_{"valid_o"};
  sc_core::sc_signal<DataT> data_o_{"data_o"};
  sc_core::sc_signal<bool> out_step_valid_o_{"out_step_valid_o"};
  sc_core::sc_signal<port_type_t<decltype(Vtotex_banyan::out_step_o)>> out_step_o_{"out_step_o"};
};

}  // namespace totex::sim
