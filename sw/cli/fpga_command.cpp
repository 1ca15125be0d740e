// SPDX-License-Identifier: Apache-2.0
/// `totex fpga`: one TDM tile for a network's schedule, synthesized, placed and routed for iCE40
/// (rtl/synth/tdm_synth.sh): LUT4, flip-flops, block RAM, logic cells, Fmax, and what an exchange
/// takes at that clock (docs/tdm-runs.md).
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>  // renameat2
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "schema_options.hpp"
#include "totex/error.hpp"
#include "totex/io/output_file.hpp"
#include "totex/io/schedule_io.hpp"
#include "totex/generators/traffic_schedule.hpp"
#include "totex/tdm_fpga.hpp"
#include "totex/tdm_run.hpp"
#include "totex/tdm_tables.hpp"
#include "totex/verify/message_index.hpp"

namespace totex::cli {
namespace {

struct FpgaOptions : CommonOptions {
  std::string schedule_file;
  std::string device = "up5k";
  int payload = kTdmDefaultPayloadBits;
  int seed = 1;
  int period = 0;
  std::string out;
  std::string tables_out;
  bool bits_in_flops = false;
  std::string placer = "heap";
  bool sweep = false;  // seeds 1-3 with every placer, the fastest kept (the report's rule)
  std::string traffic = "all";  // --traffic: the tables of the traffic's periodic schedule (one flit per pair and period)
};

/// One place-and-route of a sweep: its seed and placer, and its result unless nextpnr stalled.
struct FpgaRun {
  int seed = 0;
  std::string placer;
  std::optional<TdmSynthResult> result;
  std::string dir;
};

/// The schedule: loaded from --schedule (its topology and model must match --topo and --model
/// when given) or generated, and verified either way.
std::pair<Topology, Schedule> fpga_schedule(const FpgaOptions& o) {
  if (!o.schedule_file.empty()) {
    if (!o.algo.empty()) throw UsageError("--algo and --schedule exclude each other");
    LoadedSchedule loaded = read_schedule_file(o.schedule_file);
    auto* s = std::get_if<Schedule>(&loaded.schedule);
    if (!s) throw UsageError("--schedule " + o.schedule_file + ": a MIN configuration file; the TDM tile is for direct networks");
    const Topology t = parse_topology(s->topology);
    if (!o.topo.empty() && parse_topology(o.topo).spec() != t.spec())
      throw UsageError("--topo " + o.topo + " does not match the schedule file's topology " + t.spec());
    if (!o.model.empty() && parse_model(o.model) != s->model)
      throw UsageError("--model " + o.model + " does not match the schedule file's model " + to_string(s->model));
    if (o.traffic != "all") throw UsageError("--traffic and --schedule exclude each other: the file records its traffic");
    if (o.tables_out.empty()) check_tdm_tile_can_fit(t, s->model, o.device, o.payload);
    s->materialize();
    // A traffic schedule: verified against the traffic it records (read again, digest checked).
    const std::optional<Traffic> traffic = recorded_traffic(t, *s);
    const VerifyReport report =
        verify(t, *s, loaded.claimed_steps, run_limits(), traffic ? &*traffic : nullptr);
    if (!report.ok) {
      std::string first;
      for (const auto& e : errors_json(report)) {
        first = e.get<std::string>();
        break;
      }
      throw UsageError("--schedule " + o.schedule_file + " does not verify (" + first + "); run `totex verify` on it");
    }
    return {t, std::move(*s)};
  }
  if (o.topo.empty()) throw UsageError("--topo or --schedule is required");
  const Network net = parse_spec(o.topo);
  if (std::holds_alternative<MinNetwork>(net))
    throw UsageError("--topo " + o.topo + ": a MIN; the TDM tile is a router of direct networks (torus, mesh, hypercube, ...)");
  const Topology& t = std::get<Topology>(net);
  const Model model = model_for(net, o.model);
  if (o.tables_out.empty()) check_tdm_tile_can_fit(t, model, o.device, o.payload);  // before the schedule search
  if (o.traffic != "all") {
    const Traffic traffic = parse_traffic(o.traffic, t);
    if (!is_all_traffic(t, &traffic)) {  // the traffic's periodic schedule (schedule_traffic verifies it)
      TrafficRequest request;
      request.algorithm = o.algo.empty() ? "auto" : o.algo;
      request.budget_seconds = o.budget;
      request.limits = run_limits();
      request.periodic = true;
      TrafficOutcome out = schedule_traffic(t, model, traffic, request);
      const VerifyReport report = verify(t, out.schedule, std::nullopt, run_limits(), &traffic);
      if (!report.ok) throw ToolError("tool: the generated traffic schedule does not verify; run `totex schedule` on it");
      return {t, std::move(out.schedule)};
    }
  }
  Schedule s = std::get<Schedule>(make_schedule(net, model, o.algo, o.budget));
  const VerifyReport report = verify(t, s);
  if (!report.ok) throw ToolError("tool: the generated schedule does not verify; run `totex schedule` on it");
  return {t, std::move(s)};
}

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

std::string make_out_dir(const std::string& given) {
  if (!given.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(given, ec);
    if (ec) throw OutputError(given + ": " + ec.message());
    return given;
  }
  std::string name = (std::filesystem::temp_directory_path() / "totex-fpga-XXXXXX").string();
  if (!::mkdtemp(name.data())) throw OutputError(name + ": cannot create a temporary directory");
  return name;
}

/// A new directory beside `dir` (same file system, so it can be renamed onto it).
std::string temporary_beside(const std::string& dir) {
  const std::filesystem::path target = std::filesystem::absolute(dir).lexically_normal();
  const std::filesystem::path parent = target.has_filename() ? target.parent_path() : target.parent_path().parent_path();
  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  if (ec) throw OutputError(parent.string() + ": " + ec.message());
  std::string name = (parent / ("." + target.filename().string() + ".totex-XXXXXX")).string();
  if (!::mkdtemp(name.data())) throw OutputError(name + ": cannot create a temporary directory");
  const mode_t mask = ::umask(0);  // mkdtemp makes it 0700; the set gets a new directory's mode
  ::umask(mask);
  std::filesystem::permissions(name, static_cast<std::filesystem::perms>(0777 & ~mask), ec);
  return name;
}

/// Whether `dir` holds only what --tables-out writes (node<v>.hex, tables.json), so that it may be
/// replaced as a whole.
bool only_tables(const std::filesystem::path& dir) {
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string f = e.path().filename().string();
    const bool node_hex = f.rfind("node", 0) == 0 && f.size() > 8 && f.compare(f.size() - 4, 4, ".hex") == 0 &&
                          f.find_first_not_of("0123456789", 4) == f.size() - 4;
    if (!e.is_regular_file() || (!node_hex && f != "tables.json")) return false;
  }
  return true;
}

/// Puts the directory `staged` in place of `dir` in one step (renameat2 RENAME_EXCHANGE when `dir`
/// exists, so a reader sees the whole old set or the whole new one) and removes the old set.
void replace_directory(const std::string& staged, const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) {
    std::filesystem::rename(staged, dir, ec);
    if (ec) throw OutputError(dir + ": " + ec.message());
    return;
  }
  if (!std::filesystem::is_directory(dir, ec) || !only_tables(dir))
    throw OutputError(dir + ": holds other files than a --tables-out set (node<v>.hex, tables.json); "
                      "give a new directory or one written by --tables-out");
  if (::renameat2(AT_FDCWD, staged.c_str(), AT_FDCWD, dir.c_str(), RENAME_EXCHANGE) != 0)
    throw OutputError(dir + ": cannot replace it with " + staged + ": " + std::strerror(errno));
  std::filesystem::remove_all(staged, ec);  // now the old set; a left-over is harmless
}

