// SPDX-License-Identifier: Apache-2.0
/// `totex_systemc`: the pure SystemC engine behind `totex sim --engine systemc`. One process runs one
/// simulation (SystemC elaborates once per process). A MIN run takes the arguments of
/// sim/min_run.hpp (--schedule ... --min-mode ... --max-steps ...); a direct network those of
/// sim/direct_run.cpp (--topo ... --mode ...); a periodic TDM run (--periods K) those of
/// tdm_harness.hpp.
#include <systemc>

#include <cstring>

#include "direct_dut.hpp"
#include "min_dut.hpp"
#include "min_run.hpp"
#include "tdm_harness.hpp"

int sc_main(int argc, char** argv) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_set_time_resolution(1, sc_core::SC_NS);  // the RTL's timeprecision (--timescale 1ns/1ns)
  bool direct = false, periodic = false;
  for (int i = 1; i < argc; ++i) {
    direct = direct || std::strcmp(argv[i], "--topo") == 0;
    periodic = periodic || std::strcmp(argv[i], "--periods") == 0;
  }
  if (periodic) return totex::sim::tdm_systemc_main(argc, argv);
  if (!direct) return totex::sim::min_main(argc, argv, "systemc", totex::sim::make_systemc_min_dut);
  return totex::sim::direct_main(argc, argv, "systemc", totex::sim::make_systemc_direct_dut);
}
