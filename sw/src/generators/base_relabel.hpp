// SPDX-License-Identifier: Apache-2.0
/// Relabellings of a product network's schedule by the network's symmetries (permutations of
/// equal factors, reflections of rings and paths). The repair of a degraded network's base
/// schedule (traffic_list.cpp) tries them: a relabelled base is as good on the healthy network,
/// but its busy and idle steps fall differently around the failed links.
#pragma once
#include <cstddef>
#include <vector>

#include "totex/network/topology.hpp"
#include "totex/schedule.hpp"

namespace totex {

/// Node maps of `b`'s symmetries that permute factors of equal kind and size and reflect each
/// ring (x -> -x mod k) or path (x -> k-1-x); translations left out. The identity first, at most
/// `limit`; only the identity when b is not a product.
[[nodiscard]] std::vector<std::vector<NodeId>> factor_symmetries(const Topology& b, std::size_t limit);

/// `s` (a schedule on b) with node v renamed map[v], for every transfer's node, source and
/// destination; `map` must be an automorphism of b (factor_symmetries'), so the result is valid
/// on b exactly when s is.
[[nodiscard]] Schedule relabel(const Topology& b, const Schedule& s, const std::vector<NodeId>& map);

}  // namespace totex
