// SPDX-License-Identifier: Apache-2.0
/// A MinTop (sim/systemc/min_top.hpp) behind the harness's MinDut interface: clock, reset, the
/// load-port and start pins, VCD tracing (sc_trace) and a GTKWave view of the run.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "min_run.hpp"
#include "min_top.hpp"

namespace totex::sim {

/// Elaborates a MinTop with the given network and NICs (once per process: SystemC elaborates
/// once). `wave` is empty or a .vcd file; `<wave>.gtkw` is written next to it. `elaborated` runs
/// right after elaboration, before reset (where Verilated parts open their own trace).
[[nodiscard]] std::unique_ptr<MinDut> make_min_top_dut(const MinNetwork& net, const MinBuild& build,
                                                       const std::string& wave, const MinTop::MakeNetwork& make_network,
                                                       const MinTop::MakeNic& make_nic,
                                                       const std::function<void()>& elaborated = {});

/// The pure SystemC models: MinBanyan of MinShiftSwitch, MinNic.
[[nodiscard]] std::unique_ptr<MinDut> make_systemc_min_dut(const MinNetwork& net, const MinBuild& build,
                                                           const std::string& wave);

}  // namespace totex::sim
