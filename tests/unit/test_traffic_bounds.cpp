// SPDX-License-Identifier: Apache-2.0
// Lower bounds for any traffic (docs/traffic.md): equal to today's bounds under `all`, hand-computed
// on small cases, the congestion LP against hand-solved instances, brute-force counts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <sstream>

#include "totex/bounds/bounds.hpp"
#include "totex/error.hpp"
#include "totex/generators/exact.hpp"
#include "totex/network/spec.hpp"
#include "totex/traffic/traffic.hpp"
#include "totex/traffic/traffic_bounds.hpp"
#include "totex/traffic/translations.hpp"

using namespace totex;

namespace {

std::map<std::string, std::int64_t> terms_of(const LowerBound& lb) {
  std::map<std::string, std::int64_t> out;
  for (const BoundTerm& t : lb.terms) out[t.name] = t.value;
  return out;
}

Traffic sparse(int nodes, const std::string& lines) {
  std::istringstream in("sparse\n" + lines);
  return read_traffic_matrix(in, "t", nodes, "matrix:t");
}

/// All-pairs distances by Floyd-Warshall (independent of the library's BFS).
std::vector<std::vector<std::int64_t>> floyd(const Topology& t) {
  const auto n = static_cast<std::size_t>(t.nodes());
  std::vector<std::vector<std::int64_t>> d(n, std::vector<std::int64_t>(n, 1 << 20));
  for (std::size_t v = 0; v < n; ++v) {
    d[v][v] = 0;
    for (Port p = 0; p < t.degree(static_cast<NodeId>(v)); ++p) d[v][static_cast<std::size_t>(t.neighbor(static_cast<NodeId>(v), p))] = 1;
  }
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) d[i][j] = std::min(d[i][j], d[i][k] + d[k][j]);
  return d;
}

}  // namespace

TEST_CASE("traffic bounds under all equal today's bounds", "[traffic][bounds]") {
  const std::vector<std::string> specs = {"ring:5",    "ring:8",       "path:5",      "path:6",          "torus:4x4",
                                          "torus:3x5", "mesh:4x4",     "mesh:3x4",    "hypercube:3",     "complete:5",
                                          "ghc:3x3",   "metacube:1,2", "ring:5*complete:3", "torus:4x4@linear", "torus:8x8",
                                          "mesh:8x8",  "torus:6x6@multiple:2"};
  TrafficBoundOptions no_lp;
  no_lp.congestion_lp = false;
  no_lp.time_expanded = false;  // stronger than today's where fill and drain bind (path:5 nic: 7, the optimum; below)
  for (const std::string& spec : specs)
    for (const Model m : {Model::SinglePort, Model::AllPort, Model::Nic}) {
      INFO(spec << " " << to_string(m));
      const Topology t = parse_topology(spec);
      const Traffic all = parse_traffic("all", t);
      const LowerBound today = lower_bound(t, m);
      const LowerBound mine = traffic_lower_bound(t, m, all, no_lp);
      CHECK(mine.steps == today.steps);
      const auto a = terms_of(today), b = terms_of(mine);
      for (const auto& [name, value] : a) {
        INFO(name);
        REQUIRE(b.count(name) == 1);
        CHECK(b.at(name) == value);
      }
      for (const auto& [name, value] : b) {
        INFO(name << " (a term today's bound does not have)");
        CHECK(value <= today.steps);
      }
      // The periodic bound: the same terms per period.
      const LowerBound today_p = periodic_lower_bound(today);
      const LowerBound mine_p = traffic_periodic_lower_bound(t, m, all, no_lp);
      CHECK(mine_p.steps == today_p.steps);
      // all:M: every capacity term scales by M.
      const Traffic all3 = parse_traffic("all:3", t);
      const auto c = terms_of(traffic_lower_bound(t, m, all3, no_lp));
      for (const char* name : {"average_status", "link_traversals", "bisection", "dimension_cut"})
        if (b.count(name) != 0) {
          const std::int64_t exact_scaled = c.at(name);
          CHECK(exact_scaled >= 3 * b.at(name) - 2);
          CHECK(exact_scaled <= 3 * b.at(name));
        }
    }
}

