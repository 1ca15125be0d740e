// SPDX-License-Identifier: Apache-2.0
/// The SystemC direct network for any topology, built at elaboration time (one binary serves every
/// topology): the run controller, one node per vertex (scheduled: schedule memory, NIC, router;
/// dynamic: send-queue NIC, dimension-order router) and one set of link signals per directed link
/// (link l = port p of node v, l = Topology::link_id(v, p); input i of v is the link from
/// neighbour(v, i) back to v). Same load port and address map as the generated RTL top.
#pragma once
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "direct_bus.hpp"
#include "direct_ctrl.hpp"
#include "direct_dyn_node.hpp"
#include "direct_node.hpp"
#include "totex/network/topology.hpp"

namespace totex::sim {

class DirectNetwork : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(DirectNetwork);
  /// The factories make each node's router (the SystemC ones unless a co-simulation passes its own).
  DirectNetwork(const sc_core::sc_module_name& name, const Topology& t, const DirectLayout& layout,
                DirectChecks& checks, DirectRouterFactory router = make_systemc_router,
                DirectDynRouterFactory dyn_router = make_systemc_dyn_router);

  DirectBus bus;
  [[nodiscard]] bool dynamic() const { return dynamic_; }
  /// Calls f(lane, message) for every message ejected in the current cycle (lane as on the RTL
  /// top's eject bus: v * P + input when scheduled, v when dynamic).
  template <class F>
  void visit_ejects(F f) const {
    const auto P = static_cast<std::size_t>(layout_.ports);
    if (dynamic_) {
      for (std::size_t v = 0; v < dyn_nodes_.size(); ++v)
        if (dyn_nodes_[v]->ej_valid.read()) f(static_cast<int>(v), dyn_nodes_[v]->ej_data.read());
      return;
    }
    for (std::size_t v = 0; v < nodes_.size(); ++v)
      for (std::size_t i = 0; i < P; ++i)
        if (nodes_[v]->eject[i].read()) f(static_cast<int>(v * P + i), nodes_[v]->links.in_data[i]->read());
  }
  /// The backdoor load (`--load backdoor`): a load-port write of a table entry or a message stored
  /// straight into the addressed node's memory, no clock edge; false for what only the port
  /// covers (control registers, out-of-range addresses).
  bool backdoor_write(std::uint64_t addr, std::uint64_t data) {
    const LoadAddress a = layout_.fields(addr);
    if (dynamic_) return a.node < dyn_nodes_.size() && dyn_nodes_[a.node]->backdoor_write(a, data);
    return a.node < nodes_.size() && nodes_[a.node]->backdoor_write(a, data);
  }
  /// sc_trace of the control signals, the load port, every link and every node's ejections,
  /// occupancy and error; then a GTKWave view `<wave>.gtkw` of the first nodes.
  void trace(sc_core::sc_trace_file* tf, const std::string& wave) const;

 private:
  void gate_load_port();
  void reduce();
  void write_gtkw(const std::string& wave) const;

  const Topology& t_;
  const DirectLayout& layout_;
  const bool dynamic_;
  DirectRoutes routes_;
  sc_core::sc_vector<sc_core::sc_signal<bool>> link_valid_;
  sc_core::sc_vector<sc_core::sc_signal<std::uint64_t>> link_data_;
  sc_core::sc_vector<sc_core::sc_signal<int>> link_vc_;              // dynamic
  sc_core::sc_vector<sc_core::sc_signal<std::uint32_t>> link_credit_;  // dynamic: flows target -> source
  DirectCtrl ctrl_;
  std::vector<std::unique_ptr<DirectNode>> nodes_;
  std::vector<std::unique_ptr<DirectDynNode>> dyn_nodes_;
};

}  // namespace totex::sim
