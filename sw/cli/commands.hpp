// SPDX-License-Identifier: Apache-2.0
/// Subcommands of the totex CLI; each registers its options and runs when selected.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <map>

namespace totex::cli {

/// Exit code for bad input (spec, model, flag, malformed file).
inline constexpr int kUsageExit = 2;
/// Exit code when a schedule or simulation fails its checks, or an output file cannot be written.
inline constexpr int kCheckFailedExit = 1;
/// Exit code when memory runs out (std::bad_alloc): "resources: out of memory while ...".
inline constexpr int kResourceExit = 3;

/// Each subcommand's action, with its options bound.
using Actions = std::map<const CLI::App*, std::function<int()>>;

/// The subcommands: registers them on `app` and owns their options, which CLI11 writes while parsing.
class Commands {
 public:
  explicit Commands(CLI::App& app);
  /// Runs the subcommand that was parsed; returns the exit code.
  [[nodiscard]] int run_selected() const;

 private:
  Actions actions_;
};

}  // namespace totex::cli