TEST_CASE("traffic congestion LP under all: the capacity terms, not more than a schedule needs", "[traffic][bounds]") {
  for (const char* spec : {"ring:6", "torus:4x4", "mesh:3x3", "hypercube:3", "torus:8x8"}) {
    INFO(spec);
    const Topology t = parse_topology(spec);
    const Traffic all = parse_traffic("all", t);
    const CongestionLp lp = congestion_lp(t, Model::Nic, all, 1 << 20);
    REQUIRE(lp.solved);
    const auto today = terms_of(lower_bound(t, Model::Nic));
    // The LP is at least the link-traversal and cut bounds, never above today's one-shot bound
    // (totex schedules these at that bound: a schedule's routing is a feasible flow).
    CHECK(lp.bound >= today.at("link_traversals"));
    CHECK(lp.bound >= today.at("bisection"));
    CHECK(lp.bound <= lower_bound(t, Model::Nic).steps);
    CHECK(lp.lp_value <= static_cast<double>(lp.bound) + 1e-6);
    CHECK(lp.lp_value > static_cast<double>(lp.bound) - 1 - 1e-6);
  }
}

TEST_CASE("traffic congestion LP against hand-solved instances", "[traffic][bounds]") {
  // Triangle, node 0 sends 3 flits to node 1: x directly, 3-x via node 2; the optimum balances
  // x = 3 - x, so z* = 1.5 and the bound is 2.
  const Topology tri = parse_topology("ring:3");
  const Traffic t01 = sparse(3, "0 1 3\n");
  const CongestionLp a = congestion_lp(tri, Model::Nic, t01, 1 << 20);
  REQUIRE(a.solved);
  CHECK(a.lp_value == Approx(1.5));
  CHECK(a.bound == 2);
  // Single-port adds node rows: node 0 sends all 3 flits itself, so z* = 3.
  const CongestionLp a1 = congestion_lp(tri, Model::SinglePort, t01, 1 << 20);
  REQUIRE(a1.solved);
  CHECK(a1.lp_value == Approx(3.0));
  CHECK(a1.bound == 3);
  // ring:6, perm:shift:1 with 6 flits per pair: a share a of each flow goes the long way (5 hops).
  // A clockwise link carries 6(1-a), a counter-clockwise one 5 * 6a; equal at a = 1/6: z* = 5,
  // less than the 6 of shortest paths; link_traversals (36/12 = 3) and the cuts (6/2 = 3) are weaker.
  const Topology ring6 = parse_topology("ring:6");
  const Traffic shift = parse_traffic("perm:shift:1:6", ring6);
  const CongestionLp b = congestion_lp(ring6, Model::Nic, shift, 1 << 20);
  REQUIRE(b.solved);
  CHECK(b.lp_value == Approx(5.0));
  CHECK(b.bound == 5);
  const auto terms = terms_of(traffic_lower_bound(ring6, Model::AllPort, shift));
  CHECK(terms.at("congestion_lp") == 5);
  CHECK(terms.at("link_traversals") == 3);
  CHECK(terms.at("bisection") == 3);
  CHECK(terms.at("dimension_cut") == 3);
  // ring:4, 4 flits from 0 to the opposite node 2: half each way, z* = 2.
  const CongestionLp c = congestion_lp(parse_topology("ring:4"), Model::Nic, sparse(4, "0 2 4\n"), 1 << 20);
  REQUIRE(c.solved);
  CHECK(c.lp_value == Approx(2.0));
  CHECK(c.bound == 2);
  // Over shortest paths only (a guide for the list scheduler, not a bound): ring:6 perm:shift:1:6
  // sends every flit clockwise, 6 on each clockwise link; ring:4's 0 -> 2 has two shortest paths,
  // so half each way again; translations or not, the same.
  const CongestionLp b_short = congestion_lp(ring6, Model::Nic, shift, 1 << 20, true, false, 0, true);
  REQUIRE(b_short.solved);
  CHECK(b_short.lp_value == Approx(6.0));
  CHECK(b_short.bound == 6);
  CHECK(b_short.certificate == "shortest paths only, not certified");
  CHECK(congestion_lp(ring6, Model::Nic, shift, 1 << 20, false, false, 0, true).lp_value == Approx(6.0));
  CHECK(congestion_lp(parse_topology("ring:4"), Model::Nic, sparse(4, "0 2 4\n"), 1 << 20, true, false, 0, true).lp_value == Approx(2.0));
  // Too large: not solved, and the term says so.
  const CongestionLp d = congestion_lp(ring6, Model::Nic, shift, 10, false);
  CHECK_FALSE(d.solved);
  CHECK(d.why_not == "6 sources x 12 links = 72 flow variables, above the limit of 10");
  const CongestionLp e = congestion_lp(ring6, Model::Nic, shift, 10);
  CHECK_FALSE(e.solved);
  CHECK(e.why_not == "1 source orbits (6 translations) x 12 links = 12 flow variables, above the limit of 10");
}

