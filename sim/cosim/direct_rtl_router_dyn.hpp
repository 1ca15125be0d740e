// SPDX-License-Identifier: Apache-2.0
/// Co-simulation, dynamic mode: the Verilated dynamic router (rtl/totex_router_dyn.sv,
/// `verilator --sc`) in the place of the SystemC one of a node (sim/systemc/direct_dyn_node.hpp),
/// next to the SystemC send-queue NIC. Route table, shortest-path ports, port dimensions and
/// datelines are driven as constants from totex::dimension_order_routes, as the generated RTL top
/// does. Built with every port connected; the inputs and credits of missing ports are tied to 0.
#pragma once
#include <systemc>

#include "Vtotex_router_dyn.h"
#include "cosim/sc_bits.hpp"
#include "systemc/direct_dyn_node.hpp"

namespace totex::sim {

class DirectRtlRouterDyn : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(DirectRtlRouterDyn);
  DirectRtlRouterDyn(const sc_core::sc_module_name& name, DirectDynNode& node) : sc_module(name), node_(node), rtl_("rtl") {
    const DirectLayout& l = node.layout;
    rtl_.clk_i(node.bus.clk);
    rtl_.rst_ni(node.bus.rst_n);
    rtl_.clear_i(node.bus.clear);
    rtl_.node_id_i(node_id_);
    rtl_.connected_i(connected_);
    rtl_.route_table_i(route_table_);
    rtl_.minimal_i(minimal_);
    rtl_.port_dim_i(port_dim_);
    rtl_.dateline_i(dateline_);
    rtl_.in_valid_i(in_valid_);
    rtl_.in_vc_i(in_vc_);
    rtl_.in_data_i(in_data_);
    rtl_.in_credit_o(in_credit_);
    rtl_.out_valid_o(out_valid_);
    rtl_.out_vc_o(out_vc_);
    rtl_.out_data_o(out_data_);
    rtl_.out_credit_i(out_credit_);
    rtl_.inj_valid_i(node.inj_valid);
    rtl_.inj_data_i(inj_data_);
    rtl_.inj_ready_o(node.inj_ready);
    rtl_.ej_valid_o(node.ej_valid);
    rtl_.ej_data_o(ej_data_);
    rtl_.error_o(node.router_error);
    rtl_.empty_o(empty_);  // unused here: the wired RTL harness's skip condition
    // Instance constants.
    const int rw = idx_width(l.ports + 1);
    auto id = node_id_.read();
    set_bits(id, 0, l.node_bits, static_cast<std::uint64_t>(node.id));
    node_id_.write(id);
    auto all_ports = connected_.read();  // every port, as the header says
    set_bits(all_ports, 0, l.ports, ~std::uint64_t{0});
    connected_.write(all_ports);
    auto table = route_table_.read();
    for (int d = 0; d < l.nodes; ++d)
      set_bits(table, d * rw, rw, static_cast<std::uint64_t>(node.routes.out_port[at(node.id)][at(d)]));
    route_table_.write(table);
    auto minimal = minimal_.read();
    for (int d = 0; d < l.nodes; ++d)
      for (int p = 0; p < l.ports; ++p)
        set_bits(minimal, d * l.ports + p, 1, node.routes.minimal[at(node.id)][at(d * l.ports + p)] ? 1U : 0U);
    minimal_.write(minimal);
    auto dims = port_dim_.read();
    auto date = dateline_.read();
    for (int p = 0; p < l.ports; ++p) {
      set_bits(dims, 8 * p, 8, static_cast<std::uint64_t>(node.routes.port_dim[at(node.id)][at(p)]));
      set_bits(date, p, 1, node.routes.dateline[at(node.id)][at(p)] ? 1U : 0U);
    }
    port_dim_.write(dims);
    dateline_.write(date);
    SC_METHOD(to_rtl);
    sensitive << node.inj_data;
    for (int i = 0; i < l.ports; ++i)
      sensitive << *node.links.in_valid[at(i)] << *node.links.in_vc[at(i)] << *node.links.in_data[at(i)]
                << *node.links.out_credit[at(i)];
    SC_METHOD(from_rtl);
    sensitive << in_credit_ << out_valid_ << out_vc_ << out_data_ << ej_data_;
  }

