// SPDX-License-Identifier: Apache-2.0
/// `totex plot`: pictures of a network and a schedule (SVG), or the HTML viewer with a step slider.
#include <filesystem>
#include <iostream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "totex/bounds/bounds.hpp"
#include "totex/generators/min_traffic.hpp"
#include "totex/error.hpp"
#include "totex/io/output_file.hpp"
#include "totex/network/placement.hpp"
#include "totex/plot/plot.hpp"
#include "totex/io/schedule_io.hpp"
#include "totex/traffic/traffic.hpp"
#include "totex/traffic/traffic_bounds.hpp"

namespace totex::cli {
namespace {

const std::vector<std::string> kKinds = {"network", "heatmap", "latin", "dims", "traffic", "viewer", "all"};

struct PlotOptions : CommonOptions {
  std::string file;
  std::string output;
  std::string kind = "network";
  int step = -1;  // -1: not given
  bool periodic = false;  // --periodic: draw the periodic generator's schedule (one period's messages)
  std::string traffic = "all";  // --traffic: the matrix --kind traffic draws (docs/traffic.md)
};

/// What is drawn: the network, its schedule (unless only `dims` is asked) and the bound.
struct Input {
  Network net;
  std::optional<AnySchedule> schedule;
  std::string title;
  plot::Bound bound;
  std::optional<Traffic> traffic;  // --kind traffic: the matrix and its bound under --model
  LowerBound traffic_bound;
};

/// A torus spec, placed or not, as paper 004's load computation wants it: the full torus and the placement.
std::pair<Topology, Placement> placed_torus(const std::string& spec) {
  const std::size_t at = spec.find('@');
  const Topology base = parse_topology(spec.substr(0, at));
  Placement p;
  if (at != std::string::npos) {
    p = parse_placement(spec.substr(at + 1));
  } else {  // every node a processor: multiple:K
    p.multiple = true;
    p.classes = base.is_product() && !base.factors().empty() ? base.factors()[0].size : 0;
  }
  try {
    check_placement_torus(base, p);
  } catch (const UsageError& e) {
    throw UsageError("--kind dims: " + std::string(e.what()) + "; accepted: torus:KxK[x...] with or without @linear | @multiple:T");
  }
  return {base, p};
}

Input load_input(const PlotOptions& o, bool need_schedule) {
  if (!o.file.empty()) {
    if (!o.topo.empty() || !o.algo.empty() || o.periodic)
      throw UsageError("give a schedule FILE or --topo/--model/--algo/--periodic, not both");
    LoadedSchedule loaded = read_schedule_file(o.file);
    AnySchedule s = std::visit([](auto& x) -> AnySchedule { return std::move(x); }, loaded.schedule);
    const std::string spec = std::visit([](const auto& x) { return x.topology; }, s);
    Input in{parse_spec(spec), std::move(s), "", {}, std::nullopt, {}};
    in.title = o.file + ": " + spec + ", " + algorithm_of(*in.schedule);
    return in;
  }
  if (o.topo.empty()) throw UsageError("a schedule FILE or --topo is required (see totex plot --help)");
  Input in{parse_spec(o.topo), std::nullopt, o.topo, {}, std::nullopt, {}};
  if (!need_schedule) return in;
  const Model model = model_for(in.net, o.model);
  if (o.periodic) {
    Schedule s = make_periodic_schedule(in.net, model, o.algo, o.budget);
    in.title = o.topo + ", " + to_string(model) + ", " + s.algorithm + ", period " + std::to_string(s.period);
    in.schedule = std::move(s);
    return in;
  }
  in.schedule = make_schedule(in.net, model, o.algo, o.budget);
  in.title = o.topo + ", " + to_string(model) + ", " + algorithm_of(*in.schedule);
  return in;
}

std::vector<std::string> kinds_for(const Network& net, bool has_schedule) {
  std::vector<std::string> k;
  if (has_schedule) k = {"network", "heatmap", "viewer"};
  if (std::holds_alternative<MinNetwork>(net)) {
    if (has_schedule) k.emplace_back("latin");
    k.emplace_back("traffic");
    return k;
  }
  const auto& t = std::get<Topology>(net);
  bool torus = t.is_product() && t.factors().size() >= 2;
  for (const Factor& f : t.factors()) torus = torus && f.kind == FactorKind::Ring && f.size == t.factors()[0].size && f.size >= 3;
  if (torus) k.emplace_back("dims");
  k.emplace_back("traffic");
  return k;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : " | ") + x;
  return s;
}

/// One picture as a document.
std::string draw(const std::string& kind, const Input& in, std::optional<int> step) {
  if (kind == "traffic")
    return plot::traffic_svg(*in.traffic, in.traffic_bound,
                             std::visit([](const auto& n) { return n.spec(); }, in.net) + ", traffic " + in.traffic->spec());
  if (kind == "dims") {
    const auto& t = std::get<Topology>(in.net);
    const auto [base, placement] = placed_torus(t.spec());
    std::optional<plot::ScheduleLoads> own;  // the schedule's own link loads, when there is a schedule
    if (in.schedule)
      own = plot::ScheduleLoads{algorithm_of(*in.schedule) + " schedule (" + to_string(std::get<Schedule>(*in.schedule).model) + ")",
                                plot::schedule_dimension_loads(t, plot::link_usage(t, std::get<Schedule>(*in.schedule)))};
    return plot::dims_svg(compute_loads(base, placement, Routing::Odr), compute_loads(base, placement, Routing::Udr),
                          t.spec() + ": link load per dimension, ODR against UDR" + (own ? " and the schedule" : ""), own);
  }
  if (const auto* min = std::get_if<MinNetwork>(&in.net)) {
    const auto& s = std::get<MinSchedule>(*in.schedule);
    const std::string title = in.title + ", " + std::to_string(s.steps(*min)) + " cycles";
    if (kind == "network") return plot::min_network_svg(*min, s, step.value_or(0), title);
    if (kind == "latin") return plot::latin_svg(*min, s, step, title + ": matrix A");
    if (kind == "heatmap") return plot::heatmap_svg(plot::min_line_usage(*min, s), in.bound, "cycle", title + ": line x cycle utilisation");
    return plot::viewer_html(*min, s, in.bound, title);
  }
  const auto& t = std::get<Topology>(in.net);
  const auto& s = std::get<Schedule>(*in.schedule);
  const plot::LinkUsage u = plot::link_usage(t, s);
  const std::string title = in.title + ", " + std::to_string(u.steps()) + " steps";
  if (kind == "network") return plot::network_svg(t, u, step, title);
  if (kind == "heatmap") return plot::heatmap_svg(u, in.bound, "step", title + ": link x step utilisation");
  return plot::viewer_html(t, u, in.bound, title);
}

/// --kind traffic: the --traffic matrix and its lower bound under --model (a MIN: nic, its configurations).
void add_traffic(const PlotOptions& o, Input& in) {
  if (const auto* min = std::get_if<MinNetwork>(&in.net)) {  // a MIN's terminals, under its nic model
    if (!o.model.empty() && o.model != "nic") throw UsageError("--model: a MIN runs under the nic model only, got '" + o.model + "'");
    in.traffic = parse_min_traffic(o.traffic, *min);
    // all is paper 002's exchange (the self slot included), bounded as `bound` bounds it.
    in.traffic_bound = is_all_traffic(min_traffic_nodes(*min), &*in.traffic) ? lower_bound(*min) : min_traffic_lower_bound(*min, *in.traffic);
    in.bound = plot::main_term(in.traffic_bound);
    return;
  }
  const auto* t = std::get_if<Topology>(&in.net);
  if (o.model.empty()) throw UsageError("--kind traffic: give --model, the model of the bound drawn beside the matrix");
  in.traffic = parse_traffic(o.traffic, *t);
  in.traffic_bound = traffic_lower_bound(*t, parse_model(o.model), *in.traffic);
  in.bound = plot::main_term(in.traffic_bound);
}

/// Networks too large for a drawing are refused before any schedule is computed.
void check_size(const PlotOptions& o, const std::string& kind) {
  if (kind != "network" && kind != "viewer" && kind != "all") return;
  if (o.topo.empty()) return;  // a file: its loader checks sizes, the drawing refuses after
  const Network net = parse_spec(o.topo);
  if (const auto* min = std::get_if<MinNetwork>(&net)) {
    if (min->terminals() > plot::kMaxDrawnTerminals)
      throw UsageError("--kind " + kind + ": a MIN of " + std::to_string(min->terminals()) +
                       " terminals is too large to draw (at most " + std::to_string(plot::kMaxDrawnTerminals) +
                       "); --kind heatmap and --kind latin draw up to " + std::to_string(plot::kMaxLatinTerminals));
  } else if (std::get<Topology>(net).nodes() > plot::kMaxDrawnNodes) {
    throw UsageError("--kind " + kind + ": " + std::to_string(std::get<Topology>(net).nodes()) +
                     " nodes are too many to draw (at most " + std::to_string(plot::kMaxDrawnNodes) +
                     "); --kind heatmap draws any size");
  }
}

int cmd_plot(const PlotOptions& o) {
  const std::string& kind = o.kind;
  // dims needs no schedule; with a file or --model it also draws the schedule's own loads.
  const bool need_schedule = (kind != "dims" && kind != "traffic") || !o.file.empty() || (kind == "dims" && !o.model.empty());
  if (!o.file.empty() || !o.topo.empty()) check_size(o, kind);  // before a schedule search that may be long
  Input in = load_input(o, need_schedule);
  const bool is_min = std::holds_alternative<MinNetwork>(in.net);
  const std::vector<std::string> available = kinds_for(in.net, true);
  if (kind != "all" && std::find(available.begin(), available.end(), kind) == available.end())
    throw UsageError("--kind: '" + kind + "' does not apply to " + (is_min ? "a MIN" : std::get<Topology>(in.net).spec()) +
                     (kind == "latin" ? " (it needs a MIN, min:N:D[:WIRING])"
                      : kind == "dims" ? " (it needs a torus with equal sides K >= 3, placed or not)" : "") +
                     "; accepted here: " + join(available));
  if (kind == "traffic") add_traffic(o, in);
  else if (o.traffic != "all") throw UsageError("--traffic: applies to --kind traffic here (the schedules drawn carry all)");
  std::optional<int> step;
  if (o.step >= 0) {
    if (kind != "network" && kind != "latin")
      throw UsageError("--step applies to --kind network | latin (the viewer selects steps with its slider or #step=K)");
    step = o.step;
  }
  json j{{"kind", kind}, {"topology", std::visit([](const auto& x) { return x.spec(); }, in.net)}};
  if (in.schedule) {
    // The bound of what the schedule carries: all, or the traffic it records (read again).
    if (is_min) {
      const auto& min = std::get<MinNetwork>(in.net);
      const MinSchedule& ms = std::get<MinSchedule>(*in.schedule);
      in.bound = plot::main_term(ms.traffic.is_all() ? lower_bound(min)
                                                     : min_traffic_lower_bound(min, *read_traffic_again(min_traffic_nodes(min), ms.traffic, "the schedule")));
      j["steps"] = std::get<MinSchedule>(*in.schedule).steps(min);
      j["configurations"] = std::get<MinSchedule>(*in.schedule).configurations.size();
    } else {
      const auto& t = std::get<Topology>(in.net);
      const auto& s = std::get<Schedule>(*in.schedule);
      // A periodic schedule is judged by its period against the period bound (docs/periodic.md).
      const std::optional<Traffic> carried = recorded_traffic(t, s);
      in.bound = plot::main_term(carried ? (s.period > 0 ? traffic_periodic_lower_bound(t, s.model, *carried) : traffic_lower_bound(t, s.model, *carried))
                                         : s.period > 0 ? periodic_lower_bound(lower_bound(t, s.model)) : lower_bound(t, s.model));
      if (s.period > 0) j["period"] = s.period;
      const plot::LinkUsage u = plot::link_usage(t, s);
      json busy = json::array();
      for (const auto& b : u.busy) busy.push_back(b.size());
      j["steps"] = u.steps();
      j["links"] = u.links;
      j["busy_per_step"] = busy;
    }
    j["algorithm"] = algorithm_of(*in.schedule);
    j["lower_bound"] = in.bound.steps;
    j["bound_term"] = in.bound.term;
  }
  if (in.traffic) {
    j["traffic"] = traffic_json(*in.traffic);
    j["model"] = is_min ? "nic" : o.model;
    j["lower_bound"] = in.bound.steps;
    j["bound_term"] = in.bound.term;
  }
  json files = json::array();
  if (kind == "all") {  // -o is a directory: one file per kind that applies
    std::error_code ec;  // "DIR: OS error text", exit 1, like every other file totex cannot write
    std::filesystem::create_directories(o.output, ec);
    if (ec || !std::filesystem::is_directory(o.output))
      throw OutputError(o.output + ": " + (ec ? ec.message() : "not a directory (--kind all writes into a directory)"));
    for (const std::string& k : available) {
      if (k == "traffic") continue;  // drawn with --kind traffic, for the --traffic it names
      const std::string path = (std::filesystem::path(o.output) / (k + (k == "viewer" ? ".html" : ".svg"))).string();
      const std::string doc = draw(k, in, std::nullopt);
      write_output_file(path, [&](std::ostream& out) { out << doc; });
      files.push_back(path);
    }
  } else {
    const std::string doc = draw(kind, in, step);
    write_output_file(o.output, [&](std::ostream& out) { out << doc; });
    files.push_back(o.output);
  }
  j["files"] = files;
  print(o.json, j, [&] {
    for (const auto& f : files) std::cout << "wrote " << f.get<std::string>() << '\n';
    if (in.traffic)
      std::cout << "  " << j["topology"].get<std::string>() << ", traffic " << printable(in.traffic->spec()) << ": "
                << in.traffic->total_flits() << " flits, lower bound " << in.bound.steps << " under " << j["model"].get<std::string>() << " ("
                << in.bound.term << ")\n";
    else if (j.contains("lower_bound"))
      std::cout << "  " << j["topology"].get<std::string>() << ", " << j["algorithm"].get<std::string>() << ": "
                << (j.contains("period") ? "period " + j["period"].dump() + " (one period's messages take " +
                                               j["steps"].dump() + " steps), period bound "
                                         : j["steps"].dump() + " steps, lower bound ")
                << j["lower_bound"] << (in.bound.term.empty() ? "" : " (" + in.bound.term + ")") << '\n';
  });
  return 0;
}

}  // namespace