TEST_CASE("traffic congestion LP in path form: the arc form's optimum and bound", "[traffic][bounds]") {
  // Past the arc form's column limit (here 1), column generation over paths solves the same LP.
  // The hand-solved instances above: the triangle (1.5, single-port 3), ring:6 perm:shift:1:6 (5,
  // a sixth of each flow the long way round: no path the warm start or one round would stop at).
  const Topology tri = parse_topology("ring:3");
  const Traffic t01 = sparse(3, "0 1 3\n");
  for (const auto& [m, z] : {std::pair{Model::Nic, 1.5}, std::pair{Model::SinglePort, 3.0}}) {
    const CongestionLp a = congestion_lp(tri, m, t01, 1, false, false, 16);
    REQUIRE(a.solved);
    CHECK(a.path_form);
    CHECK(a.converged);
    CHECK(a.lp_value == Approx(z));
  }
  const Topology ring6 = parse_topology("ring:6");
  const CongestionLp b = congestion_lp(ring6, Model::Nic, parse_traffic("perm:shift:1:6", ring6), 1, false, false, 16);
  REQUIRE(b.solved);
  CHECK(b.lp_value == Approx(5.0));
  CHECK(b.bound == 5);
  CHECK(b.certificate.find('/') != std::string::npos);
  // Against the arc form on networks without symmetry: every model, a degraded torus and a mesh.
  struct Case {
    const char* topo;
    Model model;
    const char* traffic;
  };
  for (const Case& c : {Case{"torus:4x4~fail:0-1", Model::Nic, "perm:bitrev:3"}, Case{"mesh:4x4", Model::SinglePort, "random:3:0.3:2"},
                        Case{"torus:4x4", Model::AllPort, "moe:4:2:4:1"}, Case{"torus:4x4~fail:0-1,5", Model::Nic, "random:1:0.2:3"}}) {
    INFO(c.topo << " " << c.traffic);
    const Topology t = parse_topology(c.topo);
    const Traffic tr = parse_traffic(c.traffic, t);
    const CongestionLp arc = congestion_lp(t, c.model, tr, 1 << 20, false);
    const CongestionLp path = congestion_lp(t, c.model, tr, 1, false, false, 1 << 20);
    REQUIRE(arc.solved);
    REQUIRE(path.solved);
    CHECK_FALSE(arc.path_form);
    CHECK(path.path_form);
    CHECK(path.converged);
    CHECK(path.lp_value == Approx(arc.lp_value).epsilon(1e-7));
    CHECK(path.bound == arc.bound);
  }
  // With translations: one source per orbit and a row per orbit of links, as the arc form.
  for (const Case& c : {Case{"torus:8x8", Model::Nic, "perm:transpose:4"}, Case{"torus:4x8", Model::Nic, "groups:0"},
                        Case{"torus:5x5", Model::AllPort, "all:2"}, Case{"ring:6", Model::SinglePort, "perm:shift:1:6"},
                        Case{"torus:8x8", Model::SinglePort, "perm:shift:5:2"}}) {
    INFO(c.topo << " " << c.traffic);
    const Topology t = parse_topology(c.topo);
    const Traffic tr = parse_traffic(c.traffic, t);
    const CongestionLp arc = congestion_lp(t, c.model, tr, 1 << 20);
    const CongestionLp path = congestion_lp(t, c.model, tr, 1, true, false, 1 << 20);
    REQUIRE(arc.solved);
    REQUIRE(path.solved);
    CHECK(path.path_form);
    CHECK(path.converged);
    CHECK(arc.translations > 1);
    CHECK(path.translations == arc.translations);
    CHECK(path.lp_value == Approx(arc.lp_value).epsilon(1e-7));
    CHECK(path.bound == arc.bound);
  }
  // Hot links: one pair of neighbours on torus:16x16 with 2^20 flits, whose four links out of the
  // source are the cut (z* = 2^18); and on path:300, whose one link from node 0 to node 1 carries
  // 598 times the mean load after the first pass (the warm start's costs must stay finite, or
  // that link would cut node 1 off; z* = 1000).
  {
    const Topology t = parse_topology("torus:16x16");
    const CongestionLp hot = congestion_lp(t, Model::Nic, sparse(256, "0 1 1048576\n"), 1, false, false, 16);
    REQUIRE(hot.solved);
    CHECK(hot.path_form);
    CHECK(hot.lp_value == Approx(262144.0));
    CHECK(hot.bound == 262144);
    const CongestionLp line = congestion_lp(parse_topology("path:300"), Model::Nic, sparse(300, "0 1 1000\n"), 1, false, false, 16);
    INFO(line.why_not);
    REQUIRE(line.solved);
    CHECK(line.lp_value == Approx(1000.0));
    CHECK(line.bound == 1000);
  }
  // Too many pairs for the path form: not solved, both limits named.
  const CongestionLp d = congestion_lp(ring6, Model::Nic, parse_traffic("perm:shift:1:6", ring6), 10, false, false, 5);
  CHECK_FALSE(d.solved);
  CHECK(d.why_not == "6 sources x 12 links = 72 flow variables, above the limit of 10; in path form 6 pairs, above the limit of 5");
}