/// --tables-out DIR: every node's slot table as DIR/node<v>.hex (write_tdm_hex_files) and the tile
/// parameters as DIR/tables.json, for a board with the whole network (rtl/board/); no synthesis.
/// The set is written into a new directory beside DIR and renamed into place, so DIR holds the
/// whole old set or the whole new one, never a mix (a full disk, a failed write).
int cmd_fpga_tables(const FpgaOptions& o) {
  const auto [t, s] = fpga_schedule(o);
  const TdmTables tables = tdm_tables(t, s, o.period, o.payload);
  const TdmTileParams& tile = tables.tile;
  const std::string dir = o.tables_out;
  const std::string staged = temporary_beside(dir);
  std::vector<std::string> files;
  try {
    for (const std::string& f : write_tdm_hex_files(tables, staged))
      files.push_back((std::filesystem::path(dir) / std::filesystem::path(f).filename()).string());
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove_all(staged, ignored);
    throw;
  }
  json j{{"topology", t.spec()}, {"model", to_string(s.model)}, {"algorithm", s.algorithm}, {"nodes", t.nodes()}};
  if (const std::optional<Traffic> traffic = recorded_traffic(t, s)) j["traffic"] = traffic_json(*traffic);
  put_schema_json(j, tile);  // kind, ports, payload, node_bits, depth (schema::tdm_tile_fields)
  j["entry_bits"] = tile.entry_bits();
  j["buffer_words"] = tile.buffer_words;
  j["steps"] = tables.steps;
  j["period"] = tables.period;
  j["tables"] = files;
  j["out"] = dir;
  if (tile.kind == TileKind::AllPort) j["lanes"] = tables.lanes;  // [node][dst]: the s_axis lane its core offers dst's message on
  // Multi-flit all-port: [node][dst * flits + f] the lane flit f of the pair is offered on (a pair's
  // flits may leave on different links; "lanes" has the lane of the flit that leaves first).
  if (!tables.flit_lanes.empty()) j["flit_lanes"] = tables.flit_lanes;
  const std::string params = (std::filesystem::path(dir) / "tables.json").string();
  try {
    write_output_file((std::filesystem::path(staged) / "tables.json").string(),
                      [&](std::ostream& out) { out << json_text(j) << '\n'; });  // non-UTF-8 names escaped
    replace_directory(staged, dir);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove_all(staged, ignored);
    throw;
  }
  print(o.json, j, [&] {
    std::cout << t.spec() << ", " << to_string(s.model) << " (" << s.algorithm << ", " << tables.steps << " steps): "
              << files.size() << " TDM slot tables (period " << tables.period << ", " << tile.depth << " slots of "
              << tile.entry_bits() << " bits; " << tile.ports << " ports, " << tile.node_bits << " node bits) in "
              << dir << "/node<v>.hex, parameters in " << params << '\n';
  });
  return 0;
}

