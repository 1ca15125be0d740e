// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "totex/network/distance.hpp"
#include "totex/error.hpp"
#include "totex/network/placement.hpp"
#include "totex/network/spec.hpp"

using namespace totex;

namespace {

std::int64_t fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
std::int64_t ipow(std::int64_t b, int e) {
  std::int64_t r = 1;
  for (int i = 0; i < e; ++i) r *= b;
  return r;
}

/// Independent brute force: every processor pair's path(s) built hop by hop over the topology's
/// own links, each path checked to be shortest (BFS), link crossings counted with weight
/// denominator / (number of paths of the pair).
struct Brute {
  std::vector<NodeId> procs;
  std::vector<std::int64_t> scaled;  // scaled by `denominator`
};

Brute brute_force(const Topology& t, int classes, bool udr, std::int64_t denominator) {
  const int k = t.factors()[0].size;
  const int d = static_cast<int>(t.factors().size());
  Brute b;
  for (NodeId v = 0; v < t.nodes(); ++v) {
    int sum = 0;
    for (int c : t.coordinates(v)) sum += c;
    if (sum % k < classes) b.procs.push_back(v);
  }
  b.scaled.assign(static_cast<std::size_t>(t.links()), 0);
  for (NodeId p : b.procs) {
    const std::vector<int> dist = bfs_distances(t, p);
    for (NodeId q : b.procs) {
      if (p == q) continue;
      const std::vector<int> pc = t.coordinates(p), qc = t.coordinates(q);
      std::vector<int> order;
      for (int j = 0; j < d; ++j)
        if (pc[static_cast<std::size_t>(j)] != qc[static_cast<std::size_t>(j)]) order.push_back(j);
      std::vector<std::vector<int>> orders;
      do orders.push_back(order);
      while (udr && std::next_permutation(order.begin(), order.end()));
      REQUIRE(orders.size() == static_cast<std::size_t>(udr ? fact(static_cast<int>(order.size())) : 1));
      const std::int64_t w = denominator / static_cast<std::int64_t>(orders.size());
      REQUIRE(w * static_cast<std::int64_t>(orders.size()) == denominator);
      for (const auto& ord : orders) {
        std::vector<int> cur = pc;
        NodeId v = p;
        int hops = 0;
        for (int j : ord) {
          const auto ju = static_cast<std::size_t>(j);
          const int fwd = ((qc[ju] - pc[ju]) % k + k) % k;
          const int step = fwd <= k - fwd ? 1 : -1;  // tie (fwd == k/2) goes +
          while (cur[ju] != qc[ju]) {
            cur[ju] = (cur[ju] + step + k) % k;
            const NodeId nxt = t.node_at(cur);
            const auto port = t.port_to(v, nxt);
            REQUIRE(port.has_value());
            b.scaled[static_cast<std::size_t>(t.link_id(v, *port))] += w;
            v = nxt;
            ++hops;
          }
        }
        REQUIRE(v == q);
        REQUIRE(hops == dist[static_cast<std::size_t>(q)]);  // a shortest path
      }
    }
  }
  return b;
}

struct LoadCase {
  std::string torus;
  std::string placement;
  std::string routing;
};

}  // namespace

TEST_CASE("placement and routing parsers", "[placement]") {
  CHECK(parse_placement("linear") == Placement{1, false});
  CHECK(parse_placement("multiple:3") == Placement{3, true});
  CHECK(parse_routing("odr") == Routing::Odr);
  CHECK(parse_routing("udr") == Routing::Udr);
  for (const char* bad : {"", "Linear", "multiple", "multiple:", "multiple:0", "multiple:-1", "multiple:2x", "diag"}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_placement(bad), UsageError);
  }
  try {
    (void)parse_placement("diag");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()).find("linear | multiple:T") != std::string::npos);
  }
  try {
    (void)parse_routing("xy");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()).find("odr | udr") != std::string::npos);
  }
  CHECK(to_string(parse_placement("multiple:2")) == "multiple:2");
  CHECK(to_string(Routing::Udr) == "udr");
  // Only square tori of dimension >= 2 with K >= 3, and T <= K.
  for (const char* spec : {"torus:4x6", "ring:5", "torus:2x2", "ghc:3x3", "torus:4x4*complete:4", "hypercube:3"}) {
    INFO(spec);
    CHECK_THROWS_AS(compute_loads(parse_topology(spec), Placement{}, Routing::Odr), UsageError);
  }
  CHECK_THROWS_AS(compute_loads(parse_topology("torus:4x4"), Placement{5, true}, Routing::Odr), UsageError);
}

