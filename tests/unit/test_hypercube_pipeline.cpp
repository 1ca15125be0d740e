// SPDX-License-Identifier: Apache-2.0
// The pipeline construction: nic total exchange on the n-cube at the nic pipeline bound, checked
// by the verifier where the schedule is small, and pattern by pattern (the conditions of a
// translation-invariant hypercube schedule) up to hypercube:16.
#include <catch2/catch.hpp>
#include <algorithm>
#include <set>

#include "generators/hypercube_pipeline.hpp"
#include "hypercube_pattern_check.hpp"
#include "totex/bounds/bounds.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/periodic_verify.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

TEST_CASE("pipeline schedules hypercube:1..10 under nic at the nic pipeline bound", "[pipeline]") {
  for (int n = 1; n <= 10; ++n) {
    const Topology t = parse_topology("hypercube:" + std::to_string(n));
    INFO("hypercube:" << n);
    REQUIRE(hypercube_pipeline_why_not(t).empty());
    const auto patterns = hypercube_pipeline_patterns(t);
    REQUIRE(patterns);
    const Schedule s = expand_patterns(t, Model::Nic, *patterns, "pipeline");
    const VerifyReport r = verify(t, s);
    REQUIRE(r.ok);
    REQUIRE(r.delivered == r.expected);
    const LowerBound lb = lower_bound(t, Model::Nic);
    REQUIRE(r.steps == lb.steps);
    if (n >= 3) {  // the term that sets it: injections 0..N-2 and the mean hop count
      const auto term = std::find_if(lb.terms.begin(), lb.terms.end(), [](const BoundTerm& b) { return b.name == "nic_pipeline"; });
      REQUIRE(term != lb.terms.end());
      REQUIRE(term->value == lb.steps);
    }
  }
}

TEST_CASE("pipeline patterns meet the translation-invariant conditions up to hypercube:16", "[pipeline]") {
  // Per pattern: each bit of the offset crossed once, on consecutive steps. Across patterns: one
  // hop per (dimension, step) (the link rule: a pattern hop in dimension d at step s uses every
  // link of d at s), distinct injection steps and distinct ejection steps (the NIC rule), the
  // last ejection one step before the bound.
  for (int n : {11, 12, 13, 14, 15, 16}) {
    const Topology t = parse_topology("hypercube:" + std::to_string(n));
    INFO("hypercube:" << n);
    const auto patterns = hypercube_pipeline_patterns(t);
    REQUIRE(patterns);
    (void)test::check_hypercube_patterns(t, *patterns);
    std::set<std::int64_t> injections, ejections;
    for (const PlacedPattern& p : *patterns) {
      REQUIRE(injections.insert(p.start).second);
      REQUIRE(ejections.insert(p.start + static_cast<std::int64_t>(p.word.moves.size()) - 1).second);
    }
    REQUIRE(*injections.begin() == 0);
    REQUIRE(*ejections.rbegin() + 1 == lower_bound(t, Model::Nic).steps);
  }
}

TEST_CASE("pipeline applies to every hypercube, nothing else", "[pipeline]") {
  for (int n = 1; n <= 16; ++n) CHECK(hypercube_pipeline_why_not(parse_topology("hypercube:" + std::to_string(n))).empty());
  CHECK(hypercube_pipeline_why_not(parse_topology("torus:4x4")).find("needs a hypercube") != std::string::npos);
  CHECK(hypercube_pipeline_why_not(parse_topology("mesh:4x4")).find("needs a hypercube") != std::string::npos);
}

TEST_CASE("periodic pipeline: hypercube:3 and 5..10 at period N - 1, detours making the delays add up", "[pipeline]") {
  for (int n : {1, 3, 5, 6, 7, 8, 9, 10}) {
    const Topology t = parse_topology("hypercube:" + std::to_string(n));
    INFO("hypercube:" << n);
    const auto patterns = hypercube_pipeline_periodic_patterns(t);
    REQUIRE(patterns);
    Schedule s = expand_patterns(t, Model::Nic, *patterns, "periodic-pipeline");
    s.period = t.nodes() - 1;
    const PeriodicReport r = verify_periodic(t, s);
    REQUIRE(r.ok);
    REQUIRE(r.delivered == r.expected);
    // The period bound (nic_ejection: N - 1), and the slot sum that minimal routes cannot meet.
    std::int64_t delays = 0, minimal = 0;
    for (const PlacedPattern& p : *patterns) {
      delays += static_cast<std::int64_t>(p.word.moves.size()) - 1;
      const std::vector<int> bits = t.coordinates(p.dst);
      minimal += static_cast<std::int64_t>(std::count(bits.begin(), bits.end(), 1)) - 1;
    }
    REQUIRE(delays % s.period == 0);
    if (minimal % s.period != 0) REQUIRE(delays > minimal);
  }
  // hypercube:4: the detours would fill every link slot; none found (the packing's 16 stands).
  CHECK_FALSE(hypercube_pipeline_periodic_patterns(parse_topology("hypercube:4")));
}