TEST_CASE("traffic congestion LP on one source per translation orbit: the unreduced optimum", "[traffic][bounds]") {
  // The translations that keep the traffic (translations.hpp) shrink the LP by their number; an
  // optimum averaged over them is one, so z* and the certified bound are the unreduced LP's.
  struct Case {
    const char* topo;
    Model model;
    const char* traffic;
    std::size_t translations;
  };
  for (const Case& c : {Case{"torus:8x8", Model::Nic, "perm:transpose:4", 8}, Case{"torus:8x8", Model::Nic, "perm:shift:3", 8},
                        Case{"torus:8x8", Model::SinglePort, "perm:shift:5:2", 8}, Case{"torus:4x8", Model::Nic, "groups:0", 32},
                        Case{"torus:5x5", Model::AllPort, "all:2", 25}, Case{"torus:4x4", Model::Nic, "random:2:0.5:3", 1},
                        Case{"mesh:4x4", Model::Nic, "perm:transpose", 1}, Case{"ring:6", Model::SinglePort, "perm:shift:1:6", 6}}) {
    INFO(c.topo << " " << c.traffic);
    const Topology t = parse_topology(c.topo);
    const Traffic tr = parse_traffic(c.traffic, t);
    const Translations sym = traffic_translations(t, tr, 1 << 30);
    CHECK(sym.order() == c.translations);
    for (NodeId v = 0; v < t.nodes(); ++v)  // every orbit has as many nodes as there are translations
      CHECK(std::count(sym.node_orbit.begin(), sym.node_orbit.end(), sym.node_orbit[static_cast<std::size_t>(v)]) ==
            static_cast<std::ptrdiff_t>(c.translations));
    const CongestionLp reduced = congestion_lp(t, c.model, tr, 1 << 20);
    const CongestionLp full = congestion_lp(t, c.model, tr, 1 << 20, false);
    REQUIRE(reduced.solved);
    REQUIRE(full.solved);
    CHECK(reduced.translations == static_cast<std::int64_t>(c.translations));
    CHECK(full.translations == 1);
    CHECK(reduced.lp_value == Approx(full.lp_value).epsilon(1e-9));
    CHECK(reduced.bound == full.bound);
    CHECK(reduced.columns == (full.columns - 1) / static_cast<std::int64_t>(c.translations) + 1);
  }
}

TEST_CASE("traffic cut_corners: its idle steps need two steps, one step may do", "[traffic][bounds]") {
  // torus:2x4 groups:0: every node sends one flit to its neighbour across dimension 0, all in one
  // step. cut_corners used to count its idle link-steps in a first and a last step that are then one
  // step, and said 2 ((8 crossings + 16 idle) / 16 links), so the exact search's verified 1-step
  // schedule "beat the bound" (an internal error).
  const Topology t = parse_topology("torus:2x4");
  const LowerBound lb = traffic_lower_bound(t, Model::Nic, parse_traffic("groups:0", t));
  CHECK(lb.steps == 1);
  CHECK(terms_of(lb).at("cut_corners") == 1);
  // torus:3x5 perm:shift:3 (every flit one hop along dimension 1): also 1.
  const Topology t35 = parse_topology("torus:3x5");
  CHECK(traffic_lower_bound(t35, Model::Nic, parse_traffic("perm:shift:3", t35)).steps == 1);
  // Where one step cannot carry the crossings the term is unchanged: (crossings + idle) / links.
  CutPairCapacity c;
  c.links = 16;
  c.idle_first = c.idle_last = 8;
  c.idle = 16;
  CHECK(cut_corner_steps(8, c) == 1);   // 8 + 8 <= 16: one step may carry them
  CHECK(cut_corner_steps(9, c) == 2);   // 9 + 8 > 16: two steps at least, then (9 + 16) / 16
  CHECK(cut_corner_steps(40, c) == 4);  // (40 + 16) / 16 = 3.5
  CHECK(cut_corner_steps(0, c) == 0);
}

