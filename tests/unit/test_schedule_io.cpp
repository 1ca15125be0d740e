// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <sstream>

#include "totex/error.hpp"
#include "totex/generators.hpp"
#include "totex/schedule_io.hpp"
#include "totex/spec.hpp"

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
