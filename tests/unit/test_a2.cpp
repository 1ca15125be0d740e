// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "totex/generators/a2.hpp"
#include "totex/bounds/bounds.hpp"
#include "totex/network/distance.hpp"
#include "totex/error.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

namespace {

/// S_i = sum of statuses of the factor graph, by BFS (independent of the closed forms).
std::int64_t factor_total_status(const Factor& f) { return total_status_bfs(factor_graph(f)); }

/// n * sum_i T_i / |V_i| with T_i measured from the built per-dimension schedules.
std::int64_t corollary2(const Topology& t) {
  std::int64_t total = 0;
  for (const Factor& f : t.factors())
    total += (t.nodes() / f.size) * static_cast<std::int64_t>(factor_exchange(f).steps.size());
  return total;
}

struct Case {
  std::string spec;
  bool expect_optimal;
};

}  // namespace

TEST_CASE("ring exchange reaches AS = floor(k^2/4) for k = 2..16", "[a2]") {
  for (int k = 2; k <= 16; ++k) {
    const Factor f{FactorKind::Ring, k};
    const Topology g = factor_graph(f);
    const Schedule s = factor_exchange(f);
    const VerifyReport r = verify(g, s, static_cast<std::int64_t>(k * k / 4));
    INFO("ring:" << k << " " << (r.violations.empty() ? "" : r.violations[0].text));
    REQUIRE(r.ok);
    CHECK(r.steps == factor_exchange_steps(f));
    // AS is an integer for rings: S_G / n = floor(k^2/4) exactly.
    CHECK(factor_total_status(f) == static_cast<std::int64_t>(k) * (k * k / 4));
    CHECK(r.steps == lower_bound(g, Model::SinglePort).steps);
    // Every node sends and receives in every step.
    for (const auto& step : s.steps) CHECK(step.size() == static_cast<std::size_t>(k == 2 ? 2 : k));
    // No relay ever buffers: class pipelines move one hop per step.
    CHECK(r.max_buffered <= 1);
  }
}

TEST_CASE("complete-graph exchange takes m-1 = AS(K_m) steps", "[a2]") {
  for (int m = 2; m <= 12; ++m) {
    const Factor f{FactorKind::Complete, m};
    const Topology g = factor_graph(f);
    const VerifyReport r = verify(g, factor_exchange(f), m - 1);
    REQUIRE(r.ok);
    CHECK(factor_total_status(f) == static_cast<std::int64_t>(m) * (m - 1));
    CHECK(r.steps == lower_bound(g, Model::SinglePort).steps);
  }
}

TEST_CASE("path exchange is valid and meets the relay bound floor((k^2-1)/2)", "[a2]") {
  // ceil(AS(P_k)) = ceil((k^2-1)/3) is not reachable for k >= 3: the middle node alone must send
  // k-1 + 2 floor((k-1)/2) ceil((k-1)/2) = floor((k^2-1)/2) messages.
  for (int k = 2; k <= 40; ++k) {
    const Factor f{FactorKind::Path, k};
    const Topology g = factor_graph(f);
    const Schedule s = factor_exchange(f);
    const VerifyReport r = verify(g, s);
    INFO("path:" << k << " " << (r.violations.empty() ? "" : r.violations[0].text));
    REQUIRE(r.ok);
    const std::int64_t sg = factor_total_status(f);
    const std::int64_t ceil_as = (sg + k - 1) / k;
    CHECK(sg == static_cast<std::int64_t>(k) * (k * k - 1) / 3);
    CHECK(path_exchange_lower_bound(k) == (k * k - 1) / 2);
    CHECK(r.steps == path_exchange_lower_bound(k));  // optimal for paths
    CHECK(r.steps == factor_exchange_steps(f));
    CHECK(r.steps >= lower_bound(g, Model::SinglePort).steps);
    CHECK((r.steps == ceil_as) == (k == 2));
  }
}

