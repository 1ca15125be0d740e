// SPDX-License-Identifier: Apache-2.0
// Schedules for any traffic (docs/traffic.md, "Schedules"): the message numbering, the verifiers
// with a traffic, the files that record it, the list scheduler and the fast paths.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

#include <map>
#include <set>
#include <tuple>
#include "totex/error.hpp"
#include "totex/generators/exact.hpp"
#include "totex/generators/traffic_schedule.hpp"
#include "totex/io/schedule_io.hpp"
#include "totex/network/spec.hpp"
#include "totex/traffic/traffic.hpp"
#include "totex/traffic/traffic_bounds.hpp"
#include "totex/verify/message_index.hpp"
#include "totex/verify/periodic_verify.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

namespace {

/// ring:4, hand-made: 0->1 three flits, 2->0 two flits, 3->0 one flit.
Traffic small_ring_traffic() {
  return Traffic::from_triplets(4, {{0, 1, 3, 0}, {2, 0, 2, 0}, {3, 0, 1, 0}}, Traffic::Duplicates::Refuse, "matrix", "matrix:hand");
}

}  // namespace

TEST_CASE("message index: every flit has one slot, and back", "[traffic_schedule]") {
  const Topology t = parse_topology("torus:3x3");
  SECTION("all keeps the destination-major layout") {
    const MessageIndex index(t, nullptr);
    CHECK(index.size() == 81);
    CHECK(index.expected_count() == 72);
    CHECK(index.slot({1, 2, 0}) == 2 * 9 + 1);
    CHECK(index.slot({1, 2, 1}) == MessageIndex::npos);
    CHECK(index.slot({1, 1, 0}) == MessageIndex::npos);
    CHECK_FALSE(index.multi_flit());
  }
  SECTION("all:3") {
    const Traffic all3 = parse_traffic("all:3", t);
    const MessageIndex index(t, &all3);
    CHECK(index.expected_count() == 72 * 3);
    for (NodeId s = 0; s < 9; ++s)
      for (NodeId d = 0; d < 9; ++d)
        for (std::int32_t k = 0; k < 3 && s != d; ++k) {
          const std::size_t slot = index.slot({s, d, k});
          REQUIRE(slot != MessageIndex::npos);
          CHECK(index.message(slot) == Message{s, d, k});
          CHECK(index.expected(slot));
        }
    CHECK(index.slot({0, 1, 3}) == MessageIndex::npos);
    CHECK(index.text({0, 1, 2}) == "(0,1)#2");
  }
  SECTION("a sparse traffic: its pairs' flits only") {
    const Topology ring = parse_topology("ring:4");
    const Traffic tr = small_ring_traffic();
    const MessageIndex index(ring, &tr);
    CHECK(index.size() == 6);
    CHECK(index.slot({0, 1, 2}) != MessageIndex::npos);
    CHECK(index.slot({0, 1, 3}) == MessageIndex::npos);
    CHECK(index.slot({1, 0, 0}) == MessageIndex::npos);
    CHECK(index.why_not({1, 0, 0}).find("sends no flit from 1 to 0") != std::string::npos);
    CHECK(index.why_not({0, 1, 3}).find("sends 3 flits from 0 to 1 (flits 0..2)") != std::string::npos);
    for (std::size_t slot = 0; slot < index.size(); ++slot) CHECK(index.slot(index.message(slot)) == slot);
  }
}

