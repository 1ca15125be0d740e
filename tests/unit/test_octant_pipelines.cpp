// SPDX-License-Identifier: Apache-2.0
// Octant pipelines for k x k x k tori (sw/src/generators/octant_pipelines.hpp, issue 29): where they
// apply, that their schedules verify (every offset once, one message per link class and step, one
// start and one end per node and step, no waits), odd and even sides, nic and all-port, and the
// steps they reach on torus:12x12x12 against its bound.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "generators/octant_pipelines.hpp"
#include "totex/bounds/bounds.hpp"
#include "totex/error.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

TEST_CASE("octant pipelines apply to nic and all-port tori KxKxK, K >= 6", "[octant]") {
  for (const char* yes : {"torus:6x6x6", "torus:7x7x7", "torus:12x12x12"}) {
    CHECK(octant_why_not(parse_topology(yes), Model::Nic).empty());
    CHECK(octant_why_not(parse_topology(yes), Model::AllPort).empty());
  }
  CHECK(octant_why_not(parse_topology("torus:5x5x5"), Model::Nic) == "needs K >= 6");
  for (const char* no : {"torus:8x8", "torus:8x8x16", "mesh:8x8x8", "torus:6x6x6x6", "torus:6x6x6@multiple:2"})
    CHECK(octant_why_not(parse_topology(no), Model::Nic) == "needs a torus KxKxK, every node a processor");
  CHECK_FALSE(octant_why_not(parse_topology("torus:8x8x8"), Model::SinglePort).empty());
  std::vector<std::string> log;
  CHECK_THROWS_AS(octant_schedule(parse_topology("torus:8x8"), Model::Nic, 1, log), UsageError);
}

TEST_CASE("octant schedules verify on odd and even sides, nic and all-port", "[octant]") {
  for (const char* spec : {"torus:6x6x6", "torus:7x7x7", "torus:8x8x8", "torus:9x9x9"})
    for (const Model m : {Model::Nic, Model::AllPort}) {
      const Topology t = parse_topology(spec);
      std::vector<std::string> log;
      const Schedule s = octant_schedule(t, m, 0.5, log);
      const VerifyReport r = verify(t, s);
      INFO(spec << " " << to_string(m));
      CHECK(r.ok);
      CHECK(s.algorithm == "octant");
      CHECK(r.steps >= lower_bound(t, m).steps);
      CHECK_FALSE(log.empty());
    }
}

TEST_CASE("octant pipelines bring torus:12x12x12 nic within 2 % of its bound", "[octant]") {
  // The default budget (8) tries eight seeds: 2639 steps against the bound 2597 (1.016); one seed
  // alone reaches 2654 (1.022); the compaction then 2626 (1.011). The budget counts work (walk
  // steps, compaction units), so this is the same on any machine.
  const Topology t = parse_topology("torus:12x12x12");
  std::vector<std::string> log;
  const Schedule s = octant_schedule(t, Model::Nic, 8, log);
  const VerifyReport r = verify(t, s);
  const std::int64_t bound = lower_bound(t, Model::Nic).steps;
  REQUIRE(r.ok);
  CHECK(bound == 2597);
  CHECK(r.steps * 100 <= bound * 102);
  CHECK(r.steps < 2639);
}

TEST_CASE("the compaction brings torus:9x9x9 nic below what octant and pattern reached without it", "[octant]") {
  // Issue 49: the octant walks alone gave 913 at any budget up to 8 (eight seeds) and auto's best
  // was pattern's 852 (bound 815). At budget 1 the seeds give 913 and the compaction, with as much
  // work again, takes it below 852; the work is counted, so this holds on any machine.
  const Topology t = parse_topology("torus:9x9x9");
  std::vector<std::string> log;
  const Schedule s = octant_schedule(t, Model::Nic, 1, log);
  const VerifyReport r = verify(t, s);
  REQUIRE(r.ok);
  CHECK(lower_bound(t, Model::Nic).steps == 815);
  CHECK(r.steps < 852);
  REQUIRE(log.size() >= 2);
  CHECK(log.back().rfind("octant: compaction: ", 0) == 0);
}

TEST_CASE("the compaction shortens torus:7x7x7 and keeps its schedule valid", "[octant]") {
  // torus:7x7x7 at budget 0.5: the seeds reach 382 (seed 1 alone 388); the compaction takes that
  // to 352 (pattern reaches 349, the bound is 347), a verified schedule.
  const Topology t = parse_topology("torus:7x7x7");
  std::vector<std::string> log;
  const Schedule s = octant_schedule(t, Model::Nic, 0.5, log);
  const VerifyReport r = verify(t, s);
  REQUIRE(r.ok);
  CHECK(r.steps <= 355);
  CHECK(r.steps >= lower_bound(t, Model::Nic).steps);
}
