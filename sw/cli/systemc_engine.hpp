// SPDX-License-Identifier: Apache-2.0
/// `--engine systemc` (the SystemC models of sim/systemc/, built with the project as
/// build/bin/totex_systemc) and `--engine cosim` (SystemC tops with Verilated parts, built per
/// parameter set on first use like `--engine rtl`). Each run is its own process: SystemC
/// elaborates once per process.
#pragma once
#include <string>

#include "totex/direct_controller.hpp"
#include "totex/engine.hpp"
#include "totex/min_controller.hpp"

namespace totex::cli {

/// Which half of a co-simulation is RTL: the network (switches or routers; NICs in SystemC) or
/// the NICs (network in SystemC).
enum class CosimSplit { RtlNetwork, RtlNics };

/// MIN on the SystemC models (`cosim` = false) or with the Verilated banyan / NICs (`cosim` = true).
[[nodiscard]] SimResult run_systemc_min(const MinNetwork& net, const MinSchedule& s, const std::string& schedule_file,
                                        MinConfigMode mode, const std::string& wave);
[[nodiscard]] SimResult run_cosim_min(const MinNetwork& net, const MinSchedule& s, const std::string& schedule_file,
                                      MinConfigMode mode, CosimSplit split, const std::string& wave);

/// Direct network on the SystemC routers and NICs: a step-schedule file (scheduled) or the
/// dynamic baseline `routing` (schedule unused).
[[nodiscard]] SimResult run_systemc_direct(const Topology& t, const Schedule& s, const std::string& schedule_file,
                                           DirectMode mode, const std::string& wave,
                                           DynamicRouting routing = DynamicRouting::Adaptive);
/// Direct network with Verilated routers (rtl/totex_router.sv, built with --sc) next to the
/// SystemC NICs and schedule memories.
[[nodiscard]] SimResult run_cosim_direct(const Topology& t, const Schedule& s, const std::string& schedule_file,
                                         DirectMode mode, const std::string& wave,
                                         DynamicRouting routing = DynamicRouting::Adaptive);

}  // namespace totex::cli
