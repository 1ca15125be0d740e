// SPDX-License-Identifier: Apache-2.0
#include "model_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "install_paths.hpp"
#include "totex/error.hpp"
#include "totex/output_file.hpp"
#include "totex/sha256.hpp"

namespace totex::cli {
namespace {

namespace fs = std::filesystem;

/// The whole content of a file ("" when it does not exist).
std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Writes `text` to `p` unless it holds exactly that already (so its time stamp stays).
void write_if_changed(const fs::path& p, const std::string& text) {
  if (!fs::exists(p) || read_text(p) != text) write_output_file(p.string(), [&](std::ostream& out) { out << text; });
}

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

/// Everything the cached binary was built from: if any of it changes, it is rebuilt.
std::string fingerprint(const std::vector<fs::path>& inputs, const std::string& command) {
  std::string all = command;
  for (const fs::path& p : inputs) all += p.string() + '\n' + read_text(p);
  return sha256_hex(all);
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// The -CFLAGS of every harness build: the C++ standard (20, or 17 where SystemC is linked), the
/// library headers and sim/.
std::string harness_cflags(int standard) {
  std::string flags = "-std=c++" + std::to_string(standard) + " -O1";
  for (const fs::path& dir : install_paths().include_dirs) flags += " -I" + dir.string();
  return flags + " -I" + install_paths().sim.string();
}

/// Runs the build `command` that makes `binary` unless the stamp in `dir` shows the same command,
/// inputs and core library built it already (ccache is used when installed). The caller holds
/// the directory's lock. Throws ToolError naming the build log when the build fails (exit 1, not 2: the input was fine).
fs::path build_if_stale(const fs::path& dir, const fs::path& binary, const std::string& command,
                        std::vector<fs::path> inputs) {
  inputs.push_back(install_paths().core_lib);
  const std::string stamp = fingerprint(inputs, command);
  if (fs::exists(binary) && read_text(dir / "stamp") == stamp) return binary;
  // A fresh object directory: make's dependency files from an older build may name sources that
  // no longer exist (ccache keeps the rebuild cheap).
  fs::remove_all(dir / "obj");
  const fs::path log = dir / "build.log";
  const char* ccache = std::system("command -v ccache >/dev/null 2>&1") == 0 ? "OBJCACHE=ccache " : "";
  // First use is silent for minutes otherwise: say what is built and how long the last build took.
  const std::string last = read_text(dir / "seconds");
  std::cerr << "totex: building the model " << dir.filename().string()
            << (last.empty() ? " on first use (about 1-3 min on 2 cores, seconds with a warm ccache)"
                             : " again, its sources changed (last build took " + last + " s)")
            << "; log: " << log.string() << std::endl;
  const auto started = std::chrono::steady_clock::now();
  const auto [out, rc] = capture(std::string(ccache) + command + " > " + quote(log.string()) + " 2>&1");
  if (rc != 0 || !fs::exists(binary))
    throw ToolError("tool: building the Verilated model failed; see " + log.string());
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started).count();
  std::cerr << "totex: built " << dir.filename().string() << " in " << seconds << " s, cached in " << dir.string() << '\n';
  write_output_file((dir / "seconds").string(), [&](std::ostream& file) { file << seconds; });
  write_output_file((dir / "stamp").string(), [&](std::ostream& file) { file << stamp; });
  return binary;
}

}  // namespace

fs::path cache_root() {
  if (const char* env = std::getenv("TOTEX_CACHE_DIR"); env && *env) return env;
  return install_paths().cache;
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);  // ' -> '\''
  return q + "'";
}

std::string key_of(const std::string& spec) {
  std::string k;
  for (const char c : spec) k += (std::isalnum(static_cast<unsigned char>(c)) != 0) ? c : '_';
  return k;
}

std::pair<std::string, int> capture(const std::string& command) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw UsageError("cannot run " + command);
  std::array<char, 4096> buf{};
  for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0;) out.append(buf.data(), n);
  const int status = ::pclose(pipe);
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

