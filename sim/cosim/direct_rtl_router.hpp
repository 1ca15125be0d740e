// SPDX-License-Identifier: Apache-2.0
/// Co-simulation: the Verilated scheduled router (rtl/totex_router.sv, `verilator --sc`) in the
/// place of the SystemC router of one node (sim/systemc/direct_node.hpp). The module packs the
/// node's SystemC signals into the RTL's flat ports and unpacks its outputs; the schedule memory,
/// NIC, controller and links stay SystemC.
///
/// The RTL is built once and driven with every port connected (connected_i all ones) so one Verilated module
/// serves every node; inputs of missing ports are tied to 0 (an action on one is caught by the RTL
/// as an action on an empty input) and a message sent on a missing port is caught here.
#pragma once
#include <string>
#include <systemc>

#include "Vtotex_router.h"
#include "cosim/sc_bits.hpp"
#include "systemc/direct_node.hpp"

namespace totex::sim {

class DirectRtlRouter : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(DirectRtlRouter);
  DirectRtlRouter(const sc_core::sc_module_name& name, DirectNode& node)
      : sc_module(name), node_(node), fmt_bits_(node.layout.msg_bits), rtl_("rtl") {
    const DirectLayout& l = node.layout;
    rtl_.clk_i(node.bus.clk);
    rtl_.rst_ni(node.bus.rst_n);
    rtl_.clear_i(node.bus.clear);
    rtl_.active_i(node.bus.busy);
    rtl_.node_id_i(node_id_);
    rtl_.connected_i(connected_);
    rtl_.step_i(step_);
    rtl_.in_valid_i(in_valid_);
    rtl_.in_data_i(in_data_);
    rtl_.act_i(act_);
    rtl_.lane_valid_i(lane_valid_);
    rtl_.lane_port_i(lane_port_);
    rtl_.lane_data_i(lane_data_);
    rtl_.out_valid_o(out_valid_);
    rtl_.out_data_o(out_data_);
    rtl_.eject_o(eject_);
    rtl_.store_valid_o(store_valid_);
    rtl_.store_data_o(store_data_);
    rtl_.error_o(error_);
    auto id = node_id_.read();
    set_bits(id, 0, l.node_bits, static_cast<std::uint64_t>(node.id));
    node_id_.write(id);
    auto all_ports = connected_.read();  // every port, as the header says
    set_bits(all_ports, 0, l.ports, ~std::uint64_t{0});
    connected_.write(all_ports);
    SC_METHOD(to_rtl);
    sensitive << node.bus.step;
    for (int i = 0; i < l.ports; ++i) {
      sensitive << *node.links.in_valid[at(i)] << *node.links.in_data[at(i)] << node.act[at(i)];
    }
    for (int k = 0; k < l.lanes; ++k) sensitive << node.lane_valid[at(k)] << node.lane_port[at(k)] << node.lane_data[at(k)];
    SC_METHOD(from_rtl);
    sensitive << out_valid_ << out_data_ << eject_ << store_valid_ << store_data_ << error_;
  }

  /// The Verilated model (for tracing).
  Vtotex_router& rtl() { return rtl_; }

 private:
  static std::size_t at(int i) { return static_cast<std::size_t>(i); }

  void to_rtl() {
    const DirectLayout& l = node_.layout;
    const int port_bits = idx_width(l.ports);
    auto step = step_.read();
    set_bits(step, 0, l.step_bits, static_cast<std::uint64_t>(node_.bus.step.read()));
    step_.write(step);
    auto in_valid = in_valid_.read();
    auto in_data = in_data_.read();
    auto act = act_.read();
    for (int i = 0; i < l.ports; ++i) {
      set_bits(in_valid, i, 1, node_.links.in_valid[at(i)]->read() ? 1U : 0U);
      set_bits(in_data, i * l.msg_bits, l.msg_bits, node_.links.in_data[at(i)]->read());
      set_bits(act, i * l.act_bits, l.act_bits, static_cast<std::uint64_t>(node_.act[at(i)].read()));
    }
    in_valid_.write(in_valid);
    in_data_.write(in_data);
    act_.write(act);
    auto lane_valid = lane_valid_.read();
    auto lane_port = lane_port_.read();
    auto lane_data = lane_data_.read();
    for (int k = 0; k < l.lanes; ++k) {
      set_bits(lane_valid, k, 1, node_.lane_valid[at(k)].read() ? 1U : 0U);
      set_bits(lane_port, k * port_bits, port_bits, static_cast<std::uint64_t>(node_.lane_port[at(k)].read()));
      set_bits(lane_data, k * l.msg_bits, l.msg_bits, node_.lane_data[at(k)].read());
    }
    lane_valid_.write(lane_valid);
    lane_port_.write(lane_port);
    lane_data_.write(lane_data);
  }

  void from_rtl() {
    const DirectLayout& l = node_.layout;
    const auto out_valid = out_valid_.read();
    const auto out_data = out_data_.read();
    const auto eject = eject_.read();
    for (int o = 0; o < l.ports; ++o) {
      const bool valid = get_bits(out_valid, o, 1) != 0;
      node_.links.out_valid[at(o)]->write(valid);
      node_.links.out_data[at(o)]->write(get_bits(out_data, o * l.msg_bits, l.msg_bits));
      node_.eject[at(o)].write(get_bits(eject, o, 1) != 0);
      if (valid && o >= node_.degree && out_valid_.event())  // once per edge: out_valid is registered
        node_.checks.fail("router (RTL): node " + std::to_string(node_.id) + " step " +
                          std::to_string(node_.bus.step.read()) + ": message sent on port " + std::to_string(o) +
                          ", which has no link");
    }
    node_.store_valid.write(store_valid_.read());
    node_.store_data.write(get_bits(store_data_.read(), 0, fmt_bits_));
    node_.router_error.write(error_.read());
  }

  DirectNode& node_;
  const int fmt_bits_;
  Vtotex_router rtl_;
  PinSignal<decltype(Vtotex_router::node_id_i)> node_id_{"node_id"};
  PinSignal<decltype(Vtotex_router::connected_i)> connected_{"connected"};
  PinSignal<decltype(Vtotex_router::step_i)> step_{"step"};
  PinSignal<decltype(Vtotex_router::in_valid_i)> in_valid_{"in_valid"};
  PinSignal<decltype(Vtotex_router::in_data_i)> in_data_{"in_data"};
  PinSignal<decltype(Vtotex_router::act_i)> act_{"act"};
  PinSignal<decltype(Vtotex_router::lane_valid_i)> lane_valid_{"lane_valid"};
  PinSignal<decltype(Vtotex_router::lane_port_i)> lane_port_{"lane_port"};
  PinSignal<decltype(Vtotex_router::lane_data_i)> lane_data_{"lane_data"};
  PinSignal<decltype(Vtotex_router::out_valid_o)> out_valid_{"out_valid"};
  PinSignal<decltype(Vtotex_router::out_data_o)> out_data_{"out_data"};
  PinSignal<decltype(Vtotex_router::eject_o)> eject_{"eject"};
  PinSignal<decltype(Vtotex_router::store_valid_o)> store_valid_{"store_valid"};
  PinSignal<decltype(Vtotex_router::store_data_o)> store_data_{"store_data"};
  PinSignal<decltype(Vtotex_router::error_o)> error_{"error"};
};

}  // namespace totex::sim
