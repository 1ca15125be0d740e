// SPDX-License-Identifier: Apache-2.0
// The min-congestion multicommodity-flow LP, one commodity per source, solved with COIN-OR CLP and
// certified from its dual (docs/traffic.md, "congestion_lp").
#include <ClpSimplex.hpp>

#include <ClpSolve.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <set>

#include "totex/error.hpp"
#include "totex/network/distance.hpp"
#include "totex/traffic/traffic_bounds.hpp"
#include "totex/traffic/translations.hpp"
#include "lp_certificate.hpp"

namespace totex {
namespace {

using i64 = std::int64_t;

/// The look-ups the translation check may take (nodes x pairs).
constexpr i64 kTranslationCheckWork = 50'000'000;
/// The path form's column-generation rounds at most, and CLP's simplex iterations in each (counted
/// work: the same bound on every machine; torus:16x16 perm:bitrev, 240 pairs: 4 rounds, about
/// 3 s).
constexpr int kPathRounds = 100;
constexpr int kPathIterations = 50000;
/// The path form's first columns: the paths of this many passes of multiplicative weights, link
/// costs exp(kWarmSteepness x load / mean load).
constexpr int kWarmPasses = 8;
constexpr double kWarmSteepness = 4.0;
/// A path enters the path form when it is shorter than its pair's price by this fraction.
constexpr double kReducedCostTolerance = 1e-9;
using lp_detail::i128;
using lp_detail::str128;

/// Shortest distances from `s` under non-negative link costs (integers for a certificate, doubles
/// for the path form's pricing); `via` (if given) gets each node's last link, -1 where unreached.
template <class Cost>
std::vector<Cost> dijkstra(const Topology& t, NodeId s, const std::vector<Cost>& cost, std::vector<LinkId>* via = nullptr) {
  std::vector<Cost> dist(static_cast<std::size_t>(t.nodes()), std::numeric_limits<Cost>::max());
  if (via != nullptr) via->assign(static_cast<std::size_t>(t.nodes()), -1);
  using Item = std::pair<Cost, NodeId>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
  dist[static_cast<std::size_t>(s)] = 0;
  heap.emplace(Cost{0}, s);
  while (!heap.empty()) {
    const auto [d, v] = heap.top();
    heap.pop();
    if (d != dist[static_cast<std::size_t>(v)]) continue;
    for (Port p = 0; p < t.degree(v); ++p) {
      const LinkId l = t.link_id(v, p);
      const NodeId w = t.neighbor(v, p);
      const Cost nd = d + cost[static_cast<std::size_t>(l)];
      if (nd < dist[static_cast<std::size_t>(w)]) {
        dist[static_cast<std::size_t>(w)] = nd;
        if (via != nullptr) (*via)[static_cast<std::size_t>(w)] = l;
        heap.emplace(nd, w);
      }
    }
  }
  return dist;
}

/// The certificate of integer lengths `len`, one per capacity row in both forms' order (the link
/// orbits, then under single-port the nodes' send orbits and receive orbits), each given to every
/// link (or node) of its orbit: sum w(s,d) dist(s,d) / the lengths' sum, dist with link (u, v)
/// costing its orbit's length (+ u's send and v's receive), computed exactly and rounded up, into
/// out.bound and out.certificate. False (out.why_not) when the lengths sum to nothing.
bool certify(const Topology& t, const Traffic& tr, const Translations& sym, bool node_rows, const std::vector<i64>& len,
             CongestionLp& out) {
  const i64 link_rows = sym.link_orbits, node_orbits = sym.node_orbits;
  i128 denominator = 0;
  for (const i64 x : len) denominator += static_cast<i128>(x) * static_cast<i128>(sym.order());
  if (denominator == 0) {
    out.why_not = "the dual lengths round to zero";
    return false;
  }
  std::vector<i64> cost(static_cast<std::size_t>(t.links()));
  for (LinkId l = 0; l < t.links(); ++l) {
    cost[static_cast<std::size_t>(l)] = len[sym.link_orbit[static_cast<std::size_t>(l)]];
    if (node_rows)
      cost[static_cast<std::size_t>(l)] += len[static_cast<std::size_t>(link_rows) + sym.node_orbit[static_cast<std::size_t>(t.link_source(l))]] +
                                            len[static_cast<std::size_t>(link_rows + node_orbits) + sym.node_orbit[static_cast<std::size_t>(t.link_target(l))]];
  }
  i128 numerator = 0;
  for (NodeId s = 0; s < t.nodes(); ++s) {
    if (tr.sent(s) == 0) continue;
    const std::vector<i64> dist = dijkstra(t, s, cost);
    tr.for_each_in_row(s, [&](NodeId d, i64 w) { numerator += static_cast<i128>(w) * dist[static_cast<std::size_t>(d)]; });
  }
  out.bound = static_cast<i64>((numerator + denominator - 1) / denominator);
  out.certificate = str128(numerator) + "/" + str128(denominator);
  return true;
}

/// The same LP in path form, where the arc form is past its column limit and the traffic has few
/// pairs (a permutation, sparse or degraded traffic; counted from one source per translation
/// orbit): a variable per (pair, path) and z; per pair its paths carry w(s,d), per resource the
/// paths through it at most z. Column generation from the paths of a multiplicative-weights start:
/// each round adds, per pair, the shortest path under the capacity rows' duals where it is shorter
/// than the pair row's dual (a negative reduced cost), until no pair has one (then the master's
/// optimum is z*) or kPathRounds rounds. The certificate is the
/// arc form's, from the last round's duals: any lengths certify, so a round limit can only weaken
/// the bound, never void it.
CongestionLp congestion_lp_paths(const Topology& t, Model m, const Traffic& tr, const Translations& sym, std::int64_t max_pairs,
                                 CongestionLp out) {
  struct Pair {
    NodeId src, dst;
    i64 flits;
  };
  // As the arc form: where translations keep the traffic, the pairs of one source per orbit and
  // a capacity row per orbit of links (a path's coefficient there: its links in the orbit).
  std::vector<Pair> pairs;
  tr.for_each([&](NodeId s, NodeId d, i64 w) {
    if (sym.leads(s)) pairs.push_back({s, d, w});
  });
  const auto K = static_cast<i64>(pairs.size());
  if (K > max_pairs) {
    out.why_not += "; in path form " + std::to_string(K) + " pairs, above the limit of " + std::to_string(max_pairs);
    return out;
  }
  const bool node_rows = m == Model::SinglePort;
  const int n = t.nodes(), links = t.links();
  const i64 link_rows = sym.link_orbits, node_orbits = sym.node_orbits;
  const i64 R = link_rows + (node_rows ? 2 * node_orbits : 0);
  const auto link_row = [&](LinkId l) { return static_cast<i64>(sym.link_orbit[static_cast<std::size_t>(l)]); };
  const auto send_row = [&](LinkId l) { return link_rows + sym.node_orbit[static_cast<std::size_t>(t.link_source(l))]; };
  const auto recv_row = [&](LinkId l) { return link_rows + node_orbits + sym.node_orbit[static_cast<std::size_t>(t.link_target(l))]; };
  const auto resources_of = [&](LinkId l, std::vector<int>& rows) {
    rows.push_back(static_cast<int>(K + link_row(l)));
    if (node_rows) {
      rows.push_back(static_cast<int>(K + send_row(l)));
      rows.push_back(static_cast<int>(K + recv_row(l)));
    }
  };
  ClpSimplex model;
  model.setLogLevel(0);
  {
    // Rows: pair k at k (= w), resource r at K + r (<= 0 with z's -1). Column 0 is z.
    std::vector<double> row_lo(static_cast<std::size_t>(K + R), -COIN_DBL_MAX), row_hi(static_cast<std::size_t>(K + R), 0.0);
    for (i64 k = 0; k < K; ++k) row_lo[static_cast<std::size_t>(k)] = row_hi[static_cast<std::size_t>(k)] = static_cast<double>(pairs[static_cast<std::size_t>(k)].flits);
    std::vector<CoinBigIndex> start{0};
    std::vector<int> index;
    std::vector<double> value;
    for (i64 r = 0; r < R; ++r) {
      index.push_back(static_cast<int>(K + r));
      value.push_back(-1.0);
    }
    start.push_back(static_cast<CoinBigIndex>(index.size()));
    const double lo = 0.0, hi = COIN_DBL_MAX, obj = 1.0;
    model.loadProblem(1, static_cast<int>(K + R), start.data(), index.data(), value.data(), &lo, &hi, &obj, row_lo.data(), row_hi.data());
  }
  // Shortest paths from every source under `cost` (per link), parents in via_of[source].
  std::vector<std::vector<LinkId>> via_of(static_cast<std::size_t>(n));
  std::vector<double> dist;
  const auto shortest_from = [&](NodeId s, const std::vector<double>& cost) { dist = dijkstra(t, s, cost, &via_of[static_cast<std::size_t>(s)]); };
  // The path to pair k's destination that Dijkstra's last run from its source found.
  const auto walk = [&](i64 k, std::vector<LinkId>& path) {
    const Pair& p = pairs[static_cast<std::size_t>(k)];
    const std::vector<LinkId>& via = via_of[static_cast<std::size_t>(p.src)];
    path.clear();
    for (NodeId v = p.dst; v != p.src; v = t.link_source(via[static_cast<std::size_t>(v)])) path.push_back(via[static_cast<std::size_t>(v)]);
  };
  // Adds a column per pair in `add`: its path (walk), a coefficient per row it uses (how often).
  std::vector<int> rows;
  std::vector<LinkId> path;
  const auto add_paths = [&](const std::vector<i64>& add) {
    std::vector<CoinBigIndex> start{0};
    std::vector<int> index;
    std::vector<double> value;
    for (const i64 k : add) {
      walk(k, path);
      rows.assign(1, static_cast<int>(k));
      for (const LinkId l : path) resources_of(l, rows);
      std::sort(rows.begin(), rows.end());
      for (std::size_t i = 0; i < rows.size(); ++i) {
        if (i > 0 && rows[i] == rows[i - 1]) {
          value.back() += 1.0;
          continue;
        }
        index.push_back(rows[i]);
        value.push_back(1.0);
      }
      start.push_back(static_cast<CoinBigIndex>(index.size()));
    }
    const std::vector<double> lo(add.size(), 0.0), hi(add.size(), COIN_DBL_MAX), obj(add.size(), 0.0);
    model.addColumns(static_cast<int>(add.size()), lo.data(), hi.data(), obj.data(), start.data(), index.data(), value.data());
    out.columns += static_cast<i64>(add.size());
  };
  // Round 0: the paths of kWarmPasses passes of multiplicative weights (each source's pairs on
  // their shortest paths under link costs exponential in the load routed so far, the congestion
  // LP's classic approximation), so that column generation starts near the optimum: from one
  // shortest path per pair torus:16x16 perm:bitrev took 106 rounds.
  {
    std::vector<double> load(static_cast<std::size_t>(link_rows), 0.0), warm(static_cast<std::size_t>(links));
    std::vector<std::set<std::vector<LinkId>>> seen(static_cast<std::size_t>(K));
    double routed = 0;
    for (int pass = 0; pass < kWarmPasses; ++pass) {
      std::vector<i64> add;
      i64 k = 0;
      for (NodeId s = 0; s < n; ++s) {
        if (tr.sent(s) == 0) continue;
        // Scaled by exp(-steepness x most / mean), which moves no shortest path: costs in (0, 1],
        // never infinite however a link is loaded (a cost that overflowed would cut it off).
        const double mean = std::max(1.0, routed / static_cast<double>(link_rows));
        const double most = *std::max_element(load.begin(), load.end());
        for (LinkId l = 0; l < links; ++l)
          warm[static_cast<std::size_t>(l)] = std::exp(kWarmSteepness * (load[static_cast<std::size_t>(link_row(l))] - most) / mean);
        shortest_from(s, warm);
        for (; k < K && pairs[static_cast<std::size_t>(k)].src == s; ++k) {
          const Pair& p = pairs[static_cast<std::size_t>(k)];
          if (via_of[static_cast<std::size_t>(s)][static_cast<std::size_t>(p.dst)] < 0) {
            out.why_not += "; in path form: node " + std::to_string(p.dst) + " cannot be reached from node " + std::to_string(s);
            return out;
          }
          walk(k, path);
          for (const LinkId l : path) load[static_cast<std::size_t>(link_row(l))] += static_cast<double>(p.flits);
          routed += static_cast<double>(p.flits) * static_cast<double>(path.size());
          if (seen[static_cast<std::size_t>(k)].insert(path).second) add.push_back(k);
        }
      }
      add_paths(add);
    }
  }
  std::vector<double> duals;
  std::vector<double> cost(static_cast<std::size_t>(links));
  for (out.rounds = 0;; ++out.rounds) {
    model.setMaximumIterations(kPathIterations);
    model.primal();
    if (!model.isProvenOptimal()) {
      out.why_not = "CLP did not prove the path form's round " + std::to_string(out.rounds) + " optimal (status " + std::to_string(model.status()) + ")";
      if (duals.empty()) return out;
      break;  // the last round's duals still certify
    }
    out.lp_value = model.objectiveValue();
    duals.assign(model.dualRowSolution(), model.dualRowSolution() + K + R);
    if (out.rounds == kPathRounds) break;
    for (LinkId l = 0; l < links; ++l) {
      const auto length = [&](i64 r) { return std::max(0.0, -duals[static_cast<std::size_t>(K + r)]); };
      cost[static_cast<std::size_t>(l)] = length(link_row(l)) + (node_rows ? length(send_row(l)) + length(recv_row(l)) : 0.0);
    }
    std::vector<i64> add;
    NodeId from = -1;
    for (i64 k = 0; k < K; ++k) {
      const Pair& p = pairs[static_cast<std::size_t>(k)];
      if (p.src != from) shortest_from(from = p.src, cost);  // Traffic::for_each goes source by source
      const double price = duals[static_cast<std::size_t>(k)];
      if (dist[static_cast<std::size_t>(p.dst)] < price - kReducedCostTolerance * std::max(1.0, std::fabs(price))) add.push_back(k);
    }
    if (add.empty()) {
      out.converged = true;
      break;
    }
    add_paths(add);
  }
  std::vector<i64> len;
  if (!lp_detail::dual_lengths(duals.data(), K, R, len)) {
    out.why_not = "CLP returned no usable dual";
    return out;
  }
  if (!certify(t, tr, sym, node_rows, len, out)) return out;
  out.why_not.clear();
  out.path_form = true;
  out.solved = true;
  return out;
}

}  // namespace

CongestionLp congestion_lp(const Topology& t, Model m, const Traffic& tr, std::int64_t max_columns, bool symmetry, bool flows,
                           std::int64_t max_path_pairs, bool shortest_only) {
  CongestionLp out;
  if (tr.nodes() != t.nodes())
    throw UsageError("traffic '" + printable(tr.spec()) + "' is for " + std::to_string(tr.nodes()) + " nodes, " + t.spec() + " has " +
                     std::to_string(t.nodes()));
  const int n = t.nodes();
  const int links = t.links();
  // The translations that keep the traffic keep the LP, and averaging an optimum over them gives
  // one they keep: flows from one source per orbit, a capacity row per orbit of links (each
  // orbit's load is the sum of its representative flows over the orbit's links).
  const Translations sym = traffic_translations(t, tr, symmetry ? kTranslationCheckWork : -1);
  out.translations = static_cast<i64>(sym.order());
  std::vector<NodeId> sources;
  for (NodeId s = 0; s < n; ++s)
    if (tr.sent(s) > 0 && sym.leads(s)) sources.push_back(s);
  const auto k = static_cast<i64>(sources.size());
  out.columns = k * links + 1;
  if (k == 0) {
    out.why_not = "no traffic";
    return out;
  }
  if (out.columns > max_columns) {
    out.why_not = std::to_string(k) + (out.translations > 1 ? " source orbits (" + std::to_string(out.translations) + " translations)" : " sources") +
                  " x " + std::to_string(links) + " links = " + std::to_string(out.columns - 1) + " flow variables, above the limit of " +
                  std::to_string(max_columns);
    if (flows || shortest_only || max_path_pairs <= 0) return out;
    out.columns = 1;
    return congestion_lp_paths(t, m, tr, sym, max_path_pairs, std::move(out));
  }
  const bool node_rows = m == Model::SinglePort;
  if (static_cast<double>(out.columns) * (node_rows ? 5 : 3) + 2.0 * n > 2e9) {  // CLP indexes with int
    out.why_not = std::to_string(out.columns) + " columns are beyond CLP's int indices";
    return out;
  }
  // Rows: conservation (source i, node v) at i*n+v; link capacity at cap + the link's orbit;
  // single-port: sends of v at send + v's orbit, receives at recv + v's orbit.
  const i64 link_rows = sym.link_orbits, node_orbits = sym.node_orbits;
  const i64 cap = k * n, send = cap + link_rows, recv = send + node_orbits;
  const i64 rows = node_rows ? recv + node_orbits : send;
  const i64 cols = out.columns;
  std::vector<CoinBigIndex> start;
  std::vector<int> index;
  std::vector<double> value;
  start.reserve(static_cast<std::size_t>(cols) + 1);
  const std::size_t per_col = node_rows ? 5 : 3;
  index.reserve(static_cast<std::size_t>(cols) * per_col + static_cast<std::size_t>(rows - cap));
  value.reserve(index.capacity());
  for (i64 i = 0; i < k; ++i)
    for (LinkId l = 0; l < links; ++l) {
      const NodeId u = t.link_source(l), v = t.link_target(l);
      start.push_back(static_cast<CoinBigIndex>(index.size()));
      index.push_back(static_cast<int>(i * n + u));
      value.push_back(1.0);
      index.push_back(static_cast<int>(i * n + v));
      value.push_back(-1.0);
      index.push_back(static_cast<int>(cap + sym.link_orbit[static_cast<std::size_t>(l)]));
      value.push_back(1.0);
      if (node_rows) {
        index.push_back(static_cast<int>(send + sym.node_orbit[static_cast<std::size_t>(u)]));
        value.push_back(1.0);
        index.push_back(static_cast<int>(recv + sym.node_orbit[static_cast<std::size_t>(v)]));
        value.push_back(1.0);
      }
    }
  start.push_back(static_cast<CoinBigIndex>(index.size()));  // z
  for (i64 r = cap; r < rows; ++r) {
    index.push_back(static_cast<int>(r));
    value.push_back(-1.0);
  }
  start.push_back(static_cast<CoinBigIndex>(index.size()));
  std::vector<double> col_lo(static_cast<std::size_t>(cols), 0.0), col_hi(static_cast<std::size_t>(cols), COIN_DBL_MAX);
  if (shortest_only)  // a source's flow only on links one hop farther from it: every path of it is a shortest one
    for (i64 i = 0; i < k; ++i) {
      const std::vector<int> d = bfs_distances(t, sources[static_cast<std::size_t>(i)]);
      for (LinkId l = 0; l < links; ++l)
        if (d[static_cast<std::size_t>(t.link_target(l))] != d[static_cast<std::size_t>(t.link_source(l))] + 1)
          col_hi[static_cast<std::size_t>(i * links + l)] = 0.0;
    }
  std::vector<double> obj(static_cast<std::size_t>(cols), 0.0);
  obj.back() = 1.0;
  std::vector<double> row_lo(static_cast<std::size_t>(rows), -COIN_DBL_MAX), row_hi(static_cast<std::size_t>(rows), 0.0);
  for (i64 i = 0; i < k; ++i) {
    const NodeId s = sources[static_cast<std::size_t>(i)];
    for (NodeId v = 0; v < n; ++v) {
      const double b = v == s ? static_cast<double>(tr.sent(s)) : -static_cast<double>(tr.flits(s, v));
      row_lo[static_cast<std::size_t>(i * n + v)] = row_hi[static_cast<std::size_t>(i * n + v)] = b;
    }
  }
  ClpSimplex model;
  model.setLogLevel(0);
  model.loadProblem(static_cast<int>(cols), static_cast<int>(rows), start.data(), index.data(), value.data(), col_lo.data(),
                    col_hi.data(), obj.data(), row_lo.data(), row_hi.data());
  start = {};
  index = {};
  value = {};
  model.setOptimizationDirection(1.0);
  // Barrier (with crossover) is the fastest of CLP's methods here: torus:8x8 `all` in about 1 s
  // against 5 s primal and 19 s dual simplex. The dual simplex is the fallback.
  ClpSolve solve;
  solve.setSolveType(ClpSolve::useBarrier);
  model.initialSolve(solve);
  if (!model.isProvenOptimal()) model.dual();
  if (!model.isProvenOptimal()) {
    out.why_not = "CLP did not prove an optimum (status " + std::to_string(model.status()) + ")";
    return out;
  }
  out.lp_value = model.objectiveValue();
  if (shortest_only) {  // a guide for the searches, not a bound on every schedule: not certified
    out.bound = static_cast<i64>(std::ceil(out.lp_value - 1e-6));
    out.certificate = "shortest paths only, not certified";
    out.solved = true;
    return out;
  }
  // Certificate (weak duality): for lengths len_l >= 0 on the links (and, single-port, send_v and
  // recv_v on the nodes), any flow of congestion z has
  //   z * (sum len + sum send + sum recv) >= sum over flows of f_{s,l} (len_l + send_tail + recv_head)
  //                                        >= sum over pairs w(s,d) dist(s,d)
  // with dist under those costs. Lengths: the duals of the capacity rows, scaled to integers; a
  // row of an orbit gives its length to each of the orbit's links (or nodes), |H| of them.
  std::vector<i64> len;
  if (!lp_detail::dual_lengths(model.dualRowSolution(), cap, rows - cap, len)) {
    out.why_not = "CLP returned no usable dual";
    return out;
  }
  if (!certify(t, tr, sym, node_rows, len, out)) return out;
  out.solved = true;
  if (flows) {
    // The flows asked for: among the optima, the fewest link crossings (z held at z*, then the
    // sum of the flows minimised, from the optimum in hand): an optimum may send flow on long
    // detours wherever its links have room, and a schedule pays for every hop.
    model.setColumnUpper(static_cast<int>(cols - 1), out.lp_value * (1 + 1e-9) + 1e-9);
    for (i64 c = 0; c + 1 < cols; ++c) model.setObjectiveCoefficient(static_cast<int>(c), 1.0);
    model.setObjectiveCoefficient(static_cast<int>(cols - 1), 0.0);
    model.primal(1);
    if (!model.isProvenOptimal()) model.dual();
    const double* x = model.primalColumnSolution();
    out.flow_sources = sources;
    for (i64 i = 0; i < k; ++i) out.flows.emplace_back(x + i * links, x + (i + 1) * links);
  }
  return out;
}

}  // namespace totex
