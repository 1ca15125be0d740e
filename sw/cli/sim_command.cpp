// SPDX-License-Identifier: Apache-2.0
/// `totex sim`: run a schedule on an engine and check every delivery.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "rtl_engine.hpp"
#include "sim_plot.hpp"
#include "systemc_engine.hpp"
#include "totex/bounds.hpp"
#include "totex/engine.hpp"
#include "totex/error.hpp"
#include "totex/output_file.hpp"
#include "totex/schedule_io.hpp"

namespace totex::cli {
namespace {

/// A file name under the temp directory, removed when done.
struct TempFile {
  TempFile() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "totex-XXXXXX").string();
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0) throw UsageError("cannot create a temporary file");
    ::close(fd);
    path = tmpl;
  }
  ~TempFile() { std::filesystem::remove(path); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  std::string path;
};

/// What `totex sim` runs: the network, the schedule, and the step count its file claims (unset
/// for a schedule generated here).
struct SimInput {
  Network net;
  AnySchedule schedule;
  std::optional<std::int64_t> claimed_steps;
};

/// The schedule from --schedule FILE (whose topology must match --topo when both are given) or --algo.
SimInput load_or_make() {
  if (!opts.schedule_file.empty()) {
    if (!opts.algo.empty()) throw UsageError("--algo and --schedule exclude each other");
    LoadedSchedule loaded = read_schedule_file(opts.schedule_file);
    AnySchedule s = std::visit([](auto& x) -> AnySchedule { return std::move(x); }, loaded.schedule);
    const std::string spec = std::visit([](const auto& x) { return x.topology; }, s);
    // Compared as parsed: min:64:4 names the file's min:64:4:omega.
    if (!opts.topo.empty() && parse_spec(opts.topo).index() == parse_spec(spec).index() &&
        std::visit([](const auto& n) { return n.spec(); }, parse_spec(opts.topo)) != spec)
      throw UsageError("--topo " + opts.topo + " does not match the schedule file's topology " + spec);
    Network net = parse_spec(spec);
    if (const auto* d = std::get_if<Schedule>(&s); d && !opts.model.empty() && parse_model(opts.model) != d->model)
      throw UsageError("--model " + opts.model + " does not match the schedule file's model " + to_string(d->model));
    return {std::move(net), std::move(s), loaded.claimed_steps};
  }
  if (opts.topo.empty()) throw UsageError("--topo or --schedule is required");
  Network net = parse_spec(opts.topo);
  const Model model = model_for(net);
  AnySchedule s = make_schedule(net, model, opts.algo);
  return {std::move(net), std::move(s), std::nullopt};
}

/// --wave: fails before the run (exit 1, "PATH: OS error text") when the dump or its GTKWave view
/// cannot be created there; the probes write nothing.
void check_wave_writable() {
  if (opts.wave.empty()) return;
  for (const std::string& path : {opts.wave, opts.wave + ".gtkw"}) OutputFile probe(path);  // uncommitted: removed
}

