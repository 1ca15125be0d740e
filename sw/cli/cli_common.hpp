// SPDX-License-Identifier: Apache-2.0
/// Pieces the subcommands share: common options, output, schedule production.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

#include "totex/error.hpp"
#include "totex/schedule.hpp"
#include "totex/generators/scheduler.hpp"
#include "totex/network/spec.hpp"
#include "totex/traffic/traffic.hpp"
#include "totex/verify/verify.hpp"

#include "commands.hpp"

namespace totex::cli {

using nlohmann::json;

/// Options most subcommands share; a subcommand's own options extend them. Each subcommand owns its
/// options (Commands keeps them alive): nothing is global.
struct CommonOptions {
  std::string topo;
  std::string model;
  std::string algo;
  double budget = 0;  // --budget: the search budget for auto / pattern / greedy / exact; 0: the default
  bool json = false;
};

/// The run limit from the environment (TOTEX_MAX_SECONDS: a positive number of seconds; unset: the
/// library's default). The CLI reads the environment; the libraries take the limit as an option.
/// UsageError for a bad value (main() checks it before running any subcommand).
[[nodiscard]] RunLimits run_limits();
/// Prints `j` when `as_json` (--json), else runs `human`.
void print(bool as_json, const json& j, const std::function<void()>& human);
[[nodiscard]] json errors_json(const VerifyReport& r);
/// The model a MIN runs under (nic), or the one --model (`model`) names.
[[nodiscard]] Model model_for(const Network& net, const std::string& model);
/// The schedule --algo names (default: auto, the best verified of every generator that applies,
/// searching for at most `budget` seconds); `outcome`, when given, receives what was tried and any
/// optimality proof (direct networks). A large generated schedule stays lazy (Schedule::source)
/// only when `lazy_ok` (schedule: verify and write stream it); otherwise it is expanded for
/// callers that index its steps (sim, plot).
[[nodiscard]] AnySchedule make_schedule(const Network& net, Model model, const std::string& algo, double budget,
                                        ScheduleOutcome* outcome = nullptr, bool lazy_ok = false);
/// --periodic on sim and plot: the periodic generator's schedule (docs/periodic.md), verified
/// modulo its period; a MIN (whose configurations already repeat) is refused.
[[nodiscard]] Schedule make_periodic_schedule(const Network& net, Model model, const std::string& algo, double budget);
[[nodiscard]] std::string algorithm_of(const AnySchedule& s);
/// `topo`, or when it is empty and `traffic` is poseidon:FILE.xml, the platform of that file as
/// graph:FILE.xml; otherwise UsageError (--topo is required).
[[nodiscard]] std::string topology_or_platform(const std::string& topo, const std::string& traffic);
/// `traffic`, except `all` on a network with one-way links (Poseidon's custom platforms), where the
/// all generators and bounds do not apply: there it is all:1, the same flits, for the traffic ones.
[[nodiscard]] std::string traffic_on(const std::string& topo, const std::string& traffic);
/// A traffic on a MIN: `min-traffic` (or auto) schedules it once per exchange; --periodic and any
/// other --algo are refused (exit 2).
void require_min_traffic_options(bool periodic, const std::string& algo);
/// --traffic bound to `traffic` (help: the grammar; `default_note` says what no flag means).
void add_traffic_option(CLI::App* cmd, std::string& traffic, const std::string& default_note);
/// --topo, --model and --json, bound to `o`.
void add_topo_model(CLI::App* cmd, CommonOptions& o, bool required);
/// `totex sim` (sim_command.cpp).
void register_sim(CLI::App& app, Actions& actions);
/// `totex fpga` (fpga_command.cpp).
void register_fpga(CLI::App& app, Actions& actions);
/// `totex rtl` (rtl_command.cpp).
void register_rtl(CLI::App& app, Actions& actions);
/// `totex plot` (plot_command.cpp).
void register_plot(CLI::App& app, Actions& actions);
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
/// A CLI11 validator for --budget: a plain decimal number of seconds from 0.1 to 86400 (no hex, no
/// nan or inf, which a double parse would take and the search would then ignore).
[[nodiscard]] inline CLI::Validator budget_seconds() {
  return {[](std::string& value) -> std::string {
            const std::string accepted = "; accepted: a decimal number of seconds from 0.1 to 86400, e.g. 8 or 2.5";
            const bool negative = !value.empty() && value[0] == '-';
            const std::optional<double> v = plain_decimal(negative ? value.substr(1) : value);
            if (!v) return "'" + printable(value) + "' is not a number" + accepted;
            if (negative) return "'" + printable(value) + "' is negative" + accepted;
            if (!(*v >= 0.1 && *v <= 86400)) return "'" + printable(value) + "' is out of range" + accepted;
            return {};
          },
          "SECONDS"};
}
/// A CLI11 validator for a whole number in lo..hi (decimal digits only): says whether the value is
/// not an integer or out of range, and names the range (CLI11's Range says neither clearly).
[[nodiscard]] inline CLI::Validator integer_in(long long lo, long long hi) {
  return {[lo, hi](std::string& value) -> std::string {
            const std::string accepted = "; accepted: an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
            const std::size_t digits = !value.empty() && value[0] == '-' ? 1 : 0;
            if (value.size() == digits || value.find_first_not_of("0123456789", digits) != std::string::npos)
              return "'" + printable(value) + "' is not an integer" + accepted;
            if (value.size() - digits > 18) return "'" + printable(value) + "' is out of range" + accepted;
            const long long v = std::stoll(value);
            if (v < lo || v > hi) return "'" + printable(value) + "' is out of range" + accepted;
            return {};
          },
          "INT in " + std::to_string(lo) + ".." + std::to_string(hi)};
}
/// `j` as JSON text. Strings that are not valid UTF-8 (a file name or header with a byte 0xff)
/// have their bytes escaped as \xHH, as the plain-text messages do, instead of failing the dump.
[[nodiscard]] std::string json_text(const json& j, int indent = 2);
/// A traffic as the JSON of bound and plot give it: spec, kind, sha256, flits, pairs.
[[nodiscard]] json traffic_json(const Traffic& t);
/// A CLI11 validator for a name that may not be empty (--algo '' would otherwise mean the default).
[[nodiscard]] inline CLI::Validator non_empty(const std::string& what, const std::string& accepted) {
  return {[what, accepted](std::string& value) -> std::string {
            return value.empty() ? "empty " + what + "; accepted: " + accepted : "";
          },
          "NAME"};
}
/// A CLI11 validator for a file name to write: not empty.
[[nodiscard]] inline CLI::Validator output_path() {
  return {[](std::string& value) -> std::string { return value.empty() ? "empty file name; give a path" : ""; },
          "PATH"};
}

}  // namespace totex::cli
