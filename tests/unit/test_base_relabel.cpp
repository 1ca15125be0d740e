// SPDX-License-Identifier: Apache-2.0
// A product network's symmetries and a schedule relabelled by one (generators/base_relabel.hpp):
// the starting points of the degraded one-shot repair (docs/networks.md, "Schedules").
#include <catch2/catch.hpp>

#include <set>

#include "generators/base_relabel.hpp"
#include "totex/generators/scheduler.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

namespace {

/// Every link of t maps to a link of t under `map`.
bool is_automorphism(const Topology& t, const std::vector<NodeId>& map) {
  for (NodeId v = 0; v < t.nodes(); ++v)
    for (Port p = 0; p < t.degree(v); ++p)
      if (!t.port_to(map[static_cast<std::size_t>(v)], map[static_cast<std::size_t>(t.neighbor(v, p))])) return false;
  return true;
}

}  // namespace

TEST_CASE("factor_symmetries: the square's eight on a torus, the rectangle's four on a mesh", "[degraded]") {
  const Topology torus = parse_topology("torus:4x4");
  const auto sq = factor_symmetries(torus, 100);
  // 2 orders of the dimensions x 4 reflections: the dihedral group of the square, fixing node 0.
  REQUIRE(sq.size() == 8);
  CHECK(sq.front() == std::vector<NodeId>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}));
  CHECK(std::set<std::vector<NodeId>>(sq.begin(), sq.end()).size() == 8);
  for (const auto& map : sq) {
    CHECK(is_automorphism(torus, map));
    CHECK(map[0] == 0);  // no translation
  }
  // Node 1 = (1,0): reflected in dimension 0 it is (3,0) = node 3; with the dimensions swapped, (0,1) = node 4.
  CHECK(sq[1][1] == 3);
  CHECK(sq[4][1] == 4);
  // mesh:3x4: the sides differ, so no swap; each path reflected: (x,y) -> (2-x, 3-y).
  const Topology mesh = parse_topology("mesh:3x4");
  const auto rect = factor_symmetries(mesh, 100);
  REQUIRE(rect.size() == 4);
  for (const auto& map : rect) CHECK(is_automorphism(mesh, map));
  CHECK(rect[3][0] == 11);
  // The limit, and a network that is not a product: the identity alone.
  CHECK(factor_symmetries(torus, 3).size() == 3);
  CHECK(factor_symmetries(parse_topology("torus:4x4~fail:0-1"), 100).size() == 1);
}

TEST_CASE("relabel: the base schedule under every symmetry stays valid and as long", "[degraded]") {
  const Topology t = parse_topology("torus:4x4");
  for (Model m : {Model::Nic, Model::AllPort}) {
    const Schedule s = schedule_direct(t, m, ScheduleRequest("auto")).schedule;
    const std::size_t steps = s.step_count();
    for (const auto& map : factor_symmetries(t, 100)) {
      const Schedule r = relabel(t, s, map);
      CHECK(r.step_count() == steps);
      CHECK(r.transfer_count() == s.transfer_count());
      const VerifyReport rep = verify(t, r);
      CHECK(rep.ok);
      CHECK(rep.steps == static_cast<std::int64_t>(steps));
    }
  }
}
