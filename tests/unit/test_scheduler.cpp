// SPDX-License-Identifier: Apache-2.0
// The generators of issue 17 (pattern, greedy) and the auto choice: every schedule verifies, none
// beats a lower bound, auto keeps the best verified one and says how it is proven.
#include <algorithm>
#include <catch2/catch.hpp>

#include "totex/bounds/bounds.hpp"
#include "totex/error.hpp"
#include "generators/pattern_schedule.hpp"
#include "generators/product_routes.hpp"
#include "totex/generators/scheduler.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

namespace {
void require_valid(const Topology& t, const Schedule& s, Model m) {
  const VerifyReport r = verify(t, s);
  INFO(t.spec() << " " << to_string(m) << " " << s.algorithm << ": " << (r.violations.empty() ? "" : r.violations[0].text));
  REQUIRE(r.ok);
  REQUIRE(r.delivered == r.expected);
  REQUIRE(r.steps >= lower_bound(t, m).steps);
}
}  // namespace

TEST_CASE("pattern schedules verify on Cayley products of every shape", "[scheduler]") {
  PatternOptions o;
  o.time_budget_seconds = 0.2;
  for (const char* spec : {"ring:2", "ring:3", "ring:6", "ring:9", "torus:3x4", "torus:4x6", "torus:5x5", "torus:2x3x4",
                           "torus:3x3x3", "hypercube:2", "hypercube:5", "ghc:3x4", "ghc:2x3x5", "ring:4*complete:3"}) {
    const Topology t = parse_topology(spec);
    for (Model m : {Model::Nic, Model::AllPort}) {
      const PatternResult r = pattern_schedule(t, m, o);
      require_valid(t, r.schedule, m);
      REQUIRE(verify(t, r.schedule).steps <= r.greedy_steps);  // the SAT stage never makes it worse
    }
  }
}

TEST_CASE("pattern reaches the nic and all-port bounds where they are attainable", "[scheduler]") {
  PatternOptions o;
  o.time_budget_seconds = 2;
  // nic: T >= N-2+S/M is met (17 on the 4x4 torus; 4x8: the pipeline term 34).
  for (const auto& [spec, model, steps] : {std::tuple{"torus:4x4", Model::Nic, 17}, std::tuple{"torus:4x8", Model::Nic, 34},
                                           std::tuple{"hypercube:5", Model::Nic, 33},
                                           std::tuple{"torus:4x8", Model::AllPort, 32},
                                           std::tuple{"torus:4x6", Model::AllPort, 18},
                                           std::tuple{"ghc:4x4", Model::AllPort, 4}}) {
    const Topology t = parse_topology(spec);
    INFO(spec);
    REQUIRE(lower_bound(t, model).steps == steps);
    REQUIRE(verify(t, pattern_schedule(t, model, o).schedule).steps == steps);
  }
}

TEST_CASE("two-colour patterns: each colour of an even torus or hypercube follows its own", "[scheduler]") {
  PatternOptions o;
  o.time_budget_seconds = 0.3;
  o.colours = 2;
  for (const char* spec : {"ring:6", "torus:4x6", "hypercube:4", "torus:2x4x4"})
    for (Model m : {Model::Nic, Model::AllPort}) {
      const Topology t = parse_topology(spec);
      require_valid(t, pattern_schedule(t, m, o).schedule, m);
    }
  REQUIRE_THROWS_AS(pattern_schedule(parse_topology("ring:5"), Model::Nic, o), UsageError);
  REQUIRE_THROWS_AS(pattern_schedule(parse_topology("ghc:3x4"), Model::Nic, o), UsageError);
}

TEST_CASE("pattern reaches the ring nic bound with two colours where one colour cannot", "[scheduler]") {
  // The one-colour model cannot go below 36 on ring:16 (every node the same table); with two
  // colours the bound 33 (N - 2 + ceil(64 hops / 2 links) + ...) is met, which proves it optimal.
  PatternOptions o;
  o.time_budget_seconds = 4;
  for (const auto& [spec, steps] : {std::pair{"ring:12", 19}, std::pair{"ring:16", 33}}) {
    const Topology t = parse_topology(spec);
    INFO(spec);
    REQUIRE(lower_bound(t, Model::Nic).steps == steps);
    const PatternResult r = pattern_schedule(t, Model::Nic, o);
    require_valid(t, r.schedule, Model::Nic);
    REQUIRE(verify(t, r.schedule).steps == steps);
  }
}

TEST_CASE("pattern search is limited by work, not time: the same schedule twice", "[scheduler]") {
  PatternOptions o;
  o.time_budget_seconds = 0.5;
  const Topology t = parse_topology("torus:6x8");
  const Schedule a = pattern_schedule(t, Model::Nic, o).schedule, b = pattern_schedule(t, Model::Nic, o).schedule;
  REQUIRE(!a.steps.empty());
  REQUIRE(a.steps == b.steps);
}

TEST_CASE("pattern and greedy refuse what they cannot schedule", "[scheduler]") {
  REQUIRE_THROWS_AS(pattern_schedule(parse_topology("path:4*path:4"), Model::Nic), UsageError);
  REQUIRE_THROWS_AS(pattern_schedule(parse_topology("torus:6x6@linear"), Model::Nic), UsageError);
  REQUIRE_THROWS_AS(pattern_schedule(parse_topology("ring:5"), Model::SinglePort), UsageError);
  REQUIRE_THROWS_AS(flexible_greedy_schedule(parse_topology("metacube:1,1"), Model::Nic, 0, "greedy"), UsageError);
  REQUIRE_THROWS_AS(flexible_greedy_schedule(parse_topology("ring:5"), Model::SinglePort, 0, "greedy"), UsageError);
  REQUIRE_THROWS_AS(schedule_direct(parse_topology("path:5*path:5"), Model::Nic, {"symmetric", 0.1}), UsageError);
}

