// SPDX-License-Identifier: Apache-2.0
// Paper 003 (metacube total exchange): routes, destination order, the paper's claims, nic schedules.
#include <catch2/catch.hpp>

#include <algorithm>

#include "totex/bounds/bounds.hpp"
#include "totex/network/distance.hpp"
#include "totex/error.hpp"
#include "totex/generators/metacube.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

namespace {

std::size_t ix(int i) { return static_cast<std::size_t>(i); }

/// Measured values per topology (the paper gives a number only for MC(2,2)).
struct Expected {
  const char* spec;
  std::int64_t total_path_length;  // per source, the d*t_h coefficient
  std::int64_t paper_steps;        // nic schedule steps, paper order
  std::int64_t firstfit_steps;     // nic schedule steps, first-fit order
  std::int64_t nic_lower_bound;
};
// MC(2,2): 7328 = the paper's 7328 t_h exactly (5120 for the 10-cube + extra distance E = 2208).
// MC(2,1): 296 = the paper's closed form p(log p/2 + 5/2) - sqrt(2) p^{3/4} - 3 sqrt(p) at p = 64.
// k = 1 (dual-cube): no value in the paper; the totals equal the BFS status of a node.
const Expected kExpected[] = {
    {"metacube:1,1", 16, 12, 10, 9},         {"metacube:1,2", 104, 53, 44, 37},
    {"metacube:1,3", 560, 216, 186, 143},    {"metacube:2,1", 296, 139, 134, 128},
    {"metacube:2,2", 7328, 2529, 2262, 2049},  // cut_corners: the bisection's 2048 plus the idle first/last steps
};

/// Independent check of every route from `sources`: adjacent hops, ends at d, BFS length.
void check_routes(const Topology& t, const std::vector<NodeId>& sources) {
  for (NodeId s : sources) {
    const std::vector<int> dist = bfs_distances(t, s);
    std::int64_t total = 0;
    for (NodeId d = 0; d < t.nodes(); ++d) {
      if (d == s) continue;
      const std::vector<NodeId> r = metacube_route(t, s, d);
      REQUIRE(r.front() == s);
      REQUIRE(r.back() == d);
      for (std::size_t i = 0; i + 1 < r.size(); ++i) REQUIRE(t.port_to(r[i], r[i + 1]).has_value());
      REQUIRE(static_cast<int>(r.size()) - 1 == dist[ix(d)]);
      total += static_cast<std::int64_t>(r.size()) - 1;
    }
    std::int64_t bfs_total = 0;
    for (int x : dist) bfs_total += x;
    REQUIRE(total == bfs_total);
  }
}

void check_destination_order(const Topology& t, NodeId s) {
  std::vector<NodeId> order = metacube_destination_order(t, s);
  REQUIRE(order.size() == ix(t.nodes() - 1));
  for (std::size_t x = 0; x < order.size(); ++x) REQUIRE(order[x] == metacube_destination(t, s, static_cast<int>(x)));
  std::sort(order.begin(), order.end());
  for (NodeId d = 0, i = 0; d < t.nodes(); ++d) {
    if (d == s) continue;
    REQUIRE(order[ix(i++)] == d);
  }
}

}  // namespace

TEST_CASE("metacube routes are valid shortest paths and the order is a permutation", "[metacube]") {
  for (const Expected& e : kExpected) {
    INFO(e.spec);
    const Topology t = parse_topology(e.spec);
    std::vector<NodeId> sources;
    const NodeId stride = t.nodes() > 64 ? 61 : 1;  // MC(2,2): 17 sources of every class
    for (NodeId s = 0; s < t.nodes(); s += stride) sources.push_back(s);
    sources.push_back(t.nodes() - 1);
    check_routes(t, sources);
    for (NodeId s : sources) check_destination_order(t, s);
    // In every step the destinations form a permutation (each node receives once).
    const int step_stride = t.nodes() > 64 ? 97 : 1;
    for (int x = 0; x < metacube_step_count(t); x += step_stride) {
      std::vector<bool> hit(ix(t.nodes()));
      for (NodeId s = 0; s < t.nodes(); ++s) {
        const NodeId d = metacube_destination(t, s, x);
        REQUIRE(d != s);
        REQUIRE_FALSE(hit[ix(d)]);
        hit[ix(d)] = true;
      }
    }
  }
}