TEST_CASE("traffic bounds on hand-computed cases", "[traffic][bounds]") {
  // torus:4x4, transpose: 12 senders with one flit each; 8 go 2 hops (coordinates 1 apart), 4 go
  // 4 hops (2 apart). S_w = 32 over 64 links: 1. A NIC's one flit of 4 hops arrives in step 3: 4.
  // nic_pipeline: 1 + (32 - 12 + 0 + 0)/12 -> 3. The cut d0<2: 4 flits / 8 links: 1.
  const Topology t = parse_topology("torus:4x4");
  const LowerBound lb = traffic_lower_bound(t, Model::Nic, parse_traffic("perm:transpose", t));
  const auto m = terms_of(lb);
  CHECK(traffic_status(t, parse_traffic("perm:transpose", t)) == 32);
  CHECK(m.at("link_traversals") == 1);
  CHECK(m.at("nic_injection") == 4);
  CHECK(m.at("nic_ejection") == 4);
  CHECK(m.at("distance") == 4);
  CHECK(m.at("nic_pipeline") == 3);
  CHECK(m.at("bisection") == 1);
  CHECK(m.at("injection") == 1);
  CHECK(lb.steps == 4);
  // With 8 flits per pair: the farthest pair's 8 flits leave one per step and go 4 hops: 8 + 3.
  CHECK(traffic_lower_bound(t, Model::Nic, parse_traffic("perm:transpose:8", t)).steps == 11);
  // The periodic bound keeps capacity only: 8 flits per NIC per period, and the LP: one 4-hop
  // flow of 8 flits has 2 shortest paths in each dimension... its links carry at least 8/2 = 4.
  const LowerBound p = traffic_periodic_lower_bound(t, Model::Nic, parse_traffic("perm:transpose:8", t));
  CHECK(terms_of(p).at("nic_injection") == 8);
  CHECK(terms_of(p).count("distance") == 0);
  CHECK(p.steps == 8);

  // path:4 (0-1-2-3), nic: 0->3 two flits, 1->2 one flit. Link 1->2 carries all three: the cut
  // [0,2) gives 3, the relay at node 1 sends its own 1 + 2 relayed over its 2 links: 2 (all-port),
  // 3 sends one per step (single-port).
  const Topology path = parse_topology("path:4");
  const Traffic pt = sparse(4, "0 3 2\n1 2 1\n");
  const auto pm = terms_of(traffic_lower_bound(path, Model::AllPort, pt));
  CHECK(pm.at("dimension_cut") == 3);
  CHECK(pm.at("bisection") == 3);
  CHECK(pm.at("relay") == 2);
  CHECK(pm.at("congestion_lp") == 3);
  CHECK(pm.at("distance") == 4);  // ceil(2 flits / 1 link) + 3 hops - 1
  const auto ps = terms_of(traffic_lower_bound(path, Model::SinglePort, pt));
  CHECK(ps.at("relay") == 3);
  CHECK(ps.at("average_status") == 2);  // S_w = 2*3 + 1 = 7 hops over 4 nodes
  CHECK(ps.at("injection") == 2);
  CHECK(ps.at("ejection") == 2);

  // ring:8, a cut only the traffic makes binding: node 0 sends 10 flits to its neighbour 1. The
  // middle cut d0<4 has both on one side; the arc [0,1) sends 10 flits over its 2 links: 5. The LP
  // agrees: x flits on the direct link, 10 - x the long way round, z* = 5.
  const Topology r8 = parse_topology("ring:8");
  const Traffic near = sparse(8, "0 1 10\n");
  const auto am = terms_of(traffic_lower_bound(r8, Model::AllPort, near));
  CHECK(am.at("dimension_cut") == 5);
  CHECK(am.count("bisection") == 0);
  CHECK(am.at("congestion_lp") == 5);
  CHECK(am.at("link_traversals") == 1);  // 10 hops over 16 links

  // A traffic for another network is refused.
  CHECK_THROWS_AS(traffic_lower_bound(t, Model::Nic, near), UsageError);
  CHECK_THROWS_WITH(congestion_lp(t, Model::Nic, near, 100), "traffic 'matrix:t' is for 8 nodes, torus:4x4 has 16");
  // No traffic: no terms.
  CHECK(traffic_lower_bound(t, Model::Nic, sparse(16, "")).steps == 0);
}