int cmd_fpga(const FpgaOptions& o) {
  const schema::HwEnvironment env = schema::read_hw_environment([](const char* name) { return std::getenv(name); });
  if (!o.tables_out.empty()) return cmd_fpga_tables(o);
  (void)tdm_synth_script(env.tdm_synth);  // before any scheduling: the script must be there
  const auto [t, s] = fpga_schedule(o);
  TdmTables tables = tdm_tables(t, s, o.period, o.payload);
  // The synthesized tile holds exactly the period's slots. tdm_tables rounds the depth up to a power
  // of two so that the Verilated tile models (one build per depth) are shared by many schedules; a
  // bitstream is built for one schedule, and the report's tile rows are sized the same way.
  tables.tile.depth = tables.period;
  TdmTileParams tile = tables.tile;
  tile.bits_in_flops = o.bits_in_flops;
  const std::string dir = make_out_dir(o.out);
  const std::string hex = (std::filesystem::path(dir) / "node0.hex").string();
  write_output_file(hex, [&](std::ostream& out) { out << tdm_hex_image(tables, 0); });
  std::cerr << "totex: synthesizing one TDM tile for " << t.spec() << " (" << tile.ports << " ports, " << tile.payload_bits
            << "-bit payload, " << tile.node_bits << " node bits, " << tile.depth << " slots, node 0's table " << hex
            << ") for iCE40 " << o.device << ", "
            << (o.sweep ? "seeds 1-3 with the heap and sa placers" : "seed " + std::to_string(o.seed) + ", placer " + o.placer)
            << " in " << dir << '\n';
  std::vector<FpgaRun> runs;
  if (o.sweep) {
    for (const std::string& placer : tdm_fpga_placers())
      for (int seed = 1; seed <= 3; ++seed)
        runs.push_back({seed, placer, std::nullopt, (std::filesystem::path(dir) / (placer + "-s" + std::to_string(seed))).string()});
  } else {
    runs.push_back({o.seed, o.placer, std::nullopt, dir});
  }
  const FpgaRun* best_run = nullptr;
  for (FpgaRun& run : runs) {
    if (o.sweep) std::cerr << "totex: place and route with seed " << run.seed << ", placer " << run.placer << '\n';
    try {
      run.result = run_tdm_synth(tile, o.device, run.seed, run.placer, hex, run.dir, env.tdm_synth);
    } catch (const ToolError& e) {
      // In a sweep a stalled or failed run is listed, and the others go on.
      if (!o.sweep) throw;
      std::cerr << "totex: " << e.what() << '\n';
      continue;
    }
    const auto fmax = [](const FpgaRun* x) { return x->result->fmax_mhz.value_or(0.0); };
    if (best_run == nullptr || fmax(&run) > fmax(best_run)) best_run = &run;
  }
  if (best_run == nullptr) throw ToolError("tool: no run of the sweep finished; see the logs in " + dir);
  const TdmSynthResult& r = *best_run->result;
  const std::int64_t cycles = tables.steps + 1;  // one exchange: entries 0..T, one register per hop
  json j{{"topology", t.spec()},
         {"model", to_string(s.model)},
         {"algorithm", s.algorithm},
         {"device", o.device},
         {"seed", best_run->seed},
         {"placer", best_run->placer},
         {"ports", tile.ports},
         {"payload", tile.payload_bits},
         {"node_bits", tile.node_bits},
         {"depth", tile.depth},
         {"entry_bits", tile.entry_bits()},
         {"buffer_words", tile.buffer_words},
         {"bits_in_flops", tile.bits_in_flops},
         {"lut4", r.lut4},
         {"ff", r.ff},
         {"bram", r.bram},
         {"lc", r.lc},
         {"fmax_mhz", r.fmax_mhz ? json(*r.fmax_mhz) : json(nullptr)},
         {"fits", r.fits},
         {"steps", tables.steps},
         {"cycles", cycles},
         {"period", tables.period},
         {"table", hex},
         {"out", dir},
         {"result", r.result_file}};
  if (const std::optional<Traffic> traffic = recorded_traffic(t, s)) j["traffic"] = traffic_json(*traffic);
  if (tile.queue_depth > 1) j["queue_depth"] = tile.queue_depth;  // multi-flit traffic (`all`: no key, as before)
  if (o.sweep) {
    json list = json::array();
    for (const FpgaRun& run : runs)
      list.push_back({{"seed", run.seed},
                      {"placer", run.placer},
                      {"finished", run.result.has_value()},
                      {"fmax_mhz", run.result && run.result->fmax_mhz ? json(*run.result->fmax_mhz) : json(nullptr)},
                      {"lc", run.result ? json(run.result->lc) : json(nullptr)},
                      {"result", run.result ? json(run.result->result_file) : json(nullptr)}});
    j["sweep"] = true;
    j["runs"] = list;
  }
  if (r.fmax_mhz && *r.fmax_mhz > 0) {
    j["exchange_ns"] = static_cast<double>(cycles) * 1000.0 / *r.fmax_mhz;
    j["period_ns"] = static_cast<double>(tables.period) * 1000.0 / *r.fmax_mhz;
  } else {
    j["exchange_ns"] = nullptr;
    j["period_ns"] = nullptr;
  }
  print(o.json, j, [&] {
    std::cout << t.spec() << ", " << to_string(s.model) << " (" << s.algorithm << ", " << tables.steps
              << " steps): one TDM tile on iCE40 " << o.device << " (seed " << best_run->seed << ", placer "
              << best_run->placer << (o.sweep ? ", the fastest of the sweep" : "") << ")\n";
    if (o.sweep) {
      std::cout << "  sweep:";
      for (const FpgaRun& run : runs)
        std::cout << ' ' << run.placer << " s" << run.seed << ' '
                  << (!run.result ? std::string("did not finish")
                                  : run.result->fmax_mhz ? fixed(*run.result->fmax_mhz, 1) + " MHz" : std::string("n/a"))
                  << (&run == &runs.back() ? "" : ",");
      std::cout << '\n';
    }
    std::cout << "  tile: " << (tile.kind == TileKind::Nic ? "" : tdm_tile_kind_info(tile.kind).name + std::string(", ")) << tile.ports
              << " ports, " << tile.payload_bits << "-bit payload, " << tile.node_bits << " node bits, " << tile.depth
              << " slots of " << tile.entry_bits() << " bits";
    if (tile.kind == TileKind::SinglePort) std::cout << ", relay buffer of " << tile.buffer_words << " words";
    if (tile.bits_in_flops) std::cout << ", toggle bits in flip-flops";
    if (tile.queue_depth > 1) std::cout << ", NIC queue of " << tile.queue_depth << " messages per destination";
    std::cout << '\n';
    std::cout << "  LUT4 " << r.lut4 << ", FF " << r.ff << ", block RAM " << r.bram << ", LC " << r.lc << ", Fmax "
              << (r.fmax_mhz ? fixed(*r.fmax_mhz, 1) + " MHz" : std::string("n/a")) << '\n';
    std::cout << "  one exchange: " << cycles << " cycles (T + 1)";
    if (j["exchange_ns"].is_number()) std::cout << " = " << fixed(j["exchange_ns"].get<double>(), 1) << " ns";
    std::cout << "; periodic: one exchange every " << tables.period << " cycles";
    if (j["period_ns"].is_number()) std::cout << " = " << fixed(j["period_ns"].get<double>(), 1) << " ns";
    std::cout << "\n  reports: " << dir << '\n';
  });
  return 0;
}

}  // namespace

