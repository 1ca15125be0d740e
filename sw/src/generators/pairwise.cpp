// SPDX-License-Identifier: Apache-2.0
// The baseline generators: correct, simple, not optimal.
#include <algorithm>
#include <cstdint>

#include "totex/error.hpp"
#include "totex/generators/generators.hpp"
#include "flexible_packing.hpp"
#include "path_packing.hpp"

namespace totex {
namespace {

/// Largest direct network the pairwise generator accepts (it holds N^2 shortest paths).
constexpr int kMaxScheduleNodes = 4096;
/// Outside the families, pairwise places the farthest messages first, each at its earliest fit, up
/// to this many processors (torus:32x32~fail:0-1 nic: 34 s, 4543 steps against a bound of 4162);
/// above, in pairwise's rounds (the search from each source's last start: far fewer windows).
constexpr std::size_t kLongestFirstNodes = 1024;

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
    if (n <= kLongestFirstNodes) {  // every message at its earliest fit, the farthest first
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
    } else {  // pairwise's rounds, each source's messages in order: a search from where the last one went
      std::vector<std::size_t> earliest(n, 0);
      for (std::size_t round = 1; round < n; ++round)
        for (std::size_t i = 0; i < n; ++i) {
          const Message msg{procs[i], procs[(i + round) % n]};
          auto [start, hops] = flexible.earliest(msg, earliest[i]);
          flexible.place(msg, hops, start, packer);
          earliest[i] = start;
        }
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
          const int have = slot.state[static_cast<std::size_t>(net.switch_of(h))];
          fits = fits && (have < 0 || have == net.state_of(h));
        }
        if (!fits) continue;
        for (const auto& h : hops) slot.state[static_cast<std::size_t>(net.switch_of(h))] = net.state_of(h);
        slot.in_used[static_cast<std::size_t>(src)] = true;
        slot.out_used[static_cast<std::size_t>(dst)] = true;
        earliest[static_cast<std::size_t>(src)] = c + 1;
        break;
      }
    }
  }
  MinSchedule s{net.spec(), "pairwise", {}, {}, {}, {}};
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