TEST_CASE("placements have T k^(d-1) processors and are uniform", "[placement]") {
  for (const char* spec : {"torus:3x3", "torus:4x4", "torus:5x5x5", "torus:4x4x4x4"}) {
    const Topology t = parse_topology(spec);
    const int k = t.factors()[0].size;
    const int d = static_cast<int>(t.factors().size());
    for (int classes = 1; classes <= k; ++classes) {
      const auto procs = placement_nodes(t, Placement{classes, classes > 1});
      CHECK(static_cast<std::int64_t>(procs.size()) == classes * ipow(k, d - 1));
      for (int j = 0; j < d; ++j) {  // every principal subtorus holds T k^(d-2)
        std::vector<int> per(static_cast<std::size_t>(k), 0);
        for (NodeId v : procs) ++per[static_cast<std::size_t>(t.coordinates(v)[static_cast<std::size_t>(j)])];
        for (int c : per) CHECK(c == classes * ipow(k, d - 2));
      }
    }
  }
}

TEST_CASE("link loads equal an explicit enumeration of every pair's paths", "[placement]") {
  const std::vector<LoadCase> cases = {
      {"torus:3x3", "linear", "odr"},       {"torus:3x3", "linear", "udr"},
      {"torus:4x4", "linear", "odr"},       {"torus:4x4", "multiple:2", "udr"},
      {"torus:5x5", "multiple:3", "odr"},   {"torus:6x6", "linear", "udr"},
      {"torus:4x4x4", "linear", "odr"},     {"torus:4x4x4", "linear", "udr"},
      {"torus:5x5x5", "multiple:2", "udr"}, {"torus:6x6x6", "linear", "udr"},
      {"torus:3x3x3x3", "linear", "udr"},   {"torus:4x4x4x4", "multiple:2", "udr"},
      {"torus:4x4x4x4", "linear", "odr"},   {"torus:7x7", "multiple:7", "odr"},
  };
  for (const LoadCase& c : cases) {
    INFO(c.torus << " " << c.placement << " " << c.routing);
    const Topology t = parse_topology(c.torus);
    const Placement p = parse_placement(c.placement);
    const Routing r = parse_routing(c.routing);
    const LoadReport rep = compute_loads(t, p, r);
    const int d = static_cast<int>(t.factors().size());
    CHECK(rep.load_denominator == (r == Routing::Udr ? fact(d) : 1));
    const Brute b = brute_force(t, p.classes, r == Routing::Udr, rep.load_denominator);
    CHECK(placement_nodes(t, p) == b.procs);
    CHECK(rep.processors == static_cast<int>(b.procs.size()));
    REQUIRE(rep.scaled_loads.size() == b.scaled.size());
    CHECK(rep.scaled_loads == b.scaled);
    const std::int64_t mx = *std::max_element(b.scaled.begin(), b.scaled.end());
    CHECK(rep.max_load == Approx(static_cast<double>(mx) / static_cast<double>(rep.load_denominator)));
    CHECK(rep.max_load >= rep.lower_bound);
    // Total load = sum of Lee distances over ordered pairs (every path is shortest).
    std::int64_t total = 0, lee = 0;
    for (std::int64_t x : rep.scaled_loads) total += x;
    for (NodeId p1 : b.procs) {
      const auto dist = bfs_distances(t, p1);
      for (NodeId q1 : b.procs) lee += dist[static_cast<std::size_t>(q1)];
    }
    CHECK(total == lee * rep.load_denominator);
    // routes() agrees with the enumeration on a sample pair.
    const auto paths = routes(t, b.procs.front(), b.procs.back(), r);
    CHECK(paths.front().front() == b.procs.front());
    CHECK(paths.front().back() == b.procs.back());
  }
}