SimResult run_engine(const Network& net, const AnySchedule& any, std::optional<std::int64_t> claimed_steps) {
  if (opts.mode != "scheduled" && opts.mode != "dynamic")
    throw UsageError("--mode must be scheduled | dynamic, got '" + opts.mode + "'");
  if (opts.engine == "ref") {
    if (opts.mode == "dynamic") throw UsageError("--mode dynamic needs a hardware engine (rtl), not ref");
    if (!opts.wave.empty()) throw UsageError("--wave needs a hardware engine (rtl), not ref");
    if (const auto* min = std::get_if<MinNetwork>(&net))
      return run_reference(*min, std::get<MinSchedule>(any), claimed_steps);
    return run_reference(std::get<Topology>(net), std::get<Schedule>(any), claimed_steps);
  }
  check_wave_writable();
  if (opts.min_mode != "table" && opts.min_mode != "computed")
    throw UsageError("--min-mode must be table | computed, got '" + opts.min_mode + "'");
  if (opts.engine == "rtl") {
    if (const auto* topo = std::get_if<Topology>(&net)) {  // direct networks
      const auto& s = std::get<Schedule>(any);
      std::string file = opts.schedule_file;
      TempFile temp;
      if (file.empty() && opts.mode == "scheduled") {  // the harness loads a file, like `totex verify`
        write_output_file(temp.path, [&](std::ostream& out) { write_schedule(out, *topo, s); });
        file = temp.path;
      }
      return run_rtl_direct(*topo, s, file, opts.mode == "dynamic" ? DirectMode::Dynamic : DirectMode::Scheduled,
                            opts.wave, parse_dynamic_routing(opts.dynamic));
    }
    const auto* min = std::get_if<MinNetwork>(&net);
    if (!min) throw UsageError("--engine rtl runs MIN topologies (min:N:D:WIRING) in this build");
    if (opts.mode == "dynamic") throw UsageError("--mode dynamic applies to direct networks, not to a MIN");
    const auto& s = std::get<MinSchedule>(any);
    std::string file = opts.schedule_file;
    TempFile temp;
    if (file.empty()) {  // the harness loads a file, through the same loader as `totex verify`
      write_output_file(temp.path, [&](std::ostream& out) { write_min_schedule(out, *min, s); });
      file = temp.path;
    }
    return run_rtl_min(*min, s, file, opts.min_mode == "table" ? MinConfigMode::Table : MinConfigMode::Computed,
                       opts.wave);
  }
  if (opts.engine == "systemc" || opts.engine == "cosim") {
    if (opts.cosim_split != "rtl-network" && opts.cosim_split != "rtl-nics")
      throw UsageError("--cosim-split must be rtl-network | rtl-nics, got '" + opts.cosim_split + "'");
    const bool systemc = opts.engine == "systemc";
    TempFile temp;
    if (const auto* topo = std::get_if<Topology>(&net)) {  // direct networks: routers are the RTL half
      if (opts.cosim_split != "rtl-network")
        throw UsageError("--cosim-split rtl-nics is available for MINs; direct networks co-simulate RTL routers");
      const auto& s = std::get<Schedule>(any);
      std::string file = opts.schedule_file;
      if (file.empty() && opts.mode == "scheduled") {
        write_output_file(temp.path, [&](std::ostream& out) { write_schedule(out, *topo, s); });
        file = temp.path;
      }
      const DirectMode mode = opts.mode == "dynamic" ? DirectMode::Dynamic : DirectMode::Scheduled;
      const DynamicRouting routing = parse_dynamic_routing(opts.dynamic);
      return systemc ? run_systemc_direct(*topo, s, file, mode, opts.wave, routing)
                     : run_cosim_direct(*topo, s, file, mode, opts.wave, routing);
    }
    const auto& min = std::get<MinNetwork>(net);
    if (opts.mode == "dynamic") throw UsageError("--mode dynamic applies to direct networks, not to a MIN");
    const auto& s = std::get<MinSchedule>(any);
    std::string file = opts.schedule_file;
    if (file.empty()) {
      write_output_file(temp.path, [&](std::ostream& out) { write_min_schedule(out, min, s); });
      file = temp.path;
    }
    const MinConfigMode mode = opts.min_mode == "table" ? MinConfigMode::Table : MinConfigMode::Computed;
    if (systemc) return run_systemc_min(min, s, file, mode, opts.wave);
    return run_cosim_min(min, s, file, mode,
                         opts.cosim_split == "rtl-network" ? CosimSplit::RtlNetwork : CosimSplit::RtlNics, opts.wave);
  }
  throw UsageError("--engine must be ref | rtl | systemc | cosim, got '" + opts.engine + "'");
}

