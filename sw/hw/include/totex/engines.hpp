// SPDX-License-Identifier: Apache-2.0
/// The engines behind `totex sim`, one interface: each runs a verified schedule (direct network or
/// MIN) and reports the same SimResult, checked by the same scoreboard (totex/trace.hpp).
///
///   ref      the reference step model (totex/verify/reference_engine.hpp), no clock
///   rtl      the RTL under Verilator, built per parameter set on first use and cached: a MIN is
///            rtl/totex_min_top.sv (sim/min_rtl_main.cpp); a direct network is, by default, the
///            wired build: one model of rtl/totex_direct_tile.sv, N instances wired in C++
///            (sim/direct_wired_main.cpp); rtl/totex_direct_top.sv (sim/direct_rtl_main.cpp) only
///            for --wave and TOTEX_RTL_BUILD=flat|hier; with --periods, N TDM tiles of the
///            schedule's kind (nic, all-port or single-port: rtl/tdm/, sim/tdm_wired_main.cpp)
///   systemc  the SystemC models of sim/systemc/ (the totex_systemc binary; --periods: N tdm_tile)
///   cosim    SystemC with a Verilated half (sim/cosim/), built on first use like rtl
///
/// The hardware engines run their harness as a child process (SystemC elaborates once per process;
/// a Verilated model is a binary per parameter set), started from an argv the schema writes
/// (totex/hw_schema.hpp), and read its result line and exit code (sim/harness_exit.hpp: a refusal
/// of the input is a usage error, anything else a tool failure). Engines are found in one
/// registry (engine_registry) and declare what they can do (caps()); no engine name is compared.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "totex/direct_controller.hpp"
#include "totex/hw_schema.hpp"
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
  /// Dynamic mode: the traffic the NICs send (null: all); the scheduled mode's traffic is the one
  /// its schedule records.
  std::shared_ptr<const Traffic> traffic;
  MinConfigMode min_mode = MinConfigMode::Table;      // MINs: how switches get their states
  CosimSplit split = CosimSplit::RtlNetwork;          // cosim
  /// --load: the port (one write, one clock edge, per word) or the backdoor (the model's table
  /// and queue memories written directly; EngineCaps says which engines have one).
  schema::LoadPath load = schema::LoadPath::Port;
  std::string wave;  // waveform file (.fst or .vcd; SystemC traces VCD); empty: none
  /// The CLI's flags of the direct-network harness (the rows of schema::DirectHarnessArgs that
  /// have help text); the engines take what a run of theirs uses from here.
  schema::DirectHarnessArgs direct;
  /// --periods K, --payload W, --period P (totex/hw_schema.hpp, TdmHarnessArgs): tdm.periods > 0
  /// runs the TDM slot tables K periods back to back (totex/tdm_run.hpp); 0: the one-shot run.
  schema::TdmHarnessArgs tdm;
  /// The environment as the CLI read it (TOTEX_RTL_BUILD, TOTEX_CACHE_DIR, ...).
  schema::HwEnvironment env;
  /// --fault-at PERIOD:A-B with --recover (totex/link_recovery.hpp): the link sticks, the
  /// controller reschedules and swaps. Empty: no fault.
  std::string fault_at;
  bool recover = false;
  /// --recover-budget: the counted work of the degraded network's periodic search (about seconds;
  /// 0: the default), passed to the harness, whose controller plans with it.
  double recover_budget = 0;
};

/// What an engine can do; Engine::run refuses the rest, naming the engines that can.
struct EngineCaps {
  bool direct_backdoor = false;  // --load backdoor on a direct network
  bool min_backdoor = false;     // --load backdoor on a MIN
  bool periodic = false;         // --periods (the TDM tiles)
  bool hardware = false;         // --mode dynamic, --wave, TOTEX_TDM_FAULT: a clocked model
  bool recover = false;          // --fault-at --recover: the stuck link, the controller and the swap
};

class Engine {
 public:
  virtual ~Engine() = default;
  Engine() = default;
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  /// "ref", "rtl", "systemc" or "cosim" (what SimResult::engine says; never compared).
  [[nodiscard]] virtual std::string name() const = 0;
  [[nodiscard]] virtual EngineCaps caps() const = 0;
  /// Runs `schedule` (of the kind `net` needs) on this engine, after the checks every engine
  /// shares (capabilities, the memory a periodic run takes).
  [[nodiscard]] SimResult run(const Network& net, const AnySchedule& schedule, const RunOptions& options) const;

 protected:
  [[nodiscard]] virtual SimResult run_min(const MinNetwork& net, const MinSchedule& s, const RunOptions& o) const = 0;
  [[nodiscard]] virtual SimResult run_direct(const Topology& t, const Schedule& s, const RunOptions& o) const = 0;
};

/// One registered engine: its name and how to make it (its capabilities: make()->caps()).
struct EngineEntry {
  const char* name;
  std::unique_ptr<Engine> (*make)();
};
/// The registry: every engine, in the order of the list above (`--engine` accepts these names).
[[nodiscard]] const std::vector<EngineEntry>& engine_registry();
/// The names of the registry, in order.
[[nodiscard]] std::vector<std::string> engine_names();
/// The engine called `name`; throws UsageError naming the accepted names for any other.
[[nodiscard]] std::unique_ptr<Engine> make_engine(const std::string& name);

/// The memory a periodic run of K periods keeps per delivery (the scoreboard's trace, its seen
/// table and digest text, a harness's offer queue and trace): the estimate --periods is refused by.
inline constexpr std::uint64_t kTdmBytesPerDelivery = 128;
/// And per node pair and period (the scoreboard's seen flag, the reference engine's message position).
inline constexpr std::uint64_t kTdmBytesPerNodePair = 5;
/// Refuses (ResourceError, exit 3) a periodic run whose deliveries would take more than totex's
/// memory budget, before anything is folded or built.
void check_periodic_memory(const Topology& t, int periods);

}  // namespace totex
