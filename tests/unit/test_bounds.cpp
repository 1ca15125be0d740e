// SPDX-License-Identifier: Apache-2.0
// `lower_bound` against brute force: BFS over every pair and explicit counting of links and cuts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "totex/bounds/bounds.hpp"
#include "totex/network/min_network.hpp"
#include "totex/network/spec.hpp"

using namespace totex;

namespace {

struct Brute {
  std::int64_t total_status = 0, directed_links = 0, min_degree = 1 << 30;
};

/// All-pairs distances by Floyd-Warshall (independent of the library's BFS) and link counting
/// from the node pairs that are adjacent.
Brute brute_force(const Topology& t) {
  const auto n = static_cast<std::size_t>(t.nodes());
  const int inf = 1 << 20;
  std::vector<int> d(n * n, inf);
  Brute b;
  for (std::size_t v = 0; v < n; ++v) {
    d[v * n + v] = 0;
    std::set<NodeId> nbrs;
    for (Port p = 0; p < t.degree(static_cast<NodeId>(v)); ++p) nbrs.insert(t.neighbor(static_cast<NodeId>(v), p));
    for (NodeId w : nbrs) d[v * n + static_cast<std::size_t>(w)] = 1;
    b.directed_links += static_cast<std::int64_t>(nbrs.size());
    b.min_degree = std::min<std::int64_t>(b.min_degree, static_cast<std::int64_t>(nbrs.size()));
  }
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) d[i * n + j] = std::min(d[i * n + j], d[i * n + k] + d[k * n + j]);
  for (int x : d) b.total_status += x;
  return b;
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

std::int64_t term(const LowerBound& lb, const std::string& name) {
  for (const BoundTerm& t : lb.terms)
    if (t.name == name) return t.value;
  FAIL("no bound term " << name);
  return -1;
}

/// The best cut bound by brute force over the same cuts, counting crossing links pair by pair.
std::int64_t brute_cut_bound(const Topology& t, Model m) {
  std::int64_t best = 0;
  for (const Cut& cut : candidate_cuts(t)) {
    for (bool a_side : {true, false}) {
      std::int64_t a = 0, crossing = 0;
      for (NodeId v = 0; v < t.nodes(); ++v) {
        if (cut.in_a[static_cast<std::size_t>(v)] != a_side) continue;
        ++a;
        for (NodeId w = 0; w < t.nodes(); ++w)
          if (cut.in_a[static_cast<std::size_t>(w)] != a_side && t.port_to(v, w)) ++crossing;
      }
      const std::int64_t b = t.nodes() - a;
      if (a == 0 || b == 0 || crossing == 0) continue;
      const std::int64_t per_step = m == Model::SinglePort ? std::min({crossing, a, b}) : crossing;
      best = std::max(best, ceil_div(a * b, per_step));
    }
  }
  return best;
}

/// Relay bound by brute force: for each node v, the ordered pairs that v separates (DFS from
/// every a in G - v), plus v's own N-1 messages, over v's sending capacity.
std::int64_t brute_relay_bound(const Topology& t, Model m) {
  const auto n = static_cast<std::size_t>(t.nodes());
  std::int64_t best = 0;
  for (NodeId v = 0; v < t.nodes(); ++v) {
    std::int64_t separated = 0;
    for (NodeId a = 0; a < t.nodes(); ++a) {
      if (a == v) continue;
      std::vector<bool> seen(n, false);
      std::vector<NodeId> stack{a};
      seen[static_cast<std::size_t>(a)] = seen[static_cast<std::size_t>(v)] = true;
      std::int64_t reached = 1;
      while (!stack.empty()) {
        const NodeId x = stack.back();
        stack.pop_back();
        for (Port p = 0; p < t.degree(x); ++p) {
          const auto w = static_cast<std::size_t>(t.neighbor(x, p));
          if (!seen[w]) {
            seen[w] = true;
            ++reached;
            stack.push_back(t.neighbor(x, p));
          }
        }
      }
      separated += static_cast<std::int64_t>(n) - 1 - reached;
    }
    if (separated == 0) continue;
    const std::int64_t per_step = m == Model::SinglePort ? 1 : t.degree(v);
    best = std::max(best, ceil_div(static_cast<std::int64_t>(n) - 1 + separated, per_step));
  }
  return best;
}

}  // namespace

