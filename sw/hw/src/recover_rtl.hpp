// SPDX-License-Identifier: Apache-2.0
/// `totex sim --engine rtl --periods K --fault-at F:A-B --recover`: N Verilated ctl tiles
/// (rtl/tdm/totex_tdm_ctl_tile.sv) driven through their AXI4-Lite ports by the recovery controller
/// of sim/tdm_recover_main.cpp. Internal to totex_hw.
#pragma once
#include "totex/engines.hpp"

namespace totex::hw {

/// Builds (if needed) and runs the recovery harness on `s` (the healthy schedule).
[[nodiscard]] SimResult run_recover_rtl(const Topology& t, const Schedule& s, const RunOptions& o);

}  // namespace totex::hw
