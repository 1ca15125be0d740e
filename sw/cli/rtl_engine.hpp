// SPDX-License-Identifier: Apache-2.0
/// `--engine rtl`: builds the Verilated model for the requested parameters on first use (cached
/// under build/rtl-cache, or $TOTEX_CACHE_DIR), runs it on the schedule file and reads its result.
#pragma once
#include <string>

#include "totex/direct_controller.hpp"
#include "totex/engine.hpp"
#include "totex/min_controller.hpp"

namespace totex::cli {

/// Runs `schedule_file` (a configuration matrix for `net`) on rtl/totex_min_top.sv.
[[nodiscard]] SimResult run_rtl_min(const MinNetwork& net, const MinSchedule& s, const std::string& schedule_file,
                                    MinConfigMode mode, const std::string& wave);

/// Runs a direct network on the generated totex_direct_top: `schedule_file` (a step schedule for
/// `t`, model s.model) in scheduled mode, or the dynamic baseline `routing` (schedule unused).
/// The model is generated and Verilated per topology and parameter set on first use (cached).
[[nodiscard]] SimResult run_rtl_direct(const Topology& t, const Schedule& s, const std::string& schedule_file,
                                       DirectMode mode, const std::string& wave,
                                       DynamicRouting routing = DynamicRouting::Adaptive);

}  // namespace totex::cli
