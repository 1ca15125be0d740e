// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "totex/bounds/bounds.hpp"
#include "totex/generators/generators.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

TEST_CASE("pairwise verifies for every topology family and model", "[pairwise]") {
  for (const char* spec : {"ring:2", "ring:7", "ring:8", "path:6", "complete:6", "torus:4x4", "torus:3x5", "torus:2x3x4",
                           "hypercube:4", "ghc:3x4", "ring:4*complete:3", "metacube:1,1", "metacube:2,1",
                           "metacube:1,2"}) {
    const Topology t = parse_topology(spec);
    for (Model m : {Model::SinglePort, Model::AllPort, Model::Nic}) {
      INFO(spec << " " << to_string(m));
      const Schedule s = pairwise_schedule(t, m);
      const VerifyReport r = verify(t, s);
      REQUIRE(r.ok);
      REQUIRE(r.delivered == static_cast<std::int64_t>(t.nodes()) * (t.nodes() - 1));
      REQUIRE(r.steps >= lower_bound(t, m).steps);  // a bound that a verified schedule beat would be wrong
      REQUIRE(r.max_buffered == 0);                 // hops on consecutive steps
    }
  }
}
