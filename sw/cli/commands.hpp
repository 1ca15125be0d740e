// SPDX-License-Identifier: Apache-2.0
/// Subcommands of the totex CLI; each registers its options and runs when selected.
#pragma once
#include <CLI/CLI.hpp>

namespace totex::cli {

/// Exit code for bad input (spec, model, flag, malformed file).
inline constexpr int kUsageExit = 2;
/// Exit code when a schedule or simulation fails its checks, or an output file cannot be written.
inline constexpr int kCheckFailedExit = 1;
/// Exit code when memory runs out (std::bad_alloc): "resources: out of memory while ...".
inline constexpr int kResourceExit = 3;

void register_commands(CLI::App& app);
/// Runs the selected subcommand; returns the exit code.
int run_selected(CLI::App& app);

}  // namespace totex::cli
