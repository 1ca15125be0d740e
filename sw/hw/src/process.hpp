// SPDX-License-Identifier: Apache-2.0
/// Child processes of the hardware engines (harnesses, Verilator builds, the synthesis script),
/// started from an argv vector with posix_spawnp: no shell between totex and the tool, so no
/// quoting, and an argument is exactly what the schema (totex/hw_schema.hpp) wrote. Internal to
/// totex_hw.
#pragma once
#include <string>
#include <vector>

namespace totex::hw {

/// Where a child's stdout goes; its stderr is totex's own unless `log_file` takes both.
enum class ChildOutput {
  Capture,   // returned in ProcessResult::out
  ToStderr,  // passed on to totex's stderr (a tool's progress)
  ToLog,     // stdout and stderr into `log_file`
};

struct ProcessResult {
  std::string out;     // stdout, with ChildOutput::Capture
  int exit_code = -1;  // the child's exit status; -1 when a signal ended it
  int signal = 0;      // the signal that ended it, else 0
};

/// Runs argv[0] (looked up on PATH when it has no '/') with `argv`, its environment totex's plus
/// `extra_env` ("NAME=value", replacing a variable of the same name), in the directory `cwd`
/// (empty: totex's own). Throws ToolError when the program cannot be started.
ProcessResult run_process(const std::vector<std::string>& argv, ChildOutput output, const std::string& log_file = "",
                          const std::vector<std::string>& extra_env = {}, const std::string& cwd = "");

/// Whether `program` can be started (found on PATH): runs `program --version`, output discarded.
[[nodiscard]] bool program_available(const std::string& program);

/// The argv as one line, each argument shell-quoted where it needs it (for messages and the
/// model-cache fingerprint; nothing runs it through a shell).
[[nodiscard]] std::string argv_text(const std::vector<std::string>& argv);

}  // namespace totex::hw
