// SPDX-License-Identifier: Apache-2.0
// Readers refuse what cannot be a schedule as soon as it is read (issue 48): counts past what the
// topology holds, lines past a format's limit, headers they would otherwise drop, formats that would
// be written in part.
#include <catch2/catch.hpp>

#include <functional>
#include <sstream>
#include <streambuf>
#include <string>

#include "totex/error.hpp"
#include "totex/generators/a2.hpp"
#include "totex/generators/generators.hpp"
#include "totex/io/exchange_table.hpp"
#include "totex/io/schedule_io.hpp"
#include "totex/io/shd.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/periodic_verify.hpp"

using namespace totex;

namespace {

/// An endless stream: `prefix`, then `fill` forever (what /dev/zero or a decompression bomb looks
/// like to a reader). A reader that holds a whole line first never returns.
class EndlessBuf : public std::streambuf {
 public:
  EndlessBuf(std::string prefix, char fill) : prefix_(std::move(prefix)), chunk_(1 << 16, fill) {}

 protected:
  int_type underflow() override {
    std::string& next = sent_prefix_ ? chunk_ : prefix_;
    sent_prefix_ = true;
    setg(next.data(), next.data(), next.data() + next.size());
    return traits_type::to_int_type(next[0]);
  }

 private:
  std::string prefix_, chunk_;
  bool sent_prefix_ = false;
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

const std::string kHeader3x3 = "totex-schedule 1\nmodel nic\ntopology torus:3x3\nalgorithm hand\nnodes 9\nsteps 8\n";

}  // namespace

TEST_CASE("a step with more transfers than the topology has links is refused at that line", "[io][limits]") {
  // torus:3x3 has 36 directed links. Six header lines, 'step 0' on line 7, transfers from line 8:
  // the 37th is line 44.
  std::string text = kHeader3x3 + "step 0\n";
  for (int i = 0; i < 40; ++i) text += "0 1 0 1\n";
  std::istringstream in(text);
  CHECK(error_of([&] { (void)read_schedule(in, "rep.sched"); }) ==
        "rep.sched:44: step 0 has more than 36 transfers, the directed links of torus:3x3; a step uses each link at most once");
  // Any transfer repeated (a small gzip file can hold millions of copies) ends there too.
  std::string repeated = kHeader3x3 + "step 0\n";
  for (int i = 0; i < 37; ++i) repeated += "3 4 3 4\n";
  std::istringstream in2(repeated);
  CHECK_THROWS_WITH(read_schedule(in2, "r2"), Catch::Contains("r2:44: step 0 has more than 36 transfers"));
}

TEST_CASE("the binary body refuses a step count larger than the links at once", "[io][limits]") {
  // varint(37) transfers in one step: refused before any is read.
  std::string text = kHeader3x3 + "binary\n";
  text += static_cast<char>(37);
  text += static_cast<char>(0);
  std::istringstream in(text);
  CHECK_THROWS_WITH(read_schedule(in, "b.sched"), Catch::Contains("transfer count 37 is out of range 0..36"));
}

TEST_CASE("an exchange table claiming more columns than its words can use is refused at that line", "[io][limits]") {
  const std::string head =
      "totex-exchange-table 1\nmodel all-port\ntopology torus:3x3\nalgorithm table\ngenerators a+ a- b+ b-\n";
  std::istringstream in(head + "columns 16777216\n");
  CHECK(error_of([&] { (void)read_exchange_table(in, "t.tbl"); }) ==
        "t.tbl:6: 'columns' 16777216 is more than torus:3x3 can use: 8 words of at most 6 letters one after another take 48");
  // Through the schedule reader (verify's way in) too.
  std::istringstream in2(head + "columns 49\n");
  CHECK_THROWS_WITH(read_schedule(in2, "s.tbl"), Catch::Contains("s.tbl:6: 'columns' 49 is more than torus:3x3 can use"));
}

TEST_CASE(".shd: a line past 100000 characters is refused before it is read whole", "[io][limits][shd]") {
  const Topology t = parse_topology("torus:3x3");
  EndlessBuf endless("  e\n", 'e');  // line 2 never ends
  std::istream in(&endless);
  CHECK(error_of([&] { (void)read_shd(in, "big.shd", t, Model::Nic); }) ==
        "big.shd:2: line longer than 100000 characters; no .shd line is that long");
}

TEST_CASE(".shd: gzip is inflated, an empty file names line 1, more routes than destinations are refused",
          "[io][limits][shd]") {
  const Topology t = parse_topology("torus:3x3");
  std::istringstream empty("");
  CHECK(error_of([&] { (void)read_shd(empty, "e.shd", t, Model::Nic); }) ==
        "e.shd:1: empty file (expected one line per route: spaces then n/e/s/w letters)");
  std::string nine;
  for (int i = 0; i < 9; ++i) nine += std::string(static_cast<std::size_t>(i), ' ') + "e\n";
  std::istringstream many(nine);
  CHECK(error_of([&] { (void)read_shd(many, "m.shd", t, Model::Nic); }) ==
        "m.shd:9: more than 8 routes, the destinations of a node of torus:3x3 (.shd has one route per destination)");
  // A gzip member of "e\n" (made with Python's gzip.compress(b"e\n", mtime=0)).
  const unsigned char gz[] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x4b, 0xe5,
                              0x02, 0x00, 0x03, 0x64, 0x86, 0xb9, 0x02, 0x00, 0x00, 0x00};
  std::istringstream zipped(std::string(reinterpret_cast<const char*>(gz), sizeof gz));
  const Schedule s = read_shd(zipped, "z.shd.gz", t, Model::Nic);
  CHECK(s.transfer_count() == 9);  // every node sends its one-hop route east
}

