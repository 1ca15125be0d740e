// SPDX-License-Identifier: Apache-2.0
// Any traffic on a MIN (min_traffic.hpp): the bound, the configurations, their check and file.
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "totex/generators/generators.hpp"
#include "totex/generators/min_traffic.hpp"
#include "totex/io/schedule_io.hpp"
#include "totex/network/spec.hpp"
#include "totex/splitmix.hpp"
#include "totex/verify/reference_engine.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

namespace {
MinNetwork min(const char* spec) { return std::get<MinNetwork>(parse_spec(spec)); }

std::int64_t term(const LowerBound& lb, const std::string& name) {
  for (const BoundTerm& t : lb.terms)
    if (t.name == name) return t.value;
  return -1;
}

/// The fewest configurations that carry every flit: exhaustive colouring of the conflict graph
/// (two flits conflict when they share a source, a destination, or a switch in different states).
std::int64_t exact_configurations(const MinNetwork& net, const Traffic& tr) {
  struct Flit {
    NodeId src, dst;
    std::vector<std::pair<int, int>> states;  // (switch, state)
  };
  std::vector<Flit> flits;
  tr.for_each([&](NodeId s, NodeId d, std::int64_t w) {
    Flit f{s, d, {}};
    for (const MinNetwork::Hop& h : net.path(s, d))
      f.states.push_back({net.switch_of(h), net.state_of(h)});
    for (std::int64_t k = 0; k < w; ++k) flits.push_back(f);
  });
  const auto clash = [&](const Flit& a, const Flit& b) {
    if (a.src == b.src || a.dst == b.dst) return true;
    for (const auto& [sa, ka] : a.states)
      for (const auto& [sb, kb] : b.states)
        if (sa == sb && ka != kb) return true;
    return false;
  };
  std::vector<int> color(flits.size(), -1);
  std::function<bool(std::size_t, int)> fill = [&](std::size_t i, int k) {
    if (i == flits.size()) return true;
    for (int c = 0; c < k; ++c) {
      bool ok = true;
      for (std::size_t j = 0; j < i && ok; ++j) ok = color[j] != c || !clash(flits[i], flits[j]);
      if (!ok) continue;
      color[i] = c;
      if (fill(i + 1, k)) return true;
    }
    color[i] = -1;
    return false;
  };
  for (int k = 1;; ++k)
    if (fill(0, k)) return k;
}
}  // namespace

TEST_CASE("min traffic bound, hand-computed on a gather", "[min][traffic]") {
  // Terminals 1..6 send 2 flits each to terminal 0 of min:16:4: terminal 0 receives 12, one per
  // configuration, and the last-stage switch of output 0 needs one state per input it hears from,
  // 2 flits per input: 12 configurations; plus log_4 16 - 1 = 1 pipeline cycle.
  const MinNetwork net = min("min:16:4");
  std::vector<Traffic::Triplet> t;
  for (NodeId s = 1; s <= 6; ++s) t.push_back({s, 0, 2, 0});
  const Traffic tr = Traffic::from_triplets(16, t, Traffic::Duplicates::Refuse, "matrix", "matrix:gather");
  const LowerBound lb = min_traffic_lower_bound(net, tr);
  CHECK(term(lb, "nic_ejection") == 12);
  CHECK(term(lb, "nic_injection") == 2);
  CHECK(term(lb, "switch_states") == 12);
  CHECK(term(lb, "pipeline") == 1);
  CHECK(lb.steps == 13);
  const MinTrafficOutcome out = min_traffic_schedule(net, tr, 1);
  CHECK(out.proven_optimal);
  CHECK(out.schedule.steps(net) == 13);
  CHECK(verify(net, out.schedule, std::nullopt, &tr).ok);
}

TEST_CASE("min traffic bound at most the exact optimum, the schedule at least it", "[min][traffic]") {
  // Small random traffics on min:8:2 (3 stages of 2x2 switches), solved exactly by colouring.
  const MinNetwork net = min("min:8:2");
  std::uint64_t seed = 7;
  int met = 0;
  for (int round = 0; round < 20; ++round) {
    std::vector<Traffic::Triplet> t;
    for (NodeId s = 0; s < 8; ++s)
      for (NodeId d = 0; d < 8; ++d)
        if (s != d && splitmix64(seed) % 6 == 0) t.push_back({s, d, static_cast<std::uint32_t>(1 + splitmix64(seed) % 2), 0});
    if (t.empty()) continue;
    const Traffic tr = Traffic::from_triplets(8, t, Traffic::Duplicates::Refuse, "matrix", "matrix:r");
    if (tr.total_flits() > 14) continue;  // keeps the exhaustive colouring quick
    const std::int64_t exact = exact_configurations(net, tr);
    const LowerBound lb = min_traffic_lower_bound(net, tr);
    const MinTrafficOutcome out = min_traffic_schedule(net, tr, 1);
    INFO("round " << round << ": bound " << lb.steps - 2 << ", exact " << exact << ", schedule " << out.schedule.configurations.size());
    CHECK(lb.steps - 2 <= exact);
    CHECK(static_cast<std::int64_t>(out.schedule.configurations.size()) >= exact);
    CHECK(verify(net, out.schedule, std::nullopt, &tr).ok);
    met += static_cast<std::int64_t>(out.schedule.configurations.size()) == exact ? 1 : 0;
  }
  CHECK(met > 0);
}