TEST_CASE("metacube analysis: path length, per-step distance, link-disjointness", "[metacube]") {
  for (const Expected& e : kExpected) {
    INFO(e.spec);
    const Topology t = parse_topology(e.spec);
    const MetacubeAnalysis a = analyze_metacube(t);
    REQUIRE(a.routes_checked == static_cast<std::int64_t>(t.nodes()) * (t.nodes() - 1));
    REQUIRE(a.routes_valid);
    REQUIRE(a.routes_shortest);
    REQUIRE(a.total_path_length_min == e.total_path_length);
    REQUIRE(a.total_path_length_max == e.total_path_length);
    REQUIRE(a.total_bfs_distance == e.total_path_length);
    if (t.metacube_k() == 2) {
      REQUIRE(a.paper_total_path_length.has_value());
      REQUIRE(*a.paper_total_path_length == e.total_path_length);  // the paper's formula holds
    }
    // Claim 2 of Algorithm 1 holds: every (s,d) of a step has the same distance.
    REQUIRE(a.distance_uniform_per_step);
    // Conflict-free "at any given time" holds when a step's messages start together and move one
    // hop per step; as sets of directed links the messages of a step are NOT disjoint.
    REQUIRE(a.time_aligned_disjoint_per_step);
    REQUIRE_FALSE(a.link_disjoint_per_step);
    REQUIRE(a.first_link_conflict.has_value());
    const MetacubeLinkConflict& c = *a.first_link_conflict;
    const auto ra = metacube_route(t, c.a.src, c.a.dst);
    const auto rb = metacube_route(t, c.b.src, c.b.dst);
    REQUIRE(metacube_destination(t, c.a.src, c.step) == c.a.dst);
    REQUIRE(metacube_destination(t, c.b.src, c.step) == c.b.dst);
    REQUIRE(ra[ix(c.hop_a)] == c.from);
    REQUIRE(ra[ix(c.hop_a + 1)] == c.to);
    REQUIRE(rb[ix(c.hop_b)] == c.from);
    REQUIRE(rb[ix(c.hop_b + 1)] == c.to);
    REQUIRE(c.hop_a != c.hop_b);
  }
}

TEST_CASE("metacube MC(2,2) link conflict counterexample", "[metacube]") {
  // Step 3 (index 4: c[4]=0, c[1]=1): source 4 = (0,0,0,1,0) sends to 0 via 4->260->256->0;
  // source 256 = (1,0,0,0,0) sends to 257 via 256->0->1->257. Both cross 256->0 (hops 2 and 0).
  const Topology t = parse_topology("metacube:2,2");
  REQUIRE(metacube_destination(t, 4, 3) == 0);
  REQUIRE(metacube_destination(t, 256, 3) == 257);
  REQUIRE(metacube_route(t, 4, 0) == std::vector<NodeId>{4, 260, 256, 0});
  REQUIRE(metacube_route(t, 256, 257) == std::vector<NodeId>{256, 0, 1, 257});
}

TEST_CASE("metacube Algorithm 1 for s = 0 matches the paper's listing", "[metacube]") {
  // c[4]=0: (0,c3,c2,c1,c0); 1: (1,c2,c3,c0,c1); 2: (2,c1,c0,c3,c2); 3: (3,c0,c1,c2,c3).
  const Topology t = parse_topology("metacube:2,2");
  const int perm[4][4] = {{3, 2, 1, 0}, {2, 3, 0, 1}, {1, 0, 3, 2}, {0, 1, 2, 3}};  // field 3..0 holds c[.]
  for (int idx = 1; idx < t.nodes(); idx += 7) {
    const int c4 = idx >> 8;
    int c[4];
    for (int j = 0; j < 4; ++j) c[j] = (idx >> (2 * j)) & 3;
    NodeId d = c4 << 8;
    for (int f = 3; f >= 0; --f) d |= c[perm[c4][3 - f]] << (2 * f);
    REQUIRE(metacube_destination(t, 0, idx - 1) == d);
  }
}

TEST_CASE("metacube Table 1: class paths are shortest walks, the printed (3,2) entry is invalid", "[metacube]") {
  for (int dest = 0; dest < 4; ++dest)
    for (int type = 0; type < 4; ++type) {
      const auto p = metacube_class_path(2, dest, type);
      REQUIRE(static_cast<int>(p.size()) == p[0] + 1);
      int at = 0;
      for (std::size_t i = 1; i < p.size(); ++i) {
        const int flip = at ^ p[i];
        REQUIRE((flip == 1 || flip == 2));
        at = p[i];
      }
      REQUIRE(at == dest);
    }
  REQUIRE(metacube_class_path(2, 3, 2) == std::vector<int>{2, 2, 3});
  REQUIRE(metacube_class_path(2, 3, 2, ClassPathTable::Printed) == std::vector<int>{2, 1, 3});
  // s = 0, d = (3, 0,1,0,0): dest 3, field 2 differs only -> type 2. The printed path 0,1,3 never
  // routes field 2, so the message ends at (3,0,0,0,0) = 48 instead of d = 52 in MC(2,1).
  const Topology t = parse_topology("metacube:2,1");
  const NodeId d = (3 << 4) | (1 << 2);
  REQUIRE(metacube_type(t, 0, d) == 2);
  REQUIRE(metacube_route(t, 0, d, ClassPathTable::Printed).back() == (3 << 4));
  REQUIRE(metacube_route(t, 0, d).back() == d);
  REQUIRE(analyze_metacube(t).printed_table_invalid_routes == 64 * 4);
}

