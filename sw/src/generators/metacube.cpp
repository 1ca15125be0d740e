// SPDX-License-Identifier: Apache-2.0
// Paper 003: total exchange in the metacube (Algorithms 1-4, Table 1) and its nic schedule.
#include "totex/generators/metacube.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "totex/network/distance.hpp"
#include "totex/error.hpp"

namespace totex {
namespace {

std::size_t ix(int i) { return static_cast<std::size_t>(i); }

/// Address arithmetic of MC(k,m): field i (m bits) at bits i*m.., class (k bits) on top.
struct Address {
  int k, m, fields, class_shift;
  NodeId mask;
  explicit Address(const Topology& t)
      : k(t.metacube_k()), m(t.metacube_m()), fields(1 << k), class_shift(m << k), mask((1 << m) - 1) {}
  [[nodiscard]] int cls(NodeId v) const { return v >> class_shift; }
  [[nodiscard]] int field(NodeId v, int i) const { return (v >> (i * m)) & mask; }
};

// Table 1 (k = 2), corrected: row dest, column type; element 0 = length.
const std::vector<int> kTable2[4][4] = {
    {{0}, {2, 1, 0}, {2, 2, 0}, {4, 1, 3, 2, 0}},
    {{1, 1}, {3, 2, 3, 1}, {3, 2, 3, 1}, {3, 2, 3, 1}},
    {{1, 2}, {3, 1, 3, 2}, {3, 1, 3, 2}, {3, 1, 3, 2}},
    {{2, 1, 3}, {2, 1, 3}, {2, 2, 3}, {4, 1, 3, 2, 3}},
};
// The one entry that differs in the printed Table 1: (dest 3, type 2) = (2, 1, 3).
const std::vector<int> kPrinted32 = {2, 1, 3};
// k = 1 (dual-cube): dest 0: (0), (2,1,0); dest 1: (1,1).
const std::vector<int> kTable1[2][2] = {{{0}, {2, 1, 0}}, {{1, 1}, {1, 1}}};

}  // namespace

void require_supported_metacube(const Topology& t) {
  if (!t.is_metacube())
    throw UsageError("the metacube total exchange (paper 003) needs a metacube:K,M topology, not '" + t.spec() + "'");
  const int k = t.metacube_k();
  if (k != 1 && k != 2)
    throw UsageError("the metacube total exchange (paper 003) is defined for k = 2 (quad-cube) and, by the same "
                     "rule, k = 1 (dual-cube); '" + t.spec() + "' has k = " + std::to_string(k) +
                     " (the paper gives no class-path table for k = " + std::to_string(k) + ")");
}

int metacube_step_count(const Topology& t) {
  require_supported_metacube(t);
  return t.nodes() - 1;
}

NodeId metacube_destination(const Topology& t, NodeId s, int step) {
  require_supported_metacube(t);
  if (s < 0 || s >= t.nodes() || step < 0 || step >= t.nodes() - 1)
    throw UsageError("metacube_destination: node or step out of range");
  const Address a(t);
  const int idx = step + 1;  // index 0 of the paper's loops is d = s, skipped
  const int c_top = a.cls(idx);
  const int x = c_top ^ a.cls(s);  // class of d
  NodeId pattern = c_top << a.class_shift;
  // c[j] goes to field position j (+) x.
  for (int j = 0; j < a.fields; ++j) pattern |= a.field(idx, j) << ((j ^ x) * a.m);
  return pattern ^ s;
}

std::vector<NodeId> metacube_destination_order(const Topology& t, NodeId s) {
  const int steps = metacube_step_count(t);
  std::vector<NodeId> order(ix(steps));
  for (int x = 0; x < steps; ++x) order[ix(x)] = metacube_destination(t, s, x);
  return order;
}

int metacube_type(const Topology& t, NodeId s, NodeId d) {
  require_supported_metacube(t);
  const Address a(t);
  const int cs = a.cls(s);
  const int dest = a.cls(d) ^ cs;
  const NodeId diff = s ^ d;
  // f(i): does field i (relative to c_s, i.e. actual position i (+) c_s) differ?
  auto f = [&](int i) { return a.field(diff, i ^ cs) != 0; };
  int type = 0;
  if (a.k == 1) return (dest == 0 && f(1)) ? 1 : 0;
  switch (dest) {
    case 0:
      if (f(2)) type = 2;
      if (f(1)) type = type + 1;
      if (f(3)) type = 3;
      break;
    case 1:
      if (f(3)) type = 2;
      if (f(2)) type = type + 1;
      break;
    case 2:
      if (f(3)) type = 2;
      if (f(1)) type = type + 1;
      break;
    default:  // 3
      if (f(2)) type = 2;
      if (f(1)) type = type + 1;
      break;
  }
  return type;
}

std::vector<int> metacube_class_path(int k, int dest, int type, ClassPathTable table) {
  if (k == 2 && dest >= 0 && dest < 4 && type >= 0 && type < 4) {
    if (table == ClassPathTable::Printed && dest == 3 && type == 2) return kPrinted32;
    return kTable2[dest][type];
  }
  if (k == 1 && dest >= 0 && dest < 2 && type >= 0 && type < 2) return kTable1[dest][type];
  throw UsageError("metacube_class_path: no entry for k = " + std::to_string(k) + ", dest = " +
                   std::to_string(dest) + ", type = " + std::to_string(type));
}

std::vector<std::pair<NodeId, Port>> metacube_route_hops(const Topology& t, NodeId s, NodeId d,
                                                         ClassPathTable table) {
  require_supported_metacube(t);
  if (s < 0 || s >= t.nodes() || d < 0 || d >= t.nodes()) throw UsageError("metacube_route: node out of range");
  const Address a(t);
  std::vector<std::pair<NodeId, Port>> hops;
  const NodeId diff = d ^ s;  // Algorithm 4, line 2
  NodeId current = s;
  const int cs = a.cls(s);
  const int dest = a.cls(d) ^ cs;
  const int type = metacube_type(t, s, d);
  // Algorithm 2: ascending routing in field c of the cluster of class c (current is global).
  auto routing_in_cluster = [&](int c) {
    const int go_field = a.field(diff, c);
    for (int i = 0; i < a.m; ++i) {
      if ((go_field & (1 << i)) == 0) continue;
      hops.emplace_back(current, i);  // cube-edge i flips bit i of field m[c]
      current ^= 1 << (c * a.m + i);
    }
  };
  const std::vector<int> path = metacube_class_path(a.k, dest, type, table);
  routing_in_cluster(a.cls(current));  // line 7
  for (int next = 0; next < path[0];) {  // line 8
    ++next;
    const int target = path[ix(next)] ^ cs;  // line 10: c_current = classPath[...] (+) c_s
    const int flip = target ^ a.cls(current);
    // line 11: one cross-edge (consecutive classes of every table entry differ in one bit)
    if (flip == 0 || (flip & (flip - 1)) != 0)
      throw std::logic_error("metacube class path steps from class " + std::to_string(a.cls(current)) + " to " +
                             std::to_string(target) + ", which are not adjacent");
    int b = 0;
    while ((1 << b) != flip) ++b;
    hops.emplace_back(current, a.m + b);
    current ^= flip << a.class_shift;
    if (current != d) routing_in_cluster(a.cls(current));  // line 12
  }
  return hops;
}

std::vector<NodeId> metacube_route(const Topology& t, NodeId s, NodeId d, ClassPathTable table) {
  const auto hops = metacube_route_hops(t, s, d, table);
  std::vector<NodeId> nodes{s};
  for (const auto& [v, p] : hops) nodes.push_back(t.neighbor(v, p));
  return nodes;
}

MetacubeAnalysis analyze_metacube(const Topology& t) {
  require_supported_metacube(t);
  const Address a(t);
  const int n = t.nodes();
  if (n > kMaxMetacubeScheduleNodes)
    throw UsageError("the metacube analysis supports at most " + std::to_string(kMaxMetacubeScheduleNodes) +
                     " nodes; " + t.spec() + " has " + std::to_string(n));
  const int steps = n - 1;
  MetacubeAnalysis r;
  r.k = a.k;
  r.m = a.m;
  r.nodes = n;
  if (a.k == 2) {
    const double p = n;
    const double bits = std::log2(p);
    r.paper_total_path_length =
        std::llround(p * (bits / 2 + 2.5) - std::sqrt(2.0) * std::pow(p, 0.75) - 3 * std::sqrt(p));
  }

  // Routes against BFS, and the per-source totals.
  std::vector<std::int64_t> total(ix(n), 0);
  for (NodeId s = 0; s < n; ++s) {
    const std::vector<int> dist = bfs_distances(t, s);
    if (s == 0)
      for (int x : dist) r.total_bfs_distance += x;
    for (NodeId d = 0; d < n; ++d) {
      if (d == s) continue;
      ++r.routes_checked;
      const auto hops = metacube_route_hops(t, s, d);
      NodeId at = s;
      bool ok = true;
      for (const auto& [v, p] : hops) {
        ok = ok && v == at && p >= 0 && p < t.degree(v);
        if (!ok) break;
        at = t.neighbor(v, p);
      }
      ok = ok && at == d;
      if (!ok) ++r.invalid_routes;
      if (static_cast<int>(hops.size()) != dist[ix(d)]) ++r.non_shortest_routes;
      total[ix(s)] += static_cast<std::int64_t>(hops.size());
      if (a.k == 2 && metacube_type(t, s, d) == 2 && (a.cls(d) ^ a.cls(s)) == 3) {
        const auto printed = metacube_route(t, s, d, ClassPathTable::Printed);
        if (printed.back() != d) ++r.printed_table_invalid_routes;
      }
    }
  }
  r.routes_valid = r.invalid_routes == 0;
  r.routes_shortest = r.non_shortest_routes == 0;
  r.total_path_length_min = *std::min_element(total.begin(), total.end());
  r.total_path_length_max = *std::max_element(total.begin(), total.end());

  // Per step: distance uniformity, link-disjointness as sets, and at equal hop index.
  const auto links = ix(t.links());
  std::vector<int> owner_step(links, -1), owner_msg(links, -1), owner_hop(links, -1);
  int max_len = 0;
  std::vector<int> aligned_step;  // indexed by hop * links + link
  std::vector<int> aligned_msg;
  for (int x = 0; x < steps; ++x) {
    int len0 = -1;
    bool uniform = true, conflict = false, aligned_conflict = false;
    std::vector<std::vector<std::pair<NodeId, Port>>> routes(ix(n));
    for (NodeId s = 0; s < n; ++s) {
      routes[ix(s)] = metacube_route_hops(t, s, metacube_destination(t, s, x));
      const int len = static_cast<int>(routes[ix(s)].size());
      if (len0 < 0) len0 = len;
      uniform = uniform && len == len0;
      max_len = std::max(max_len, len);
    }
    if (aligned_step.size() < ix(max_len) * links) {
      aligned_step.resize(ix(max_len) * links, -1);
      aligned_msg.resize(ix(max_len) * links, -1);
    }
    for (NodeId s = 0; s < n; ++s) {
      const auto& hops = routes[ix(s)];
      for (std::size_t h = 0; h < hops.size(); ++h) {
        const auto l = ix(t.link_id(hops[h].first, hops[h].second));
        const NodeId to = t.neighbor(hops[h].first, hops[h].second);
        if (owner_step[l] == x) {
          conflict = true;
          ++r.link_conflict_pairs;
          if (!r.first_link_conflict) {
            const NodeId o = owner_msg[l];
            r.first_link_conflict = MetacubeLinkConflict{
                x, {o, metacube_destination(t, o, x)}, {s, metacube_destination(t, s, x)}, hops[h].first, to,
                owner_hop[l], static_cast<int>(h)};
          }
        } else {
          owner_step[l] = x;
          owner_msg[l] = s;
          owner_hop[l] = static_cast<int>(h);
        }
        const std::size_t al = h * links + l;
        if (aligned_step[al] == x) {
          aligned_conflict = true;
          if (!r.first_time_aligned_conflict) {
            const NodeId o = aligned_msg[al];
            r.first_time_aligned_conflict = MetacubeLinkConflict{
                x, {o, metacube_destination(t, o, x)}, {s, metacube_destination(t, s, x)}, hops[h].first, to,
                static_cast<int>(h), static_cast<int>(h)};
          }
        } else {
          aligned_step[al] = x;
          aligned_msg[al] = s;
        }
      }
    }
    if (!uniform) ++r.non_uniform_steps;
    if (conflict) ++r.link_conflict_steps;
    if (aligned_conflict) ++r.time_aligned_conflict_steps;
  }
  r.distance_uniform_per_step = r.non_uniform_steps == 0;
  r.link_disjoint_per_step = r.link_conflict_steps == 0;
  r.time_aligned_disjoint_per_step = r.time_aligned_conflict_steps == 0;
  return r;
}

namespace {

/// Link-level resource use: directed links, injections and ejections per step.
class Occupancy {
 public:
  Occupancy(std::size_t links, std::size_t nodes) : links_(links), nodes_(nodes) {}
  [[nodiscard]] bool link(std::size_t step, std::size_t l) const {
    return step < horizon() && link_[step * links_ + l] != 0;
  }
  [[nodiscard]] bool inject(std::size_t step, std::size_t v) const {
    return step < horizon() && inject_[step * nodes_ + v] != 0;
  }
  [[nodiscard]] bool eject(std::size_t step, std::size_t v) const {
    return step < horizon() && eject_[step * nodes_ + v] != 0;
  }
  void take_link(std::size_t step, std::size_t l) {
    grow(step);
    link_[step * links_ + l] = 1;
  }
  void take_inject(std::size_t step, std::size_t v) {
    grow(step);
    inject_[step * nodes_ + v] = 1;
  }
  void take_eject(std::size_t step, std::size_t v) {
    grow(step);
    eject_[step * nodes_ + v] = 1;
  }

