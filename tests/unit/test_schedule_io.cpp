// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "totex/generators/a2.hpp"
#include "totex/error.hpp"
#include "totex/io/exchange_table.hpp"
#include "totex/io/output_file.hpp"
#include "totex/generators/generators.hpp"
#include "totex/io/schedule_io.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

namespace {
LoadedSchedule round_trip_text(const std::string& text) {
  std::istringstream in(text);
  return read_schedule(in, "f.txt");
}

std::string error_of(const std::string& text) {
  try {
    (void)round_trip_text(text);
  } catch (const FileError& e) {
    return e.what();
  }
  return "no error";
}

const std::string kGoodDirect =
    "totex-schedule 1\nmodel all-port\ntopology ring:3\nalgorithm hand\nnodes 3\nsteps 1\nstep 0\n0 1 0 1\n";
const std::string kGoodMin =
    "totex-config-matrix 1\nmodel nic\ntopology min:4:2:omega\nalgorithm hand\nnodes 4\nradix 2\nstages 2\n"
    "switches-per-stage 2\nconfigurations 1\nsteps 2\nform table\nconfig 0 01 10\n";
}  // namespace

TEST_CASE("direct schedules round-trip", "[io]") {
  for (const char* spec : {"torus:3x4", "hypercube:3", "metacube:1,1"}) {
    const Topology t = parse_topology(spec);
    for (Model m : {Model::SinglePort, Model::AllPort, Model::Nic}) {
      const Schedule s = pairwise_schedule(t, m);
      std::stringstream buf;
      write_schedule(buf, t, s);
      const LoadedSchedule back = read_schedule(buf, "mem");
      const auto& r = std::get<Schedule>(back.schedule);
      REQUIRE(r.steps == s.steps);
      REQUIRE(r.model == m);
      REQUIRE(r.topology == spec);
      REQUIRE(back.claimed_steps == static_cast<std::int64_t>(s.steps.size()));
    }
  }
}

TEST_CASE("configuration matrices round-trip in both forms", "[io]") {
  for (const char* spec : {"min:16:4:omega", "min:27:3:butterfly", "min:8:2:baseline"}) {
    const MinNetwork net = std::get<MinNetwork>(parse_spec(spec));
    for (const MinSchedule& s : {latin_schedule(net, zero_m0(net)), pairwise_schedule(net)}) {
      std::stringstream buf;
      write_min_schedule(buf, net, s);
      const LoadedSchedule back = read_schedule(buf, "mem");
      const auto& r = std::get<MinSchedule>(back.schedule);
      REQUIRE(r.configurations == s.configurations);
      REQUIRE(r.m0 == s.m0);
      for (std::size_t x = 0; x < s.configurations.size(); ++x)
        for (int t = 0; t < net.terminals(); ++t) REQUIRE(r.sends(x, t) == s.sends(x, t));
      REQUIRE(back.claimed_steps == s.steps(net));
    }
  }
}

