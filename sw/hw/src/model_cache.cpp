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
#include <fstream>
#include <iostream>
#include <sstream>

#include "install_paths.hpp"
#include "process.hpp"
#include "totex/error.hpp"
#include "totex/io/output_file.hpp"
#include "totex/verify/sha256.hpp"

namespace totex::hw {
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
/// `busy` (when given) is printed before waiting for a lock another process holds.
class FileLock {
 public:
  explicit FileLock(const fs::path& p, const std::string& busy = "") : fd_(::open(p.c_str(), O_CREAT | O_RDWR, 0644)) {
    if (fd_ < 0) throw UsageError("cannot lock " + p.string());
    if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;
    if (!busy.empty()) std::cerr << busy << std::endl;
    if (::flock(fd_, LOCK_EX) != 0) throw UsageError("cannot lock " + p.string());
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

/// The sanitizers the library was built with (`make sanitize`: GCC's address and undefined), which
/// a harness linking it needs too: their runtime, and checks in its own code alike.
#if defined(__SANITIZE_ADDRESS__)
constexpr const char* kSanitizerFlags = " -fsanitize=address,undefined -fno-omit-frame-pointer";
#else
constexpr const char* kSanitizerFlags = "";
#endif

/// The -CFLAGS of every harness build: the C++ standard (20, or 17 where SystemC is linked), the
/// library headers and sim/.
std::string harness_cflags(int standard) {
  std::string flags = "-std=c++" + std::to_string(standard) + " -O1" + kSanitizerFlags;
  for (const fs::path& dir : install_paths().include_dirs) flags += " -I" + dir.string();
  return flags + " -I" + install_paths().sim.string();
}

/// The deepest directory that holds both `a` and `b` (symbolic links resolved).
fs::path common_ancestor(const fs::path& a, const fs::path& b) {
  const fs::path x = fs::weakly_canonical(a), y = fs::weakly_canonical(b);
  fs::path common;
  for (auto i = x.begin(), j = y.begin(); i != x.end() && j != y.end() && *i == *j; ++i, ++j) common /= *i;
  return common.empty() ? fs::path("/") : common;
}

/// Runs the build `command` that makes `binary` unless the stamp in `dir` shows the same command,
/// inputs and libraries built it already (ccache is used when installed). The caller holds
/// the directory's lock. Throws ToolError naming the build log when the build fails (exit 1, not 2: the input was fine).
fs::path build_if_stale(const fs::path& dir, const fs::path& binary, const std::vector<std::string>& command,
                        std::vector<fs::path> inputs, const std::string& estimate, const std::string& what) {
  inputs.insert(inputs.end(), install_paths().libraries.begin(), install_paths().libraries.end());
  const std::string stamp = fingerprint(inputs, argv_text(command));
  if (fs::exists(binary) && read_text(dir / "stamp") == stamp) return binary;
  // A fresh object directory: make's dependency files from an older build may name sources that
  // no longer exist (ccache keeps the rebuild cheap).
  fs::remove_all(dir / "obj");
  // One model build at a time per cache: each build already runs make -j 2, and two at once on a
  // 2-core machine only take turns, while the second, waiting, finds the first's objects of the
  // shared sources (the Verilator runtime, the harness and SystemC model sources) in ccache.
  const FileLock one_build(dir.parent_path() / ".build.lock",
                           "totex: waiting for another model build in " + dir.parent_path().string() + " to finish");
  const fs::path log = dir / "build.log";
  static const bool ccache = program_available("ccache");
  // First use is silent for minutes otherwise: say what is built and how long the last build took.
  const std::string last = read_text(dir / "seconds");
  std::cerr << "totex: building the model " << dir.filename().string() << (what.empty() ? "" : " (" + what + ")")
            << (last.empty() ? " on first use, no cached model has these parameters (" +
                                   (estimate.empty() ? std::string("about 1-3 min on 2 cores") : estimate) +
                                   ", less with a warm ccache)"
                             : " again, its sources changed (last build took " + last + " s)")
            << "; log: " << log.string() << std::endl;
  const auto started = std::chrono::steady_clock::now();
  // Run in the model's directory, whose command names every source relative to it (build_verilated),
  // with ccache's base_dir over the tree and the cache: another checkout's build finds these objects
  // in ccache (base_dir only decides which cached objects match, so it is ours to set here).
  const std::vector<std::string> env =
      ccache ? std::vector<std::string>{"OBJCACHE=ccache", "CCACHE_BASEDIR=" + common_ancestor(dir, install_paths().sim).string()}
             : std::vector<std::string>{};
  const ProcessResult built = run_process(command, ChildOutput::ToLog, log.string(), env, dir.string());
  if (built.exit_code != 0 || !fs::exists(binary))
    throw ToolError("tool: building the Verilated model failed; see " + log.string());
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started).count();
  std::cerr << "totex: built " << dir.filename().string() << " in " << seconds << " s, cached in " << dir.string() << '\n';
  write_output_file((dir / "seconds").string(), [&](std::ostream& file) { file << seconds; });
  write_output_file((dir / "stamp").string(), [&](std::ostream& file) { file << stamp; });
  return binary;
}

}  // namespace

std::string key_of(const std::string& spec) {
  std::string k;
  for (const char c : spec) k += (std::isalnum(static_cast<unsigned char>(c)) != 0) ? c : '_';
  return k;
}

fs::path build_verilated(const VerilatedBuild& b) {
  if (b.cache_dir.empty()) throw ToolError("tool: no model cache directory for " + b.key);
  // Absolute: the build runs in this directory (build_if_stale), and its log and binary are named from here.
  const fs::path dir = fs::absolute(b.cache_dir / b.key);
  if (std::error_code ec; !fs::create_directories(dir, ec) && ec)
    throw UsageError("the model cache " + dir.parent_path().string() + " cannot be created (" + ec.message() +
                     "); set TOTEX_CACHE_DIR to a directory totex may create and write");
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
  std::vector<std::string> command = {"verilator", b.systemc ? "--sc" : "--cc", "--exe", "--build", "-j", "2",
                                      "--assert", "-Wno-fatal", b.verilator_opt, "--timescale", "1ns/1ns",
                                      "--top-module", b.top, "-I."};
  command.insert(command.end(), b.args.begin(), b.args.end());
  if (!b.makeflags.empty()) command.insert(command.end(), {"-MAKEFLAGS", b.makeflags});
  // Debian's libsystemc is built as C++17: code linked with it is compiled as C++17 (docs/toolchain.md §2a).
  command.insert(command.end(), {"-CFLAGS", harness_cflags(b.systemc ? 17 : 20) + (b.defines.empty() ? "" : " " + b.defines)});
  // libtotex_core links CaDiCaL (the exact and pattern schedulers), COIN-OR CLP (the traffic bounds the
  // traffic schedulers compute) and CBC (route-sat's 0-1 programs), and expat (Poseidon files), which
  // the co-simulation harnesses pull in.
  std::string libraries;
  for (const fs::path& lib : install_paths().libraries) libraries += lib.string() + " ";
  command.insert(command.end(), {"-LDFLAGS", libraries + (b.systemc ? "-lsystemc " : "") +
                                           (b.systemc || b.schedulers ? "-lcadical -lCbcSolver -lCbc -lCgl -lOsiClp -lOsi -lClp -lCoinUtils -lexpat " : "") + "-lz" +
                                           kSanitizerFlags});
  command.insert(command.end(), {"--Mdir", "obj", "-o", binary.string()});
  // Relative to the directory the build runs in: Verilator writes the names it is given into the
  // generated C++ (assertion locations), and relative ones are the same in every checkout.
  for (const fs::path& f : sources) command.push_back(fs::relative(f, dir).string());
  sources.insert(sources.end(), b.headers.begin(), b.headers.end());
  sources.insert(sources.end(), generated_headers.begin(), generated_headers.end());
  // The schema every harness parses its argv with: a change to it rebuilds every model.
  for (const fs::path& include : install_paths().include_dirs)
    if (fs::exists(include / "totex" / "hw_schema.hpp")) sources.push_back(include / "totex" / "hw_schema.hpp");
  return build_if_stale(dir, binary, command, sources, b.estimate, b.what);
}

}  // namespace totex::hw
