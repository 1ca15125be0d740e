// SPDX-License-Identifier: Apache-2.0
// The data behind `totex plot`: link usage, MIN line usage and layouts (the SVGs themselves are
// checked by tests/plot with xmllint and Chromium).
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <utility>

#include "totex/error.hpp"
#include "totex/generators/generators.hpp"
#include "totex/network/placement.hpp"
#include "totex/plot/plot.hpp"
#include "totex/network/spec.hpp"

using namespace totex;

TEST_CASE("link usage counts every transfer once, in its step and on its link", "[plot]") {
  const Topology t = parse_topology("torus:3x4");
  const Schedule s = pairwise_schedule(t, Model::AllPort);
  const plot::LinkUsage u = plot::link_usage(t, s);
  REQUIRE(u.links == t.links());
  REQUIRE(u.steps() == static_cast<int>(s.steps.size()));
  std::int64_t busy = 0, load = 0;
  for (const auto& b : u.busy) busy += static_cast<std::int64_t>(b.size());
  for (const std::int64_t l : u.load) load += l;
  // all-port: a link carries at most one message per step, so busy cells = transfers = total load
  REQUIRE(busy == s.transfer_count());
  REQUIRE(load == s.transfer_count());
  const Transfer& first = s.steps[0][0];
  const auto& step0 = u.busy[0];
  REQUIRE(std::binary_search(step0.begin(), step0.end(), t.link_id(first.from, first.port)));
  REQUIRE(u.group[static_cast<std::size_t>(t.link_id(0, 0))] == t.port_name(0, 0));
}

TEST_CASE("MIN line usage: configuration x fills stage j in cycle x + j", "[plot]") {
  const MinNetwork net(16, 4, Wiring::Omega);
  const MinSchedule s = latin_schedule(net, zero_m0(net));
  const plot::LinkUsage u = plot::min_line_usage(net, s);
  REQUIRE(u.steps() == s.steps(net));  // 16 + 2 - 1
  REQUIRE(u.links == 16 * 2);
  REQUIRE(u.busy[0].size() == 16);       // only stage 0 in the first cycle
  REQUIRE(u.busy[1].size() == 32);       // both stages once the pipeline is full
  REQUIRE(u.busy[16].size() == 16);      // only the last stage in the drain
  for (const std::int64_t l : u.load) REQUIRE(l == 16);  // every line once per configuration
}

TEST_CASE("layouts place every node apart, and refuse what cannot be drawn", "[plot]") {
  for (const char* spec : {"ring:8", "torus:4x4", "torus:3x3x3", "mesh:4x3", "hypercube:5", "ghc:3x4", "metacube:1,2",
                           "ring:5*complete:3", "torus:6x6@linear"}) {
    const plot::Layout l = plot::layout(parse_topology(spec));
    std::set<std::pair<double, double>> seen;
    for (const plot::Point& p : l.pos) {
      REQUIRE(p.x > 0);
      REQUIRE(p.y > 0);
      REQUIRE(p.x < l.width);
      REQUIRE(p.y < l.height);
      seen.insert({p.x, p.y});
    }
    INFO(spec);
    REQUIRE(seen.size() == l.pos.size());
  }
  REQUIRE(plot::layout(parse_topology("torus:4x4")).name == "grid with wrap links");
  REQUIRE(plot::layout(parse_topology("mesh:4x4")).name == "grid");
  REQUIRE_THROWS_AS(plot::layout(parse_topology("hypercube:11")), UsageError);
}

TEST_CASE("the bound a picture draws is the largest term, named", "[plot]") {
  LowerBound lb{67, {{"nic_pipeline", 67, ""}, {"link_fill", 67, ""}, {"bisection", 64, ""}}};
  const plot::Bound b = plot::main_term(lb);
  REQUIRE(b.steps == 67);
  REQUIRE(b.term == "nic_pipeline, link_fill");
}

TEST_CASE("an ODR schedule's link loads per dimension are paper 004's ODR loads", "[plot]") {
  // Two independent computations of the same thing: the schedule's transfers counted per link,
  // and compute_loads' count of ODR paths per link.
  for (const char* spec : {"torus:8x8@linear", "torus:5x5@multiple:2"}) {
    INFO(spec);
    const Topology placed = parse_topology(spec);
    const std::string base_spec(spec, std::string(spec).find('@'));
    const Topology base = parse_topology(base_spec);
    const Placement p = parse_placement(std::string(spec).substr(std::string(spec).find('@') + 1));
    const LoadReport odr = compute_loads(base, p, Routing::Odr);
    const Schedule s = dimension_order_schedule(placed, Model::AllPort, Routing::Odr);
    const std::vector<DimensionLoad> own = plot::schedule_dimension_loads(placed, plot::link_usage(placed, s));
    REQUIRE(own.size() == odr.dimensions.size());
    for (std::size_t i = 0; i < own.size(); ++i) {
      REQUIRE(own[i].dimension == odr.dimensions[i].dimension);
      REQUIRE(own[i].direction == odr.dimensions[i].direction);
      REQUIRE(own[i].max_load == Approx(odr.dimensions[i].max_load));
      REQUIRE(own[i].mean_load == Approx(odr.dimensions[i].mean_load));
    }
  }
}