TEST_CASE("E_max against the paper's formulas and bounds", "[placement]") {
  // Measured: linear placement + ODR has E_max = floor(k/2) k^(d-2), on links of the first and the
  // last dimension (a processor's own first hop in dimension 1 carries every message whose
  // dimension-1 offset is in 1..floor(k/2)). Theorem 2's closed form k^(d-1)/8 + k^(d-2)/4 (even
  // k) / k^(d-1)/8 - k^(d-3)/8 (odd k) is exactly the maximum load of the middle dimensions
  // 2..d-1 (d >= 3) and is below E_max; for d = 2 it is not even an integer.
  for (int d = 2; d <= 4; ++d) {
    for (int k = 3; k <= (d == 2 ? 12 : d == 3 ? 8 : 5); ++k) {
      std::string spec = "torus:" + std::to_string(k);
      for (int i = 1; i < d; ++i) spec += "x" + std::to_string(k);
      INFO(spec);
      const Topology t = parse_topology(spec);
      const LoadReport odr = compute_loads(t, parse_placement("linear"), Routing::Odr);
      REQUIRE(odr.paper_formula.has_value());
      const double kk = k;
      const double formula = k % 2 == 0 ? std::pow(kk, d - 1) / 8 + std::pow(kk, d - 2) / 4
                                        : std::pow(kk, d - 1) / 8 - std::pow(kk, d - 3) / 8;
      CHECK(*odr.paper_formula == Approx(formula));
      CHECK(odr.max_load == Approx(static_cast<double>((k / 2) * ipow(k, d - 2))));
      CHECK(odr.max_load > *odr.paper_formula);
      for (int j = 0; j < d; ++j) {
        double dim_max = 0;  // both directions (for even k the tie rule loads + more than -)
        for (const DimensionLoad& dl : odr.dimensions)
          if (dl.dimension == j) dim_max = std::max(dim_max, dl.max_load);
        if (j == 0 || j == d - 1) {
          CHECK(dim_max == Approx(odr.max_load));
        } else {
          CHECK(dim_max == Approx(*odr.paper_formula));  // the paper's count holds here
        }
      }
      CHECK(odr.max_load <= *odr.paper_upper_bound);  // Theorem 2: E_max <= k^(d-1)
      CHECK(odr.max_load >= odr.lower_bound);
      // Lemma 1 + Theorem 1 for even k: |P|^2 / (8 k^(d-1)) = k^(d-1)/8 for a linear placement.
      if (k % 2 == 0) CHECK(odr.bisection_bound == Approx(std::pow(kk, d - 1) / 8));
      CHECK(odr.single_bound == Approx((std::pow(kk, d - 1) - 1) / (2 * d)));

      const LoadReport udr = compute_loads(t, parse_placement("linear"), Routing::Udr);
      CHECK_FALSE(udr.paper_formula.has_value());
      CHECK(udr.max_load < *udr.paper_upper_bound);  // Theorem 4 (strict)
      CHECK(udr.max_load >= udr.lower_bound);
      CHECK(udr.max_load <= odr.max_load);
      if (d == 2) CHECK(udr.max_load == Approx((k / 2) / 2.0));  // measured: floor(k/2)/2
    }
  }
}

TEST_CASE("multiple linear placements: E_max within Theorems 3 and 5, above Lemma 1", "[placement]") {
  for (const char* spec : {"torus:4x4", "torus:5x5", "torus:8x8", "torus:4x4x4", "torus:5x5x5", "torus:3x3x3x3"}) {
    const Topology t = parse_topology(spec);
    const int k = t.factors()[0].size;
    for (int classes = 1; classes < k; ++classes) {
      for (Routing r : {Routing::Odr, Routing::Udr}) {
        INFO(spec << " multiple:" << classes << " " << to_string(r));
        const LoadReport rep = compute_loads(t, Placement{classes, true}, r);
        CHECK(rep.max_load >= rep.lower_bound);
        if (r == Routing::Odr) CHECK(rep.max_load <= *rep.paper_upper_bound);
        if (r == Routing::Udr) CHECK(rep.max_load < *rep.paper_upper_bound);
        CHECK(rep.paper_formula.has_value() == (classes == 1 && r == Routing::Odr));
        // Per-dimension means: total load / links of that dimension and direction.
        double mean_sum = 0;
        for (const DimensionLoad& dl : rep.dimensions) mean_sum += dl.mean_load;
        double total = 0;
        for (double x : rep.loads) total += x;
        CHECK(mean_sum * t.nodes() == Approx(total));
      }
    }
  }
  // Spot values (measured).
  CHECK(compute_loads(parse_topology("torus:4x4"), parse_placement("multiple:2"), Routing::Odr).max_load == 6);
  CHECK(compute_loads(parse_topology("torus:4x4"), parse_placement("multiple:2"), Routing::Udr).max_load == 4);
  CHECK(compute_loads(parse_topology("torus:4x4x4"), parse_placement("linear"), Routing::Udr).max_load ==
        Approx(11.0 / 3.0));
  CHECK(compute_loads(parse_topology("torus:6x6x6"), parse_placement("multiple:3"), Routing::Odr).max_load == 108);
}