TEST_CASE("A2 on products: verified, Corollary 2 step count, Theorem 3 optimality", "[a2]") {
  const std::vector<Case> cases = {
      {"ring:7", true},          {"torus:3x4", true},          {"torus:4x6", true},
      {"torus:2x3x4", true},     {"torus:5x5", true},          {"torus:3x3x3", true},
      {"torus:4x4x4", true},     {"hypercube:1", true},        {"hypercube:2", true},
      {"hypercube:3", true},     {"hypercube:4", true},        {"hypercube:5", true},
      {"hypercube:6", true},     {"ghc:3x4", true},            {"ghc:2x3x5", true},
      {"ring:5*complete:3", true}, {"complete:3*ring:6", true}, {"ring:4*ring:2*complete:5", true},
      // Products with a path factor: A2 is valid but not optimal (the path schedule is not).
      {"path:3*ring:4", false},  {"path:4*path:4", false},     {"ring:5*path:2", true},
  };
  for (const Case& c : cases) {
    const Topology t = parse_topology(c.spec);
    const A2Result r = a2(t);
    const VerifyReport v = verify(t, r.schedule, r.predicted_steps);
    INFO(c.spec << ": " << (v.violations.empty() ? "" : v.violations[0].text));
    REQUIRE(v.ok);
    CHECK(r.schedule.model == Model::SinglePort);
    CHECK(v.delivered == static_cast<std::int64_t>(t.nodes()) * (t.nodes() - 1));
    CHECK(v.steps == corollary2(t));
    CHECK(v.steps == a2_predicted_steps(t));
    const LowerBound lb = lower_bound(t, Model::SinglePort);
    const bool optimal = v.steps == lb.steps;
    CHECK(optimal == c.expect_optimal);
    CHECK(r.dimensions_reach_as == c.expect_optimal);
    if (r.dimensions_reach_as) {
      // Theorem 3: T equals AS(G) = S_G / n exactly (an integer here).
      const std::int64_t sg = total_status_bfs(t);
      CHECK(sg % t.nodes() == 0);
      CHECK(v.steps == sg / t.nodes());
    }
    // Blocks tile the schedule in order.
    std::int64_t at = 0;
    for (const A2Block& b : r.blocks) {
      CHECK(b.first_step == at);
      at += b.steps;
    }
    CHECK(at == v.steps);
  }
}

TEST_CASE("A2 block boundaries: buffered messages match the algorithm", "[a2]") {
  // torus:3x4: A = ring:3 (n1 = 3), B = ring:4 (n2 = 4). After the n1 distribute blocks, node
  // (a, j) holds m_(a,kk)(x, j) for kk != j, x != a: (n2-1)(n1-1) messages.
  const Topology t = parse_topology("torus:3x4");
  const A2Result r = a2(t);
  REQUIRE(r.blocks.size() == 3 + 4);
  for (int i = 0; i < 3; ++i) CHECK(r.blocks[static_cast<std::size_t>(i)].distribute);
  const auto held = a2_buffers(t, r, 2);
  for (NodeId v = 0; v < t.nodes(); ++v) {
    const auto& h = held[static_cast<std::size_t>(v)];
    CHECK(h.size() == 3u * 2u);
    for (const Message& m : h) {
      CHECK(t.coordinates(m.dst)[1] == t.coordinates(v)[1]);  // destined for v's copy of A
      CHECK(t.coordinates(m.src)[0] == t.coordinates(v)[0]);  // came along v's copy of B
    }
  }
  // After the last block nothing is buffered.
  const auto end = a2_buffers(t, r, r.blocks.size() - 1);
  for (const auto& h : end) CHECK(h.empty());
}

TEST_CASE("verify catches an A2 schedule edited to send twice from one node", "[a2]") {
  const Topology t = parse_topology("torus:3x4");
  Schedule s = a2_schedule(t);
  REQUIRE(verify(t, s).ok);
  // Pull a transfer of node u from step 1 into step 0, where u already sends.
  const Transfer moved = s.steps[1][0];
  s.steps[1].erase(s.steps[1].begin());
  REQUIRE(std::any_of(s.steps[0].begin(), s.steps[0].end(),
                      [&](const Transfer& x) { return x.from == moved.from; }));
  s.steps[0].push_back(moved);
  const VerifyReport r = verify(t, s);
  CHECK_FALSE(r.ok);
  CHECK(std::any_of(r.violations.begin(), r.violations.end(), [&](const Violation& x) {
    return x.kind == "send-limit" && x.step == 0 && x.node == moved.from;
  }));
}

TEST_CASE("a2 rejects a metacube", "[a2]") {
  CHECK_THROWS_AS(a2(parse_topology("metacube:1,2")), UsageError);
}
