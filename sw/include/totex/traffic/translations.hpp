// SPDX-License-Identifier: Apache-2.0
/// The translations of a torus that map a traffic onto itself (docs/traffic.md, "Symmetry"). A
/// translation moves every node, keeps every port's number and maps a route onto a route, so a
/// problem that the traffic's translations keep can be solved on one node per orbit: the
/// congestion LP (its optimum can be averaged over the group) and route-sat's
/// translation-invariant schedules.
#pragma once
#include <cstdint>
#include <vector>

#include "totex/network/topology.hpp"
#include "totex/traffic/traffic.hpp"

namespace totex {

/// A group of translations and the orbits it makes.
struct Translations {
  std::vector<std::vector<NodeId>> maps;    // each translation as a node map, the identity first
  std::vector<std::uint32_t> node_orbit;    // per node, its orbit (numbered by least node)
  std::vector<std::uint32_t> link_orbit;    // per directed link, its orbit
  std::uint32_t node_orbits = 0, link_orbits = 0;
  std::vector<char> leader;  // per node, 1 when it is the least node of its orbit (its representative)
  [[nodiscard]] bool leads(NodeId v) const { return leader[static_cast<std::size_t>(v)] != 0; }
  [[nodiscard]] std::size_t order() const { return maps.size(); }
};

/// The translations that map `traffic` onto itself. Only the identity when `t` is not a whole torus
/// (every factor a ring, no failure, every node a processor) or the check would take more than
/// `max_work` look-ups (nodes x pairs); `work` (if given) gets the look-ups made.
[[nodiscard]] Translations traffic_translations(const Topology& t, const Traffic& traffic, std::int64_t max_work,
                                                std::int64_t* work = nullptr);

/// The image of directed link `l` under the node map `g` (the same port at the image of its source).
[[nodiscard]] LinkId translate_link(const Topology& t, const std::vector<NodeId>& g, LinkId l);

}  // namespace totex
