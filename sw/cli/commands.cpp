// SPDX-License-Identifier: Apache-2.0
#include "commands.hpp"

#include "cli_common.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <cstring>
#include <optional>
#include <nlohmann/json.hpp>

#include "totex/generators/a2.hpp"
#include "totex/bounds/bounds.hpp"
#include "totex/generators/metacube.hpp"
#include "totex/network/placement.hpp"
#include "totex/generators/scheduler.hpp"
#include "totex/network/distance.hpp"
#include "totex/io/exchange_table.hpp"
#include "totex/error.hpp"
#include "totex/generators/generators.hpp"
#include "totex/io/output_file.hpp"
#include "totex/io/schedule_io.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/verify.hpp"
#include "totex/generators/periodic.hpp"
#include "totex/io/shd.hpp"
#include "totex/plot/plot.hpp"
#include "totex/traffic/traffic.hpp"
#include "totex/traffic/traffic_bounds.hpp"
#include "totex/generators/traffic_schedule.hpp"
#include "totex/generators/min_traffic.hpp"
#include "totex/verify/periodic_verify.hpp"

namespace totex::cli {

namespace {

struct ScheduleOptions : CommonOptions {
  std::string output;
  std::string form = "computed";
  bool binary = false;
  bool periodic = false;  // --periodic: a TDM schedule (docs/periodic.md)
  std::string format;     // --format: totex | shd | poseidon ("" = by the file name: .shd or totex)
  std::string traffic = "all";  // --traffic (docs/traffic.md)
};
struct BoundOptions : CommonOptions {
  bool periodic = false;
  std::string traffic = "all";  // --traffic (docs/traffic.md); "all": today's one flit per ordered pair
};
struct VerifyOptions {
  std::string file;
  bool json = false;
  std::string topo, model;  // for a .shd file, which carries no topology
  bool periodic = false;
  int period = 0;
  std::string traffic;  // --traffic: the traffic to check against ("" = the one the file records)
};
struct LoadOptions {
  std::string torus;
  std::string placement;
  std::string routing;
  bool json = false;
};

json bound_json(const LowerBound& lb) {
  json terms = json::array();
  for (const BoundTerm& t : lb.terms) terms.push_back({{"name", t.name}, {"value", t.value}, {"detail", t.detail}});
  return terms;
}

}  // namespace

json errors_json(const VerifyReport& r) {
  json errors = json::array();
  for (const Violation& v : r.violations) errors.push_back(v.text);
  if (r.violation_count > static_cast<std::int64_t>(r.violations.size()))
    errors.push_back("... and " + std::to_string(r.violation_count - static_cast<std::int64_t>(r.violations.size())) +
                     " more");
  return errors;
}

namespace {

bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return false;
    i += n;
  }
  return true;
}

/// `j` with every string (keys too) that is not valid UTF-8 escaped byte by byte.
json escaped(const json& j) {
  auto text = [](const std::string& s) { return valid_utf8(s) ? s : printable(s, s.size()); };
  if (j.is_string()) return text(j.get<std::string>());
  if (j.is_array()) {
    json out = json::array();
    for (const json& e : j) out.push_back(escaped(e));
    return out;
  }
  if (j.is_object()) {
    json out = json::object();
    for (const auto& [k, v] : j.items()) out[text(k)] = escaped(v);
    return out;
  }
  return j;
}

}  // namespace

json traffic_json(const Traffic& t) {
  return {{"spec", t.spec()}, {"kind", t.kind()}, {"sha256", t.sha256()}, {"flits", t.total_flits()}, {"pairs", t.pairs()}};
}

std::string json_text(const json& j, int indent) {
  try {
    return j.dump(indent);
  } catch (const json::type_error&) {  // 316: a string that is not UTF-8
    return escaped(j).dump(indent);
  }
}

void print(bool as_json, const json& j, const std::function<void()>& human) {
  if (as_json)
    std::cout << json_text(j) << '\n';
  else
    human();
}

Model model_for(const Network& net, const std::string& model) {
  if (std::holds_alternative<MinNetwork>(net)) {
    if (!model.empty() && model != "nic")
      throw UsageError("--model: a MIN runs under the nic model only, got '" + model + "'");
    return Model::Nic;
  }
  if (model.empty()) throw UsageError("--model is required: single-port | all-port | nic");
  return parse_model(model);
}

RunLimits run_limits() {
  RunLimits limits;
  limits.how_to_raise = "set TOTEX_MAX_SECONDS to a larger limit";
  const char* env = std::getenv("TOTEX_MAX_SECONDS");
  if (env == nullptr || *env == '\0') return limits;
  const double v = plain_decimal(env).value_or(-1);
  if (!(v > 0) || !std::isfinite(v))
    throw UsageError("TOTEX_MAX_SECONDS must be a positive decimal number of seconds, e.g. 600, got '" +
                     printable(env) + "'");
  limits.seconds = v;
  return limits;
}

AnySchedule make_schedule(const Network& net, Model model, const std::string& algo, double budget,
                          ScheduleOutcome* outcome, bool lazy_ok) {
  if (const auto* min = std::get_if<MinNetwork>(&net)) {
    if (algo.empty() || algo == "latin" || algo == "auto") return latin_schedule(*min, zero_m0(*min));
    if (algo == "pairwise") return pairwise_schedule(*min);
    throw UsageError("--algo '" + algo + "' is not available for a MIN: expected latin | pairwise");
  }
  ScheduleOutcome o = schedule_direct(std::get<Topology>(net), model, {algo.empty() ? "auto" : algo, budget, run_limits()});
  Schedule s = std::move(o.schedule);
  if (!lazy_ok) s.materialize();
  if (outcome) *outcome = std::move(o);
  return s;
}

