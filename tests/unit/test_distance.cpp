// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "totex/network/distance.hpp"
#include "totex/network/spec.hpp"

using namespace totex;

TEST_CASE("Theorem 1 and Corollary 1 agree with BFS on many products", "[distance]") {
  for (const char* spec : {"ring:2", "ring:7", "ring:8", "path:6", "complete:5", "torus:3x4", "torus:2x5x3",
                           "torus:6x6", "hypercube:6", "ghc:3x4", "ghc:2x3x5", "ring:5*complete:3",
                           "path:4*ring:5", "path:3*path:4*complete:2", "torus:5x5x5"}) {
    INFO(spec);
    const Topology t = parse_topology(spec);
    for (NodeId v = 0; v < t.nodes(); ++v) REQUIRE(status_product(t, v) == status_bfs(t, v));
    REQUIRE(total_status_product(t) == total_status_bfs(t));
  }
}

TEST_CASE("closed forms for single factors", "[distance]") {
  REQUIRE(total_status(parse_topology("ring:8")) == 8 * 16);  // floor(64/4) per node
  REQUIRE(total_status(parse_topology("ring:7")) == 7 * 12);
  REQUIRE(total_status(parse_topology("complete:6")) == 6 * 5);
  REQUIRE(total_status(parse_topology("hypercube:4")) == 16 * 32);  // n 2^(n-1) per node
}

TEST_CASE("metacube status is computed by BFS", "[distance]") {
  // The dual-cube MC(1,1) has 8 nodes of degree 2 and is connected: it is an 8-cycle.
  const Topology t = parse_topology("metacube:1,1");
  REQUIRE(total_status(t) == total_status(parse_topology("ring:8")));
  for (int x : bfs_distances(parse_topology("metacube:2,2"), 0)) REQUIRE(x >= 0);  // connected
}
