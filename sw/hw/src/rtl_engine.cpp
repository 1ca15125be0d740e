// SPDX-License-Identifier: Apache-2.0
/// `rtl`: the RTL under Verilator. The model for the requested parameters is built on first use
/// (cached in the run's model cache, RunOptions::env.cache_dir), run on the schedule file, and its
/// result read.
#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <sstream>
#include <string>

#include "harness.hpp"
#include "install_paths.hpp"
#include "model_cache.hpp"
#include "recover_rtl.hpp"
#include "tdm_rtl.hpp"
#include "totex/error.hpp"
#include "totex/io/schedule_io.hpp"

namespace totex::hw {
namespace {

namespace fs = std::filesystem;

/// The widest parameter in a generated totex_direct_params.svh ("parameter logic [HI:0] ..."):
/// the per-node tables of a dynamic network grow as N^2 (RouteTable of torus:16x16 is 524288
/// bits), past Verilator's default limit on a literal's width (65536).
std::size_t widest_parameter(const std::string& svh) {
  std::size_t widest = 0;
  for (std::size_t at = svh.find("logic ["); at != std::string::npos; at = svh.find("logic [", at + 1))
    widest = std::max<std::size_t>(widest, std::stoull(svh.substr(at + 7)) + 1);
  return widest;
}

/// How a direct network's RTL is built (TOTEX_RTL_BUILD=flat|hier|wired, as the CLI read it,
/// overrides the choice; schema::RtlBuild):
///   wired: one model of rtl/totex_direct_tile.sv per tile parameter set, N instances wired in C++
///          (sim/direct_wired_main.cpp): no Verilator run when only the topology changes. The
///          default, for every direct network (a node's absent ports are cleared in connected_i).
///   hier:  rtl/totex_direct_top.sv with the node modules as Verilator hier_blocks (compiled once,
///          the generated top wires N of them: rebuilt per topology).
///   flat:  the top Verilated as one model (every node's logic compiled on its own); the only
///          build that traces, so --wave builds it.
/// Measured cold (empty ccache) on the 2-core machine at load 1-2.6 (tests/bench/rtl_build_time.sh;
/// README, RTL model builds): torus:4x4 dynamic 9 s wired against 52 s flat, torus:16x16 dynamic
/// 12 s wired against 54 s hierarchical, and a topology change with the same tile parameters
/// builds nothing.
using schema::RtlBuild;

RtlBuild direct_build(RtlBuild asked, bool wave) {
  // A waveform needs the flat top: the wired build has no single model to trace, and a
  // hierarchical model crashes when traced (Verilator 5.006, VerilatedTrace::addModel called from
  // the hier_block's protect-lib trace; seen on torus:8x8 with --wave, `make run`).
  if (asked == RtlBuild::Auto) return wave ? RtlBuild::Flat : RtlBuild::Wired;
  if (asked == RtlBuild::Hier && wave)
    throw UsageError("TOTEX_RTL_BUILD=hier: a hierarchical model cannot be traced (Verilator 5.006 crashes); "
                     "--wave needs flat");
  if (asked == RtlBuild::Wired && wave)
    throw UsageError("TOTEX_RTL_BUILD=wired: the wired build does not trace; --wave needs flat");
  return asked;
}

/// TOTEX_RTL_THREADS=T: Verilator --threads T for the generated top (flat or hierarchical), added
/// to a build and its cache key when more than one. The wired build ignores it: a tile is too
/// small to share (measured on torus:8x8 dynamic with --threads 2 per tile: 0.4 k edges/s against
/// 50 k), and evaluating the tiles on two threads of this 2-vCPU machine made each tile's
/// evaluation about twice as slow (no gain).
void add_threads(VerilatedBuild& b, int threads) {
  if (threads > 1) {
    b.args.insert(b.args.end(), {"--threads", std::to_string(threads)});
    b.key += "_t" + std::to_string(threads);
  }
}

/// rtl/totex_backdoor.vlt: the memories the backdoor load writes, public in every harness build
/// (one model serves --load port and --load backdoor).
fs::path backdoor_config() { return install_paths().rtl / "totex_backdoor.vlt"; }

/// Builds (if needed) the direct-network harness: rtl/totex_direct_top.sv with the parameters of
/// the run (totex_direct_params.svh, written into the cache directory) and sim/direct_rtl_main.cpp.
fs::path build_direct_model(const RunOptions& o, const std::string& key, const std::string& params_svh, int nodes,
                            bool hier, bool vcd, const std::string& what) {
  const fs::path sim = install_paths().sim;
  const bool trace = !o.wave.empty();
  VerilatedBuild b;
  b.cache_dir = o.env.cache_dir;
  b.key = key;
  b.top = "totex_direct_top";
  b.generated = {{"totex_direct_params.svh", params_svh}};
  b.file_lists = {"direct_top.f"};
  // direct_run.cpp is model-independent: a ccache hit across builds.
  b.cpp = {sim / "direct_rtl_main.cpp", sim / "direct_run.cpp"};
  b.headers = {sim / "direct_run.hpp", sim / "harness_exit.hpp", sim / "direct_backdoor.hpp", sim / "vl_harness.hpp", backdoor_config()};
  b.args = {backdoor_config().string(), "-Wno-WIDTH", "--x-assign", "fast", "--max-num-width",
            std::to_string(std::max<std::size_t>(65536, widest_parameter(params_svh)))};
  // Hierarchical verilation: each node module (totex_direct_node / totex_direct_dyn_node, marked
  // hier_block) is Verilated and compiled once and shared by all N instances, and the top only
  // wires them. Flat, Verilator 5.006 emits every instance's logic as C++ of its own (about 1 MB
  // per dynamic node: torus:8x8 dynamic is 84 MB of C++).
  b.what = what + (hier ? ", hierarchical: one node module compiled, the top wires " + std::to_string(nodes)
                        : ", flat: every node compiled on its own");
  if (hier) {
    b.args.emplace_back("--hierarchical");
    b.args.emplace_back("+define+TOTEX_HIER_SIM");  // the nodes hold their constant inputs in flops
  }
  b.estimate = hier ? "about 1-5 min on 2 cores: each node module is compiled once, the top wires " +
                          std::to_string(nodes) + " of them"
                    : "about 1-3 min on 2 cores for 16 nodes, every node compiled on its own";
  if (trace) b.args.emplace_back(vcd ? "--trace" : "--trace-fst");
  // Verilator's own optimisation at -O3 and the generated C++ at -O1: the network is one large
  // flat eval function, for which higher C++ levels cost build time without much speed.
  b.verilator_opt = "-O3";
  b.makeflags = "OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1";
  add_threads(b, o.env.rtl_threads);
  return build_verilated(b);
}

/// Builds (if needed) the wired harness: rtl/totex_direct_tile.sv at the tile parameters of
/// `layout` and sim/direct_wired_main.cpp; the key names the parameters, not the topology.
fs::path build_wired_model(const RunOptions& o, const DirectLayout& L, const std::string& what) {
  const fs::path sim = install_paths().sim;
  const schema::WiredTileParams tile = schema::WiredTileParams::from(L);
  VerilatedBuild b;
  b.cache_dir = o.env.cache_dir;
  b.key = schema::cache_key("tile", tile);
  b.top = "totex_direct_tile";
  b.file_lists = {"direct.f"};
  b.cpp = {sim / "direct_wired_main.cpp", sim / "direct_run.cpp"};
  b.headers = {sim / "direct_run.hpp", sim / "harness_exit.hpp", sim / "direct_backdoor.hpp", sim / "vl_harness.hpp", backdoor_config()};
  b.args = {backdoor_config().string(), "-Wno-WIDTH", "--x-assign", "fast", "+define+TOTEX_HIER_SIM"};
  for (const std::string& g : schema::verilog_params(tile)) b.args.push_back(g);
  b.what = what + ", wired: one tile (node and controller) compiled, " + std::to_string(L.nodes) +
           " instances wired in C++, reused by every topology with these tile parameters";
  b.estimate = "about 10-30 s on 2 cores, once per tile parameter set";
  b.verilator_opt = "-O3";
  // The tile's C++ at -O2, chosen by measurement (torus:8x8 dynamic, port load, three runs each):
  // 22 k cycles/s against 17-21 k at -O1, 15-19 k at -Os, 19-22 k at -O3; it compiles in 2.5-4 s
  // at any level.
  b.makeflags = "OPT_FAST=-O2 OPT_SLOW=-O0 OPT_GLOBAL=-O1";
  return build_verilated(b);
}

/// Builds (if needed) rtl/totex_min_top.sv for `net` and the run `a` (sim/min_rtl_main.cpp).
fs::path build_min_model(const MinNetwork& net, const schema::MinHarnessArgs& a, const RunOptions& o) {
  const bool vcd = wave_is_vcd(o.wave);
  schema::MinTopParams top;
  top.terminals = net.terminals();
  top.radix = net.radix();
  top.wiring = net.wiring();
  top.mode = o.min_mode;
  top.max_steps = a.max_steps;
  top.payload_bits = a.payload_bits;
  const fs::path sim = install_paths().sim;
  VerilatedBuild b;
  b.cache_dir = o.env.cache_dir;
  b.key = schema::cache_key("min", top) + (o.wave.empty() ? "" : vcd ? "_vcd" : "_fst");
  b.top = "totex_min_top";
  // Tracing only when a waveform is asked for: a traced model dumps nothing without --wave but
  // still pays for the trace bookkeeping on every edge.
  b.args = {backdoor_config().string()};
  for (const std::string& g : schema::verilog_params(top)) b.args.push_back(g);
  b.defines = schema::cpp_defines(top);  // the harness checks its run against them
  if (!o.wave.empty()) b.args.emplace_back(vcd ? "--trace" : "--trace-fst");
  b.file_lists = {"min.f"};
  const std::string mode = schema::enum_name(o.min_mode);
  b.what = "rtl/totex_min_top.sv for " + net.spec() + ", " + mode + " mode, " + std::to_string(a.max_steps) +
           " steps" + (o.wave.empty() ? "" : ", traced");
  // Measured cold on the shared 2-core machine (load 5-8): min:16:4 21 s, min:256:4 241 s.
  b.estimate = net.terminals() <= 16 ? "about 20-60 s on 2 cores"
               : net.terminals() <= 64 ? "about 1-2 min on 2 cores"
                                       : "about 3-5 min on 2 cores for 256 terminals, more above";
  b.cpp = {sim / "min_rtl_main.cpp", sim / "min_run.cpp"};
  b.headers = {sim / "min_run.hpp", sim / "harness_exit.hpp", sim / "vl_harness.hpp", backdoor_config()};
  // Verilator's default C++ flags (-Os): -O1 built min:256:4 in 219 s against 241 s, within the
  // noise of the shared machine, and ran no faster (0.18-0.25 s against 0.14-0.19 s).
  add_threads(b, o.env.rtl_threads);
  return build_verilated(b);
}

class RtlEngine final : public Engine {
 public:
  [[nodiscard]] std::string name() const override { return "rtl"; }
  [[nodiscard]] EngineCaps caps() const override {
    EngineCaps c;
    c.direct_backdoor = c.min_backdoor = c.periodic = c.hardware = c.recover = true;
    return c;
  }

