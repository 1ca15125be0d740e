// SPDX-License-Identifier: Apache-2.0
#include "mesh_symmetry.hpp"

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <optional>
#include <stdexcept>

namespace totex {
namespace {
std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

bool is_mesh(const Topology& t) {
  if (!t.is_product() || t.is_partial()) return false;
  return std::all_of(t.factors().begin(), t.factors().end(),
                     [](const Factor& f) { return f.kind == FactorKind::Path; });
}

/// The node map of a coordinate map.
template <class Map>
std::vector<NodeId> node_map(const Topology& t, Map map) {
  std::vector<NodeId> image(at(t.nodes()));
  for (NodeId v = 0; v < t.nodes(); ++v) image[at(v)] = t.node_at(map(t.coordinates(v)));
  return image;
}
}  // namespace

NodeSymmetry mesh_rotations(const Topology& t) {
  NodeSymmetry group{node_map(t, [](std::vector<int> c) { return c; })};
  if (!is_mesh(t)) return group;
  const std::vector<Factor>& f = t.factors();
  const bool some_even = std::any_of(f.begin(), f.end(), [](const Factor& x) { return x.size % 2 == 0; });
  if (!some_even) return group;  // the centre node is fixed by every rotation
  if (f.size() == 2 && f[0].size == f[1].size) {
    const int k = f[0].size;  // even: no node is its own image under a quarter turn
    std::vector<NodeId> quarter = node_map(t, [k](std::vector<int> c) { return std::vector<int>{c[1], k - 1 - c[0]}; });
    for (int turn = 1; turn < 4; ++turn) {
      std::vector<NodeId> next(at(t.nodes()));
      for (NodeId v = 0; v < t.nodes(); ++v) next[at(v)] = quarter[at(group.back()[at(v)])];
      group.push_back(std::move(next));
    }
    return group;
  }
  group.push_back(node_map(t, [&f](std::vector<int> c) {
    for (std::size_t d = 0; d < c.size(); ++d) c[d] = f[d].size - 1 - c[d];
    return c;
  }));
  return group;
}

NodeSymmetry no_symmetry(const Topology& t) {
  std::vector<NodeId> identity(at(t.nodes()));
  std::iota(identity.begin(), identity.end(), 0);
  return {identity};
}

SymmetryOrbits::SymmetryOrbits(const Topology& t, const NodeSymmetry& group)
    : node(at(t.nodes()), -1), link(at(t.links()), -1), image(group.size(), std::vector<LinkId>(at(t.links()))) {
  for (NodeId v = 0; v < t.nodes(); ++v) {
    if (node[at(v)] >= 0) continue;
    for (const auto& g : group) node[at(g[at(v)])] = nodes;
    ++nodes;
  }
  for (std::size_t g = 0; g < group.size(); ++g)
    for (LinkId l = 0; l < t.links(); ++l) {
      const NodeId from = group[g][at(t.link_source(l))], to = group[g][at(t.link_target(l))];
      const std::optional<Port> p = t.port_to(from, to);
      if (!p || (g > 0 && from == t.link_source(l))) throw std::logic_error("symmetry orbits: not a group of automorphisms fixing no node");
      image[g][at(l)] = t.link_id(from, *p);
    }
  for (LinkId l = 0; l < t.links(); ++l) {
    if (link[at(l)] >= 0) continue;
    for (std::size_t g = 0; g < group.size(); ++g) link[at(image[g][at(l)])] = links;
    ++links;
  }
}

}  // namespace totex
