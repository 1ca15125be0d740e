// SPDX-License-Identifier: Apache-2.0
/// The rtl engine's periodic runs (tdm_rtl.hpp): the TDM tile of the schedule's kind (nic,
/// all-port or single-port) Verilated once per tile parameter set (schema::tdm_tile_fields: kind,
/// ports, payload, node bits, depth, relay buffer; not the topology) and N instances wired by
/// sim/tdm_wired_main.cpp.
#include "tdm_rtl.hpp"

#include "harness.hpp"
#include "install_paths.hpp"
#include "model_cache.hpp"
#include "totex/error.hpp"
#include "totex/io/schedule_io.hpp"
#include "totex/tdm_tables.hpp"

namespace totex::hw {

SimResult run_tdm_rtl(const Topology& t, const Schedule& s, const RunOptions& o) {
  if (!o.wave.empty()) throw UsageError("--wave: the TDM tile network (--periods) does not trace");
  // The fold first: a conflict is reported before anything is built.
  const TdmTables tables = tdm_tables(t, s, o.tdm.period, o.tdm.payload);
  check_tdm_tile_period(tables, o);
  const TdmTileParams& p = tables.tile;
  const TileKindInfo& kind = tdm_tile_kind_info(p.kind);
  const HarnessScheduleFile file(o.schedule_file, [&](std::ostream& out) { write_schedule(out, t, s); });
  const std::filesystem::path sim = install_paths().sim;
  VerilatedBuild b;
  b.cache_dir = o.env.cache_dir;
  b.key = schema::cache_key("tdm", p);
  b.top = kind.rtl_top;
  b.file_lists = {"tdm/tdm.f"};
  b.cpp = {sim / "tdm_wired_main.cpp"};
  b.headers = {sim / "vl_harness.hpp", sim / "harness_exit.hpp", sim / "tdm_drive.hpp"};
  b.args = {"-Wno-WIDTH", "--x-assign", "fast"};
  for (const std::string& g : schema::verilog_params(p)) b.args.push_back(g);
  // The harness checks that the run's tables need exactly the tile it was built with.
  b.defines = schema::cpp_defines(p);
  b.what = "the " + std::string(kind.name) + " TDM tile (rtl/tdm/" + b.top + ".sv), " + std::to_string(p.ports) +
           " ports, " + std::to_string(p.payload_bits) + "-bit payload, " + std::to_string(p.depth) +
           " slots; N instances wired in C++, reused by every topology with these tile parameters";
  b.estimate = "about 10-40 s on 2 cores, once per tile parameter set";
  b.verilator_opt = "-O3";
  b.makeflags = "OPT_FAST=-O2 OPT_SLOW=-O0 OPT_GLOBAL=-O1";
  const std::filesystem::path binary = build_verilated(b);
  SimResult r = run_harness(binary, schema::to_argv(tdm_harness_args(t, tables, file.path(), o)),
                            "the TDM tile harness " + binary.string());
  note_short_period(r, tables);
  return r;
}

}  // namespace totex::hw