TEST_CASE("verify with a traffic: lost flits, flits beyond the traffic, the recorded tag", "[traffic_schedule]") {
  const Topology ring = parse_topology("ring:4");
  const Traffic tr = small_ring_traffic();
  Schedule s = list_schedule(ring, Model::Nic, tr, 0, 4, 2);
  REQUIRE(s.traffic.sha256 == tr.sha256());
  VerifyReport ok = verify(ring, s, std::nullopt, {}, &tr);
  CHECK(ok.ok);
  CHECK(ok.delivered == 6);
  CHECK(ok.expected == 6);
  // Node 0 receives three flits, one per step under nic, and the last comes from 2 hops away: bound 3.
  CHECK(traffic_lower_bound(ring, Model::Nic, tr).steps == ok.steps);

  SECTION("a flit dropped is named lost, with its index") {
    Schedule lost = s;
    for (auto& step : lost.steps)
      step.erase(std::remove_if(step.begin(), step.end(), [](const Transfer& x) { return x.msg == Message{0, 1, 2}; }), step.end());
    const VerifyReport r = verify(ring, lost, std::nullopt, {}, &tr);
    CHECK_FALSE(r.ok);
    REQUIRE(r.violations.size() == 1);
    CHECK(r.violations[0].kind == "lost");
    CHECK(r.violations[0].text == "node 0: message (0,1)#2 is never sent");
  }
  SECTION("a flit the traffic does not send") {
    Schedule extra = s;
    extra.steps.push_back({{{0, 1, 3}, 0, *ring.port_to(0, 1)}});
    const VerifyReport r = verify(ring, extra, std::nullopt, {}, &tr);
    CHECK_FALSE(r.ok);
    CHECK(r.violations.back().kind == "bad-message");
  }
  SECTION("checked against another traffic: a traffic violation") {
    const VerifyReport r = verify(ring, s, std::nullopt, {}, nullptr);
    CHECK_FALSE(r.ok);
    CHECK(r.violations.front().kind == "traffic");
  }
}

TEST_CASE("schedule files record the traffic and the flit of every transfer", "[traffic_schedule]") {
  const Topology t = parse_topology("torus:3x3");
  const Traffic tr = parse_traffic("random:7:0.5:3", t);
  const Schedule s = list_schedule(t, Model::Nic, tr, 0, 4, 2);
  for (const bool binary : {false, true}) {
    std::stringstream file;
    write_schedule(file, t, s, binary);
    CHECK(file.str().find("traffic " + std::to_string(tr.total_flits()) + " " + tr.sha256() + " random:7:0.5:3") != std::string::npos);
    const LoadedSchedule back = read_schedule(file, "f.sched");
    const auto& r = std::get<Schedule>(back.schedule);
    CHECK(r.traffic.spec == "random:7:0.5:3");
    CHECK(r.traffic.sha256 == tr.sha256());
    CHECK(r.traffic.flits == tr.total_flits());
    CHECK(r.steps.size() == s.steps.size());
    CHECK(r.steps == s.steps);
    CHECK(verify(t, r, back.claimed_steps, {}, &tr).ok);
  }
  SECTION("a transfer line without its flit is refused") {
    std::stringstream file;
    write_schedule(file, t, s, false);
    std::string text = file.str();
    const std::size_t step0 = text.find("step 0\n");
    const std::size_t eol = text.find('\n', step0 + 7);
    const std::size_t last_space = text.rfind(' ', eol);
    text.erase(last_space, eol - last_space);
    std::stringstream cut(text);
    CHECK_THROWS_WITH(read_schedule(cut, "f.sched"), Catch::Contains("expected '<from> <to> <src> <dst> <flit>'"));
  }
}

TEST_CASE("list scheduler: one-shot and periodic, verified, at the bound where a NIC binds", "[traffic_schedule]") {
  const Topology t = parse_topology("torus:4x4");
  const Traffic tr = parse_traffic("random:2:0.5:3", t);
  TrafficRequest one;
  one.algorithm = "list";
  const TrafficOutcome a = schedule_traffic(t, Model::Nic, tr, one);
  CHECK(verify(t, a.schedule, std::nullopt, {}, &tr).ok);
  CHECK(a.length == a.bound.steps);  // 26: node totals bind (measured; the bound is the proof)
  CHECK(a.proven_optimal);
  TrafficRequest per = one;
  per.periodic = true;
  const TrafficOutcome p = schedule_traffic(t, Model::Nic, tr, per);
  CHECK(verify_periodic(t, p.schedule, 0, &tr).ok);
  CHECK(p.schedule.period == p.bound.steps);
  for (const Model m : {Model::SinglePort, Model::AllPort}) {
    const TrafficOutcome x = schedule_traffic(t, m, tr, one);
    CHECK(verify(t, x.schedule, std::nullopt, {}, &tr).ok);
    CHECK(x.length >= x.bound.steps);
  }
}