Schedule make_periodic_schedule(const Network& net, Model model, const std::string& algo, double budget) {
  const auto* t = std::get_if<Topology>(&net);
  if (!t) throw UsageError("--periodic: applies to direct networks; a MIN's configurations already repeat every N cycles");
  PeriodicOutcome po = periodic_schedule(*t, model, {algo.empty() ? "auto" : algo, budget});
  if (!verify_periodic(*t, po.schedule).ok)  // the generator's own check failed: a bug
    throw std::logic_error("the periodic generator's schedule does not verify modulo its period (" + t->spec() + ")");
  po.schedule.materialize();
  return std::move(po.schedule);
}

std::string algorithm_of(const AnySchedule& s) {
  return std::visit([](const auto& x) { return x.algorithm; }, s);
}

namespace {

/// ", traffic SPEC (F flits, P pairs)" for a --traffic other than all, else "".
std::string traffic_text(const json& j) {
  if (!j.contains("traffic")) return "";
  const json& t = j["traffic"];
  return ", traffic " + printable(t["spec"].get<std::string>()) + " (" + std::to_string(t["flits"].get<std::int64_t>()) +
         " flits, " + std::to_string(t["pairs"].get<std::int64_t>()) + " pairs)";
}

/// The names of the terms equal to the bound: the ones that bind.
std::string binding_terms(const LowerBound& lb) { return plot::main_term(lb).term; }

/// What auto tried, as `schedule --json` gives it.
json attempts_json(const std::vector<Attempt>& tried) {
  json out = json::array();
  for (const Attempt& a : tried)
    out.push_back({{"algorithm", a.algorithm}, {"steps", a.steps}, {"verified", a.verified}, {"seconds", a.seconds}, {"note", a.note}});
  return out;
}

/// "  tried: a 67; b failed;" when more than one generator ran.
void print_attempts(const std::vector<Attempt>& tried) {
  if (tried.size() <= 1) return;
  std::cout << "  tried:";
  for (const Attempt& a : tried) std::cout << ' ' << a.algorithm << ' ' << (a.verified ? std::to_string(a.steps) : "failed") << ';';
  std::cout << '\n';
}

int cmd_bound(const BoundOptions& options) {
  BoundOptions o = options;
  o.topo = topology_or_platform(o.topo, o.traffic);
  o.traffic = traffic_on(o.topo, o.traffic);
  const Network net = parse_spec(o.topo);
  const Model model = model_for(net, o.model);
  json j{{"topology", o.topo}, {"model", to_string(model)}};
  LowerBound lb;
  std::optional<LowerBound> traffic_periodic;  // --traffic other than all: the traffic's own period bound
  if (const auto* min = std::get_if<MinNetwork>(&net)) {
    lb = lower_bound(*min);
    if (o.traffic != "all") {
      const Traffic traffic = parse_min_traffic(o.traffic, *min);
      if (!is_all_traffic(min_traffic_nodes(*min), &traffic)) lb = min_traffic_lower_bound(*min, traffic);
      j["traffic"] = traffic_json(traffic);
    }
    j["nodes"] = min->terminals();
    j["stages"] = min->stages();
  } else {
    const auto& t = std::get<Topology>(net);
    if (o.traffic == "all") {
      lb = lower_bound(t, model);
    } else {
      const Traffic traffic = parse_traffic(o.traffic, t);
      lb = traffic_lower_bound(t, model, traffic);
      traffic_periodic = traffic_periodic_lower_bound(t, model, traffic);
      j["traffic"] = traffic_json(traffic);
    }
    const std::int64_t sg = processor_status(t);  // S_G, or S_P over the processors of a placed torus
    j["nodes"] = t.nodes();
    j["processors"] = t.processor_count();
    j["directed_links"] = t.links();
    j["total_status"] = sg;
    j["average_status"] = static_cast<double>(sg) / t.processor_count();
  }
  j["lower_bound"] = lb.steps;
  j["bounds"] = bound_json(lb);
  j["binding"] = binding_terms(lb);
  const LowerBound periodic = traffic_periodic ? *traffic_periodic : periodic_lower_bound(lb);
  j["periodic"] = {{"lower_bound", periodic.steps}, {"bounds", bound_json(periodic)}};
  if (o.periodic) {
    j["period_bound"] = periodic.steps;
    j["period_bound_terms"] = bound_json(periodic);
    print(o.json, j, [&] {
      std::cout << o.topo << ", " << to_string(model) << traffic_text(j) << ": period bound " << periodic.steps
                << " (TDM: the exchange repeats, a message may wrap into the next period)\n";
      for (const BoundTerm& t : periodic.terms) std::cout << "  " << t.name << " >= " << t.value << "  (" << t.detail << ")\n";
      std::cout << "  binding: " << binding_terms(periodic) << '\n';
    });
    return 0;
  }
  print(o.json, j, [&] {
    std::cout << o.topo << " (" << j["nodes"] << " nodes";
    if (j.contains("processors") && j["processors"] != j["nodes"]) std::cout << ", " << j["processors"] << " processors";
    std::cout << "), " << to_string(model) << traffic_text(j) << ": lower bound " << lb.steps << " steps\n";
    for (const BoundTerm& t : lb.terms) std::cout << "  " << t.name << " >= " << t.value << "  (" << t.detail << ")\n";
    std::cout << "  binding: " << binding_terms(lb) << '\n';
    std::cout << "periodic (TDM: the exchange repeats, a period may wrap; no fill or drain): period >= " << periodic.steps
              << " (" << binding_terms(periodic) << ")\n";
  });
  return 0;
}

bool ends_with(const std::string& f, const char* suffix) {
  const std::size_t n = std::strlen(suffix);
  return f.size() >= n && f.compare(f.size() - n, n, suffix) == 0;
}
/// Whether a file name is S4NoC's .shd, or Poseidon's schedule XML (either gzip-compressed too).
bool is_shd(const std::string& f) { return ends_with(f, ".shd") || ends_with(f, ".shd.gz"); }
bool is_xml(const std::string& f) { return ends_with(f, ".xml") || ends_with(f, ".xml.gz"); }

/// The output format --format names, else the file name's (.shd, .xml), else totex's own.
std::string output_format(const ScheduleOptions& o) {
  if (!o.format.empty()) return o.format;
  return is_shd(o.output) ? "shd" : is_xml(o.output) ? "poseidon" : "totex";
}

/// .shd holds S4NoC routes, which only a 2-D torus has: refused before any search, naming what to
/// write instead.
void require_shd_torus(const std::string& format, const Topology& t) {
  if (format == "shd" && !shd_torus(t))
    throw UsageError("--format shd (S4NoC routes; the format of an -o name ending in .shd): needs a 2-D torus torus:K1xK2, not " +
                     t.spec() + "; write a totex schedule file (-o NAME.sched)" +
                     (shd_topology(t) ? " or --format poseidon" : ""));
}

int cmd_schedule_periodic(const ScheduleOptions& o, const std::string& format, const std::optional<json>& given_traffic) {
  const Network net = parse_spec(o.topo);
  const auto* tp = std::get_if<Topology>(&net);
  if (!tp) throw UsageError("--periodic: applies to direct networks; a MIN's configurations already repeat every N cycles");
  const Topology& t = *tp;
  const Model model = model_for(net, o.model);
  require_shd_torus(format, t);
  if ((format == "shd" && !periodic_translation_invariant_applies(t, model)) || (format != "totex" && !shd_topology(t)))
    throw UsageError("--format " + format + ": needs a 2-D torus" + (format == "poseidon" ? " or mesh" : "") + ", not " + t.spec());
  const auto start = std::chrono::steady_clock::now();
  const PeriodicOutcome po = periodic_schedule(t, model, {o.algo.empty() ? "auto" : o.algo, o.budget, format == "shd"});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const PeriodicReport pr = verify_periodic(t, po.schedule);
  const VerifyReport one_shot = verify(t, po.schedule);  // the absolute steps are a one-shot schedule too
  const bool ok = pr.ok && one_shot.ok;
  if (!o.output.empty())
    write_output_file(o.output, [&](std::ostream& out) {
      if (format == "shd") write_shd(out, t, po.schedule);
      else if (format == "poseidon") write_poseidon(out, t, po.schedule);
      else write_schedule(out, t, po.schedule, o.binary);
    });
  json errors = json::array();
  for (const Violation& v : pr.violations) errors.push_back(v.text);
  if (pr.violation_count > static_cast<std::int64_t>(pr.violations.size()))
    errors.push_back("... and " + std::to_string(pr.violation_count - static_cast<std::int64_t>(pr.violations.size())) + " more");
  for (const auto& e : errors_json(one_shot)) errors.push_back("one-shot replay: " + e.get<std::string>());
  json j{{"topology", o.topo}, {"model", to_string(model)}, {"algorithm", po.algorithm}, {"periodic", true},
               {"nodes", t.nodes()}, {"period", po.schedule.period}, {"period_bound", po.bound.steps},
               {"period_bound_terms", bound_json(po.bound)}, {"translation_invariant", po.translation_invariant},
               {"verified", ok}, {"proven_optimal", ok && po.proven_optimal}, {"proof", ok ? po.proof : ""},
               {"proof_general", ok && po.proof_general}, {"proof_scope", ok ? po.proof_scope : ""}, {"latency_max", pr.latency_max}, {"steps", pr.steps},
               {"transfers", po.schedule.transfer_count()}, {"seconds", seconds}, {"search", po.log}, {"capped", po.capped},
               {"errors", errors}, {"file", o.output}, {"format", o.output.empty() ? "" : format}};
  if (given_traffic) j["traffic"] = *given_traffic;
  print(o.json, j, [&] {
    std::cout << o.topo << ", " << to_string(model) << ", " << po.algorithm << ": period " << po.schedule.period
              << " (period bound " << po.bound.steps << "), "
              << (ok && po.proven_optimal ? po.proof : "not proven optimal") << "; "
              << (ok ? "verified modulo the period" : "VERIFICATION FAILED") << "; latency max " << pr.latency_max
              << ", one period's makespan " << pr.steps << " steps\n";
    for (const std::string& line : po.log) std::cout << "  " << line << '\n';
    if (po.capped) std::cout << "  capped: a wall-clock safety cap cut a search short; another run may differ\n";
    for (const auto& e : errors) std::cout << "  " << e.get<std::string>() << '\n';
    if (!o.output.empty()) std::cout << "written to " << o.output << " (" << format << ")\n";
  });
  return ok ? 0 : kCheckFailedExit;
}

/// `schedule --traffic T` for a traffic other than all (docs/traffic.md, "Schedules").
int cmd_schedule_traffic(const ScheduleOptions& o, const Topology& t, Model model, const Traffic& traffic) {
  const std::string format = output_format(o);
  if (format != "totex")
    throw UsageError("--format " + format + " cannot record a traffic other than all; write a totex schedule file (-o NAME.sched)");
  const auto start = std::chrono::steady_clock::now();
  TrafficRequest request;
  request.algorithm = o.algo.empty() ? "auto" : o.algo;
  request.budget_seconds = o.budget;
  request.periodic = o.periodic;
  request.limits = run_limits();
  const TrafficOutcome out = schedule_traffic(t, model, traffic, request);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Verified again here, as the file is: one-shot always (the absolute steps), modulo the period when periodic.
  const VerifyReport report = verify(t, out.schedule, std::nullopt, run_limits(), &traffic);
  std::optional<PeriodicReport> pr;
  if (o.periodic) pr = verify_periodic(t, out.schedule, 0, &traffic);
  const bool ok = report.ok && (!pr || pr->ok);
  if (!o.output.empty()) write_output_file(o.output, [&](std::ostream& f) { write_schedule(f, t, out.schedule, o.binary); });
  json errors = errors_json(report);
  if (pr)
    for (const Violation& v : pr->violations) errors.push_back("periodic: " + v.text);
  json j{{"topology", o.topo}, {"model", to_string(model)}, {"algorithm", out.algorithm}, {"traffic", traffic_json(traffic)},
         {"nodes", t.nodes()}, {"processors", t.processor_count()}, {"periodic", o.periodic}, {"steps", report.steps},
         {"transfers", out.schedule.transfer_count()}, {"lower_bound", out.bound.steps}, {"bounds", bound_json(out.bound)},
         {"binding", binding_terms(out.bound)}, {"verified", ok}, {"proven_optimal", ok && out.proven_optimal},
         {"proof", ok ? out.proof : ""}, {"tried", attempts_json(out.tried)}, {"search", out.log}, {"seconds", seconds}, {"errors", errors},
         {"delivered", report.delivered}, {"expected_delivered", report.expected}};
  if (pr) {
    j["period"] = pr->period;
    j["period_bound"] = out.bound.steps;
    j["latency_max"] = pr->latency_max;
  }
  if (!o.output.empty()) j["file"] = o.output;
  print(o.json, j, [&] {
    std::cout << o.topo << ", " << to_string(model) << traffic_text(j) << ", " << out.algorithm << ": "
              << (pr ? "period " + std::to_string(pr->period) + " (period bound " : std::to_string(report.steps) + " steps (lower bound ")
              << out.bound.steps << ", binding " << binding_terms(out.bound) << (ok && out.proven_optimal ? "; optimal: " + out.proof : "")
              << "), " << (ok ? "verified" : "VERIFICATION FAILED") << (pr ? " modulo the period" : "") << '\n';
    if (pr) std::cout << "  one period's makespan " << pr->steps << " steps, latency max " << pr->latency_max << '\n';
    print_attempts(out.tried);
    for (const std::string& line : out.log) std::cout << "  " << line << '\n';
    for (const auto& e : errors) std::cout << "  " << e.get<std::string>() << '\n';
    if (!o.output.empty()) std::cout << "written to " << o.output << '\n';
  });
  return ok ? 0 : kCheckFailedExit;
}

/// A MIN's configurations for a traffic other than all (min_traffic.hpp).
int cmd_schedule_min_traffic(const ScheduleOptions& o, const MinNetwork& net, const Traffic& traffic) {
  require_min_traffic_options(o.periodic, o.algo);
  const std::string format = output_format(o);
  if (format != "totex") throw UsageError("--format " + format + ": applies to 2-D tori (and meshes for poseidon), not a MIN");
  if (o.binary) throw UsageError("--binary: applies to step schedules of direct networks, not to a MIN's configuration matrix");
  const auto start = std::chrono::steady_clock::now();
  const MinTrafficOutcome out = min_traffic_schedule(net, traffic, o.budget);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const VerifyReport report = verify(net, out.schedule, std::nullopt, &traffic);
  // A traffic's configurations are a table: M^0's rule derives paper 002's N configurations only.
  if (!o.output.empty()) write_output_file(o.output, [&](std::ostream& f) { write_min_schedule(f, net, out.schedule); });
  const bool proven = report.ok && out.proven_optimal;  // meets the bound, or exact's UNSAT of one configuration fewer
  json j{{"topology", o.topo}, {"model", "nic"}, {"algorithm", out.schedule.algorithm}, {"traffic", traffic_json(traffic)},
         {"nodes", net.terminals()}, {"configurations", out.schedule.configurations.size()}, {"steps", report.steps},
         {"lower_bound", out.bound.steps}, {"bounds", bound_json(out.bound)}, {"binding", binding_terms(out.bound)},
         {"verified", report.ok}, {"optimal", report.ok && report.steps == out.bound.steps}, {"proven_optimal", proven},
         {"proof", proven ? out.proof : ""}, {"search", out.log},
         {"seconds", seconds}, {"errors", errors_json(report)}, {"delivered", report.delivered},
         {"expected_delivered", report.expected}};
  if (!o.output.empty()) j["file"] = o.output;
  print(o.json, j, [&] {
    std::cout << o.topo << ", nic" << traffic_text(j) << ", " << out.schedule.algorithm << ": " << report.steps << " steps, "
              << out.schedule.configurations.size() << " configurations (lower bound " << out.bound.steps << ", binding "
              << binding_terms(out.bound) << (proven ? "; optimal: " + out.proof : "") << "), "
              << (report.ok ? "verified" : "VERIFICATION FAILED") << '\n';
    for (const std::string& line : out.log) std::cout << "  " << line << '\n';
    for (const auto& e : errors_json(report)) std::cout << "  " << e.get<std::string>() << '\n';
    if (!o.output.empty()) std::cout << "written to " << o.output << '\n';
  });
  return report.ok ? 0 : kCheckFailedExit;
}

int cmd_schedule(const ScheduleOptions& options) {
  ScheduleOptions o = options;
  o.topo = topology_or_platform(o.topo, o.traffic);
  o.traffic = traffic_on(o.topo, o.traffic);
  std::optional<json> given_traffic;  // --traffic naming `all` (all:1, a matrix of ones): today's schedule, its traffic shown
  if (o.traffic != "all") {
    const Network net = parse_spec(o.topo);
    if (const auto* min = std::get_if<MinNetwork>(&net)) {
      (void)model_for(net, o.model);
      const Traffic traffic = parse_min_traffic(o.traffic, *min);
      if (!is_all_traffic(min_traffic_nodes(*min), &traffic)) return cmd_schedule_min_traffic(o, *min, traffic);
      given_traffic = traffic_json(traffic);
    } else {
      const auto& t = std::get<Topology>(net);
      const Traffic traffic = parse_traffic(o.traffic, t);
      if (!is_all_traffic(t, &traffic)) return cmd_schedule_traffic(o, t, model_for(net, o.model), traffic);
      given_traffic = traffic_json(traffic);
    }
  }
  const std::string format = output_format(o);
  if (format != "totex" && o.output.empty()) throw UsageError("--format " + format + ": give the file to write with -o");
  if (format != "totex" && o.binary) throw UsageError("--binary: applies to totex schedule files, not --format " + format);
  if (o.periodic) return cmd_schedule_periodic(o, format, given_traffic);
  double write_seconds = 0;
  auto write_file = [&](const std::function<void(std::ostream&)>& writer) {
    if (o.output.empty()) return;
    const auto start = std::chrono::steady_clock::now();
    write_output_file(o.output, writer);  // "PATH: OS error", no half file; .gz: compressed
    write_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const Network net = parse_spec(o.topo);
  const Model model = model_for(net, o.model);
  json j{{"topology", o.topo}, {"model", to_string(model)}};
  VerifyReport report;
  LowerBound lb;
  ScheduleOutcome outcome;
  // .shd describes one route list for every node: the translation-invariant generator (pattern).
  const std::string algo_asked = o.algo.empty() && format == "shd" ? "pattern" : o.algo;
  if (format != "totex" && std::holds_alternative<MinNetwork>(net))
    throw UsageError("--format " + format + ": applies to 2-D tori (and meshes for poseidon), not a MIN");
  if (const auto* t = std::get_if<Topology>(&net)) require_shd_torus(format, *t);
  AnySchedule any = make_schedule(net, model, algo_asked, o.budget, &outcome, true);
  const std::string algo = algorithm_of(any);
  if (const auto* min = std::get_if<MinNetwork>(&net)) {
    MinSchedule s = std::get<MinSchedule>(std::move(any));  // moved: 100 MB of configurations at min:4096:2
    if (o.form == "table") s.m0.clear();  // write every configuration, not just M^0
    else if (o.form != "computed") throw UsageError("--form must be computed | table, got '" + o.form + "'");
    report = verify(*min, s);
    lb = lower_bound(*min);
    j["nodes"] = min->terminals();
    j["configurations"] = s.configurations.size();
    if (o.binary) throw UsageError("--binary: applies to step schedules of direct networks, not to a MIN's configuration matrix");
    write_file([&](std::ostream& out) { write_min_schedule(out, *min, s); });
  } else {
    const auto& t = std::get<Topology>(net);
    const auto& s = std::get<Schedule>(any);
    report = outcome.report;  // schedule_direct verified the schedule it kept
    lb = lower_bound(t, model);
    j["nodes"] = t.nodes();
    j["processors"] = t.processor_count();
    j["transfers"] = s.transfer_count();
    j["max_buffered"] = report.max_buffered;
    write_file([&](std::ostream& out) {
      if (algo == "table" && o.binary) throw UsageError("--binary: --algo table writes its exchange table, not step lines");
      if (format == "shd")
        write_shd(out, t, s);
      else if (format == "poseidon")
        write_poseidon(out, t, s);
      else if (algo == "table")  // the table itself, which routers load
        write_exchange_table(out, require_exchange_table(t));
      else
        write_schedule(out, t, s, o.binary);
    });
  }
  j["algorithm"] = algo;
  if (given_traffic) j["traffic"] = *given_traffic;
  j["steps"] = report.steps;
  j["lower_bound"] = lb.steps;
  j["optimal"] = report.ok && report.steps == lb.steps;
  // Proven: meets a lower bound (MINs: the latin schedule's N + log_d N - 1) or exact's UNSAT of one step less.
  const bool proven = report.ok && (report.steps == lb.steps || (outcome.proven_optimal && !outcome.proof.empty()));
  j["proven_optimal"] = proven;
  j["proof"] = !proven ? "" : outcome.proof.empty() ? "meets the lower bound " + std::to_string(lb.steps) : outcome.proof;
  j["tried"] = attempts_json(outcome.tried);
  j["search"] = outcome.log;
  // A search the wall-clock safety cap cut short (its note says so): the result may differ by machine.
  j["capped"] = std::any_of(outcome.tried.begin(), outcome.tried.end(),
                            [](const Attempt& a) { return a.note.find("safety cap") != std::string::npos; });
  j["verified"] = report.ok;
  j["errors"] = errors_json(report);
  if (!o.output.empty()) {
    j["file"] = o.output;
    j["write_seconds"] = write_seconds;
  }
  print(o.json, j, [&] {
    std::cout << o.topo << ", " << to_string(model) << ", " << algo << ": " << report.steps << " steps (lower bound "
              << lb.steps << (proven ? ", optimal: " + j["proof"].get<std::string>() : "") << "), "
              << (report.ok ? "verified" : "VERIFICATION FAILED") << '\n';
    print_attempts(outcome.tried);
    for (const auto& e : j["errors"]) std::cout << "  " << e.get<std::string>() << '\n';
    if (!o.output.empty()) std::cout << "written to " << o.output << '\n';
  });
  return report.ok ? 0 : kCheckFailedExit;
}

int cmd_load(const LoadOptions& o) {
  const std::string spec = o.torus.rfind("torus:", 0) == 0 ? o.torus : "torus:" + o.torus;
  const Topology t = parse_topology(spec);
  if (t.is_partial())
    throw UsageError("--torus " + spec + ": give the placement with --placement, not in the torus spec");
  const Placement placement = parse_placement(o.placement);
  const Routing routing = parse_routing(o.routing);
  const LoadReport r = compute_loads(t, placement, routing);
  json dims = json::array();
  for (const DimensionLoad& d : r.dimensions)
    dims.push_back({{"dimension", d.dimension}, {"direction", d.direction > 0 ? "+" : "-"}, {"max_load", d.max_load},
                    {"mean_load", d.mean_load}});
  auto optional = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  const json j{{"topology", r.topology}, {"placement", r.placement}, {"routing", r.routing}, {"processors", r.processors},
               {"max_load", r.max_load}, {"max_link", t.link_source(r.max_link) >= 0
                   ? std::to_string(t.link_source(r.max_link)) + "->" + std::to_string(t.link_target(r.max_link)) : ""},
               {"lower_bound", r.lower_bound}, {"bisection_bound", r.bisection_bound}, {"single_bound", r.single_bound},
               {"paper_formula", optional(r.paper_formula)}, {"paper_upper_bound", optional(r.paper_upper_bound)},
               {"dimensions", dims}};
  print(o.json, j, [&] {
    std::cout << r.topology << ", " << r.placement << " placement, " << r.routing << ": " << r.processors
              << " processors, max link load " << r.max_load << " (on link " << j["max_link"].get<std::string>()
              << "), lower bound " << r.lower_bound;
    if (r.paper_formula) std::cout << ", paper's formula " << *r.paper_formula;
    std::cout << '\n';
    for (const DimensionLoad& d : r.dimensions)
      std::cout << "  dimension " << d.dimension << (d.direction > 0 ? "+" : "-") << ": max " << d.max_load
                << ", mean " << d.mean_load << '\n';
  });
  return 0;
}


/// The traffic a schedule is checked against: --traffic when given, else the one the file records
/// (parsed again from its spec; its digest is compared by the verifier). nullopt: all.
std::optional<Traffic> verify_traffic(const VerifyOptions& o, const Topology& t, const Schedule& s) {
  std::string spec = o.traffic;
  if (spec.empty()) {
    if (s.traffic.is_all()) return std::nullopt;
    spec = s.traffic.spec;
    try {
      Traffic traffic = parse_traffic(spec, t);
      return traffic;
    } catch (const ResourceError&) {  // past the limits: exit 3, as everywhere
      throw;
    } catch (const std::runtime_error& e) {  // a file that moved or changed: --traffic says where it is now
      throw UsageError("the schedule records traffic " + spec + ", which cannot be read again here (" + e.what() +
                       "); give it with --traffic");
    }
  }
  Traffic traffic = parse_traffic(spec, t);
  if (is_all_traffic(t, &traffic)) return std::nullopt;
  return traffic;
}

int cmd_verify(const VerifyOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  LoadedSchedule loaded;
  if (is_shd(o.file)) {  // S4NoC routes: no header, the topology comes from --topo
    if (o.topo.empty()) throw UsageError(o.file + ": a .shd file carries no topology; give --topo torus:KxK");
    const Topology t = parse_topology(o.topo);
    Schedule s = read_shd_file(o.file, t, o.model.empty() ? Model::Nic : parse_model(o.model));
    loaded.claimed_steps = static_cast<std::int64_t>(s.steps.size());
    loaded.schedule = std::move(s);
  } else if (is_xml(o.file)) {  // Poseidon schedule XML: its <schedule> gives the network and the period
    if (!o.topo.empty() || !o.model.empty())
      throw UsageError("--topo/--model: apply to .shd files only; a Poseidon schedule XML names its network (nic model)");
    Schedule s = read_poseidon_file(o.file);
    loaded.claimed_steps = static_cast<std::int64_t>(s.steps.size());
    loaded.schedule = std::move(s);
  } else {
    if (!o.topo.empty() || !o.model.empty())
      throw UsageError("--topo/--model: apply to .shd files only; a totex schedule file names its own topology and model");
    loaded = read_schedule_file(o.file, true);
  }
  const double load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  VerifyReport report;
  json j;
  std::optional<Traffic> traffic;  // a traffic other than all: the file's, or --traffic
  if (const auto* ms = std::get_if<MinSchedule>(&loaded.schedule)) {
    if (o.periodic || o.period > 0)
      throw UsageError("--periodic/--period: apply to direct-network schedules; a MIN's configurations repeat every N cycles");
    const MinNetwork net = std::get<MinNetwork>(parse_spec(ms->topology));
    // What must be delivered: --traffic when given (a file recording another fails), else the file's.
    const Topology nodes = min_traffic_nodes(net);
    if (!o.traffic.empty()) traffic = parse_min_traffic(o.traffic, net);
    else if (!ms->traffic.is_all()) traffic = read_traffic_again(nodes, ms->traffic, "the schedule");
    if (traffic && is_all_traffic(nodes, &*traffic) && ms->traffic.is_all()) traffic.reset();
    report = verify(net, *ms, loaded.claimed_steps, traffic ? &*traffic : nullptr);
    j = {{"topology", ms->topology}, {"model", "nic"}, {"algorithm", ms->algorithm}, {"nodes", net.terminals()},
         {"lower_bound", traffic ? min_traffic_lower_bound(net, *traffic).steps : lower_bound(net).steps}};
    if (traffic) j["traffic"] = traffic_json(*traffic);
  } else {
    const auto& s = std::get<Schedule>(loaded.schedule);
    const Topology t = parse_topology(s.topology);
    traffic = verify_traffic(o, t, s);
    report = verify(t, s, loaded.claimed_steps, run_limits(), traffic ? &*traffic : nullptr);
    std::vector<Violation> table;  // Theorem 1's column rule and coverage, reported first
    for (const std::string& e : loaded.table_errors) table.push_back({"table", -1, -1, "", "exchange table: " + e});
    report.violations.insert(report.violations.begin(), table.begin(), table.end());
    report.violation_count += static_cast<std::int64_t>(table.size());
    report.ok = report.ok && table.empty();
    j = {{"topology", s.topology}, {"model", to_string(s.model)}, {"algorithm", s.algorithm}, {"nodes", t.nodes()},
         {"processors", t.processor_count()},
         {"lower_bound", traffic ? traffic_lower_bound(t, s.model, *traffic).steps : lower_bound(t, s.model).steps},
         {"max_buffered", report.max_buffered}};
    if (traffic) j["traffic"] = traffic_json(*traffic);
  }
  j["file"] = o.file;
  j["load_seconds"] = load_seconds;  // reading and parsing (a generated-form file: regenerating too)
  j["verified"] = report.ok;
  j["steps"] = report.steps;
  j["claimed_steps"] = loaded.claimed_steps;
  j["delivered"] = report.delivered;
  j["expected_delivered"] = report.expected;
  j["optimal"] = report.ok && report.steps == j["lower_bound"].get<std::int64_t>();
  j["errors"] = errors_json(report);
  // Periodic (docs/periodic.md): the file's period, --period P, or with --periodic alone the
  // makespan (the schedule repeated back to back).
  std::optional<PeriodicReport> pr;
  if (const auto* s = std::get_if<Schedule>(&loaded.schedule); s && (s->period > 0 || o.periodic || o.period > 0)) {
    const Topology t = parse_topology(s->topology);
    const int period = o.period > 0 ? o.period : s->period > 0 ? s->period : static_cast<int>(std::max<std::int64_t>(1, report.steps));
    pr = verify_periodic(t, *s, period, traffic ? &*traffic : nullptr);
    for (const Violation& v : pr->violations) j["errors"].push_back("periodic: " + v.text);
    if (pr->violation_count > static_cast<std::int64_t>(pr->violations.size()))
      j["errors"].push_back("periodic: ... and " + std::to_string(pr->violation_count - static_cast<std::int64_t>(pr->violations.size())) + " more");
    const LowerBound pb = traffic ? traffic_periodic_lower_bound(t, s->model, *traffic) : periodic_lower_bound(lower_bound(t, s->model));
    j["period"] = pr->period;
    j["period_bound"] = pb.steps;
    j["period_bound_terms"] = bound_json(pb);
    j["latency_max"] = pr->latency_max;
    j["periodic_verified"] = pr->ok;
    j["proven_optimal"] = pr->ok && report.ok && pr->period == pb.steps;
    report.ok = report.ok && pr->ok;
    j["verified"] = report.ok;
  }
  print(o.json, j, [&] {
    std::cout << o.file << ": " << (report.ok ? "verified" : "NOT verified") << ", " << report.steps << " steps, "
              << report.delivered << "/" << report.expected << (traffic ? " flits" : " messages") << " delivered"
              << (traffic ? ", traffic " + traffic->spec() : std::string()) << '\n';
    if (pr)
      std::cout << "  periodic: period " << pr->period << " (period bound " << j["period_bound"] << (j["proven_optimal"].get<bool>() ? ", proven optimal" : "")
                << "), " << (pr->ok ? "conflict-free modulo the period" : "CONFLICTS modulo the period") << ", latency max "
                << pr->latency_max << '\n';
    for (const auto& e : j["errors"]) std::cout << "  " << e.get<std::string>() << '\n';
  });
  return report.ok ? 0 : kCheckFailedExit;
}

}  // namespace

void add_traffic_option(CLI::App* cmd, std::string& traffic, const std::string& default_note) {
  cmd->add_option("--traffic", traffic,
                  "what every node sends (docs/traffic.md; default all: one flit to every other node)" + default_note + ": " +
                      traffic_grammar())
      ->check(non_empty("traffic", traffic_grammar()));
}

void require_min_traffic_options(bool periodic, const std::string& algo) {
  if (periodic) throw UsageError("--periodic: applies to direct networks; a MIN's configurations run once per exchange");
  if (!algo.empty() && algo != "auto" && algo != "min-traffic")
    throw UsageError("--algo '" + algo + "' is not available for a traffic on a MIN: expected auto | min-traffic");
}

std::string traffic_on(const std::string& topo, const std::string& traffic) {
  if (traffic != "all" || topo.rfind("graph:", 0) != 0) return traffic;
  const Network net = parse_spec(topo);
  const auto* t = std::get_if<Topology>(&net);
  return t != nullptr && t->is_one_way() ? "all:1" : traffic;
}

std::string topology_or_platform(const std::string& topo, const std::string& traffic) {
  if (!topo.empty()) return topo;
  if (traffic.rfind("poseidon:", 0) == 0) return "graph:" + traffic.substr(9);  // its platform (docs/networks.md)
  throw UsageError("bad topology '': the spec is empty; accepted: " + spec_grammar() +
                   " (give --topo SPEC, or --traffic poseidon:FILE.xml, whose platform names the network)");
}

void add_topo_model(CLI::App* cmd, CommonOptions& o, bool required) {
  auto* topo = cmd->add_option("--topo", o.topo, "topology: " + spec_grammar());
  if (required) topo->required();
  // --fail LIST is --topo SPEC~fail:LIST (docs/networks.md). Option callbacks run in the order the
  // options are added, so --topo is stored by then wherever it stands on the command line.
  cmd->add_option_function<std::string>(
         "--fail",
         [&o](const std::string& list) {
           if (o.topo.empty()) throw CLI::ValidationError("--fail", "needs --topo (the network whose links or nodes fail)");
           if (o.topo.rfind("min:", 0) == 0)
             throw CLI::ValidationError("--fail", "applies to direct networks, not to the MIN " + printable(o.topo));
           o.topo += "~fail:" + list;
         },
         "failed links a-b and nodes v, joined by ',' (e.g. 0-1,9-17 or 5): a degraded network, SPEC~fail:LIST")
      ->check(non_empty("fail list", "links a-b and nodes v joined by ','"));
  cmd->add_option("--model", o.model, "single-port | all-port | nic (a MIN is always nic)");
  cmd->add_flag("--json", o.json, "print one JSON object on stdout");
}

Commands::Commands(CLI::App& app) {
  // Each subcommand's options live in the action that reads them (CLI11 writes them while parsing).
  CLI::App* bound = app.add_subcommand("bound", "lower bound on total-exchange steps for a topology and model");
  auto bound_opts = std::make_shared<BoundOptions>();
  add_topo_model(bound, *bound_opts, false);  // required unless --traffic poseidon:FILE.xml names the network
  bound->add_flag("--periodic", bound_opts->periodic, "the period bound of a periodic (TDM) schedule only (docs/periodic.md)");
  add_traffic_option(bound, bound_opts->traffic, "");
  actions_[bound] = [bound_opts] { return cmd_bound(*bound_opts); };

  CLI::App* schedule = app.add_subcommand("schedule", "compute a schedule, verify it, compare with the lower bound");
  auto sched_opts = std::make_shared<ScheduleOptions>();
  add_topo_model(schedule, *sched_opts, false);  // required unless --traffic poseidon:FILE.xml names the network
  schedule->add_option("--algo", sched_opts->algo,
                       "MIN: latin (default) | pairwise; direct networks: " + direct_algorithm_help())
      ->check(non_empty("algorithm name", "auto or an algorithm of `totex schedule --help`"));
  schedule->add_option("--budget", sched_opts->budget,
                       "search budget of auto, pattern, greedy and exact, about seconds (default 4, 8 above 128 "
                       "nodes; the traffic list scheduler, also for all on degraded networks and graph files, 1 per 500 flits, 4 to 60, 240 above 256 nodes; traffic route-sat 20); every search counts work (SAT conflicts, steps), so a budget gives the same schedule "
                       "on any machine; a wall-clock safety cap far above it marks the result capped when it fires")
      ->check(budget_seconds());
  schedule->add_option("-o,--output", sched_opts->output,
                       "write the schedule / configuration-matrix / exchange-table file (a name ending in .gz: "
                       "gzip-compressed)")
      ->check(output_path());
  schedule->add_flag("--binary", sched_opts->binary,
                     "step schedules: write the step lines as a binary body (about 40% of the text and faster to "
                     "load; docs/formats.md)");
  auto* form = schedule->add_option("--form", sched_opts->form, "MIN files: computed (M^0 only, when the schedule allows) | table")
                   ->check(one_of({"computed", "table"}));
  schedule->parse_complete_callback([form, sched_opts] {  // a MIN spec is the one that starts with "min:" (parse_spec)
    if (form->count() > 0 && sched_opts->topo.rfind("min:", 0) != 0)
      throw CLI::ValidationError("--form", "applies to MIN files (--topo min:N:D:WIRING) only, not to " +
                                               printable(sched_opts->topo) + "; accepted there: computed | table");
  });
  schedule->add_flag("--periodic", sched_opts->periodic,
                     "a periodic (TDM) schedule: the exchange repeats every P steps, a message may wrap into the next "
                     "period; --algo auto | greedy | exact (docs/periodic.md)");
  add_traffic_option(schedule, sched_opts->traffic, "");
  schedule->add_option("--format", sched_opts->format,
                       "file format of -o: totex (default) | shd (S4NoC routes; the default for a name ending in .shd) | "
                       "poseidon (Poseidon schedule XML; the default for a name ending in .xml)")
      ->check(one_of({"totex", "shd", "poseidon"}));
  actions_[schedule] = [sched_opts] { return cmd_schedule(*sched_opts); };

  CLI::App* verify_cmd = app.add_subcommand("verify", "check a schedule or configuration-matrix file with the reference model");
  auto verify_opts = std::make_shared<VerifyOptions>();
  verify_cmd->add_option("file", verify_opts->file, "schedule file (text, or gzip-compressed)")->required();
  verify_cmd->add_flag("--json", verify_opts->json, "print one JSON object on stdout");
  verify_cmd->add_option("--topo", verify_opts->topo, "the torus a .shd file (S4NoC routes, no header) is for: torus:KxK");
  verify_cmd->add_option("--model", verify_opts->model, "the model of a .shd file (default nic)");
  verify_cmd->add_flag("--periodic", verify_opts->periodic,
                       "also check modulo the period: the file's, --period P, or the makespan (back to back)");
  verify_cmd->add_option("--period", verify_opts->period, "check modulo this period")->check(integer_in(1, 50000000));
  add_traffic_option(verify_cmd, verify_opts->traffic, " (default: the traffic the file records, read again from its spec)");
  actions_[verify_cmd] = [verify_opts] { return cmd_verify(*verify_opts); };

  CLI::App* load = app.add_subcommand("load", "link loads of complete exchange on a partially populated torus (paper 004)");
  auto load_opts = std::make_shared<LoadOptions>();
  load->add_option("--torus", load_opts->torus, "torus:KxK[x...] with equal sides K >= 3 (or just KxK[x...])")->required();
  load->add_option("--placement", load_opts->placement, "linear | multiple:T")->required();
  load->add_option("--routing", load_opts->routing, "odr | udr")->required();
  load->add_flag("--json", load_opts->json, "print one JSON object on stdout");
  actions_[load] = [load_opts] { return cmd_load(*load_opts); };

  register_sim(app, actions_);
  register_plot(app, actions_);
  register_fpga(app, actions_);
  add_help_examples(app);
}

int Commands::run_selected() const {
  for (const auto& [cmd, action] : actions_)
    if (cmd->parsed()) return action();
  throw UsageError("no subcommand given: bound | schedule | verify");
}

}  // namespace totex::cli