void register_plot(CLI::App& app, Actions& actions) {
  CLI::App* plot = app.add_subcommand("plot", "draw a network and its schedule: SVG pictures or an HTML viewer with a step slider");
  auto opts = std::make_shared<PlotOptions>();
  PlotOptions& o = *opts;
  plot->add_option("file", o.file, "schedule, configuration-matrix or exchange-table file (instead of --topo)");
  add_topo_model(plot, o, false);
  plot->add_option("--algo", o.algo, "schedule to generate (as for `totex schedule`; default auto)")
      ->check(non_empty("algorithm name", "auto or an algorithm of `totex schedule --help`"));
  plot->add_option("--budget", o.budget, "seconds the schedule search may take (as for `totex schedule`)")
      ->check(budget_seconds());
  plot->add_option("--kind", o.kind,
                   "network (natural layout, links coloured by load; with --step busy/idle in that step; MIN: switch "
                   "states and paths of a configuration) | heatmap (link x step utilisation, idle share, lower bound) | "
                   "latin (MIN: matrix A, the Latin square) | dims (torus: link load per dimension, ODR vs UDR, bound) | "
                   "traffic (the --traffic matrix as a heatmap, row and column sums, the bound under --model) | "
                   "viewer (HTML page with a step slider) | all (every kind that applies; -o is a directory). "
                   "Default network")
      ->check(one_of(kKinds));
  plot->add_option("--step", o.step, "the step (MIN: configuration) to draw, 0-based; network and latin")
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            return !v.empty() && v.find_first_not_of("0123456789") == std::string::npos && v.size() < 9
                       ? ""
                       : "'" + printable(v) + "' is not accepted; accepted: a step number 0, 1, 2, ...";
          },
          "STEP"));
  plot->add_option("--traffic", o.traffic,
                   "with --kind traffic: what every node sends (docs/traffic.md; default all): " + traffic_grammar())
      ->check(non_empty("traffic", traffic_grammar()));
  plot->add_flag("--periodic", o.periodic,
                 "draw a periodic (TDM) schedule (as `totex schedule --periodic`): one period's messages, "
                 "hops past the period drawn in absolute steps");
  plot->add_option("-o,--output", o.output, "file to write (.svg, or .html for the viewer; a directory for all)")
      ->required()
      ->check(output_path());
  actions[plot] = [opts] { return cmd_plot(*opts); };
}

}  // namespace totex::cli
