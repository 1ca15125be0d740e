// SPDX-License-Identifier: Apache-2.0
/// The rtl engine's periodic runs (tdm_rtl.hpp): the TDM tile (nic, all-port or single-port)
/// Verilated once per tile parameter set (kind, ports, payload, node bits, depth, relay buffer; not
/// the topology) and N instances wired by
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
  const int payload = o.payload_bits > 0 ? o.payload_bits : 32;
  // The fold first: a conflict is reported before anything is built.
  const TdmTables tables = tdm_tables(t, s, o.period, payload);
  const TdmTileParams& p = tables.tile;
  const HarnessScheduleFile file(o.schedule_file, [&](std::ostream& out) { write_schedule(out, t, s); });
  const std::filesystem::path sim = install_paths().sim;
  VerilatedBuild b;
  const std::string kind = p.all_port ? "allport_" : p.single_port ? "single_b" + std::to_string(p.buffer_words) + "_" : "";
  b.key = "tdm_" + kind + "tile_p" + std::to_string(p.ports) + "_w" + std::to_string(p.payload_bits) + "_n" +
          std::to_string(p.node_bits) + "_d" + std::to_string(p.depth);
  b.top = p.all_port ? "totex_tdm_allport_tile" : p.single_port ? "totex_tdm_single_tile" : "totex_tdm_tile";
  b.file_lists = {"tdm/tdm.f"};
  b.cpp = {sim / "tdm_wired_main.cpp"};
  b.headers = {sim / "vl_harness.hpp", sim / "harness_exit.hpp", sim / "tdm_drive.hpp"};
  b.args = {"-Wno-WIDTH", "--x-assign fast", "-GNumPorts=" + std::to_string(p.ports),
            "-GPayloadW=" + std::to_string(p.payload_bits), "-GNodeW=" + std::to_string(p.node_bits),
            "-GDepth=" + std::to_string(p.depth)};
  if (p.single_port) b.args.push_back("-GBufDepth=" + std::to_string(p.buffer_words));
  // The harness checks that the run's tables need exactly the tile it was built with.
  b.defines = "-DTOTEX_TDM_PORTS=" + std::to_string(p.ports) + " -DTOTEX_TDM_PAYLOAD=" +
              std::to_string(p.payload_bits) + " -DTOTEX_TDM_NODE_BITS=" + std::to_string(p.node_bits) +
              " -DTOTEX_TDM_DEPTH=" + std::to_string(p.depth) + " -DTOTEX_TDM_ALLPORT=" + (p.all_port ? "1" : "0") +
              " -DTOTEX_TDM_SINGLE=" + (p.single_port ? "1" : "0") + " -DTOTEX_TDM_BUFFER=" + std::to_string(p.buffer_words);
  b.what = "the " + std::string(p.all_port ? "all-port " : p.single_port ? "single-port " : "") + "TDM tile (rtl/tdm/" + b.top + ".sv), " + std::to_string(p.ports) + " ports, " +
           std::to_string(p.payload_bits) + "-bit payload, " + std::to_string(p.depth) +
           " slots; N instances wired in C++, reused by every topology with these tile parameters";
  b.estimate = "about 10-40 s on 2 cores, once per tile parameter set";
  b.verilator_opt = "-O3";
  b.makeflags = "OPT_FAST=-O2 OPT_SLOW=-O0 OPT_GLOBAL=-O1";
  const std::filesystem::path binary = build_verilated(b);
  const std::string command = quote(binary.string()) + " --topo " + quote(t.spec()) + " --schedule " +
                              quote(file.path()) + " --periods " + std::to_string(o.periods) + " --payload " +
                              std::to_string(payload) + " --period " + std::to_string(tables.period);
  return run_harness(command, "the TDM tile harness " + binary.string());
}

}  // namespace totex::hw
