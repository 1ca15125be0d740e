// SPDX-License-Identifier: Apache-2.0
/// What the hardware engines share: the harness arguments (totex/hw_schema.hpp),
/// the schedule file a harness loads, the result protocol (a line "TOTEX-RESULT {json}") and the
/// factories of the engines (engines.cpp lists them). Internal to totex_hw.
#pragma once
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "totex/engines.hpp"
#include "totex/tdm_tables.hpp"

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

/// A MIN harness run (sim/min_run.hpp): tables hold one entry per step, N by default, a
/// power-of-two multiple of N for longer (baseline) schedules. Throws UsageError for a schedule the
/// mode cannot run, before any build.
[[nodiscard]] schema::MinHarnessArgs min_harness_args(const MinNetwork& net, const MinSchedule& s, const RunOptions& o,
                                                      const std::string& schedule_file);

/// The build parameters of a direct-network run: schedule memories of steps + 1 entries and relay
/// buffers rounded up to powers of two (so similar schedules share a build), default payload and
/// FIFO depth; `o.mode`, and `o.routing` in dynamic mode. Throws UsageError (e.g. dynamic mode on a
/// metacube) before anything is built.
[[nodiscard]] DirectParams direct_run_params(const Topology& t, const Schedule& s, const RunOptions& o);
/// The arguments of sim/direct_run.cpp's harness for a run.
[[nodiscard]] schema::DirectHarnessArgs direct_harness_args(const Topology& t, const DirectParams& p,
                                                            const std::string& schedule_file, const RunOptions& o);

/// The arguments of a TDM tile harness (sim/tdm_drive.hpp) for the folded `tables`.
[[nodiscard]] schema::TdmHarnessArgs tdm_harness_args(const Topology& t, const TdmTables& tables,
                                                      const std::string& schedule_file, const RunOptions& o);
/// Refuses (UsageError) a period below kTdmTileMinPeriod that totex picked (the schedule's own),
/// naming the tiles' minimum; a --period the user gave runs as asked.
void check_tdm_tile_period(const TdmTables& tables, const RunOptions& o);

/// A failed run at a --period below kTdmTileMinPeriod: the likely cause, first among the errors.
void note_short_period(SimResult& r, const TdmTables& tables);

/// The SystemC engine built with the project (totex_systemc).
[[nodiscard]] std::filesystem::path systemc_binary();
/// Runs `binary` with the harness argv `args` and reads its result, by its exit code
/// (sim/harness_exit.hpp): 0 or 1 a result; 2 the harness refused its input (UsageError); anything
/// else, a signal included, a tool failure (ToolError naming `what`), as is a run that printed no
/// result. A harness that links SystemC (`systemc`) runs with its banner silenced; the result
/// carries `wave`.
[[nodiscard]] SimResult run_harness(const std::filesystem::path& binary, const std::vector<std::string>& args,
                                    const std::string& what, bool systemc = false, const std::string& wave = "");

}  // namespace totex::hw
