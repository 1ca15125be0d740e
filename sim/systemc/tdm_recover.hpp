// SPDX-License-Identifier: Apache-2.0
/// The harness of `totex sim --engine systemc --periods K --fault-at F:A-B --recover`
/// (docs/tdm-runs.md "Recovery from a stuck link"; totex/link_recovery.hpp tells the story): N
/// SystemC nic tiles with the ctl tile's shadow bank, armed swap and link counters (tdm_tile.hpp,
/// `shadow`), wired by tdm_network.hpp with link A-B forced at its receivers, run as
/// sim/tdm_recover_main.cpp runs the Verilated ctl tiles. The AXI4-Lite port is abstracted: the
/// controller's reads and writes are register accesses at the cycles the rtl controller's
/// handshakes give them (one access per cycle; a write's effect one cycle after its handshake, the
/// arm two; a read of STATUS sees the registers of its AR's cycle, of a link counter those of the
/// cycle after), with the same poll, plan
/// (plan_link_recovery), write and arm cycles, and the same checks (sim/recover_check.hpp).
///
/// Arguments: tdm --topo T --schedule FILE --periods K [--payload W] [--period P] --fault-at F:A-B.
/// Prints "TOTEX-RESULT {json}" (with the recovery object); exit 0 pass, 1 check failed, 2 usage.
#pragma once

namespace totex::sim {

int tdm_recover_systemc_main(int argc, char** argv);

}  // namespace totex::sim
