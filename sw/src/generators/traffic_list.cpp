// SPDX-License-Identifier: Apache-2.0
// The list scheduler for any traffic (docs/traffic.md, "Schedules"): every flit goes on one of a
// few shortest paths, hops on consecutive steps (so no relay ever buffers, valid under every
// model), at the earliest start where every resource it needs is free. Resources are the
// directed links and, per model, the NIC's inject and eject port or the single-port node's send
// and receive port; a calendar per resource records its busy steps (one-shot) or slots (periodic).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "totex/error.hpp"
#include "totex/generators/traffic_schedule.hpp"
#include "totex/splitmix.hpp"
#include "totex/verify/message_index.hpp"

namespace totex {
namespace {

constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

/// Busy steps per resource. One-shot (period 0): a growing bit set per resource. Periodic: P bits
/// per resource, step t using slot t mod P.
class Calendar {
 public:
  Calendar(std::size_t resources, int period) : period_(period), bits_(resources) {
    if (period_ > 0)
      for (auto& b : bits_) b.assign((static_cast<std::size_t>(period_) + 63) / 64, 0);
  }
  /// The first step >= t the resource is free in (kNever: a periodic resource busy in every slot).
  [[nodiscard]] std::int64_t next_free(std::size_t r, std::int64_t t) const {
    const std::vector<std::uint64_t>& b = bits_[r];
    if (period_ == 0) {
      for (auto w = static_cast<std::size_t>(t) / 64; w < b.size(); ++w) {
        std::uint64_t free = ~b[w];
        if (w == static_cast<std::size_t>(t) / 64) free &= ~std::uint64_t{0} << (t % 64);
        if (free != 0) return static_cast<std::int64_t>(w * 64) + __builtin_ctzll(free);
      }
      return std::max<std::int64_t>(t, static_cast<std::int64_t>(b.size() * 64));
    }
    const std::int64_t P = period_;
    for (std::int64_t d = 0; d < P; ++d) {
      const std::int64_t s = (t + d) % P;
      if (((b[static_cast<std::size_t>(s) / 64] >> (s % 64)) & 1) == 0) return t + d;
    }
    return kNever;
  }
  void take(std::size_t r, std::int64_t t) {
    std::vector<std::uint64_t>& b = bits_[r];
    const auto s = static_cast<std::size_t>(period_ > 0 ? t % period_ : t);
    if (s / 64 >= b.size()) b.resize(s / 64 + 1 + b.size() / 2, 0);
    b[s / 64] |= std::uint64_t{1} << (s % 64);
  }

 private:
  int period_;
  std::vector<std::vector<std::uint64_t>> bits_;
};

/// One resource a path needs, `offset` steps after its start.
struct Use {
  std::uint32_t resource;
  std::int32_t offset;
};

struct Route {
  std::vector<LinkId> links;
  std::vector<Use> uses;
};

/// A pair (src, dst) with its flits and candidate routes.
struct Pair {
  NodeId src, dst;
  std::int32_t flits;
  std::int32_t dist;
  std::int64_t weight;  // priority: the larger of the source's and the destination's totals
  std::vector<Route> routes;
};

struct Placed {
  std::uint32_t pair;
  std::int32_t route;
  std::int64_t start;
};

class ListScheduler {
 public:
  ListScheduler(const Topology& t, Model m, const Traffic& traffic, int routes) : t_(t), m_(m), traffic_(traffic) {
    const int n = t.nodes();
    if (n > kMaxTrafficNodes)
      throw ResourceError("resources: the list scheduler takes at most " + std::to_string(kMaxTrafficNodes) + " nodes; " + t.spec() +
                          " has " + std::to_string(n));
    dist_.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), -1);
    std::vector<bool> needed(static_cast<std::size_t>(n), false);
    traffic.for_each([&](NodeId, NodeId d, std::int64_t) { needed[static_cast<std::size_t>(d)] = true; });
    for (NodeId d = 0; d < n; ++d)
      if (needed[static_cast<std::size_t>(d)]) bfs_to(d);
    std::int64_t hops = 0;
    traffic.for_each([&](NodeId s, NodeId d, std::int64_t w) {
      const int k = dist(s, d);
      if (k < 0)
        throw UsageError("traffic " + traffic.spec() + " cannot be delivered on " + t.spec() + ": node " + std::to_string(d) +
                         " cannot be reached from node " + std::to_string(s));
      hops += w * k;
      pairs_.push_back({s, d, static_cast<std::int32_t>(w), k, std::max(traffic.sent(s), traffic.received(d)), {}});
    });
    constexpr std::int64_t kMaxHops = std::int64_t{1} << 27;
    if (hops > kMaxHops)
      throw ResourceError("resources: traffic " + traffic.spec() + " needs " + std::to_string(hops) + " link crossings on " + t.spec() +
                          ", more than the list scheduler's " + std::to_string(kMaxHops));
    for (Pair& p : pairs_) p.routes = candidate_routes(p.src, p.dst, routes);
  }