TEST_CASE("fast paths: all:M repeats the optimal period, groups run every line at its bound", "[traffic_schedule]") {
  const Topology t = parse_topology("torus:4x4");
  TrafficRequest per;
  per.periodic = true;
  const Traffic all3 = parse_traffic("all:3", t);
  const TrafficOutcome r = schedule_traffic(t, Model::Nic, all3, per);
  // 3 x 15: every NIC injects 45 flits a period; `all` at its period bound 15, three times.
  CHECK(r.algorithm == "periodic-repeat");
  CHECK(r.schedule.period == 45);
  CHECK(r.bound.steps == 45);
  CHECK(r.proven_optimal);
  const Topology t8 = parse_topology("torus:8x8");
  const Traffic rows = parse_traffic("groups:0", t8);
  const TrafficOutcome g = schedule_traffic(t8, Model::Nic, rows, per);
  CHECK(g.schedule.period == 8);  // ring:8's period bound: 16 hops per node on 2 links per node
  CHECK(g.proven_optimal);
  TrafficRequest one;
  const TrafficOutcome g1 = schedule_traffic(t8, Model::Nic, rows, one);
  CHECK(g1.algorithm == "lines");
  CHECK(g1.length == 9);
  CHECK(g1.proven_optimal);
}

TEST_CASE("traffic scheduling refusals", "[traffic_schedule]") {
  const Topology t = parse_topology("torus:4x4");
  const Traffic tr = parse_traffic("random:2:0.5:3", t);
  TrafficRequest r;
  r.algorithm = "lines";
  CHECK_THROWS_WITH(schedule_traffic(t, Model::Nic, tr, r), Catch::Contains("--algo lines needs groups:D"));
  r.algorithm = "bogus";
  CHECK_THROWS_WITH(schedule_traffic(t, Model::Nic, tr, r), Catch::Contains("accepted: auto, list"));
  const Traffic other = parse_traffic("all", parse_topology("torus:3x3"));
  CHECK_THROWS_AS(schedule_traffic(t, Model::Nic, other, {}), UsageError);
}

