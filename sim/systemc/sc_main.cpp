// SPDX-License-Identifier: Apache-2.0
/// `totex_systemc`: the pure SystemC engine behind `totex sim --engine systemc`. One process runs one
/// simulation (SystemC elaborates once per process). A MIN run takes the arguments of
/// sim/min_run.hpp (--schedule ... --min-mode ... --max-steps ...); a direct network those of
/// sim/direct_run.cpp (--topo ... --mode ...).
#include <systemc>

#include <cstring>

#include "direct_dut.hpp"
#include "min_dut.hpp"
#include "min_run.hpp"

int sc_main(int argc, char** argv) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_set_time_resolution(1, sc_core::SC_NS);  // the RTL's timeprecision (--timescale 1ns/1ns)
  bool direct = false;
  for (int i = 1; i < argc; ++i) direct = direct || std::strcmp(argv[i], "--topo") == 0;
  if (!direct) return totex::sim::min_main(argc, argv, "systemc", totex::sim::make_systemc_min_dut);
  return totex::sim::direct_main(argc, argv, "systemc", totex::sim::make_systemc_direct_dut);
}