void register_fpga(CLI::App& app, Actions& actions) {
  CLI::App* fpga = app.add_subcommand(
      "fpga", "synthesize one TDM router tile (slot table from the schedule) for iCE40: resources, Fmax, exchange time");
  auto opts = std::make_shared<FpgaOptions>();
  FpgaOptions& o = *opts;
  add_topo_model(fpga, o, false);
  fpga->add_option("--algo", o.algo, "schedule to generate (as for `totex schedule`; default auto)")
      ->check(non_empty("algorithm name", "auto or an algorithm of `totex schedule --help`"));
  fpga->add_option("--budget", o.budget, "seconds the schedule search may take (as for `totex schedule`)")
      ->check(budget_seconds());
  fpga->add_option("--schedule", o.schedule_file, "nic, all-port or single-port schedule file to use instead (verified first)");
  fpga->add_option("--device", o.device, "up5k | hx8k: the iCE40 to place and route for (default up5k)")
      ->check(one_of(tdm_fpga_devices()));
  fpga->add_option("--payload", o.payload,
                   "payload bits of a flit, 1..64 (default " + std::to_string(kTdmDefaultPayloadBits) + ")")
      ->check(integer_in(1, 64));
  CLI::Option* seed = fpga->add_option("--seed", o.seed, "nextpnr placement seed, 0..2147483647 (default 1)")
                          ->check(integer_in(0, 2147483647));
  CLI::Option* placer =
      fpga->add_option("--placer", o.placer, "heap | sa: nextpnr's placer (default heap; sa is steadier and faster on the nic tile but can stall)")
          ->check(one_of(tdm_fpga_placers()));
  CLI::Option* sweep = fpga->add_flag("--sweep", o.sweep,
                 "place and route with seeds 1, 2 and 3 and both placers (six runs, as the report counts) and "
                 "report the fastest, every run listed; a run that stalls is listed and skipped")
      ->excludes(seed)
      ->excludes(placer);
  fpga->add_flag("--bits-in-flops", o.bits_in_flops,
                 "the NIC's toggle bits in flip-flops instead of block RAM (four block RAMs fewer per NIC lane, slower)");
  add_traffic_option(fpga, o.traffic,
                     " (the tables of its periodic schedule; several flits to one destination per period give every "
                     "NIC lane a queue per destination, sized from the schedule)");
  fpga->add_option("--period", o.period, "slots per period (default: as `totex sim --periods`)")
      ->check(integer_in(1, 1 << 30));
  fpga->add_option("--out", o.out, "directory for the table image, logs and result.json (default: a new temporary one)")
      ->check(output_path());
  fpga->add_option("--tables-out", o.tables_out,
                   "write every node's slot table (DIR/node<v>.hex) and DIR/tables.json, then stop (no synthesis)")
      ->check(output_path())
      ->excludes(sweep);
  actions[fpga] = [opts] { return cmd_fpga(*opts); };
}

}  // namespace totex::cli