TEST_CASE("exact for traffic: proofs by UNSAT and schedules at the bound", "[traffic_schedule]") {
  TrafficRequest one_shot;
  SECTION("ring:5 nic shift 2, two flits: 4 steps, T=3 UNSAT (and too few by the time-expanded LP)") {
    const Topology t = parse_topology("ring:5");
    const Traffic tr = parse_traffic("perm:shift:2:2", t);
    // Without the time-expanded LP the bound is 3 and the exact search proves 3 infeasible; the
    // LP (run once the list's 4 is in hand) proves it too, so the bound is 4 and met.
    TrafficBoundOptions no_time;
    no_time.time_expanded = false;
    CHECK(traffic_lower_bound(t, Model::Nic, tr, no_time).steps == 3);
    const TrafficOutcome o = schedule_traffic(t, Model::Nic, tr, one_shot);
    CHECK(o.bound.steps == 4);
    CHECK(o.length == 4);
    CHECK(o.proven_optimal);
    CHECK(o.proof == "meets the lower bound (time_expanded_lp)");
    // The plain encoding (no counting constraints) agrees: the UNSAT is not the counting's alone.
    DecideOptions d;
    d.traffic = &tr;
    d.implied = false;
    CHECK(exact_decide(t, Model::Nic, 3, d).answer == SatAnswer::Unsat);
    CHECK(exact_decide(t, Model::Nic, 4, d).answer == SatAnswer::Sat);
  }
  SECTION("torus:3x3 all-port random: the list's 3 steps optimal, T=2 UNSAT (and too few by the time-expanded LP)") {
    const Topology t = parse_topology("torus:3x3");
    const Traffic tr = parse_traffic("random:1:0.3:2", t);
    TrafficBoundOptions no_time;
    no_time.time_expanded = false;
    CHECK(traffic_lower_bound(t, Model::AllPort, tr, no_time).steps == 2);
    const TrafficOutcome o = schedule_traffic(t, Model::AllPort, tr, one_shot);
    CHECK(o.bound.steps == 3);
    CHECK(o.length == 3);
    CHECK(o.proven_optimal);
    CHECK(o.proof == "meets the lower bound (time_expanded_lp)");
    DecideOptions d;
    d.traffic = &tr;
    d.implied = false;
    CHECK(exact_decide(t, Model::AllPort, 2, d).answer == SatAnswer::Unsat);
  }
  SECTION("mesh:3x3 all-port random: exact meets the bound the list misses") {
    const Topology t = parse_topology("mesh:3x3");
    const Traffic tr = parse_traffic("random:1:0.3:2", t);
    TrafficRequest exact;
    exact.algorithm = "exact";
    const TrafficOutcome o = schedule_traffic(t, Model::AllPort, tr, exact);
    CHECK(o.bound.steps == 4);
    CHECK(o.length == 4);
    CHECK(o.algorithm == "exact");
    CHECK(o.proof.find("meets the lower bound") == 0);
    CHECK(verify(t, o.schedule, std::nullopt, {}, &tr).ok);
  }
  SECTION("multi-flit: every flit a message, flits of a pair in arrival order; a list schedule is admitted") {
    const Topology t = parse_topology("torus:3x3");
    const Traffic tr = parse_traffic("perm:shift:2:3", t);
    TrafficRequest list;
    list.algorithm = "list";
    const TrafficOutcome l = schedule_traffic(t, Model::Nic, tr, list);
    DecideOptions d;
    d.traffic = &tr;
    d.fixed = &l.schedule;  // the list numbers a pair's flits in arrival order, as the symmetry breaking asks
    CHECK(exact_decide(t, Model::Nic, l.length, d).answer == SatAnswer::Sat);
    ExactOptions e;
    e.traffic = &tr;
    const ExactResult r = exact_schedule(t, Model::Nic, e);
    CHECK(r.status == ExactStatus::Optimal);
    REQUIRE(r.schedule);
    CHECK(verify(t, *r.schedule, std::nullopt, {}, &tr).ok);
    CHECK_FALSE(r.schedule->traffic.is_all());
  }
  SECTION("a traffic equal to all is today's encoding") {
    const Topology t = parse_topology("ring:5");
    const Traffic tr = parse_traffic("all:1", t);
    ExactOptions e;
    const ExactResult plain = exact_schedule(t, Model::Nic, e);
    e.traffic = &tr;
    const ExactResult with = exact_schedule(t, Model::Nic, e);
    CHECK(with.steps == plain.steps);
    CHECK(with.proof == plain.proof);
    REQUIRE(with.log.size() == plain.log.size());
    for (std::size_t i = 0; i < with.log.size(); ++i) CHECK(with.log[i].substr(0, with.log[i].find(" clauses")) == plain.log[i].substr(0, plain.log[i].find(" clauses")));
  }
  SECTION("exact refuses single-port one-shot, and large instances") {
    const Topology t = parse_topology("torus:3x3");
    const Traffic tr = parse_traffic("perm:shift:2:2", t);
    TrafficRequest r;
    r.algorithm = "exact";
    r.periodic = true;
    const Topology sixteen = parse_topology("torus:16x16");
    CHECK_THROWS_WITH(schedule_traffic(sixteen, Model::Nic, parse_traffic("perm:transpose:8", sixteen), r),
                      Catch::Contains("is for small instances (flits x directed links x period"));
    r.periodic = false;
    CHECK_THROWS_WITH(schedule_traffic(t, Model::SinglePort, tr, r), Catch::Contains("needs the nic or all-port model"));
    const Topology big = parse_topology("torus:8x8");
    CHECK_THROWS_WITH(schedule_traffic(big, Model::Nic, parse_traffic("perm:transpose:8", big), r), Catch::Contains("is for small instances"));
  }
}