int cmd_sim() {
  const auto [net, schedule, claimed_steps] = load_or_make();
  // Only verified schedules are simulated: a simulator is not the place to discover a broken schedule.
  const VerifyReport report = std::visit(
      [&](const auto& s) -> VerifyReport {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, MinSchedule>) return verify(std::get<MinNetwork>(net), s, claimed_steps);
        else return verify(std::get<Topology>(net), s, claimed_steps);
      },
      schedule);
  if (!report.ok && opts.unverified) {
    std::cerr << "totex: warning: simulating a schedule that does not verify (" << report.violation_count
              << " violations), as --unverified asks\n";
  } else if (!report.ok) {
    std::cerr << "totex: the schedule does not verify; run `totex verify` on it:\n";
    for (const auto& e : errors_json(report)) std::cerr << "  " << e.get<std::string>() << '\n';
    return kCheckFailedExit;
  }
  const SimResult r = run_engine(net, schedule, claimed_steps);
  const std::string spec = std::visit([](const auto& x) { return x.topology; }, schedule);
  json j = json::parse(sim_result_json(r));
  j["topology"] = spec;
  j["algorithm"] = algorithm_of(schedule);
  j["mode"] = opts.mode;
  const bool dynamic = opts.mode == "dynamic";
  if (dynamic) {  // no cycle is predicted; the baseline is judged against the nic bound (all-port routers, single-port NICs)
    j["lower_bound"] = lower_bound(std::get<Topology>(net), Model::Nic).steps;
    j["dynamic"] = opts.dynamic;
  }
  sim_plot(net, schedule, r, dynamic, j);  // --plot: the cycle-level view
  print(j, [&] {
    std::cout << spec << " on " << r.engine << ": " << (r.ok() ? "PASS" : "FAIL") << ", " << r.delivered << "/"
              << r.expected_delivered << " messages delivered in " << r.cycles << " cycles ";
    if (dynamic)
      std::cout << "(dynamic " << opts.dynamic << " routing; nic lower bound " << j["lower_bound"] << ")\n";
    else
      std::cout << "(schedule predicts " << r.expected_cycles << ")\n";
    std::cout << "  trace sha256 " << r.trace_sha256 << '\n';
    if (r.simulated_cycles > 0)
      std::cout << "  " << r.simulated_cycles << " clock cycles simulated (loading included) in " << r.wall_seconds
                << " s: " << static_cast<std::int64_t>(r.cycles_per_second()) << " cycles/s\n";
    for (const auto& e : r.errors) std::cout << "  " << e << '\n';
    if (!r.wave.empty()) std::cout << "  waveform: " << r.wave << '\n';
    if (j.contains("plot")) std::cout << "  cycle-level view: " << j["plot"].get<std::string>() << '\n';
  });
  return r.ok() ? 0 : kCheckFailedExit;
}

}  // namespace

void register_sim(CLI::App& app, std::map<const CLI::App*, std::function<int()>>& actions) {
  CLI::App* sim = app.add_subcommand("sim", "run a schedule on an engine; a scoreboard checks every delivery");
  add_topo_model(sim, false);
  sim->add_option("--algo", opts.algo, "schedule to generate (as for `totex schedule`; default auto)");
  sim->add_option("--budget", opts.budget, "seconds the schedule search may take (as for `totex schedule`)")
      ->check(CLI::Range(0.1, 86400.0));
  sim->add_option("--schedule", opts.schedule_file, "schedule or configuration-matrix file to run instead");
  sim->add_option("--engine", opts.engine, "ref | rtl | systemc | cosim (default ref)")
      ->check(one_of({"ref", "rtl", "systemc", "cosim"}));
  sim->add_option("--mode", opts.mode, "scheduled | dynamic (direct networks; default scheduled)")
      ->check(one_of({"scheduled", "dynamic"}));
  sim->add_option("--dynamic", opts.dynamic,
                  "adaptive | dor: the dynamic router (default adaptive: minimal adaptive with DOR escape VCs, "
                  "send order relabelled at random; dor: the first dimension-order baseline, plain send order)")
      ->check(one_of({"adaptive", "dor"}));
  sim->add_option("--min-mode", opts.min_mode, "table | computed: MIN switch configuration (default table)")
      ->check(one_of({"table", "computed"}));
  sim->add_option("--cosim-split", opts.cosim_split,
                  "rtl-network | rtl-nics: which half of --engine cosim is Verilated RTL (default rtl-network)")
      ->check(one_of({"rtl-network", "rtl-nics"}));
  sim->add_option("--wave", opts.wave, "write a waveform (.fst or .vcd) of the run, and a GTKWave view FILE.gtkw");
  sim->add_flag("--unverified", opts.unverified,
                "run a schedule even if the verifier rejects it (fault injection: the scoreboard must catch it)");
  add_sim_plot_option(sim);
  actions[sim] = cmd_sim;
}

}  // namespace totex::cli