TEST_CASE("min traffic all:M repeats the Latin configurations at the bound", "[min][traffic]") {
  // Omega: 2(N - 1) configurations, the terminals bind. min:16:2:butterfly: the output of a
  // first-stage switch towards the other half carries both its sources' flits to those 8
  // terminals, 2 x 8 x 2 = 32 (their only path), so 32 configurations bind and are met.
  for (const auto& [spec, configurations] : {std::pair{"min:64:4", 126}, std::pair{"min:27:3", 52}, std::pair{"min:16:2:butterfly", 32}}) {
    const MinNetwork net = min(spec);
    const Traffic tr = parse_min_traffic("all:2", net);
    const MinTrafficOutcome out = min_traffic_schedule(net, tr, 1);
    INFO(spec);
    CHECK(out.proven_optimal);
    CHECK(static_cast<int>(out.schedule.configurations.size()) == configurations);
    CHECK(out.bound.steps == configurations + net.stages() - 1);
    CHECK(verify(net, out.schedule).ok);  // the traffic read again from its tag
  }
}

TEST_CASE("min traffic verify names lost, repeated and foreign flits", "[min][traffic]") {
  const MinNetwork net = min("min:16:4");
  const Traffic tr = parse_min_traffic("random:3:0.3:3", net);
  const MinSchedule good = min_traffic_schedule(net, tr, 1).schedule;
  REQUIRE(verify(net, good).ok);
  const auto kinds = [&](const MinSchedule& s, const Traffic* t = nullptr) {
    std::set<std::string> k;
    for (const Violation& v : verify(net, s, std::nullopt, t).violations) k.insert(v.kind);
    return k;
  };
  MinSchedule dropped = good;
  dropped.configurations.pop_back();
  dropped.idle.pop_back();
  CHECK(kinds(dropped).count("lost") == 1);
  MinSchedule twice = good;
  twice.configurations.push_back(good.configurations.front());
  twice.idle.push_back(good.idle.front());
  CHECK(kinds(twice).count("delivered-twice") == 1);
  MinSchedule everyone = good;  // nobody idle: self slots and pairs the traffic does not have
  for (auto& idle : everyone.idle) idle.clear();
  CHECK(kinds(everyone).count("not-in-traffic") == 1);
  const Traffic other = parse_min_traffic("random:4:0.3:3", net);
  CHECK(kinds(good, &other).count("traffic") == 1);
}

TEST_CASE("min traffic schedule file round trip and the reference engine", "[min][traffic]") {
  const MinNetwork net = min("min:16:2:baseline");
  const Traffic tr = parse_min_traffic("moe:8:2:3:5", net);
  const MinSchedule s = min_traffic_schedule(net, tr, 1).schedule;
  std::stringstream file;
  write_min_schedule(file, net, s);
  const LoadedSchedule back = read_schedule(file, "t.cfg");
  const auto& r = std::get<MinSchedule>(back.schedule);
  CHECK(r.traffic.spec == s.traffic.spec);
  CHECK(r.traffic.sha256 == s.traffic.sha256);
  CHECK(r.configurations == s.configurations);
  CHECK(r.idle == s.idle);
  CHECK(verify(net, r, back.claimed_steps).ok);
  const SimResult run = run_reference(net, r, back.claimed_steps);
  CHECK(run.ok());
  CHECK(run.delivered == tr.total_flits());
  // A traffic line in a computed (M^0) file is refused: M^0 derives paper 002's all only.
  std::string text = file.str();
  text.replace(text.find("form table"), 10, "form computed");
  std::istringstream bad(text);
  CHECK_THROWS_WITH(read_schedule(bad, "t.cfg"), Catch::Contains("a traffic schedule has form table"));
}

TEST_CASE("min traffic exact stage proves one configuration fewer infeasible", "[min][traffic]") {
  // Small traffics (1-2 flits per pair, at most 12 flits) drawn until one needs more configurations
  // than its bound (found by exhaustive colouring; the first is min:8:2's draw 202, bound 3,
  // optimum 4): the schedule has the optimum and CaDiCaL proves one configuration fewer infeasible.
  std::uint64_t seed = 11;
  bool found = false;
  for (const char* spec : {"min:8:2", "min:9:3", "min:8:2:butterfly"}) {
    const MinNetwork net = min(spec);
    const int n = net.terminals();
    for (int draw = 0; draw < 4000 && !found; ++draw) {
      std::vector<Traffic::Triplet> t;
      std::int64_t total = 0;
      for (NodeId s = 0; s < n; ++s)
        for (NodeId d = 0; d < n; ++d)
          if (s != d && splitmix64(seed) % 7 == 0) {
            t.push_back({s, d, static_cast<std::uint32_t>(1 + splitmix64(seed) % 2), 0});
            total += t.back().flits;
          }
      if (t.size() < 3 || total > 12) continue;
      const Traffic tr = Traffic::from_triplets(n, t, Traffic::Duplicates::Refuse, "matrix", "matrix:draw");
      const std::int64_t bound = min_traffic_lower_bound(net, tr).steps - (net.stages() - 1);
      const std::int64_t exact = exact_configurations(net, tr);
      if (exact == bound) continue;
      found = true;
      INFO(spec << ", draw " << draw << ": bound " << bound << ", exact " << exact);
      const MinTrafficOutcome out = min_traffic_schedule(net, tr, 1);
      CHECK(static_cast<std::int64_t>(out.schedule.configurations.size()) == exact);
      CHECK(out.proven_optimal);
      CHECK_THAT(out.proof, Catch::Contains(std::to_string(exact - 1) + " configurations infeasible (UNSAT)"));
      CHECK(verify(net, out.schedule, std::nullopt, &tr).ok);
    }
  }
  REQUIRE(found);
}
