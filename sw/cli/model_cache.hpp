// SPDX-License-Identifier: Apache-2.0
/// Models built on first use (`--engine rtl` and `--engine cosim`): a cache directory per
/// parameter set under build/rtl-cache (or $TOTEX_CACHE_DIR), rebuilt when any input changes,
/// locked against parallel builds; and the harness protocol (a line "TOTEX-RESULT {json}").
#pragma once
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "totex/direct_controller.hpp"
#include "totex/engine.hpp"
#include "totex/min_controller.hpp"

namespace totex::cli {

/// $TOTEX_CACHE_DIR when set, else the installation's default (install_paths.hpp).
[[nodiscard]] std::filesystem::path cache_root();

/// A shell-quoted argument (single quotes; a ' inside becomes '\'').
[[nodiscard]] std::string quote(const std::string& s);

/// A cache-directory name for a topology spec.
[[nodiscard]] std::string key_of(const std::string& spec);

/// Runs a shell command and returns its stdout and exit status.
[[nodiscard]] std::pair<std::string, int> capture(const std::string& command);

/// One Verilated harness: `verilator --cc|--sc --exe --build` of the RTL file lists `file_lists`
/// (top module `top`) with the C++ `cpp`, linked with the core library (and SystemC for --sc), in
/// cache_root()/key.
struct VerilatedBuild {
  std::string key;
  std::string top;
  bool systemc = false;
  std::vector<std::string> args;  // extra verilator arguments (-G..., --trace, ...)
  std::string defines;            // extra -CFLAGS (-D...)
  std::vector<std::string> file_lists;  // rtl/*.f names, e.g. "direct_top.f"
  std::vector<std::filesystem::path> cpp;
  std::vector<std::filesystem::path> headers;  // included by `cpp`: part of the fingerprint
  /// Generated files (file name, text) written into the cache directory under its lock: sources
  /// are Verilated after the file lists, headers (.svh) are found on the include path (-I dir).
  std::vector<std::pair<std::string, std::string>> generated;
  std::string verilator_opt = "-O2";  // Verilator's own optimisation level and flags
  std::string makeflags;              // -MAKEFLAGS for the generated C++ (empty: Verilator's defaults)
};
/// Builds the harness unless it is up to date; returns the binary. Locks the cache directory.
std::filesystem::path build_verilated(const VerilatedBuild& b);

/// A MIN harness run (sim/min_run.hpp): the table size and the harness arguments.
struct MinHarnessRun {
  int max_steps = 0;
  int payload_bits = 16;
  std::string args;  // --schedule FILE --min-mode M --max-steps S --payload-bits W [--wave W]
};
/// Tables hold one entry per step: N by default, a power-of-two multiple of N for longer
/// (baseline) schedules. Throws UsageError for a schedule the mode cannot run, before any build.
[[nodiscard]] MinHarnessRun min_harness_run(const MinNetwork& net, const MinSchedule& s, MinConfigMode mode,
                                            const std::string& schedule_file, const std::string& wave);

/// The build parameters of a direct-network run: schedule memories of steps + 1 entries and relay
/// buffers rounded up to powers of two (so similar schedules share a build), default payload and
/// FIFO depth; `routing` in dynamic mode. Throws UsageError (e.g. dynamic mode on a metacube)
/// before anything is built.
[[nodiscard]] DirectParams direct_run_params(const Topology& t, const Schedule& s, DirectMode mode,
                                             DynamicRouting routing = DynamicRouting::Adaptive);
/// The arguments of sim/direct_run.cpp's harness for a run.
[[nodiscard]] std::string direct_harness_args(const Topology& t, const DirectParams& p, const std::string& schedule_file,
                                              const std::string& wave);

/// build/bin/totex_systemc, the SystemC engine built with the project.
[[nodiscard]] std::filesystem::path systemc_binary();
/// Runs a harness that links SystemC (banner silenced) and reads its result.
[[nodiscard]] SimResult run_systemc_harness(const std::string& command, const std::string& what, const std::string& wave);

/// Reads the "TOTEX-RESULT {json}" line of a harness's stdout; every other line (simulator output,
/// assertion messages) is passed on to stderr. Throws UsageError naming `what` without a result.
[[nodiscard]] SimResult parse_result(const std::string& out, const std::string& what);

/// `--wave` checks shared by every engine: empty, or a file ending in .fst or .vcd (or, when
/// `vcd_only`, .vcd). Returns true for VCD.
bool wave_is_vcd(const std::string& wave, bool vcd_only = false);

}  // namespace totex::cli
