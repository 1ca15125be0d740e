// SPDX-License-Identifier: Apache-2.0
/// Two worked examples at the end of every --help: a new user's first question is "what do I type".
#include <map>
#include <string>

#include "cli_common.hpp"

namespace totex::cli {

void add_help_examples(CLI::App& app) {
  const std::map<std::string, std::string> examples = {
      {"", "totex schedule --topo torus:8x8 --model all-port -o t8.tbl\n"
           "  totex sim --topo min:64:4 --engine rtl --wave min64.fst"},
      {"bound", "totex bound --topo torus:8x8 --model nic\n"
                "  totex bound --topo mesh:4x4 --model single-port --json"},
      {"schedule", "totex schedule --topo torus:4x4 --model nic -o t4.sched\n"
                   "  totex schedule --topo min:64:4 -o min64.cfg   (min:N:D is omega unless a wiring is given)"},
      {"verify", "totex verify t4.sched\n"
                 "  totex verify --json min64.cfg"},
      {"load", "totex load --torus 8x8x8 --placement linear --routing odr\n"
               "  totex load --torus 6x6x6 --placement multiple:2 --routing udr --json"},
      {"sim", "totex sim --topo torus:4x4 --model nic --engine rtl --plot cycles.svg\n"
              "  totex sim --schedule min64.cfg --engine systemc --wave min64.vcd"},
      {"fpga", "totex fpga --topo torus:4x4 --model nic\n"
               "  totex fpga --topo torus:8x8 --model all-port --device hx8k --json   (the all-port tile)"},
      {"plot", "totex plot --topo torus:8x8 --model nic --kind heatmap -o t8-heatmap.svg\n"
               "  totex plot min64.cfg --kind viewer -o min64.html   (open it in a browser; #step=5 selects step 5)"},
  };
  auto footer = [&](CLI::App* a, const std::string& name) {
    if (const auto it = examples.find(name); it != examples.end()) a->footer("\nExamples:\n  " + it->second + "\n");
  };
  footer(&app, "");
  for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) footer(sub, sub->get_name());
}

}  // namespace totex::cli
