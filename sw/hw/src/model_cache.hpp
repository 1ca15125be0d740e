// SPDX-License-Identifier: Apache-2.0
/// Models built on first use (engines rtl and cosim): a cache directory per parameter set under
/// the run's cache directory (schema::HwEnvironment::cache_dir: build/rtl-cache, or TOTEX_CACHE_DIR
/// as the CLI read it), rebuilt when any input changes, locked against parallel builds. Internal
/// to totex_hw.
#pragma once
#include <filesystem>
#include <string>
#include <utility>
#include <vector>


namespace totex::hw {

/// A cache-directory name for a topology spec.
[[nodiscard]] std::string key_of(const std::string& spec);

/// One Verilated harness: `verilator --cc|--sc --exe --build` of the RTL file lists `file_lists`
/// (top module `top`) with the C++ `cpp`, linked with the libraries (and SystemC for --sc), in
/// cache_dir/key.
struct VerilatedBuild {
  std::filesystem::path cache_dir;  // the run's model cache (RunOptions::env.cache_dir)
  std::string key;
  std::string top;
  bool systemc = false;
  /// Link what the library's schedulers need (CaDiCaL, COIN-OR CLP, expat): a harness that
  /// schedules (the recovery controller) rather than only reading a schedule.
  bool schedulers = false;
  std::vector<std::string> args;  // extra verilator arguments, one argv entry each (-G..., --trace, ...)
  std::string defines;            // extra -CFLAGS (-D...)
  std::vector<std::string> file_lists;  // rtl/*.f names, e.g. "direct_top.f"
  std::vector<std::filesystem::path> cpp;
  std::vector<std::filesystem::path> headers;  // included by `cpp`: part of the fingerprint
  /// Generated files (file name, text) written into the cache directory under its lock: sources
  /// are Verilated after the file lists, headers (.svh) are found on the include path (-I dir).
  std::vector<std::pair<std::string, std::string>> generated;
  std::string verilator_opt = "-O2";  // Verilator's own optimisation level and flags
  std::string makeflags;              // -MAKEFLAGS for the generated C++ (empty: Verilator's defaults)
  /// What a first build costs, said before it starts (e.g. "about 2 min on 2 cores"; from the
  /// measurements of tests/bench/rtl_build_time.sh). Empty: a generic estimate.
  std::string estimate;
  /// What is built, in words (e.g. "the RTL of min:256:4:omega, table mode"), said before a build.
  std::string what;
};
/// Builds the harness unless it is up to date; returns the binary. Locks the cache directory.
std::filesystem::path build_verilated(const VerilatedBuild& b);

}  // namespace totex::hw
