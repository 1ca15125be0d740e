// SPDX-License-Identifier: Apache-2.0
/// `--engine systemc` and `--engine cosim` for the MIN (the direct-network half is
/// sw/cli/cosim_direct.cpp).
#include "systemc_engine.hpp"

#include <filesystem>

#include "install_paths.hpp"
#include "model_cache.hpp"
#include "totex/error.hpp"

namespace totex::cli {
namespace fs = std::filesystem;

SimResult run_systemc_min(const MinNetwork& net, const MinSchedule& s, const std::string& schedule_file,
                          MinConfigMode mode, const std::string& wave) {
  (void)wave_is_vcd(wave, true);
  const MinHarnessRun run = min_harness_run(net, s, mode, schedule_file, wave);
  return run_systemc_harness(quote(systemc_binary().string()) + run.args, "the SystemC engine", wave);
}

SimResult run_cosim_min(const MinNetwork& net, const MinSchedule& s, const std::string& schedule_file,
                        MinConfigMode mode, CosimSplit split, const std::string& wave) {
  (void)wave_is_vcd(wave, true);
  const MinHarnessRun run = min_harness_run(net, s, mode, schedule_file, wave);
  const bool rtl_network = split == CosimSplit::RtlNetwork;
  const MinPortLayout layout(net, run.max_steps, run.payload_bits);
  const int message_bits = 2 * layout.terminal_bits + layout.step_bits + layout.payload_bits;
  const fs::path sim = install_paths().sim;
  VerilatedBuild b;
  b.systemc = true;
  b.key = "cosim_min_" + std::to_string(net.terminals()) + "_" + std::to_string(net.radix()) + "_" +
          to_string(net.wiring()) + "_s" + std::to_string(run.max_steps) +
          (rtl_network ? "_rtl_network" : "_rtl_nics") + (wave.empty() ? "" : "_trace");
  if (rtl_network) {
    b.top = "totex_banyan";
    b.file_lists = {"min.f"};
    b.args = {"-GN=" + std::to_string(net.terminals()), "-GD=" + std::to_string(net.radix()),
              "-GW=" + std::to_string(message_bits), "-GWiring=" + std::to_string(static_cast<int>(net.wiring())),
              "-GMaxSteps=" + std::to_string(run.max_steps)};
  } else {
    b.top = "totex_nic";
    b.file_lists = {"min.f"};
    b.args = {"-GN=" + std::to_string(net.terminals()), "-GMaxSteps=" + std::to_string(run.max_steps),
              "-GPW=" + std::to_string(run.payload_bits)};
  }
  if (!wave.empty()) b.args.emplace_back("--trace-fst");
  b.defines = std::string("-DTOTEX_COSIM_RTL_NETWORK=") + (rtl_network ? "1" : "0") + " -I" + (sim / "systemc").string();
  b.cpp = {sim / "cosim" / "min_cosim_main.cpp", sim / "min_run.cpp", sim / "systemc" / "min_dut.cpp"};
  for (const char* h : {"min_run.hpp", "systemc/min_dut.hpp", "systemc/min_top.hpp", "systemc/min_ports.hpp",
                        "systemc/min_flit.hpp", "systemc/min_banyan.hpp", "systemc/min_shift_switch.hpp",
                        "systemc/min_switch_state.hpp", "systemc/min_nic.hpp", "systemc/model_check.hpp",
                        "cosim/sc_bits.hpp", "cosim/min_rtl_banyan.hpp", "cosim/min_rtl_nic.hpp"})
    b.headers.push_back(sim / h);
  const fs::path binary = build_verilated(b);
  return run_systemc_harness(quote(binary.string()) + run.args, "the co-simulation harness", wave);
}

}  // namespace totex::cli
