// SPDX-License-Identifier: Apache-2.0
#include "rtl_engine.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "totex/error.hpp"
#include "totex/sha256.hpp"

namespace totex::cli {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Everything the cached binary was built from: if any of it changes, it is rebuilt.
std::string fingerprint(const std::vector<fs::path>& inputs, const std::string& command) {
  std::string all = command;
  for (const fs::path& p : inputs) all += p.string() + '\n' + read_all(p);
  return sha256_hex(all);
}

fs::path cache_root() {
  if (const char* env = std::getenv("TOTEX_CACHE_DIR"); env && *env) return env;
  return fs::path(TOTEX_BINARY_DIR) / "rtl-cache";
}

std::string quote(const std::string& s) { return "'" + s + "'"; }

/// Holds an exclusive lock on a file while alive, so parallel runs do not build the same model twice.
class FileLock {
 public:
  explicit FileLock(const fs::path& p) : fd_(::open(p.c_str(), O_CREAT | O_RDWR, 0644)) {
    if (fd_ < 0 || ::flock(fd_, LOCK_EX) != 0) throw UsageError("cannot lock " + p.string());
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

/// Runs a shell command and returns its stdout and exit status.
std::pair<std::string, int> capture(const std::string& command) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw UsageError("cannot run " + command);
  std::array<char, 4096> buf{};
  for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0;) out.append(buf.data(), n);
  const int status = ::pclose(pipe);
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

/// Builds (if needed) and returns the harness binary for one parameter set.
fs::path build_model(const std::string& key, const std::vector<std::string>& verilator_args,
                     const std::vector<fs::path>& sources, const fs::path& main_source) {
  const fs::path dir = cache_root() / key;
  fs::create_directories(dir);
  const FileLock lock(dir / ".lock");
  const fs::path binary = dir / "harness";
  std::string command = "verilator --cc --exe --build -j 2 --assert -Wno-fatal -O2 --top-module totex_min_top";
  for (const std::string& a : verilator_args) command += " " + a;
  command += " -CFLAGS " + quote("-std=c++20 -O1 -I" + std::string(TOTEX_SOURCE_DIR) + "/sw/include -I" +
                                 std::string(TOTEX_SOURCE_DIR) + "/sim");
  command += " -LDFLAGS " + quote(std::string(TOTEX_CORE_LIB) + " -lz");
  command += " --Mdir " + quote((dir / "obj").string()) + " -o " + quote(binary.string());
  for (const fs::path& s : sources) command += " " + quote(s.string());
  command += " " + quote(main_source.string());
  std::vector<fs::path> inputs = sources;
  inputs.push_back(main_source);
  inputs.emplace_back(fs::path(TOTEX_SOURCE_DIR) / "sim" / "vl_harness.hpp");
  inputs.emplace_back(TOTEX_CORE_LIB);
  const std::string stamp = fingerprint(inputs, command);
  if (fs::exists(binary) && read_all(dir / "stamp") == stamp) return binary;
  const fs::path log = dir / "build.log";
  const char* ccache = std::system("command -v ccache >/dev/null 2>&1") == 0 ? "OBJCACHE=ccache " : "";
  const auto [out, rc] = capture(std::string(ccache) + command + " > " + quote(log.string()) + " 2>&1");
  if (rc != 0 || !fs::exists(binary))
    throw UsageError("building the Verilated model failed; see " + log.string());
  std::ofstream(dir / "stamp") << stamp;
  return binary;
}

SimResult parse_result(const std::string& out, const std::string& what) {
  SimResult r;
  try {
    const nlohmann::json j = nlohmann::json::parse(out);
    r.engine = j.at("engine");
    r.cycles = j.at("cycles");
    r.expected_cycles = j.at("expected_cycles");
    r.delivered = j.at("delivered");
    r.expected_delivered = j.at("expected_delivered");
    r.errors = j.at("errors").get<std::vector<std::string>>();
    r.wall_seconds = j.at("wall_seconds");
    r.simulated_cycles = j.at("simulated_cycles");
    r.trace_sha256 = j.at("trace_sha256");
  } catch (const std::exception& e) {
    throw UsageError(what + " printed no result (" + e.what() + ")");
  }
  return r;
}

}  // namespace

SimResult run_rtl_min(const MinNetwork& net, const MinSchedule& s, const std::string& schedule_file,
                      MinConfigMode mode, const std::string& wave) {
  // Table memories hold one entry per step: N by default, more for longer (baseline) schedules.
  std::int64_t max_steps = net.terminals();
  while (max_steps < static_cast<std::int64_t>(s.configurations.size())) max_steps *= 2;
  const bool vcd = wave.size() > 4 && wave.substr(wave.size() - 4) == ".vcd";
  if (!wave.empty() && !vcd && (wave.size() < 4 || wave.substr(wave.size() - 4) != ".fst"))
    throw UsageError("--wave must name a .fst or .vcd file, got '" + wave + "'");
  const int payload_bits = 16;
  const int mode_id = mode == MinConfigMode::Table ? 0 : 1;
  const int wiring = static_cast<int>(net.wiring());
  const std::string key = "min_" + std::to_string(net.terminals()) + "_" + std::to_string(net.radix()) + "_" +
                          to_string(net.wiring()) + (mode_id ? "_computed" : "_table") + "_s" +
                          std::to_string(max_steps) + (vcd ? "_vcd" : "_fst");
  const std::string defines = "-DTOTEX_N=" + std::to_string(net.terminals()) + " -DTOTEX_D=" +
                              std::to_string(net.radix()) + " -DTOTEX_WIRING=" + std::to_string(wiring) +
                              " -DTOTEX_MODE=" + std::to_string(mode_id) + " -DTOTEX_MAX_STEPS=" +
                              std::to_string(max_steps) + " -DTOTEX_PW=" + std::to_string(payload_bits);
  const fs::path rtl = fs::path(TOTEX_SOURCE_DIR) / "rtl";
  const std::vector<fs::path> sources = {rtl / "totex_pkg.sv",   rtl / "totex_shift_switch.sv", rtl / "totex_switch_state.sv",
                                         rtl / "totex_nic.sv",   rtl / "totex_banyan.sv",       rtl / "totex_min_top.sv"};
  const fs::path binary = build_model(
      key,
      {vcd ? "--trace" : "--trace-fst", "-GN=" + std::to_string(net.terminals()), "-GD=" + std::to_string(net.radix()),
       "-GPW=" + std::to_string(payload_bits), "-GWiring=" + std::to_string(wiring), "-GMode=" + std::to_string(mode_id),
       "-GMaxSteps=" + std::to_string(max_steps), "-CFLAGS " + quote(defines)},
      sources, fs::path(TOTEX_SOURCE_DIR) / "sim" / "min_rtl_main.cpp");
  (void)s;
  const auto [out, rc] = capture(quote(binary.string()) + " " + quote(schedule_file) + (wave.empty() ? "" : " " + quote(wave)));
  if (rc == 2 || out.empty()) throw UsageError("the RTL harness could not run " + schedule_file);
  SimResult r = parse_result(out, binary.string());
  r.wave = wave;
  return r;
}

}  // namespace totex::cli
