// SPDX-License-Identifier: Apache-2.0
/// Mixed co-simulation of a direct network (`totex sim --engine cosim`): the Verilated router RTL
/// (rtl/totex_router.sv, or rtl/totex_router_dyn.sv when built with TOTEX_COSIM_DYNAMIC=1), one
/// instance per node, wired per topology at elaboration time next to the SystemC schedule
/// memories, NICs and run controller of sim/systemc/. Built per router parameter set on first use
/// by sw/hw/src/cosim_engine.cpp; usage as sim/direct_run.cpp.
#include <verilated.h>
#if VM_TRACE_FST
#include <verilated_fst_sc.h>
#endif

#include <filesystem>
#include <fstream>
#include <memory>
#include <systemc>
#include <vector>

#include "direct_run.hpp"
#include "systemc/direct_dut.hpp"
#include "totex/error.hpp"
#include "totex/io/output_file.hpp"
#if TOTEX_COSIM_DYNAMIC
#include "cosim/direct_rtl_router_dyn.hpp"
#else
#include "cosim/direct_rtl_router.hpp"
#endif

namespace {

using totex::sim::DirectDynNode;
using totex::sim::DirectNode;

#if TOTEX_COSIM_DYNAMIC
using RtlModel = Vtotex_router_dyn;
#else
using RtlModel = Vtotex_router;
#endif

/// Every Verilated router made, for tracing.
std::vector<RtlModel*>& rtl_models() {
  static std::vector<RtlModel*> models;
  return models;
}

/// The routers of the other mode are never made: the binary holds one Verilated router.
std::unique_ptr<sc_core::sc_module> rtl_router(DirectNode& node) {
#if TOTEX_COSIM_DYNAMIC
  (void)node;
  throw totex::UsageError("this co-simulation was built for --mode dynamic");
#else
  auto r = std::make_unique<totex::sim::DirectRtlRouter>("router", node);
  rtl_models().push_back(&r->rtl());
  return r;
#endif
}

std::unique_ptr<sc_core::sc_module> rtl_dyn_router(DirectDynNode& node) {
#if TOTEX_COSIM_DYNAMIC
  auto r = std::make_unique<totex::sim::DirectRtlRouterDyn>("router", node);
  rtl_models().push_back(&r->rtl());
  return r;
#else
  (void)node;
  throw totex::UsageError("this co-simulation was built for --mode scheduled");
#endif
}

#if VM_TRACE_FST
/// The Verilated routers' own signals go to FILE.rtl.fst next to the SystemC VCD FILE.vcd.
std::unique_ptr<VerilatedFstSc>& rtl_trace() {
  static std::unique_ptr<VerilatedFstSc> trace;
  return trace;
}
#endif

void open_rtl_trace(const std::string& wave) {
  if (wave.empty()) return;
#if VM_TRACE_FST
  const std::filesystem::path p(wave);
  const std::string dump = (p.parent_path() / p.stem()).string() + ".rtl.fst";
  rtl_trace() = std::make_unique<VerilatedFstSc>();
  for (RtlModel* m : rtl_models()) m->trace(rtl_trace().get(), 99);
  rtl_trace()->open(dump.c_str());
  // The view shows the SystemC side and every router port; the routers' insides are in their own dump.
  totex::append_output_file(wave + ".gtkw", "[*] the Verilated routers' own signals: " +
                                                std::filesystem::path(dump).filename().string() + "\n");
#else
  throw totex::UsageError("this co-simulation model was built without tracing");
#endif
}

}  // namespace

int sc_main(int argc, char** argv) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_set_time_resolution(1, sc_core::SC_NS);  // the RTL's timeprecision (--timescale 1ns/1ns)
  VerilatedContext* ctx = Verilated::threadContextp();
  ctx->fatalOnError(false);  // RTL assertion failures are counted, not fatal
  ctx->errorLimit(1 << 30);
  const int rc = totex::sim::direct_main(
      argc, argv, "cosim",
      [ctx](const totex::Topology& t, const totex::DirectLayout& layout, const std::string& wave) {
        if (!wave.empty()) ctx->traceEverOn(true);
        return totex::sim::make_direct_dut(
            t, layout, wave, "cosim", rtl_router, rtl_dyn_router, [ctx] { return ctx->errorCount(); },
            [wave] { open_rtl_trace(wave); });
      });
#if VM_TRACE_FST
  if (rtl_trace()) rtl_trace()->close();
#endif
  return rc;
}