TEST_CASE("lower bounds agree with brute force on every family", "[bounds]") {
  for (const char* spec : {"ring:2", "ring:5", "ring:8", "path:5", "complete:7", "torus:3x3", "torus:4x4", "torus:3x5",
                           "torus:2x3x4", "torus:4x4x4", "hypercube:3", "hypercube:6", "ghc:3x3", "ghc:2x3x4",
                           "ring:4*complete:3", "path:3*ring:4", "path:2*path:5", "metacube:1,1", "metacube:1,2", "metacube:2,1"}) {
    INFO(spec);
    const Topology t = parse_topology(spec);
    const Brute b = brute_force(t);
    const std::int64_t n = t.nodes();
    const LowerBound sp = lower_bound(t, Model::SinglePort);
    REQUIRE(term(sp, "average_status") == ceil_div(b.total_status, n));
    REQUIRE(sp.steps == std::max({ceil_div(b.total_status, n), brute_cut_bound(t, Model::SinglePort),
                                  brute_relay_bound(t, Model::SinglePort)}));

    const LowerBound ap = lower_bound(t, Model::AllPort);
    REQUIRE(term(ap, "link_traversals") == ceil_div(b.total_status, b.directed_links));
    REQUIRE(term(ap, "injection") == ceil_div(n - 1, b.min_degree));
    REQUIRE(ap.steps == std::max({ceil_div(b.total_status, b.directed_links), ceil_div(n - 1, b.min_degree),
                                  brute_cut_bound(t, Model::AllPort), brute_relay_bound(t, Model::AllPort)}));

    const LowerBound nic = lower_bound(t, Model::Nic);
    // nic_pipeline: T >= N - 2 + S/M; link_fill: the least T with sum_c min(L, N(c+1), N(T-c)) >= S,
    // found here by trying every T from 1 (the library starts at S/L).
    const std::int64_t pipeline = n - 2 + ceil_div(b.total_status, n * (n - 1));
    std::int64_t fill = 1;
    for (;; ++fill) {
      std::int64_t busy = 0;
      for (std::int64_t c = 0; c < fill; ++c) busy += std::min({b.directed_links, n * (c + 1), n * (fill - c)});
      if (busy >= b.total_status) break;
    }
    REQUIRE(term(nic, "nic_pipeline") == pipeline);
    REQUIRE(term(nic, "link_fill") == fill);
    REQUIRE(nic.steps == std::max({n - 1, ap.steps, brute_relay_bound(t, Model::Nic), pipeline, fill}));
  }
}

TEST_CASE("known values", "[bounds]") {
  // single-port hypercube: AS = n 2^(n-1); all-port: status/degree = 2^(n-1).
  REQUIRE(lower_bound(parse_topology("hypercube:5"), Model::SinglePort).steps == 5 * 16);
  REQUIRE(lower_bound(parse_topology("hypercube:5"), Model::AllPort).steps == 16);
  // 2D torus n x n odd: all-port status/degree = n(n^2-1)/8 (paper 001), 5x5 -> 15.
  REQUIRE(term(lower_bound(parse_topology("torus:5x5"), Model::AllPort), "link_traversals") == 15);
  // ring of 8: single-port AS = 16, bisection 4*4 over 2 links = 8.
  REQUIRE(lower_bound(parse_topology("ring:8"), Model::SinglePort).steps == 16);
  REQUIRE(lower_bound(parse_topology("ring:8"), Model::AllPort).steps == 8);
  // nic, 8x8 torus: 62 + ceil(256/63) = 67 and 4 T - 2 (64 + 128 + 192) / 64 ... = 67 as well.
  const LowerBound t8 = lower_bound(parse_topology("torus:8x8"), Model::Nic);
  REQUIRE(term(t8, "nic_pipeline") == 67);
  REQUIRE(term(t8, "link_fill") == 67);
  REQUIRE(t8.steps == 67);
  // 16x16: links dominate, 1024 T - 2 (256 + 512 + 768) >= 524288 gives 515.
  REQUIRE(lower_bound(parse_topology("torus:16x16"), Model::Nic).steps == 515);
}