TEST_CASE("greedy with any minimal route verifies on meshes, placed tori and mixed products", "[scheduler]") {
  for (const char* spec : {"path:2", "path:5", "path:3*path:4", "path:4*path:4", "path:3*ring:4", "path:2*path:2*path:3",
                           "torus:6x6@linear", "torus:5x5@multiple:2", "torus:3x3x3@linear", "ring:7*complete:3"}) {
    const Topology t = parse_topology(spec);
    for (Model m : {Model::Nic, Model::AllPort}) require_valid(t, flexible_greedy_schedule(t, m, 0.05, "greedy"), m);
  }
}

TEST_CASE("mesh_rotations: automorphisms that fix no node, quarter turns on even square meshes", "[scheduler]") {
  for (const auto& [spec, order] : {std::pair{"path:8*path:8", 4}, std::pair{"path:4*path:4", 4}, std::pair{"path:4*path:6", 2},
                                    std::pair{"path:3*path:4*path:5", 2}, std::pair{"path:5*path:5", 1}, std::pair{"torus:4x4", 1},
                                    std::pair{"path:3*ring:4", 1}}) {
    const Topology t = parse_topology(spec);
    INFO(spec);
    const NodeSymmetry g = mesh_rotations(t);
    REQUIRE(static_cast<int>(g.size()) == order);
    for (std::size_t e = 0; e < g.size(); ++e) {
      std::vector<NodeId> sorted = g[e];
      std::sort(sorted.begin(), sorted.end());
      for (NodeId v = 0; v < t.nodes(); ++v) {
        REQUIRE(sorted[static_cast<std::size_t>(v)] == v);  // a permutation
        if (e > 0) REQUIRE(g[e][static_cast<std::size_t>(v)] != v);  // fixes no node
        for (Port p = 0; p < t.degree(v); ++p)  // maps links to links
          REQUIRE(t.port_to(g[e][static_cast<std::size_t>(v)], g[e][static_cast<std::size_t>(t.neighbor(v, p))]).has_value());
      }
    }
  }
}

TEST_CASE("symmetric greedy: verified, and invariant under the mesh's rotations", "[scheduler]") {
  for (const char* spec : {"path:4*path:4", "path:6*path:6", "path:4*path:6", "path:2*path:3*path:4"}) {
    const Topology t = parse_topology(spec);
    const NodeSymmetry g = mesh_rotations(t);
    for (Model m : {Model::Nic, Model::AllPort}) {
      const Schedule s = flexible_greedy_schedule(t, m, 0.05, "symmetric", 1, g);
      require_valid(t, s, m);
      // Each step's transfers, moved by any rotation, are that step's transfers again.
      for (const auto& step : s.steps)
        for (const Transfer& x : step)
          for (const auto& e : g) {
            const NodeId to = t.neighbor(x.from, x.port);
            const NodeId from = e[static_cast<std::size_t>(x.from)];
            const Transfer image{{e[static_cast<std::size_t>(x.msg.src)], e[static_cast<std::size_t>(x.msg.dst)]}, from,
                                 *t.port_to(from, e[static_cast<std::size_t>(to)])};
            REQUIRE(std::find(step.begin(), step.end(), image) != step.end());
          }
    }
  }
}

TEST_CASE("minimal_needs: antipodal ring offsets may go either way, paths never wrap", "[scheduler]") {
  const Topology t = parse_topology("torus:8x5");
  const std::vector<DimNeed> n = minimal_needs(t, {0, 0}, {4, 3});
  REQUIRE(n.size() == 2);
  REQUIRE((n[0].count == 4 && n[0].choices == 2));
  REQUIRE((n[1].count == 2 && n[1].choices == 1 && n[1].delta[0] == 4));  // 3 on a ring of 5: two steps of -1
  const Topology mesh = parse_topology("path:5*path:5");
  const std::vector<DimNeed> p = minimal_needs(mesh, {4, 0}, {0, 0});
  REQUIRE((p.size() == 1 && p[0].count == 4 && p[0].choices == 1));
}

TEST_CASE("auto keeps the shortest verified schedule of everything it tried", "[scheduler]") {
  for (const auto& [spec, model] : {std::pair{"torus:4x4", Model::Nic}, std::pair{"path:4*path:4", Model::AllPort},
                                    std::pair{"torus:6x6@linear", Model::Nic}, std::pair{"torus:3x5", Model::SinglePort},
                                    std::pair{"metacube:1,2", Model::Nic}}) {
    const Topology t = parse_topology(spec);
    INFO(spec);
    const ScheduleOutcome o = schedule_direct(t, model, {"auto", 1.0});
    require_valid(t, o.schedule, model);
    const std::int64_t steps = verify(t, o.schedule).steps;
    REQUIRE(!o.tried.empty());
    for (const Attempt& a : o.tried)
      if (a.verified) REQUIRE(steps <= a.steps);
    REQUIRE(o.proven_optimal == !o.proof.empty());
    if (steps == lower_bound(t, model).steps) REQUIRE(o.proven_optimal);
  }
  // A named generator that does not apply is a usage error naming what does.
  REQUIRE_THROWS_WITH(schedule_direct(parse_topology("path:4*path:4"), Model::Nic, {"pattern", 1.0}),
                      Catch::Contains("accepted: auto"));
  REQUIRE_THROWS_WITH(schedule_direct(parse_topology("ring:5"), Model::Nic, {"nosuch", 1.0}),
                      Catch::Contains("not an algorithm"));
}