 private:
  [[nodiscard]] std::size_t horizon() const { return link_.size() / links_; }
  void grow(std::size_t step) {
    if (step < horizon()) return;
    const std::size_t h = std::max(step + 1, 2 * horizon());
    link_.resize(h * links_, 0);
    inject_.resize(h * nodes_, 0);
    eject_.resize(h * nodes_, 0);
  }
  std::size_t links_, nodes_;
  std::vector<std::uint8_t> link_, inject_, eject_;
};

/// All routes of one communication step, flattened: message s has hops [offset[s], offset[s+1]).
struct StepRoutes {
  std::vector<NodeId> dst;
  std::vector<std::size_t> offset;
  std::vector<std::pair<NodeId, Port>> hops;
  std::vector<std::size_t> link;
  bool self_conflict = false;  // two of its messages use one link at the same hop index
};

StepRoutes step_routes(const Topology& t, int x, std::vector<int>& seen, int& seen_stamp) {
  const int n = t.nodes();
  const std::size_t links = ix(t.links());
  StepRoutes r;
  r.offset.push_back(0);
  ++seen_stamp;
  for (NodeId s = 0; s < n; ++s) {
    const NodeId d = metacube_destination(t, s, x);
    r.dst.push_back(d);
    const auto hops = metacube_route_hops(t, s, d);
    for (std::size_t h = 0; h < hops.size(); ++h) {
      const std::size_t l = ix(t.link_id(hops[h].first, hops[h].second));
      r.hops.push_back(hops[h]);
      r.link.push_back(l);
      if (seen.size() < (h + 1) * links) seen.resize((h + 1) * links, 0);
      int& mark = seen[h * links + l];
      r.self_conflict = r.self_conflict || mark == seen_stamp;
      mark = seen_stamp;
    }
    r.offset.push_back(r.hops.size());
  }
  return r;
}

}  // namespace

MetacubeScheduleResult metacube_schedule_detailed(const Topology& t, MetacubeOrder order) {
  require_supported_metacube(t);
  const int n = t.nodes();
  if (n > kMaxMetacubeScheduleNodes)
    throw UsageError("the metacube schedule supports at most " + std::to_string(kMaxMetacubeScheduleNodes) +
                     " nodes; " + t.spec() + " has " + std::to_string(n));
  const int steps = n - 1;
  Occupancy occ(ix(t.links()), ix(n));
  MetacubeScheduleResult res;
  res.schedule = Schedule{t.spec(), Model::Nic, order == MetacubeOrder::Paper ? "metacube" : "metacube-firstfit", {}};
  res.injection_step.assign(ix(steps), -1);
  auto& out = res.schedule.steps;

  std::vector<StepRoutes> all(ix(steps));
  std::vector<int> seen;
  int stamp = 0;
  for (int x = 0; x < steps; ++x) all[ix(x)] = step_routes(t, x, seen, stamp);

  // Message i of step r starting at `start`: does it fit?
  auto fits = [&](const StepRoutes& r, std::size_t i, std::size_t start) {
    const std::size_t len = r.offset[i + 1] - r.offset[i];
    if (occ.inject(start, i) || occ.eject(start + len - 1, ix(r.dst[i]))) return false;
    for (std::size_t h = 0; h < len; ++h)
      if (occ.link(start + h, r.link[r.offset[i] + h])) return false;
    return true;
  };
  auto place = [&](const StepRoutes& r, std::size_t i, std::size_t start) {
    const std::size_t len = r.offset[i + 1] - r.offset[i];
    occ.take_inject(start, i);
    occ.take_eject(start + len - 1, ix(r.dst[i]));
    if (out.size() < start + len) out.resize(start + len);
    const Message msg{static_cast<NodeId>(i), r.dst[i]};
    for (std::size_t h = 0; h < len; ++h) {
      occ.take_link(start + h, r.link[r.offset[i] + h]);
      const auto& [v, p] = r.hops[r.offset[i] + h];
      out[start + h].push_back({msg, v, p});
    }
  };
  auto step_fits = [&](const StepRoutes& r, std::size_t start) {
    for (std::size_t i = 0; i < ix(n); ++i)
      if (!fits(r, i, start)) return false;
    return true;
  };
  auto place_step = [&](int x, std::size_t start) {
    for (std::size_t i = 0; i < ix(n); ++i) place(all[ix(x)], i, start);
    res.injection_step[ix(x)] = static_cast<int>(start);
  };
  // A step whose own messages collide cannot start as a whole: message by message.
  auto place_split = [&](int x) {
    ++res.split_steps;
    int first = -1;
    for (std::size_t i = 0; i < ix(n); ++i) {
      std::size_t start = 0;
      while (!fits(all[ix(x)], i, start)) ++start;
      place(all[ix(x)], i, start);
      first = first < 0 ? static_cast<int>(start) : std::min(first, static_cast<int>(start));
    }
    res.injection_step[ix(x)] = first;
  };

  if (order == MetacubeOrder::Paper) {
    for (int x = 0; x < steps; ++x) {
      if (all[ix(x)].self_conflict) {
        place_split(x);
        continue;
      }
      std::size_t start = 0;
      while (!step_fits(all[ix(x)], start)) ++start;
      place_step(x, start);
    }
  } else {
    std::vector<int> pending;
    for (int x = 0; x < steps; ++x) {
      if (all[ix(x)].self_conflict)
        place_split(x);
      else
        pending.push_back(x);
    }
    for (std::size_t start = 0; !pending.empty(); ++start) {
      for (std::size_t j = 0; j < pending.size(); ++j) {
        if (!step_fits(all[ix(pending[j])], start)) continue;
        place_step(pending[j], start);
        pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(j));
        break;
      }
    }
  }
  return res;
}

Schedule metacube_schedule(const Topology& t, MetacubeOrder order) {
  return metacube_schedule_detailed(t, order).schedule;
}

}  // namespace totex