TEST_CASE("tokens in file errors are cut at 60 characters", "[io][limits]") {
  const std::string token(2'000'000, '7');
  std::istringstream in(kHeader3x3 + "step 0\n" + token + " 1 0 1\n");
  const std::string e = error_of([&] { (void)read_schedule(in, "long.sched"); });
  CHECK(e.size() < 300);
  CHECK_THAT(e, Catch::StartsWith("long.sched:8: from node 777777"));
}

TEST_CASE("a generated-form file applies its period line, as the text form does", "[io][limits]") {
  const Topology t = parse_topology("hypercube:10");  // a2 regenerates it lazily
  const Schedule lazy = a2(t).schedule;
  REQUIRE(lazy.lazy());
  std::ostringstream out;
  write_schedule(out, t, lazy);
  std::string text = out.str();
  const std::size_t at = text.find("\ngenerated ");
  REQUIRE(at != std::string::npos);
  text.insert(at + 1, "period 10\n");
  std::istringstream in(text);
  LoadedSchedule loaded = read_schedule(in, "g.sched", true);
  const Schedule& s = std::get<Schedule>(loaded.schedule);
  CHECK(s.period == 10);
  // 10 slots cannot hold a single-port exchange of 1024 nodes: the modulo-P check fails.
  CHECK_FALSE(verify_periodic(t, s).ok);
}

TEST_CASE("Poseidon XML: schedules it cannot hold whole are refused, nothing written", "[io][limits][periodic]") {
  for (const Model m : {Model::AllPort, Model::SinglePort}) {
    const Topology t = parse_topology("torus:4x4");
    const Schedule s = pairwise_schedule(t, m);
    std::ostringstream out;
    CHECK_THROWS_WITH(write_poseidon(out, t, s), Catch::Contains("sends and receives one flit per slot (totex's nic model)"));
    CHECK(out.str().empty());
  }
}

TEST_CASE("a step index far past the transfers read is refused before its empty steps are held", "[io][limits]") {
  // torus:64x64 allows 50 M steps; step 49999999 alone would hold 50 M empty steps (1.2 GB).
  const std::string head = "totex-schedule 1\nmodel nic\ntopology torus:64x64\nalgorithm x\nnodes 4096\nsteps 50000000\n";
  std::istringstream in(head + "step 49999999\n0 1 0 1\n");
  CHECK(error_of([&] { (void)read_schedule(in, "far.sched"); }) ==
        "far.sched:7: step 49999999 is more than 1000000 steps past the 0 transfers before it; totex refuses a schedule idle "
        "that long");
  std::istringstream near(head + "step 999999\n0 1 0 1\n");  // within the limit: read
  CHECK(error_of([&] { (void)read_schedule(near, "near.sched"); }) == "no error");
}
