// SPDX-License-Identifier: Apache-2.0
// The baseline generators: correct, simple, not optimal.
#include <algorithm>
#include <cstdint>

#include "totex/error.hpp"
#include "totex/generators/generators.hpp"
#include "path_packing.hpp"

namespace totex {
namespace {

/// Largest direct network the pairwise generator accepts (it holds N^2 shortest paths).
constexpr int kMaxScheduleNodes = 4096;

/// Shortest-path trees, one per source: the node and port each node is reached from.
class ShortestPaths {
 public:
  explicit ShortestPaths(const Topology& t) : n_(static_cast<std::size_t>(t.nodes())), from_(n_ * n_), port_(n_ * n_) {
    std::vector<NodeId> queue;
    std::vector<bool> seen(n_);
    for (std::size_t s = 0; s < n_; ++s) {
      std::fill(seen.begin(), seen.end(), false);
      queue.assign(1, static_cast<NodeId>(s));
      seen[s] = true;
      for (std::size_t head = 0; head < queue.size(); ++head) {
        const NodeId v = queue[head];
        for (Port p = 0; p < t.degree(v); ++p) {
          const NodeId w = t.neighbor(v, p);
          if (seen[static_cast<std::size_t>(w)]) continue;
          seen[static_cast<std::size_t>(w)] = true;
          from_[s * n_ + static_cast<std::size_t>(w)] = static_cast<std::uint16_t>(v);
          port_[s * n_ + static_cast<std::size_t>(w)] = static_cast<std::uint16_t>(p);
          queue.push_back(w);
        }
      }
    }
  }
  /// Hops (node, port) from s to d, in order.
  [[nodiscard]] std::vector<std::pair<NodeId, Port>> path(NodeId s, NodeId d) const {
    std::vector<std::pair<NodeId, Port>> hops;
    for (NodeId v = d; v != s;) {
      const std::size_t i = static_cast<std::size_t>(s) * n_ + static_cast<std::size_t>(v);
      hops.emplace_back(from_[i], port_[i]);
      v = from_[i];
    }
    std::reverse(hops.begin(), hops.end());
    return hops;
  }

 private:
  std::size_t n_;
  std::vector<std::uint16_t> from_;
  std::vector<std::uint16_t> port_;
};

/// Pairwise on a network outside the families (graph:FILE, a degraded network), where no routing
/// is canonical and the first BFS tree's path crowds the links around a failure: each message
/// takes, among all its shortest paths, one that fits earliest (a search layer by layer through
/// the shortest-path DAG for each candidate start, hops on consecutive steps as PathPacker's).
class FlexiblePacker {
 public:
  FlexiblePacker(const Topology& t, Model m) : t_(t), m_(m), n_(static_cast<std::size_t>(t.nodes())), dist_(n_ * n_, kFar) {
    std::vector<NodeId> queue;
    for (std::size_t s = 0; s < n_; ++s) {
      std::uint16_t* d = &dist_[s * n_];
      queue.assign(1, static_cast<NodeId>(s));
      d[s] = 0;
      for (std::size_t head = 0; head < queue.size(); ++head)
        for (Port p = 0; p < t.degree(queue[head]); ++p) {
          const auto w = static_cast<std::size_t>(t.neighbor(queue[head], p));
          if (d[w] != kFar) continue;
          d[w] = static_cast<std::uint16_t>(d[static_cast<std::size_t>(queue[head])] + 1);
          queue.push_back(static_cast<NodeId>(w));
        }
    }
  }
  [[nodiscard]] int distance(const Message& msg) const { return d(msg.src, msg.dst); }
  /// The earliest start >= from and the hops of a shortest path that fits there.
  std::pair<std::size_t, Hops> earliest(const Message& msg, std::size_t from) {
    for (std::size_t start = from;; ++start)
      if (Hops hops = fit(msg, start); !hops.empty()) return {start, std::move(hops)};
  }
  void place(const Message& msg, const Hops& hops, std::size_t start, PathPacker& out) {
    for (std::size_t h = 0; h < hops.size(); ++h) {
      Step& step = at(start + h);
      const auto [v, p] = hops[h];
      step.link[static_cast<std::size_t>(t_.link_id(v, p))] = true;
      step.send[static_cast<std::size_t>(v)] = true;
      step.recv[static_cast<std::size_t>(t_.neighbor(v, p))] = true;
      if (h == 0) step.inject[static_cast<std::size_t>(msg.src)] = true;
      if (h + 1 == hops.size()) step.eject[static_cast<std::size_t>(msg.dst)] = true;
    }
    out.place(msg, hops, start);
  }