TEST_CASE("repair: a degraded torus's schedule from its base network's", "[traffic_schedule]") {
  const Topology t = parse_topology("torus:6x6~fail:0-1");
  const Traffic all = parse_traffic("all", t);
  for (Model m : {Model::AllPort, Model::Nic}) {
    const Schedule base = schedule_direct(*t.base(), m, ScheduleRequest("auto")).schedule;
    std::int64_t displaced = 0;
    const Schedule greedy = repair_schedule(t, m, all, base, 6, 2, nullptr, &displaced);
    CHECK(displaced > 0);
    const VerifyReport g = verify(t, greedy, std::nullopt, {}, &all);
    CHECK(g.ok);
    const Schedule moved = repair_schedule(t, m, all, base, 6, 2, nullptr, nullptr, 20'000'000);
    const VerifyReport r = verify(t, moved, std::nullopt, {}, &all);
    CHECK(r.ok);
    CHECK(r.steps <= g.steps);
    // Measured 2026-11-29: all-port 30 (the bound), nic 40 (bound 38).
    CHECK(r.steps <= (m == Model::AllPort ? 30 : 40));
  }
  CHECK_THROWS_WITH(repair_schedule(parse_topology("torus:4x4~fail:5"), Model::Nic, parse_traffic("all", parse_topology("torus:4x4~fail:5")),
                                    Schedule{}, 6, 1),
                    Catch::Contains("needs a network with failed links only"));
}

TEST_CASE("repair: periodic on a degraded torus starts from the base network's periodic schedule", "[traffic_schedule]") {
  const Topology t = parse_topology("torus:6x6~fail:0-1");
  const Traffic two = parse_traffic("all:2", t);
  std::int64_t work = 0;
  // Period 60 (bound 59): measured 2026-11-29, the list's period under all-port.
  const Schedule s = list_schedule(t, Model::AllPort, two, 60, 6, 4, &work, 40'000'000);
  REQUIRE_FALSE(s.steps.empty());
  CHECK(s.period == 60);
  CHECK(verify_periodic(t, s, 0, &two).ok);
}

TEST_CASE("negotiated placement: a period no priority order fits", "[traffic_schedule]") {
  // mesh:4x4 transpose:4 at period 4 (the bound): no order of the greedy placement fits it
  // (measured), the negotiated placement does; the result is verified modulo the period.
  const Topology t = parse_topology("mesh:4x4");
  const Traffic tr = parse_traffic("perm:transpose:4", t);
  std::int64_t work = 0;
  CHECK(list_schedule(t, Model::Nic, tr, 4, 6, 4, &work, 0).steps.empty());
  const Schedule s = list_schedule(t, Model::Nic, tr, 4, 6, 4, &work, 20'000'000);
  REQUIRE_FALSE(s.steps.empty());
  CHECK(s.period == 4);
  CHECK(verify_periodic(t, s, 0, &tr).ok);
  // From a schedule of a period within 5 %: started from it (same answer, verified).
  const Schedule warm = list_schedule(t, Model::Nic, tr, 4, 6, 4, &work, 20'000'000, &s);
  REQUIRE_FALSE(warm.steps.empty());
  CHECK(verify_periodic(t, warm, 0, &tr).ok);
}