  /// The Verilated model (for tracing).
  Vtotex_router_dyn& rtl() { return rtl_; }

 private:
  static std::size_t at(int i) { return static_cast<std::size_t>(i); }

  void to_rtl() {
    const DirectLayout& l = node_.layout;
    const int vw = idx_width(l.vcs);
    auto in_valid = in_valid_.read();
    auto in_vc = in_vc_.read();
    auto in_data = in_data_.read();
    auto credit = out_credit_.read();
    for (int i = 0; i < l.ports; ++i) {
      set_bits(in_valid, i, 1, node_.links.in_valid[at(i)]->read() ? 1U : 0U);
      set_bits(in_vc, i * vw, vw, static_cast<std::uint64_t>(node_.links.in_vc[at(i)]->read()));
      set_bits(in_data, i * l.msg_bits, l.msg_bits, node_.links.in_data[at(i)]->read());
      set_bits(credit, i * l.vcs, l.vcs, node_.links.out_credit[at(i)]->read());
    }
    in_valid_.write(in_valid);
    in_vc_.write(in_vc);
    in_data_.write(in_data);
    out_credit_.write(credit);
    auto inj = inj_data_.read();
    set_bits(inj, 0, l.msg_bits, node_.inj_data.read());
    inj_data_.write(inj);
  }

  void from_rtl() {
    const DirectLayout& l = node_.layout;
    const int vw = idx_width(l.vcs);
    const auto credit = in_credit_.read();
    const auto valid = out_valid_.read();
    const auto vc = out_vc_.read();
    const auto data = out_data_.read();
    for (int p = 0; p < l.ports; ++p) {
      node_.links.in_credit[at(p)]->write(static_cast<std::uint32_t>(get_bits(credit, p * l.vcs, l.vcs)));
      node_.links.out_valid[at(p)]->write(get_bits(valid, p, 1) != 0);
      node_.links.out_vc[at(p)]->write(static_cast<int>(get_bits(vc, p * vw, vw)));
      node_.links.out_data[at(p)]->write(get_bits(data, p * l.msg_bits, l.msg_bits));
    }
    node_.ej_data.write(get_bits(ej_data_.read(), 0, l.msg_bits));
  }

  DirectDynNode& node_;
  Vtotex_router_dyn rtl_;
  PinSignal<decltype(Vtotex_router_dyn::node_id_i)> node_id_{"node_id"};
  PinSignal<decltype(Vtotex_router_dyn::connected_i)> connected_{"connected"};
  PinSignal<decltype(Vtotex_router_dyn::route_table_i)> route_table_{"route_table"};
  PinSignal<decltype(Vtotex_router_dyn::minimal_i)> minimal_{"minimal"};
  PinSignal<decltype(Vtotex_router_dyn::port_dim_i)> port_dim_{"port_dim"};
  PinSignal<decltype(Vtotex_router_dyn::dateline_i)> dateline_{"dateline"};
  PinSignal<decltype(Vtotex_router_dyn::in_valid_i)> in_valid_{"in_valid"};
  PinSignal<decltype(Vtotex_router_dyn::in_vc_i)> in_vc_{"in_vc"};
  PinSignal<decltype(Vtotex_router_dyn::in_data_i)> in_data_{"in_data"};
  PinSignal<decltype(Vtotex_router_dyn::in_credit_o)> in_credit_{"in_credit"};
  PinSignal<decltype(Vtotex_router_dyn::out_valid_o)> out_valid_{"out_valid"};
  PinSignal<decltype(Vtotex_router_dyn::out_vc_o)> out_vc_{"out_vc"};
  PinSignal<decltype(Vtotex_router_dyn::out_data_o)> out_data_{"out_data"};
  PinSignal<decltype(Vtotex_router_dyn::out_credit_i)> out_credit_{"out_credit"};
  PinSignal<decltype(Vtotex_router_dyn::inj_data_i)> inj_data_{"inj_data"};
  PinSignal<decltype(Vtotex_router_dyn::ej_data_o)> ej_data_{"ej_data"};
  PinSignal<decltype(Vtotex_router_dyn::empty_o)> empty_{"empty"};
};

}  // namespace totex::sim