 private:
  static constexpr std::uint16_t kFar = 0xffff;
  struct Step {
    std::vector<bool> link, send, recv, inject, eject;
  };
  Step& at(std::size_t step) {
    while (steps_.size() <= step)
      steps_.push_back({std::vector<bool>(static_cast<std::size_t>(t_.links())), std::vector<bool>(n_), std::vector<bool>(n_),
                        std::vector<bool>(n_), std::vector<bool>(n_)});
    return steps_[step];
  }
  [[nodiscard]] std::uint16_t d(NodeId a, NodeId b) const {
    return dist_[static_cast<std::size_t>(a) * n_ + static_cast<std::size_t>(b)];
  }
  /// A shortest path whose hop h fits step start + h, or none.
  Hops fit(const Message& msg, std::size_t start) {
    const int hops = d(msg.src, msg.dst);
    if (m_ == Model::Nic && (at(start).inject[static_cast<std::size_t>(msg.src)] ||
                             at(start + static_cast<std::size_t>(hops) - 1).eject[static_cast<std::size_t>(msg.dst)]))
      return {};
    layer_.assign(1, msg.src);
    parent_.clear();  // (node reached, (from, port))
    for (int h = 0; h < hops && !layer_.empty(); ++h) {
      Step& step = at(start + static_cast<std::size_t>(h));
      next_.clear();
      for (NodeId u : layer_) {
        if (m_ == Model::SinglePort && step.send[static_cast<std::size_t>(u)]) continue;
        for (Port p = 0; p < t_.degree(u); ++p) {
          const NodeId w = t_.neighbor(u, p);
          if (d(msg.src, w) != h + 1 || d(w, msg.dst) != hops - h - 1) continue;  // off the shortest-path DAG
          if (std::find(next_.begin(), next_.end(), w) != next_.end()) continue;
          if (step.link[static_cast<std::size_t>(t_.link_id(u, p))]) continue;
          if (m_ == Model::SinglePort && step.recv[static_cast<std::size_t>(w)]) continue;
          next_.push_back(w);
          parent_.push_back({w, {u, p}});
        }
      }
      layer_.swap(next_);
    }
    if (layer_.empty()) return {};
    Hops path;
    for (NodeId v = msg.dst; v != msg.src;) {
      auto it = std::find_if(parent_.rbegin(), parent_.rend(), [v](const auto& e) { return e.first == v; });
      path.push_back(it->second);
      v = it->second.first;
    }
    std::reverse(path.begin(), path.end());
    return path;
  }
  const Topology& t_;
  Model m_;
  std::size_t n_;
  std::vector<std::uint16_t> dist_;
  std::vector<Step> steps_;
  std::vector<NodeId> layer_, next_;
  std::vector<std::pair<NodeId, std::pair<NodeId, Port>>> parent_;
};

}  // namespace

Schedule pairwise_schedule(const Topology& t, Model m) {
  if (t.nodes() > kMaxScheduleNodes)
    throw UsageError("pairwise scheduling supports at most " + std::to_string(kMaxScheduleNodes) + " nodes; " +
                     t.spec() + " has " + std::to_string(t.nodes()));
  if (!t.is_product() && !t.is_metacube()) {  // graph:FILE and degraded networks: any shortest path
    const std::vector<NodeId>& procs = t.processors();
    const auto n = procs.size();
    FlexiblePacker flexible(t, m);
    PathPacker packer(t, m, "pairwise");
    std::vector<std::pair<int, Message>> order;
    for (std::size_t round = 1; round < n; ++round)
      for (std::size_t i = 0; i < n; ++i) {
        const Message msg{procs[i], procs[(i + round) % n]};
        order.push_back({-flexible.distance(msg), msg});
      }
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [neg, msg] : order) {
      auto [start, hops] = flexible.earliest(msg, 0);
      flexible.place(msg, hops, start, packer);
    }
    return packer.take();
  }
  // Rounds over the processors (every node unless partially populated); empty nodes only relay.
  const std::vector<NodeId>& procs = t.processors();
  const auto n = procs.size();
  const ShortestPaths paths(t);
  PathPacker packer(t, m, "pairwise");
  std::vector<std::size_t> earliest(n, 0);  // keeps each source's pairwise order
  for (std::size_t round = 1; round < n; ++round) {
    for (std::size_t i = 0; i < n; ++i) {
      const Message msg{procs[i], procs[(i + round) % n]};
      const auto hops = paths.path(msg.src, msg.dst);
      const std::size_t start = packer.earliest(msg, hops, earliest[i]);
      packer.place(msg, hops, start);
      earliest[i] = start;
    }
  }
  return packer.take();
}

