// SPDX-License-Identifier: Apache-2.0
#include "totex/network/distance.hpp"

#include <algorithm>
#include <stdexcept>

namespace totex {

std::vector<int> bfs_distances(const Topology& t, NodeId source) {
  std::vector<int> dist(static_cast<std::size_t>(t.nodes()), -1);
  std::vector<NodeId> queue{source};
  dist[static_cast<std::size_t>(source)] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const NodeId v = queue[head];
    for (Port p = 0; p < t.degree(v); ++p) {
      const NodeId w = t.neighbor(v, p);
      if (dist[static_cast<std::size_t>(w)] < 0) {
        dist[static_cast<std::size_t>(w)] = dist[static_cast<std::size_t>(v)] + 1;
        queue.push_back(w);
      }
    }
  }
  return dist;
}

int farthest_from(const Topology& t, const std::vector<NodeId>& sources, const std::vector<NodeId>& targets) {
  int far = 0;
  for (NodeId s : sources) {
    const std::vector<int> d = bfs_distances(t, s);
    if (targets.empty()) far = std::max(far, *std::max_element(d.begin(), d.end()));
    for (NodeId v : targets) far = std::max(far, d[static_cast<std::size_t>(v)]);
  }
  return far;
}

std::int64_t status_bfs(const Topology& t, NodeId v) {
  std::int64_t s = 0;
  for (int d : bfs_distances(t, v)) s += d;
  return s;
}

std::int64_t total_status_bfs(const Topology& t) {
  std::int64_t s = 0;
  for (NodeId v = 0; v < t.nodes(); ++v) s += status_bfs(t, v);
  return s;
}

std::int64_t factor_status(const Factor& f, int x) {
  const std::int64_t k = f.size;
  switch (f.kind) {
    case FactorKind::Ring: return (k / 2) * ((k + 1) / 2);  // floor(k^2/4), same for every node
    case FactorKind::Complete: return k - 1;
    case FactorKind::Path: {
      const std::int64_t left = x, right = k - 1 - x;
      return left * (left + 1) / 2 + right * (right + 1) / 2;
    }
  }
  return 0;
}

std::int64_t status_product(const Topology& t, NodeId v) {
  if (!t.is_product()) throw std::logic_error("status_product needs a product topology");
  const std::vector<int> c = t.coordinates(v);
  std::int64_t s = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    const Factor& f = t.factors()[i];
    s += static_cast<std::int64_t>(t.nodes() / f.size) * factor_status(f, c[i]);  // Theorem 1
  }
  return s;
}

std::int64_t total_status_product(const Topology& t) {
  if (!t.is_product()) throw std::logic_error("total_status_product needs a product topology");
  // Corollary 1: AS(G) = n * sum_i AS(G_i)/|V_i|, so S_G = n * AS(G) = n^2 * sum_i S_i/|V_i|^2.
  const std::int64_t n = t.nodes();
  std::int64_t s = 0;
  for (const Factor& f : t.factors()) {
    std::int64_t s_i = 0;
    for (int x = 0; x < f.size; ++x) s_i += factor_status(f, x);
    s += (n / f.size) * (n / f.size) * s_i;
  }
  return s;
}

std::int64_t total_status(const Topology& t) {
  return t.is_product() ? total_status_product(t) : total_status_bfs(t);
}

std::int64_t processor_status(const Topology& t) {
  if (!t.is_partial()) return total_status(t);
  std::int64_t s = 0;
  for (NodeId p : t.processors()) {
    const std::vector<int> dist = bfs_distances(t, p);
    for (NodeId q : t.processors()) s += dist[static_cast<std::size_t>(q)];
  }
  return s;
}

}  // namespace totex