TEST_CASE("negotiated placement over every shortest path, not only the candidates", "[traffic_schedule]") {
  // mesh:4x4 transpose:4 at period 4 (the bound) with one candidate route per pair (plus the
  // balanced routes): no priority order fits it (measured); the negotiation, which prices every
  // shortest path first, finds it, the flits of some pair spread over different paths.
  const Topology t = parse_topology("mesh:4x4");
  const Traffic tr = parse_traffic("perm:transpose:4", t);
  std::int64_t work = 0;
  CHECK(list_schedule(t, Model::Nic, tr, 4, 1, 4, &work, 0).steps.empty());
  const Schedule s = list_schedule(t, Model::Nic, tr, 4, 1, 4, &work, 20'000'000);
  REQUIRE_FALSE(s.steps.empty());
  CHECK(s.period == 4);
  CHECK(verify_periodic(t, s, 0, &tr).ok);
  std::map<std::tuple<NodeId, NodeId, std::int32_t>, std::vector<std::pair<std::size_t, LinkId>>> hops;
  s.for_each_step([&](std::size_t i, const std::vector<Transfer>& step) {
    for (const Transfer& x : step) hops[{x.msg.src, x.msg.dst, x.msg.flit}].emplace_back(i, t.link_id(x.from, x.port));
  });
  std::map<std::pair<NodeId, NodeId>, std::set<std::vector<LinkId>>> paths;
  for (auto& [k, h] : hops) {
    std::sort(h.begin(), h.end());
    std::vector<LinkId> links;
    for (const auto& x : h) links.push_back(x.second);
    paths[{std::get<0>(k), std::get<1>(k)}].insert(links);
  }
  CHECK(std::any_of(paths.begin(), paths.end(), [](const auto& p) { return p.second.size() > 1; }));
}

TEST_CASE("negotiated placement under a horizon shortens a one-shot schedule to its bound", "[traffic_schedule]") {
  // torus:8x8 transpose:8, nic: the priority orders give 17 steps (measured), the negotiated
  // placement from the bound 15 (nic_injection, distance) up reaches it: proven optimal.
  const Topology t = parse_topology("torus:8x8");
  const Traffic tr = parse_traffic("perm:transpose:8", t);
  const std::int64_t bound = traffic_lower_bound(t, Model::Nic, tr).steps;
  REQUIRE(bound == 15);
  std::int64_t work = 0;
  const Schedule list = list_schedule(t, Model::Nic, tr, 0, 6, 2, &work);
  CHECK(list.step_count() > 15);
  const Schedule s = list_schedule(t, Model::Nic, tr, 0, 6, 2, &work, 40'000'000, nullptr, bound);
  const VerifyReport r = verify(t, s, std::nullopt, {}, &tr);
  CHECK(r.ok);
  CHECK(r.steps == 15);
}

TEST_CASE("unroll_periodic: the periodic schedule as one-shot, at the rotation that ends soonest", "[traffic_schedule]") {
  // Checked against every rotation, counted here the plain way: per message its first step s and
  // span, the end at rotation r the largest ((s - r) mod P) + span.
  for (const char* spec : {"torus:4x4", "torus:6x6~fail:0-1"}) {
    const Topology t = parse_topology(spec);
    const Traffic tr = parse_traffic("random:3:0.4:3", t);
    TrafficRequest r;
    r.periodic = true;
    r.budget_seconds = 1;
    Schedule p = schedule_traffic(t, Model::Nic, tr, r).schedule;
    p.materialize();
    REQUIRE(p.period > 0);
    std::map<std::tuple<NodeId, NodeId, std::int32_t>, std::pair<std::int64_t, std::int64_t>> span;
    for (std::size_t i = 0; i < p.steps.size(); ++i)
      for (const Transfer& x : p.steps[i]) {
        auto [it, fresh] = span.try_emplace({x.msg.src, x.msg.dst, x.msg.flit}, i, i);
        if (!fresh) it->second.second = static_cast<std::int64_t>(i);
      }
    std::int64_t best = std::numeric_limits<std::int64_t>::max();
    for (std::int64_t rot = 0; rot < p.period; ++rot) {
      std::int64_t end = 0;
      for (const auto& [m, s] : span) end = std::max(end, (s.first - rot + p.period) % p.period + s.second - s.first + 1);
      best = std::min(best, end);
    }
    const Schedule u = unroll_periodic(p);
    CHECK(u.period == 0);
    CHECK(static_cast<std::int64_t>(u.step_count()) == best);
    CHECK(verify(t, u, std::nullopt, {}, &tr).ok);
  }
}
