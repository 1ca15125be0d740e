// SPDX-License-Identifier: Apache-2.0
/// The engines behind `totex sim`, one interface: each runs a verified schedule (direct network or
/// MIN) and reports the same SimResult, checked by the same scoreboard (totex/trace.hpp).
///
///   ref      the reference step model (totex/verify/reference_engine.hpp), no clock
///   rtl      the RTL under Verilator, built per parameter set on first use and cached: a MIN is
///            rtl/totex_min_top.sv (sim/min_rtl_main.cpp); a direct network is, by default, the
///            wired build: one model of rtl/totex_direct_tile.sv, N instances wired in C++
///            (sim/direct_wired_main.cpp); rtl/totex_direct_top.sv (sim/direct_rtl_main.cpp) only
///            for --wave and TOTEX_RTL_BUILD=flat|hier; with --periods, N TDM tiles
///            (rtl/tdm/totex_tdm_tile.sv, sim/tdm_wired_main.cpp)
///   systemc  the SystemC models of sim/systemc/ (the totex_systemc binary; --periods: N tdm_tile)
///   cosim    SystemC with a Verilated half (sim/cosim/), built on first use like rtl
///
/// The hardware engines run their harness as a child process (SystemC elaborates once per process;
/// a Verilated model is a binary per parameter set) and read its result line and exit code
/// (sim/harness_exit.hpp: a refusal of the input is a usage error, anything else a tool failure).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "totex/direct_controller.hpp"
#include "totex/verify/reference_engine.hpp"
#include "totex/min_controller.hpp"
#include "totex/schedule.hpp"
#include "totex/network/spec.hpp"

namespace totex {

/// Which half of a co-simulation is RTL: the network (switches or routers; NICs in SystemC) or
/// the NICs (network in SystemC; MINs only).
enum class CosimSplit { RtlNetwork, RtlNics };

/// How to run, besides the network and the schedule. An engine refuses (UsageError) what it cannot do.
struct RunOptions {
  /// The step count the schedule's file declares: the run must take exactly that many cycles.
  std::optional<std::int64_t> claimed_steps;
  /// The file the schedule was read from. Harnesses load a file (through the loaders `totex verify`
  /// uses); when empty, the schedule is written to a temporary one for the run.
  std::string schedule_file;
  DirectMode mode = DirectMode::Scheduled;            // direct networks
  DynamicRouting routing = DynamicRouting::Adaptive;  // direct networks, dynamic mode
  MinConfigMode min_mode = MinConfigMode::Table;      // MINs: how switches get their states
  CosimSplit split = CosimSplit::RtlNetwork;          // cosim
  /// --load backdoor (engine rtl only): the harness writes the table and queue memories of the
  /// Verilated model directly instead of one load-port write (one clock edge) per word.
  bool backdoor_load = false;
  std::string wave;  // waveform file (.fst or .vcd; SystemC traces VCD); empty: none
  /// --periods K (engines ref, rtl, systemc; direct networks, nic): run the TDM slot tables
  /// K periods back to back (totex/tdm_run.hpp); 0: the one-shot run.
  int periods = 0;
  /// --payload W with --periods: the TDM tile's payload width (1..64); 0: its default, 32.
  int payload_bits = 0;
  /// --period P with --periods: fold the tables at P slots (0: tdm_default_period).
  int period = 0;
};

/// The engines that run --periods (periodic TDM exchanges).
[[nodiscard]] const std::vector<std::string>& periodic_engine_names();

class Engine {
 public:
  virtual ~Engine() = default;
  Engine() = default;
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  /// "ref", "rtl", "systemc" or "cosim" (what SimResult::engine says).
  [[nodiscard]] virtual std::string name() const = 0;
  /// Runs `schedule` (of the kind `net` needs) on this engine.
  [[nodiscard]] SimResult run(const Network& net, const AnySchedule& schedule, const RunOptions& options) const;

 protected:
  [[nodiscard]] virtual SimResult run_min(const MinNetwork& net, const MinSchedule& s, const RunOptions& o) const = 0;
  [[nodiscard]] virtual SimResult run_direct(const Topology& t, const Schedule& s, const RunOptions& o) const = 0;
};

/// The engines make_engine knows, in the order of the list above.
[[nodiscard]] const std::vector<std::string>& engine_names();
/// The engine called `name`; throws UsageError naming the accepted names for any other.
[[nodiscard]] std::unique_ptr<Engine> make_engine(const std::string& name);

}  // namespace totex
