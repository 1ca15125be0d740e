// SPDX-License-Identifier: Apache-2.0
/// What the hardware engines share: the harness command lines (sim/min_run.hpp, sim/direct_run.hpp),
/// the schedule file a harness loads, the result protocol (a line "TOTEX-RESULT {json}") and the
/// factories of the engines (engines.cpp lists them). Internal to totex_hw.
#pragma once
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>

#include "totex/engines.hpp"

namespace totex::hw {

[[nodiscard]] std::unique_ptr<Engine> make_rtl_engine();
[[nodiscard]] std::unique_ptr<Engine> make_systemc_engine();
[[nodiscard]] std::unique_ptr<Engine> make_cosim_engine();

/// The schedule file a harness loads: the file the schedule came from, or else the schedule written
/// by `write` to a temporary file, removed when this goes. Default: no file (dynamic runs).
class HarnessScheduleFile {
 public:
  HarnessScheduleFile() = default;
  HarnessScheduleFile(const std::string& given, const std::function<void(std::ostream&)>& write);
  ~HarnessScheduleFile();
  HarnessScheduleFile(const HarnessScheduleFile&) = delete;
  HarnessScheduleFile& operator=(const HarnessScheduleFile&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
  bool temporary_ = false;
};

/// --wave: fails before the run (OutputError, "PATH: OS error text") when the dump or its GTKWave
/// view cannot be created there; the probes write nothing.
void check_wave_writable(const std::string& wave);
/// `--wave` checks shared by every hardware engine: empty, or a file ending in .fst or .vcd (or,
/// when `vcd_only`, .vcd). Returns true for VCD.
bool wave_is_vcd(const std::string& wave, bool vcd_only = false);

/// A MIN harness run (sim/min_run.hpp): the table size and the harness arguments.
struct MinHarnessRun {
  int max_steps = 0;
  int payload_bits = 16;
  std::string args;  // --schedule FILE --min-mode M --max-steps S --payload-bits W [--wave W]
};
/// Tables hold one entry per step: N by default, a power-of-two multiple of N for longer
/// (baseline) schedules. Throws UsageError for a schedule the mode cannot run, before any build.
[[nodiscard]] MinHarnessRun min_harness_run(const MinNetwork& net, const MinSchedule& s, MinConfigMode mode,
                                            const std::string& schedule_file, const std::string& wave,
                                            bool backdoor = false);

/// The build parameters of a direct-network run: schedule memories of steps + 1 entries and relay
/// buffers rounded up to powers of two (so similar schedules share a build), default payload and
/// FIFO depth; `routing` in dynamic mode. Throws UsageError (e.g. dynamic mode on a metacube)
/// before anything is built.
[[nodiscard]] DirectParams direct_run_params(const Topology& t, const Schedule& s, DirectMode mode,
                                             DynamicRouting routing = DynamicRouting::Adaptive);
/// The arguments of sim/direct_run.cpp's harness for a run (`backdoor`: --load backdoor).
[[nodiscard]] std::string direct_harness_args(const Topology& t, const DirectParams& p, const std::string& schedule_file,
                                              const std::string& wave, bool backdoor = false);

/// The SystemC engine built with the project (totex_systemc).
[[nodiscard]] std::filesystem::path systemc_binary();
/// Runs a harness that links SystemC (banner silenced) and reads its result.
[[nodiscard]] SimResult run_systemc_harness(const std::string& command, const std::string& what, const std::string& wave);
/// Runs a harness command and reads its result, by its exit code (sim/harness_exit.hpp): 0 or 1 a
/// result; 2 the harness refused its input (UsageError); anything else, a signal included, a tool
/// failure (ToolError naming `what`), as is a run that printed no result.
[[nodiscard]] SimResult run_harness(const std::string& command, const std::string& what);


}  // namespace totex::hw
