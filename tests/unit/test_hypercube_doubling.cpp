// SPDX-License-Identifier: Apache-2.0
// The doubling construction: all-port total exchange on every n-cube in 2^(n-1) steps (the
// hops/links bound), checked by the verifier, and the grid it rests on checked cell by cell.
#include <catch2/catch.hpp>
#include <algorithm>
#include <set>

#include "totex/bounds/bounds.hpp"
#include "generators/hypercube_doubling.hpp"
#include "hypercube_pattern_check.hpp"
#include "totex/generators/scheduler.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

TEST_CASE("doubling schedules every hypercube up to n = 9 in 2^(n-1) all-port steps", "[doubling]") {
  for (int n = 1; n <= 9; ++n) {
    const Topology t = parse_topology("hypercube:" + std::to_string(n));
    const auto patterns = hypercube_doubling_patterns(t);
    INFO("hypercube:" << n);
    REQUIRE(patterns);
    const Schedule s = expand_patterns(t, Model::AllPort, *patterns, "doubling");
    const VerifyReport r = verify(t, s);
    REQUIRE(r.ok);
    REQUIRE(r.delivered == r.expected);
    REQUIRE(r.steps == (std::int64_t{1} << (n - 1)));
    REQUIRE(r.steps == lower_bound(t, Model::AllPort).steps);
  }
}

TEST_CASE("the doubling grid is an exact tiling up to n = 14", "[doubling]") {
  // Every (dimension, step) cell is used by exactly one offset, each offset once per bit and on
  // consecutive steps: the translation-invariant schedule is then conflict-free (no expansion
  // needed, so sizes whose schedule would not fit in memory are checked too).
  for (int n = 10; n <= 14; ++n) {
    const Topology t = parse_topology("hypercube:" + std::to_string(n));
    const auto patterns = hypercube_doubling_patterns(t);
    INFO("hypercube:" << n);
    REQUIRE(patterns);
    const std::int64_t columns = std::int64_t{1} << (n - 1);
    const auto cells = test::check_hypercube_patterns(t, *patterns);
    for (const auto& cell : cells) {
      REQUIRE(cell.second >= 0);
      REQUIRE(cell.second < columns);
    }
    REQUIRE(static_cast<std::int64_t>(cells.size()) == n * columns);
  }
}

TEST_CASE("auto picks doubling on all-port hypercubes and proves it by the bound", "[doubling]") {
  const Topology t = parse_topology("hypercube:7");
  const ScheduleOutcome out = schedule_direct(t, Model::AllPort, {"auto", 4});
  REQUIRE(out.algorithm == "doubling");
  REQUIRE(verify(t, out.schedule).steps == 64);
  REQUIRE(out.proven_optimal);
  REQUIRE_FALSE(hypercube_doubling_applies(parse_topology("torus:4x4")));
  REQUIRE_THROWS(schedule_direct(t, Model::Nic, {"doubling", 1}));
}
