// SPDX-License-Identifier: Apache-2.0
/// `totex rtl`: a TDM network as a self-contained folder a user drops into a design (docs/ip.md):
/// the RTL it needs (copied), a generated network top with one nic TDM tile per node wired as the
/// schedule assumes and one AXI4-Stream pair per node, the slot tables as $readmemh images, a file
/// list, a FuseSoC CAPI2 core, a Verilator testbench with its Makefile (`make`, `make lint`,
/// `make synth`), a Yosys script for iCE40 and a README of the ports and the cycle contract.
#pragma once
#include <string>
#include <vector>

#include "totex/network/topology.hpp"
#include "totex/schedule.hpp"
#include "totex/tdm_tables.hpp"

namespace totex {

struct RtlExportOptions {
  std::string top = "totex_net";  // the network top's module name (and the .core's name)
  int rx_depth = 4;               // RxDepth default: words of each node's receive FIFO
  int tb_periods = 6;             // the testbench's default number of periods (+periods=K)
  std::string command;            // the command line that made the folder (README, export.json)
  std::string version;            // totex's version
};

struct RtlExportResult {
  std::string dir;                 // the folder written
  std::vector<std::string> files;  // every file in it, relative to dir
};

/// Refuses (UsageError, naming what is accepted) what the export cannot honour completely: a model
/// other than nic, a partially populated network, a pair the schedule does not carry, a module
/// name that is not a plain identifier.
void check_rtl_export(const Topology& t, const Schedule& s, const RtlExportOptions& o);

/// Writes the folder `dir`, which must not exist or be empty (UsageError otherwise), from the
/// folded tables of `s` on `t`: everything is written into a new directory beside `dir` and
/// renamed into place, so `dir` is either the whole folder or absent. The RTL is copied from the
/// rtl tree totex finds (installed or the source tree's).
RtlExportResult export_rtl_folder(const Topology& t, const Schedule& s, const TdmTables& tables,
                                  const RtlExportOptions& o, const std::string& dir);

}  // namespace totex