TEST_CASE("nic cut corners: the two middle cuts of a mesh meet in four centre nodes", "[bounds]") {
  // 8x8 mesh: 4 directional cuts carry 4 * 32*32 = 4096 crossings on 32 links; each of the four
  // centre nodes is the tail of two of those links (one idles in step 0) and the head of two (one
  // idles in the last step): T >= ceil((4096 + 8) / 32) = 129, one more than the bisection's 128.
  const LowerBound m8 = lower_bound(parse_topology("mesh:8x8"), Model::Nic);
  REQUIRE(term(m8, "bisection") == 128);
  REQUIRE(term(m8, "cut_corners") == 129);
  REQUIRE(m8.steps == 129);
  // 6x6: (4 * 18*18 + 8) / 24 = 54.3 -> 55. All-port has no such term (a node may send on every port).
  REQUIRE(term(lower_bound(parse_topology("mesh:6x6"), Model::Nic), "cut_corners") == 55);
  for (const BoundTerm& t : lower_bound(parse_topology("mesh:8x8"), Model::AllPort).terms) REQUIRE(t.name != "cut_corners");
  // Never above a proven optimum (exact, tests/unit/test_exact.cpp and the README table): mesh:3x4 13.
  REQUIRE(lower_bound(parse_topology("mesh:3x4"), Model::Nic).steps <= 13);
}

TEST_CASE("periodic (TDM) bounds keep the per-period capacity terms only", "[bounds]") {
  // torus:8x8 nic: one-shot 67 (fill and drain), periodic 64 (links, bisection); S4NoC's TDM
  // period is 87, totex's one-shot schedule repeated back to back gives period 67.
  const LowerBound one = lower_bound(parse_topology("torus:8x8"), Model::Nic);
  const LowerBound per = periodic_lower_bound(one);
  REQUIRE(per.steps == 64);
  for (const BoundTerm& t : per.terms) {
    REQUIRE(t.name != "nic_pipeline");
    REQUIRE(t.name != "link_fill");
    REQUIRE(t.name != "cut_corners");
  }
  REQUIRE(periodic_lower_bound(lower_bound(parse_topology("mesh:8x8"), Model::Nic)).steps == 128);
  REQUIRE(periodic_lower_bound(lower_bound(MinNetwork(16, 4, Wiring::Omega))).steps == 16);
  for (const char* spec : {"ring:9", "torus:4x6", "hypercube:5", "mesh:5x7", "ghc:3x4"})
    for (Model m : {Model::SinglePort, Model::AllPort, Model::Nic}) {
      const LowerBound b = lower_bound(parse_topology(spec), m);
      REQUIRE(periodic_lower_bound(b).steps <= b.steps);
    }
}

TEST_CASE("cut vertices relay: the path bound", "[bounds]") {
  // Node v of path:k sends its own k-1 messages and relays 2 v (k-1-v): floor((k^2-1)/2) at the middle.
  for (int k = 2; k <= 12; ++k) {
    const Topology t = parse_topology("path:" + std::to_string(k));
    INFO(k);
    REQUIRE(lower_bound(t, Model::SinglePort).steps == std::max<std::int64_t>((k * k - 1) / 2, 1));
  }
  const Topology mesh = parse_topology("path:3*path:3");
  REQUIRE(brute_relay_bound(mesh, Model::SinglePort) == 0);  // a 3x3 mesh has no cut vertex
  for (const LowerBound& lb : {lower_bound(mesh, Model::SinglePort), lower_bound(mesh, Model::AllPort)})
    for (const BoundTerm& term : lb.terms) REQUIRE(term.name != "relay");
}

TEST_CASE("MIN bound is N configurations plus log_d N - 1 pipeline cycles", "[bounds]") {
  REQUIRE(lower_bound(std::get<MinNetwork>(parse_spec("min:64:4:omega"))).steps == 64 + 2);
  REQUIRE(lower_bound(std::get<MinNetwork>(parse_spec("min:8:2:butterfly"))).steps == 8 + 2);
  REQUIRE(lower_bound(std::get<MinNetwork>(parse_spec("min:3:3:baseline"))).steps == 3);
}
