// SPDX-License-Identifier: Apache-2.0
// The min-congestion multicommodity-flow LP, one commodity per source, solved with COIN-OR CLP and
// certified from its dual (docs/traffic.md, "congestion_lp").
#include <ClpSimplex.hpp>

#include <ClpSolve.hpp>
#include <cmath>
#include <queue>

#include "totex/error.hpp"
#include "totex/traffic/traffic_bounds.hpp"
#include "totex/traffic/translations.hpp"
#include "lp_certificate.hpp"

namespace totex {
namespace {

using i64 = std::int64_t;

/// The look-ups the translation check may take (nodes x pairs).
constexpr i64 kTranslationCheckWork = 50'000'000;
using lp_detail::i128;
using lp_detail::str128;

/// Shortest distances from `s` with non-negative integer link costs.
std::vector<i64> dijkstra(const Topology& t, NodeId s, const std::vector<i64>& cost) {
  std::vector<i64> dist(static_cast<std::size_t>(t.nodes()), INT64_MAX);
  using Item = std::pair<i64, NodeId>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
  dist[static_cast<std::size_t>(s)] = 0;
  heap.emplace(0, s);
  while (!heap.empty()) {
    const auto [d, v] = heap.top();
    heap.pop();
    if (d != dist[static_cast<std::size_t>(v)]) continue;
    for (Port p = 0; p < t.degree(v); ++p) {
      const LinkId l = t.link_id(v, p);
      const NodeId w = t.neighbor(v, p);
      const i64 nd = d + cost[static_cast<std::size_t>(l)];
      if (nd < dist[static_cast<std::size_t>(w)]) {
        dist[static_cast<std::size_t>(w)] = nd;
        heap.emplace(nd, w);
      }
    }
  }
  return dist;
}

}  // namespace

CongestionLp congestion_lp(const Topology& t, Model m, const Traffic& tr, std::int64_t max_columns, bool symmetry, bool flows) {
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
  std::vector<NodeId> sources, all_sources;
  for (NodeId s = 0; s < n; ++s)
    if (tr.sent(s) > 0) {
      all_sources.push_back(s);
      if (sym.leads(s)) sources.push_back(s);
    }
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
    return out;
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
  i128 denominator = 0;
  for (const i64 x : len) denominator += static_cast<i128>(x) * out.translations;
  if (denominator == 0) {
    out.why_not = "the dual lengths round to zero";
    return out;
  }
  std::vector<i64> cost(static_cast<std::size_t>(links));
  for (LinkId l = 0; l < links; ++l) {
    cost[static_cast<std::size_t>(l)] = len[sym.link_orbit[static_cast<std::size_t>(l)]];
    if (node_rows)
      cost[static_cast<std::size_t>(l)] += len[static_cast<std::size_t>(link_rows) + sym.node_orbit[static_cast<std::size_t>(t.link_source(l))]] +
                                            len[static_cast<std::size_t>(link_rows + node_orbits) + sym.node_orbit[static_cast<std::size_t>(t.link_target(l))]];
  }
  i128 numerator = 0;
  for (NodeId s : all_sources) {
    const std::vector<i64> dist = dijkstra(t, s, cost);
    tr.for_each_in_row(s, [&](NodeId d, i64 w) { numerator += static_cast<i128>(w) * dist[static_cast<std::size_t>(d)]; });
  }
  out.bound = static_cast<i64>((numerator + denominator - 1) / denominator);
  out.certificate = str128(numerator) + "/" + str128(denominator);
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
