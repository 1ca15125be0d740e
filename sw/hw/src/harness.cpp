// SPDX-License-Identifier: Apache-2.0
#include "harness.hpp"

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <sstream>

#include "harness_exit.hpp"  // sim/: the exit codes the harnesses end with
#include "install_paths.hpp"
#include "model_cache.hpp"
#include "process.hpp"
#include "totex/error.hpp"
#include "totex/io/output_file.hpp"
#include "totex/verify/message_index.hpp"

namespace totex::hw {
namespace {

namespace fs = std::filesystem;

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

HarnessScheduleFile::HarnessScheduleFile(const std::string& given, const std::function<void(std::ostream&)>& write) {
  if (!given.empty()) {
    path_ = given;
    return;
  }
  std::string name = (fs::temp_directory_path() / "totex-XXXXXX").string();
  const int fd = ::mkstemp(name.data());
  if (fd < 0) throw UsageError("cannot create a temporary file");
  ::close(fd);
  path_ = name;
  temporary_ = true;
  write_output_file(path_, write);
}

HarnessScheduleFile::~HarnessScheduleFile() {
  if (!temporary_) return;
  std::error_code ignored;  // a destructor does not throw; a left-over temporary file is harmless
  fs::remove(path_, ignored);
}

void check_wave_writable(const std::string& wave) {
  if (wave.empty()) return;
  for (const std::string& path : {wave, wave + ".gtkw"}) OutputFile probe(path);  // uncommitted: removed
}

schema::MinHarnessArgs min_harness_args(const MinNetwork& net, const MinSchedule& s, const RunOptions& o,
                                        const std::string& schedule_file) {
  schema::MinHarnessArgs a;
  a.max_steps = net.terminals();
  while (a.max_steps < static_cast<int>(s.configurations.size())) a.max_steps *= 2;
  (void)min_configuration_writes(net, s, o.min_mode, MinPortLayout(net, a.max_steps, a.payload_bits));
  a.schedule = schedule_file;
  a.min_mode = o.min_mode;
  a.load = o.load;
  a.wave = o.wave;
  return a;
}

DirectParams direct_run_params(const Topology& t, const Schedule& s, const RunOptions& o) {
  DirectParams p;
  p.mode = o.mode;
  p.routing = o.routing;
  if (o.mode == DirectMode::Scheduled) {
    p.model = s.model;
    const auto entries = static_cast<std::int64_t>(s.steps.size()) + 1;
    while (p.depth < entries) p.depth *= 2;
    p.flits = direct_schedule_flits(s);  // multi-flit traffic: the NIC holds every flit of a pair
    const int slots = direct_buffer_slots(t, s);
    p.buffer_slots = 0;
    if (slots > 0)
      for (p.buffer_slots = 1; p.buffer_slots < slots;) p.buffer_slots *= 2;
  } else {
    (void)dimension_order_routes(t, std::max(1, t.max_degree()), o.routing);
    p.fifo_depth = o.direct.fifo_depth;  // --fifo-depth
    if (o.traffic && !is_all_traffic(t, o.traffic.get())) {  // the send queues hold (N - 1) x the heaviest pair
      const PairFlits most = heaviest_pair(*o.traffic);
      const std::int64_t slots = std::int64_t{std::max(1, t.nodes() - 1)} * most.flits;
      if (slots > kMaxDynamicQueueSlots)
        throw UsageError("--traffic " + o.traffic->spec() + ": pair (" + std::to_string(most.src) + "," +
                         std::to_string(most.dst) + ") sends " + std::to_string(most.flits) +
                         " flits, so every dynamic NIC's send queue would need (N - 1) x " + std::to_string(most.flits) +
                         " = " + std::to_string(slots) + " slots; --mode dynamic builds at most " +
                         std::to_string(kMaxDynamicQueueSlots));
      p.flits = static_cast<int>(std::max<std::int64_t>(1, most.flits));
    }
  }
  return p;
}

schema::DirectHarnessArgs direct_harness_args(const Topology& t, const DirectParams& p, const std::string& schedule_file,
                                              const RunOptions& o) {
  schema::DirectHarnessArgs a = schema::DirectHarnessArgs::from(t.spec(), p);
  if (p.mode == DirectMode::Scheduled) a.schedule = schedule_file;
  if (p.mode == DirectMode::Dynamic && o.traffic && !is_all_traffic(t, o.traffic.get())) {
    a.traffic = o.traffic->spec();  // the harness reads it again (as a schedule file's traffic)
    a.traffic_sha256 = o.traffic->sha256();
  }
  a.load = o.load;
  a.wave = o.wave;
  a.skip_quiet = o.env.wired_skip_quiet;
  return a;
}

schema::TdmHarnessArgs tdm_harness_args(const Topology& t, const TdmTables& tables, const std::string& schedule_file,
                                        const RunOptions& o) {
  schema::TdmHarnessArgs a = o.tdm;
  a.topo = t.spec();
  a.schedule = schedule_file;
  a.period = tables.period;
  a.payload = tables.tile.payload_bits;
  a.fault = o.env.tdm_fault;
  return a;
}

void check_tdm_tile_period(const TdmTables& tables, const RunOptions& o) {
  if (tables.period >= kTdmTileMinPeriod || o.tdm.period > 0) return;
  throw UsageError("period " + std::to_string(tables.period) + " (the schedule's own) is below the TDM tiles' minimum period " +
                   std::to_string(kTdmTileMinPeriod) + ": a destination's slots must be at least " +
                   std::to_string(kTdmTileMinPeriod) + " cycles apart (docs/tdm-runs.md, Limits); give --period " +
                   std::to_string(kTdmTileMinPeriod) + " or more, or run --engine ref");
}

void note_short_period(SimResult& r, const TdmTables& tables) {
  if (r.ok() || tables.period >= kTdmTileMinPeriod) return;
  r.errors.insert(r.errors.begin(),
                  "period " + std::to_string(tables.period) + " is below the TDM tiles' minimum period " +
                      std::to_string(kTdmTileMinPeriod) + ": a destination's slots closer than " +
                      std::to_string(kTdmTileMinPeriod) +
                      " cycles make its next message late (docs/tdm-runs.md, Limits); give --period " +
                      std::to_string(kTdmTileMinPeriod) + " or more");
}

fs::path systemc_binary() {
  const fs::path binary = install_paths().systemc_binary;
  if (!fs::exists(binary)) throw UsageError("--engine systemc needs " + binary.string() + "; run `make build`");
  return binary;
}

namespace {

/// Reads the "TOTEX-RESULT {json}" line of a harness's stdout; every other line (simulator output,
/// assertion messages) is passed on to stderr. Throws ToolError naming `what` without a result.
SimResult parse_result(const std::string& out, const std::string& what) {
  const std::string marker = "TOTEX-RESULT ";
  std::istringstream lines(out);
  std::string result;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(marker, 0) == 0) result = line.substr(marker.size());
    else std::cerr << line << '\n';
  }
  try {
    return parse_sim_result(result);
  } catch (const std::exception& e) {  // a harness that exits 0 or 1 always prints one
    throw ToolError("tool: " + what + " printed no result (" + e.what() + ")");
  }
}

}  // namespace