TEST_CASE("traffic bounds against brute force on random traffic", "[traffic][bounds]") {
  for (const char* spec : {"mesh:3x4", "torus:4x3", "hypercube:3", "ring:5*complete:3"}) {
    INFO(spec);
    const Topology t = parse_topology(spec);
    const Traffic tr = parse_traffic("random:5:0.4:6", t);
    const auto d = floyd(t);
    std::int64_t s = 0, far = 0;
    tr.for_each([&](NodeId a, NodeId b, std::int64_t w) {
      s += w * d[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
      far = std::max(far, d[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)]);
    });
    CHECK(traffic_status(t, tr) == s);
    const auto m = terms_of(traffic_lower_bound(t, Model::AllPort, tr));
    CHECK(m.at("link_traversals") == (s + t.links() - 1) / t.links());
    // The candidate cuts, counted pair by pair and link by link.
    std::int64_t best = 0;
    for (const Cut& cut : candidate_cuts(t))
      for (const bool dir : {true, false}) {
        std::int64_t flits = 0, links = 0;
        tr.for_each([&](NodeId a, NodeId b, std::int64_t w) {
          if (cut.in_a[static_cast<std::size_t>(a)] == dir && cut.in_a[static_cast<std::size_t>(b)] != dir) flits += w;
        });
        for (LinkId l = 0; l < t.links(); ++l)
          if (cut.in_a[static_cast<std::size_t>(t.link_source(l))] == dir && cut.in_a[static_cast<std::size_t>(t.link_target(l))] != dir) ++links;
        if (links > 0) best = std::max(best, (flits + links - 1) / links);
      }
    CHECK(m.at("bisection") == best);
    CHECK(m.at("dimension_cut") >= best);  // the candidate cuts are among the dimension cuts
    CHECK(m.at("congestion_lp") >= std::max(best, m.at("link_traversals")));
    CHECK(m.at("distance") >= far);
  }
}

TEST_CASE("traffic congestion LP is at most the congestion of a real routing", "[traffic][bounds]") {
  // Dimension-order routing (dimension 0 first; on a ring the shorter way, ties forward) is one
  // feasible flow: its most loaded link bounds z* from above, and the certified bound from below.
  for (const char* spec : {"mesh:3x4", "torus:4x3", "torus:5x5", "mesh:4x4"}) {
    for (const char* traffic : {"random:3:0.5:7", "perm:shift:5:4", "moe:5:2:9:1", "all"}) {
      INFO(spec << " " << traffic);
      const Topology t = parse_topology(spec);
      const Traffic tr = parse_traffic(traffic, t);
      std::vector<std::int64_t> load(static_cast<std::size_t>(t.links()), 0);
      std::vector<std::int64_t> sends(static_cast<std::size_t>(t.nodes()), 0), receives(sends);
      tr.for_each([&](NodeId s, NodeId d, std::int64_t w) {
        std::vector<int> at = t.coordinates(s);
        const std::vector<int> to = t.coordinates(d);
        for (std::size_t dim = 0; dim < at.size(); ++dim) {
          const Factor f = t.factors()[dim];
          while (at[dim] != to[dim]) {
            int step = to[dim] > at[dim] ? 1 : -1;
            if (f.kind == FactorKind::Ring) {
              const int forward = ((to[dim] - at[dim]) % f.size + f.size) % f.size;
              step = forward <= f.size - forward ? 1 : -1;
            }
            std::vector<int> next = at;
            next[dim] = ((at[dim] + step) % f.size + f.size) % f.size;
            const NodeId u = t.node_at(at), v = t.node_at(next);
            const auto port = t.port_to(u, v);
            REQUIRE(port.has_value());
            load[static_cast<std::size_t>(t.link_id(u, *port))] += w;
            sends[static_cast<std::size_t>(u)] += w;
            receives[static_cast<std::size_t>(v)] += w;
            at = next;
          }
        }
      });
      const std::int64_t routed = *std::max_element(load.begin(), load.end());
      const CongestionLp lp = congestion_lp(t, Model::AllPort, tr, 1 << 20);
      REQUIRE(lp.solved);
      CHECK(lp.lp_value <= static_cast<double>(routed) + 1e-6);
      CHECK(lp.bound <= routed);
      CHECK(static_cast<double>(lp.bound) >= lp.lp_value - 1e-6);  // the certificate rounds up to ceil(z*)
      CHECK(static_cast<double>(lp.bound) < lp.lp_value + 1);
      // Single-port adds every node's sends and receives to the congestion.
      const std::int64_t node_routed = std::max({routed, *std::max_element(sends.begin(), sends.end()),
                                                 *std::max_element(receives.begin(), receives.end())});
      const CongestionLp sp = congestion_lp(t, Model::SinglePort, tr, 1 << 20);
      REQUIRE(sp.solved);
      CHECK(sp.lp_value <= static_cast<double>(node_routed) + 1e-6);
      CHECK(sp.bound <= node_routed);
      CHECK(sp.bound >= lp.bound);
    }
  }
}

