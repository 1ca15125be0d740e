// SPDX-License-Identifier: Apache-2.0
/// `cosim`: SystemC tops with a Verilated half (sim/cosim/), built per parameter set on first use
/// like `rtl`. MIN: the banyan (rtl-network) or the NICs (rtl-nics) are RTL. Direct networks:
/// Verilated routers (rtl/totex_router.sv or totex_router_dyn.sv, built with --sc) next to the
/// SystemC NICs, schedule memories and controller; the harness is sim/direct_run.cpp's, with the
/// arguments `rtl` passes.
#include <algorithm>
#include <filesystem>

#include "harness.hpp"
#include "install_paths.hpp"
#include "model_cache.hpp"
#include "totex/error.hpp"
#include "totex/io/schedule_io.hpp"

namespace totex::hw {
namespace {

namespace fs = std::filesystem;

class CosimEngine final : public Engine {
 public:
  [[nodiscard]] std::string name() const override { return "cosim"; }
  [[nodiscard]] EngineCaps caps() const override {
    EngineCaps c;
    c.hardware = true;
    return c;
  }

 protected:
  [[nodiscard]] SimResult run_min(const MinNetwork& net, const MinSchedule& s, const RunOptions& o) const override {
    check_wave_writable(o.wave);
    if (o.mode == DirectMode::Dynamic) throw UsageError("--mode dynamic applies to direct networks, not to a MIN");
    const HarnessScheduleFile file(o.schedule_file, [&](std::ostream& out) { write_min_schedule(out, net, s); });
    (void)wave_is_vcd(o.wave, true);
    const schema::MinHarnessArgs run = min_harness_args(net, s, o, file.path());
    schema::MinCosimParams half;
    half.rtl_network = o.split == CosimSplit::RtlNetwork;
    half.terminals = net.terminals();
    half.radix = net.radix();
    half.wiring = net.wiring();
    half.message_bits = MinPortLayout(net, run.max_steps, run.payload_bits).message_bits();
    half.max_steps = run.max_steps;
    half.payload_bits = run.payload_bits;
    const fs::path sim = install_paths().sim;
    VerilatedBuild b;
    b.cache_dir = o.env.cache_dir;
    b.systemc = true;
    b.key = schema::cache_key("cosim_min", half) + (o.wave.empty() ? "" : "_trace");
    b.top = half.rtl_network ? "totex_banyan" : "totex_nic";
    b.file_lists = {"min.f"};
    b.args = schema::verilog_params(half);
    if (!o.wave.empty()) b.args.emplace_back("--trace-fst");
    b.defines = schema::cpp_defines(half) + " -I" + (sim / "systemc").string();  // TOTEX_COSIM_RTL_NETWORK
    b.cpp = {sim / "cosim" / "min_cosim_main.cpp", sim / "min_run.cpp", sim / "systemc" / "min_dut.cpp"};
    for (const char* h : {"min_run.hpp", "harness_exit.hpp", "systemc/min_dut.hpp", "systemc/min_top.hpp", "systemc/min_ports.hpp",
                          "systemc/min_flit.hpp", "systemc/min_banyan.hpp", "systemc/min_shift_switch.hpp",
                          "systemc/min_switch_state.hpp", "systemc/min_nic.hpp", "systemc/model_check.hpp",
                          "cosim/sc_bits.hpp", "cosim/min_rtl_banyan.hpp", "cosim/min_rtl_nic.hpp"})
      b.headers.push_back(sim / h);
    const fs::path binary = build_verilated(b);
    return run_harness(binary, schema::to_argv(run), "the co-simulation harness", true, o.wave);
  }

  [[nodiscard]] SimResult run_direct(const Topology& t, const Schedule& s, const RunOptions& o) const override {
    check_wave_writable(o.wave);
    if (o.split != CosimSplit::RtlNetwork)
      throw UsageError("--cosim-split rtl-nics is available for MINs; direct networks co-simulate RTL routers");
    const HarnessScheduleFile file =
        o.mode == DirectMode::Scheduled
            ? HarnessScheduleFile(o.schedule_file, [&](std::ostream& out) { write_schedule(out, t, s); })
            : HarnessScheduleFile();
    (void)wave_is_vcd(o.wave, true);
    const DirectParams p = direct_run_params(t, s, o);
    const DirectLayout l(t, p);
    if (t.nodes() > kMaxDirectRtlNodes)
      throw UsageError(t.spec() + " has " + std::to_string(t.nodes()) + " nodes; the RTL network is built for at most " +
                       std::to_string(kMaxDirectRtlNodes));
    const fs::path sim = install_paths().sim;
    const bool dynamic = o.mode == DirectMode::Dynamic;
    // One Verilated router serves every node (all ports connected; see sim/cosim/direct_rtl_router.hpp),
    // so the build depends on the router's parameters only, not on the topology.
    VerilatedBuild b;
    b.cache_dir = o.env.cache_dir;
    b.systemc = true;
    b.file_lists = {"direct.f"};
    const schema::CosimRouterParams router = schema::CosimRouterParams::from(l);
    b.top = dynamic ? "totex_router_dyn" : "totex_router";
    b.key = schema::cache_key("cosim_direct", router);
    b.args = schema::verilog_params(router);
    if (!o.wave.empty()) {  // the routers' own signals, next to the SystemC VCD
      b.args.emplace_back("--trace-fst");
      b.key += "_trace";
    }
    b.defines = schema::cpp_defines(router);  // TOTEX_COSIM_DYNAMIC: which router the harness wraps
    b.cpp = {sim / "cosim" / "direct_cosim_main.cpp", sim / "direct_run.cpp"};
    b.headers = {sim / "direct_run.hpp", sim / "harness_exit.hpp", sim / "cosim" / "sc_bits.hpp", sim / "cosim" / "direct_rtl_router.hpp",
                 sim / "cosim" / "direct_rtl_router_dyn.hpp"};
    std::vector<fs::path> models;
    for (const auto& e : fs::directory_iterator(sim / "systemc"))
      if (e.path().filename().string().rfind("direct_", 0) == 0) models.push_back(e.path());
    std::sort(models.begin(), models.end());  // a stable command line: the fingerprint includes it
    for (const fs::path& f : models) (f.extension() == ".cpp" ? b.cpp : b.headers).push_back(f);
    const fs::path binary = build_verilated(b);
    return run_harness(binary, schema::to_argv(direct_harness_args(t, p, file.path(), o)), "the co-simulation harness",
                       true, o.wave);
  }
};

}  // namespace

std::unique_ptr<Engine> make_cosim_engine() { return std::make_unique<CosimEngine>(); }

}  // namespace totex::hw
