// SPDX-License-Identifier: Apache-2.0
// The ring-product construction for tori of three or more dimensions
// (sw/src/generators/ring_product.hpp, issue 29): where it applies, that its periodic plans are
// translation-invariant with every offset once and verify modulo the period, the periods it
// reaches (the bound where it is met), and that the one-shot schedule cut from a plan verifies.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <tuple>

#include "generators/ring_product.hpp"
#include "totex/bounds/bounds.hpp"
#include "totex/error.hpp"
#include "totex/generators/periodic.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/periodic_verify.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

TEST_CASE("the ring product applies to nic and all-port tori of three or more dimensions", "[ring-product]") {
  for (const char* yes : {"torus:3x3x3", "torus:8x8x8", "torus:4x4x8", "torus:8x16x16", "torus:3x3x3x3"})
    CHECK(ring_product_why_not(parse_topology(yes), Model::Nic).empty());
  for (const char* no : {"torus:8x8", "mesh:4x4x4", "hypercube:6", "ring:8"})
    CHECK_FALSE(ring_product_why_not(parse_topology(no), Model::Nic).empty());
  // All-port takes the nic construction's patterns (nic's rules include all-port's); single-port not.
  CHECK(ring_product_why_not(parse_topology("torus:4x4x8"), Model::AllPort).empty());
  CHECK_FALSE(ring_product_why_not(parse_topology("torus:4x4x8"), Model::SinglePort).empty());
  CHECK_THROWS_AS(ring_product_periodic(parse_topology("torus:8x8"), Model::Nic, 1), UsageError);
}

TEST_CASE("ring-product plans send every offset once and verify modulo the period", "[ring-product]") {
  // Measured periods (period bound in brackets): 3x3x3 32 [26: 3 windows of the base at 9 are
  // UNSAT, at its best 8 it needs 4], 4x4x8 128 [128], 6x6x6 216 [215: the base torus:6x6 at 36,
  // not its best 35], 8x8x8 512 [512]. Budget 8: the wall clock is only the safety stop.
  for (const auto& [spec, want] :
       {std::pair{"torus:3x3x3", 32}, {"torus:4x4x8", 128}, {"torus:6x6x6", 216}, {"torus:8x8x8", 512}}) {
    const Topology t = parse_topology(spec);
    const RingProductPlan plan = ring_product_periodic(t, Model::Nic, 8);
    std::string log;
    for (const std::string& line : plan.log) log += line + "\n";
    INFO(spec << "\n" << log);
    CHECK(plan.period == want);
    std::set<NodeId> offsets;
    for (const PlacedPattern& p : plan.patterns) {
      offsets.insert(p.dst);
      CHECK(p.start >= 0);
      CHECK(p.start < plan.period);
    }
    CHECK(offsets.size() == static_cast<std::size_t>(t.nodes() - 1));
    CHECK(plan.patterns.size() == offsets.size());
    CHECK_FALSE(offsets.count(0));
    Schedule s = pattern_schedule_of(t, Model::Nic, plan.patterns, "product");
    s.period = plan.period;
    const PeriodicReport r = verify_periodic(t, s);
    CHECK(r.ok);
    CHECK(plan.period >= periodic_lower_bound(lower_bound(t, Model::Nic)).steps);
  }
}

TEST_CASE("ring-product one-shot schedules verify, torus:8x8x8 meets its bound", "[ring-product]") {
  for (const auto& [spec, want] : {std::pair{"torus:4x4x4", 66}, {"torus:8x8x8", 517}}) {
    const Topology t = parse_topology(spec);
    std::vector<std::string> log;
    const Schedule s = ring_product_schedule(t, Model::Nic, 2, log);
    const VerifyReport r = verify(t, s);
    INFO(spec);
    CHECK(r.ok);
    CHECK(r.steps == want);
    CHECK(r.steps == lower_bound(t, Model::Nic).steps);
  }
}

TEST_CASE("periodic auto takes the ring product on 3-D tori: torus:8x8x8 at its bound, proven", "[ring-product]") {
  const Topology t = parse_topology("torus:8x8x8");
  const PeriodicOutcome o = periodic_schedule(t, Model::Nic, PeriodicRequest{});
  CHECK(o.algorithm == "periodic-product");
  CHECK(o.schedule.period == 512);
  CHECK(o.bound.steps == 512);
  CHECK(o.proven_optimal);
  CHECK(o.translation_invariant);
  CHECK(verify_periodic(t, o.schedule).ok);
  CHECK_THROWS_AS(periodic_schedule(parse_topology("torus:8x8"), Model::Nic, PeriodicRequest{"product", 0}), UsageError);
}
