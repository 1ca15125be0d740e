// SPDX-License-Identifier: Apache-2.0
#include "totex/network/topology.hpp"

#include <algorithm>

#include "totex/error.hpp"

namespace totex {
namespace {

/// Neighbour coordinates of x in one factor, in port order.
std::vector<int> factor_neighbors(const Factor& f, int x) {
  std::vector<int> out;
  const int k = f.size;
  switch (f.kind) {
    case FactorKind::Ring:
      if (k == 2) {
        out.push_back(1 - x);
      } else {
        out.push_back((x + 1) % k);
        out.push_back((x + k - 1) % k);
      }
      break;
    case FactorKind::Path:
      if (x + 1 < k) out.push_back(x + 1);
      if (x > 0) out.push_back(x - 1);
      break;
    case FactorKind::Complete:
      for (int j = 1; j < k; ++j) out.push_back((x + j) % k);
      break;
  }
  return out;
}

/// Every processor reaches every other (links are symmetric: one search); otherwise a UsageError
/// naming two that cannot.
void check_connected(const Topology& t) {
  const std::vector<NodeId>& procs = t.processors();
  std::vector<bool> seen(static_cast<std::size_t>(t.nodes()), false);
  std::vector<NodeId> queue{procs.front()};
  seen[static_cast<std::size_t>(queue.front())] = true;
  for (std::size_t head = 0; head < queue.size(); ++head)
    for (Port p = 0; p < t.degree(queue[head]); ++p) {
      const NodeId w = t.neighbor(queue[head], p);
      if (!seen[static_cast<std::size_t>(w)]) {
        seen[static_cast<std::size_t>(w)] = true;
        queue.push_back(w);
      }
    }
  for (NodeId v : procs)
    if (!seen[static_cast<std::size_t>(v)])
      throw UsageError(t.spec() + " is partitioned: node " + std::to_string(procs.front()) + " cannot reach node " +
                       std::to_string(v) + " (an exchange needs every processor to reach every other)");
}

/// A general graph's node count must lie in min_nodes..kMaxNodes.
void check_node_count(const std::string& spec, int nodes, int min_nodes) {
  if (nodes < min_nodes || nodes > kMaxNodes)
    throw UsageError(spec + ": " + std::to_string(nodes) + " nodes is out of range " + std::to_string(min_nodes) + ".." +
                     std::to_string(kMaxNodes));
}

/// A general graph's link a-b (`joint` "-": undirected, " -> ": one way) joins two distinct nodes
/// of 0..nodes-1.
void check_link_ends(const std::string& spec, int nodes, NodeId a, NodeId b, const char* joint) {
  const std::string link = "link " + std::to_string(a) + joint + std::to_string(b);
  if (a < 0 || a >= nodes || b < 0 || b >= nodes)
    throw UsageError(spec + ": " + link + " names a node out of range 0.." + std::to_string(nodes - 1));
  if (a == b) throw UsageError(spec + ": " + link + " is a self-loop");
}

}  // namespace

std::string to_string(const Factor& f) {
  switch (f.kind) {
    case FactorKind::Ring: return "ring:" + std::to_string(f.size);
    case FactorKind::Path: return "path:" + std::to_string(f.size);
    case FactorKind::Complete: return "complete:" + std::to_string(f.size);
  }
  return "?";
}

Topology Topology::product(std::vector<Factor> factors, std::string spec) {
  if (factors.empty()) throw UsageError("a product needs at least one factor");
  std::int64_t n = 1;
  for (const Factor& f : factors) {
    if (f.size < 2) throw UsageError("factor " + to_string(f) + " needs size >= 2");
    n *= f.size;
    if (n > kMaxNodes)
      throw UsageError(spec + " has more than " + std::to_string(kMaxNodes) + " nodes");
  }
  Topology t;
  t.spec_ = std::move(spec);
  t.factors_ = std::move(factors);
  const int nodes = static_cast<int>(n);
  // Node id v = sum c[d] * stride[d]: a neighbour differs in one coordinate, so its id is
  // v + (y - c[d]) * stride[d]. Coordinates are kept incrementally (an odometer) and the links
  // written into a table sized up front: no allocation per node or per link (ghc:3276, 10.7 M
  // links, took seconds with a coordinate vector per link).
  const std::size_t dims = t.factors_.size();
  std::vector<std::int64_t> stride(dims, 1);
  std::int64_t per_node_max = 0;
  for (std::size_t d = 0; d < dims; ++d) {
    if (d > 0) stride[d] = stride[d - 1] * t.factors_[d - 1].size;
    const Factor& f = t.factors_[d];
    per_node_max += f.kind == FactorKind::Complete ? f.size - 1 : f.size == 2 ? 1 : 2;
  }
  t.offset_.assign(idx(nodes) + 1, 0);
  t.adjacency_.resize(static_cast<std::size_t>(per_node_max) * idx(nodes));
  NodeId* out = t.adjacency_.data();
  std::size_t used = 0;
  std::vector<int> c(dims, 0);
  for (NodeId v = 0; v < nodes; ++v) {
    t.offset_[idx(v)] = static_cast<int>(used);
    for (std::size_t d = 0; d < dims; ++d) {
      const Factor& f = t.factors_[d];
      const int k = f.size, x = c[d];
      const NodeId base = static_cast<NodeId>(v - x * stride[d]);
      const NodeId step = static_cast<NodeId>(stride[d]);
      const auto at = [&](int y) { out[used++] = base + y * step; };
      switch (f.kind) {  // port order as factor_neighbors
        case FactorKind::Ring:
          if (k == 2) {
            at(1 - x);
          } else {
            at((x + 1) % k);
            at((x + k - 1) % k);
          }
          break;
        case FactorKind::Path:
          if (x + 1 < k) at(x + 1);
          if (x > 0) at(x - 1);
          break;
        case FactorKind::Complete:
          for (int y = x + 1; y < k; ++y) at(y);
          for (int y = 0; y < x; ++y) at(y);
          break;
      }
    }
    for (std::size_t d = 0; d < dims && ++c[d] == t.factors_[d].size; ++d) c[d] = 0;
  }
  t.adjacency_.resize(used);  // paths: end nodes have fewer neighbours than per_node_max
  t.offset_[idx(nodes)] = static_cast<int>(used);
  t.populate_all();
  return t;
}

Topology Topology::metacube(int k, int m, std::string spec) {
  if (k < 0 || m < 1) throw UsageError("metacube:K,M needs K >= 0 and M >= 1");
  const int bits = m * (1 << std::min(k, 5)) + k;
  if (k > 4 || bits > 16)
    throw UsageError(spec + " has 2^" + std::to_string(bits) + " nodes; at most " +
                     std::to_string(kMaxNodes) + " are supported");
  Topology t;
  t.spec_ = std::move(spec);
  t.metacube_k_ = k;
  t.metacube_m_ = m;
  const int nodes = 1 << bits;
  const int class_shift = m << k;
  t.offset_.assign(idx(nodes) + 1, 0);
  for (NodeId v = 0; v < nodes; ++v) {
    t.offset_[idx(v)] = static_cast<int>(t.adjacency_.size());
    const int cls = v >> class_shift;
    for (int b = 0; b < m; ++b) t.adjacency_.push_back(v ^ (1 << (cls * m + b)));
    for (int b = 0; b < k; ++b) t.adjacency_.push_back(v ^ (1 << (class_shift + b)));
  }
  t.offset_[idx(nodes)] = static_cast<int>(t.adjacency_.size());
  t.populate_all();
  return t;
}

Topology Topology::graph(int nodes, const std::vector<std::pair<NodeId, NodeId>>& links, std::string spec) {
  check_node_count(spec, nodes, 1);
  Topology t;
  t.spec_ = std::move(spec);
  t.general_graph_ = true;
  t.offset_.assign(idx(nodes) + 1, 0);
  for (const auto& [a, b] : links) {
    check_link_ends(t.spec_, nodes, a, b, "-");
    ++t.offset_[idx(a) + 1];
    ++t.offset_[idx(b) + 1];
  }
  for (std::size_t v = 0; v < idx(nodes); ++v) t.offset_[v + 1] += t.offset_[v];
  t.adjacency_.resize(idx(t.offset_[idx(nodes)]));
  std::vector<int> fill(t.offset_.begin(), t.offset_.end() - 1);
  for (const auto& [a, b] : links) {
    t.adjacency_[idx(fill[idx(a)]++)] = b;
    t.adjacency_[idx(fill[idx(b)]++)] = a;
  }
  for (NodeId v = 0; v < nodes; ++v) {  // ports in increasing neighbour id; a neighbour twice is a duplicate link
    const auto begin = t.adjacency_.begin() + t.offset_[idx(v)], end = t.adjacency_.begin() + t.offset_[idx(v) + 1];
    std::sort(begin, end);
    if (const auto dup = std::adjacent_find(begin, end); dup != end)
      throw UsageError(t.spec_ + ": link " + std::to_string(std::min(v, *dup)) + "-" + std::to_string(std::max(v, *dup)) +
                       " is given twice");
  }
  t.populate_all();
  check_connected(t);
  return t;
}

Topology Topology::one_way_graph(int nodes, const std::vector<std::pair<NodeId, NodeId>>& links, std::string spec) {
  check_node_count(spec, nodes, 2);
  Topology t;
  t.spec_ = std::move(spec);
  t.general_graph_ = true;
  std::vector<std::pair<NodeId, NodeId>> arcs = links;
  for (const auto& [a, b] : arcs) check_link_ends(t.spec_, nodes, a, b, " -> ");
  std::sort(arcs.begin(), arcs.end());  // by source, then target: the ports in increasing neighbour id
  if (const auto dup = std::adjacent_find(arcs.begin(), arcs.end()); dup != arcs.end())
    throw UsageError(t.spec_ + ": link " + std::to_string(dup->first) + " -> " + std::to_string(dup->second) + " is given twice");
  t.offset_.assign(idx(nodes) + 1, 0);
  for (const auto& [a, b] : arcs) {
    ++t.offset_[idx(a) + 1];
    t.adjacency_.push_back(b);
    t.one_way_ = t.one_way_ || !std::binary_search(arcs.begin(), arcs.end(), std::make_pair(b, a));
  }
  for (std::size_t v = 0; v < idx(nodes); ++v) t.offset_[v + 1] += t.offset_[v];
  t.populate_all();
  return t;
}

void Topology::require_two_way(const std::string& what) const {
  if (one_way_)
    throw UsageError(spec_ + " has one-way links, and " + what +
                     " assume links both ways (one-way links take any --traffic, all as all:1: its bounds, the list, route-sat "
                     "and periodic exact generators, verify, sim --engine ref)");
}

Topology Topology::degraded(const Topology& base, const std::vector<std::pair<NodeId, NodeId>>& failed_links,
                            const std::vector<NodeId>& failed_nodes, std::string spec) {
  base.require_two_way("failures (~fail:, --fail)");
  Topology t;
  t.spec_ = std::move(spec);
  t.base_ = std::make_shared<const Topology>(base);
  t.failed_links_ = failed_links;
  for (auto& [a, b] : t.failed_links_)
    if (a > b) std::swap(a, b);
  std::sort(t.failed_links_.begin(), t.failed_links_.end());
  t.failed_nodes_ = failed_nodes;
  std::sort(t.failed_nodes_.begin(), t.failed_nodes_.end());
  const int n = base.nodes();
  std::vector<bool> dead(idx(n), false);
  for (NodeId v : t.failed_nodes_) dead[idx(v)] = true;
  const auto link_failed = [&](NodeId a, NodeId b) {
    return std::binary_search(t.failed_links_.begin(), t.failed_links_.end(), std::make_pair(std::min(a, b), std::max(a, b)));
  };
  t.offset_.assign(idx(n) + 1, 0);
  t.adjacency_.reserve(idx(base.links()));
  t.base_port_.reserve(idx(base.links()));
  for (NodeId v = 0; v < n; ++v) {
    t.offset_[idx(v)] = static_cast<int>(t.adjacency_.size());
    if (dead[idx(v)]) continue;
    for (Port p = 0; p < base.degree(v); ++p) {
      const NodeId w = base.neighbor(v, p);
      if (dead[idx(w)] || link_failed(v, w)) continue;
      t.adjacency_.push_back(w);
      t.base_port_.push_back(p);
    }
  }
  t.offset_[idx(n)] = static_cast<int>(t.adjacency_.size());
  std::vector<NodeId> procs;
  for (NodeId v : base.processors())
    if (!dead[idx(v)]) procs.push_back(v);
  if (procs.size() < 2)
    throw UsageError(t.spec_ + ": " + (procs.empty() ? std::string("no processor survives") : "only node " + std::to_string(procs[0]) +
                                                                                                  " survives as a processor") +
                     "; an exchange needs two");
  t.processors_ = std::move(procs);
  t.is_processor_.assign(idx(n), false);
  for (NodeId v : t.processors_) t.is_processor_[idx(v)] = true;
  check_connected(t);
  return t;
}

void Topology::populate_all() {
  processors_.resize(idx(nodes()));
  for (NodeId v = 0; v < nodes(); ++v) processors_[idx(v)] = v;
  is_processor_.assign(idx(nodes()), true);
}

void Topology::set_processors(std::vector<NodeId> procs, std::string spec) {
  if (procs.empty()) throw UsageError(spec + " has no processor");
  is_processor_.assign(idx(nodes()), false);
  for (std::size_t i = 0; i < procs.size(); ++i) {
    if (procs[i] < 0 || procs[i] >= nodes() || (i > 0 && procs[i] <= procs[i - 1]))
      throw UsageError(spec + ": processors must be distinct node ids in increasing order");
    is_processor_[idx(procs[i])] = true;
  }
  processors_ = std::move(procs);
  spec_ = std::move(spec);
}

bool Topology::is_vertex_transitive() const {
  if (is_partial() || (!is_product() && !is_metacube())) return false;  // degraded networks and graphs: not claimed
  if (is_metacube()) return metacube_k_ == 0;
  return std::all_of(factors_.begin(), factors_.end(),
                     [](const Factor& f) { return f.kind != FactorKind::Path || f.size == 2; });
}

int Topology::max_degree() const {
  int best = 0;
  for (NodeId v = 0; v < nodes(); ++v) best = std::max(best, degree(v));
  return best;
}

NodeId Topology::link_source(LinkId l) const {
  const auto it = std::upper_bound(offset_.begin(), offset_.end(), l);
  return static_cast<NodeId>(it - offset_.begin()) - 1;
}

std::optional<Port> Topology::port_to(NodeId from, NodeId to) const {
  if (from < 0 || from >= nodes()) return std::nullopt;
  for (Port p = 0; p < degree(from); ++p)
    if (neighbor(from, p) == to) return p;
  return std::nullopt;
}

std::string Topology::port_name(NodeId v, Port p) const {
  if (base_) return base_->port_name(v, base_port_[idx(link_id(v, p))]);
  if (general_graph_) return "to" + std::to_string(neighbor(v, p));
  if (is_metacube()) {
    return p < metacube_m_ ? "cube" + std::to_string(p) : "cross" + std::to_string(p - metacube_m_);
  }
  const std::vector<int> c = coordinates(v);
  Port base = 0;
  for (std::size_t d = 0; d < factors_.size(); ++d) {
    const std::vector<int> nb = factor_neighbors(factors_[d], c[d]);
    const Port width = static_cast<Port>(nb.size());
    if (p < base + width) {
      const int y = nb[idx(p - base)];
      const std::string dim = "d" + std::to_string(d);
      if (factors_[d].kind == FactorKind::Complete || factors_[d].size == 2)
        return dim + ":" + std::to_string(y);
      const bool plus = factors_[d].kind == FactorKind::Ring ? y == (c[d] + 1) % factors_[d].size
                                                            : y == c[d] + 1;
      return dim + (plus ? "+" : "-");
    }
    base += width;
  }
  return "p" + std::to_string(p);
}

std::vector<int> Topology::coordinates(NodeId v) const {
  std::vector<int> c(factors_.size());
  for (std::size_t d = 0; d < factors_.size(); ++d) {
    c[d] = v % factors_[d].size;
    v /= factors_[d].size;
  }
  return c;
}

NodeId Topology::node_at(const std::vector<int>& coords) const {
  NodeId v = 0;
  for (std::size_t d = factors_.size(); d-- > 0;) v = v * factors_[d].size + coords[d];
  return v;
}

Topology factor_graph(const Factor& f) { return Topology::product({f}, to_string(f)); }

}  // namespace totex
