// SPDX-License-Identifier: Apache-2.0
/// `totex sim`: run a schedule on an engine (totex/engines.hpp) and check every delivery.
#include <cstdlib>
#include <iostream>

#include "cli_common.hpp"
#include "totex/generators/min_traffic.hpp"
#include "totex/generators/traffic_schedule.hpp"
#include "totex/verify/message_index.hpp"
#include "commands.hpp"
#include "schema_options.hpp"
#include "sim_plot.hpp"
#include "totex/bounds/bounds.hpp"
#include "totex/traffic/traffic_bounds.hpp"
#include "totex/engines.hpp"
#include "totex/error.hpp"
#include "totex/io/schedule_io.hpp"
#include "totex/tdm_run.hpp"
#include "totex/tdm_tables.hpp"

namespace totex::cli {
namespace {

struct SimOptions : CommonOptions {
  std::string schedule_file;
  std::string engine = "ref";
  std::string mode = "scheduled";
  std::string dynamic = "adaptive";         // --mode dynamic: dor | adaptive
  std::string min_mode = "table";
  std::string cosim_split = "rtl-network";  // --engine cosim: which half is Verilated
  std::string load = "port";                // --engine rtl: port | backdoor
  std::string wave;
  std::string plot;  // --plot (sim_plot.cpp)
  bool unverified = false;
  /// --periods K, --payload W, --period P (schema::TdmHarnessArgs; periods 0: one-shot).
  schema::TdmHarnessArgs tdm;
  /// The direct-network harness's flags (schema::DirectHarnessArgs rows with help text).
  schema::DirectHarnessArgs direct;
  bool payload_or_period_given = false;
  bool periodic = false;  // --periodic: run the periodic generator's schedule (--periods defaults to 1)
  std::string traffic = "all";  // --traffic (docs/traffic.md): direct networks, one-shot, TDM and dynamic
  std::string fault_at;  // --fault-at PERIOD:A-B (with --recover; totex/link_recovery.hpp)
  bool recover = false;
  double recover_budget = 0;  // --recover-budget: the degraded network's periodic search (0: its default)
};

/// The hardware side's environment, read here and only here (schema::read_hw_environment checks
/// it the same way for every engine: a bad value is exit 2 naming the variable).
schema::HwEnvironment hw_environment() {
  return schema::read_hw_environment([](const char* name) { return std::getenv(name); });
}

/// What `totex sim` runs: the network, the schedule, and the step count its file claims (unset
/// for a schedule generated here).
struct SimInput {
  Network net;
  AnySchedule schedule;
  std::optional<std::int64_t> claimed_steps;
  /// --mode dynamic --traffic T (T not all): what the NICs send; the schedule is then only the
  /// cheap pairwise one the dynamic baseline ignores.
  std::optional<Traffic> dynamic_traffic;
};

/// The schedule from --schedule FILE (whose topology must match --topo when both are given) or --algo.
SimInput load_or_make(const SimOptions& options) {
  SimOptions o = options;
  if (!o.schedule_file.empty()) {
    if (!o.algo.empty()) throw UsageError("--algo and --schedule exclude each other");
    if (o.mode == "dynamic" && o.traffic != "all")
      throw UsageError("--traffic and --schedule exclude each other in --mode dynamic: the NICs send the traffic the "
                       "schedule file records (all when it records none); give one");
    if (o.periodic)
      throw UsageError("--periodic generates the schedule; a schedule file with a `period P` header runs periodically "
                       "with --periods K alone");
    LoadedSchedule loaded = read_schedule_file(o.schedule_file);
    AnySchedule s = std::visit([](auto& x) -> AnySchedule { return std::move(x); }, loaded.schedule);
    const std::string spec = std::visit([](const auto& x) { return x.topology; }, s);
    // Compared as parsed: min:64:4 names the file's min:64:4:omega.
    if (!o.topo.empty() && parse_spec(o.topo).index() == parse_spec(spec).index() &&
        std::visit([](const auto& n) { return n.spec(); }, parse_spec(o.topo)) != spec)
      throw UsageError("--topo " + o.topo + " does not match the schedule file's topology " + spec);
    Network net = parse_spec(spec);
    if (const auto* d = std::get_if<Schedule>(&s); d && !o.model.empty() && parse_model(o.model) != d->model)
      throw UsageError("--model " + o.model + " does not match the schedule file's model " + to_string(d->model));
    return {std::move(net), std::move(s), loaded.claimed_steps, std::nullopt};
  }
  if (o.topo.empty() && o.traffic.rfind("poseidon:", 0) != 0) throw UsageError("--topo or --schedule is required");
  o.topo = topology_or_platform(o.topo, o.traffic);  // poseidon:FILE.xml names its network
  o.traffic = traffic_on(o.topo, o.traffic);
  Network net = parse_spec(o.topo);
  const Model model = model_for(net, o.model);
  if (const auto* min = std::get_if<MinNetwork>(&net); min != nullptr && o.traffic != "all") {
    // min_traffic_schedule's configurations, which record their traffic for every engine.
    require_min_traffic_options(o.periodic, o.algo);
    const Traffic traffic = parse_min_traffic(o.traffic, *min);
    if (!is_all_traffic(min_traffic_nodes(*min), &traffic)) {
      if (o.min_mode == "computed")
        throw UsageError("--min-mode computed derives paper 002's N configurations from M^0; a traffic's configurations need "
                         "--min-mode table");
      MinSchedule s = min_traffic_schedule(*min, traffic, o.budget).schedule;
      return {std::move(net), std::move(s), std::nullopt, std::nullopt};
    }
  }
  if (o.traffic != "all" && std::holds_alternative<Topology>(net)) {  // schedule_traffic's schedule, which records its traffic for every engine
    const auto* t = std::get_if<Topology>(&net);
    Traffic traffic = parse_traffic(o.traffic, *t);
    if (!is_all_traffic(*t, &traffic) && o.mode == "dynamic") {
      // The dynamic baseline routes by itself: no schedule search, the NICs send the traffic.
      if (o.periodic) throw UsageError("--periodic schedules a TDM exchange; --mode dynamic routes without one");
      AnySchedule s = make_schedule(net, model, o.algo.empty() ? "pairwise" : o.algo, o.budget);
      return {std::move(net), std::move(s), std::nullopt, std::move(traffic)};
    }
    if (!is_all_traffic(*t, &traffic)) {
      TrafficRequest request;
      request.algorithm = o.algo.empty() ? "auto" : o.algo;
      request.budget_seconds = o.budget;
      request.limits = run_limits();
      request.periodic = o.periodic;  // --periodic: the TDM tables of the traffic's periodic schedule
      TrafficOutcome out = schedule_traffic(*t, model, traffic, request);
      return {std::move(net), std::move(out.schedule), std::nullopt, std::nullopt};
    }
  }
  if (o.periodic) {
    if (o.mode == "dynamic") throw UsageError("--periodic schedules a TDM exchange; --mode dynamic routes without one");
    Schedule s = make_periodic_schedule(net, model, o.algo, o.budget);
    return {std::move(net), std::move(s), std::nullopt, std::nullopt};
  }
  // The dynamic baseline routes by itself: its run needs no schedule search (auto spends up to its
  // budget, 30 s on torus:16x16), only the message set, which the cheap pairwise schedule carries.
  const bool dynamic = o.mode == "dynamic" && std::holds_alternative<Topology>(net);
  AnySchedule s = make_schedule(net, model, dynamic && o.algo.empty() ? "pairwise" : o.algo, o.budget);
  return {std::move(net), std::move(s), std::nullopt, std::nullopt};
}

/// The engine's options from the flags (CLI11 has checked their values) and the environment.
RunOptions run_options(const SimOptions& o, std::optional<std::int64_t> claimed_steps, const schema::HwEnvironment& env) {
  RunOptions r;
  r.claimed_steps = claimed_steps;
  r.schedule_file = o.schedule_file;
  r.mode = o.mode == "dynamic" ? DirectMode::Dynamic : DirectMode::Scheduled;
  r.routing = parse_dynamic_routing(o.dynamic);
  r.min_mode = o.min_mode == "computed" ? MinConfigMode::Computed : MinConfigMode::Table;
  r.split = o.cosim_split == "rtl-nics" ? CosimSplit::RtlNics : CosimSplit::RtlNetwork;
  r.load = schema::parse_enum<schema::LoadPath>(o.load, "--load");
  r.wave = o.wave;
  r.tdm = o.tdm;
  r.direct = o.direct;
  r.env = env;
  r.fault_at = o.fault_at;
  r.recover = o.recover;
  r.recover_budget = o.recover_budget;
  return r;
}

/// --recover's lines: the fault, what the counters named, the degraded schedule, the swap, the losses.
void print_recovery(const json& rc) {
  const auto num = [&](const char* k) { return rc[k].dump(); };
  std::cout << "  fault: link " << rc["fault"].get<std::string>().substr(rc["fault"].get<std::string>().find(':') + 1)
            << " stuck from period " << rc["fault"].get<std::string>().substr(0, rc["fault"].get<std::string>().find(':'))
            << " (cycle " << num("fault_cycle") << "); the link counters named " << rc["detected_link"].get<std::string>()
            << " at the poll of period " << num("detected_period") << '\n'
            << "  degraded " << rc["degraded"].get<std::string>() << " (" << rc["degraded_algorithm"].get<std::string>()
            << (rc["degraded_budget"].get<double>() > 0 ? ", --recover-budget " + num("degraded_budget") : std::string())
            << "): period " << num("degraded_period")
            << ", periodic bound " << num("degraded_bound") << " (healthy period " << num("old_period") << "); table rotated by "
            << num("rotation") << ", " << num("writes_per_tile") << " shadow writes per tile from cycle "
            << num("write_cycle") << ", armed in cycle " << num("arm_cycle") << ", swapped at period "
            << num("swap_period") << " (cycle " << num("swap_cycle") << ")"
            << (rc["idle_transition"].get<bool>() ? ", then one idle period (no rotation keeps the NIC's spacing)" : "")
            << "; period " << num("swap_period") << " runs the new table from cycle " << num("new_start") << "\n"
            << "  periods lost: " << num("periods_lost") << " (" << num("periods_with_losses") << " with losses): "
            << num("lost_count") << " messages lost " << rc["lost_per_period"].dump() << ", "
            << num("corrupted_deliveries") << " corrupted or stray deliveries\n";
  const auto& lost = rc["lost"];
  for (std::size_t i = 0; i < lost.size() && i < 5; ++i) std::cout << "    " << lost[i].get<std::string>() << '\n';
  if (lost.size() > 5) std::cout << "    ... all " << lost.size() << " named in --json's recovery.lost\n";
  std::cout << "  digest after the swap " << rc["digest_after_swap"].get<std::string>() << " (reference model "
            << rc["digest_after_swap_ref"].get<std::string>() << ")\n";
}

int cmd_sim(const SimOptions& options) {
  SimOptions o = options;
  const schema::HwEnvironment env = hw_environment();  // before any work: a bad value is exit 2 on every engine
  if (o.periodic && o.tdm.periods == 0) o.tdm.periods = 1;  // a periodic schedule runs as TDM slot tables
  if (o.tdm.periods > 0 && !o.plot.empty()) throw UsageError("--plot does not apply to --periods runs");
  if (!o.fault_at.empty() && !o.recover)
    throw UsageError("--fault-at is the stuck link of a recovery run: give --recover too");
  if (o.recover && o.fault_at.empty()) throw UsageError("--recover needs the fault: --fault-at PERIOD:A-B");
  if (o.recover_budget > 0 && !o.recover)
    throw UsageError("--recover-budget is the work of a recovery run's degraded schedule: give --recover too");
  if (o.recover && o.tdm.periods == 0)
    throw UsageError("--recover runs the TDM tables periodically: give --periods K (or --periodic)");
  if (o.direct.fifo_depth != schema::DirectHarnessArgs().fifo_depth && o.mode != "dynamic")
    throw UsageError("--fifo-depth sizes the dynamic routers' FIFOs: give --mode dynamic");
  if (o.payload_or_period_given && o.tdm.periods == 0)
    throw UsageError(std::string(o.tdm.period == 0 ? "--payload" : "--period") +
                     " applies to periodic runs only: give --periods K");
  // The memory K periods take, before the schedule search (exit 3 past totex's budget).
  if (o.tdm.periods > 0 && !o.topo.empty())
    if (const Network n = parse_spec(o.topo); std::holds_alternative<Topology>(n))
      check_periodic_memory(std::get<Topology>(n), o.tdm.periods);
  const auto [net, schedule, claimed_steps, dynamic_traffic] = load_or_make(o);
  // A schedule made for a traffic: what must arrive is that traffic (read again from its spec).
  std::optional<Traffic> traffic;
  if (const auto* d = std::get_if<Schedule>(&schedule)) {
    traffic = recorded_traffic(std::get<Topology>(net), *d);
  }
  // Only verified schedules are simulated: a simulator is not the place to discover a broken schedule.
  const VerifyReport report = std::visit(
      [&](const auto& s) -> VerifyReport {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, MinSchedule>) return verify(std::get<MinNetwork>(net), s, claimed_steps);
        else return verify(std::get<Topology>(net), s, claimed_steps, run_limits(), traffic ? &*traffic : nullptr);
      },
      schedule);
  if (!report.ok && o.unverified) {
    std::cerr << "totex: warning: simulating a schedule that does not verify (" << report.violation_count
              << " violations), as --unverified asks\n";
  } else if (!report.ok) {
    std::cerr << "totex: the schedule does not verify; run `totex verify` on it:\n";
    for (const auto& e : errors_json(report)) std::cerr << "  " << e.get<std::string>() << '\n';
    return kCheckFailedExit;
  }
  RunOptions options_run = run_options(o, claimed_steps, env);
  // The dynamic baseline's traffic: --traffic's, or the one a --schedule file records (it checked above).
  const std::optional<Traffic>& sent = dynamic_traffic ? dynamic_traffic : traffic;
  if (o.mode == "dynamic" && sent) options_run.traffic = std::make_shared<const Traffic>(*sent);
  const SimResult r = make_engine(o.engine)->run(net, schedule, options_run);
  const std::string spec = std::visit([](const auto& x) { return x.topology; }, schedule);
  json j = json::parse(sim_result_json(r));
  j["topology"] = spec;
  j["mode"] = o.mode;
  if (sent) j["traffic"] = traffic_json(*sent);
  const bool dynamic = o.mode == "dynamic";
  if (dynamic) {  // no cycle is predicted; the baseline is judged against the nic bound (all-port routers, single-port NICs)
    j["lower_bound"] = sent ? traffic_lower_bound(std::get<Topology>(net), Model::Nic, *sent).steps
                            : lower_bound(std::get<Topology>(net), Model::Nic).steps;
    j["dynamic"] = o.dynamic;
  } else {
    j["algorithm"] = algorithm_of(schedule);  // the dynamic routers use none
  }
  if (o.tdm.periods > 0) {  // periodic (TDM) run: the engine folded the same tables (totex/tdm_tables.hpp)
    schema::TdmHarnessArgs run = o.tdm;  // periods, payload, period and fault, as the schema names them
    if (run.period == 0) run.period = tdm_default_period(std::get<Topology>(net), std::get<Schedule>(schedule));
    run.fault = env.tdm_fault;
    put_schema_json(j, run);
    j["deliveries"] = r.delivered;
    j["digest"] = r.trace_sha256;
  }
  sim_plot(o.plot, net, schedule, r, dynamic, j);  // --plot: the cycle-level view
  // A traffic other than all is counted in flits (several may share a pair), all in messages.
  const bool in_flits = sent.has_value() || std::visit([](const auto& x) { return !x.traffic.is_all(); }, schedule);
  print(o.json, j, [&] {
    std::cout << spec << " on " << r.engine << ": " << (r.ok() ? "PASS" : "FAIL") << ", " << r.delivered << "/"
              << r.expected_delivered << (in_flits ? " flits" : " messages") << " delivered in " << r.cycles << " cycles ";
    if (dynamic && sent)
      std::cout << "(dynamic " << o.dynamic << " routing; traffic " << sent->spec() << ", " << sent->total_flits()
                << " flits; its nic lower bound " << j["lower_bound"] << ")\n";
    else if (dynamic)
      std::cout << "(dynamic " << o.dynamic << " routing; nic lower bound " << j["lower_bound"] << ")\n";
    else
      std::cout << "(schedule predicts " << r.expected_cycles << ")\n";
    if (dynamic && sent && r.reordered > 0)
      std::cout << "  " << r.reordered << " flits overtook an earlier flit of their pair (adaptive routing may reorder)\n";
    if (o.tdm.periods > 0)  // a recovery run delivers fewer than it sends: the lost ones are not expected
      std::cout << "  " << o.tdm.periods << " periods of " << j["period"] << " slots (TDM slot tables), "
                << (r.expected_delivered + (j.contains("recovery") ? j["recovery"]["lost_count"].get<std::int64_t>() : 0)) /
                       o.tdm.periods
                << " messages per period\n";
    if (const auto* d = std::get_if<Schedule>(&schedule); o.tdm.periods > 0 && d && d->period > 0 && o.tdm.period == 0 &&
                                                          j["period"].get<int>() != d->period)
      std::cout << "  (the schedule's period " << d->period << " is below the tiles' minimum " << kTdmTileMinPeriod
                << ": one exchange every " << j["period"] << " slots, the smallest multiple at or above it)\n";
    if (j.contains("recovery")) print_recovery(j["recovery"]);
    std::cout << "  trace sha256 " << r.trace_sha256 << '\n';
    if (r.simulated_cycles > 0)
      std::cout << "  " << r.simulated_cycles << " clock cycles simulated (loading included) in " << r.wall_seconds
                << " s: " << static_cast<std::int64_t>(r.cycles_per_second()) << " cycles/s\n";
    if (r.run_edges > 0)
      std::cout << "  the exchange itself (loading excluded): " << r.run_edges << " cycles in " << r.run_seconds
                << " s: " << static_cast<std::int64_t>(r.run_cycles_per_second()) << " cycles/s\n";
    if (r.load_seconds > 0) std::cout << "  the load writes themselves: " << r.load_seconds << " s\n";
    for (const auto& e : r.errors) std::cout << "  " << e << '\n';
    if (!r.wave.empty()) std::cout << "  waveform: " << r.wave << '\n';
    if (j.contains("plot")) std::cout << "  cycle-level view: " << j["plot"].get<std::string>() << '\n';
  });
  return r.ok() ? 0 : kCheckFailedExit;
}

}  // namespace

