// SPDX-License-Identifier: Apache-2.0
/// Scheduled-mode router of one node: P neighbour links and L inject lanes from the NIC, driven by
/// the schedule memory's entry for the current step. Per input: none, eject (to the NIC; the
/// message stays on the input link), store (into the NIC's relay buffer) or forward on output o;
/// per lane: inject the NIC's message on output o. Outputs are registered: a message sent in
/// step s is visible at the neighbour's input in cycle s + 1 (one register per hop).
/// Checks (the communication models of docs/models.md): an output driven twice; an illegal
/// entry (target port out of range or without a link, an action on an empty input, a message left
/// on an input); single-port: more than one send or receive per step; all-port and nic: any store
/// (no intermediate buffering); nic: more than one ejection per step; more than one store.
#pragma once
#include <systemc>
#include <vector>

#include "direct_common.hpp"

namespace totex::sim {

class DirectRouter : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> clear;
  sc_core::sc_in<bool> active;
  sc_core::sc_in<int> step;
  sc_core::sc_vector<sc_core::sc_in<bool>> in_valid;            // [P]
  sc_core::sc_vector<sc_core::sc_in<std::uint64_t>> in_data;    // [P]
  sc_core::sc_vector<sc_core::sc_in<int>> act;                  // [P]
  sc_core::sc_vector<sc_core::sc_in<bool>> lane_valid;          // [L]
  sc_core::sc_vector<sc_core::sc_in<int>> lane_port;            // [L]
  sc_core::sc_vector<sc_core::sc_in<std::uint64_t>> lane_data;  // [L]
  sc_core::sc_vector<sc_core::sc_out<bool>> out_valid;          // [P] registered
  sc_core::sc_vector<sc_core::sc_out<std::uint64_t>> out_data;  // [P] registered
  sc_core::sc_vector<sc_core::sc_out<bool>> eject;              // [P]
  sc_core::sc_out<bool> store_valid;
  sc_core::sc_out<std::uint64_t> store_data;
  sc_core::sc_out<bool> error;

  SC_HAS_PROCESS(DirectRouter);
  /// `degree`: ports 0..degree-1 have a link.
  DirectRouter(const sc_core::sc_module_name& name, const DirectLayout& layout, int node, int degree,
               DirectChecks& checks);

 private:
  void decide();
  void on_clock();

  const Model model_;
  const int node_;
  const int ports_;
  const int degree_;
  DirectChecks& checks_;
  // What decide() worked out for the cycle, registered at the next edge.
  std::vector<char> next_valid_;
  std::vector<std::uint64_t> next_data_;
  std::vector<std::string> faults_;
};

}  // namespace totex::sim
