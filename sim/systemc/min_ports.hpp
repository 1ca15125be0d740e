// SPDX-License-Identifier: Apache-2.0
/// The two halves a MIN top is made of, as port bundles, so that either half can be a SystemC model
/// or a Verilated RTL module behind an adapter (co-simulation): the network (stages of switches)
/// and one NIC per terminal. Timing follows rtl/totex_min_top.sv's contract.
#pragma once
#include <systemc>

#include "min_flit.hpp"

namespace totex::sim {

/// The banyan network: n registered stages. A step whose messages are on `inject` (with the
/// switch states for that step on `state`) in cycle c enters stage j in cycle c + j and is on
/// `eject` in cycle c + n.
struct MinNetworkPorts : sc_core::sc_module {
  sc_core::sc_in<bool> clk{"clk"};
  sc_core::sc_in<bool> rst_n{"rst_n"};
  /// Per switch g = stage * (N/d) + i: its shift state for the step entering its stage now.
  sc_core::sc_vector<sc_core::sc_in<unsigned>> state{"state"};
  /// A step is entering stage 0 now, and which.
  sc_core::sc_in<bool> step_valid{"step_valid"};
  sc_core::sc_in<unsigned> step{"step"};
  /// Per input terminal.
  sc_core::sc_vector<sc_core::sc_in<MinFlit>> inject{"inject"};
  /// Per stage j: the step entering stage j now (what its switches' states must be for).
  sc_core::sc_vector<sc_core::sc_out<bool>> stage_step_valid{"stage_step_valid"};
  sc_core::sc_vector<sc_core::sc_out<unsigned>> stage_step{"stage_step"};
  /// Per output terminal (the last stage's registers), and the step they carry.
  sc_core::sc_vector<sc_core::sc_out<MinFlit>> eject{"eject"};
  sc_core::sc_out<bool> out_step_valid{"out_step_valid"};
  sc_core::sc_out<unsigned> out_step{"out_step"};

  MinNetworkPorts(const sc_core::sc_module_name& name, int terminals, int switches, int stages)
      : sc_core::sc_module(name) {
    state.init(static_cast<std::size_t>(switches));
    inject.init(static_cast<std::size_t>(terminals));
    stage_step_valid.init(static_cast<std::size_t>(stages));
    stage_step.init(static_cast<std::size_t>(stages));
    eject.init(static_cast<std::size_t>(terminals));
  }
};

/// A single-port NIC of paper 002's algorithm: injects one message (or label) per step from its
/// send queue, checks what it receives.
struct MinNicPorts : sc_core::sc_module {
  sc_core::sc_in<bool> clk{"clk"};
  sc_core::sc_in<bool> rst_n{"rst_n"};
  /// Send-queue write (the top's load port, region 2, this terminal): slot x = {idle, dst, payload}.
  sc_core::sc_in<bool> q_we{"q_we"};
  sc_core::sc_in<unsigned> q_slot{"q_slot"};
  sc_core::sc_in<std::uint64_t> q_data{"q_data"};
  /// A run starts at the next edge: forget what was received.
  sc_core::sc_in<bool> clear{"clear"};
  /// 0 labels, 1 messages.
  sc_core::sc_in<bool> phase{"phase"};
  /// Each source may arrive at most once in this run.
  sc_core::sc_in<bool> unique{"unique"};
  /// Inject step `step` now.
  sc_core::sc_in<bool> inject{"inject"};
  sc_core::sc_in<unsigned> step{"step"};
  sc_core::sc_out<MinFlit> inj{"inj"};
  /// The message ejected here now, and the step the network says it belongs to.
  sc_core::sc_in<MinFlit> ej{"ej"};
  sc_core::sc_in<unsigned> ej_step{"ej_step"};
  /// Messages received in this run and a sticky check failure, both including `ej` now.
  sc_core::sc_out<unsigned> recv_count{"recv_count"};
  sc_core::sc_out<bool> error{"error"};

  using sc_core::sc_module::sc_module;
};

}  // namespace totex::sim