SimResult run_harness(const fs::path& binary, const std::vector<std::string>& args, const std::string& what,
                      bool systemc, const std::string& wave) {
  std::vector<std::string> argv = {binary.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  const ProcessResult child = run_process(argv, ChildOutput::Capture, "",
                                          systemc ? std::vector<std::string>{"SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1"}
                                                  : std::vector<std::string>{});
  // The harness's own message is on stderr already (sim/harness_exit.hpp has the codes).
  if (child.exit_code == sim::kHarnessUsageExit) throw UsageError(what + " refused its input (its message is above)");
  if (child.exit_code != 0 && child.exit_code != 1) {
    const std::string how = child.signal != 0 ? "killed by signal " + std::to_string(child.signal)
                                              : "exit " + std::to_string(child.exit_code);
    throw ToolError("tool: " + what + " failed (" + how + "); its message, if any, is above");
  }
  SimResult r = parse_result(child.out, what);
  r.wave = wave;
  return r;
}

bool wave_is_vcd(const std::string& wave, bool vcd_only) {
  if (wave.empty()) return false;
  if (ends_with(wave, ".vcd")) return true;
  if (vcd_only) throw UsageError("--wave must name a .vcd file for this engine (SystemC traces VCD), got '" + wave + "'");
  if (!ends_with(wave, ".fst")) throw UsageError("--wave must name a .fst or .vcd file, got '" + wave + "'");
  return false;
}

}  // namespace totex::hw
