// SPDX-License-Identifier: Apache-2.0
// Shared by the hypercube construction tests (doubling, pipeline): the conditions of an
// XOR-invariant hypercube schedule, checked pattern by pattern (no expansion, so sizes whose
// schedule would not fit in memory are checked too).
#pragma once
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "generators/pattern_schedule.hpp"
#include "totex/network/topology.hpp"

namespace totex::test {

/// Every non-zero offset has one pattern; each pattern crosses each bit of its offset exactly once,
/// on consecutive steps; no (dimension, step) carries two pattern hops (a hop in dimension d at
/// step s uses every link of d at s). Returns the (dimension, step) cells used.
inline std::set<std::pair<int, std::int64_t>> check_hypercube_patterns(const Topology& t, const std::vector<PlacedPattern>& patterns) {
  std::set<std::pair<int, std::int64_t>> cells;
  std::set<NodeId> offsets;
  for (const PlacedPattern& p : patterns) {
    REQUIRE(offsets.insert(p.dst).second);
    const std::vector<int> bits = t.coordinates(p.dst);
    std::set<int> dims;
    for (std::size_t j = 0; j < p.word.moves.size(); ++j) {
      const int dim = p.word.moves[j].first;
      REQUIRE(bits[static_cast<std::size_t>(dim)] == 1);
      REQUIRE(dims.insert(dim).second);
      REQUIRE(cells.insert({dim, p.start + static_cast<std::int64_t>(j)}).second);
    }
    REQUIRE(static_cast<int>(dims.size()) == static_cast<int>(std::count(bits.begin(), bits.end(), 1)));
  }
  REQUIRE(static_cast<std::int64_t>(offsets.size()) == t.nodes() - 1);
  return cells;
}

}  // namespace totex::test
