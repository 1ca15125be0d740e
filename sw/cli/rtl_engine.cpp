// SPDX-License-Identifier: Apache-2.0
#include "rtl_engine.hpp"

#include <filesystem>

#include "install_paths.hpp"
#include "model_cache.hpp"
#include "totex/error.hpp"

namespace totex::cli {
namespace {

namespace fs = std::filesystem;

/// Builds (if needed) the direct-network harness: rtl/totex_direct_top.sv with the parameters of
/// the run (totex_direct_params.svh, written into the cache directory) and sim/direct_rtl_main.cpp.
fs::path build_direct_model(const std::string& key, const std::string& params_svh, bool trace, bool vcd) {
  const fs::path sim = install_paths().sim;
  VerilatedBuild b;
  b.key = key;
  b.top = "totex_direct_top";
  b.generated = {{"totex_direct_params.svh", params_svh}};
  b.file_lists = {"direct_top.f"};
  // direct_run.cpp is model-independent: a ccache hit across builds.
  b.cpp = {sim / "direct_rtl_main.cpp", sim / "direct_run.cpp"};
  b.headers = {sim / "direct_run.hpp", sim / "vl_harness.hpp"};
  b.args = {"-Wno-WIDTH", "--x-assign fast"};
  if (trace) b.args.emplace_back(vcd ? "--trace" : "--trace-fst");
  // Verilator's own optimisation at -O3 and the generated C++ at -O1: the network is one large
  // flat eval function, for which higher C++ levels cost build time without much speed.
  b.verilator_opt = "-O3";
  b.makeflags = "OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1";
  return build_verilated(b);
}

}  // namespace

SimResult run_rtl_min(const MinNetwork& net, const MinSchedule& s, const std::string& schedule_file,
                      MinConfigMode mode, const std::string& wave) {
  const bool vcd = wave_is_vcd(wave);
  const MinHarnessRun run = min_harness_run(net, s, mode, schedule_file, wave);
  const int mode_id = mode == MinConfigMode::Table ? 0 : 1;
  const int wiring = static_cast<int>(net.wiring());
  const fs::path sim = install_paths().sim;
  VerilatedBuild b;
  b.key = "min_" + std::to_string(net.terminals()) + "_" + std::to_string(net.radix()) + "_" +
          to_string(net.wiring()) + (mode_id ? "_computed" : "_table") + "_s" + std::to_string(run.max_steps) +
          (vcd ? "_vcd" : "_fst");
  b.top = "totex_min_top";
  b.args = {vcd ? "--trace" : "--trace-fst", "-GN=" + std::to_string(net.terminals()),
            "-GD=" + std::to_string(net.radix()), "-GPW=" + std::to_string(run.payload_bits),
            "-GWiring=" + std::to_string(wiring), "-GMode=" + std::to_string(mode_id),
            "-GMaxSteps=" + std::to_string(run.max_steps)};
  b.defines = "-DTOTEX_N=" + std::to_string(net.terminals()) + " -DTOTEX_D=" + std::to_string(net.radix()) +
              " -DTOTEX_WIRING=" + std::to_string(wiring) + " -DTOTEX_MODE=" + std::to_string(mode_id) +
              " -DTOTEX_MAX_STEPS=" + std::to_string(run.max_steps) + " -DTOTEX_PW=" + std::to_string(run.payload_bits);
  b.file_lists = {"min.f"};
  b.cpp = {sim / "min_rtl_main.cpp", sim / "min_run.cpp"};
  b.headers = {sim / "min_run.hpp", sim / "vl_harness.hpp"};
  const fs::path binary = build_verilated(b);
  const auto [out, rc] = capture(quote(binary.string()) + run.args);
  if (rc == 2 || out.empty()) throw UsageError("the RTL harness could not run " + schedule_file);
  SimResult r = parse_result(out, binary.string());
  r.wave = wave;
  return r;
}

}  // namespace totex::cli

namespace totex::cli {

SimResult run_rtl_direct(const Topology& t, const Schedule& s, const std::string& schedule_file, DirectMode mode,
                         const std::string& wave, DynamicRouting routing) {
  const bool vcd = wave_is_vcd(wave);
  const DirectParams p = direct_run_params(t, s, mode, routing);
  std::string key = "direct_" + key_of(t.spec()) + "_" + to_string(mode);
  if (mode == DirectMode::Scheduled)
    key += "_" + to_string(p.model) + "_d" + std::to_string(p.depth) + "_b" + std::to_string(p.buffer_slots);
  else
    key += "_" + to_string(p.routing) + "_f" + std::to_string(p.fifo_depth);
  // Tracing roughly doubles the generated code: models without --wave are built without it.
  key += wave.empty() ? "" : vcd ? "_vcd" : "_fst";
  const DirectLayout layout(t, p);
  const fs::path binary = build_direct_model(key, direct_params_svh(t, layout), !wave.empty(), vcd);
  const std::string command = quote(binary.string()) + direct_harness_args(t, p, schedule_file, wave);
  const auto [out, rc] = capture(command);
  if (rc == 2 || out.empty()) throw UsageError("the RTL harness could not run " + t.spec());
  SimResult r = parse_result(out, binary.string());
  r.wave = wave;
  return r;
}

}  // namespace totex::cli