 protected:
  /// rtl/totex_min_top.sv: the schedule file in `o.min_mode`.
  [[nodiscard]] SimResult run_min(const MinNetwork& net, const MinSchedule& s, const RunOptions& o) const override {
    check_wave_writable(o.wave);
    if (o.mode == DirectMode::Dynamic) throw UsageError("--mode dynamic applies to direct networks, not to a MIN");
    const HarnessScheduleFile file(o.schedule_file, [&](std::ostream& out) { write_min_schedule(out, net, s); });
    const schema::MinHarnessArgs a = min_harness_args(net, s, o, file.path());
    const fs::path binary = build_min_model(net, a, o);
    return run_harness(binary, schema::to_argv(a), "the RTL harness " + binary.string(), false, o.wave);
  }

  /// A direct network in the build direct_build() picks (wired tiles by default; the generated
  /// rtl/totex_direct_top.sv for --wave): the schedule file in scheduled mode, or the dynamic
  /// baseline `o.routing` (schedule unused). --periods runs the TDM tile network instead.
  [[nodiscard]] SimResult run_direct(const Topology& t, const Schedule& s, const RunOptions& o) const override {
    if (o.recover) return run_recover_rtl(t, s, o);       // --recover: the ctl tiles and the controller (recover_rtl.cpp)
    if (o.tdm.periods > 0) return run_tdm_rtl(t, s, o);  // --periods: the TDM tile network (tdm_rtl.cpp)
    check_wave_writable(o.wave);
    const HarnessScheduleFile file =
        o.mode == DirectMode::Scheduled
            ? HarnessScheduleFile(o.schedule_file, [&](std::ostream& out) { write_schedule(out, t, s); })
            : HarnessScheduleFile();
    const bool vcd = wave_is_vcd(o.wave);
    const DirectParams p = direct_run_params(t, s, o);
    const RtlBuild build = direct_build(o.env.rtl_build, !o.wave.empty());
    const DirectLayout layout(t, p);
    const std::string what = "the RTL network of " + t.spec() + ", " + to_string(o.mode) +
                             (o.mode == DirectMode::Scheduled ? " " + to_string(p.model) : " " + to_string(p.routing)) +
                             (o.wave.empty() ? "" : ", traced");
    fs::path binary;
    if (build == RtlBuild::Wired) {
      binary = build_wired_model(o, layout, what);
    } else {
      // Tracing roughly doubles the generated code: models without --wave are built without it.
      const schema::WiredTileParams top = schema::WiredTileParams::from(layout, t.links(), true);
      const std::string key = schema::cache_key("direct_" + key_of(t.spec()), top) +
                              (o.wave.empty() ? "" : vcd ? "_vcd" : "_fst") + "_" + schema::enum_name(build);
      binary = build_direct_model(o, key, direct_params_svh(t, layout), t.nodes(), build == RtlBuild::Hier, vcd, what);
    }
    return run_harness(binary, schema::to_argv(direct_harness_args(t, p, file.path(), o)),
                       "the RTL harness " + binary.string(), false, o.wave);
  }
};

}  // namespace

std::unique_ptr<Engine> make_rtl_engine() { return std::make_unique<RtlEngine>(); }

}  // namespace totex::hw
