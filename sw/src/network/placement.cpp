// SPDX-License-Identifier: Apache-2.0
#include "totex/network/placement.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "totex/bounds/bounds.hpp"
#include "totex/error.hpp"

namespace totex {
namespace {

std::size_t idx(std::int64_t i) { return static_cast<std::size_t>(i); }

constexpr const char* kPlacements = "linear | multiple:T (T >= 1)";
constexpr const char* kRoutings = "odr | udr";

std::int64_t factorial(int n) {
  std::int64_t f = 1;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
}

/// Shortest cyclic correction of one coordinate: +1 / -1 and hop count (0 when equal).
/// Ties (offset k/2) go in the + direction.
struct Correction {
  int dir = 0;
  int hops = 0;
};
Correction correction(int from, int to, int k) {
  const int off = ((to - from) % k + k) % k;
  if (off == 0) return {};
  if (2 * off <= k) return {1, off};
  return {-1, k - off};
}

}  // namespace

Placement parse_placement(std::string_view text) {
  if (text == "linear") return {1, false};
  const std::string_view prefix = "multiple:";
  if (text.substr(0, prefix.size()) == prefix) {
    const std::string_view num = text.substr(prefix.size());
    int t = 0;
    const auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), t);
    if (ec == std::errc() && ptr == num.data() + num.size() && !num.empty() && t >= 1) return {t, true};
  }
  throw UsageError("placement '" + std::string(text) + "' is not one of: " + kPlacements);
}

Routing parse_routing(std::string_view text) {
  if (text == "odr") return Routing::Odr;
  if (text == "udr") return Routing::Udr;
  throw UsageError("routing '" + std::string(text) + "' is not one of: " + kRoutings);
}

std::string to_string(const Placement& p) {
  return p.multiple ? "multiple:" + std::to_string(p.classes) : std::string("linear");
}

std::string to_string(Routing r) { return r == Routing::Odr ? "odr" : "udr"; }

int check_placement_torus(const Topology& t, const Placement& p) {
  const std::string need = "placements need torus:KxK[x...] with d >= 2 equal sides K >= 3";
  if (!t.is_product() || t.factors().size() < 2) throw UsageError(need + ", not '" + t.spec() + "'");
  const int k = t.factors()[0].size;
  for (const Factor& f : t.factors())
    if (f.kind != FactorKind::Ring || f.size != k || k < 3) throw UsageError(need + ", not '" + t.spec() + "'");
  if (p.classes < 1 || p.classes > k)
    throw UsageError("placement " + to_string(p) + " needs 1 <= T <= K = " + std::to_string(k));
  // Ports 2j / 2j+1 lead to x_j + 1 / x_j - 1 (Topology::product for rings of size >= 3).
  NodeId stride = 1;
  for (std::size_t j = 0; j < t.factors().size(); ++j) {
    const auto pj = static_cast<Port>(2 * j);
    if (t.neighbor(0, pj) != stride || t.neighbor(0, pj + 1) != (k - 1) * stride)
      throw std::logic_error("unexpected torus port order");
    stride *= k;
  }
  return k;
}

std::vector<NodeId> placement_nodes(const Topology& t, const Placement& p) {
  const int k = check_placement_torus(t, p);
  std::vector<NodeId> out;
  for (NodeId v = 0; v < t.nodes(); ++v) {
    const std::vector<int> c = t.coordinates(v);
    if (std::accumulate(c.begin(), c.end(), 0) % k < p.classes) out.push_back(v);
  }
  return out;
}

std::vector<std::vector<NodeId>> routes(const Topology& t, NodeId p, NodeId q, Routing r) {
  const int k = check_placement_torus(t, Placement{});
  const std::vector<int> pc = t.coordinates(p), qc = t.coordinates(q);
  std::vector<int> dims;
  for (std::size_t j = 0; j < pc.size(); ++j)
    if (pc[j] != qc[j]) dims.push_back(static_cast<int>(j));
  std::vector<std::vector<NodeId>> out;
  do {
    std::vector<int> cur = pc;
    std::vector<NodeId> path{p};
    for (int j : dims) {
      const auto ju = idx(j);
      const Correction c = correction(pc[ju], qc[ju], k);
      for (int h = 0; h < c.hops; ++h) {
        cur[ju] = (cur[ju] + c.dir + k) % k;
        path.push_back(t.node_at(cur));
      }
    }
    out.push_back(std::move(path));
  } while (r == Routing::Udr && std::next_permutation(dims.begin(), dims.end()));
  return out;
}