MinSchedule pairwise_schedule(const MinNetwork& net) {
  const int n = net.terminals();
  if (n > 1024) throw UsageError("pairwise MIN scheduling supports at most 1024 terminals");
  const auto sw = static_cast<std::size_t>(net.switches());
  struct Slot {
    std::vector<int> state;
    std::vector<bool> in_used, out_used;
  };
  std::vector<Slot> slots;
  std::vector<std::size_t> earliest(static_cast<std::size_t>(n), 0);
  for (int round = 0; round < n; ++round) {  // round 0 is the self slot
    for (int src = 0; src < n; ++src) {
      const int dst = (src + round) % n;
      const auto hops = net.path(src, dst);
      for (std::size_t c = earliest[static_cast<std::size_t>(src)];; ++c) {
        if (c == slots.size())
          slots.push_back({std::vector<int>(sw, -1), std::vector<bool>(static_cast<std::size_t>(n)),
                           std::vector<bool>(static_cast<std::size_t>(n))});
        Slot& slot = slots[c];
        if (slot.in_used[static_cast<std::size_t>(src)] || slot.out_used[static_cast<std::size_t>(dst)]) continue;
        bool fits = true;
        for (const auto& h : hops) {
          const int want = ((h.out_port - h.in_port) % net.radix() + net.radix()) % net.radix();
          const int have = slot.state[static_cast<std::size_t>(h.stage * net.switches_per_stage() + h.sw)];
          fits = fits && (have < 0 || have == want);
        }
        if (!fits) continue;
        for (const auto& h : hops) {
          const int want = ((h.out_port - h.in_port) % net.radix() + net.radix()) % net.radix();
          slot.state[static_cast<std::size_t>(h.stage * net.switches_per_stage() + h.sw)] = want;
        }
        slot.in_used[static_cast<std::size_t>(src)] = true;
        slot.out_used[static_cast<std::size_t>(dst)] = true;
        earliest[static_cast<std::size_t>(src)] = c + 1;
        break;
      }
    }
  }
  MinSchedule s{net.spec(), "pairwise", {}, {}, {}};
  for (const Slot& slot : slots) {
    MinConfiguration c(sw);
    for (std::size_t i = 0; i < sw; ++i) c[i] = static_cast<std::uint8_t>(std::max(slot.state[i], 0));
    s.configurations.push_back(std::move(c));
    std::vector<int> idle;
    for (int t = 0; t < n; ++t)
      if (!slot.in_used[static_cast<std::size_t>(t)]) idle.push_back(t);
    s.idle.push_back(std::move(idle));
  }
  return s;
}

}  // namespace totex
