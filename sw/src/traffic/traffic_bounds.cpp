// SPDX-License-Identifier: Apache-2.0
// Lower bounds for any traffic (docs/traffic.md, "Lower bounds"): the terms of bounds.cpp with
// every count taken from the traffic instead of "one message per ordered pair".
#include "totex/traffic/traffic_bounds.hpp"

#include <algorithm>
#include <numeric>

#include "totex/error.hpp"
#include "totex/network/distance.hpp"

namespace totex {
namespace {

using i64 = std::int64_t;
__extension__ typedef __int128 i128;

i64 ceil_div(i64 a, i64 b) { return a <= 0 ? 0 : (a + b - 1) / b; }
i64 ceil_div128(i128 a, i128 b) { return a <= 0 ? 0 : static_cast<i64>((a + b - 1) / b); }
std::string str(i64 v) { return std::to_string(v); }
std::string str128(i128 v) {
  if (v == 0) return "0";
  std::string s;
  const bool neg = v < 0;
  if (neg) v = -v;
  while (v > 0) {
    s += static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  }
  if (neg) s += '-';
  return {s.rbegin(), s.rend()};
}

/// A term; `per_period`: what its argument proves for a periodic schedule (BoundTerm::per_period;
/// -1: nothing, the argument counts fill, drain or distances).
void add(LowerBound& lb, std::string name, i64 value, std::string detail, i64 per_period, std::string per_period_detail = {}) {
  lb.steps = std::max(lb.steps, value);
  lb.terms.push_back({std::move(name), value, std::move(detail), per_period, std::move(per_period_detail)});
}
constexpr bool kCapacity = true;
/// time_expanded_lp: steps tried above the other terms' bound.
constexpr int kTimeExpandedTries = 4;
i64 periodic_if(bool capacity, i64 value) { return capacity ? value : -1; }

/// Arrivals one per step, a flit from distance h not before step h-1 (hist[h]: flits from distance
/// h): the flits from distance >= h take distinct steps from h-1 on, so the steps needed are at
/// least max over h of (h - 1 + flits from distance >= h). By time reversal the same holds for
/// injections, a flit to distance h not after step T-h.
i64 release_greedy(const std::vector<i64>& hist) {
  i64 best = 0, suffix = 0;
  for (std::size_t h = hist.size(); h-- > 1;) {
    suffix += hist[h];
    if (hist[h] > 0 || suffix > 0) best = std::max(best, static_cast<i64>(h) - 1 + suffix);
  }
  return best;
}

int factor_diameter(const Factor& f) {
  switch (f.kind) {
    case FactorKind::Ring: return f.size / 2;
    case FactorKind::Path: return f.size - 1;
    case FactorKind::Complete: return 1;
  }
  return 0;
}

/// Facts from one BFS per sending node (or closed forms for uniform traffic on a fully populated network).
struct Reach {
  i64 status = 0;  // S_w
  int far = 0;     // farthest pair with traffic
  NodeId far_s = -1, far_d = -1;
  i64 pair = 0;  // max over pairs of ceil(w/c) + h - 1
  std::string pair_detail;
  i64 inj = 0, ej = 0;  // nic release greedy per sender / receiver
  NodeId inj_at = -1, ej_at = -1;
};

Reach reach(const Topology& t, Model m, const Traffic& tr) {
  Reach r;
  // One-way links: every pair's distance searched (and its reachability checked).
  const bool closed = tr.is_uniform() && tr.members().empty() && !t.is_partial() && !t.is_one_way();
  if (closed) {
    const i64 w = tr.uniform_flits();
    const i64 n = t.nodes();
    r.status = w * total_status(t);
    if (t.is_product()) {
      for (const Factor& f : t.factors()) r.far += factor_diameter(f);
    } else {
      std::vector<NodeId> sources(static_cast<std::size_t>(t.nodes() <= kMaxTrafficNodes ? t.nodes() : 1));  // node 0 only when large
      std::iota(sources.begin(), sources.end(), NodeId{0});
      r.far = farthest_from(t, sources);
    }
    const i64 c = m == Model::AllPort ? t.max_degree() : 1;
    r.pair = ceil_div(w, c) + r.far - 1;
    r.pair_detail = "every pair sends " + str(w) + " flits and some are " + str(r.far) + " hops apart";
    // Release greedy: at least one node at every distance up to the diameter, so the arrivals fit
    // back to back from step 0: M(N-1) (docs/traffic.md).
    r.inj = r.ej = w * (n - 1);
    r.inj_at = r.ej_at = 0;
    return r;
  }
  std::vector<std::vector<i64>> recv(static_cast<std::size_t>(t.nodes()));
  std::vector<i64> row;
  for (NodeId s = 0; s < t.nodes(); ++s) {
    if (tr.sent(s) == 0) continue;
    const std::vector<int> dist = bfs_distances(t, s);
    row.assign(1, 0);
    const i64 c = m == Model::AllPort ? t.degree(s) : 1;
    tr.for_each_in_row(s, [&](NodeId d, i64 w) {
      const int h = dist[static_cast<std::size_t>(d)];
      if (h < 0)  // only on one-way links: a two-way network is checked connected when it is built
        throw UsageError("traffic " + tr.spec() + " cannot be delivered on " + t.spec() + ": node " + str(d) +
                         " cannot be reached from node " + str(s));
      r.status += w * h;
      if (h > r.far) {
        r.far = h;
        r.far_s = s;
        r.far_d = d;
      }
      const i64 v = ceil_div(w, c) + h - 1;
      if (v > r.pair) {
        r.pair = v;
        r.pair_detail = "node " + str(s) + " sends " + str(w) + " flits to node " + str(d) + ", " + str(h) + " hops away" +
                        (c > 1 ? ", over at most " + str(c) + " links per step" : "");
      }
      if (static_cast<std::size_t>(h) >= row.size()) row.resize(static_cast<std::size_t>(h) + 1, 0);
      row[static_cast<std::size_t>(h)] += w;
      auto& rv = recv[static_cast<std::size_t>(d)];
      if (static_cast<std::size_t>(h) >= rv.size()) rv.resize(static_cast<std::size_t>(h) + 1, 0);
      rv[static_cast<std::size_t>(h)] += w;
    });
    const i64 g = release_greedy(row);
    if (g > r.inj) {
      r.inj = g;
      r.inj_at = s;
    }
  }
  for (NodeId q = 0; q < t.nodes(); ++q) {
    const i64 g = release_greedy(recv[static_cast<std::size_t>(q)]);
    if (g > r.ej) {
      r.ej = g;
      r.ej_at = q;
    }
  }
  return r;
}

/// Flits from side A to side B of a cut.
i64 crossing(const Traffic& tr, const std::vector<bool>& in_a, bool a_to_b) {
  if (tr.is_uniform()) {
    i64 pa = 0, pb = 0;
    for (std::size_t v = 0; v < in_a.size(); ++v) {
      if (!tr.is_member(static_cast<NodeId>(v))) continue;
      (in_a[v] ? pa : pb) += 1;
    }
    return tr.uniform_flits() * pa * pb;
  }
  i64 sum = 0;
  tr.for_each([&](NodeId s, NodeId d, i64 w) {
    if (in_a[static_cast<std::size_t>(s)] == a_to_b && in_a[static_cast<std::size_t>(d)] != a_to_b) sum += w;
  });
  return sum;
}

std::vector<bool> complement(const std::vector<bool>& in_a) {
  std::vector<bool> b(in_a.size());
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = !in_a[i];
  return b;
}

/// bisection: the candidate cuts of bounds.cpp, each direction with the flits that cross it.
void add_cut_bound(LowerBound& lb, const Topology& t, Model m, const Traffic& tr) {
  i64 best = 0;
  std::string detail;
  for (const Cut& cut : candidate_cuts(t)) {
    const i64 a = std::count(cut.in_a.begin(), cut.in_a.end(), true);
    const i64 b = t.nodes() - a;
    for (const bool a_to_b : {true, false}) {
      const i64 flits = crossing(tr, cut.in_a, a_to_b);
      i64 per_step = cut_links(t, a_to_b ? cut.in_a : complement(cut.in_a));
      if (per_step == 0 || flits == 0) continue;
      if (m == Model::SinglePort) per_step = std::min({per_step, a, b});
      const i64 v = ceil_div(flits, per_step);
      if (v > best) {
        best = v;
        detail = "cut " + cut.name + (a_to_b ? ", A to B: " : ", B to A: ") + str(flits) + " flits cross / " + str(per_step) + " per step";
      }
    }
  }
  if (best > 0) add(lb, "bisection", best, detail, periodic_if(kCapacity, best));  // each crossing holds a link one slot
}

/// dimension_cut: in every dimension of a product, every interval [a,b) of coordinates (every arc of
/// a ring, prefixes of a complete factor) against the rest, both directions, from the k x k matrix
/// of flits between coordinates.
void add_dimension_cuts(LowerBound& lb, const Topology& t, Model m, const Traffic& tr) {
  if (!t.is_product()) return;
  constexpr int kMaxFactor = 1024;
  const i64 n = t.nodes();
  i64 best = 0;
  std::string detail;
  std::vector<std::vector<int>> coords;
  if (!tr.is_uniform()) {
    coords.resize(static_cast<std::size_t>(n));
    for (NodeId v = 0; v < n; ++v) coords[static_cast<std::size_t>(v)] = t.coordinates(v);
  }
  for (std::size_t dim = 0; dim < t.factors().size(); ++dim) {
    const Factor f = t.factors()[dim];
    const int k = f.size;
    if (k > kMaxFactor) continue;
    const auto ku = static_cast<std::size_t>(k);
    std::vector<i64> p(ku * ku, 0);  // p[x*k+y]: flits from coordinate x to coordinate y
    if (tr.is_uniform()) {
      std::vector<i64> c(ku, 0);
      for (NodeId v = 0; v < n; ++v)
        if (tr.is_member(v)) ++c[static_cast<std::size_t>(t.coordinates(v)[dim])];
      for (std::size_t x = 0; x < ku; ++x)
        for (std::size_t y = 0; y < ku; ++y) p[x * ku + y] = tr.uniform_flits() * (c[x] * c[y] - (x == y ? c[x] : 0));
    } else {
      tr.for_each([&](NodeId s, NodeId d, i64 w) {
        p[static_cast<std::size_t>(coords[static_cast<std::size_t>(s)][dim]) * ku +
          static_cast<std::size_t>(coords[static_cast<std::size_t>(d)][dim])] += w;
      });
    }
    // q[(x)*(k+1)+y]: sum of p over [0,x) x [0,y).
    const std::size_t w = ku + 1;
    std::vector<i64> q(w * w, 0);
    for (std::size_t x = 0; x < ku; ++x)
      for (std::size_t y = 0; y < ku; ++y) q[(x + 1) * w + y + 1] = p[x * ku + y] + q[x * w + y + 1] + q[(x + 1) * w + y] - q[x * w + y];
    auto block = [&](std::size_t x0, std::size_t x1, std::size_t y0, std::size_t y1) {
      return q[x1 * w + y1] - q[x0 * w + y1] - q[x1 * w + y0] + q[x0 * w + y0];
    };
    const i64 lines = n / k;
    for (std::size_t a = 0; a < ku; ++a)
      for (std::size_t b = a + 1; b <= ku; ++b) {
        if (a == 0 && b == ku) continue;
        if (f.kind == FactorKind::Complete && a != 0) continue;
        const i64 inside = block(a, b, a, b);
        const i64 out = block(a, b, 0, ku) - inside;  // A -> B
        const i64 in = block(0, ku, a, b) - inside;   // B -> A
        const i64 size = static_cast<i64>(b - a);
        i64 per_line = 0;
        if (k == 2) per_line = 1;
        else if (f.kind == FactorKind::Ring) per_line = 2;
        else if (f.kind == FactorKind::Path) per_line = (a > 0 ? 1 : 0) + (b < ku ? 1 : 0);
        else per_line = size * (k - size);
        i64 per_step = per_line * lines;
        if (m == Model::SinglePort) per_step = std::min({per_step, size * lines, (k - size) * lines});
        const i64 flits = std::max(out, in);
        const i64 v = ceil_div(flits, per_step);
        if (v > best) {
          best = v;
          detail = "cut d" + str(static_cast<i64>(dim)) + " in [" + str(static_cast<i64>(a)) + "," + str(static_cast<i64>(b)) + ")" +
                   (out >= in ? ", inside to outside: " : ", outside to inside: ") + str(flits) + " flits cross / " + str(per_step) +
                   " per step";
        }
      }
  }
  if (best > 0) add(lb, "dimension_cut", best, detail, periodic_if(kCapacity, best));
}

/// nic, two candidate cuts together (bounds.cpp's cut_corners) with the flits that cross them.
void add_cut_corner_bound(LowerBound& lb, const Topology& t, const Traffic& tr) {
  if (t.is_partial()) return;
  const std::vector<Cut> cuts = candidate_cuts(t);
  if (cuts.size() < 2 || static_cast<double>(t.links()) * static_cast<double>(cuts.size() * cuts.size()) > 5e7) return;
  std::vector<i64> cross(cuts.size());
  for (std::size_t i = 0; i < cuts.size(); ++i) cross[i] = crossing(tr, cuts[i].in_a, true) + crossing(tr, cuts[i].in_a, false);
  i64 best = 0;
  std::string detail;
  for (std::size_t i = 0; i < cuts.size(); ++i)
    for (std::size_t j = i + 1; j < cuts.size(); ++j) {
      const CutPairCapacity cap = cut_pair_capacity(t, cuts[i], cuts[j]);
      const auto [links, idle] = std::make_pair(cap.links, cap.idle);
      if (links == 0) continue;
      const i64 crossings = cross[i] + cross[j];
      const i64 value = cut_corner_steps(crossings, cap);
      if (value > best) {
        best = value;
        detail = "cuts " + cuts[i].name + " and " + cuts[j].name + ", both directions: (" + str(crossings) + " crossings + " + str(idle) +
                 " link-steps idle in the first and last step) / " + str(links) + " links" +
                 (value * links < crossings + idle ? "; one step could carry them" : "");
      }
    }
  if (best > 0) add(lb, "cut_corners", best, detail, -1);  // idle first and last steps: none modulo a period
}

/// relay: a cut vertex v sends its own flits plus every flit between different components of G - v
/// (and receives its own plus the same), one per step (single-port) or over deg(v) links.
void add_relay_bound(LowerBound& lb, const Topology& t, Model m, const Traffic& tr) {
  const std::vector<NodeId> cv = cut_vertices(t);
  if (cv.empty()) return;
  if (!tr.is_uniform() && static_cast<double>(cv.size()) * static_cast<double>(tr.pairs() + t.nodes()) > 3e8) return;
  i64 best = 0;
  std::string detail;
  std::vector<int> comp(static_cast<std::size_t>(t.nodes()));
  for (NodeId v : cv) {
    std::fill(comp.begin(), comp.end(), -1);
    int comps = 0;
    std::vector<i64> members;  // traffic members per component
    for (NodeId start = 0; start < t.nodes(); ++start) {
      if (start == v || comp[static_cast<std::size_t>(start)] >= 0) continue;
      std::vector<NodeId> queue{start};
      comp[static_cast<std::size_t>(start)] = comps;
      i64 count = 0;
      for (std::size_t head = 0; head < queue.size(); ++head) {
        count += tr.is_member(queue[head]) ? 1 : 0;
        for (Port p = 0; p < t.degree(queue[head]); ++p) {
          const NodeId w = t.neighbor(queue[head], p);
          if (w != v && comp[static_cast<std::size_t>(w)] < 0) {
            comp[static_cast<std::size_t>(w)] = comps;
            queue.push_back(w);
          }
        }
      }
      members.push_back(count);
      ++comps;
    }
    i64 through = 0;
    if (tr.is_uniform()) {
      const i64 others = std::accumulate(members.begin(), members.end(), i64{0});
      i64 sum_sq = 0;
      for (i64 c : members) sum_sq += c * c;
      through = tr.uniform_flits() * (others * others - sum_sq);
    } else {
      tr.for_each([&](NodeId s, NodeId d, i64 w) {
        if (s != v && d != v && comp[static_cast<std::size_t>(s)] != comp[static_cast<std::size_t>(d)]) through += w;
      });
    }
    const i64 own = std::max(tr.sent(v), tr.received(v));
    const i64 per_step = m == Model::SinglePort ? 1 : t.degree(v);
    const i64 value = ceil_div(own + through, per_step);
    if (value > best) {
      best = value;
      detail = "cut vertex " + str(v) + " sends (receives) its own " + str(own) + " + " + str(through) + " relayed flits, " +
               str(per_step) + " per step";
    }
  }
  if (best > 0) add(lb, "relay", best, detail, -1);  // holds per period too, but not kept (as bounds.cpp)
}

/// nic pipeline terms for any traffic (docs/traffic.md): W flits, S_w hops, in/out per node.
void add_nic_pipeline_bounds(LowerBound& lb, const Topology& t, const Traffic& tr, i64 s) {
  const i64 w = tr.total_flits();
  if (w == 0) return;
  std::vector<i64> outs, ins;
  i128 pairs_out = 0, pairs_in = 0;
  for (NodeId v = 0; v < t.nodes(); ++v) {
    const i64 o = tr.sent(v), i = tr.received(v);
    pairs_out += static_cast<i128>(o) * (o - 1) / 2;
    pairs_in += static_cast<i128>(i) * (i - 1) / 2;
    if (o > 0) outs.push_back(o);
    if (i > 0) ins.push_back(i);
  }
  const i128 num = static_cast<i128>(s) - w + pairs_out + pairs_in;
  add(lb, "nic_pipeline", 1 + ceil_div128(num, w),
      "T >= 1 + (S_w - W + sum C(out,2) + sum C(in,2)) / W = 1 + (" + str(s) + " - " + str(w) + " + " + str128(pairs_out) + " + " +
          str128(pairs_in) + ") / " + str(w) + ": a NIC injects and ejects in distinct steps and a flit spends h-1 steps between them",
      -1);
  // link_fill: at most min(L, sum_s min(out_s, c+1), sum_q min(in_q, T-c)) links busy in step c.
  const i64 links = t.links();
  std::sort(outs.begin(), outs.end());
  std::sort(ins.begin(), ins.end());
  auto prefix = [](const std::vector<i64>& v) {
    std::vector<i64> p(v.size() + 1, 0);
    for (std::size_t i = 0; i < v.size(); ++i) p[i + 1] = p[i] + v[i];
    return p;
  };
  const std::vector<i64> po = prefix(outs), pi = prefix(ins);
  auto capped = [](const std::vector<i64>& v, const std::vector<i64>& p, i64 x) {  // sum of min(v_i, x)
    const auto k = static_cast<std::size_t>(std::lower_bound(v.begin(), v.end(), x) - v.begin());
    return p[k] + x * static_cast<i64>(v.size() - k);
  };
  // In step c at most min(L, f(c+1), g(T-c)) links are busy, f(x) = sum_s min(out_s, x) and
  // g(y) = sum_q min(in_q, y), both at most W. Once f(c+1) and g(T-c) reach cap = min(L, W) the
  // term is cap; f reaches it by x_f <= cap and g by x_g <= cap, so only the first x_f - 1 and the
  // last x_g - 1 steps are summed one by one (T is as large as the traffic, the ramps are not).
  const i64 cap = std::min(links, w);
  auto f = [&](i64 x) { return capped(outs, po, x); };
  auto g = [&](i64 y) { return capped(ins, pi, y); };
  auto ramp = [&](auto fn) {
    i64 x = 1;
    while (fn(x) < cap) ++x;
    return x;
  };
  const i64 xf = ramp(f), xg = ramp(g);
  auto capacity = [&](i64 steps) {  // the most link crossings `steps` steps can hold
    auto term = [&](i64 c) { return std::min({links, f(c + 1), g(steps - c)}); };
    i64 sum = 0;
    if (steps < xf + xg) {
      for (i64 c = 0; c < steps; ++c) sum += term(c);
      return sum;
    }
    for (i64 c = 0; c <= xf - 2; ++c) sum += term(c);
    for (i64 c = steps - xg + 1; c < steps; ++c) sum += term(c);
    return sum + (steps - xg - xf + 2) * cap;
  };
  const i64 start = ceil_div(s, links);
  i64 lo = start, hi = start;  // the least T with capacity(T) >= s
  while (capacity(hi) < s) {
    lo = hi + 1;
    hi = hi * 2 + 1;
  }
  while (lo < hi) {
    const i64 mid = lo + (hi - lo) / 2;
    if (capacity(mid) >= s) hi = mid;
    else lo = mid + 1;
  }
  add(lb, "link_fill", hi,
      "sum over steps c of min(links, sum min(out, c+1), sum min(in, T-c)) >= S_w = " + str(s) +
          ": only flits injected by step c and delivered from step c on can be on a link in step c",
      -1);
}

/// Every term for `tr` on `t` under `m`, with what each proves per period.
LowerBound traffic_terms(const Topology& t, Model m, const Traffic& tr, const TrafficBoundOptions& options) {
  if (tr.nodes() != t.nodes())
    throw UsageError("traffic '" + printable(tr.spec()) + "' is for " + str(tr.nodes()) + " nodes, " + t.spec() + " has " + str(t.nodes()));
  LowerBound lb;
  if (tr.total_flits() == 0) return lb;
  const Reach r = reach(t, m, tr);
  const std::string sw = "S_w=" + str(r.status) + " hops over " + str(tr.total_flits()) + " flits";
  i64 max_out = 0, max_in = 0, inj = 0, ej = 0;
  NodeId out_at = 0, in_at = 0, inj_at = 0, ej_at = 0;
  // Links into each node (its degree where links go both ways). A node that sends or receives has
  // a link out or in: reach() refused the traffic otherwise.
  std::vector<i64> in_degree(static_cast<std::size_t>(t.nodes()), 0);
  for (LinkId l = 0; l < t.links(); ++l) ++in_degree[static_cast<std::size_t>(t.link_target(l))];
  for (NodeId v = 0; v < t.nodes(); ++v) {
    if (tr.sent(v) > max_out) max_out = tr.sent(v), out_at = v;
    if (tr.received(v) > max_in) max_in = tr.received(v), in_at = v;
    if (tr.sent(v) > 0 && ceil_div(tr.sent(v), t.degree(v)) > inj) inj = ceil_div(tr.sent(v), t.degree(v)), inj_at = v;
    if (const i64 links_in = in_degree[static_cast<std::size_t>(v)]; tr.received(v) > 0 && ceil_div(tr.received(v), links_in) > ej)
      ej = ceil_div(tr.received(v), links_in), ej_at = v;
  }
  switch (m) {
    case Model::SinglePort: {
      // Each of the N nodes (relays included) sends at most one flit per step.
      const i64 as = ceil_div(r.status, t.nodes());
      add(lb, "average_status", as, sw + ", S_w/N = " + str(r.status) + "/" + str(t.nodes()) + " nodes", periodic_if(kCapacity, as));
      add(lb, "injection", max_out, "node " + str(out_at) + " sends " + str(max_out) + " flits, one per step", periodic_if(kCapacity, max_out));
      add(lb, "ejection", max_in, "node " + str(in_at) + " receives " + str(max_in) + " flits, one per step", periodic_if(kCapacity, max_in));
      break;
    }
    case Model::AllPort:
    case Model::Nic: {
      const i64 lt = ceil_div(r.status, t.links());
      add(lb, "link_traversals", lt, sw + ", S_w/links = " + str(r.status) + "/" + str(t.links()) + " directed links",
          periodic_if(kCapacity, lt));
      add(lb, "injection", inj, "node " + str(inj_at) + " sends " + str(tr.sent(inj_at)) + " flits over " + str(t.degree(inj_at)) + " links",
          periodic_if(kCapacity, inj));
      if (m == Model::AllPort) {
        add(lb, "ejection", ej, "node " + str(ej_at) + " receives " + str(tr.received(ej_at)) + " flits over " + str(in_degree[static_cast<std::size_t>(ej_at)]) + " links",
            periodic_if(kCapacity, ej));
      } else {
        // Modulo a period the release times do not hold: only the one-per-step NIC port remains.
        add(lb, "nic_injection", r.inj,
            "node " + str(r.inj_at) + "'s NIC injects " + str(tr.sent(r.inj_at)) + " flits, one per step, a flit to h hops away not after step T-h",
            max_out, "node " + str(out_at) + "'s NIC injects " + str(max_out) + " flits in distinct slots");
        add(lb, "nic_ejection", r.ej,
            "node " + str(r.ej_at) + "'s NIC ejects " + str(tr.received(r.ej_at)) + " flits, one per step, a flit from h hops away not before step h-1",
            max_in, "node " + str(in_at) + "'s NIC ejects " + str(max_in) + " flits in distinct slots");
        add_nic_pipeline_bounds(lb, t, tr, r.status);
        add_cut_corner_bound(lb, t, tr);
      }
      break;
    }
  }
  // A period may be shorter than a route (a flit wraps): not a periodic bound.
  add(lb, "distance", r.pair, r.pair_detail + ": one hop per step" + (m == Model::AllPort ? "" : ", one flit of a pair leaves its source per step"), -1);
  add_cut_bound(lb, t, m, tr);
  add_dimension_cuts(lb, t, m, tr);
  // The relay bound's cut vertices and components assume links both ways.
  if (!t.is_vertex_transitive() && !t.is_one_way()) add_relay_bound(lb, t, m, tr);
  if (options.congestion_lp) {
    const CongestionLp lp = congestion_lp(t, m, tr, options.lp_max_columns, true, false, options.lp_max_path_pairs);
    // Per period each link (and, single-port, each node's send and receive) is used at most once per slot.
    if (lp.solved)
      add(lb, "congestion_lp", lp.bound,
          "min-congestion multicommodity flow" +
              (lp.path_form ? " in path form" +
                                  (lp.translations > 1 ? ", one source per orbit of " + str(lp.translations) + " translations" : std::string()) +
                                  " (CLP, column generation: " + str(lp.columns - 1) + " paths in " + str(lp.rounds) + " rounds" +
                                  (lp.converged ? "): z* = " : ", stopped with paths left to add): z* <= ")
                            : ", one commodity per source" +
                                  (lp.translations > 1 ? " orbit of " + str(lp.translations) + " translations" : std::string()) +
                                  " (CLP, " + str(lp.columns) + " columns): z* = ") +
              std::to_string(lp.lp_value) + ", certified by its dual lengths: " + lp.certificate,
          periodic_if(kCapacity, lp.bound));
    else
      add(lb, "congestion_lp", 0, "not solved: " + lp.why_not, 0);
  }
  if (options.time_expanded) add_time_expanded_bound(lb, t, m, tr, lb.steps + kTimeExpandedTries, options.time_expanded_max_columns);
  return lb;
}

}  // namespace

void add_time_expanded_bound(LowerBound& lb, const Topology& t, Model m, const Traffic& tr, std::int64_t below, std::int64_t max_columns) {
  if (m == Model::SinglePort || lb.steps <= 0) return;
  const i64 from = lb.steps;
  i64 T = from;
  std::string detail;
  for (; T < below && T < from + kTimeExpandedTries; ++T) {
    const TimeExpandedLp te = time_expanded_lp(t, m, tr, T, max_columns);
    if (!te.infeasible) {
      if (T == from) detail = te.solved ? str(T) + " steps feasible as a fraction (z* = " + std::to_string(te.lp_value) + ")"
                                        : "not solved at " + str(T) + " steps: " + te.why_not;
      break;
    }
    detail = str(T) + " steps too few: time-expanded flow per source" +
             (te.translations > 1 ? " orbit of " + str(te.translations) + " translations" : std::string()) + " (CLP, " + str(te.columns) +
             " columns), z* = " + std::to_string(te.lp_value) + ", certified by its dual lengths: " + te.certificate;
  }
  if (detail.empty()) return;  // nothing tried (below <= the bound)
  add(lb, "time_expanded_lp", T > from ? T : 0, detail, -1);
}

std::int64_t traffic_status(const Topology& t, const Traffic& traffic) { return reach(t, Model::Nic, traffic).status; }

LowerBound traffic_lower_bound(const Topology& t, Model m, const Traffic& tr, const TrafficBoundOptions& options) {
  return traffic_terms(t, m, tr, options);
}

LowerBound traffic_periodic_lower_bound(const Topology& t, Model m, const Traffic& tr, const TrafficBoundOptions& options) {
  TrafficBoundOptions one_shot_only = options;
  one_shot_only.time_expanded = false;  // a one-shot term (fill and drain)
  return periodic_lower_bound(traffic_lower_bound(t, m, tr, one_shot_only));
}

}  // namespace totex
