// SPDX-License-Identifier: Apache-2.0
/// `--engine systemc` and `--engine cosim` for direct networks: the SystemC models of sim/systemc/
/// (build/bin/totex_systemc, one binary for every topology) and the co-simulation of
/// sim/cosim/direct_cosim_main.cpp (Verilated routers, SystemC NICs, schedule memories and
/// controller), built on first use per router parameter set. Both run the harness of
/// sim/direct_run.cpp with the arguments `--engine rtl` passes to its harness.
#include <algorithm>
#include <filesystem>

#include "install_paths.hpp"
#include "model_cache.hpp"
#include "systemc_engine.hpp"
#include "totex/error.hpp"

namespace totex::cli {
namespace fs = std::filesystem;

SimResult run_systemc_direct(const Topology& t, const Schedule& s, const std::string& schedule_file, DirectMode mode,
                             const std::string& wave, DynamicRouting routing) {
  (void)wave_is_vcd(wave, true);
  const DirectParams p = direct_run_params(t, s, mode, routing);
  const DirectLayout layout(t, p);  // usage errors (payload width, address width) before the run
  return run_systemc_harness(quote(systemc_binary().string()) + direct_harness_args(t, p, schedule_file, wave), "the SystemC engine", wave);
}

SimResult run_cosim_direct(const Topology& t, const Schedule& s, const std::string& schedule_file, DirectMode mode,
                           const std::string& wave, DynamicRouting routing) {
  (void)wave_is_vcd(wave, true);
  const DirectParams p = direct_run_params(t, s, mode, routing);
  const DirectLayout l(t, p);
  if (t.nodes() > kMaxDirectRtlNodes)
    throw UsageError(t.spec() + " has " + std::to_string(t.nodes()) + " nodes; the RTL network is built for at most " +
                     std::to_string(kMaxDirectRtlNodes));
  const fs::path sim = install_paths().sim;
  const bool dynamic = mode == DirectMode::Dynamic;
  // One Verilated router serves every node (all ports connected; see sim/cosim/direct_rtl_router.hpp),
  // so the build depends on the router's parameters only, not on the topology.
  VerilatedBuild b;
  b.systemc = true;
  b.file_lists = {"direct.f"};
  if (!dynamic) {
    b.top = "totex_router";
    b.key = "cosim_direct_p" + std::to_string(l.ports) + "_l" + std::to_string(l.lanes) + "_mw" +
            std::to_string(l.msg_bits) + "_" + to_string(p.model) + "_iw" + std::to_string(l.node_bits) + "_s" +
            std::to_string(l.step_bits);
    b.args = {"-GNumPorts=" + std::to_string(l.ports), "-GNumLanes=" + std::to_string(l.lanes),
              "-GMW=" + std::to_string(l.msg_bits), "-GModel=" + std::to_string(static_cast<int>(p.model)),
              "-GIdW=" + std::to_string(l.node_bits), "-GStepW=" + std::to_string(l.step_bits)};
  } else {
    b.top = "totex_router_dyn";
    b.key = "cosim_direct_dyn_p" + std::to_string(l.ports) + "_n" + std::to_string(l.nodes) + "_pw" +
            std::to_string(p.payload_bits) + "_v" + std::to_string(l.vcs) + "_a" + std::to_string(l.adaptive_vcs) +
            "_f" + std::to_string(p.fifo_depth);
    b.args = {"-GNumPorts=" + std::to_string(l.ports), "-GN=" + std::to_string(l.nodes),
              "-GPW=" + std::to_string(p.payload_bits), "-GNumVcs=" + std::to_string(l.vcs),
              "-GAdaptiveVcs=" + std::to_string(l.adaptive_vcs), "-GDepth=" + std::to_string(p.fifo_depth)};
  }
  if (!wave.empty()) {  // the routers' own signals, next to the SystemC VCD
    b.args.emplace_back("--trace-fst");
    b.key += "_trace";
  }
  b.defines = std::string("-DTOTEX_COSIM_DYNAMIC=") + (dynamic ? "1" : "0");
  b.cpp = {sim / "cosim" / "direct_cosim_main.cpp", sim / "direct_run.cpp"};
  b.headers = {sim / "direct_run.hpp", sim / "cosim" / "sc_bits.hpp", sim / "cosim" / "direct_rtl_router.hpp",
               sim / "cosim" / "direct_rtl_router_dyn.hpp"};
  std::vector<fs::path> models;
  for (const auto& e : fs::directory_iterator(sim / "systemc"))
    if (e.path().filename().string().rfind("direct_", 0) == 0) models.push_back(e.path());
  std::sort(models.begin(), models.end());  // a stable command line: the fingerprint includes it
  for (const fs::path& f : models) (f.extension() == ".cpp" ? b.cpp : b.headers).push_back(f);
  const fs::path binary = build_verilated(b);
  return run_systemc_harness(quote(binary.string()) + direct_harness_args(t, p, schedule_file, wave), "the co-simulation harness",
                     wave);
}

}  // namespace totex::cli
