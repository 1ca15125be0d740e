// SPDX-License-Identifier: Apache-2.0
/// Shortest-path list scheduling on any graph (docs/networks.md, "Schedules"): FlexiblePacker
/// places a message on whichever of its shortest paths fits earliest.
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "path_packing.hpp"
#include "totex/network/topology.hpp"
#include "totex/schedule.hpp"

namespace totex {

/// List scheduling on a network outside the families (graph:FILE, a degraded network), where no
/// routing is canonical and the first BFS tree's path crowds the links around a failure: each
/// message takes, among all its shortest paths, one that fits earliest, hops on consecutive steps
/// as PathPacker's (used by pairwise and by the repair of a degraded network's base schedule). The search runs through the shortest-path DAG for 64 candidate starts at once:
/// reach[v] bit i says some path from the source reaches v, hop h in step s0 + i + h, every hop
/// free; the busy steps of every link and node are bit sets.
class FlexiblePacker {
 public:
  FlexiblePacker(const Topology& t, Model m)
      : t_(t), m_(m), n_(static_cast<std::size_t>(t.nodes())), dist_(n_ * n_, kFar), link_busy_(static_cast<std::size_t>(t.links())),
        inject_busy_(n_), eject_busy_(n_), send_busy_(n_), recv_busy_(n_), link_free_(static_cast<std::size_t>(t.links()), 0),
        inject_free_(n_, 0), reach_(n_, 0), stamp_(n_, 0) {
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
    const auto hops = static_cast<std::size_t>(d(msg.src, msg.dst));
    // No start before the first step where one of its first hops (and its NIC) is free.
    std::size_t first = ~std::size_t{0};
    for (Port p = 0; p < t_.degree(msg.src); ++p)
      if (d(t_.neighbor(msg.src, p), msg.dst) + 1u == hops)
        first = std::min(first, first_free(link_busy_[static_cast<std::size_t>(t_.link_id(msg.src, p))],
                                           link_free_[static_cast<std::size_t>(t_.link_id(msg.src, p))]));
    if (m_ == Model::Nic) first = std::max(first, first_free(inject_busy_[static_cast<std::size_t>(msg.src)], inject_free_[static_cast<std::size_t>(msg.src)]));
    for (std::size_t s0 = std::max(first, from);; s0 += 64) {
      const std::uint64_t found = search(msg, s0, hops);
      if (found == 0) continue;
      const auto i = static_cast<std::size_t>(__builtin_ctzll(found));
      return {s0 + i, path(msg, s0, i, hops)};
    }
  }
  /// Marks a transfer placed elsewhere (a kept transfer of a repaired schedule) as busy: its link,
  /// the sending and receiving node, and the source's NIC in its first hop, the destination's in
  /// its last.
  void occupy(const Transfer& tr, std::size_t step, bool first_hop, bool last_hop) {
    mark(link_busy_[static_cast<std::size_t>(t_.link_id(tr.from, tr.port))], step);
    ++link_use_[static_cast<std::size_t>(t_.link_id(tr.from, tr.port))];
    mark(send_busy_[static_cast<std::size_t>(tr.from)], step);
    mark(recv_busy_[static_cast<std::size_t>(t_.neighbor(tr.from, tr.port))], step);
    if (first_hop) mark(inject_busy_[static_cast<std::size_t>(tr.msg.src)], step);
    if (last_hop) mark(eject_busy_[static_cast<std::size_t>(tr.msg.dst)], step);
  }
  void place(const Message& msg, const Hops& hops, std::size_t start, PathPacker& out) {
    for (std::size_t h = 0; h < hops.size(); ++h) {
      const auto [v, p] = hops[h];
      const NodeId w = t_.neighbor(v, p);
      mark(link_busy_[static_cast<std::size_t>(t_.link_id(v, p))], start + h);
      ++link_use_[static_cast<std::size_t>(t_.link_id(v, p))];
      mark(send_busy_[static_cast<std::size_t>(v)], start + h);
      mark(recv_busy_[static_cast<std::size_t>(w)], start + h);
    }
    mark(inject_busy_[static_cast<std::size_t>(msg.src)], start);
    mark(eject_busy_[static_cast<std::size_t>(msg.dst)], start + hops.size() - 1);
    out.place(msg, hops, start);
  }

