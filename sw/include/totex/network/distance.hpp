// SPDX-License-Identifier: Apache-2.0
/// Distances and status (total distance) of paper 000: BFS on any topology and the product
/// formulas (Theorem 1, Corollary 1) where they apply.
#pragma once
#include <cstdint>
#include <vector>

#include "totex/network/topology.hpp"

namespace totex {

/// Hop distance from `source` to every node (BFS).
[[nodiscard]] std::vector<int> bfs_distances(const Topology& t, NodeId source);
/// The largest hop distance from any of `sources` to a node of `targets` it reaches (BFS from
/// each source); empty `targets`: every node.
[[nodiscard]] int farthest_from(const Topology& t, const std::vector<NodeId>& sources, const std::vector<NodeId>& targets = {});
/// s(v) = sum of distances from v, by BFS.
[[nodiscard]] std::int64_t status_bfs(const Topology& t, NodeId v);
/// S_G = sum over v of s(v), by BFS from every node.
[[nodiscard]] std::int64_t total_status_bfs(const Topology& t);

/// Status of coordinate x in a factor graph (closed forms for rings, paths, complete graphs).
[[nodiscard]] std::int64_t factor_status(const Factor& f, int x);
/// Theorem 1: s(v) = n * sum_i s_i(v_i) / |V_i|. Only for products.
[[nodiscard]] std::int64_t status_product(const Topology& t, NodeId v);
/// Corollary 1 times n: S_G = n * AS(G) = n^2 * sum_i AS(G_i)/|V_i|. Only for products.
[[nodiscard]] std::int64_t total_status_product(const Topology& t);
/// S_G by the product formula when t is a product, else by BFS.
[[nodiscard]] std::int64_t total_status(const Topology& t);
/// S_P = sum of distances over ordered pairs of processors (= S_G when every node is one);
/// BFS from every processor for a partially populated network.
[[nodiscard]] std::int64_t processor_status(const Topology& t);

}  // namespace totex
