// SPDX-License-Identifier: Apache-2.0
/// `systemc`: the SystemC models of sim/systemc/, built with the project as one binary for every
/// topology (totex_systemc; the module graph is elaborated at run time). Each run is its own
/// process: SystemC elaborates once per process.
#include "harness.hpp"
#include "model_cache.hpp"
#include "totex/error.hpp"
#include "totex/io/schedule_io.hpp"
#include "totex/tdm_tables.hpp"

namespace totex::hw {
namespace {

class SystemcEngine final : public Engine {
 public:
  [[nodiscard]] std::string name() const override { return "systemc"; }

 protected:
  [[nodiscard]] SimResult run_min(const MinNetwork& net, const MinSchedule& s, const RunOptions& o) const override {
    check_wave_writable(o.wave);
    if (o.mode == DirectMode::Dynamic) throw UsageError("--mode dynamic applies to direct networks, not to a MIN");
    const HarnessScheduleFile file(o.schedule_file, [&](std::ostream& out) { write_min_schedule(out, net, s); });
    (void)wave_is_vcd(o.wave, true);
    const MinHarnessRun run = min_harness_run(net, s, o.min_mode, file.path(), o.wave);
    return run_systemc_harness(quote(systemc_binary().string()) + run.args, "the SystemC engine", o.wave);
  }

  /// The SystemC routers and NICs: a step-schedule file (scheduled) or the dynamic baseline
  /// `o.routing` (schedule unused).
  [[nodiscard]] SimResult run_direct(const Topology& t, const Schedule& s, const RunOptions& o) const override {
    if (o.periods > 0) return run_periodic(t, s, o);
    check_wave_writable(o.wave);
    if (o.split != CosimSplit::RtlNetwork)
      throw UsageError("--cosim-split rtl-nics is available for MINs; direct networks co-simulate RTL routers");
    const HarnessScheduleFile file =
        o.mode == DirectMode::Scheduled
            ? HarnessScheduleFile(o.schedule_file, [&](std::ostream& out) { write_schedule(out, t, s); })
            : HarnessScheduleFile();
    (void)wave_is_vcd(o.wave, true);
    const DirectParams p = direct_run_params(t, s, o.mode, o.routing);
    const DirectLayout layout(t, p);  // usage errors (payload width, address width) before the run
    return run_systemc_harness(quote(systemc_binary().string()) + direct_harness_args(t, p, file.path(), o.wave, o.backdoor_load),
                               "the SystemC engine", o.wave);
  }

 private:
  /// --periods K: N SystemC TDM tiles (sim/systemc/tdm_tile.hpp, tdm_network.hpp) run by
  /// sim/systemc/tdm_harness.cpp as the rtl engine runs the Verilated tiles (docs/tdm-runs.md).
  static SimResult run_periodic(const Topology& t, const Schedule& s, const RunOptions& o) {
    if (!o.wave.empty()) throw UsageError("--wave: the TDM tile network (--periods) does not trace");
    const int payload = o.payload_bits > 0 ? o.payload_bits : 32;
    const TdmTables tables = tdm_tables(t, s, o.period, payload);  // a fold conflict stops the run here
    const HarnessScheduleFile file(o.schedule_file, [&](std::ostream& out) { write_schedule(out, t, s); });
    const std::string command = quote(systemc_binary().string()) + " --topo " + quote(t.spec()) + " --schedule " +
                                quote(file.path()) + " --periods " + std::to_string(o.periods) + " --payload " +
                                std::to_string(payload) + " --period " + std::to_string(tables.period);
    return run_systemc_harness(command, "the SystemC TDM tile network", "");
  }
};

}  // namespace

std::unique_ptr<Engine> make_systemc_engine() { return std::make_unique<SystemcEngine>(); }

}  // namespace totex::hw
