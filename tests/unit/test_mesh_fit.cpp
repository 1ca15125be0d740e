// SPDX-License-Identifier: Apache-2.0
// xyfit, the meshes' longest-first fit on dimension-ordered routes (sw/src/generators/mesh_fit.hpp,
// issue 29): where it applies, that its schedules verify under nic and all-port on square and
// non-square meshes, and that its lazy step source streams exactly the materialized steps.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "generators/mesh_fit.hpp"
#include "totex/bounds/bounds.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

TEST_CASE("xyfit applies to 2-D and 3-D meshes only", "[xyfit]") {
  for (const char* yes : {"mesh:2x2", "mesh:4x4", "mesh:5x7", "mesh:16x32", "path:3*path:9", "mesh:4x4x4", "mesh:2x3x5"})
    CHECK(mesh_fit_why_not(parse_topology(yes)).empty());
  for (const char* no : {"torus:4x4", "mesh:2x2x2x2", "path:8", "hypercube:4", "ring:5*path:4", "torus:4x4x4"})
    CHECK_FALSE(mesh_fit_why_not(parse_topology(no)).empty());
}

TEST_CASE("xyfit schedules verify under nic and all-port", "[xyfit]") {
  for (const char* spec : {"mesh:2x2", "mesh:3x3", "mesh:4x4", "mesh:5x7", "mesh:2x9", "mesh:8x8", "mesh:3x3x3", "mesh:2x3x4",
                           "mesh:4x4x4"})
    for (const Model m : {Model::Nic, Model::AllPort}) {
      INFO(spec << " " << to_string(m));
      const Topology t = parse_topology(spec);
      std::vector<std::string> log;
      const Schedule s = mesh_fit_schedule(t, m, log);
      const VerifyReport r = verify(t, s);
      CHECK(r.ok);
      CHECK(r.steps >= lower_bound(t, m).steps);
      REQUIRE(log.size() == 1);
    }
}

TEST_CASE("xyfit's lazy steps are its materialized steps", "[xyfit]") {
  for (const char* spec : {"mesh:6x5", "mesh:3x4x5"}) {
    INFO(spec);
    const Topology t = parse_topology(spec);
    std::vector<std::string> log;
    const Schedule plain = mesh_fit_schedule(t, Model::Nic, log);
    const Schedule lazy = mesh_fit_schedule(t, Model::Nic, log, 0);
    REQUIRE_FALSE(plain.lazy());
    REQUIRE(lazy.lazy());
    CHECK(lazy.step_count() == plain.step_count());
    CHECK(lazy.transfer_count() == plain.transfer_count());
    CHECK(transfer_checksum(lazy) == transfer_checksum(plain));
    CHECK(verify(t, lazy).ok);
  }
}