LoadReport compute_loads(const Topology& t, Placement p, Routing r) {
  const int k = check_placement_torus(t, p);
  const int d = static_cast<int>(t.factors().size());
  const auto du = idx(d);
  LoadReport rep;
  rep.topology = t.spec();
  rep.placement = to_string(p);
  rep.routing = to_string(r);
  rep.k = k;
  rep.d = d;
  const std::vector<NodeId> procs = placement_nodes(t, p);
  rep.processors = static_cast<int>(procs.size());

  std::vector<NodeId> stride(du);
  for (std::size_t j = 0, s = 1; j < du; ++j, s *= idx(k)) stride[j] = static_cast<NodeId>(s);
  std::vector<std::vector<int>> coords;
  coords.reserve(procs.size());
  for (NodeId v : procs) coords.push_back(t.coordinates(v));

  const std::int64_t den = r == Routing::Udr ? factorial(d) : 1;
  rep.load_denominator = den;
  std::vector<std::int64_t> fact(du + 1);
  for (int i = 0; i <= d; ++i) fact[idx(i)] = factorial(i);
  std::vector<std::int64_t> load(idx(t.links()), 0);

  // Adds w to every link of the walk along dimension j from coordinate vector `at`.
  auto walk = [&](const std::vector<int>& at, std::size_t j, Correction c, std::int64_t w) {
    NodeId base = 0;
    for (std::size_t i = 0; i < du; ++i)
      if (i != j) base += at[i] * stride[i];
    const Port port = static_cast<Port>(2 * j) + (c.dir > 0 ? 0 : 1);
    int x = at[j];
    for (int h = 0; h < c.hops; ++h) {
      load[idx(t.link_id(base + x * stride[j], port))] += w;
      x = (x + c.dir + k) % k;
    }
  };

  std::vector<Correction> corr(du);
  std::vector<std::size_t> diff;
  std::vector<int> at(du);
  for (std::size_t a = 0; a < procs.size(); ++a) {
    for (std::size_t b = 0; b < procs.size(); ++b) {
      if (a == b) continue;
      const std::vector<int>& pc = coords[a];
      const std::vector<int>& qc = coords[b];
      diff.clear();
      for (std::size_t j = 0; j < du; ++j) {
        corr[j] = correction(pc[j], qc[j], k);
        if (corr[j].hops > 0) diff.push_back(j);
      }
      if (r == Routing::Odr) {
        at = pc;
        for (std::size_t j : diff) {
          walk(at, j, corr[j], 1);
          at[j] = qc[j];
        }
        continue;
      }
      // UDR: among the s! orders, those correcting exactly the set B before dimension j number
      // |B|! (s-1-|B|)!; on them the dimension-j segment starts at (q on B, p elsewhere).
      const auto s = static_cast<int>(diff.size());
      const std::int64_t scale = den / fact[idx(s)];
      for (std::size_t ji = 0; ji < diff.size(); ++ji) {
        const std::size_t j = diff[ji];
        std::vector<std::size_t> others;
        for (std::size_t oi = 0; oi < diff.size(); ++oi)
          if (oi != ji) others.push_back(diff[oi]);
        for (unsigned mask = 0; mask < (1u << others.size()); ++mask) {
          at = pc;
          int bsize = 0;
          for (std::size_t oi = 0; oi < others.size(); ++oi) {
            if (mask & (1u << oi)) {
              at[others[oi]] = qc[others[oi]];
              ++bsize;
            }
          }
          walk(at, j, corr[j], fact[idx(bsize)] * fact[idx(s - 1 - bsize)] * scale);
        }
      }
    }
  }

  rep.scaled_loads = load;
  rep.loads.resize(load.size());
  std::int64_t best = -1;
  for (std::size_t l = 0; l < load.size(); ++l) {
    rep.loads[l] = static_cast<double>(load[l]) / static_cast<double>(den);
    if (load[l] > best) {
      best = load[l];
      rep.max_link = static_cast<LinkId>(l);
    }
  }
  rep.max_load = static_cast<double>(best) / static_cast<double>(den);

  for (std::size_t j = 0; j < du; ++j) {
    for (int dir : {1, -1}) {
      DimensionLoad dl{static_cast<int>(j), dir, 0, 0};
      std::int64_t mx = 0, sum = 0;
      for (NodeId v = 0; v < t.nodes(); ++v) {
        const std::int64_t x = load[idx(t.link_id(v, static_cast<Port>(2 * j) + (dir > 0 ? 0 : 1)))];
        mx = std::max(mx, x);
        sum += x;
      }
      dl.max_load = static_cast<double>(mx) / static_cast<double>(den);
      dl.mean_load = static_cast<double>(sum) / static_cast<double>(den) / t.nodes();
      rep.dimensions.push_back(dl);
    }
  }

  // Lemma 1 with Theorem 1's cut: S = processors with x_j < floor(k/2).
  const auto np = static_cast<double>(procs.size());
  for (std::size_t j = 0; j < du; ++j) {
    std::vector<bool> in_a(idx(t.nodes())), in_b(idx(t.nodes()));
    for (NodeId v = 0; v < t.nodes(); ++v) {
      in_a[idx(v)] = (v / stride[j]) % k < k / 2;
      in_b[idx(v)] = !in_a[idx(v)];
    }
    double s = 0;
    for (NodeId v : procs) s += in_a[idx(v)] ? 1 : 0;
    const auto boundary = static_cast<double>(cut_links(t, in_a) + cut_links(t, in_b));
    rep.bisection_bound = std::max(rep.bisection_bound, 2 * s * (np - s) / boundary);
  }
  rep.single_bound = (np - 1) / (2.0 * d);
  rep.lower_bound = std::max(rep.bisection_bound, rep.single_bound);

  const double kd = static_cast<double>(k);
  const double kd1 = std::pow(kd, d - 1);
  if (p.classes == 1 && r == Routing::Odr) {
    rep.paper_formula = k % 2 == 0 ? kd1 / 8 + std::pow(kd, d - 2) / 4 : kd1 / 8 - std::pow(kd, d - 3) / 8;
  }
  const double t2 = static_cast<double>(p.classes) * p.classes;
  rep.paper_upper_bound = r == Routing::Odr ? t2 * kd1 : t2 * std::pow(2.0, d - 1) * kd1;
  return rep;
}

}  // namespace totex
