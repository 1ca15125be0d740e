// SPDX-License-Identifier: Apache-2.0
/// The rtl engine's recovery runs (recover_rtl.hpp): rtl/tdm/totex_tdm_ctl_tile.sv Verilated once
/// per tile parameter set and N instances wired and driven through their AXI4-Lite ports by
/// sim/tdm_recover_main.cpp.
#include "recover_rtl.hpp"

#include "harness.hpp"
#include "install_paths.hpp"
#include "model_cache.hpp"
#include "totex/error.hpp"
#include "totex/io/schedule_io.hpp"
#include "totex/link_recovery.hpp"
#include "totex/tdm_tables.hpp"

namespace totex::hw {

SimResult run_recover_rtl(const Topology& t, const Schedule& s, const RunOptions& o) {
  if (!o.wave.empty()) throw UsageError("--wave: the recovery run does not trace");
  const TdmTables tables = recovery_tiles(tdm_tables(t, s, o.tdm.period, o.tdm.payload));
  (void)parse_fault_at(o.fault_at, t, o.tdm.periods);  // refused before anything is built
  check_tdm_tile_period(tables, o);
  check_recovery_tables(t, tables);
  const TdmTileParams& p = tables.tile;
  const HarnessScheduleFile file(o.schedule_file, [&](std::ostream& out) { write_schedule(out, t, s); });
  const std::filesystem::path sim = install_paths().sim;
  VerilatedBuild b;
  b.cache_dir = o.env.cache_dir;
  b.key = schema::cache_key("tdm-ctl", p);
  b.top = "totex_tdm_ctl_tile";
  b.file_lists = {"tdm/tdm.f"};
  b.cpp = {sim / "tdm_recover_main.cpp"};
  b.headers = {sim / "vl_harness.hpp", sim / "harness_exit.hpp", sim / "tdm_drive.hpp", sim / "recover_check.hpp"};
  b.args = {"-Wno-WIDTH", "--x-assign", "fast"};
  for (const std::string& g : schema::verilog_params(p)) b.args.push_back(g);
  b.defines = schema::cpp_defines(p);
  b.schedulers = true;  // the controller schedules the degraded network with the library
  b.what = "the nic TDM tile with its AXI4-Lite control port (rtl/tdm/totex_tdm_ctl_tile.sv), " +
           std::to_string(p.ports) + " ports, " + std::to_string(p.payload_bits) + "-bit payload, " +
           std::to_string(p.depth) + " slots, and the recovery controller";
  b.estimate = "about 20-60 s on 2 cores, once per tile parameter set";
  b.verilator_opt = "-O3";
  b.makeflags = "OPT_FAST=-O2 OPT_SLOW=-O0 OPT_GLOBAL=-O1";
  const std::filesystem::path binary = build_verilated(b);
  std::vector<std::string> argv = schema::to_argv(tdm_harness_args(t, tables, file.path(), o));
  for (const std::string& a : recovery_argv({o.fault_at, o.recover_budget})) argv.push_back(a);
  return run_harness(binary, argv, "the recovery harness " + binary.string());
}

}  // namespace totex::hw
