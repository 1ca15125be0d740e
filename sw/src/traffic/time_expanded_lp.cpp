// SPDX-License-Identifier: Apache-2.0
// The time-expanded congestion LP of a one-shot schedule of T steps (nic and all-port: no relay
// buffers), solved with COIN-OR CLP and certified from its dual (docs/models.md, "time_expanded").
#include <ClpSimplex.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "totex/error.hpp"
#include "totex/network/distance.hpp"
#include "totex/traffic/traffic_bounds.hpp"
#include "totex/traffic/translations.hpp"
#include "lp_certificate.hpp"

namespace totex {
namespace {

using i64 = std::int64_t;
using lp_detail::i128;
using lp_detail::str128;

/// The look-ups the translation check may take (nodes x pairs).
constexpr i64 kTranslationCheckWork = 50'000'000;
constexpr i64 kUnreached = std::numeric_limits<int>::max();
/// CLP's simplex iterations per LP (torus:16x16 perm:shift:3:4 at 11 steps: 12,064 columns, about
/// 1 s).
constexpr int kMaxIterations = 200000;
constexpr i64 kIterationsPerColumn = 2;

/// Hops from every node to the nearest of `to` along the links (kUnreached: none); `into`: each
/// node's incoming links.
std::vector<i64> hops_to(const Topology& t, const std::vector<std::vector<LinkId>>& into, const std::vector<NodeId>& to) {
  std::vector<i64> d(static_cast<std::size_t>(t.nodes()), kUnreached);
  std::vector<NodeId> queue;
  for (NodeId v : to) d[static_cast<std::size_t>(v)] = 0, queue.push_back(v);
  for (std::size_t i = 0; i < queue.size(); ++i)
    for (LinkId l : into[static_cast<std::size_t>(queue[i])]) {
      const NodeId w = t.link_source(l);
      if (d[static_cast<std::size_t>(w)] != kUnreached) continue;
      d[static_cast<std::size_t>(w)] = d[static_cast<std::size_t>(queue[i])] + 1;
      queue.push_back(w);
    }
  return d;
}

}  // namespace

TimeExpandedLp time_expanded_lp(const Topology& t, Model m, const Traffic& tr, std::int64_t steps, std::int64_t max_columns) {
  TimeExpandedLp out;
  out.steps = steps;
  if (m == Model::SinglePort) {
    out.why_not = "single-port relays may buffer";
    return out;
  }
  const int n = t.nodes();
  const int L = t.links();
  const i64 T = steps;
  const bool nic = m == Model::Nic;
  // One commodity per source orbit of the translations that keep the traffic (as congestion_lp):
  // averaging a solution over them gives one they keep, so the reduced LP is as feasible.
  const Translations sym = traffic_translations(t, tr, kTranslationCheckWork);
  out.translations = static_cast<i64>(sym.order());
  const auto G = static_cast<double>(sym.order());
  // Columns of a source s: x(l, step) for a step a flit from s can be on l and still arrive by
  // step T-1 (dist(s, tail) <= step, step + 1 + dist(head, a destination) <= T), the injections
  // inj(step) (nic; all-port: free, the flow leaves s as it likes), the arrivals a(d, step)
  // (dist(s, d) - 1 <= step <= T - 1).
  struct Commodity {
    NodeId s;
    std::vector<NodeId> dests;
    std::vector<int> from_s;   // hops from s (-1: unreached)
    std::vector<i64> to_dest;  // hops to the nearest destination
  };
  // The steps lo..hi in which c's flow can be on link l (none when hi < lo).
  const auto window = [&](const Commodity& c, LinkId l) -> std::pair<i64, i64> {
    const int lo = c.from_s[static_cast<std::size_t>(t.link_source(l))];
    if (lo < 0) return {0, -1};
    return {lo, T - 1 - c.to_dest[static_cast<std::size_t>(t.link_target(l))]};
  };
  // The first step in which c's flow can arrive at destination d (T: never).
  const auto first_arrival = [&](const Commodity& c, NodeId d) -> i64 {
    const int h = c.from_s[static_cast<std::size_t>(d)];
    return h < 0 ? T : std::max(0, h - 1);
  };
  std::vector<std::vector<LinkId>> into(static_cast<std::size_t>(n));
  for (LinkId l = 0; l < L; ++l) into[static_cast<std::size_t>(t.link_target(l))].push_back(l);
  std::vector<Commodity> com;
  i64 columns = 1;  // z
  for (NodeId s = 0; s < n; ++s) {
    if (tr.sent(s) == 0 || !sym.leads(s)) continue;
    Commodity c{s, {}, bfs_distances(t, s), {}};
    tr.for_each_in_row(s, [&](NodeId d, i64) { c.dests.push_back(d); });
    c.to_dest = hops_to(t, into, c.dests);
    for (LinkId l = 0; l < L; ++l) {
      const auto [lo, hi] = window(c, l);
      if (hi >= lo) columns += hi - lo + 1;
    }
    columns += T;
    for (NodeId d : c.dests) columns += T - first_arrival(c, d);
    com.push_back(std::move(c));
    if (columns > max_columns) break;
  }
  out.columns = columns;
  if (columns > max_columns) {
    out.why_not = "more than " + std::to_string(max_columns) + " columns";
    return out;
  }
  // Rows: conservation (commodity, node, step 0..T) and demand (commodity, destination), then the
  // capacities: (link orbit, step), and under nic (node orbit, step) for injections and for
  // ejections.
  std::vector<i64> cons_base, demand_base;
  i64 rows = 0;
  for (const Commodity& c : com) {
    cons_base.push_back(rows);
    rows += static_cast<i64>(n) * (T + 1);
    demand_base.push_back(rows);
    rows += static_cast<i64>(c.dests.size());
  }
  const i64 cap = rows;
  const i64 inj_rows = cap + static_cast<i64>(sym.link_orbits) * T;
  const i64 ej_rows = inj_rows + static_cast<i64>(sym.node_orbits) * T;
  rows = nic ? ej_rows + static_cast<i64>(sym.node_orbits) * T : inj_rows;
  if (static_cast<double>(columns) * 4 + static_cast<double>(rows) > 2e9) {
    out.why_not = "beyond CLP's int indices";
    return out;
  }
  const auto cons = [&](std::size_t ci, NodeId v, i64 step) { return cons_base[ci] + static_cast<i64>(v) * (T + 1) + step; };
  std::vector<CoinBigIndex> start;
  std::vector<int> index;
  std::vector<double> value;
  const auto entry = [&](i64 row, double v) {
    index.push_back(static_cast<int>(row));
    value.push_back(v);
  };
  // Conservation of c at (v, step): flow out of v in step `step` = flow into v in step-1, less
  // what arrives there (a), plus (v = s) what is injected in `step`; nothing leaves in step T.
  for (std::size_t ci = 0; ci < com.size(); ++ci) {
    const Commodity& c = com[ci];
    for (LinkId l = 0; l < L; ++l) {
      const auto [lo, hi] = window(c, l);
      for (i64 st = lo; st <= hi; ++st) {
        start.push_back(static_cast<CoinBigIndex>(index.size()));
        entry(cons(ci, t.link_source(l), st), 1.0);
        entry(cons(ci, t.link_target(l), st + 1), -1.0);
        entry(cap + static_cast<i64>(sym.link_orbit[static_cast<std::size_t>(l)]) * T + st, 1.0);
      }
    }
    for (i64 st = 0; st < T; ++st) {  // injections
      start.push_back(static_cast<CoinBigIndex>(index.size()));
      entry(cons(ci, c.s, st), -1.0);
      if (nic) entry(inj_rows + static_cast<i64>(sym.node_orbit[static_cast<std::size_t>(c.s)]) * T + st, 1.0);
    }
    for (std::size_t di = 0; di < c.dests.size(); ++di) {  // arrivals in step st, taken off at st + 1
      const NodeId d = c.dests[di];
      for (i64 st = first_arrival(c, d); st < T; ++st) {
        start.push_back(static_cast<CoinBigIndex>(index.size()));
        entry(cons(ci, d, st + 1), 1.0);
        entry(demand_base[ci] + static_cast<i64>(di), 1.0);
        if (nic) entry(ej_rows + static_cast<i64>(sym.node_orbit[static_cast<std::size_t>(d)]) * T + st, 1.0);
      }
    }
  }
  const i64 z = static_cast<i64>(start.size());
  start.push_back(static_cast<CoinBigIndex>(index.size()));
  for (i64 r = cap; r < rows; ++r) entry(r, -1.0);
  start.push_back(static_cast<CoinBigIndex>(index.size()));
  const i64 cols = z + 1;
  std::vector<double> col_lo(static_cast<std::size_t>(cols), 0.0), col_hi(static_cast<std::size_t>(cols), COIN_DBL_MAX);
  std::vector<double> obj(static_cast<std::size_t>(cols), 0.0);
  obj.back() = 1.0;
  std::vector<double> row_lo(static_cast<std::size_t>(rows), 0.0), row_hi(static_cast<std::size_t>(rows), 0.0);
  for (std::size_t ci = 0; ci < com.size(); ++ci)
    for (std::size_t di = 0; di < com[ci].dests.size(); ++di)
      row_lo[static_cast<std::size_t>(demand_base[ci]) + di] = row_hi[static_cast<std::size_t>(demand_base[ci]) + di] =
          static_cast<double>(tr.flits(com[ci].s, com[ci].dests[di]));
  for (i64 r = cap; r < rows; ++r) row_lo[static_cast<std::size_t>(r)] = -COIN_DBL_MAX;
  ClpSimplex model;
  model.setLogLevel(0);
  model.loadProblem(static_cast<int>(cols), static_cast<int>(rows), start.data(), index.data(), value.data(), col_lo.data(),
                    col_hi.data(), obj.data(), row_lo.data(), row_hi.data());
  start = {};
  index = {};
  value = {};
  // The primal simplex: 0.5 s on mesh:4x4 random:1:0.3:4 at 25 steps, where the barrier took
  // 27 s and the dual 13 s. Stopped at counted iterations, not at a time.
  model.setMaximumIterations(static_cast<int>(std::min<i64>(kMaxIterations, kIterationsPerColumn * cols + 1000)));
  model.primal();
  if (!model.isProvenOptimal()) {
    out.why_not = "CLP did not prove an optimum within " + std::to_string(kMaxIterations) + " iterations (status " +
                  std::to_string(model.status()) + ")";
    return out;
  }
  out.lp_value = model.objectiveValue();
  out.solved = true;
  if (out.lp_value <= 1.0) return out;  // feasible as a fraction: proves nothing
  // Certificate (weak duality): with lengths len >= 0 on the resources (a link in a step; nic: a
  // node's injection and its ejection in a step), a flit's walk from s to d costs at least
  // dist(s, d), the cheapest walk in the time-expanded network (no wait at a relay, injected at
  // s in some step, its last hop by step T-1); so any schedule of T steps, one flit per resource,
  // has sum over flits of dist <= sum of len over every resource. More proves T steps too few.
  // Lengths: the capacity rows' duals scaled to integers; an orbit's row gives its length to
  // each of its |H| resources.
  std::vector<i64> len;
  if (!lp_detail::dual_lengths(model.dualRowSolution(), cap, rows - cap, len)) {
    out.why_not = "CLP returned no usable dual";
    return out;
  }
  i128 denominator = 0;
  for (const i64 x : len) denominator += static_cast<i128>(x) * static_cast<i128>(G);
  const auto link_len = [&](LinkId l, i64 st) { return len[static_cast<std::size_t>(static_cast<i64>(sym.link_orbit[static_cast<std::size_t>(l)]) * T + st)]; };
  const auto inj_len = [&](NodeId v, i64 st) {
    return nic ? len[static_cast<std::size_t>(inj_rows - cap + static_cast<i64>(sym.node_orbit[static_cast<std::size_t>(v)]) * T + st)] : 0;
  };
  const auto ej_len = [&](NodeId v, i64 st) {
    return nic ? len[static_cast<std::size_t>(ej_rows - cap + static_cast<i64>(sym.node_orbit[static_cast<std::size_t>(v)]) * T + st)] : 0;
  };
  // Per source (every one, not one per orbit), the cheapest walks by a dynamic program over the
  // steps: ready[v] (at v, to leave in this step), arrived[v] (came in over a link this step).
  constexpr i64 kInf = std::numeric_limits<i64>::max() / 4;
  i128 numerator = 0;
  std::vector<i64> ready(static_cast<std::size_t>(n)), arrived(static_cast<std::size_t>(n)), best(static_cast<std::size_t>(n));
  for (NodeId s = 0; s < n; ++s) {
    if (tr.sent(s) == 0) continue;
    std::fill(arrived.begin(), arrived.end(), kInf);
    std::fill(best.begin(), best.end(), kInf);
    for (i64 st = 0; st < T; ++st) {
      ready = arrived;  // no wait: a flit that came in last step leaves now or is ejected
      ready[static_cast<std::size_t>(s)] = std::min(ready[static_cast<std::size_t>(s)], inj_len(s, st));
      std::fill(arrived.begin(), arrived.end(), kInf);
      for (LinkId l = 0; l < L; ++l) {
        const i64 r = ready[static_cast<std::size_t>(t.link_source(l))];
        if (r < kInf) arrived[static_cast<std::size_t>(t.link_target(l))] = std::min(arrived[static_cast<std::size_t>(t.link_target(l))], r + link_len(l, st));
      }
      for (NodeId v = 0; v < n; ++v)
        if (arrived[static_cast<std::size_t>(v)] < kInf)
          best[static_cast<std::size_t>(v)] = std::min(best[static_cast<std::size_t>(v)], arrived[static_cast<std::size_t>(v)] + ej_len(v, st));
    }
    bool reachable = true;
    tr.for_each_in_row(s, [&](NodeId d, i64 w) {
      if (best[static_cast<std::size_t>(d)] >= kInf) reachable = false;
      else numerator += static_cast<i128>(w) * best[static_cast<std::size_t>(d)];
    });
    if (!reachable) {  // a destination out of reach in T steps: the distance term already says so
      out.infeasible = true;
      out.certificate = "a destination of node " + std::to_string(s) + " is more than " + std::to_string(T) + " hops away";
      return out;
    }
  }
  if (numerator > denominator) {
    out.infeasible = true;
    out.certificate = str128(numerator) + "/" + str128(denominator);
  }
  return out;
}

}  // namespace totex
