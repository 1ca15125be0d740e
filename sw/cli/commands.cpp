// SPDX-License-Identifier: Apache-2.0
#include "commands.hpp"

#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "totex/bounds.hpp"
#include "totex/distance.hpp"
#include "totex/error.hpp"
#include "totex/generators.hpp"
#include "totex/schedule_io.hpp"
#include "totex/spec.hpp"
#include "totex/verify.hpp"

namespace totex::cli {
namespace {

using nlohmann::json;

struct Options {
  std::string topo;
  std::string model;
  std::string algo;
  std::string output;
  std::string file;
  bool json = false;
};
Options opts;
std::map<const CLI::App*, std::function<int()>> actions;

json bound_json(const LowerBound& lb) {
  json terms = json::array();
  for (const BoundTerm& t : lb.terms) terms.push_back({{"name", t.name}, {"value", t.value}, {"detail", t.detail}});
  return terms;
}

json errors_json(const VerifyReport& r) {
  json errors = json::array();
  for (const Violation& v : r.violations) errors.push_back(v.text);
  if (r.violation_count > static_cast<std::int64_t>(r.violations.size()))
    errors.push_back("... and " + std::to_string(r.violation_count - static_cast<std::int64_t>(r.violations.size())) +
                     " more");
  return errors;
}

void print(const json& j, const std::function<void()>& human) {
  if (opts.json)
    std::cout << j.dump(2) << '\n';
  else
    human();
}

/// The model a MIN runs under, or the one the user named.
Model model_for(const Network& net) {
  if (std::holds_alternative<MinNetwork>(net)) {
    if (!opts.model.empty() && opts.model != "nic")
      throw UsageError("--model: a MIN runs under the nic model only, got '" + opts.model + "'");
    return Model::Nic;
  }
  if (opts.model.empty()) throw UsageError("--model is required: single-port | all-port | nic");
  return parse_model(opts.model);
}

int cmd_bound() {
  const Network net = parse_spec(opts.topo);
  const Model model = model_for(net);
  json j{{"topology", opts.topo}, {"model", to_string(model)}};
  LowerBound lb;
  if (const auto* min = std::get_if<MinNetwork>(&net)) {
    lb = lower_bound(*min);
    j["nodes"] = min->terminals();
    j["stages"] = min->stages();
  } else {
    const auto& t = std::get<Topology>(net);
    lb = lower_bound(t, model);
    const std::int64_t sg = total_status(t);
    j["nodes"] = t.nodes();
    j["directed_links"] = t.links();
    j["total_status"] = sg;
    j["average_status"] = static_cast<double>(sg) / t.nodes();
  }
  j["lower_bound"] = lb.steps;
  j["bounds"] = bound_json(lb);
  print(j, [&] {
    std::cout << opts.topo << " (" << j["nodes"] << " nodes), " << to_string(model) << ": lower bound " << lb.steps
              << " steps\n";
    for (const BoundTerm& t : lb.terms) std::cout << "  " << t.name << " >= " << t.value << "  (" << t.detail << ")\n";
  });
  return 0;
}

void write_file(const std::function<void(std::ostream&)>& writer) {
  if (opts.output.empty()) return;
  std::ofstream out(opts.output);
  if (!out) throw UsageError("-o: cannot write '" + opts.output + "'");
  writer(out);
  if (!out) throw UsageError("-o: error while writing '" + opts.output + "'");
}

int cmd_schedule() {
  const Network net = parse_spec(opts.topo);
  const Model model = model_for(net);
  json j{{"topology", opts.topo}, {"model", to_string(model)}};
  VerifyReport report;
  LowerBound lb;
  std::string algo = opts.algo;
  if (const auto* min = std::get_if<MinNetwork>(&net)) {
    if (algo.empty()) algo = "latin";
    MinSchedule s;
    if (algo == "latin") s = latin_schedule(*min, zero_m0(*min));
    else if (algo == "pairwise") s = pairwise_schedule(*min);
    else throw UsageError("--algo '" + algo + "' is not available for a MIN: expected latin | pairwise");
    report = verify(*min, s);
    lb = lower_bound(*min);
    j["nodes"] = min->terminals();
    j["configurations"] = s.configurations.size();
    write_file([&](std::ostream& out) { write_min_schedule(out, *min, s); });
  } else {
    const auto& t = std::get<Topology>(net);
    if (algo.empty()) algo = "pairwise";
    if (algo != "pairwise") throw UsageError("--algo '" + algo + "' is not available for " + opts.topo + ": expected pairwise");
    const Schedule s = pairwise_schedule(t, model);
    report = verify(t, s);
    lb = lower_bound(t, model);
    j["nodes"] = t.nodes();
    j["transfers"] = s.transfer_count();
    j["max_buffered"] = report.max_buffered;
    write_file([&](std::ostream& out) { write_schedule(out, t, s); });
  }
  j["algorithm"] = algo;
  j["steps"] = report.steps;
  j["lower_bound"] = lb.steps;
  j["optimal"] = report.ok && report.steps == lb.steps;
  j["verified"] = report.ok;
  j["errors"] = errors_json(report);
  if (!opts.output.empty()) j["file"] = opts.output;
  print(j, [&] {
    std::cout << opts.topo << ", " << to_string(model) << ", " << algo << ": " << report.steps << " steps (lower bound "
              << lb.steps << (j["optimal"].get<bool>() ? ", optimal" : "") << "), "
              << (report.ok ? "verified" : "VERIFICATION FAILED") << '\n';
    for (const auto& e : j["errors"]) std::cout << "  " << e.get<std::string>() << '\n';
    if (!opts.output.empty()) std::cout << "written to " << opts.output << '\n';
  });
  return report.ok ? 0 : kCheckFailedExit;
}

int cmd_verify() {
  const LoadedSchedule loaded = read_schedule_file(opts.file);
  VerifyReport report;
  json j;
  if (const auto* ms = std::get_if<MinSchedule>(&loaded.schedule)) {
    const MinNetwork net = std::get<MinNetwork>(parse_spec(ms->topology));
    report = verify(net, *ms, loaded.claimed_steps);
    j = {{"topology", ms->topology}, {"model", "nic"}, {"algorithm", ms->algorithm}, {"nodes", net.terminals()},
         {"lower_bound", lower_bound(net).steps}};
  } else {
    const auto& s = std::get<Schedule>(loaded.schedule);
    const Topology t = parse_topology(s.topology);
    report = verify(t, s, loaded.claimed_steps);
    j = {{"topology", s.topology}, {"model", to_string(s.model)}, {"algorithm", s.algorithm}, {"nodes", t.nodes()},
         {"lower_bound", lower_bound(t, s.model).steps}, {"max_buffered", report.max_buffered}};
  }
  j["file"] = opts.file;
  j["verified"] = report.ok;
  j["steps"] = report.steps;
  j["claimed_steps"] = loaded.claimed_steps;
  j["delivered"] = report.delivered;
  j["expected_delivered"] = report.expected;
  j["optimal"] = report.ok && report.steps == j["lower_bound"].get<std::int64_t>();
  j["errors"] = errors_json(report);
  print(j, [&] {
    std::cout << opts.file << ": " << (report.ok ? "verified" : "NOT verified") << ", " << report.steps << " steps, "
              << report.delivered << "/" << report.expected << " messages delivered\n";
    for (const auto& e : j["errors"]) std::cout << "  " << e.get<std::string>() << '\n';
  });
  return report.ok ? 0 : kCheckFailedExit;
}

void add_topo_model(CLI::App* cmd) {
  cmd->add_option("--topo", opts.topo, "topology: " + spec_grammar())->required();
  cmd->add_option("--model", opts.model, "single-port | all-port | nic (a MIN is always nic)");
  cmd->add_flag("--json", opts.json, "print one JSON object on stdout");
}

}  // namespace

void register_commands(CLI::App& app) {
  CLI::App* bound = app.add_subcommand("bound", "lower bound on total-exchange steps for a topology and model");
  add_topo_model(bound);
  actions[bound] = cmd_bound;

  CLI::App* schedule = app.add_subcommand("schedule", "compute a schedule, verify it, compare with the lower bound");
  add_topo_model(schedule);
  schedule->add_option("--algo", opts.algo, "latin | pairwise (MIN); pairwise (direct networks)");
  schedule->add_option("-o,--output", opts.output, "write the schedule / configuration-matrix file");
  actions[schedule] = cmd_schedule;

  CLI::App* verify_cmd = app.add_subcommand("verify", "check a schedule or configuration-matrix file with the reference model");
  verify_cmd->add_option("file", opts.file, "schedule file")->required();
  verify_cmd->add_flag("--json", opts.json, "print one JSON object on stdout");
  actions[verify_cmd] = cmd_verify;
}

int run_selected(CLI::App& /*app*/) {
  for (const auto& [cmd, action] : actions)
    if (cmd->parsed()) return action();
  throw UsageError("no subcommand given: bound | schedule | verify");
}

}  // namespace totex::cli
