// SPDX-License-Identifier: Apache-2.0
#include "direct_network.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <utility>

#include "totex/io/output_file.hpp"

namespace totex::sim {

namespace {
std::size_t at(int i) { return static_cast<std::size_t>(i); }

/// A port name usable in a VCD identifier: d1+ -> d1p, d1- -> d1m, d0:2 -> d0_2.
std::string vcd_name(std::string s) {
  for (char& c : s) c = c == '+' ? 'p' : c == '-' ? 'm' : std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}
}  // namespace

DirectNetwork::DirectNetwork(const sc_core::sc_module_name& name, const Topology& t, const DirectLayout& layout,
                             DirectChecks& checks, DirectRouterFactory router, DirectDynRouterFactory dyn_router)
    : sc_module(name),
      t_(t),
      layout_(layout),
      dynamic_(layout.params.mode == DirectMode::Dynamic),
      link_valid_("link_valid", at(t.links())),
      link_data_("link_data", at(t.links())),
      link_vc_("link_vc", at(dynamic_ ? t.links() : 0)),
      link_credit_("link_credit", at(dynamic_ ? t.links() : 0)),
      ctrl_("ctrl", layout, checks) {
  ctrl_.clk(bus.clk);
  ctrl_.cfg_we(bus.cfg_we);
  ctrl_.cfg_addr(bus.cfg_addr);
  ctrl_.cfg_data(bus.cfg_data);
  ctrl_.start(bus.start);
  ctrl_.all_done(bus.all_done);
  ctrl_.clear(bus.clear);
  ctrl_.busy(bus.busy);
  ctrl_.done(bus.done);
  ctrl_.step(bus.step);
  if (dynamic_) routes_ = dimension_order_routes(t, layout.ports, layout.params.routing);
  for (NodeId v = 0; v < t.nodes(); ++v) {
    const std::string node_name = "node_" + std::to_string(v);
    const int deg = t.degree(v);
    std::vector<LinkId> in(at(deg)), out(at(deg));
    for (Port p = 0; p < deg; ++p) {
      const NodeId w = t.neighbor(v, p);
      out[at(p)] = t.link_id(v, p);
      in[at(p)] = t.link_id(w, *t.port_to(w, v));
    }
    if (!dynamic_) {
      DirectNode::Links links;
      for (Port p = 0; p < deg; ++p) {
        links.in_valid.push_back(&link_valid_[at(in[at(p)])]);
        links.in_data.push_back(&link_data_[at(in[at(p)])]);
        links.out_valid.push_back(&link_valid_[at(out[at(p)])]);
        links.out_data.push_back(&link_data_[at(out[at(p)])]);
      }
      nodes_.push_back(std::make_unique<DirectNode>(node_name.c_str(), layout, v, deg, bus, links, checks, router));
    } else {
      DirectDynNode::Links links;
      for (Port p = 0; p < deg; ++p) {
        const auto i = at(in[at(p)]), o = at(out[at(p)]);
        links.in_valid.push_back(&link_valid_[i]);
        links.in_vc.push_back(&link_vc_[i]);
        links.in_data.push_back(&link_data_[i]);
        links.in_credit.push_back(&link_credit_[i]);
        links.out_valid.push_back(&link_valid_[o]);
        links.out_vc.push_back(&link_vc_[o]);
        links.out_data.push_back(&link_data_[o]);
        links.out_credit.push_back(&link_credit_[o]);
      }
      dyn_nodes_.push_back(std::make_unique<DirectDynNode>(node_name.c_str(), layout, routes_, v, deg, bus, links,
                                                           checks, dyn_router));
    }
  }
  SC_METHOD(gate_load_port);
  sensitive << bus.cfg_we_in << bus.busy;
  SC_METHOD(reduce);
  for (const auto& n : nodes_) sensitive << n->router_error << n->nic_error;
  for (const auto& n : dyn_nodes_) sensitive << n->router_error << n->nic_error << n->done;
}

void DirectNetwork::gate_load_port() { bus.cfg_we.write(bus.cfg_we_in.read() && !bus.busy.read()); }

void DirectNetwork::reduce() {
  bool error = false, all_done = true;
  for (const auto& n : nodes_) error = error || n->router_error.read() || n->nic_error.read();
  for (const auto& n : dyn_nodes_) {
    error = error || n->router_error.read() || n->nic_error.read();
    all_done = all_done && n->done.read();
  }
  bus.error.write(error);
  bus.all_done.write(all_done);
}

void DirectNetwork::trace(sc_core::sc_trace_file* tf, const std::string& wave) const {
  const std::string top = "top.";
  sc_core::sc_trace(tf, bus.clk, top + "clk");
  sc_core::sc_trace(tf, bus.start, top + "start");
  sc_core::sc_trace(tf, bus.busy, top + "busy");
  sc_core::sc_trace(tf, bus.done, top + "done");
  sc_core::sc_trace(tf, bus.error, top + "error");
  sc_core::sc_trace(tf, bus.step, top + "step");
  sc_core::sc_trace(tf, bus.cfg_we, top + "cfg_we");
  sc_core::sc_trace(tf, bus.cfg_addr, top + "cfg_addr");
  sc_core::sc_trace(tf, bus.cfg_data, top + "cfg_data");
  for (NodeId v = 0; v < t_.nodes(); ++v) {
    const std::string n = top + "node_" + std::to_string(v) + ".";
    for (Port p = 0; p < t_.degree(v); ++p) {
      const auto l = at(t_.link_id(v, p));
      const std::string port = vcd_name(t_.port_name(v, p));
      sc_core::sc_trace(tf, link_valid_[l], n + "out_valid_" + port);
      sc_core::sc_trace(tf, link_data_[l], n + "out_data_" + port);
      if (dynamic_) sc_core::sc_trace(tf, link_vc_[l], n + "out_vc_" + port);
    }
    if (dynamic_) {
      const DirectDynNode& d = *dyn_nodes_[at(v)];
      sc_core::sc_trace(tf, d.ej_valid, n + "eject_valid");
      sc_core::sc_trace(tf, d.ej_data, n + "eject_data");
      sc_core::sc_trace(tf, d.inj_valid, n + "inject_valid");
      sc_core::sc_trace(tf, d.inj_ready, n + "inject_ready");
      sc_core::sc_trace(tf, d.occupancy, n + "occupancy");
      sc_core::sc_trace(tf, d.recv_count, n + "recv_count");
      sc_core::sc_trace(tf, d.done, n + "done");
      sc_core::sc_trace(tf, d.router_error, n + "router_error");
      sc_core::sc_trace(tf, d.nic_error, n + "nic_error");
    } else {
      const DirectNode& d = *nodes_[at(v)];
      for (Port p = 0; p < t_.degree(v); ++p) sc_core::sc_trace(tf, d.eject[at(p)], n + "eject_" + vcd_name(t_.port_name(v, p)));
      sc_core::sc_trace(tf, d.occupancy, n + "occupancy");
      sc_core::sc_trace(tf, d.recv_count, n + "recv_count");
      sc_core::sc_trace(tf, d.router_error, n + "router_error");
      sc_core::sc_trace(tf, d.nic_error, n + "nic_error");
    }
  }
  write_gtkw(wave);
}

void DirectNetwork::write_gtkw(const std::string& wave) const {
  OutputFile file(wave + ".gtkw");  // checked: "PATH: OS error", no half file
  std::ostream& out = file.stream();
  const std::string top = "SystemC.top.";
  auto group = [&](const std::string& name, const std::vector<std::pair<std::string, std::string>>& signals) {
    out << "@800200\n-" << name << '\n';
    for (const auto& [format, signal] : signals) out << format << '\n' << top << signal << '\n';
    out << "@1000200\n-" << name << '\n';
  };
  out << "[*] totex direct-network view, written by `totex sim --engine systemc|cosim --wave`\n"
      << "[dumpfile] \"" << std::filesystem::path(wave).filename().string() << "\"\n[size] 1400 800\n"
      << "[signals_width] 330\n[sst_width] 200\n";
  group("control", {{"@28", "clk"}, {"@28", "start"}, {"@28", "busy"}, {"@28", "done"}, {"@28", "error"},
                    {"@24", "step[31:0]"}});
  group("load port", {{"@28", "cfg_we"}, {"@22", "cfg_addr[63:0]"}, {"@22", "cfg_data[31:0]"}});
  for (NodeId v = 0; v < std::min(4, t_.nodes()); ++v) {
    const std::string n = "node_" + std::to_string(v) + ".";
    std::vector<std::pair<std::string, std::string>> s;
    for (Port p = 0; p < t_.degree(v); ++p) {
      s.emplace_back("@28", n + "out_valid_" + vcd_name(t_.port_name(v, p)));
      s.emplace_back("@22", n + "out_data_" + vcd_name(t_.port_name(v, p)) + "[63:0]");
    }
    if (dynamic_) {
      for (const char* x : {"inject_valid", "inject_ready", "eject_valid"}) s.emplace_back("@28", n + x);
      s.emplace_back("@22", n + "eject_data[63:0]");
    } else {
      for (Port p = 0; p < t_.degree(v); ++p) s.emplace_back("@28", n + "eject_" + vcd_name(t_.port_name(v, p)));
    }
    s.emplace_back("@24", n + "occupancy[31:0]");
    s.emplace_back("@24", n + "recv_count[31:0]");
    group("node " + std::to_string(v) + ": output links, ejections, occupancy", s);
  }
  file.commit();
}

}  // namespace totex::sim
