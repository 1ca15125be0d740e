// SPDX-License-Identifier: Apache-2.0
/// Networks beyond the families (docs/networks.md): graph:FILE, a network read from a file of
/// nodes and links (or Poseidon's platform XML), and the fail list of a degraded network
/// (SPEC~fail:LIST).
#pragma once
#include <istream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "totex/network/topology.hpp"

namespace totex {

/// Most undirected links a graph file may give (a directed-link table of 2^24 entries, the cap of
/// the product specs).
inline constexpr int kMaxGraphLinks = 1 << 23;

/// A graph file: `#` comments, blank lines, a line `nodes N` (2 <= N <= kMaxNodes) before any
/// link, then one undirected link `a b` per line (node ids 0..N-1). FileError `name:line: what`
/// on a node out of range, a self-loop, a link given twice, a missing `nodes` line, too many nodes
/// or links; UsageError when the graph is partitioned. The topology's spec is `spec`.
[[nodiscard]] Topology read_graph(std::istream& in, const std::string& name, std::string spec);

/// The network of `graph:PATH` (spec = "graph:" + PATH): a graph file, or, for a name ending in
/// .xml, Poseidon's platform (bitorus and mesh as torus:WxH and mesh:WxH, custom from its links,
/// which must come in both directions). FileError when the file cannot be read.
[[nodiscard]] Topology load_graph(const std::string& path, std::string spec);

/// The fail list of SPEC~fail:LIST, checked against `base`: comma-separated items, a node `v` or
/// the undirected link `a-b` between two adjacent nodes. UsageError (the message without the
/// spec) on an empty list or item, a node out of range, a link between non-adjacent nodes, an
/// item given twice, or a link of a failed node.
struct FailList {
  std::vector<std::pair<NodeId, NodeId>> links;  // a < b, increasing
  std::vector<NodeId> nodes;                     // increasing
};
[[nodiscard]] FailList parse_fail_list(std::string_view list, const Topology& base);
/// The canonical text of a fail list: items in increasing order of their lower node id, a node
/// before the links from it, links a-b (a < b) by b: `0-1,5,5-9` is not possible (a link of a
/// failed node is refused), `0-1,3,4-8` is.
[[nodiscard]] std::string to_string(const FailList& f);

}  // namespace totex
