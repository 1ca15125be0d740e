// SPDX-License-Identifier: Apache-2.0
#include "harness.hpp"

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <sstream>

#include "harness_exit.hpp"  // sim/: the exit codes the harnesses end with
#include "install_paths.hpp"
#include "model_cache.hpp"
#include "totex/error.hpp"
#include "totex/io/output_file.hpp"

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

MinHarnessRun min_harness_run(const MinNetwork& net, const MinSchedule& s, MinConfigMode mode,
                              const std::string& schedule_file, const std::string& wave, bool backdoor) {
  MinHarnessRun run;
  run.max_steps = net.terminals();
  while (run.max_steps < static_cast<int>(s.configurations.size())) run.max_steps *= 2;
  (void)min_configuration_writes(net, s, mode, MinPortLayout(net, run.max_steps, run.payload_bits));
  run.args = " --schedule " + quote(schedule_file) + " --min-mode " +
             (mode == MinConfigMode::Table ? "table" : "computed") + " --max-steps " + std::to_string(run.max_steps) +
             " --payload-bits " + std::to_string(run.payload_bits) + (backdoor ? " --load backdoor" : "") +
             (wave.empty() ? "" : " --wave " + quote(wave));
  return run;
}

DirectParams direct_run_params(const Topology& t, const Schedule& s, DirectMode mode, DynamicRouting routing) {
  DirectParams p;
  p.mode = mode;
  p.routing = routing;
  if (mode == DirectMode::Scheduled) {
    p.model = s.model;
    const auto entries = static_cast<std::int64_t>(s.steps.size()) + 1;
    while (p.depth < entries) p.depth *= 2;
    const int slots = direct_buffer_slots(t, s);
    p.buffer_slots = 0;
    if (slots > 0)
      for (p.buffer_slots = 1; p.buffer_slots < slots;) p.buffer_slots *= 2;
  } else {
    (void)dimension_order_routes(t, std::max(1, t.max_degree()), routing);
  }
  return p;
}

std::string direct_harness_args(const Topology& t, const DirectParams& p, const std::string& schedule_file,
                                const std::string& wave, bool backdoor) {
  std::string a = " --topo " + quote(t.spec()) + " --mode " + to_string(p.mode) + " --model " + to_string(p.model) +
                  " --depth " + std::to_string(p.depth) + " --buffer " + std::to_string(p.buffer_slots) +
                  " --fifo-depth " + std::to_string(p.fifo_depth) + " --payload-bits " + std::to_string(p.payload_bits);
  if (p.mode == DirectMode::Scheduled) a += " --schedule " + quote(schedule_file);
  else a += " --dynamic " + to_string(p.routing);
  if (backdoor) a += " --load backdoor";
  if (!wave.empty()) a += " --wave " + quote(wave);
  return a;
}

fs::path systemc_binary() {
  const fs::path binary = install_paths().systemc_binary;
  if (!fs::exists(binary)) throw UsageError("--engine systemc needs " + binary.string() + "; run `make build`");
  return binary;
}

SimResult run_systemc_harness(const std::string& command, const std::string& what, const std::string& wave) {
  SimResult r = run_harness("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 " + command, what);
  r.wave = wave;
  return r;
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

SimResult run_harness(const std::string& command, const std::string& what) {
  const auto [out, rc] = capture(command);
  // The harness's own message is on stderr already (sim/harness_exit.hpp has the codes).
  if (rc == sim::kHarnessUsageExit) throw UsageError(what + " refused its input (its message is above)");
  if (rc != 0 && rc != 1) {
    // popen runs the command through sh, which reports a process killed by signal S as 128 + S.
    const std::string how = rc < 0      ? "killed by a signal"
                            : rc > 128 ? "killed by signal " + std::to_string(rc - 128)
                                       : "exit " + std::to_string(rc);
    throw ToolError("tool: " + what + " failed (" + how + "); its message, if any, is above");
  }
  return parse_result(out, what);
}

bool wave_is_vcd(const std::string& wave, bool vcd_only) {
  if (wave.empty()) return false;
  if (ends_with(wave, ".vcd")) return true;
  if (vcd_only) throw UsageError("--wave must name a .vcd file for this engine (SystemC traces VCD), got '" + wave + "'");
  if (!ends_with(wave, ".fst")) throw UsageError("--wave must name a .fst or .vcd file, got '" + wave + "'");
  return false;
}

}  // namespace totex::hw