TEST_CASE("metacube schedules verify under nic", "[metacube]") {
  for (const Expected& e : kExpected) {
    INFO(e.spec);
    const Topology t = parse_topology(e.spec);
    const std::int64_t lb = lower_bound(t, Model::Nic).steps;
    REQUIRE(lb == e.nic_lower_bound);
    for (MetacubeOrder order : {MetacubeOrder::Paper, MetacubeOrder::FirstFit}) {
      const MetacubeScheduleResult res = metacube_schedule_detailed(t, order);
      REQUIRE(res.split_steps == 0);
      REQUIRE(res.schedule.model == Model::Nic);
      const VerifyReport r = verify(t, res.schedule, static_cast<std::int64_t>(res.schedule.steps.size()));
      REQUIRE(r.ok);
      REQUIRE(r.delivered == static_cast<std::int64_t>(t.nodes()) * (t.nodes() - 1));
      REQUIRE(r.max_buffered == 0);
      REQUIRE(r.steps >= lb);
      REQUIRE(r.steps == (order == MetacubeOrder::Paper ? e.paper_steps : e.firstfit_steps));
      // Every communication step starts at its own link-level step (all nodes inject in it).
      std::vector<int> starts = res.injection_step;
      std::sort(starts.begin(), starts.end());
      REQUIRE(std::adjacent_find(starts.begin(), starts.end()) == starts.end());
      REQUIRE(res.injection_step[0] == 0);  // paper step 0 starts at once in both orders
    }
  }
}

TEST_CASE("metacube schedule edited to inject twice trips the verifier", "[metacube]") {
  const Topology t = parse_topology("metacube:1,1");
  Schedule s = metacube_schedule(t);
  REQUIRE(verify(t, s).ok);
  // Node 0's message of communication step 1 is moved to start in the step where node 0 injects
  // its step-0 message.
  const MetacubeScheduleResult res = metacube_schedule_detailed(t);
  const auto start0 = ix(res.injection_step[0]);
  const auto start1 = ix(res.injection_step[1]);
  REQUIRE(start0 != start1);
  const Message moved{0, metacube_destination(t, 0, 1)};
  std::vector<Transfer> hops;
  for (auto& step : s.steps) {
    for (const Transfer& tr : step)
      if (tr.msg == moved) hops.push_back(tr);
    step.erase(std::remove_if(step.begin(), step.end(), [&](const Transfer& tr) { return tr.msg == moved; }),
               step.end());
  }
  REQUIRE(!hops.empty());
  REQUIRE(hops.front().from == 0);
  for (std::size_t h = 0; h < hops.size(); ++h) {
    if (s.steps.size() <= start0 + h) s.steps.resize(start0 + h + 1);
    s.steps[start0 + h].push_back(hops[h]);
  }
  const VerifyReport r = verify(t, s);
  REQUIRE_FALSE(r.ok);
  const auto it = std::find_if(r.violations.begin(), r.violations.end(),
                               [](const Violation& v) { return v.kind == "inject-limit"; });
  REQUIRE(it != r.violations.end());
  REQUIRE(it->step == static_cast<int>(start0));
  REQUIRE(it->node == 0);
}

TEST_CASE("metacube generator rejects unsupported topologies", "[metacube]") {
  REQUIRE_THROWS_AS(metacube_schedule(parse_topology("metacube:3,1")), UsageError);
  REQUIRE_THROWS_AS(metacube_schedule(parse_topology("metacube:0,3")), UsageError);
  REQUIRE_THROWS_AS(metacube_schedule(parse_topology("hypercube:3")), UsageError);
  REQUIRE_THROWS_AS(metacube_schedule(parse_topology("metacube:2,3")), UsageError);  // 16384 nodes
  REQUIRE_THROWS_WITH(metacube_route(parse_topology("metacube:3,1"), 0, 1), Catch::Contains("k = 3"));
  REQUIRE_THROWS_AS(metacube_destination(parse_topology("metacube:2,1"), 0, 63), UsageError);
}