TEST_CASE("traffic bounds meet schedules that exist", "[traffic][bounds]") {
  // perm:shift:1:M on a ring: every step each node sends one flit to its successor (one injection,
  // one ejection, each clockwise link once), so M steps suffice under nic and single-port; the
  // bound must be exactly M, no term above it.
  for (const int n : {3, 5, 8})
    for (const int m : {1, 4, 7})
      for (const Model model : {Model::Nic, Model::SinglePort}) {
        INFO("ring:" << n << " shift:1:" << m << " " << to_string(model));
        const Topology t = parse_topology("ring:" + std::to_string(n));
        const LowerBound lb = traffic_lower_bound(t, model, parse_traffic("perm:shift:1:" + std::to_string(m), t));
        CHECK(lb.steps == m);
      }
  // groups:0 on torus:6x6 is six ring:6 all-to-alls side by side: the same bound as one ring
  // (the dimension cut and the pipeline term carry over; links of the other dimension only weaken
  // the link-count terms).
  const Topology torus = parse_topology("torus:6x6");
  for (const Model model : {Model::Nic, Model::AllPort, Model::SinglePort}) {
    INFO(to_string(model));
    CHECK(traffic_lower_bound(torus, model, parse_traffic("groups:0", torus)).steps ==
          lower_bound(parse_topology("ring:6"), model).steps);
  }
}

TEST_CASE("traffic congestion LP flows: feasible, at z*, and the fewest crossings among the optima", "[traffic][bounds]") {
  // The flows route-sat's LP stage decomposes (congestion_lp with flows): per source, flow is
  // conserved (out - in = what it sends at the source, in - out = what a node receives), no link
  // carries more than z* in all, and the second solve leaves no detour an optimum does not need.
  const auto check = [](const Topology& t, const Traffic& tr, double crossings) {
    const CongestionLp lp = congestion_lp(t, Model::Nic, tr, 1 << 20, false, true);
    REQUIRE(lp.solved);
    REQUIRE(lp.flows.size() == lp.flow_sources.size());
    std::vector<double> load(static_cast<std::size_t>(t.links()), 0.0);
    double total = 0;
    for (std::size_t i = 0; i < lp.flows.size(); ++i) {
      const NodeId s = lp.flow_sources[i];
      std::vector<double> net(static_cast<std::size_t>(t.nodes()), 0.0);
      for (LinkId l = 0; l < t.links(); ++l) {
        const double f = lp.flows[i][static_cast<std::size_t>(l)];
        CHECK(f >= -1e-9);
        net[static_cast<std::size_t>(t.link_source(l))] += f;
        net[static_cast<std::size_t>(t.link_target(l))] -= f;
        load[static_cast<std::size_t>(l)] += f;
        total += f;
      }
      for (NodeId v = 0; v < t.nodes(); ++v)
        CHECK(net[static_cast<std::size_t>(v)] == Approx(v == s ? static_cast<double>(tr.sent(s)) : -static_cast<double>(tr.flits(s, v))).margin(1e-6));
    }
    for (const double l : load) CHECK(l <= lp.lp_value + 1e-6);
    CHECK(total == Approx(crossings).margin(1e-6));
  };
  // The triangle (0 sends 3 to 1): 1.5 direct, 1.5 over node 2: 1.5 + 3 crossings.
  check(parse_topology("ring:3"), sparse(3, "0 1 3\n"), 4.5);
  // ring:6 perm:shift:1:6: a sixth of each flow the long way (5 hops): 6 x (5/6 + 5/6) = 10 a source.
  const Topology ring6 = parse_topology("ring:6");
  check(ring6, parse_traffic("perm:shift:1:6", ring6), 60.0);
  // torus:4x4: 4 flits from 5 to its neighbour 6 set z* = 1 (over its four links, the direct one
  // and three detours of 3 hops: 1 + 9 crossings); one flit from 0 to its neighbour 1 has links
  // to spare, so an optimum could detour it, but the fewest crossings send it direct: 11 in all.
  check(parse_topology("torus:4x4"), sparse(16, "5 6 4\n0 1 1\n"), 11.0);
}