void register_sim(CLI::App& app, Actions& actions) {
  CLI::App* sim = app.add_subcommand("sim", "run a schedule on an engine; a scoreboard checks every delivery");
  auto opts = std::make_shared<SimOptions>();
  SimOptions& o = *opts;
  add_topo_model(sim, o, false);
  sim->add_option("--algo", o.algo, "schedule to generate (as for `totex schedule`; default auto)")
      ->check(non_empty("algorithm name", "auto or an algorithm of `totex schedule --help`"));
  sim->add_option("--budget", o.budget, "seconds the schedule search may take (as for `totex schedule`)")
      ->check(budget_seconds());
  sim->add_option("--schedule", o.schedule_file, "schedule or configuration-matrix file to run instead");
  sim->add_option("--engine", o.engine, "ref | rtl | systemc | cosim (default ref)")->check(one_of(engine_names()));
  sim->add_option("--mode", o.mode, "scheduled | dynamic (direct networks; default scheduled)")
      ->check(one_of({"scheduled", "dynamic"}));
  sim->add_option("--dynamic", o.dynamic,
                  "adaptive | dor: the dynamic router (default adaptive: minimal adaptive with DOR escape VCs, "
                  "send order relabelled at random; dor: the first dimension-order baseline, plain send order)")
      ->check(one_of({"adaptive", "dor"}));
  sim->add_option("--min-mode", o.min_mode, "table | computed: MIN switch configuration (default table)")
      ->check(one_of({"table", "computed"}));
  sim->add_option("--cosim-split", o.cosim_split,
                  "rtl-network | rtl-nics: which half of --engine cosim is Verilated RTL (default rtl-network)")
      ->check(one_of({"rtl-network", "rtl-nics"}));
  sim->add_option("--load", o.load,
                  "port | backdoor: how --engine rtl loads tables and queues (default port: one load-port write "
                  "per word; backdoor: written into the model's memories, no clock edges)")
      ->check(one_of({schema::enum_name(schema::LoadPath::Port), schema::enum_name(schema::LoadPath::Backdoor)}));
  sim->add_option("--wave", o.wave, "write a waveform (.fst or .vcd) of the run, and a GTKWave view FILE.gtkw");
  sim->add_flag("--unverified", o.unverified,
                "run a schedule even if the verifier rejects it (fault injection: the scoreboard must catch it)");
  (void)add_schema_options(sim, o.direct);  // the rows of schema::DirectHarnessArgs that have help text
  // --periods, --payload, --period: the rows of schema::TdmHarnessArgs that have help text.
  for (CLI::Option* opt : add_schema_options(sim, o.tdm))
    if (opt->get_name() != "--periods") opt->each([&o](const std::string&) { o.payload_or_period_given = true; });
  add_traffic_option(sim, o.traffic, " (direct networks: one-shot, --periods/--periodic on the TDM tiles, or --mode dynamic: the NICs send it)");
  sim->add_flag("--periodic", o.periodic,
                "generate a periodic (TDM) schedule (as `totex schedule --periodic`) and run it K = --periods "
                "periods (default 1) on the TDM tables");
  sim->add_option("--fault-at", o.fault_at,
                  "PERIOD:A-B: link A-B sticks (both directions) from the start of that period of a --periods run "
                  "(with --recover; docs/tdm-runs.md)");
  sim->add_flag("--recover", o.recover,
                "the controller finds the stuck link of --fault-at by the tiles' link error counters, schedules the "
                "degraded network, writes the shadow tables through the AXI4-Lite port and swaps (nic; engines ref, rtl, systemc)");
  sim->add_option("--recover-budget", o.recover_budget,
                  "seconds of counted work the controller's search for the degraded network's periodic schedule may take "
                  "(as --budget of `totex schedule --periodic`; default: that search's default; every engine plans the same)")
      ->check(budget_seconds());
  add_sim_plot_option(sim, o.plot);
  actions[sim] = [opts] { return cmd_sim(*opts); };
}

}  // namespace totex::cli
