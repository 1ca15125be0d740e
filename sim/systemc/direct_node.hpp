// SPDX-License-Identifier: Apache-2.0
/// One node of the scheduled SystemC direct network: schedule memory, NIC and a router, and the
/// signals between them. The router comes from a factory so that a co-simulation can put the
/// Verilated rtl/totex_router.sv in its place (sim/cosim/); it binds to the signals below.
#pragma once
#include <functional>
#include <memory>
#include <systemc>
#include <vector>

#include "direct_bus.hpp"
#include "direct_common.hpp"
#include "direct_nic.hpp"
#include "direct_schedule_mem.hpp"

namespace totex::sim {

class DirectNode;
/// Makes the router of a node (a child module bound to the node's signals).
using DirectRouterFactory = std::function<std::unique_ptr<sc_core::sc_module>(DirectNode& node)>;

class DirectNode : public sc_core::sc_module {
 public:
  /// The link signals of the node: input i comes from neighbour i, output o goes to it; ports
  /// without a link use the node's own tie-off and dangling signals.
  struct Links {
    std::vector<sc_core::sc_signal<bool>*> in_valid, out_valid;
    std::vector<sc_core::sc_signal<std::uint64_t>*> in_data, out_data;
  };

  DirectNode(const sc_core::sc_module_name& name, const DirectLayout& layout, int node, int degree, DirectBus& bus,
             const Links& links, DirectChecks& checks, const DirectRouterFactory& router);

  /// The backdoor load: a table or payload write stored straight into this node's memory.
  bool backdoor_write(const LoadAddress& a, std::uint64_t data) { return mem_.store(a, data) || nic_.store(a, data); }

  const DirectLayout& layout;
  const int id;
  const int degree;
  DirectBus& bus;
  DirectChecks& checks;
  Links links;
  // Schedule memory -> router and NIC.
  sc_core::sc_vector<sc_core::sc_signal<int>> act;
  sc_core::sc_vector<sc_core::sc_signal<bool>> lane_valid;
  sc_core::sc_vector<sc_core::sc_signal<int>> lane_port;
  sc_core::sc_vector<sc_core::sc_signal<int>> lane_slot;
  sc_core::sc_signal<int> store_entry;
  // NIC <-> router.
  sc_core::sc_vector<sc_core::sc_signal<std::uint64_t>> lane_data;
  sc_core::sc_vector<sc_core::sc_signal<bool>> eject;
  sc_core::sc_signal<bool> store_valid;
  sc_core::sc_signal<std::uint64_t> store_data;
  sc_core::sc_signal<bool> router_error;
  sc_core::sc_signal<bool> nic_error;
  sc_core::sc_signal<int> occupancy;
  sc_core::sc_signal<int> recv_count;

 private:
  // Tie-offs of missing input ports and the outputs of missing ports.
  sc_core::sc_signal<bool> zero_valid_;
  sc_core::sc_signal<std::uint64_t> zero_data_;
  sc_core::sc_vector<sc_core::sc_signal<bool>> open_valid_;
  sc_core::sc_vector<sc_core::sc_signal<std::uint64_t>> open_data_;
  DirectScheduleMem mem_;
  DirectNic nic_;
  std::unique_ptr<sc_core::sc_module> router_;
};

/// The SystemC router (sim/systemc/direct_router.hpp) bound to a node.
[[nodiscard]] std::unique_ptr<sc_core::sc_module> make_systemc_router(DirectNode& node);

}  // namespace totex::sim