  [[nodiscard]] std::size_t resources() const {
    return static_cast<std::size_t>(t_.links()) + (m_ == Model::AllPort ? 0 : 2 * static_cast<std::size_t>(t_.nodes()));
  }

  /// Places every flit in `order` (indices into flits()); false when a periodic flit does not fit.
  bool place(int period, const std::vector<std::pair<std::uint32_t, std::int32_t>>& order, std::vector<Placed>& out,
             std::int64_t& work) const {
    Calendar cal(resources(), period);
    out.clear();
    out.reserve(order.size());
    for (const auto& [pi, k] : order) {
      (void)k;
      const Pair& p = pairs_[pi];
      std::int64_t best_finish = kNever, best_start = 0;
      int best_route = -1;
      for (std::size_t r = 0; r < p.routes.size(); ++r) {
        const std::int64_t start = earliest(cal, p.routes[r], period, work);
        if (start == kNever) continue;
        const std::int64_t finish = start + static_cast<std::int64_t>(p.routes[r].links.size());
        if (finish < best_finish) {
          best_finish = finish;
          best_start = start;
          best_route = static_cast<int>(r);
        }
      }
      if (best_route < 0) return false;
      for (const Use& u : p.routes[static_cast<std::size_t>(best_route)].uses) cal.take(u.resource, best_start + u.offset);
      out.push_back({pi, best_route, best_start});
    }
    return true;
  }

  [[nodiscard]] const std::vector<Pair>& pairs() const { return pairs_; }

  /// The schedule of `placed`: flit indices of a pair numbered in arrival order (then start), so a
  /// multi-flit message arrives in order.
  [[nodiscard]] Schedule build(std::vector<Placed> placed, int period) const {
    Schedule s{t_.spec(), m_, period > 0 ? "periodic-list" : "list", {}};
    s.period = period;
    s.traffic = traffic_tag(t_, &traffic_);
    std::sort(placed.begin(), placed.end(), [&](const Placed& a, const Placed& b) {
      const auto arrive = [&](const Placed& x) {
        return x.start + static_cast<std::int64_t>(pairs_[x.pair].routes[static_cast<std::size_t>(x.route)].links.size());
      };
      if (a.pair != b.pair) return a.pair < b.pair;
      if (arrive(a) != arrive(b)) return arrive(a) < arrive(b);
      return a.start < b.start;
    });
    std::int32_t flit = 0;
    for (std::size_t i = 0; i < placed.size(); ++i) {
      const Placed& x = placed[i];
      flit = i > 0 && placed[i - 1].pair == x.pair ? flit + 1 : 0;
      const Pair& p = pairs_[x.pair];
      const Route& r = p.routes[static_cast<std::size_t>(x.route)];
      for (std::size_t h = 0; h < r.links.size(); ++h) {
        const auto step = static_cast<std::size_t>(x.start) + h;
        if (s.steps.size() <= step) s.steps.resize(step + 1);
        const NodeId from = t_.link_source(r.links[h]);
        s.steps[step].push_back({{p.src, p.dst, flit}, from, r.links[h] - t_.link_id(from, 0)});
      }
    }
    return s;
  }

