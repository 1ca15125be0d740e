// SPDX-License-Identifier: Apache-2.0
/// Rotations of a mesh that move every node, as groups of node permutations. A schedule invariant
/// under such a group places a message and its rotated images in the same step on rotated routes:
/// a quarter of the placements on a square mesh, and the four middle cuts loaded alike.
#pragma once
#include <vector>

#include "totex/network/topology.hpp"

namespace totex {

/// group[g][v]: the image of node v under element g; group[0] is the identity. Every element is an
/// automorphism of the topology, and no element but the identity fixes a node (so none fixes a
/// directed link either, and the images of a message leave from distinct nodes).
using NodeSymmetry = std::vector<std::vector<NodeId>>;

/// The largest rotation group totex uses on a mesh (every factor a path, every node a processor):
/// the four quarter turns of a square 2D mesh of even side; otherwise the half turn (every
/// coordinate x -> k - 1 - x) when some side is even (an all-odd mesh has a fixed centre node);
/// otherwise just the identity.
[[nodiscard]] NodeSymmetry mesh_rotations(const Topology& t);

/// The group with only the identity.
[[nodiscard]] NodeSymmetry no_symmetry(const Topology& t);

/// The orbits of the nodes and directed links under a group whose elements other than the
/// identity fix no node (mesh_rotations), numbered in order of their smallest member. As no such
/// element fixes a link either, the images of a route under the group never share a link or a NIC:
/// routes placed with all their images clash exactly when they use the same orbit in the same step.
struct SymmetryOrbits {
  SymmetryOrbits(const Topology& t, const NodeSymmetry& group);
  std::vector<int> node;                     // node[v]: the orbit of node v
  std::vector<int> link;                     // link[l]: the orbit of directed link l
  int nodes = 0, links = 0;                  // how many orbits
  std::vector<std::vector<LinkId>> image;    // image[g][l]: directed link l moved by element g
};

}  // namespace totex
