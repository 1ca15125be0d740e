// SPDX-License-Identifier: Apache-2.0
/// Dynamic-mode router of one node (the baseline of README.md, "The dynamic baseline"): input-queued with one FIFO per
/// (input port, virtual channel) plus an inject FIFO, routes from totex::dimension_order_routes,
/// dateline virtual channels on rings, credit flow control and a round-robin arbiter per output;
/// the local output ejects one message per cycle.
///
/// VCs 0 .. E-1 are the escape (dimension-order) VCs, E = 2 with a ring of >= 4 nodes, else 1: a
/// message entering a dimension (from the NIC, another dimension or an adaptive VC) starts on
/// VC 0; leaving on a ring's wrap-around link (dateline) moves it to VC 1 until it leaves the
/// dimension. With dimension order this breaks every cycle of the channel dependency graph (Dally
/// and Seitz). VCs E .. E+A-1 (A = layout.adaptive_vcs, 0 under --dynamic dor) are adaptive: a
/// message not on an escape VC may take any output on a shortest path (routes.minimal) on any
/// adaptive VC. Selection, per FIFO head: among the adaptive (output, VC) pairs with a credit, the
/// dimension-order output first, then the most credits, then the lowest output, then the lowest VC;
/// without any, the escape VC of the dimension-order output (if it has a credit). A message on an
/// escape VC stays on the escape VCs. Messages are one flit and every minimal route can always
/// fall back to the escape VCs, so by Duato's theorem the network is deadlock-free.
///
/// Timing of this model (its own; the contract fixes only the protocol): everything is registered
/// at the rising edge. At an edge the router pushes the flits on its input links (and the NIC's
/// offer when inj_ready was high), adds the credits on its credit inputs, then grants one flit per
/// output among the FIFO heads whose next hop has a credit, drives the grants on its output links
/// (and the eject port), returns one credit per pop upstream and updates inj_ready. A hop takes
/// one cycle; a credit comes back two edges after the flit left, so 2 FIFO entries sustain the
/// link rate.
#pragma once
#include <deque>
#include <systemc>
#include <vector>

#include "direct_common.hpp"

namespace totex::sim {

class DirectDynRouter : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> clear;
  sc_core::sc_vector<sc_core::sc_in<bool>> in_valid;             // [P]
  sc_core::sc_vector<sc_core::sc_in<int>> in_vc;                 // [P]
  sc_core::sc_vector<sc_core::sc_in<std::uint64_t>> in_data;     // [P]
  sc_core::sc_vector<sc_core::sc_out<std::uint32_t>> in_credit;  // [P] bit v: a VC-v slot of input i was freed
  sc_core::sc_vector<sc_core::sc_out<bool>> out_valid;           // [P]
  sc_core::sc_vector<sc_core::sc_out<int>> out_vc;               // [P]
  sc_core::sc_vector<sc_core::sc_out<std::uint64_t>> out_data;   // [P]
  sc_core::sc_vector<sc_core::sc_in<std::uint32_t>> out_credit;  // [P] from the downstream router
  sc_core::sc_in<bool> inj_valid;
  sc_core::sc_in<std::uint64_t> inj_data;
  sc_core::sc_out<bool> inj_ready;
  sc_core::sc_out<bool> ej_valid;
  sc_core::sc_out<std::uint64_t> ej_data;
  sc_core::sc_out<bool> error;
  sc_core::sc_out<int> occupancy;  // flits buffered in the FIFOs

  SC_HAS_PROCESS(DirectDynRouter);
  DirectDynRouter(const sc_core::sc_module_name& name, const DirectLayout& layout, const DirectRoutes& routes,
                  int node, int degree, DirectChecks& checks);

 private:
  void on_clock();
  void reset();
  void fail(const std::string& what);

  const MsgFormat fmt_;
  const int node_;
  const int nodes_;
  const int ports_;
  const int degree_;
  const int vcs_;                     // escape + adaptive
  const int adaptive_vcs_;            // the last adaptive_vcs_ VCs are adaptive
  const std::size_t depth_;
  const std::vector<int>& out_port_;  // per destination, P = eject
  const std::vector<int>& port_dim_;
  const std::vector<bool>& dateline_;
  const std::vector<bool>& minimal_;  // [dst * P + p]
  DirectChecks& checks_;
  std::vector<std::deque<std::uint64_t>> fifo_;  // requester r = i * vcs + v; i = P is the inject FIFO
  std::vector<std::size_t> credit_;               // [o * vcs + v]
  std::vector<std::size_t> pointer_;              // round-robin start per output, P = eject
};

}  // namespace totex::sim
