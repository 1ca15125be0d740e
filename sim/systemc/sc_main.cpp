// SPDX-License-Identifier: Apache-2.0
/// `totex_systemc`: the pure SystemC engine behind `totex sim --engine systemc`. One process runs one
/// simulation (SystemC elaborates once per process). Its first argument is a subcommand, the
/// harness kind of totex/hw_schema.hpp, and the rest that kind's options:
///   totex_systemc min ...     a MIN (schema::MinHarnessArgs, sim/min_run.hpp)
///   totex_systemc direct ...  a direct network (schema::DirectHarnessArgs, sim/direct_run.hpp)
///   totex_systemc tdm ...     a periodic TDM run (schema::TdmHarnessArgs, tdm_harness.hpp); with
///                             --fault-at F:A-B the recovery run (tdm_recover.hpp)
#include <systemc>

#include <iostream>
#include <string>

#include "direct_dut.hpp"
#include "harness_exit.hpp"
#include "min_dut.hpp"
#include "min_run.hpp"
#include "tdm_harness.hpp"
#include "tdm_recover.hpp"
#include "totex/hw_schema.hpp"

int sc_main(int argc, char** argv) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_set_time_resolution(1, sc_core::SC_NS);  // the RTL's timeprecision (--timescale 1ns/1ns)
  namespace schema = totex::schema;
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == schema::TdmHarnessArgs::harness) {
    for (int i = 2; i < argc; ++i)
      if (std::string(argv[i]) == "--fault-at") return totex::sim::tdm_recover_systemc_main(argc, argv);
    return totex::sim::tdm_systemc_main(argc, argv);
  }
  if (command == schema::MinHarnessArgs::harness)
    return totex::sim::min_main(argc, argv, "systemc", totex::sim::make_systemc_min_dut);
  if (command == schema::DirectHarnessArgs::harness)
    return totex::sim::direct_main(argc, argv, "systemc", totex::sim::make_systemc_direct_dut);
  std::cerr << "totex_systemc: usage: totex_systemc " << schema::MinHarnessArgs::harness << "|"
            << schema::DirectHarnessArgs::harness << "|" << schema::TdmHarnessArgs::harness
            << " --option value ... (the harness arguments of totex/hw_schema.hpp)\n";
  return totex::sim::kHarnessUsageExit;
}
