// SPDX-License-Identifier: Apache-2.0
#include "totex/bounds/bounds.hpp"

#include <algorithm>
#include <cmath>

#include "totex/network/distance.hpp"

namespace totex {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

/// A term of the bound. `per_period`: what its argument proves for a periodic schedule, whose
/// messages may wrap into the next period (BoundTerm::per_period; -1: nothing, the argument counts
/// fill, drain or arrival times). docs/models.md, "The periodic bound", derives each.
void add(LowerBound& lb, std::string name, std::int64_t value, std::string detail, std::int64_t per_period,
         std::string per_period_detail = {}) {
  lb.steps = std::max(lb.steps, value);
  lb.terms.push_back({std::move(name), value, std::move(detail), per_period, std::move(per_period_detail)});
}
/// Capacity per step: a resource (a link, a node's send or receive, a NIC port) used once per
/// message, or per hop, at most once per step. Modulo a period each use holds the resource in one
/// slot of P, so the same count bounds the period.
constexpr bool kCapacity = true;
std::int64_t periodic_if(bool capacity, std::int64_t value) { return capacity ? value : -1; }

/// Best cut bound: messages A->B (processors on each side, |P_A||P_B|) over the most that can
/// cross per step. For a partially populated torus and the cut x_j < floor(k/2) this is Lemma 1
/// of paper 004 with Theorem 1's cut, in steps (a link carries one message per step).
void add_cut_bound(LowerBound& lb, const Topology& t, Model m) {
  std::int64_t best = 0;
  std::string best_detail;
  for (const Cut& cut : candidate_cuts(t)) {
    std::int64_t a = 0, pa = 0, pn = 0;  // nodes in A, processors in A, processors
    for (std::size_t v = 0; v < cut.in_a.size(); ++v) {
      const bool proc = t.is_processor(static_cast<NodeId>(v));
      a += cut.in_a[v] ? 1 : 0;
      pa += cut.in_a[v] && proc ? 1 : 0;
      pn += proc ? 1 : 0;
    }
    const std::int64_t b = t.nodes() - a, pb = pn - pa;
    if (pa == 0 || pb == 0) continue;
    std::vector<bool> in_b(cut.in_a.size());
    for (std::size_t i = 0; i < in_b.size(); ++i) in_b[i] = !cut.in_a[i];
    for (const auto& side : {cut.in_a, in_b}) {
      std::int64_t per_step = cut_links(t, side);
      if (per_step == 0) continue;
      if (m == Model::SinglePort) per_step = std::min({per_step, a, b});  // one send/receive per node
      const std::int64_t v = ceil_div(pa * pb, per_step);
      if (v > best) {
        best = v;
        best_detail = "cut " + cut.name + ": " + std::to_string(pa) + "*" + std::to_string(pb) +
                      (t.is_partial() ? " processor" : "") + " messages / " + std::to_string(per_step) + " per step" +
                      (t.is_partial() ? ", Lemma 1 of paper 004" : "");
      }
    }
  }
  // Each crossing holds one of the cut's links in one slot modulo P: capacity.
  if (best > 0) add(lb, "bisection", best, best_detail, periodic_if(kCapacity, best));
}

/// nic, cuts together: the directed links of a set of directional cuts (side A to side B) must
/// carry every message from A to B, sum(C) crossings on sum(L) links. In step 0 a link can only
/// carry a message its tail injects then, and a NIC injects one message per step, so a node that
/// is the tail of k of these links leaves k - 1 of them idle in step 0; in the last step a busy
/// link's message ends at its head, which ejects one per step, so a head of k links leaves k - 1
/// idle. Hence T >= (sum(C) + idle) / sum(L). On a mesh the two middle cuts meet in four centre
/// nodes, each the tail (and head) of a link of both: mesh:8x8 129, not 128.
void add_cut_corner_bound(LowerBound& lb, const Topology& t) {
  if (t.is_partial()) return;
  std::vector<Cut> cuts = candidate_cuts(t);
  const std::int64_t n = t.nodes();
  // Pairs cost a pass over the links each. Past the budget, on a degraded network or a graph (a
  // degraded product's every arc), keep the cuts with the most crossings per link, as many as the
  // budget allows pairs of (the families keep their terms as they were).
  const double most = std::floor(std::sqrt(5e7 / std::max(1.0, static_cast<double>(t.links()))));
  const bool general = t.is_degraded() || (!t.is_product() && !t.is_metacube());
  if (general && static_cast<double>(cuts.size()) > most && most >= 2) {
    std::vector<std::pair<double, std::size_t>> ratio;
    for (std::size_t i = 0; i < cuts.size(); ++i) {
      std::int64_t a = 0;
      for (bool x : cuts[i].in_a) a += x ? 1 : 0;
      std::vector<bool> in_b(cuts[i].in_a.size());
      for (std::size_t v = 0; v < in_b.size(); ++v) in_b[v] = !cuts[i].in_a[v];
      const std::int64_t links = cut_links(t, cuts[i].in_a) + cut_links(t, in_b);
      ratio.emplace_back(links == 0 ? 0.0 : static_cast<double>(2 * a * (n - a)) / static_cast<double>(links), i);
    }
    std::stable_sort(ratio.begin(), ratio.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    std::vector<Cut> kept;
    for (std::size_t i = 0; i < static_cast<std::size_t>(most); ++i) kept.push_back(std::move(cuts[ratio[i].second]));
    cuts = std::move(kept);
  }
  if (cuts.size() < 2 || static_cast<double>(t.links()) * static_cast<double>(cuts.size() * cuts.size()) > 5e7) return;
  std::int64_t best = 0;
  std::string best_detail;
  for (std::size_t i = 0; i < cuts.size(); ++i)
    for (std::size_t j = i + 1; j < cuts.size(); ++j) {
      std::int64_t crossings = 0;
      for (const Cut* cut : {&cuts[i], &cuts[j]}) {
        std::int64_t a = 0;
        for (bool x : cut->in_a) a += x ? 1 : 0;
        crossings += 2 * a * (n - a);  // both directions
      }
      const CutPairCapacity cap = cut_pair_capacity(t, cuts[i], cuts[j]);
      const auto [links, idle] = std::make_pair(cap.links, cap.idle);
      if (links == 0) continue;
      const std::int64_t value = cut_corner_steps(crossings, cap);
      if (value > best) {
        best = value;
        best_detail = "cuts " + cuts[i].name + " and " + cuts[j].name + ", both directions: (" + std::to_string(crossings) +
                      " crossings + " + std::to_string(idle) + " link-steps idle in the first and last step) / " +
                      std::to_string(links) + " links (a NIC injects and ejects one message per step)" +
                      (value * links < crossings + idle ? "; one step could carry them" : "");
      }
    }
  // The idle link-steps are in the first and the last step: no such steps modulo a period.
  if (best > 0) add(lb, "cut_corners", best, best_detail, -1);
}


/// A cut vertex v relays every message between processors in different components of G - v,
/// besides its own |P|-1 when it is a processor: under single-port it sends (and receives) them one
/// per step, otherwise over deg(v) links. (Degraded networks and graphs may have cut vertices,
/// placed or not; a failed node is a component of its own without processors.)
void add_relay_bound(LowerBound& lb, const Topology& t, Model m) {
  std::int64_t best = 0;
  std::string best_detail;
  std::vector<int> component(static_cast<std::size_t>(t.nodes()));
  const std::int64_t procs = t.processor_count();
  for (NodeId v : cut_vertices(t)) {
    std::fill(component.begin(), component.end(), -1);
    component[static_cast<std::size_t>(v)] = 0;
    std::int64_t sum_sq = 0;
    for (NodeId start = 0; start < t.nodes(); ++start) {
      if (component[static_cast<std::size_t>(start)] >= 0) continue;
      std::vector<NodeId> queue{start};
      component[static_cast<std::size_t>(start)] = 1;
      std::int64_t in_component = 0;  // processors
      for (std::size_t head = 0; head < queue.size(); ++head) {
        in_component += t.is_processor(queue[head]) ? 1 : 0;
        for (Port p = 0; p < t.degree(queue[head]); ++p) {
          const NodeId w = t.neighbor(queue[head], p);
          if (component[static_cast<std::size_t>(w)] < 0) {
            component[static_cast<std::size_t>(w)] = 1;
            queue.push_back(w);
          }
        }
      }
      sum_sq += in_component * in_component;
    }
    const std::int64_t own = t.is_processor(v) ? procs - 1 : 0;
    const std::int64_t others = procs - (t.is_processor(v) ? 1 : 0);
    const std::int64_t through = others * others - sum_sq;  // ordered processor pairs in different components
    if (through == 0) continue;
    const std::int64_t per_step = m == Model::SinglePort ? 1 : t.degree(v);
    const std::int64_t value = ceil_div(own + through, per_step);
    if (value > best) {
      best = value;
      best_detail = "cut vertex " + std::to_string(v) + " sends " + (own > 0 ? std::string(t.is_partial() ? "|P|-1" : "N-1") + " + " : "") +
                    std::to_string(through) + " relayed messages, " + std::to_string(per_step) + " per step";
    }
  }
  // The count holds modulo a period too (each relay is one of v's sends), but the periodic bound
  // does not keep it (docs/models.md).
  if (best > 0) add(lb, "relay", best, best_detail, -1);
}

/// nic: a NIC ejects one message per step and a message from distance h arrives no earlier than
/// step h-1; placing each processor's |P|-1 arrivals in distinct steps, nearest first, gives the
/// earliest its last one can arrive (at least |P|-1 steps, more when many sources are far).
void add_nic_ejection_bound(LowerBound& lb, const Topology& t) {
  std::int64_t best = 0;
  NodeId at = -1;
  for (NodeId q : t.processors()) {
    const std::vector<int> dist = bfs_distances(t, q);  // undirected: distance to q = from q
    std::vector<int> release;
    for (NodeId p : t.processors())
      if (p != q) release.push_back(dist[static_cast<std::size_t>(p)] - 1);
    std::sort(release.begin(), release.end());
    std::int64_t last = -1;
    for (int r : release) last = std::max<std::int64_t>(r, last + 1);
    if (last + 1 > best) {
      best = last + 1;
      at = q;
    }
  }
  // Modulo a period the arrival times do not hold (a message injected late in a period arrives in
  // the next, in a low slot): only the |P|-1 ejections in distinct slots remain (torus:4x4@linear:
  // 4 one-shot, period 3).
  add(lb, "nic_ejection", best,
      "each NIC ejects |P|-1 = " + std::to_string(t.processor_count() - 1) +
          " messages, one per step, a message from h hops away not before step h-1 (processor " + std::to_string(at) + ")",
      t.processor_count() - 1,
      "each NIC ejects |P|-1 = " + std::to_string(t.processor_count() - 1) +
          " messages in distinct slots (the one-shot arrival times do not hold when a message may wrap)");
}

/// nic pipeline terms, for p processors exchanging M = p(p-1) messages over S hops in all.
/// A message of h hops injected in step i is delivered in step i + h - 1 (no relay buffering).
/// nic_pipeline: each processor injects in distinct steps (so its injection steps sum to at least
///   0+1+..+(p-2)) and ejects in distinct steps (at most (T-1)+..+(T-p+1)); summing
///   delivery - injection = h - 1 over all messages gives S - M <= M(T-1) - M(p-2), that is
///   T >= p - 2 + S/M (p - 2 plus the average distance).
/// link_fill: in step c the messages in flight were injected in steps 0..c and are delivered in
///   steps c..T-1, at most p per step, and each crosses exactly one link; so at most
///   min(L, p(c+1), p(T-c)) links are busy in step c, and these must add up to S.
void add_nic_pipeline_bounds(LowerBound& lb, const Topology& t, std::int64_t s) {
  const std::int64_t p = t.processor_count();
  const std::int64_t m = p * (p - 1);
  const std::int64_t links = t.links();
  if (m == 0) return;
  // Counts the first and the last steps (fill and drain): not modulo a period.
  add(lb, "nic_pipeline", p - 2 + ceil_div(s, m),
      "T >= |P|-2 + S/M = " + std::to_string(p - 2) + " + " + std::to_string(s) + "/" + std::to_string(m) +
          ": injections and ejections of a NIC take distinct steps and a message spends h-1 steps between them",
      -1);
  auto capacity = [&](std::int64_t steps) {  // most link crossings T steps can hold
    std::int64_t sum = 0;
    for (std::int64_t c = 0; c < steps && sum < s; ++c) sum += std::min({links, p * (c + 1), p * (steps - c)});
    return sum;
  };
  std::int64_t steps = ceil_div(s, links);
  while (capacity(steps) < s) ++steps;
  add(lb, "link_fill", steps,
      "sum over steps c of min(links, |P|(c+1), |P|(T-c)) >= S = " + std::to_string(s) +
          ": only messages injected by step c and delivered from step c on can be on a link in step c",
      -1);
}

/// Partially populated networks: |P| processors exchange over all N routers and all links.
/// Every term counts processors' messages; the cut term is paper 004's Lemma 1 (in steps).
/// (Placed tori have no cut vertex; degraded networks with failed nodes may, hence the relay term.)
LowerBound partial_lower_bound(const Topology& t, Model m) {
  LowerBound lb;
  const std::int64_t np = t.processor_count();
  const std::int64_t sp = processor_status(t);
  const std::string sp_text = "S_P=" + std::to_string(sp) + " hops between processors";
  switch (m) {
    case Model::SinglePort: {
      // Each of the N nodes (relays included) sends at most one message per step; a failed node
      // (no link left) sends none.
      std::int64_t live = 0;
      for (NodeId v = 0; v < t.nodes(); ++v) live += t.degree(v) > 0 ? 1 : 0;
      add(lb, "average_status", ceil_div(sp, live),
          sp_text + ", S_P/N = " + std::to_string(sp) + "/" + std::to_string(live) + " nodes" +
              (live < t.nodes() ? " with links" : ""),
          periodic_if(kCapacity, ceil_div(sp, live)));
      add(lb, "injection", np - 1, "each processor sends |P|-1 messages, one per step", periodic_if(kCapacity, np - 1));
      break;
    }
    case Model::AllPort:
    case Model::Nic: {
      add(lb, "link_traversals", ceil_div(sp, t.links()),
          sp_text + ", S_P/links = " + std::to_string(sp) + "/" + std::to_string(t.links()) + " directed links",
          periodic_if(kCapacity, ceil_div(sp, t.links())));
      int min_degree = t.degree(t.processors().front());
      for (NodeId v : t.processors()) min_degree = std::min(min_degree, t.degree(v));
      add(lb, "injection", ceil_div(np - 1, min_degree),
          "(|P|-1)/min degree = " + std::to_string(np - 1) + "/" + std::to_string(min_degree) +
              " (Lemma 1 with |S| = 1)",
          periodic_if(kCapacity, ceil_div(np - 1, min_degree)));
      if (m == Model::Nic) {
        add_nic_ejection_bound(lb, t);
        add_nic_pipeline_bounds(lb, t, sp);
      }
      break;
    }
  }
  // A message crosses at most one link per step: among sparse processors this can be the largest
  // term (e.g. all-port torus:8x8@linear, whose processors are up to 8 hops apart).
  int far = 0;
  for (NodeId q : t.processors()) {
    const std::vector<int> dist = bfs_distances(t, q);
    for (NodeId p : t.processors()) far = std::max(far, dist[static_cast<std::size_t>(p)]);
  }
  // A period may be shorter than a message's route (it wraps): not a periodic bound.
  add(lb, "distance", far, "the farthest two processors are " + std::to_string(far) + " hops apart, one hop per step",
      -1);
  add_cut_bound(lb, t, m);
  add_relay_bound(lb, t, m);
  return lb;
}

}  // namespace

// Iterative Tarjan: the relay bound costs O(V+E) plus one BFS per cut vertex.
std::vector<NodeId> cut_vertices(const Topology& t) {
  const auto n = static_cast<std::size_t>(t.nodes());
  std::vector<int> order(n, -1), low(n, 0);
  std::vector<NodeId> parent(n, -1);
  std::vector<bool> is_cut(n, false);
  int counter = 0;
  for (NodeId root = 0; root < t.nodes(); ++root) {
    if (order[static_cast<std::size_t>(root)] >= 0) continue;
    int root_children = 0;
    std::vector<std::pair<NodeId, Port>> stack{{root, 0}};
    order[static_cast<std::size_t>(root)] = low[static_cast<std::size_t>(root)] = counter++;
    while (!stack.empty()) {
      auto& [v, p] = stack.back();
      const auto vi = static_cast<std::size_t>(v);
      if (p < t.degree(v)) {
        const NodeId w = t.neighbor(v, p++);
        const auto wi = static_cast<std::size_t>(w);
        if (order[wi] < 0) {
          parent[wi] = v;
          order[wi] = low[wi] = counter++;
          if (v == root) ++root_children;
          stack.emplace_back(w, 0);
        } else if (w != parent[vi]) {
          low[vi] = std::min(low[vi], order[wi]);
        }
        continue;
      }
      const NodeId done = v;
      stack.pop_back();
      if (stack.empty()) break;
      const auto u = static_cast<std::size_t>(stack.back().first);
      const auto di = static_cast<std::size_t>(done);
      low[u] = std::min(low[u], low[di]);
      if (stack.back().first != root && low[di] >= order[u]) is_cut[u] = true;
    }
    if (root_children > 1) is_cut[static_cast<std::size_t>(root)] = true;
  }
  std::vector<NodeId> cuts;
  for (std::size_t v = 0; v < n; ++v)
    if (is_cut[v]) cuts.push_back(static_cast<NodeId>(v));
  return cuts;
}

CutPairCapacity cut_pair_capacity(const Topology& t, const Cut& a, const Cut& b) {
  CutPairCapacity c;
  std::vector<int> out(static_cast<std::size_t>(t.nodes()), 0), in(static_cast<std::size_t>(t.nodes()), 0);
  for (const Cut* cut : {&a, &b})
    for (NodeId v = 0; v < t.nodes(); ++v)
      for (Port p = 0; p < t.degree(v); ++p) {
        const NodeId w = t.neighbor(v, p);
        if (cut->in_a[static_cast<std::size_t>(v)] == cut->in_a[static_cast<std::size_t>(w)]) continue;
        ++c.links;
        ++out[static_cast<std::size_t>(v)];
        ++in[static_cast<std::size_t>(w)];
      }
  for (std::size_t v = 0; v < out.size(); ++v) {
    c.idle_first += std::max(0, out[v] - 1);
    c.idle_last += std::max(0, in[v] - 1);
  }
  c.idle = c.idle_first + c.idle_last;
  return c;
}

std::int64_t cut_corner_steps(std::int64_t crossings, const CutPairCapacity& c) {
  if (c.links == 0) return 0;
  if (crossings + std::max(c.idle_first, c.idle_last) <= c.links) return crossings > 0 ? 1 : 0;
  return ceil_div(crossings + c.idle, c.links);
}

std::vector<Cut> candidate_cuts(const Topology& t) {
  std::vector<Cut> cuts;
  const auto n = static_cast<std::size_t>(t.nodes());
  // Any partition of the nodes is a valid cut: its links are counted on t itself (cut_links,
  // cut_pair_capacity), so a degraded product keeps its base's dimension cuts, with the surviving
  // links only. There the failures break the symmetry, so every arc of a ring (every prefix of a
  // path, every arc of a complete factor's coordinates) is tried, up to kArcs per dimension.
  const Topology& shape = t.base() != nullptr ? *t.base() : t;
  if (shape.is_product()) {
    constexpr int kArcs = 32;
    std::vector<std::vector<int>> coords(n);
    for (NodeId v = 0; v < t.nodes(); ++v) coords[static_cast<std::size_t>(v)] = shape.coordinates(v);
    for (std::size_t d = 0; d < shape.factors().size(); ++d) {
      const Factor& f = shape.factors()[d];
      const int k = f.size, half = k / 2;
      const auto add_cut = [&](std::string name, const auto& in_a) {
        Cut c{std::move(name), std::vector<bool>(n)};
        for (std::size_t v = 0; v < n; ++v) c.in_a[v] = in_a(coords[v][d]);
        cuts.push_back(std::move(c));
      };
      const std::string dim = "d" + std::to_string(d);
      if (!t.is_degraded() || k == 2) {
        add_cut(dim + "<" + std::to_string(half), [&](int x) { return x < half; });
      } else if (f.kind == FactorKind::Path) {  // every prefix [0, j)
        const int step = std::max(1, (k - 1 + kArcs - 1) / kArcs);
        for (int j = 1; j < k; j += step) add_cut(dim + "<" + std::to_string(j), [j](int x) { return x < j; });
      } else {  // arcs [s, s + half) of the cycle; with k even, s and s + half give the same cut
        const int starts = k % 2 == 0 ? half : k;
        const int step = std::max(1, (starts + kArcs - 1) / kArcs);
        for (int s0 = 0; s0 < starts; s0 += step)
          add_cut(dim + " in [" + std::to_string(s0) + "," + std::to_string(s0 + half) + ") mod " + std::to_string(k),
                  [s0, half, k](int x) { return ((x - s0) % k + k) % k < half; });
      }
    }
  } else {
    for (int bit = 0; (1 << bit) < t.nodes(); ++bit) {
      Cut c{"bit" + std::to_string(bit) + "=0", std::vector<bool>(n)};
      for (NodeId v = 0; v < t.nodes(); ++v) c.in_a[static_cast<std::size_t>(v)] = ((v >> bit) & 1) == 0;
      cuts.push_back(std::move(c));
    }
    // A general graph (graph:FILE, a degraded metacube): the balls around the ends of a longest
    // shortest path found from node 0, every radius (cuts across the graph's length).
    if (!shape.is_metacube()) {
      NodeId from = t.processors().front();
      for (int round = 0; round < 2; ++round) {
        const std::vector<int> dist = bfs_distances(t, from);
        const auto far = std::max_element(dist.begin(), dist.end());
        if (round == 0) {
          from = static_cast<NodeId>(far - dist.begin());
          continue;
        }
        for (int r = 0; r < *far && r < 64; ++r) {
          Cut c{"ball(" + std::to_string(from) + "," + std::to_string(r) + ")", std::vector<bool>(n)};
          for (std::size_t v = 0; v < n; ++v) c.in_a[v] = dist[v] >= 0 && dist[v] <= r;
          cuts.push_back(std::move(c));
        }
      }
    }
  }
  return cuts;
}

std::int64_t cut_links(const Topology& t, const std::vector<bool>& in_a) {
  std::int64_t c = 0;
  for (NodeId v = 0; v < t.nodes(); ++v) {
    if (!in_a[static_cast<std::size_t>(v)]) continue;
    for (Port p = 0; p < t.degree(v); ++p) c += in_a[static_cast<std::size_t>(t.neighbor(v, p))] ? 0 : 1;
  }
  return c;
}

LowerBound lower_bound(const Topology& t, Model m) {
  t.require_two_way("the all lower bounds");
  if (t.is_partial()) return partial_lower_bound(t, m);
  LowerBound lb;
  const std::int64_t n = t.nodes();
  const std::int64_t sg = total_status(t);
  const std::string sg_text = "S_G=" + std::to_string(sg);
  switch (m) {
    case Model::SinglePort:
      add(lb, "average_status", ceil_div(sg, n), sg_text + ", AS(G) = S_G/N = " + std::to_string(sg) + "/" + std::to_string(n),
          periodic_if(kCapacity, ceil_div(sg, n)));
      break;
    case Model::AllPort:
    case Model::Nic: {
      const std::string what = t.is_vertex_transitive() ? "status/degree" : "S_G/links";
      add(lb, "link_traversals", ceil_div(sg, t.links()),
          sg_text + ", " + what + " = " + std::to_string(sg) + "/" + std::to_string(t.links()) + " directed links",
          periodic_if(kCapacity, ceil_div(sg, t.links())));
      int min_degree = t.degree(0);
      for (NodeId v = 1; v < t.nodes(); ++v) min_degree = std::min(min_degree, t.degree(v));
      add(lb, "injection", ceil_div(n - 1, min_degree),
          "(N-1)/min degree = " + std::to_string(n - 1) + "/" + std::to_string(min_degree),
          periodic_if(kCapacity, ceil_div(n - 1, min_degree)));
      if (m == Model::Nic) {
        add(lb, "nic_ejection", n - 1, "each NIC ejects N-1 messages, one per step", periodic_if(kCapacity, n - 1));
        add_nic_pipeline_bounds(lb, t, sg);
        add_cut_corner_bound(lb, t);
      }
      break;
    }
  }
  add_cut_bound(lb, t, m);
  if (!t.is_vertex_transitive()) add_relay_bound(lb, t, m);  // connected vertex-transitive graphs have no cut vertex
  return lb;
}

LowerBound periodic_lower_bound(const LowerBound& one_shot) {
  LowerBound lb;
  for (const BoundTerm& term : one_shot.terms)
    if (term.per_period >= 0)
      add(lb, term.name, term.per_period, term.per_period_detail.empty() ? term.detail : term.per_period_detail,
          term.per_period);
  return lb;
}

LowerBound lower_bound(const MinNetwork& net) {
  LowerBound lb;
  lb.steps = net.terminals() + net.stages() - 1;
  // An output receives one message per configuration, modulo a period too; the pipeline's cycles
  // are fill and drain.
  lb.terms.push_back({"configurations", net.terminals(),
                      "each output receives N messages (self slot included), one per configuration", net.terminals(), {}});
  lb.terms.push_back({"pipeline", net.stages() - 1, "log_d N - 1 pipeline cycles", -1, {}});
  return lb;
}

}  // namespace totex
