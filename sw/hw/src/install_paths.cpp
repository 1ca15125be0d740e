// SPDX-License-Identifier: Apache-2.0
#include "install_paths.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <string>

#include "totex/error.hpp"

namespace totex::hw {
namespace {

namespace fs = std::filesystem;

/// The directory of the running executable (/proc/self/exe); empty when it cannot be read.
fs::path executable_dir() {
  std::array<char, 4096> buf{};
  const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) return {};
  return fs::path(std::string(buf.data(), static_cast<std::size_t>(n))).parent_path();
}

InstallPaths find_paths() {
  InstallPaths p;
  const fs::path bin = executable_dir();
  const fs::path prefix = bin.parent_path();
  if (!bin.empty() && fs::exists(prefix / "share" / "totex" / "rtl" / "direct.f")) {
    p.installed = true;
    p.rtl = prefix / "share" / "totex" / "rtl";
    p.sim = prefix / "share" / "totex" / "sim";
    p.include_dirs = {prefix / "include"};
    p.libraries = {prefix / "lib" / "libtotex_hw.a", prefix / "lib" / "libtotex_core.a"};
    p.systemc_binary = bin / "totex_systemc";
    // p.cache stays empty: an installed totex caches in the user's cache directory, which the CLI
    // works out from the environment (schema::read_hw_environment).
    return p;
  }
  // Fallback: the build tree this binary was built in.
  p.rtl = fs::path(TOTEX_SOURCE_DIR) / "rtl";
  p.sim = fs::path(TOTEX_SOURCE_DIR) / "sim";
  p.include_dirs = {fs::path(TOTEX_SOURCE_DIR) / "sw" / "include", fs::path(TOTEX_SOURCE_DIR) / "sw" / "hw" / "include",
                    fs::path(TOTEX_BINARY_DIR) / "generated"};
  p.libraries = {TOTEX_HW_LIB, TOTEX_CORE_LIB};
  p.systemc_binary = fs::path(TOTEX_BINARY_DIR) / "bin" / "totex_systemc";
  p.cache = fs::path(TOTEX_BINARY_DIR) / "rtl-cache";
  return p;
}

void expand(const fs::path& list, std::vector<fs::path>& files) {
  std::ifstream in(list);
  if (!in) throw UsageError("no RTL file list " + list.string() + " (is totex installed completely?)");
  for (std::string line; std::getline(in, line);) {
    if (const auto c = line.find("//"); c != std::string::npos) line.erase(c);
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    line = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
    if (line.rfind("-F", 0) == 0) {
      expand(list.parent_path() / line.substr(line.find_first_not_of(" \t", 2)), files);
    } else {
      const fs::path file = (list.parent_path() / line).lexically_normal();
      if (std::find(files.begin(), files.end(), file) == files.end()) files.push_back(file);
    }
  }
}

}  // namespace

const InstallPaths& install_paths() {
  static const InstallPaths paths = find_paths();  // computed once, never changed
  return paths;
}

std::vector<fs::path> rtl_file_list(const std::string& name) {
  std::vector<fs::path> files;
  expand(install_paths().rtl / name, files);
  return files;
}

}  // namespace totex::hw
