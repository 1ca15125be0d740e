// SPDX-License-Identifier: Apache-2.0
/// MIN co-simulation (`totex sim --engine cosim`): the SystemC top of sim/systemc/min_top.hpp with
/// one half replaced by Verilated RTL (`verilator --sc`), chosen when the model is built:
///   TOTEX_COSIM_RTL_NETWORK = 1: rtl/totex_banyan.sv as the network, SystemC NICs;
///   TOTEX_COSIM_RTL_NETWORK = 0: SystemC banyan, rtl/totex_nic.sv as every NIC.
/// Built per parameter set by sw/hw/src/cosim_engine.cpp; usage: see sim/min_run.hpp. With --wave
/// FILE.vcd the SystemC signals go to FILE.vcd (with FILE.vcd.gtkw) and the RTL's own signals to
/// FILE.rtl.fst.
#include <systemc>
#include <verilated.h>
#if VM_TRACE_FST
#include <verilated_fst_sc.h>
#endif

#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

#include "min_dut.hpp"
#include "min_run.hpp"
#include "totex/error.hpp"
#include "totex/io/output_file.hpp"
#if TOTEX_COSIM_RTL_NETWORK
#include "min_nic.hpp"
#include "min_rtl_banyan.hpp"
#else
#include "min_banyan.hpp"
#include "min_rtl_nic.hpp"
#endif

namespace {

/// The DUT plus what the RTL half adds: its assertion count and its FST trace.
class CosimMin final : public totex::sim::MinDut {
 public:
  CosimMin(const totex::MinNetwork& net, const totex::sim::MinBuild& build, const std::string& wave) {
    const totex::MinPortLayout layout(net, build.max_steps, build.payload_bits);
    auto* ctx = Verilated::defaultContextp();
    ctx->fatalOnError(false);  // RTL assertion failures are counted, not fatal
    ctx->errorLimit(1 << 30);
    if (!wave.empty()) ctx->traceEverOn(true);
#if TOTEX_COSIM_RTL_NETWORK
    auto make_network = [&](const char* name) -> std::unique_ptr<totex::sim::MinNetworkPorts> {
      auto m = std::make_unique<totex::sim::MinRtlBanyan>(name, net, layout);
      rtl_.push_back(&m->rtl());
      return m;
    };
    auto make_nic = [&](const char* name, int t) -> std::unique_ptr<totex::sim::MinNicPorts> {
      return std::make_unique<totex::sim::MinNic>(name, t, net.terminals(), layout, build.max_steps);
    };
#else
    auto make_network = [&](const char* name) -> std::unique_ptr<totex::sim::MinNetworkPorts> {
      return std::make_unique<totex::sim::MinBanyan>(name, net);
    };
    auto make_nic = [&](const char* name, int t) -> std::unique_ptr<totex::sim::MinNicPorts> {
      auto m = std::make_unique<totex::sim::MinRtlNic>(name, t, layout);
      rtl_.push_back(&m->rtl());
      return m;
    };
#endif
    dut_ = totex::sim::make_min_top_dut(net, build, wave, make_network, make_nic, [&] {
      if (wave.empty()) return;
#if VM_TRACE_FST
      const std::filesystem::path p(wave);
      fst_ = std::make_unique<VerilatedFstSc>();
      for (auto* m : rtl_) m->trace(fst_.get(), 99);
      const std::string rtl_dump = (p.parent_path() / p.stem()).string() + ".rtl.fst";
      fst_->open(rtl_dump.c_str());
      // The view shows the SystemC top and the boundary signals; the RTL's insides are in their own dump.
      totex::append_output_file(wave + ".gtkw", "[*] the Verilated half's own signals: " +
                                                    std::filesystem::path(rtl_dump).filename().string() + " (gtkwave " +
                                                    std::filesystem::path(rtl_dump).filename().string() + ")\n");
#else
      throw totex::UsageError("this co-simulation model was built without tracing");
#endif
    });
  }
  CosimMin(const CosimMin&) = delete;
  CosimMin& operator=(const CosimMin&) = delete;
  ~CosimMin() override {
#if VM_TRACE_FST
    if (fst_) fst_->close();
#endif
  }

  void write(std::uint64_t addr, std::uint64_t data) override { dut_->write(addr, data); }
  void set_start(bool start, int phase) override { dut_->set_start(start, phase); }
  void tick() override { dut_->tick(); }
  bool busy() override { return dut_->busy(); }
  bool done() override { return dut_->done(); }
  bool error() override { return dut_->error(); }
  void ejects(std::vector<totex::sim::MinEject>& out) override { dut_->ejects(out); }
  int assertion_failures() override {
    return dut_->assertion_failures() + static_cast<int>(Verilated::defaultContextp()->errorCount());
  }
  std::uint64_t edges() override { return dut_->edges(); }

 private:
  using RtlModule =
#if TOTEX_COSIM_RTL_NETWORK
      Vtotex_banyan;
#else
      Vtotex_nic;
#endif
  std::vector<RtlModule*> rtl_;
#if VM_TRACE_FST
  std::unique_ptr<VerilatedFstSc> fst_;
#endif
  std::unique_ptr<totex::sim::MinDut> dut_;
};

}  // namespace

int sc_main(int argc, char** argv) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_set_time_resolution(1, sc_core::SC_NS);  // the RTL's timeprecision (--timescale 1ns/1ns)
  return totex::sim::min_main(argc, argv, "cosim",
                              [](const totex::MinNetwork& net, const totex::sim::MinBuild& build,
                                 const std::string& wave) -> std::unique_ptr<totex::sim::MinDut> {
                                return std::make_unique<CosimMin>(net, build, wave);
                              });
}
