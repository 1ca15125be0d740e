// SPDX-License-Identifier: Apache-2.0
/// Mixed co-simulation of a direct network (`totex sim --engine cosim`): the Verilated router RTL
/// (rtl/totex_router.sv, or rtl/totex_router_dyn.sv when built with TOTEX_COSIM_DYNAMIC=1), one
/// instance per node, wired per topology at elaboration time next to the SystemC schedule
/// memories, NICs and run controller of sim/systemc/. Built per router parameter set on first use
/// by sw/cli/cosim_direct.cpp; usage as sim/direct_run.cpp.
#include <verilated.h>

#include <memory>
#include <systemc>

#include "direct_run.hpp"
#include "systemc/direct_dut.hpp"
#include "totex/error.hpp"
#if TOTEX_COSIM_DYNAMIC
#include "cosim/direct_rtl_router_dyn.hpp"
#else
#include "cosim/direct_rtl_router.hpp"
#endif

namespace {

using totex::sim::DirectDynNode;
using totex::sim::DirectNode;

/// The routers of the other mode are never made: the binary holds one Verilated router.
std::unique_ptr<sc_core::sc_module> rtl_router(DirectNode& node) {
#if TOTEX_COSIM_DYNAMIC
  (void)node;
  throw totex::UsageError("this co-simulation was built for --mode dynamic");
#else
  return std::make_unique<totex::sim::DirectRtlRouter>("router", node);
#endif
}

std::unique_ptr<sc_core::sc_module> rtl_dyn_router(DirectDynNode& node) {
#if TOTEX_COSIM_DYNAMIC
  return std::make_unique<totex::sim::DirectRtlRouterDyn>("router", node);
#else
  (void)node;
  throw totex::UsageError("this co-simulation was built for --mode scheduled");
#endif
}

}  // namespace

int sc_main(int argc, char** argv) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_set_time_resolution(1, sc_core::SC_NS);  // the RTL's timeprecision (--timescale 1ns/1ns)
  VerilatedContext* ctx = Verilated::threadContextp();
  ctx->fatalOnError(false);  // RTL assertion failures are counted, not fatal
  ctx->errorLimit(1 << 30);
  return totex::sim::direct_main(
      argc, argv, "cosim",
      [ctx](const totex::Topology& t, const totex::DirectLayout& layout, const std::string& wave) {
        return totex::sim::make_direct_dut(t, layout, wave, "cosim", rtl_router, rtl_dyn_router,
                                           [ctx] { return ctx->errorCount(); });
      });
}
