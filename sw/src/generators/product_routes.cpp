// SPDX-License-Identifier: Apache-2.0
#include "product_routes.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <random>

#include "totex/bounds/bounds.hpp"
#include "cnf.hpp"
#include "totex/error.hpp"
#include "route_packing.hpp"
#include "route_sat.hpp"

namespace totex {
namespace {
std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

/// The dynamic program's state space is the product of (count + 1) over the needs; above this a
/// message would take too long to place, so the caller is told (it never happens for the
/// topologies totex accepts: a 16-cube has 2^16 states, a 3D torus of side 64 has 33^3).
constexpr std::int64_t kMaxStates = std::int64_t{1} << 20;

/// Placements (find_word calls) a second of budget buys, measured on the 2-core development
/// machine (8x8 mesh, nic): on messages, and on the orbits of the quarter turns, where each
/// neighbourhood search round scans four times fewer items.
constexpr double kGreedyPlacementsPerSecond = 2.0e6;
constexpr double kOrbitPlacementsPerSecond = 5.0e6;
/// The conflicts a tail SAT call may take per second of budget (route_sat.hpp): about 20000 in
/// auto's share on the 8x8 mesh, where a tail that has a shorter packing gives it in a few
/// thousand; --budget lets the calls go deeper as it lets the searches go further.
constexpr double kTailConflictsPerSecond = 6000;
}  // namespace

std::vector<DimNeed> minimal_needs(const Topology& t, const std::vector<int>& from, const std::vector<int>& to) {
  std::vector<DimNeed> needs;
  for (std::size_t d = 0; d < from.size(); ++d) {
    if (from[d] == to[d]) continue;
    const Factor& f = t.factors()[d];
    const int k = f.size;
    const int off = ((to[d] - from[d]) % k + k) % k;
    DimNeed n;
    n.dim = static_cast<int>(d);
    if (f.kind == FactorKind::Complete || k == 2) {
      n.count = 1;
      n.delta[0] = off;
    } else if (f.kind == FactorKind::Path) {
      n.count = std::abs(to[d] - from[d]);
      n.delta[0] = to[d] > from[d] ? 1 : k - 1;
    } else if (2 * off < k) {
      n.count = off;
      n.delta[0] = 1;
    } else if (2 * off > k) {
      n.count = k - off;
      n.delta[0] = k - 1;
    } else {  // antipodal on an even ring: either way is minimal
      n.count = off;
      n.choices = 2;
      n.delta = {1, k - 1};
    }
    needs.push_back(n);
  }
  return needs;
}

NodeId product_step(const Topology& t, NodeId v, int dim, int delta) {
  std::vector<int> c = t.coordinates(v);
  const int k = t.factors()[at(dim)].size;
  if (t.factors()[at(dim)].kind == FactorKind::Path)
    c[at(dim)] += delta == 1 ? 1 : -1;
  else
    c[at(dim)] = (c[at(dim)] + delta) % k;
  return t.node_at(c);
}

MoveTable::MoveTable(const Topology& t) {
  for (const Factor& f : t.factors()) {
    first_.push_back(classes_);
    classes_ += f.size - 1;  // deltas 1 .. size-1 (rings and paths use 1 and size-1 only)
  }
  const auto n = static_cast<std::size_t>(t.nodes()) * static_cast<std::size_t>(classes_);
  next_.assign(n, -1);
  link_.assign(n, -1);
  port_.assign(n, -1);
  for (NodeId v = 0; v < t.nodes(); ++v) {
    const std::vector<int> c = t.coordinates(v);
    for (std::size_t d = 0; d < c.size(); ++d) {
      const Factor& f = t.factors()[d];
      for (int delta = 1; delta < f.size; ++delta) {
        std::vector<int> to = c;
        if (f.kind == FactorKind::Path) {
          if (delta != 1 && delta != f.size - 1) continue;
          to[d] += delta == 1 ? 1 : -1;
          if (f.size == 2) to[d] = 1 - c[d];
          if (to[d] < 0 || to[d] >= f.size) continue;
        } else {
          if (f.kind == FactorKind::Ring && delta != 1 && delta != f.size - 1) continue;
          to[d] = (c[d] + delta) % f.size;
        }
        const NodeId w = t.node_at(to);
        const auto p = t.port_to(v, w);
        if (!p) continue;
        const std::size_t i = index(v, move_class(static_cast<int>(d), delta));
        next_[i] = w;
        port_[i] = *p;
        link_[i] = t.link_id(v, *p);
      }
    }
  }
}

bool find_word(const MoveTable& moves, NodeId src, const std::vector<DimNeed>& needs, std::int64_t start,
               const MoveFree& is_free, Word& out) {
  const std::size_t nk = needs.size();
  // Scratch reused across calls (a greedy pass makes millions of them; allocating it was 15 % of
  // a 16x16 mesh's first pass).
  thread_local std::vector<std::int64_t> stride;
  stride.assign(nk + 1, 1);
  for (std::size_t k = 0; k < nk; ++k) stride[k + 1] = stride[k] * (needs[k].count + 1);
  const std::int64_t states = stride[nk];
  if (states > kMaxStates) throw UsageError("route search: " + std::to_string(states) + " interleavings states exceed the limit");
  std::size_t choice_sets = 1;
  thread_local std::vector<std::size_t> choosers;
  choosers.clear();
  for (std::size_t k = 0; k < nk; ++k)
    if (needs[k].choices == 2) {
      choosers.push_back(k);
      choice_sets *= 2;
    }
  thread_local std::vector<signed char> parent;
  thread_local std::vector<NodeId> node;
  thread_local std::vector<int> layer, delta;
  parent.resize(at(states));
  node.resize(at(states));
  layer.resize(at(states));
  delta.resize(nk);
  for (std::size_t mask = 0; mask < choice_sets; ++mask) {
    for (std::size_t k = 0; k < nk; ++k) delta[k] = needs[k].delta[0];
    for (std::size_t i = 0; i < choosers.size(); ++i) delta[choosers[i]] = needs[choosers[i]].delta[(mask >> i) & 1];
    std::fill(parent.begin(), parent.end(), static_cast<signed char>(-1));
    parent[0] = static_cast<signed char>(nk);  // the start state is reached
    node[0] = src;
    layer[0] = 0;
    // A move adds a stride, so increasing index order visits a state after all its predecessors.
    for (std::int64_t s = 0; s + 1 < states; ++s) {
      if (parent[at(s)] < 0) continue;
      for (std::size_t k = 0; k < nk; ++k) {
        if ((s / stride[k]) % (needs[k].count + 1) == needs[k].count) continue;
        const std::int64_t next = s + stride[k];
        if (parent[at(next)] >= 0) continue;
        if (!is_free(start + layer[at(s)], node[at(s)], needs[k].dim, delta[k])) continue;
        parent[at(next)] = static_cast<signed char>(k);
        node[at(next)] = moves.next(node[at(s)], moves.move_class(needs[k].dim, delta[k]));
        layer[at(next)] = layer[at(s)] + 1;
      }
    }
    if (parent[at(states - 1)] < 0) continue;
    out.moves.assign(at(layer[at(states - 1)]), {0, 0});
    for (std::int64_t s = states - 1; s > 0;) {
      const auto k = static_cast<std::size_t>(parent[at(s)]);
      s -= stride[k];
      out.moves[at(layer[at(s)])] = {needs[k].dim, delta[k]};
    }
    return true;
  }
  return false;
}

Schedule flexible_greedy_schedule(const Topology& t, Model m, double budget_seconds, std::string algorithm,
                                  std::uint64_t seed, const NodeSymmetry& group, std::vector<std::string>* log) {
  if (!t.is_product()) throw UsageError("--algo " + algorithm + " needs a cartesian product topology, not " + t.spec());
  if (m == Model::SinglePort) throw UsageError("--algo " + algorithm + " schedules all-port and nic, not single-port");
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  const std::int64_t n = t.nodes();
  const MoveTable moves(t);
  const NodeSymmetry g = group.empty() ? no_symmetry(t) : group;
  const SymmetryOrbits orbits(t, g);
  std::vector<std::vector<int>> coords(at(n));
  for (NodeId v = 0; v < n; ++v) coords[at(v)] = t.coordinates(v);
  std::vector<RouteItem> items;
  for (NodeId s : t.processors())
    for (NodeId d : t.processors()) {
      if (s == d) continue;
      // One item per orbit of messages: the message that is the smallest of its images; it is
      // placed with its images in the same step on the images of its route.
      const bool smallest = std::all_of(g.begin() + 1, g.end(), [&](const std::vector<NodeId>& e) {
        return std::pair(s, d) < std::pair(e[at(s)], e[at(d)]);
      });
      if (!smallest) continue;
      RouteItem it;
      it.src = s;
      it.dst = d;
      it.needs = minimal_needs(t, coords[at(s)], coords[at(d)]);
      for (const DimNeed& nd : it.needs) it.hops += nd.count;
      it.inject = orbits.node[at(s)];
      it.eject = orbits.node[at(d)];
      items.push_back(std::move(it));
    }
  // Every move uses its directed link (a move off a path's end never occurs in a minimal route).
  std::vector<int> resource(at(n) * at(moves.classes()));
  for (NodeId v = 0; v < n; ++v)
    for (int cls = 0; cls < moves.classes(); ++cls)
      resource[at(v) * at(moves.classes()) + at(cls)] = orbits.link[at(std::max<LinkId>(0, moves.link(v, cls)))];
  RoutePacking packing(moves, m, std::move(resource), orbits.links, orbits.nodes);
  // Work-limited (the same schedule on every machine); the clock is only a safety stop.
  const bool symmetric = g.size() > 1;
  const double rate = symmetric ? kOrbitPlacementsPerSecond : kGreedyPlacementsPerSecond;
  const std::int64_t placements = static_cast<std::int64_t>(std::max(0.0, budget_seconds) * rate);
  const auto safety_end = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(safety_stop_seconds(budget_seconds)));
  bool stopped_by_clock = false;  // the safety stop fired: the schedule then depends on the machine
  const std::function<bool()> out_of_time = [&] {
    return stopped_by_clock = stopped_by_clock || Clock::now() >= safety_end;
  };
  const std::int64_t bound = lower_bound(t, m).steps;  // nothing to gain below it
  std::mt19937_64 rng(seed);
  std::vector<std::size_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return items[a].hops > items[b].hops; });
  std::int64_t work = 0;
  // The first pass always runs whole; a quarter of the work then goes to the order, the rest to
  // the neighbourhood search.
  (void)order_search(packing, items, order, bound, placements / 4, work, rng, out_of_time);
  std::vector<RouteItem> best = items;
  (void)lns_improve(packing, items, best, bound, placements, work, rng, out_of_time);
  if (log != nullptr)
    log->push_back("search: " + std::to_string(packed_makespan(best)) + " steps (" + std::to_string(work) + " placements" +
                   (stopped_by_clock ? ", stopped by the wall-clock safety cap before its work ran out (a machine-dependent result)"
                                     : "") +
                   ")");
  // On the orbit model, SAT on the schedule's tail (route_sat.hpp), with as much work again. The
  // search's current packing is as short as its best and tighter at the end (fewer items in the
  // last step), the better start. Not on the message model: its tail models are |group| times
  // larger, and on path:5*path:5, path:7*path:7 and path:8*path:8 nic they found nothing.
  if (symmetric && packed_makespan(best) > bound) {
    if (packed_makespan(items) == packed_makespan(best)) best = items;
    std::int64_t sat_work = static_cast<std::int64_t>(std::max(0.0, budget_seconds) * kConflictClausesPerSecond);
    const auto conflicts = static_cast<std::int64_t>(std::max(0.0, budget_seconds) * kTailConflictsPerSecond);
    for (const std::string& line : tail_sat_improve(packing, best, bound, conflicts, sat_work, safety_end))
      if (log != nullptr) log->push_back("tail sat: " + line);
  }

  Schedule s{t.spec(), m, std::move(algorithm), {}};
  s.steps.resize(at(packed_makespan(best)));
  for (const RouteItem& it : best)
    for (std::size_t e = 0; e < g.size(); ++e) {
      const Message msg{g[e][at(it.src)], g[e][at(it.dst)]};
      NodeId v = it.src;
      for (std::size_t j = 0; j < it.word.moves.size(); ++j) {
        const int cls = moves.move_class(it.word.moves[j].first, it.word.moves[j].second);
        const LinkId l = orbits.image[e][at(moves.link(v, cls))];
        const NodeId from = t.link_source(l);
        s.steps[at(it.start) + j].push_back({msg, from, l - t.link_id(from, 0)});
        v = moves.next(v, cls);
      }
    }
  return s;
}

}  // namespace totex
