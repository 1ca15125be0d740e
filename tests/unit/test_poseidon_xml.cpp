// SPDX-License-Identifier: Apache-2.0
// The Poseidon schedule XML reader: what write_poseidon writes reads back to the same schedule,
// and a file whose router tables or adapters disagree with its routes is refused at its line.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "totex/error.hpp"
#include "totex/generators/periodic.hpp"
#include "totex/io/shd.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/periodic_verify.hpp"

using namespace totex;

namespace {

using Hop = std::tuple<std::int64_t, NodeId, NodeId, NodeId, Port>;

/// Every transfer as (step mod P, src, dst, from, port), sorted: the schedule as the period sees it.
std::vector<Hop> hops_mod(const Schedule& s, int period) {
  std::vector<Hop> out;
  s.for_each_step([&](std::size_t i, const std::vector<Transfer>& step) {
    for (const Transfer& tr : step) out.emplace_back(static_cast<std::int64_t>(i) % period, tr.msg.src, tr.msg.dst, tr.from, tr.port);
  });
  std::sort(out.begin(), out.end());
  return out;
}

std::string written(const Topology& t, const Schedule& s) {
  std::ostringstream out;
  write_poseidon(out, t, s);
  return out.str();
}

}  // namespace

TEST_CASE("Poseidon XML reads back to the schedule written", "[io][poseidon]") {
  for (const std::string spec : {"torus:3x3", "torus:4x4", "mesh:4x4", "torus:3x5"}) {
    INFO(spec);
    const Topology t = parse_topology(spec);
    const Schedule s = periodic_schedule(t, Model::Nic, {"greedy", 1}).schedule;
    std::istringstream in(written(t, s));
    const Schedule back = read_poseidon(in, "p.xml");
    CHECK(back.topology == t.spec());
    CHECK(back.period == s.period);
    CHECK(hops_mod(back, back.period) == hops_mod(s, s.period));
    CHECK(verify_periodic(t, back).ok);
  }
}

TEST_CASE("Poseidon XML: tables that disagree with the routes are refused at their line", "[io][poseidon]") {
  const Topology t = parse_topology("torus:3x3");
  const Schedule s = periodic_schedule(t, Model::Nic, {"greedy", 1}).schedule;
  const std::string x = written(t, s);
  auto error_of = [](const std::string& text) {
    std::istringstream in(text);
    try {
      (void)read_poseidon(in, "bad.xml");
    } catch (const FileError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // The first router output that forwards a flit, made idle: that flit has no way on.
  std::string idle = x;
  const std::size_t used = idle.find("input=\"L\"");
  REQUIRE(used != std::string::npos);
  idle.replace(used, 9, "input=\"D\"");
  CHECK_THAT(error_of(idle), Catch::Matches("bad\\.xml:[0-9]+: tile \\(.*needs output . to take input L.*"));
  // An idle output made to forward: a table entry with no flit.
  std::string phantom = x;
  const std::size_t unused = phantom.find("<output id=\"N\" input=\"D\"/>");
  REQUIRE(unused != std::string::npos);
  phantom.replace(unused, 26, "<output id=\"N\" input=\"S\"/>");
  CHECK_THAT(error_of(phantom), Catch::Contains("no route's flit is there in this slot"));
  // Not XML, a missing tile, a coordinate outside the network.
  CHECK_THAT(error_of("<schedule length=\"2\""), Catch::StartsWith("bad.xml:1: not well-formed XML"));
  CHECK(error_of("<schedule length=\"1\" width=\"2\" height=\"2\" topology=\"mesh\"></schedule>") ==
        "bad.xml:1: tile (0,0) is missing");
  CHECK(error_of("<schedule length=\"1\" width=\"2\" height=\"2\" topology=\"mesh\"><tile id=\"(5,0)\"/></schedule>") ==
        "bad.xml:1: x 5 is out of range 0..1");
  CHECK(error_of("<schedule length=\"1\" width=\"2\" height=\"2\" topology=\"ring\"/>") ==
        "bad.xml:1: topology 'ring' is not bitorus or mesh");
}