 private:
  [[nodiscard]] int dist(NodeId from, NodeId to) const {
    return dist_[static_cast<std::size_t>(to) * static_cast<std::size_t>(t_.nodes()) + static_cast<std::size_t>(from)];
  }
  void bfs_to(NodeId d) {  // links are symmetric (an undirected graph), so distances to d are from d
    const auto base = static_cast<std::size_t>(d) * static_cast<std::size_t>(t_.nodes());
    std::vector<NodeId> queue{d};
    dist_[base + static_cast<std::size_t>(d)] = 0;
    for (std::size_t i = 0; i < queue.size(); ++i) {
      const NodeId v = queue[i];
      for (Port p = 0; p < t_.degree(v); ++p) {
        const NodeId u = t_.neighbor(v, p);
        std::int16_t& du = dist_[base + static_cast<std::size_t>(u)];
        if (du >= 0) continue;
        du = static_cast<std::int16_t>(dist_[base + static_cast<std::size_t>(v)] + 1);
        queue.push_back(u);
      }
    }
  }
  /// Up to `count` distinct shortest paths: lowest port first (dimension order on products),
  /// highest port first, then seeded choices among the ports that get closer.
  [[nodiscard]] std::vector<Route> candidate_routes(NodeId s, NodeId d, int count) const {
    std::vector<Route> out;
    for (int c = 0; c < std::max(1, count) * 3 && static_cast<int>(out.size()) < std::max(1, count); ++c) {
      std::uint64_t seed = (static_cast<std::uint64_t>(s) << 40) ^ (static_cast<std::uint64_t>(d) << 16) ^ static_cast<std::uint64_t>(c);
      Route r;
      NodeId v = s;
      while (v != d) {
        const int here = dist(v, d);
        std::vector<Port> closer;
        for (Port p = 0; p < t_.degree(v); ++p)
          if (dist(t_.neighbor(v, p), d) == here - 1) closer.push_back(p);
        const std::size_t pick = c == 0 ? 0 : c == 1 ? closer.size() - 1 : static_cast<std::size_t>(splitmix64(seed) % closer.size());
        r.links.push_back(t_.link_id(v, closer[pick]));
        v = t_.neighbor(v, closer[pick]);
      }
      if (std::any_of(out.begin(), out.end(), [&](const Route& o) { return o.links == r.links; })) continue;
      add_uses(s, d, r);
      out.push_back(std::move(r));
    }
    return out;
  }
  void add_uses(NodeId s, NodeId d, Route& r) const {
    const auto L = static_cast<std::uint32_t>(t_.links());
    const auto N = static_cast<std::uint32_t>(t_.nodes());
    const auto len = static_cast<std::int32_t>(r.links.size());
    for (std::int32_t h = 0; h < len; ++h) {
      const LinkId l = r.links[static_cast<std::size_t>(h)];
      r.uses.push_back({static_cast<std::uint32_t>(l), h});
      if (m_ == Model::SinglePort) {
        r.uses.push_back({L + static_cast<std::uint32_t>(t_.link_source(l)), h});
        r.uses.push_back({L + N + static_cast<std::uint32_t>(t_.link_target(l)), h});
      }
    }
    if (m_ == Model::Nic) {
      r.uses.push_back({L + static_cast<std::uint32_t>(s), 0});
      r.uses.push_back({L + N + static_cast<std::uint32_t>(d), len - 1});
    }
  }
  /// The earliest start >= 0 at which every use is free (periodic: start < period, else kNever).
  static std::int64_t earliest(const Calendar& cal, const Route& r, int period, std::int64_t& work) {
    std::int64_t start = 0;
    for (bool moved = true; moved;) {
      moved = false;
      for (const Use& u : r.uses) {
        ++work;
        const std::int64_t f = cal.next_free(u.resource, start + u.offset);
        if (f == kNever) return kNever;
        if (f != start + u.offset) {
          start = f - u.offset;
          moved = true;
          break;
        }
      }
      if (period > 0 && start >= period) return kNever;
    }
    return start;
  }

  const Topology& t_;
  Model m_;
  const Traffic& traffic_;
  std::vector<std::int16_t> dist_;
  std::vector<Pair> pairs_;
};

/// Priority orders of the flits. 0: the heaviest endpoints first (the nodes whose totals bind),
/// farther pairs first among equals, a pair's flits together; 1: the same pairs, flits interleaved
/// (every pair's flit k before any flit k+1); 2..: order 0 with seeded ties.
std::vector<std::pair<std::uint32_t, std::int32_t>> flit_order(const std::vector<Pair>& pairs, int which) {
  std::vector<std::uint32_t> idx(pairs.size());
  std::iota(idx.begin(), idx.end(), 0U);
  std::vector<std::uint64_t> tie(pairs.size(), 0);
  if (which >= 2) {
    std::uint64_t seed = 0x9e3779b97f4a7c15ULL * static_cast<unsigned>(which);
    for (auto& x : tie) x = splitmix64(seed);
  }
  std::stable_sort(idx.begin(), idx.end(), [&](std::uint32_t a, std::uint32_t b) {
    const Pair& x = pairs[a];
    const Pair& y = pairs[b];
    if (x.weight != y.weight) return x.weight > y.weight;
    if (which >= 2 && tie[a] != tie[b]) return tie[a] < tie[b];
    return x.dist > y.dist;
  });
  std::vector<std::pair<std::uint32_t, std::int32_t>> out;
  if (which == 1) {
    std::int32_t most = 0;
    for (const Pair& p : pairs) most = std::max(most, p.flits);
    for (std::int32_t k = 0; k < most; ++k)
      for (std::uint32_t i : idx)
        if (k < pairs[i].flits) out.emplace_back(i, k);
    return out;
  }
  for (std::uint32_t i : idx)
    for (std::int32_t k = 0; k < pairs[i].flits; ++k) out.emplace_back(i, k);
  return out;
}

}  // namespace

Schedule list_schedule(const Topology& t, Model m, const Traffic& traffic, int period, int routes, int orders, std::int64_t* work) {
  const ListScheduler ls(t, m, traffic, routes);
  std::int64_t spent = 0;
  std::vector<Placed> best, placed;
  std::int64_t best_steps = kNever;
  for (int o = 0; o < std::max(1, orders); ++o) {
    if (!ls.place(period, flit_order(ls.pairs(), o), placed, spent)) continue;
    std::int64_t steps = 0;
    for (const Placed& x : placed)
      steps = std::max<std::int64_t>(steps, x.start + static_cast<std::int64_t>(ls.pairs()[x.pair].routes[static_cast<std::size_t>(x.route)].links.size()));
    if (steps < best_steps) {
      best_steps = steps;
      best.swap(placed);
    }
  }
  if (work != nullptr) *work += spent;
  if (best_steps == kNever) {
    Schedule none{t.spec(), m, "periodic-list", {}};
    none.period = period;
    none.traffic = traffic_tag(t, &traffic);
    return none;
  }
  return ls.build(std::move(best), period);
}

}  // namespace totex
