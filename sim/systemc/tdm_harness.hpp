// SPDX-License-Identifier: Apache-2.0
/// The harness of `totex sim --engine systemc --periods K` (docs/tdm-runs.md): N SystemC TDM tiles
/// (tdm_network.hpp; nic, all-port or single-port, as the tables say) run exactly as
/// sim/tdm_wired_main.cpp runs the Verilated ones (sim/tdm_drive.hpp): reset, table load through
/// the write port, priming, K periods with every node offering its messages in the order its
/// table injects them, the TdmScoreboard checking every delivery's cycle and payload, missed and
/// error checked at the end.
///
/// Arguments: tdm --topo T --schedule FILE --periods K [--payload W] [--period P] [--fault F]
/// (schema::TdmHarnessArgs; `totex_systemc tdm ...`). --fault eject|pause|pauses (TOTEX_TDM_FAULT
/// as the CLI read it) as for the rtl harness. Prints "TOTEX-RESULT {json}"; exit 0 pass, 1 check failed,
/// 2 usage, 3 tool failure (sim/harness_exit.hpp).
#pragma once

namespace totex::sim {

int tdm_systemc_main(int argc, char** argv);

}  // namespace totex::sim