TEST_CASE("malformed files fail with file:line: reason", "[io]") {
  REQUIRE(error_of(kGoodDirect) == "no error");
  REQUIRE(error_of(kGoodMin) == "no error");
  REQUIRE(error_of("") == "f.txt:0: empty file; expected 'totex-schedule 1' or 'totex-config-matrix 1'");
  REQUIRE(error_of("totex-schedule 2\n") == "f.txt:1: format version 2 is not supported (this totex reads version 1)");
  auto replace = [](std::string text, const std::string& from, const std::string& to) {
    return text.replace(text.find(from), from.size(), to);
  };
  REQUIRE(error_of(replace(kGoodDirect, "all-port", "any-port")) ==
          "f.txt:2: unknown model 'any-port': expected single-port | all-port | nic");
  REQUIRE(error_of(replace(kGoodDirect, "ring:3", "ring:1")).rfind("f.txt:3: bad topology 'ring:1'", 0) == 0);
  REQUIRE(error_of(replace(kGoodDirect, "nodes 3", "nodes 4")) == "f.txt:5: nodes does not match the topology");
  REQUIRE(error_of(replace(kGoodDirect, "0 1 0 1", "0 1 0 9")) == "f.txt:8: destination 9 is out of range 0..2");
  REQUIRE(error_of(replace(kGoodDirect, "0 1 0 1", "0 1 0")) == "f.txt:8: expected '<from> <to> <src> <dst>'");
  REQUIRE(error_of(replace(kGoodDirect, "0 1 0 1", "0 1 1 1")) == "f.txt:8: message (1,1) is addressed to its own source");
  REQUIRE(error_of(replace(kGoodDirect, "step 0", "step 5")) == "f.txt:7: step 5 is beyond the 1 steps the header declares");
  REQUIRE(error_of(replace(kGoodDirect, "0 1 0 1", "0 1 0 x1")) == "f.txt:8: destination 'x1' is not an integer");
  const Topology ring5 = parse_topology("ring:5");
  REQUIRE(error_of("totex-schedule 1\nmodel nic\ntopology ring:5\nalgorithm a\nnodes 5\nsteps 1\nstep 0\n0 2 0 2\n") ==
          "f.txt:8: no link 0->2 in ring:5");
  REQUIRE(error_of(replace(kGoodMin, "config 0 01 10", "config 0 01 12")) ==
          "f.txt:12: state '2' in stage 1 is not a shift state < 2");
  REQUIRE(error_of(replace(kGoodMin, "config 0 01 10", "config 0 01")) ==
          "f.txt:12: expected 2 groups of states, one per stage");
  REQUIRE(error_of(replace(kGoodMin, "config 0 01 10", "config 0 011 10")) == "f.txt:12: stage 0 has 3 states, expected 2");
  REQUIRE(error_of(replace(kGoodMin, "configurations 1", "configurations 2")) ==
          "f.txt:12: file ends after 1 of 2 configurations");
  REQUIRE(error_of(replace(kGoodMin, "radix 2", "radix 3")) == "f.txt:6: radix does not match the topology");
  REQUIRE(error_of(replace(kGoodMin, "model nic", "model all-port")) == "f.txt:3: a MIN runs under the nic model");
  REQUIRE(error_of(replace(kGoodMin, "config 0 01 10", "config 0 01 10 idle=3,1")) ==
          "f.txt:12: idle terminals must be listed in increasing order");
  REQUIRE(error_of(kGoodMin + "extra\n") == "f.txt:13: unexpected line after the last configuration");
}

