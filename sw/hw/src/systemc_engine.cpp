// SPDX-License-Identifier: Apache-2.0
/// `systemc`: the SystemC models of sim/systemc/, built with the project as one binary for every
/// topology (totex_systemc; the module graph is elaborated at run time). Each run is its own
/// process: SystemC elaborates once per process. Its first argument is the harness kind
/// (schema::to_argv: min, direct or tdm).
#include "harness.hpp"
#include "model_cache.hpp"
#include "totex/error.hpp"
#include "totex/io/schedule_io.hpp"
#include "totex/link_recovery.hpp"
#include "totex/tdm_tables.hpp"

namespace totex::hw {
namespace {

class SystemcEngine final : public Engine {
 public:
  [[nodiscard]] std::string name() const override { return "systemc"; }
  [[nodiscard]] EngineCaps caps() const override {
    EngineCaps c;
    c.direct_backdoor = c.periodic = c.hardware = c.recover = true;  // the SystemC MIN has no backdoor
    return c;
  }

 protected:
  [[nodiscard]] SimResult run_min(const MinNetwork& net, const MinSchedule& s, const RunOptions& o) const override {
    check_wave_writable(o.wave);
    if (o.mode == DirectMode::Dynamic) throw UsageError("--mode dynamic applies to direct networks, not to a MIN");
    const HarnessScheduleFile file(o.schedule_file, [&](std::ostream& out) { write_min_schedule(out, net, s); });
    (void)wave_is_vcd(o.wave, true);
    const schema::MinHarnessArgs a = min_harness_args(net, s, o, file.path());
    return run_harness(systemc_binary(), schema::to_argv(a), "the SystemC engine", true, o.wave);
  }

  /// The SystemC routers and NICs: a step-schedule file (scheduled) or the dynamic baseline
  /// `o.routing` (schedule unused).
  [[nodiscard]] SimResult run_direct(const Topology& t, const Schedule& s, const RunOptions& o) const override {
    if (o.recover) return run_recover(t, s, o);
    if (o.tdm.periods > 0) return run_periodic(t, s, o);
    check_wave_writable(o.wave);
    if (o.split != CosimSplit::RtlNetwork)
      throw UsageError("--cosim-split rtl-nics is available for MINs; direct networks co-simulate RTL routers");
    const HarnessScheduleFile file =
        o.mode == DirectMode::Scheduled
            ? HarnessScheduleFile(o.schedule_file, [&](std::ostream& out) { write_schedule(out, t, s); })
            : HarnessScheduleFile();
    (void)wave_is_vcd(o.wave, true);
    const DirectParams p = direct_run_params(t, s, o);
    const DirectLayout layout(t, p);  // usage errors (payload width, address width) before the run
    return run_harness(systemc_binary(), schema::to_argv(direct_harness_args(t, p, file.path(), o)),
                       "the SystemC engine", true, o.wave);
  }

 private:
  /// --recover: the SystemC nic tiles with the ctl tile's shadow bank, armed swap and link counters,
  /// driven by the recovery controller of sim/systemc/tdm_recover.cpp (the rtl run's, the AXI4-Lite
  /// port abstracted to timed register accesses).
  static SimResult run_recover(const Topology& t, const Schedule& s, const RunOptions& o) {
    if (!o.wave.empty()) throw UsageError("--wave: the recovery run does not trace");
    const TdmTables tables = recovery_tiles(tdm_tables(t, s, o.tdm.period, o.tdm.payload));
    (void)parse_fault_at(o.fault_at, t, o.tdm.periods);  // refused before anything runs
    check_tdm_tile_period(tables, o);
    check_recovery_tables(t, tables);
    const HarnessScheduleFile file(o.schedule_file, [&](std::ostream& out) { write_schedule(out, t, s); });
    std::vector<std::string> argv = schema::to_argv(tdm_harness_args(t, tables, file.path(), o));
    for (const std::string& a : recovery_argv({o.fault_at, o.recover_budget})) argv.push_back(a);
    return run_harness(systemc_binary(), argv, "the SystemC recovery run", true);
  }

  /// --periods K: N SystemC TDM tiles (sim/systemc/tdm_tile.hpp, tdm_network.hpp) run by
  /// sim/systemc/tdm_harness.cpp as the rtl engine runs the Verilated tiles (docs/tdm-runs.md).
  static SimResult run_periodic(const Topology& t, const Schedule& s, const RunOptions& o) {
    if (!o.wave.empty()) throw UsageError("--wave: the TDM tile network (--periods) does not trace");
    const TdmTables tables = tdm_tables(t, s, o.tdm.period, o.tdm.payload);  // a fold conflict stops the run here
    check_tdm_tile_period(tables, o);
    const HarnessScheduleFile file(o.schedule_file, [&](std::ostream& out) { write_schedule(out, t, s); });
    SimResult r = run_harness(systemc_binary(), schema::to_argv(tdm_harness_args(t, tables, file.path(), o)),
                              "the SystemC TDM tile network", true);
    note_short_period(r, tables);
    return r;
  }
};

}  // namespace

std::unique_ptr<Engine> make_systemc_engine() { return std::make_unique<SystemcEngine>(); }

}  // namespace totex::hw
