// SPDX-License-Identifier: Apache-2.0
/// One node of the dynamic SystemC direct network: the send-queue NIC and a dynamic (adaptive or
/// dimension-order) router, and the signals between them. The router comes from a factory so that a
/// co-simulation can put the Verilated rtl/totex_router_dyn.sv in its place (sim/cosim/).
#pragma once
#include <functional>
#include <memory>
#include <systemc>
#include <vector>

#include "direct_bus.hpp"
#include "direct_common.hpp"
#include "direct_dyn_nic.hpp"

namespace totex::sim {

class DirectDynNode;
using DirectDynRouterFactory = std::function<std::unique_ptr<sc_core::sc_module>(DirectDynNode& node)>;

class DirectDynNode : public sc_core::sc_module {
 public:
  /// Link signals per port (the first `degree` ports; the node ties off the rest). in_credit[i]
  /// is the credit wire of the link that ends at input i (driven here), out_credit[o] that of the
  /// link that starts at output o (driven by the neighbour).
  struct Links {
    std::vector<sc_core::sc_signal<bool>*> in_valid, out_valid;
    std::vector<sc_core::sc_signal<int>*> in_vc, out_vc;
    std::vector<sc_core::sc_signal<std::uint64_t>*> in_data, out_data;
    std::vector<sc_core::sc_signal<std::uint32_t>*> in_credit, out_credit;
  };

  DirectDynNode(const sc_core::sc_module_name& name, const DirectLayout& layout, const DirectRoutes& routes, int node,
                int degree, DirectBus& bus, const Links& links, DirectChecks& checks,
                const DirectDynRouterFactory& router);

  /// The backdoor load: a send-queue write stored straight into this node's NIC.
  bool backdoor_write(const LoadAddress& a, std::uint64_t data) { return nic_.store(a, data); }

  const DirectLayout& layout;
  const DirectRoutes& routes;
  const int id;
  const int degree;
  DirectBus& bus;
  DirectChecks& checks;
  Links links;
  sc_core::sc_signal<bool> inj_valid;
  sc_core::sc_signal<std::uint64_t> inj_data;
  sc_core::sc_signal<bool> inj_ready;
  sc_core::sc_signal<bool> ej_valid;
  sc_core::sc_signal<std::uint64_t> ej_data;
  sc_core::sc_signal<bool> done;
  sc_core::sc_signal<bool> router_error;
  sc_core::sc_signal<bool> nic_error;
  sc_core::sc_signal<int> occupancy;
  sc_core::sc_signal<int> sent_count;
  sc_core::sc_signal<int> recv_count;

 private:
  sc_core::sc_signal<bool> zero_valid_;
  sc_core::sc_signal<int> zero_vc_;
  sc_core::sc_signal<std::uint64_t> zero_data_;
  sc_core::sc_signal<std::uint32_t> zero_credit_;
  sc_core::sc_vector<sc_core::sc_signal<bool>> open_valid_;
  sc_core::sc_vector<sc_core::sc_signal<int>> open_vc_;
  sc_core::sc_vector<sc_core::sc_signal<std::uint64_t>> open_data_;
  sc_core::sc_vector<sc_core::sc_signal<std::uint32_t>> open_credit_;
  DirectDynNic nic_;
  std::unique_ptr<sc_core::sc_module> router_;
};

/// The SystemC dynamic router (sim/systemc/direct_dyn_router.hpp) bound to a node.
[[nodiscard]] std::unique_ptr<sc_core::sc_module> make_systemc_dyn_router(DirectDynNode& node);

}  // namespace totex::sim