 private:
  static constexpr std::uint16_t kFar = 0xffff;
  using Bits = std::vector<std::uint64_t>;
  static void mark(Bits& b, std::size_t step) {
    if (b.size() <= step / 64) b.resize(step / 64 + 1, 0);
    b[step / 64] |= std::uint64_t{1} << (step % 64);
  }
  /// Bits step .. step + 63 of b.
  static std::uint64_t window(const Bits& b, std::size_t step) {
    const std::size_t w = step / 64, off = step % 64;
    const std::uint64_t lo = w < b.size() ? b[w] : 0;
    if (off == 0) return lo;
    const std::uint64_t hi = w + 1 < b.size() ? b[w + 1] : 0;
    return (lo >> off) | (hi << (64 - off));
  }
  [[nodiscard]] std::uint16_t d(NodeId a, NodeId b) const {
    return dist_[static_cast<std::size_t>(a) * n_ + static_cast<std::size_t>(b)];
  }
  /// The first step not in b, from `from` on (a pointer that only moves on: bits are only set).
  static std::size_t first_free(const Bits& b, std::size_t& from) {
    while (from / 64 < b.size() && (b[from / 64] >> (from % 64) & 1) != 0)
      from = b[from / 64] == ~std::uint64_t{0} ? (from / 64 + 1) * 64 : from + 1;
    return from;
  }
  /// The hop u -> w (port p) as the h-th hop, for the 64 starts from s0: which are free.
  std::uint64_t hop_free(NodeId u, Port p, NodeId w, std::size_t s0, std::size_t h) const {
    std::uint64_t busy = window(link_busy_[static_cast<std::size_t>(t_.link_id(u, p))], s0 + h);
    if (m_ == Model::SinglePort)
      busy |= window(send_busy_[static_cast<std::size_t>(u)], s0 + h) | window(recv_busy_[static_cast<std::size_t>(w)], s0 + h);
    return ~busy;
  }
  /// Layer by layer through the DAG; the starts (bits) at which a path reaches the destination.
  std::uint64_t search(const Message& msg, std::size_t s0, std::size_t hops) {
    ++stamp_now_;
    std::uint64_t start_ok = ~std::uint64_t{0};
    if (m_ == Model::Nic)
      start_ok = ~window(inject_busy_[static_cast<std::size_t>(msg.src)], s0) &
                 ~window(eject_busy_[static_cast<std::size_t>(msg.dst)], s0 + hops - 1);
    reach_[static_cast<std::size_t>(msg.src)] = start_ok;
    stamp_[static_cast<std::size_t>(msg.src)] = stamp_now_;
    layer_.assign(1, msg.src);
    for (std::size_t h = 0; h < hops && !layer_.empty(); ++h) {
      next_.clear();
      for (NodeId u : layer_) {
        const std::uint64_t from = reach_[static_cast<std::size_t>(u)];
        for (Port p = 0; p < t_.degree(u); ++p) {
          const NodeId w = t_.neighbor(u, p);
          const auto wi = static_cast<std::size_t>(w);
          if (d(msg.src, w) != h + 1 || d(w, msg.dst) + h + 1 != hops) continue;  // off the shortest-path DAG
          const std::uint64_t bits = from & hop_free(u, p, w, s0, h);
          if (bits == 0) continue;
          if (stamp_[wi] != stamp_now_) {
            stamp_[wi] = stamp_now_;
            reach_[wi] = 0;
            next_.push_back(w);
          }
          reach_[wi] |= bits;
        }
      }
      layer_.swap(next_);
    }
    return stamp_[static_cast<std::size_t>(msg.dst)] == stamp_now_ ? reach_[static_cast<std::size_t>(msg.dst)] : 0;
  }
  /// The path behind bit i of the last search, from the destination back.
  Hops path(const Message& msg, std::size_t s0, std::size_t i, std::size_t hops) const {
    const std::uint64_t bit = std::uint64_t{1} << i;
    Hops out(hops);
    NodeId w = msg.dst;
    for (std::size_t h = hops; h-- > 0;) {
      // Of the hops into w that the search found, the one over the link used least so far.
      std::pair<NodeId, Port> best{-1, -1};
      std::int64_t best_use = 0;
      for (Port q = 0; q < t_.degree(w); ++q) {
        const NodeId u = t_.neighbor(w, q);
        const auto ui = static_cast<std::size_t>(u);
        if (stamp_[ui] != stamp_now_ || d(msg.src, u) != h || (reach_[ui] & bit) == 0) continue;
        const Port p = *t_.port_to(u, w);
        if ((hop_free(u, p, w, s0, h) & bit) == 0) continue;
        const std::int64_t use = link_use_[static_cast<std::size_t>(t_.link_id(u, p))];
        if (best.first < 0 || use < best_use) {
          best = {u, p};
          best_use = use;
        }
      }
      out[h] = best;
      w = best.first;
    }
    return out;
  }
  const Topology& t_;
  Model m_;
  std::size_t n_;
  std::vector<std::uint16_t> dist_;
  std::vector<Bits> link_busy_, inject_busy_, eject_busy_, send_busy_, recv_busy_;
  std::vector<std::size_t> link_free_, inject_free_;  // first_free's pointers
  std::vector<std::int64_t> link_use_ = std::vector<std::int64_t>(static_cast<std::size_t>(t_.links()), 0);
  std::vector<std::uint64_t> reach_, stamp_;
  std::uint64_t stamp_now_ = 0;
  std::vector<NodeId> layer_, next_;
};

}  // namespace totex