fs::path build_verilated(const VerilatedBuild& b) {
  const fs::path dir = cache_root() / b.key;
  fs::create_directories(dir);
  const FileLock lock(dir / ".lock");
  const fs::path binary = dir / "harness";
  std::vector<fs::path> sources;
  for (const std::string& list : b.file_lists)
    for (const fs::path& f : rtl_file_list(list))
      if (std::find(sources.begin(), sources.end(), f) == sources.end()) sources.push_back(f);
  // Generated sources are Verilated after the lists; generated headers (.svh) are found through -I dir.
  std::vector<fs::path> generated_headers;
  for (const auto& [name, text] : b.generated) {
    write_if_changed(dir / name, text);
    (ends_with(name, ".svh") ? generated_headers : sources).push_back(dir / name);
  }
  sources.insert(sources.end(), b.cpp.begin(), b.cpp.end());
  std::string command = std::string("verilator ") + (b.systemc ? "--sc" : "--cc") + " --exe --build -j 2 --assert " +
                        "-Wno-fatal " + b.verilator_opt + " --timescale 1ns/1ns --top-module " + b.top +
                        " -I" + quote(dir.string());
  for (const std::string& a : b.args) command += " " + a;
  if (!b.makeflags.empty()) command += " -MAKEFLAGS " + quote(b.makeflags);
  // Debian's libsystemc is built as C++17: code linked with it is compiled as C++17 (docs/toolchain.md §2a).
  command += " -CFLAGS " + quote(harness_cflags(b.systemc ? 17 : 20) + (b.defines.empty() ? "" : " " + b.defines));
  // libtotex_core links CaDiCaL (the exact and pattern schedulers), which the co-simulation harnesses pull in.
  command += " -LDFLAGS " + quote(install_paths().core_lib.string() + (b.systemc ? " -lsystemc -lcadical" : "") + " -lz");
  command += " --Mdir " + quote((dir / "obj").string()) + " -o " + quote(binary.string());
  for (const fs::path& f : sources) command += " " + quote(f.string());
  sources.insert(sources.end(), b.headers.begin(), b.headers.end());
  sources.insert(sources.end(), generated_headers.begin(), generated_headers.end());
  return build_if_stale(dir, binary, command, sources);
}

MinHarnessRun min_harness_run(const MinNetwork& net, const MinSchedule& s, MinConfigMode mode,
                              const std::string& schedule_file, const std::string& wave) {
  MinHarnessRun run;
  run.max_steps = net.terminals();
  while (run.max_steps < static_cast<int>(s.configurations.size())) run.max_steps *= 2;
  (void)min_configuration_writes(net, s, mode, MinPortLayout(net, run.max_steps, run.payload_bits));
  run.args = " --schedule " + quote(schedule_file) + " --min-mode " +
             (mode == MinConfigMode::Table ? "table" : "computed") + " --max-steps " + std::to_string(run.max_steps) +
             " --payload-bits " + std::to_string(run.payload_bits) + (wave.empty() ? "" : " --wave " + quote(wave));
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
                                const std::string& wave) {
  std::string a = " --topo " + quote(t.spec()) + " --mode " + to_string(p.mode) + " --model " + to_string(p.model) +
                  " --depth " + std::to_string(p.depth) + " --buffer " + std::to_string(p.buffer_slots) +
                  " --fifo-depth " + std::to_string(p.fifo_depth) + " --payload-bits " + std::to_string(p.payload_bits);
  if (p.mode == DirectMode::Scheduled) a += " --schedule " + quote(schedule_file);
  else a += " --dynamic " + to_string(p.routing);
  if (!wave.empty()) a += " --wave " + quote(wave);
  return a;
}

fs::path systemc_binary() {
  const fs::path binary = install_paths().systemc_binary;
  if (!fs::exists(binary)) throw UsageError("--engine systemc needs " + binary.string() + "; run `make build`");
  return binary;
}

SimResult run_systemc_harness(const std::string& command, const std::string& what, const std::string& wave) {
  const auto [out, rc] = capture("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 " + command);
  if (rc == 2 || out.empty()) throw UsageError(what + " could not run (exit " + std::to_string(rc) + ")");
  SimResult r = parse_result(out, what);
  r.wave = wave;
  return r;
}

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
  } catch (const std::exception& e) {
    throw UsageError(what + " printed no result (" + e.what() + ")");
  }
}

bool wave_is_vcd(const std::string& wave, bool vcd_only) {
  if (wave.empty()) return false;
  if (ends_with(wave, ".vcd")) return true;
  if (vcd_only) throw UsageError("--wave must name a .vcd file for this engine (SystemC traces VCD), got '" + wave + "'");
  if (!ends_with(wave, ".fst")) throw UsageError("--wave must name a .fst or .vcd file, got '" + wave + "'");
  return false;
}

}  // namespace totex::cli
