// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "totex/error.hpp"
#include "totex/network/spec.hpp"
#include "totex/network/topology.hpp"

using namespace totex;

namespace {
/// Every link has its reverse, no self-loops, no parallel links.
void require_simple_undirected(const Topology& t) {
  for (NodeId v = 0; v < t.nodes(); ++v) {
    for (Port p = 0; p < t.degree(v); ++p) {
      const NodeId w = t.neighbor(v, p);
      REQUIRE(w != v);
      REQUIRE(t.port_to(w, v).has_value());
      REQUIRE(*t.port_to(v, w) == p);  // no parallel link before p
      REQUIRE(t.link_source(t.link_id(v, p)) == v);
    }
  }
}
}  // namespace

TEST_CASE("products have the expected sizes and degrees", "[topology]") {
  struct Case {
    const char* spec;
    int nodes;
    int degree;  // of every node (all regular here)
  };
  const Case cases[] = {
      {"ring:2", 2, 1},        {"ring:3", 3, 2},          {"ring:8", 8, 2},        {"torus:4x4", 16, 4},
      {"torus:2x5", 10, 3},    {"torus:3x4x5", 60, 6},    {"torus:2x2x2", 8, 3},   {"hypercube:1", 2, 1},
      {"hypercube:5", 32, 5},  {"ghc:3x4", 12, 5},        {"complete:6", 6, 5},    {"ghc:2x3x5", 30, 7},
      {"ring:5*complete:3", 15, 4}, {"metacube:2,1", 64, 3}, {"metacube:1,2", 32, 3}, {"metacube:2,2", 1024, 4},
      {"metacube:0,3", 8, 3},
  };
  for (const Case& c : cases) {
    INFO(c.spec);
    const Topology t = parse_topology(c.spec);
    REQUIRE(t.nodes() == c.nodes);
    for (NodeId v = 0; v < t.nodes(); ++v) REQUIRE(t.degree(v) == c.degree);
    REQUIRE(t.links() == c.nodes * c.degree);
    require_simple_undirected(t);
  }
}

TEST_CASE("paths have end nodes of degree one", "[topology]") {
  const Topology t = parse_topology("path:5");
  REQUIRE(t.degree(0) == 1);
  REQUIRE(t.degree(4) == 1);
  REQUIRE(t.degree(2) == 2);
  require_simple_undirected(parse_topology("path:4*ring:3"));
}

TEST_CASE("torus neighbours follow coordinates, dimension 0 fastest", "[topology]") {
  const Topology t = parse_topology("torus:4x3");
  const NodeId v = t.node_at({3, 1});
  REQUIRE(v == 3 + 4 * 1);
  REQUIRE(t.neighbor(v, 0) == t.node_at({0, 1}));  // d0+ wraps
  REQUIRE(t.neighbor(v, 1) == t.node_at({2, 1}));  // d0-
  REQUIRE(t.neighbor(v, 2) == t.node_at({3, 2}));  // d1+
  REQUIRE(t.neighbor(v, 3) == t.node_at({3, 0}));  // d1-
  REQUIRE(t.port_name(v, 0) == "d0+");
  REQUIRE(t.port_name(v, 3) == "d1-");
}

TEST_CASE("metacube links follow paper 003", "[topology]") {
  // MC(2,3): address (c, m[3], m[2], m[1], m[0]); cube-edges flip bits of field m[c], cross-edges bits of c.
  const Topology t = parse_topology("metacube:2,3");
  REQUIRE(t.nodes() == (1 << 14));
  const int m = 3;
  const NodeId v = (1 << 12) | (0b111 << 9) | (0b101 << 6) | (0b110 << 3) | 0b000;  // the paper's (01,111,101,110,000)
  for (Port p = 0; p < m; ++p) REQUIRE(t.neighbor(v, p) == (v ^ (1 << (3 + p))));  // class 1 -> field m[1]
  REQUIRE(t.neighbor(v, 3) == (v ^ (1 << 12)));
  REQUIRE(t.neighbor(v, 4) == (v ^ (1 << 13)));
}

TEST_CASE("bad specs give one-line errors naming the accepted form", "[topology]") {
  for (const char* bad : {"ring:1", "torus:0x4", "torus:4x", "min:10:3:omega", "min:16:4:banyan", "min:16:1:omega",
                          "hypercube:0", "ghc:1x3", "metacube:2", "metacube:5,1", "metacube:2,4", "foo:3", "ring",
                          "ring:abc", "ring:3*", "torus:300x300", ""}) {
    INFO(bad);
    try {
      (void)parse_spec(bad);
      FAIL("accepted " << bad);
    } catch (const UsageError& e) {
      const std::string what = e.what();
      REQUIRE(what.find('\n') == std::string::npos);
      REQUIRE(what.find("accepted:") != std::string::npos);
    }
  }
  REQUIRE_THROWS_AS(parse_topology("min:16:4:omega"), UsageError);
}
