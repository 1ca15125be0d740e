// SPDX-License-Identifier: Apache-2.0
/// The Verilated rtl/totex_nic.sv (`verilator --sc`) in the place of a SystemC NIC.
#pragma once
#include <systemc>

#include "Vtotex_nic.h"
#include "min_ports.hpp"
#include "sc_bits.hpp"

namespace totex::sim {

class MinRtlNic : public MinNicPorts {
 public:
  MinRtlNic(const sc_core::sc_module_name& name, int id, const MinPortLayout& layout)
      : MinNicPorts(name), layout_(layout), rtl_("rtl") {
    IdT id_bits{};
    set_bits(id_bits, 0, layout.terminal_bits, static_cast<std::uint64_t>(id));
    id_i_.write(id_bits);
    rtl_.clk_i(clk);
    rtl_.rst_ni(rst_n);
    rtl_.id_i(id_i_);
    rtl_.q_we_i(q_we);
    rtl_.q_slot_i(q_slot_i_);
    rtl_.q_data_i(q_data_i_);
    rtl_.clear_i(clear);
    rtl_.phase_i(phase);
    rtl_.unique_i(unique);
    rtl_.inject_i(inject);
    rtl_.step_i(step_i_);
    rtl_.inj_valid_o(inj_valid_o_);
    rtl_.inj_data_o(inj_data_o_);
    rtl_.ej_valid_i(ej_valid_i_);
    rtl_.ej_data_i(ej_data_i_);
    rtl_.ej_step_i(ej_step_i_);
    rtl_.recv_count_o(recv_count_o_);
    rtl_.error_o(error);
    SC_HAS_PROCESS(MinRtlNic);
    SC_METHOD(pack);
    sensitive << q_slot << q_data << step << ej << ej_step;
    SC_METHOD(unpack);
    sensitive << inj_valid_o_ << inj_data_o_ << recv_count_o_;
  }

  Vtotex_nic& rtl() { return rtl_; }

 private:
  void pack() {
    const int sxw = layout_.step_bits, mw = message_bits();
    SlotT slot{};
    set_bits(slot, 0, sxw, q_slot.read());
    q_slot_i_.write(slot);
    QDataT qd{};
    set_bits(qd, 0, 1 + layout_.terminal_bits + layout_.payload_bits, q_data.read());
    q_data_i_.write(qd);
    SlotT x{};
    set_bits(x, 0, sxw, step.read());
    step_i_.write(x);
    const MinFlit& f = ej.read();
    ej_valid_i_.write(f.valid);
    MsgT m{};
    set_bits(m, 0, mw, f.valid ? min_pack(f, layout_) : 0U);
    ej_data_i_.write(m);
    SlotT es{};
    set_bits(es, 0, sxw, ej_step.read());
    ej_step_i_.write(es);
  }

  void unpack() {
    inj.write(inj_valid_o_.read() ? min_unpack(true, get_bits(inj_data_o_.read(), 0, message_bits()), layout_)
                                  : MinFlit{});
    recv_count.write(static_cast<unsigned>(get_bits(recv_count_o_.read(), 0, layout_.count_bits)));
  }

  [[nodiscard]] int message_bits() const { return layout_.message_bits(); }

  using IdT = port_type_t<decltype(Vtotex_nic::id_i)>;
  using SlotT = port_type_t<decltype(Vtotex_nic::q_slot_i)>;
  using QDataT = port_type_t<decltype(Vtotex_nic::q_data_i)>;
  using MsgT = port_type_t<decltype(Vtotex_nic::inj_data_o)>;
  MinPortLayout layout_;
  Vtotex_nic rtl_;
  sc_core::sc_signal<IdT> id_i_{"id_i"};
  sc_core::sc_signal<SlotT> q_slot_i_{"q_slot_i"}, step_i_{"step_i"}, ej_step_i_{"ej_step_i"};
  sc_core::sc_signal<QDataT> q_data_i_{"q_data_i"};
  sc_core::sc_signal<bool> inj_valid_o_{"inj_valid_o"}, ej_valid_i_{"ej_valid_i"};
  sc_core::sc_signal<MsgT> inj_data_o_{"inj_data_o"}, ej_data_i_{"ej_data_i"};
  sc_core::sc_signal<port_type_t<decltype(Vtotex_nic::recv_count_o)>> recv_count_o_{"recv_count_o"};
};

}  // namespace totex::sim
