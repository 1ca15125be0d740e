// SPDX-License-Identifier: Apache-2.0
/// `totex sim --engine rtl --periods K`: N Verilated TDM tiles (rtl/tdm/totex_tdm_tile.sv) wired in
/// C++ by sim/tdm_wired_main.cpp, built on first use like the other harnesses. Internal to totex_hw.
#pragma once
#include "totex/engines.hpp"

namespace totex::hw {

/// Builds (if needed) and runs the TDM tile network on `s` for `o.periods` periods.
[[nodiscard]] SimResult run_tdm_rtl(const Topology& t, const Schedule& s, const RunOptions& o);

}  // namespace totex::hw