TEST_CASE("traffic time-expanded LP: too few steps proven, enough not refuted", "[traffic][bounds]") {
  // ring:8 nic perm:shift:3:2 (3 hops clockwise, 5 the other way). In 4 steps no flit can go 5
  // hops, and the 16 flits' 48 clockwise hops meet 8 links x 4 steps = 32 link-steps: too few, and
  // the certificate (cheapest walks over the lengths) says so. 5 steps are enough (the first flit
  // of every node leaves in step 0 and the second in step 1 clockwise, or 5 hops the other way from
  // step 0), so the LP must not prove 5 too few.
  const Topology ring = parse_topology("ring:8");
  const Traffic shift = parse_traffic("perm:shift:3:2", ring);
  const TimeExpandedLp four = time_expanded_lp(ring, Model::Nic, shift, 4, 65536);
  CHECK(four.solved);
  CHECK(four.infeasible);
  CHECK(four.lp_value > 1.0);
  const TimeExpandedLp five = time_expanded_lp(ring, Model::Nic, shift, 5, 65536);
  CHECK(five.solved);
  CHECK_FALSE(five.infeasible);
  CHECK(five.lp_value <= 1.0 + 1e-9);
  const LowerBound lb = traffic_lower_bound(ring, Model::Nic, shift);
  CHECK(lb.steps == 5);
  CHECK(std::any_of(lb.terms.begin(), lb.terms.end(), [](const BoundTerm& b) { return b.name == "time_expanded_lp" && b.value == 5; }));
  // A one-shot term only: the periodic bound does not carry it.
  for (const BoundTerm& b : traffic_periodic_lower_bound(ring, Model::Nic, shift).terms) CHECK(b.name != "time_expanded_lp");
  // Single-port relays may buffer, which the LP does not allow: not solved, no term.
  CHECK_FALSE(time_expanded_lp(ring, Model::SinglePort, shift, 4, 65536).solved);
  // perm:shift:1:M on rings: M steps exist, so the LP proves nothing at M (all-port and nic).
  for (const Model model : {Model::Nic, Model::AllPort})
    for (const int m : {1, 3}) {
      const Traffic one = parse_traffic("perm:shift:1:" + std::to_string(m), ring);
      CHECK_FALSE(time_expanded_lp(ring, model, one, m, 65536).infeasible);
    }
  // Stronger than the family bound where it should be: path:5 nic `all` has the family bound 6, and
  // the exact search proves 6 steps infeasible (its optimum is 7); the LP proves it too.
  const Topology path = parse_topology("path:5");
  CHECK(time_expanded_lp(path, Model::Nic, parse_traffic("all", path), 6, 65536).infeasible);
  CHECK_FALSE(time_expanded_lp(path, Model::Nic, parse_traffic("all", path), 7, 65536).infeasible);
  DecideOptions exact;
  const Traffic all5 = parse_traffic("all", path);
  exact.traffic = &all5;
  CHECK(exact_decide(path, Model::Nic, 6, exact).answer == SatAnswer::Unsat);
  // Above the column limit: not solved, and it says so.
  const TimeExpandedLp big = time_expanded_lp(ring, Model::Nic, shift, 5, 10);
  CHECK_FALSE(big.solved);
  CHECK(big.why_not.find("more than 10 columns") != std::string::npos);
}