// Files at size (issue 13): every kind, as text and gzip-compressed (a name ending in .gz), through
// write_output_file and read_schedule_file, as the CLI does.
namespace {
namespace fs = std::filesystem;

struct IoDir {
  IoDir() {
    std::string tmpl = (fs::temp_directory_path() / "totex-io-XXXXXX").string();
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    path = tmpl;
  }
  ~IoDir() { fs::remove_all(path); }
  fs::path path;
};

std::string bytes_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void put_bytes(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out << bytes;
}

/// Writes with `writer` to NAME and NAME.gz; checks the .gz is gzip and inflates to the text.
std::pair<std::string, std::string> write_both(const IoDir& dir, const std::string& name,
                                               const std::function<void(std::ostream&)>& writer) {
  const std::string text = (dir.path / name).string(), gz = text + ".gz";
  write_output_file(text, writer);
  write_output_file(gz, writer);
  const std::string packed = bytes_of(gz);
  REQUIRE(packed.size() > 18);
  REQUIRE(static_cast<unsigned char>(packed[0]) == 0x1f);
  REQUIRE(static_cast<unsigned char>(packed[1]) == 0x8b);
  return {text, gz};
}

std::string load_error(const std::string& path) {
  try {
    (void)read_schedule_file(path, true);
  } catch (const FileError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("every file kind round-trips as text and gzip", "[io]") {
  IoDir dir;
  SECTION("explicit step schedule") {
    const Topology t = parse_topology("torus:4x5");
    const Schedule s = pairwise_schedule(t, Model::Nic);
    const auto [text, gz] = write_both(dir, "t.sched", [&](std::ostream& o) { write_schedule(o, t, s); });
    for (const std::string& path : {text, gz}) {
      const LoadedSchedule back = read_schedule_file(path);
      const auto& r = std::get<Schedule>(back.schedule);
      REQUIRE(r.steps == s.steps);
      REQUIRE(r.model == Model::Nic);
      REQUIRE(back.claimed_steps == static_cast<std::int64_t>(s.steps.size()));
    }
  }
  SECTION("configuration matrix, computed and table forms") {
    const MinNetwork net = std::get<MinNetwork>(parse_spec("min:64:4:omega"));
    MinSchedule computed = latin_schedule(net, zero_m0(net));
    MinSchedule table = computed;
    table.m0.clear();
    for (const MinSchedule* s : {&computed, &table}) {
      const auto [text, gz] = write_both(dir, "m.cfg", [&](std::ostream& o) { write_min_schedule(o, net, *s); });
      for (const std::string& path : {text, gz}) {
        const LoadedSchedule back = read_schedule_file(path);
        const auto& r = std::get<MinSchedule>(back.schedule);
        REQUIRE(r.configurations == s->configurations);
        REQUIRE(r.m0 == s->m0);
      }
    }
  }
  SECTION("exchange table") {
    const Topology t = parse_topology("torus:5x5");
    const ExchangeTable table = require_exchange_table(t);
    const auto [text, gz] = write_both(dir, "x.table", [&](std::ostream& o) { write_exchange_table(o, table); });
    for (const std::string& path : {text, gz}) {
      const LoadedSchedule back = read_schedule_file(path);
      REQUIRE(back.table.has_value());
      REQUIRE(*back.table == table);
      REQUIRE(back.table_errors.empty());
      REQUIRE(std::get<Schedule>(back.schedule).steps == expand_exchange_table(t, table).steps);
    }
  }
  SECTION("generated a2 form") {
    const Topology t = parse_topology("torus:3x4");
    const Schedule lazy = a2(t, 0).schedule;  // lazy at any size: written in the generated form
    REQUIRE(lazy.lazy());
    const auto [text, gz] = write_both(dir, "a.sched", [&](std::ostream& o) { write_schedule(o, t, lazy); });
    REQUIRE(bytes_of(text).find("\ngenerated a2 ") != std::string::npos);
    for (const std::string& path : {text, gz}) {
      const LoadedSchedule back = read_schedule_file(path);
      const auto& r = std::get<Schedule>(back.schedule);
      REQUIRE(r.transfer_count() == lazy.transfer_count());
      REQUIRE(transfer_checksum(r) == transfer_checksum(lazy));
    }
  }
}

TEST_CASE("gzip members concatenated read as one file, as gzip -d reads them", "[io]") {
  IoDir dir;
  const std::string head = kGoodDirect.substr(0, kGoodDirect.find("step 0"));
  write_output_file((dir.path / "a.gz").string(), [&](std::ostream& o) { o << head; });
  write_output_file((dir.path / "b.gz").string(), [&](std::ostream& o) { o << kGoodDirect.substr(head.size()); });
  put_bytes(dir.path / "ab.gz", bytes_of(dir.path / "a.gz") + bytes_of(dir.path / "b.gz"));
  REQUIRE(load_error((dir.path / "ab.gz").string()) == "no error");
  // Anything else after the gzip stream is refused, not ignored.
  put_bytes(dir.path / "tail.gz", bytes_of(dir.path / "ab.gz") + "junk\n");
  CAPTURE(load_error((dir.path / "tail.gz").string()));
  REQUIRE(load_error((dir.path / "tail.gz").string()).find("tail.gz:9: corrupt gzip data (zlib: ") != std::string::npos);
}

TEST_CASE("a truncated or corrupt gzip file fails with file:line, never a crash", "[io]") {
  IoDir dir;
  const Topology t = parse_topology("torus:4x4");
  const Schedule s = pairwise_schedule(t, Model::Nic);
  const std::string gz = (dir.path / "s.sched.gz").string();
  write_output_file(gz, [&](std::ostream& o) { write_schedule(o, t, s); });
  const std::string good = bytes_of(gz);
  REQUIRE(load_error(gz) == "no error");
  const std::string bad = (dir.path / "bad.sched.gz").string();
  // Every cut: a gzip stream that ends early (or, under 2 bytes, no gzip magic and no valid text).
  for (std::size_t len = 0; len < good.size(); len += 1 + len / 16) {
    put_bytes(bad, good.substr(0, len));
    const std::string e = load_error(bad);
    INFO("cut at " << len << ": " << e);
    REQUIRE(e.rfind(bad + ":", 0) == 0);
    if (len >= 10) REQUIRE(e.find("gzip data ends early (truncated after ") != std::string::npos);
  }
  // Every byte past the header's unchecked fields (mtime, flags, OS: bytes 4..9) flipped: the
  // deflate data, the CRC-32 or the length no longer match.
  for (std::size_t at = 10; at < good.size(); at += 7) {
    std::string flipped = good;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x5a);
    put_bytes(bad, flipped);
    const std::string e = load_error(bad);
    INFO("byte " << at << " flipped: " << e);
    REQUIRE(e.rfind(bad + ":", 0) == 0);
  }
  put_bytes(bad, good.substr(0, 10) + std::string(64, '\xff'));
  REQUIRE(load_error(bad) == bad + ":1: corrupt gzip data (zlib: invalid block type) near compressed byte 11");
}

TEST_CASE("text files stream: no size limit, a line without its end is read", "[io]") {
  // The last line needs no newline; CRLF line ends are whitespace.
  std::string crlf = kGoodDirect;
  for (std::size_t p = 0; (p = crlf.find('\n', p)) != std::string::npos; p += 2) crlf.replace(p, 1, "\r\n");
  REQUIRE(error_of(crlf) == "no error");
  REQUIRE(error_of(kGoodDirect.substr(0, kGoodDirect.size() - 1)) == "no error");
  // A line past the 64 MiB limit (/dev/zero, say) is refused at its line, before memory runs out.
  std::istringstream zeros(kGoodDirect + std::string((std::size_t{64} << 20) + 16, '0'));
  try {
    (void)read_schedule(zeros, "z");
    FAIL("no error");
  } catch (const FileError& e) {
    REQUIRE(std::string(e.what()) == "z:9: line longer than 64 MiB; no schedule line is that long");
  }
}

TEST_CASE("a lazy generated file's checksum is checked in verify's pass, not in one of its own", "[io]") {
  const Topology t = parse_topology("hypercube:10");  // 5 M transfers: a2 regenerates it lazily
  const Schedule lazy = a2(t).schedule;
  REQUIRE(lazy.lazy());
  std::ostringstream out;
  write_schedule(out, t, lazy);
  std::string text = out.str();
  std::istringstream good(text);
  const LoadedSchedule ok = read_schedule(good, "g.sched", true);
  REQUIRE(verify(t, std::get<Schedule>(ok.schedule), ok.claimed_steps).ok);
  const auto at = text.rfind(' ') + 16;  // last hex digit of the checksum
  text[at] = text[at] == '0' ? '1' : '0';
  const std::string expected = "g.sched:9: checksum ";
  std::istringstream bad(text);
  const LoadedSchedule loaded = read_schedule(bad, "g.sched", true);  // as totex verify loads it
  try {
    (void)verify(t, std::get<Schedule>(loaded.schedule), loaded.claimed_steps);
    FAIL("a wrong checksum verified");
  } catch (const FileError& e) {
    REQUIRE(std::string(e.what()).rfind(expected, 0) == 0);
  }
  std::istringstream bad_expanded(text);  // as sim and plot load it: expanded, checked on the way
  try {
    (void)read_schedule(bad_expanded, "g.sched");
    FAIL("a wrong checksum loaded");
  } catch (const FileError& e) {
    REQUIRE(std::string(e.what()).rfind(expected, 0) == 0);
  }
}

TEST_CASE("the binary form round-trips, as text does, and damage gives file:line", "[io]") {
  IoDir dir;
  for (const char* spec : {"torus:4x5", "torus:3x3@linear", "hypercube:3"}) {
    const Topology t = parse_topology(spec);
    const Schedule s = pairwise_schedule(t, Model::Nic);
    const auto [bin, gz] = write_both(dir, "b.sched", [&](std::ostream& o) { write_schedule(o, t, s, true); });
    REQUIRE(bytes_of(bin).find("\nbinary\n") != std::string::npos);
    for (const std::string& path : {bin, gz}) {
      const LoadedSchedule back = read_schedule_file(path);
      REQUIRE(std::get<Schedule>(back.schedule).steps == s.steps);
      REQUIRE(back.claimed_steps == static_cast<std::int64_t>(s.steps.size()));
    }
  }
  const Topology t = parse_topology("torus:4x4");
  const Schedule s = pairwise_schedule(t, Model::Nic);
  std::ostringstream out;
  write_schedule(out, t, s, true);
  const std::string good = out.str();
  const std::size_t body = good.find("\nbinary\n") + 8;
  const int line = 9;  // the "binary" line
  for (std::size_t len = body; len < good.size(); len += 1 + (len - body) / 8) {  // every cut of the body
    INFO("cut at " << len);
    REQUIRE(error_of(good.substr(0, len)).rfind("f.txt:" + std::to_string(line) + ": binary body, step record ", 0) == 0);
  }
  REQUIRE(error_of(good + "x") == "f.txt:9: binary body, step record 24, byte " + std::to_string(good.size() - body) +
                                      ": data after the end marker of the binary body");
  std::string bad_port = good;
  bad_port[body + 3] = '\x07';  // record 0: count, gap, from, then port 7 (degree 4)
  REQUIRE(error_of(bad_port) == "f.txt:9: binary body, step record 0, byte 4: port 7 is out of range 0..3");
}
