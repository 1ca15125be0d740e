// SPDX-License-Identifier: Apache-2.0
/// `totex sim --plot`: registered by register_sim, run by cmd_sim after the engine (sim_plot.cpp).
#pragma once
#include <CLI/CLI.hpp>

#include "cli_common.hpp"
#include "totex/verify/reference_engine.hpp"

namespace totex::cli {

/// --plot FILE, bound to `path`.
void add_sim_plot_option(CLI::App* sim, std::string& path);
/// Writes the cycle-level view to `path` when --plot was given (then sets j["plot"]); always drops
/// the per-cycle array from `sim`'s JSON.
void sim_plot(const std::string& path, const Network& net, const AnySchedule& schedule, const SimResult& r,
              bool dynamic, json& j);

}  // namespace totex::cli
