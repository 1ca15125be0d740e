// SPDX-License-Identifier: Apache-2.0
// The rotation construction for square tori (sw/src/generators/torus_rotation.hpp, issue 29):
// where it applies, that its schedules verify (one-shot and modulo the period), the exact
// periods it reaches, and the lazy pattern source against the materialized one.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "generators/pattern_schedule.hpp"
#include "generators/torus_rotation.hpp"
#include "totex/bounds/bounds.hpp"
#include "totex/generators/periodic.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/periodic_verify.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

TEST_CASE("rotation applies to KxK tori with K >= 11 other than 12", "[rotation]") {
  // 11, 13 and K = 2 mod 4 by the label search (no product of labels has four of each), the rest
  // by products.
  for (const char* yes : {"torus:11x11", "torus:13x13", "torus:14x14", "torus:15x15", "torus:16x16", "torus:17x17",
                          "torus:18x18", "torus:20x20", "torus:30x30", "torus:64x64"})
    CHECK(rotation_why_not(parse_topology(yes)).empty());
  for (const char* no : {"torus:8x8", "torus:9x9", "torus:10x10", "torus:12x12", "torus:16x32", "mesh:16x16",
                         "torus:16x16x16", "hypercube:8"})
    CHECK_FALSE(rotation_why_not(parse_topology(no)).empty());
}

TEST_CASE("rotation one-shot schedules verify: each offset is sent once, the core keeps every link busy",
          "[rotation]") {
  for (const char* spec : {"torus:11x11", "torus:13x13", "torus:14x14", "torus:15x15", "torus:16x16", "torus:17x17",
                           "torus:18x18", "torus:20x20"})
    for (const Model m : {Model::Nic, Model::AllPort}) {
      const Topology t = parse_topology(spec);
      const RotationPlan plan = rotation_patterns(t, m, false);
      std::set<NodeId> offsets;
      std::int64_t core_hops = 0;  // the tail's routes are the last tail_routes patterns
      for (std::size_t i = 0; i < plan.patterns.size(); ++i) {
        offsets.insert(plan.patterns[i].dst);
        if (i + static_cast<std::size_t>(plan.tail_routes) < plan.patterns.size())
          core_hops += static_cast<std::int64_t>(plan.patterns[i].word.moves.size());
      }
      CHECK(offsets.size() == static_cast<std::size_t>(t.nodes() - 1));
      CHECK(plan.patterns.size() == offsets.size());
      // Four link classes, one route each per step: the core's hops fill at most 4 per step, all
      // of them on odd sides (every link busy); the tail adds 2K at most.
      const int k = t.factors()[0].size;
      CHECK(plan.core_steps * 4 >= core_hops);
      if (k % 2 == 1) CHECK(plan.core_steps * 4 - core_hops <= 4 * 3);  // the streams' staggered starts
      CHECK(plan.steps <= plan.core_steps + 2 * k);
      // The tail: the antipode on even sides, and on K = 2 mod 4 sigma's fixed point in each stream.
      CHECK(plan.tail_routes == (k % 4 == 2 ? 5 : k % 2 == 0 ? 1 : 0));
      std::vector<std::string> log;
      const Schedule s = rotation_schedule(t, m, log);
      const VerifyReport r = verify(t, s);
      INFO(spec << " " << to_string(m));
      CHECK(r.ok);
      CHECK(r.steps == plan.steps);
      CHECK(r.steps >= lower_bound(t, m).steps);
    }
}

namespace {

/// The rotation's periodic schedule of each network: its period as measured, verified modulo the
/// period, proven optimal exactly when it equals the bound.
void check_periodic_rotation(const std::vector<std::tuple<std::string, std::int64_t, bool>>& cases) {
  for (const auto& [spec, want, at_bound] : cases) {
    const Topology t = parse_topology(spec);
    const PeriodicOutcome o = periodic_schedule(t, Model::Nic, PeriodicRequest{"rotation", 0});
    INFO(spec);
    CHECK(o.algorithm == "periodic-rotation");
    CHECK(o.schedule.period == want);
    const PeriodicReport r = verify_periodic(t, o.schedule);
    CHECK(r.ok);
    CHECK((o.schedule.period == o.bound.steps) == at_bound);
    CHECK(o.proven_optimal == at_bound);
  }
}

}  // namespace

TEST_CASE("rotation periodic schedules meet the period bound on odd sides and, repaired, on 16",
          "[rotation]") {
  // Measured: 11x11 165, 13x13 273 (searched labels), 15x15 420, 17x17 612, each = bound; even sides
  // through the SAT repair at the bound (periodic_repair.hpp): 16x16 512 (525 by the first fit;
  // about 30 s; 14x14 runs in `make bench`, below).
  check_periodic_rotation({{"torus:11x11", 165, true}, {"torus:13x13", 273, true}, {"torus:15x15", 420, true},
                           {"torus:17x17", 612, true}, {"torus:16x16", 512, true}});
}

// Hidden from `make test` (about a minute and a half: 18x18's repair runs out of its work, 14x14's
// repair is another of 16x16's kind); `make bench` runs it (tests/bench/run.sh).
TEST_CASE("rotation periodic: 14x14 and 20x20 repaired at the bound, 18x18 falls back to the first fit",
          "[.][rotation-slow]") {
  // 14x14 343 (350 by the first fit), 20x20 1000 (was 1017); 18x18's repair is unknown within its
  // work, so the first fit's 738 (bound 729).
  check_periodic_rotation({{"torus:14x14", 343, true}, {"torus:20x20", 1000, true}, {"torus:18x18", 738, false}});
}

TEST_CASE("the lazy pattern source produces the materialized schedule's steps", "[rotation]") {
  const Topology t = parse_topology("torus:16x16");
  const RotationPlan plan = rotation_patterns(t, Model::Nic, false);
  const Schedule eager = expand_patterns(t, Model::Nic, plan.patterns, "rotation");
  const Schedule lazy = pattern_schedule_of(t, Model::Nic, plan.patterns, "rotation", 0);  // lazy at any size
  REQUIRE(lazy.lazy());
  REQUIRE(lazy.step_count() == eager.step_count());
  CHECK(lazy.transfer_count() == eager.transfer_count());
  CHECK(verify(t, lazy).ok);
  std::vector<std::vector<Transfer>> steps;
  lazy.for_each_step([&](std::size_t, const std::vector<Transfer>& step) { steps.push_back(step); });
  REQUIRE(steps.size() == eager.steps.size());
  for (std::size_t c = 0; c < steps.size(); ++c) {
    auto key = [](const Transfer& x) { return std::tuple(x.msg.src, x.msg.dst, x.from, x.port); };
    std::vector<std::tuple<NodeId, NodeId, NodeId, Port>> a, b;
    for (const Transfer& x : steps[c]) a.push_back(key(x));
    for (const Transfer& x : eager.steps[c]) b.push_back(key(x));
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    CHECK(a == b);
  }
}
