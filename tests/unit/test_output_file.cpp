// SPDX-License-Identifier: Apache-2.0
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "totex/error.hpp"
#include "totex/io/output_file.hpp"

using namespace totex;
namespace fs = std::filesystem;

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
/// A fresh directory, removed at the end of the test.
struct TempDir {
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "totex-out-XXXXXX").string();
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    path = tmpl;
  }
  ~TempDir() { fs::remove_all(path); }
  [[nodiscard]] std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(path), fs::directory_iterator()));
  }
  fs::path path;
};
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const OutputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("output file: written in full, renamed into place, nothing else left", "[output]") {
  TempDir dir;
  const fs::path p = dir.path / "a.sched";
  write_output_file(p.string(), [](std::ostream& out) { out << "first\n"; });
  REQUIRE(slurp(p) == "first\n");
  write_output_file(p.string(), [](std::ostream& out) { out << std::string(200000, 'x'); });  // > one buffer
  REQUIRE(slurp(p) == std::string(200000, 'x'));
  REQUIRE(dir.entries() == 1);
  append_output_file(p.string(), "y");
  REQUIRE(slurp(p).size() == 200001);
}

TEST_CASE("output file: a failed or abandoned write leaves the old file and no temporary", "[output]") {
  TempDir dir;
  const fs::path p = dir.path / "keep.txt";
  write_output_file(p.string(), [](std::ostream& out) { out << "old\n"; });
  REQUIRE_THROWS_AS(write_output_file(p.string(),
                                      [](std::ostream& out) {
                                        out << "half";
                                        throw std::runtime_error("writer failed");
                                      }),
                    std::runtime_error);
  { OutputFile abandoned(p.string()); abandoned.stream() << "never committed"; }
  REQUIRE(slurp(p) == "old\n");
  REQUIRE(dir.entries() == 1);
}

TEST_CASE("output file: OS errors name the path", "[output]") {
  TempDir dir;
  const auto write = [](const std::string& path) {
    return [path] { write_output_file(path, [](std::ostream& out) { out << std::string(100000, 'z'); }); };
  };
  REQUIRE(error_of(write("/dev/full")) == "/dev/full: No space left on device");  // a device: written in place
  REQUIRE(error_of(write((dir.path / "no" / "x").string())) == (dir.path / "no" / "x").string() + ": No such file or directory");
  REQUIRE(error_of(write(dir.path.string())) == dir.path.string() + ": Is a directory");
  REQUIRE(dir.entries() == 0);
}

TEST_CASE("output file: a symbolic link stays a link to the new content", "[output]") {
  TempDir dir;
  const fs::path target = dir.path / "real.txt", link = dir.path / "link.txt";
  write_output_file(target.string(), [](std::ostream& out) { out << "a"; });
  ::chmod(target.c_str(), 0640);
  fs::create_symlink(target, link);
  write_output_file(link.string(), [](std::ostream& out) { out << "b"; });
  REQUIRE(fs::is_symlink(link));
  REQUIRE(slurp(target) == "b");
  REQUIRE((fs::status(target).permissions() & fs::perms::all) ==
          (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
}
