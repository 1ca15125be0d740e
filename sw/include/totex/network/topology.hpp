// SPDX-License-Identifier: Apache-2.0
/// Direct-network topologies: cartesian products of rings, paths and complete graphs
/// (tori, hypercubes, generalized hypercubes, mixed products), the metacube MC(k,m), general
/// graphs (graph:FILE) and degraded networks (SPEC~fail:LIST, docs/networks.md).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <vector>

namespace totex {

using NodeId = std::int32_t;
using Port = std::int32_t;
using LinkId = std::int32_t;

/// One dimension of a cartesian product.
enum class FactorKind { Ring, Path, Complete };
struct Factor {
  FactorKind kind;
  int size;
  bool operator==(const Factor& o) const { return kind == o.kind && size == o.size; }
};
[[nodiscard]] std::string to_string(const Factor& f);

/// Largest direct network accepted (all-pairs work is quadratic in it).
inline constexpr int kMaxNodes = 1 << 16;

/// An undirected simple graph given as directed links: node v has ports 0..degree(v)-1,
/// port p leads to neighbor(v,p) over directed link link_id(v,p).
class Topology {
 public:
  /// Cartesian product of factors; dimension 0 varies fastest in node ids.
  /// A ring or path of size 2 is one link (K2). Throws UsageError on bad sizes.
  static Topology product(std::vector<Factor> factors, std::string spec);
  /// Metacube MC(k,m) of paper 003: address (class, m[2^k-1], ..., m[0]), m[0] in the low bits.
  /// Ports 0..m-1 are cube-edges (bits of field m[class]), ports m..m+k-1 cross-edges (class bits).
  static Topology metacube(int k, int m, std::string spec);
  /// A general undirected simple graph: node v's ports lead to its neighbours in increasing id
  /// (port names "to<w>"). Links are unordered pairs {a, b}, a != b, each given once; throws
  /// UsageError on a self-loop, a duplicate or a node out of range. Not a product, not a metacube.
  static Topology graph(int nodes, const std::vector<std::pair<NodeId, NodeId>>& links, std::string spec);
  /// A directed graph with one-way links (Poseidon's custom platforms): each pair (a, b) is the
  /// link a -> b; node v's ports lead to its out-neighbours in increasing id. No connectivity
  /// check (a traffic's pairs are checked when it is scheduled); only the traffic bounds, the
  /// list scheduler and the verifier take it (require_two_way refuses the rest).
  static Topology one_way_graph(int nodes, const std::vector<std::pair<NodeId, NodeId>>& links, std::string spec);
  /// `base` without the undirected links `failed_links` (both directions) and without the nodes
  /// `failed_nodes` (every link of theirs removed, and no longer processors). Node ids are kept;
  /// each node keeps the base's port order and names minus the removed ports. Not a product, not
  /// vertex-transitive; base() is the network it was cut from. Throws UsageError when fewer than
  /// two processors survive or when two surviving processors cannot reach each other (naming
  /// them). The caller checks the failures are links and nodes of `base` (parse_spec does).
  static Topology degraded(const Topology& base, const std::vector<std::pair<NodeId, NodeId>>& failed_links,
                           const std::vector<NodeId>& failed_nodes, std::string spec);

  [[nodiscard]] const std::string& spec() const { return spec_; }
  [[nodiscard]] int nodes() const { return static_cast<int>(offset_.size()) - 1; }
  [[nodiscard]] int links() const { return static_cast<int>(adjacency_.size()); }
  [[nodiscard]] int degree(NodeId v) const { return offset_[idx(v) + 1] - offset_[idx(v)]; }
  [[nodiscard]] int max_degree() const;
  [[nodiscard]] NodeId neighbor(NodeId v, Port p) const { return adjacency_[idx(link_id(v, p))]; }
  [[nodiscard]] LinkId link_id(NodeId v, Port p) const { return offset_[idx(v)] + p; }
  [[nodiscard]] NodeId link_source(LinkId l) const;
  [[nodiscard]] NodeId link_target(LinkId l) const { return adjacency_[idx(l)]; }
  /// The port of `from` whose link ends at `to`, if they are adjacent.
  [[nodiscard]] std::optional<Port> port_to(NodeId from, NodeId to) const;
  /// Human name of a port, e.g. "d1+" (torus), "d0:2" (complete graph), "cube1", "cross0".
  [[nodiscard]] std::string port_name(NodeId v, Port p) const;

