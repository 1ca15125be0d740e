// SPDX-License-Identifier: Apache-2.0
/// Pieces the subcommands share: parsed options, output, schedule production.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

#include "totex/error.hpp"
#include "totex/schedule.hpp"
#include "totex/scheduler.hpp"
#include "totex/spec.hpp"
#include "totex/verify.hpp"

namespace totex::cli {

using nlohmann::json;
using AnySchedule = std::variant<Schedule, MinSchedule>;

struct Options {
  std::string topo;
  std::string model;
  std::string algo;
  std::string output;
  std::string file;
  std::string schedule_file;
  std::string engine = "ref";
  std::string mode = "scheduled";
  std::string dynamic = "adaptive";         // sim --mode dynamic: dor | adaptive
  std::string min_mode = "table";
  std::string cosim_split = "rtl-network";  // sim --engine cosim: which half is Verilated
  std::string wave;
  std::string placement;
  std::string routing;
  std::string form = "computed";
  double budget = 4.0;  // --budget: seconds for auto / pattern / exact
  bool unverified = false;
  bool json = false;
};
extern Options opts;

/// Prints `j` with --json, else runs `human`.
void print(const json& j, const std::function<void()>& human);
[[nodiscard]] json errors_json(const VerifyReport& r);
/// The model a MIN runs under (nic), or the one --model names.
[[nodiscard]] Model model_for(const Network& net);
/// The schedule --algo names (default: auto, the best verified of every generator that applies);
/// `outcome`, when given, receives what was tried and any optimality proof (direct networks).
[[nodiscard]] AnySchedule make_schedule(const Network& net, Model model, std::string algo,
                                        ScheduleOutcome* outcome = nullptr);
[[nodiscard]] std::string algorithm_of(const AnySchedule& s);
/// --topo, --model and --json.
void add_topo_model(CLI::App* cmd, bool required);
/// `totex sim`.
void register_sim(CLI::App& app, std::map<const CLI::App*, std::function<int()>>& actions);
/// `totex plot` (plot_command.cpp).
void register_plot(CLI::App& app, std::map<const CLI::App*, std::function<int()>>& actions);
/// Two worked examples at the end of every --help (help_examples.cpp).
void add_help_examples(CLI::App& app);

/// A CLI11 validator that accepts exactly `values`; CLI11 reports a miss as
/// "--flag: 'x' is not accepted; accepted: a | b".
[[nodiscard]] inline CLI::Validator one_of(const std::vector<std::string>& values) {
  std::string list;
  for (const std::string& v : values) list += (list.empty() ? "" : " | ") + v;
  return {[values, list](std::string& value) -> std::string {
            for (const std::string& v : values)
              if (v == value) return {};
            return "'" + printable(value) + "' is not accepted; accepted: " + list;
          },
          list};
}
/// A CLI11 validator for a file name to write: not empty.
[[nodiscard]] inline CLI::Validator output_path() {
  return {[](std::string& value) -> std::string { return value.empty() ? "empty file name; give a path" : ""; },
          "PATH"};
}

}  // namespace totex::cli
