// SPDX-License-Identifier: Apache-2.0
/// `totex rtl`: the TDM network of a schedule as a self-contained folder a user drops into a design
/// (RTL, generated top with AXI4-Stream per node, slot tables, file list, FuseSoC core, Verilator
/// testbench and Makefile, Yosys script, README; docs/ip.md).
#include <iostream>
#include <memory>
#include <string>

#include "cli_common.hpp"
#include "commands.hpp"
#include "totex/error.hpp"
#include "totex/export_rtl.hpp"
#include "totex/tdm_tables.hpp"

namespace totex::cli {
namespace {

struct RtlOptions : CommonOptions {
  int payload = kTdmDefaultPayloadBits;
  int period = 0;
  int rx_depth = 4;
  std::string top = "totex_net";
  std::string out;
  std::string command;
};

int cmd_rtl(const RtlOptions& o) {
  const Network net = parse_spec(o.topo);
  if (std::holds_alternative<MinNetwork>(net))
    throw UsageError("--topo " + o.topo + ": a MIN; `totex rtl` exports TDM networks of direct topologies "
                     "(torus, mesh, hypercube, ...) under --model nic");
  const Topology& t = std::get<Topology>(net);
  const Model model = model_for(net, o.model);
  RtlExportOptions x;
  x.top = o.top;
  x.rx_depth = o.rx_depth;
  x.command = o.command;
  x.version = TOTEX_VERSION;
  {
    Schedule probe;  // the model and network are refused before any schedule search
    probe.model = model;
    check_rtl_export(t, probe, x);
  }
  Schedule s = std::get<Schedule>(make_schedule(net, model, o.algo, o.budget));
  const VerifyReport report = verify(t, s);
  if (!report.ok) throw ToolError("tool: the generated schedule does not verify; run `totex schedule` on it");
  const TdmTables tables = tdm_tables(t, s, o.period, o.payload);
  const RtlExportResult r = export_rtl_folder(t, s, tables, x, o.out);
  json j{{"topology", t.spec()},
         {"model", to_string(s.model)},
         {"algorithm", s.algorithm},
         {"nodes", t.nodes()},
         {"steps", tables.steps},
         {"period", tables.period},
         {"payload", tables.tile.payload_bits},
         {"top", o.top},
         {"out", r.dir},
         {"files", r.files}};
  print(o.json, j, [&] {
    std::cout << t.spec() << ", " << to_string(s.model) << " (" << s.algorithm << ", " << tables.steps
              << " steps, period " << tables.period << "): " << t.nodes() << " TDM tiles as module " << o.top << " in "
              << r.dir << " (" << r.files.size() << " files); there: make (testbench), make lint, make synth\n";
  });
  return 0;
}

}  // namespace

void register_rtl(CLI::App& app, Actions& actions) {
  CLI::App* rtl = app.add_subcommand(
      "rtl", "export the TDM network of a nic schedule as a self-contained folder: RTL, AXI4-Stream top, slot tables, "
             "FuseSoC core, Verilator testbench, Yosys script, README");
  auto opts = std::make_shared<RtlOptions>();
  RtlOptions& o = *opts;
  add_topo_model(rtl, o, true);
  rtl->add_option("--algo", o.algo, "schedule to generate (as for `totex schedule`; default auto)")
      ->check(non_empty("algorithm name", "auto or an algorithm of `totex schedule --help`"));
  rtl->add_option("--budget", o.budget, "seconds the schedule search may take (as for `totex schedule`)")
      ->check(budget_seconds());
  rtl->add_option("--payload", o.payload,
                  "payload bits of a flit, 1..64 (default " + std::to_string(kTdmDefaultPayloadBits) + ")")
      ->check(integer_in(1, 64));
  rtl->add_option("--period", o.period, "slots per period (default: as `totex fpga --tables-out`)")
      ->check(integer_in(1, 1 << 20));
  rtl->add_option("--rx-depth", o.rx_depth, "default words of each node's receive FIFO, a power of two >= 4 (default 4)")
      ->check(integer_in(4, 1 << 16));
  rtl->add_option("--top", o.top, "module name of the network top (default totex_net)");
  rtl->add_option("-o,--out", o.out, "the folder to write: new, or an empty directory")
      ->required()
      ->check(output_path());
  rtl->callback([opts] {
    opts->command = "totex rtl --topo " + opts->topo + (opts->model.empty() ? "" : " --model " + opts->model) +
                    (opts->algo.empty() ? "" : " --algo " + opts->algo) +
                    (opts->payload != kTdmDefaultPayloadBits ? " --payload " + std::to_string(opts->payload) : "") +
                    (opts->period ? " --period " + std::to_string(opts->period) : "") +
                    (opts->top != "totex_net" ? " --top " + opts->top : "") + " -o DIR";
  });
  // The two worked examples every --help ends with (help_examples.cpp registers the others' before this one).
  rtl->footer("\nExamples:\n  totex rtl --topo torus:4x4 --model nic -o net44   (then: cd net44 && make && make lint && make synth)\n"
              "  totex rtl --topo torus:3x3 --model nic --payload 8 --top my_net -o net33 --json\n");
  actions[rtl] = [opts] { return cmd_rtl(*opts); };
}

}  // namespace totex::cli