  /// A cartesian product (false for a degraded product: see base()).
  [[nodiscard]] bool is_product() const { return !factors_.empty(); }
  /// Some link has no link back (one_way_graph).
  [[nodiscard]] bool is_one_way() const { return one_way_; }
  /// Throws a UsageError naming `what` when the network has one-way links: everything but the
  /// traffic bounds, the list scheduler and the verifier assumes links both ways.
  void require_two_way(const std::string& what) const;
  [[nodiscard]] const std::vector<Factor>& factors() const { return factors_; }
  [[nodiscard]] std::vector<int> coordinates(NodeId v) const;
  [[nodiscard]] NodeId node_at(const std::vector<int>& coords) const;
  [[nodiscard]] bool is_metacube() const { return metacube_k_ >= 0; }
  [[nodiscard]] int metacube_k() const { return metacube_k_; }
  [[nodiscard]] int metacube_m() const { return metacube_m_; }
  /// Every node looks the same: products of rings and complete graphs (Cayley graphs), paths of
  /// two nodes, and MC(0,m) (a hypercube). Longer paths and other metacubes are treated as not;
  /// a partially populated network is not (its processors are a subset).
  [[nodiscard]] bool is_vertex_transitive() const;
  /// Degraded networks: the network the failures were cut from (its spec, factors and
  /// coordinates still number the nodes); nullptr otherwise.
  [[nodiscard]] const Topology* base() const { return base_.get(); }
  [[nodiscard]] bool is_degraded() const { return base_ != nullptr; }
  /// The failed links (a < b) and nodes, increasing; empty unless degraded.
  [[nodiscard]] const std::vector<std::pair<NodeId, NodeId>>& failed_links() const { return failed_links_; }
  [[nodiscard]] const std::vector<NodeId>& failed_nodes() const { return failed_nodes_; }

  /// Partially populated networks (paper 004): only the processors send and receive; the other
  /// nodes are routers that only forward. Unplaced topologies have a processor at every node.
  /// `procs` must be increasing, distinct node ids; the spec becomes `spec` (e.g. torus:8x8@linear).
  void set_processors(std::vector<NodeId> procs, std::string spec);
  [[nodiscard]] bool is_partial() const { return static_cast<int>(processors_.size()) != nodes(); }
  [[nodiscard]] bool is_processor(NodeId v) const { return is_processor_[idx(v)]; }
  /// The processors in increasing node id (every node when not partial).
  [[nodiscard]] const std::vector<NodeId>& processors() const { return processors_; }
  [[nodiscard]] int processor_count() const { return static_cast<int>(processors_.size()); }

 private:
  static std::size_t idx(int i) { return static_cast<std::size_t>(i); }
  std::string spec_;
  std::vector<Factor> factors_;
  int metacube_k_ = -1;
  int metacube_m_ = -1;
  std::vector<int> offset_;        // node v's links are [offset_[v], offset_[v+1])
  std::vector<NodeId> adjacency_;  // link id -> target node
  std::vector<NodeId> processors_;
  std::vector<bool> is_processor_;
  // Degraded networks: the base network, and each directed link's port in it (for port names).
  std::shared_ptr<const Topology> base_;
  std::vector<Port> base_port_;
  std::vector<std::pair<NodeId, NodeId>> failed_links_;
  std::vector<NodeId> failed_nodes_;
  bool general_graph_ = false;  // Topology::graph: ports named after their neighbour
  bool one_way_ = false;        // Topology::one_way_graph with a link that has no link back
  void populate_all();  // every node a processor
};

/// The graph of one factor on its own (used for per-dimension status).
[[nodiscard]] Topology factor_graph(const Factor& f);

}  // namespace totex
