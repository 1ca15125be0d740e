// SPDX-License-Identifier: Apache-2.0
// Periodic (TDM) schedules: the modulo-P verifier, the generator, the period header and the
// T-CREST formats (docs/periodic.md).
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
// std::regex's own code trips GCC 12's -Wmaybe-uninitialized under the sanitizers (make sanitize):
// a false positive inside the library, waived for its header only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <regex>
#pragma GCC diagnostic pop
#include <sstream>

#include "generators/periodic_parts.hpp"
#include "generators/periodic_flow.hpp"
#include "totex/bounds/bounds.hpp"
#include "totex/error.hpp"
#include "totex/generators/periodic.hpp"
#include "totex/io/schedule_io.hpp"
#include "totex/io/shd.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/periodic_verify.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

namespace {

Transfer hop(const Topology& t, NodeId src, NodeId dst, NodeId from, NodeId to) {
  return {{src, dst}, from, *t.port_to(from, to)};
}

/// ring:3 under nic, period 2: each node sends to its right neighbour in slot 0 and to its left
/// one in slot 1 (one hop each).
Schedule ring3_periodic() {
  const Topology t = parse_topology("ring:3");
  Schedule s{"ring:3", Model::Nic, "hand", {}};
  s.period = 2;
  s.steps.push_back({hop(t, 0, 1, 0, 1), hop(t, 1, 2, 1, 2), hop(t, 2, 0, 2, 0)});
  s.steps.push_back({hop(t, 0, 2, 0, 2), hop(t, 1, 0, 1, 0), hop(t, 2, 1, 2, 1)});
  return s;
}

bool has(const PeriodicReport& r, const std::string& kind) {
  return std::any_of(r.violations.begin(), r.violations.end(), [&](const Violation& v) { return v.kind == kind; });
}

std::vector<std::vector<Transfer>> sorted_steps(Schedule s) {
  s.materialize();
  while (!s.steps.empty() && s.steps.back().empty()) s.steps.pop_back();
  for (auto& st : s.steps)
    std::sort(st.begin(), st.end(), [](const Transfer& a, const Transfer& b) {
      return std::tie(a.msg.src, a.msg.dst, a.from, a.port) < std::tie(b.msg.src, b.msg.dst, b.from, b.port);
    });
  return s.steps;
}

}  // namespace

TEST_CASE("periodic verifier accepts a correct schedule and measures its latency", "[periodic]") {
  const Topology t = parse_topology("ring:3");
  const PeriodicReport r = verify_periodic(t, ring3_periodic());
  CHECK(r.ok);
  CHECK(r.period == 2);
  CHECK(r.delivered == 6);
  CHECK(r.latency_max == 1);
  CHECK(r.steps == 2);
}

TEST_CASE("periodic verifier: a link used in slots t and t + P conflicts", "[periodic]") {
  const Topology t = parse_topology("ring:4");
  // Message (0,1) in step 0 and (3,1) over 0->1 in step 2: different steps, same slot mod 2.
  Schedule s{"ring:4", Model::AllPort, "hand", {}};
  s.period = 2;
  s.steps = {{hop(t, 0, 1, 0, 1)}, {hop(t, 3, 1, 3, 0)}, {hop(t, 3, 1, 0, 1)}};
  const PeriodicReport r = verify_periodic(t, s);
  CHECK_FALSE(r.ok);
  CHECK(has(r, "link-reuse"));
  // The report names the message that holds the link slot (found by the verifier's second replay).
  for (const Violation& v : r.violations)
    if (v.kind == "link-reuse") CHECK(v.text == "step 2 (slot 0), node 0, link 0->1: link slot 0 carries two messages: message (0,1) and message (3,1)");
  // The same steps with period 3 have no link conflict (only the messages never sent are missing).
  const PeriodicReport r3 = verify_periodic(t, s, 3);
  CHECK_FALSE(has(r3, "link-reuse"));
  CHECK(has(r3, "lost"));
  CHECK(r3.violation_count == 12 - 2);
  CHECK(r3.violations.size() <= PeriodicReport::kMaxReported);
}

TEST_CASE("periodic verifier: NIC slots, injection slot, buffering", "[periodic]") {
  const Topology t = parse_topology("ring:3");
  SECTION("two injections of one node in slots equal mod P") {
    Schedule s = ring3_periodic();
    s.period = 1;  // steps 0 and 1 are both slot 0: every node injects twice in it
    const PeriodicReport r = verify_periodic(t, s);
    CHECK(has(r, "inject-limit"));
    CHECK(has(r, "eject-limit"));
    CHECK(has(r, "inject-slot"));  // step 1 is not in the first period
  }
  SECTION("a message waiting at a relay under nic") {
    const Topology r5 = parse_topology("ring:5");
    Schedule s{"ring:5", Model::Nic, "hand", {}};
    s.period = 4;
    s.steps = {{hop(r5, 0, 2, 0, 1)}, {}, {hop(r5, 0, 2, 1, 2)}};
    CHECK(has(verify_periodic(r5, s), "buffering"));
  }
  SECTION("a message delivered twice") {
    Schedule s = ring3_periodic();
    s.steps.push_back({hop(t, 0, 1, 0, 1)});
    s.period = 10;
    CHECK(has(verify_periodic(t, s), "delivered-twice"));
  }
  SECTION("a hop from a node the message is not at") {
    const Topology r5 = parse_topology("ring:5");
    Schedule s{"ring:5", Model::Nic, "hand", {}};
    s.period = 4;
    s.steps = {{hop(r5, 0, 2, 0, 1)}, {hop(r5, 0, 2, 3, 2)}};
    CHECK(has(verify_periodic(r5, s), "invalid-path"));
  }
  SECTION("period 0 is refused") {
    Schedule s = ring3_periodic();
    s.period = 0;
    CHECK_THROWS_AS(verify_periodic(t, s), UsageError);
  }
}

TEST_CASE("the period header round-trips, old files read as one-shot", "[periodic]") {
  const Topology t = parse_topology("ring:3");
  std::ostringstream out;
  write_schedule(out, t, ring3_periodic());
  CHECK(out.str().find("\nperiod 2\n") != std::string::npos);
  std::istringstream in(out.str());
  const LoadedSchedule l = read_schedule(in, "mem");
  const auto& s = std::get<Schedule>(l.schedule);
  CHECK(s.period == 2);
  CHECK(verify_periodic(t, s).ok);
  Schedule one_shot = ring3_periodic();
  one_shot.period = 0;
  std::ostringstream out0;
  write_schedule(out0, t, one_shot);
  CHECK(out0.str().find("period") == std::string::npos);
  std::istringstream in0(out0.str());
  CHECK(std::get<Schedule>(read_schedule(in0, "mem").schedule).period == 0);
  std::istringstream bad("totex-schedule 1\nmodel nic\ntopology ring:3\nalgorithm x\nnodes 3\nsteps 2\nperiod 0\n");
  CHECK_THROWS_WITH(read_schedule(bad, "bad.sched"), Catch::Contains("bad.sched:7: period 0 is out of range"));
}

TEST_CASE("translation-invariant generator: tori and hypercubes, verified modulo the period", "[periodic]") {
  struct Case {
    const char* topo;
    int period;  // measured (docs/periodic.md); the test checks what the generator proves about it
  };
  for (const Case c : {Case{"torus:3x3", 8}, Case{"ring:8", 10}, Case{"hypercube:3", 7}, Case{"torus:5x5", 24}}) {
    const Topology t = parse_topology(c.topo);
    const PeriodicOutcome o = periodic_schedule(t, Model::Nic, {"auto", 2});
    INFO(c.topo);
    CHECK(o.translation_invariant);
    const PeriodicReport r = verify_periodic(t, o.schedule);
    CHECK(r.ok);
    CHECK(verify(t, o.schedule).ok);  // the absolute steps are a valid one-shot schedule too
    CHECK(o.schedule.period == c.period);
    CHECK(o.schedule.period >= o.bound.steps);
    CHECK(o.proven_optimal);  // equals the bound, or every period below it is infeasible for the model searched
    CHECK(o.proof_general == (o.schedule.period == o.bound.steps));
  }
}

TEST_CASE("translation-invariant packing: ties at k/2 alternate, one route per offset", "[periodic]") {
  const Topology t = parse_topology("torus:4x4");
  const periodic::Problem p = periodic::translation_invariant_problem(t, true);
  CHECK(p.items.size() == 15);
  int plus = 0, minus = 0;  // dimension 0's ties (offset x = 2): ports 0 (+) and 1 (-)
  for (const auto& it : p.items)
    if (it.offset[0] == 2) {
      const Port first = it.cands.front().ports.front() <= 1 ? it.cands.front().ports.front() : it.cands.back().ports.front();
      (first == 0 ? plus : minus) += 1;
    }
  CHECK(plus == 2);
  CHECK(minus == 2);
}

TEST_CASE("slot-sum argument: period N-1 is infeasible for minimal routes on torus:4x4", "[periodic]") {
  const Topology t = parse_topology("torus:4x4");
  // 16 nodes x 17 (hops - 1 per node) = 272, not 0 mod 15 (CDCL alone does not prove it in
  // seconds); period 16 packs.
  const PeriodicOutcome o = periodic_schedule(t, Model::Nic, {"auto", 2});
  CHECK(std::any_of(o.log.begin(), o.log.end(), [](const std::string& l) {
    return l.find("period 15: infeasible by the slot-sum argument") != std::string::npos;
  }));
  const periodic::Problem p = periodic::translation_invariant_problem(t, true);
  std::vector<periodic::Placement> pl;
  REQUIRE(periodic::sat_pack(p, 16, SatLimit{10'000'000}, pl) == SatOutcome::Sat);
  const Schedule s = periodic::expand_translation_invariant(t, Model::Nic, p, pl, 16);
  CHECK(verify_periodic(t, s).ok);
}

TEST_CASE("quarter-turn quotient: one item per orbit, unfolded into a symmetric schedule", "[periodic]") {
  const Topology t = parse_topology("torus:5x5");
  const periodic::Problem full = periodic::translation_invariant_problem(t, true, true);
  // Only square tori of odd side, and periods divisible by 4 (the slot shift of a quarter turn).
  CHECK_FALSE(periodic::quarter_turn_quotient(t, full, 25, true));
  const Topology even = parse_topology("torus:6x6");
  CHECK_FALSE(periodic::quarter_turn_quotient(even, periodic::translation_invariant_problem(even, true, true), 36, true));
  const Topology oblong = parse_topology("torus:5x7");
  CHECK_FALSE(periodic::quarter_turn_quotient(oblong, periodic::translation_invariant_problem(oblong, true, true), 36, true));
  const auto q = periodic::quarter_turn_quotient(t, full, 24, true);
  REQUIRE(q);
  CHECK(q->quotient.items.size() == 6);  // 24 offsets in orbits of four
  CHECK(q->quotient.resources == 3);     // one link track, the inject and eject tracks
  std::vector<periodic::Placement> pl;
  REQUIRE(periodic::sat_pack(q->quotient, 24, SatLimit{10'000'000}, pl) == SatOutcome::Sat);
  const auto [unfolded, placed] = periodic::quarter_turn_unfold(full, *q, pl, 24, true);
  const Schedule s = periodic::expand_translation_invariant(t, Model::Nic, unfolded, placed, 24);
  CHECK(verify_periodic(t, s).ok);
  CHECK(s.period == 24);
  // Each orbit: the next member's route is the quarter turn of this one's (+x -> +y -> -x -> -y),
  // six slots later.
  const std::vector<Port> turn{2, 3, 1, 0};
  for (const auto& orbit : q->orbit_item)
    for (std::size_t j = 0; j + 1 < 4; ++j) {
      const auto a = static_cast<std::size_t>(orbit[j]), b = static_cast<std::size_t>(orbit[j + 1]);
      CHECK(placed[b].slot == (placed[a].slot + 6) % 24);
      std::vector<Port> turned = unfolded.items[a].cands[0].ports;
      for (Port& port : turned) port = turn[static_cast<std::size_t>(port)];
      CHECK(turned == unfolded.items[b].cands[0].ports);
      CHECK(unfolded.items[b].offset == std::vector<int>{(5 - unfolded.items[a].offset[1]) % 5, unfolded.items[a].offset[0]});
    }
}

TEST_CASE("mesh mirror quotient: the mirrors of the even sides, unfolded into a symmetric schedule", "[periodic]") {
  const Topology t = parse_topology("mesh:4x4");
  const periodic::Problem full = periodic::node_problem(t, true, false);
  const Topology oblong = parse_topology("mesh:5x4");
  const auto one = periodic::mesh_mirror_quotient(oblong, periodic::node_problem(oblong, true, false), 24, true);
  REQUIRE(one);  // only the even side's mirror: orbits of two
  CHECK(one->element.size() == 2);
  CHECK(one->quotient.items.size() == 190);
  const Topology odd = parse_topology("mesh:5x5");  // all sides odd: the half turn, half a period apart
  const auto half = periodic::mesh_mirror_quotient(odd, periodic::node_problem(odd, true, false), 30, true);
  REQUIRE(half);
  CHECK(half->shift == std::vector<int>{0, 15});
  CHECK(half->quotient.items.size() == 300);
  CHECK_FALSE(periodic::mesh_mirror_quotient(odd, periodic::node_problem(odd, true, false), 31, true));
  const Topology torus = parse_topology("torus:4x4");
  CHECK_FALSE(periodic::mesh_mirror_quotient(torus, periodic::node_problem(torus, true, false), 16, true));
  const auto q = periodic::mesh_mirror_quotient(t, full, 16, true);
  REQUIRE(q);
  CHECK(q->element.size() == 4);
  CHECK(q->shift == std::vector<int>(4, 0));
  CHECK(q->quotient.items.size() == 60);  // 240 messages in orbits of four
  std::vector<periodic::Placement> pl;
  REQUIRE(periodic::sat_pack(q->quotient, 16, SatLimit{10'000'000}, pl, nullptr, periodic::SatHint::LikelySat) ==
          SatOutcome::Sat);  // the bisection bound, about 1.5 s
  const auto [unfolded, placed] = periodic::orbit_unfold(t, full, *q, pl, 16, true);
  const Schedule s = periodic::expand_node(t, Model::Nic, unfolded, placed, 16);
  CHECK(verify_periodic(t, s).ok);
  // Each orbit: element j's member is the message and route mirrored, in the same slot.
  for (const auto& orbit : q->orbit_item)
    for (std::size_t j = 1; j < 4; ++j) {
      const auto a = static_cast<std::size_t>(orbit[0]), b = static_cast<std::size_t>(orbit[j]);
      CHECK(placed[b].slot == placed[a].slot);
      std::vector<NodeId> mirrored;
      for (NodeId v : unfolded.items[a].cands[0].path) {
        std::vector<int> c = t.coordinates(v);
        if (j & 1) c[0] = 3 - c[0];
        if (j & 2) c[1] = 3 - c[1];
        mirrored.push_back(t.node_at(c));
      }
      CHECK(mirrored == unfolded.items[b].cands[0].path);
    }
}

TEST_CASE("half-ring translations: four elements, no slot shift, the 4-cube's by pairs of dimensions", "[periodic]") {
  const Topology t = parse_topology("torus:4x4");
  const periodic::Problem full = periodic::node_problem(t, true, true, true);
  const auto q = periodic::half_translation_quotient(t, full, true);
  REQUIRE(q);
  CHECK(q->element.size() == 4);
  CHECK(q->shift == std::vector<int>(4, 0));
  CHECK(q->quotient.items.size() == 60);
  CHECK(q->element[3][static_cast<std::size_t>(t.node_at({1, 0}))] == t.node_at({3, 2}));
  const Topology cube = parse_topology("hypercube:4");
  const auto qc = periodic::half_translation_quotient(cube, periodic::node_problem(cube, true, true), true);
  REQUIRE(qc);
  CHECK(qc->element[1][0] == 3);   // flips dimensions 0 and 1
  CHECK(qc->element[2][0] == 12);  // flips dimensions 2 and 3
  const Topology odd = parse_topology("torus:3x3");
  CHECK_FALSE(periodic::half_translation_quotient(odd, periodic::node_problem(odd, true, true), true));
  const Topology mesh = parse_topology("mesh:4x4");
  CHECK_FALSE(periodic::half_translation_quotient(mesh, periodic::node_problem(mesh, true, true), true));
  // Detours: every path two hops longer that visits no node twice, besides the shortest ones.
  for (const auto& it : full.items)
    for (const auto& c : it.cands) {
      std::vector<NodeId> sorted = c.path;
      std::sort(sorted.begin(), sorted.end());
      CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
    }
  // A packing of the quotient unfolds into a schedule the periodic verifier accepts (period 16,
  // above the bound, so the test is quick).
  std::vector<periodic::Placement> pl;
  REQUIRE(periodic::sat_pack(q->quotient, 16, SatLimit{10'000'000}, pl, nullptr, periodic::SatHint::LikelySat) ==
          SatOutcome::Sat);
  const auto [unfolded, placed] = periodic::orbit_unfold(t, full, *q, pl, 16, true);
  CHECK(verify_periodic(t, periodic::expand_node(t, Model::Nic, unfolded, placed, 16)).ok);
}

TEST_CASE("exact periodic search reaches the bound on ring:8 where translation invariance cannot", "[periodic]") {
  const Topology t = parse_topology("ring:8");
  const PeriodicOutcome o = periodic_schedule(t, Model::Nic, {"exact", 5});
  CHECK(o.schedule.period == 8);
  CHECK(o.proof_general);
  CHECK(verify_periodic(t, o.schedule).ok);
}

TEST_CASE("every-route model: torus:3x3 at its bound 8 with detours, path:4 refuted at 3", "[periodic]") {
  // Counted work only (no wall-clock cap): the answers are the same on a loaded machine.
  const SatLimit limit{10'000'000};
  {
    // Minimal routes cannot make 8 (slot sums: the hops minus one add up to 36, not 0 mod 8).
    const Topology t = parse_topology("torus:3x3");
    periodic::Problem packed;
    std::vector<periodic::Placement> placed;
    std::int64_t vars = 0;
    REQUIRE(periodic::every_route_sat(t, 8, limit, packed, placed, &vars) == SatOutcome::Sat);
    CHECK(vars > periodic::every_route_vars(t, 8));  // the crossings plus NIC slots and counters
    REQUIRE(packed.items.size() == 72);
    int hops = 0;
    for (const auto& it : packed.items) hops += static_cast<int>(it.cands.at(0).path.size()) - 1;
    CHECK((hops - 72) % 8 == 0);  // the slot-sum condition, met with detours
    CHECK(hops > 108);            // 108: every message on a minimal route
    const PeriodicReport r = verify_periodic(t, periodic::expand_node(t, Model::Nic, packed, placed, 8));
    CHECK(r.ok);
    CHECK(r.violation_count == 0);
  }
  {
    // A path of four nodes: the middle link carries 2 x 2 messages each way, so 3 slots cannot
    // hold them, whatever the routes (a walk may turn back, which only adds crossings).
    const Topology t = parse_topology("path:4");
    periodic::Problem packed;
    std::vector<periodic::Placement> placed;
    CHECK(periodic::every_route_sat(t, 3, limit, packed, placed) == SatOutcome::Unsat);
    CHECK(periodic::every_route_sat(t, 4, limit, packed, placed) == SatOutcome::Sat);
    CHECK(verify_periodic(t, periodic::expand_node(t, Model::Nic, packed, placed, 4)).ok);
  }
}

TEST_CASE("exact periodic search: torus:3x3 at 8 and torus:3x4 at 11, with detours, proven", "[periodic]") {
  for (const auto& [spec, period] : {std::pair<const char*, int>{"torus:3x3", 8}, {"torus:3x4", 11}}) {
    const Topology t = parse_topology(spec);
    const PeriodicOutcome o = periodic_schedule(t, Model::Nic, {"exact", 4});
    CHECK(o.schedule.period == period);
    CHECK(o.bound.steps == period);
    CHECK(o.proof_general);
    CHECK(verify_periodic(t, o.schedule).ok);
  }
}

TEST_CASE("mesh: per-message packing, verified", "[periodic]") {
  const Topology t = parse_topology("mesh:4x4");
  const PeriodicOutcome o = periodic_schedule(t, Model::Nic, {"greedy", 1});
  CHECK_FALSE(o.translation_invariant);
  CHECK(o.bound.steps == 16);
  CHECK(verify_periodic(t, o.schedule).ok);
  CHECK(o.schedule.period >= 16);
}

TEST_CASE("periodic: bad requests are usage errors", "[periodic]") {
  const Topology t = parse_topology("torus:3x3");
  CHECK_THROWS_AS(periodic_schedule(t, Model::SinglePort, {}), UsageError);
  CHECK_THROWS_AS(periodic_schedule(t, Model::Nic, {"bogus", 1}), UsageError);
}

TEST_CASE(".shd: read a hand-written file, write it back", "[periodic][shd]") {
  // The eight routes of a 3x3 torus, one per offset, injected in slots 0..7 (written by hand:
  // tracks E 0,4,7; W 1,6,8; S 2,5,7; N 3,5,6; ejections 0,1,2,3,5,6,7,8).
  const std::string text = "e\n w\n  s\n   n\n    es\n     nw\n      ne\n       sw\n";
  const Topology t = parse_topology("torus:3x3");
  std::istringstream in(text);
  const Schedule s = read_shd(in, "hand.shd", t, Model::Nic);
  const VerifyReport r = verify(t, s);
  CHECK(r.ok);
  CHECK(r.steps == 9);
  CHECK(verify_periodic(t, s, 9).ok);
  std::ostringstream out;
  write_shd(out, t, s);
  CHECK(out.str() == text);
  // CRLF line ends (as S4NoC's files have) read the same.
  std::istringstream crlf("ne\r\n n\r\n");
  CHECK(read_shd(crlf, "crlf.shd", t, Model::Nic).transfer_count() == 9 * 3);
  // A conflicting file reads, and the verifiers find the conflict: e and n both eject in step 1.
  std::istringstream clash("ne\n e\n");
  const Schedule c = read_shd(clash, "clash.shd", t, Model::Nic);
  CHECK_FALSE(verify(t, c).ok);
}

TEST_CASE(".shd: errors name the file and line", "[periodic][shd]") {
  const Topology t = parse_topology("torus:3x3");
  std::istringstream bad("ne\n nx\n");
  CHECK_THROWS_WITH(read_shd(bad, "bad.shd", t, Model::Nic), Catch::Contains("bad.shd:2: 'x' at column 3 is not a hop letter"));
  std::istringstream loop("ne\neee\n");
  CHECK_THROWS_WITH(read_shd(loop, "loop.shd", t, Model::Nic), Catch::Contains("loop.shd:2: route 'eee' returns to its source"));
  std::istringstream empty("\n\n");
  CHECK_THROWS_WITH(read_shd(empty, "empty.shd", t, Model::Nic), Catch::Contains("empty.shd:2: no routes"));
  std::istringstream ok("e\n");
  CHECK_THROWS_AS(read_shd(ok, "x.shd", parse_topology("torus:3x3x3"), Model::Nic), UsageError);
}

TEST_CASE(".shd: a schedule that is not translation-invariant is refused naming the node", "[periodic][shd]") {
  const Topology t = parse_topology("torus:3x3");
  std::istringstream in("e\n w\n  s\n   n\n    es\n     nw\n      ne\n       sw\n");
  Schedule s = read_shd(in, "hand.shd", t, Model::Nic);
  // Node 4 sends its one-hop east message a step later than every other node.
  for (auto& step : s.steps)
    step.erase(std::remove_if(step.begin(), step.end(), [](const Transfer& tr) { return tr.msg.src == 4 && tr.msg.dst == 5; }),
               step.end());
  s.steps.resize(10);
  s.steps[9].push_back(hop(t, 4, 5, 4, 5));
  std::ostringstream out;
  CHECK_THROWS_WITH(write_shd(out, t, s), Catch::Contains("node 4's routes differ from node 0's"));
}

TEST_CASE(".shd round trip on torus:3x3 .. torus:10x10", "[periodic][shd]") {
  for (int k = 3; k <= 10; ++k) {
    const Topology t = parse_topology("torus:" + std::to_string(k) + "x" + std::to_string(k));
    PeriodicOutcome o = periodic_schedule(t, Model::Nic, {"greedy", 1});
    Schedule s = o.schedule;
    s.period = 0;  // its absolute steps, one-shot
    std::ostringstream out;
    write_shd(out, t, s);
    std::istringstream in(out.str());
    const Schedule back = read_shd(in, "rt.shd", t, Model::Nic);
    INFO(t.spec());
    CHECK(sorted_steps(back) == sorted_steps(s));
    CHECK(verify(t, back).ok);
    // The periodic schedule itself: real .shd, started at a slot no route spans, which reads back
    // to the same schedule modulo the period; refused (nothing written) when every slot is spanned.
    std::ostringstream periodic_out;
    const bool wraps = verify_periodic(t, o.schedule).steps > o.schedule.period;
    try {
      write_shd(periodic_out, t, o.schedule);
    } catch (const UsageError& e) {
      CHECK(wraps);
      CHECK_THAT(e.what(), Catch::Contains("which .shd cannot express; write a totex schedule file"));
      CHECK(periodic_out.str().empty());
      continue;
    }
    std::istringstream periodic_in(periodic_out.str());
    Schedule periodic_back = read_shd(periodic_in, "p.shd", t, Model::Nic);
    CHECK(static_cast<int>(periodic_back.step_count()) <= o.schedule.period);
    periodic_back.period = o.schedule.period;
    CHECK(verify_periodic(t, periodic_back).ok);
    CHECK(periodic_back.transfer_count() == o.schedule.transfer_count());
  }
}

TEST_CASE(".shd: a periodic schedule whose routes span every slot is refused, not written in part", "[periodic][shd]") {
  const Topology t = parse_topology("torus:3x3");
  // Every route two hops long, injected one slot apart: at period 2 each slot boundary is spanned.
  Schedule s{t.spec(), Model::Nic, "hand", {}};
  s.period = 2;
  for (NodeId v = 0; v < t.nodes(); ++v) {
    std::vector<int> c = t.coordinates(v);
    const NodeId mid = t.node_at({(c[0] + 1) % 3, c[1]});
    const NodeId dst = t.node_at({(c[0] + 2) % 3, c[1]});
    s.steps.resize(3);
    s.steps[0].push_back({{v, dst}, v, *t.port_to(v, mid)});
    s.steps[1].push_back({{v, dst}, mid, *t.port_to(mid, dst)});
    const NodeId mid2 = t.node_at({c[0], (c[1] + 1) % 3});
    const NodeId dst2 = t.node_at({c[0], (c[1] + 2) % 3});
    s.steps[1].push_back({{v, dst2}, v, *t.port_to(v, mid2)});
    s.steps[2].push_back({{v, dst2}, mid2, *t.port_to(mid2, dst2)});
  }
  std::ostringstream out;
  CHECK_THROWS_WITH(write_shd(out, t, s), Catch::Contains("run past the period from every starting slot"));
  CHECK(out.str().empty());
}

namespace {

/// Follows every flit a Poseidon XML schedule injects through its router tables, as a network of
/// routers one slot deep does (and as Poseidon's converter traces a route with router depth 1): in
/// slot s + i the flit is at its i-th router, which sends it to the output whose input it arrived
/// on. Returns the flits that reach an L output at their tx node after exactly their route's hops,
/// in a slot whose na rx names their source; fails the test on any other.
int poseidon_flits_delivered(const std::string& x, int width, int height, int length) {
  struct Slot {
    std::string rx, tx, route;
    std::map<char, char> input;  // output -> input
  };
  std::map<std::string, std::vector<Slot>> tiles;
  const std::regex tile_re(R"re(<tile id="(\(\d+,\d+\))">)re"),
      na_re(R"re(<na rx="([^"]+)" tx="([^"]+)"(?: route="([NESW]+)")?/>)re"), out_re(R"re(<output id="(.)" input="(.)"/>)re");
  std::istringstream lines(x);
  std::string line, tile;
  std::smatch m;
  while (std::getline(lines, line)) {
    if (std::regex_search(line, m, tile_re)) tile = m[1];
    if (std::regex_search(line, m, na_re)) tiles[tile].push_back({m[1], m[2], m[3], {}});
    for (auto it = std::sregex_iterator(line.begin(), line.end(), out_re); it != std::sregex_iterator(); ++it)
      tiles[tile].back().input[(*it)[1].str()[0]] = (*it)[2].str()[0];
  }
  auto coord = [](int cx, int cy) { return "(" + std::to_string(cx) + "," + std::to_string(cy) + ")"; };
  const std::map<char, std::pair<int, int>> move{{'N', {0, -1}}, {'S', {0, 1}}, {'E', {1, 0}}, {'W', {-1, 0}}};
  const std::map<char, char> opposite{{'N', 'S'}, {'S', 'N'}, {'E', 'W'}, {'W', 'E'}};
  int delivered = 0;
  for (int y = 0; y < height; ++y)
    for (int x0 = 0; x0 < width; ++x0)
      for (int s = 0; s < length; ++s) {
        const Slot& start = tiles[coord(x0, y)].at(static_cast<std::size_t>(s));
        if (start.route.empty()) continue;
        int cx = x0, cy = y;
        char in = 'L';
        for (std::size_t i = 0;; ++i) {
          const Slot& here = tiles[coord(cx, cy)].at((static_cast<std::size_t>(s) + i) % static_cast<std::size_t>(length));
          std::vector<char> outs;
          for (const auto& [out, input] : here.input)
            if (input == in) outs.push_back(out);
          INFO("flit from " << coord(x0, y) << " in slot " << s << " to " << start.tx << ", hop " << i << " at "
                            << coord(cx, cy));
          REQUIRE(outs.size() == 1);
          if (outs[0] == 'L') {
            CHECK(coord(cx, cy) == start.tx);
            CHECK(i == start.route.size());
            CHECK(here.rx == coord(x0, y));
            ++delivered;
            break;
          }
          REQUIRE(i < start.route.size());
          CHECK(outs[0] == start.route[i]);
          cx = (cx + move.at(outs[0]).first + width) % width;
          cy = (cy + move.at(outs[0]).second + height) % height;
          in = opposite.at(outs[0]);
        }
      }
  return delivered;
}

}  // namespace

TEST_CASE("Poseidon XML: every flit reaches its destination through the router tables", "[periodic][shd]") {
  // torus:4x4 auto: per-message detours, some passing their source again.
  for (const auto& [spec, algorithm] : std::vector<std::pair<std::string, std::string>>{
           {"torus:3x3", "auto"}, {"torus:4x4", "auto"}, {"mesh:4x4", "greedy"}, {"torus:3x5", "greedy"}}) {
    INFO(spec);
    const Topology t = parse_topology(spec);
    const PeriodicOutcome o = periodic_schedule(t, Model::Nic, {algorithm, 1});
    std::ostringstream out;
    write_poseidon(out, t, o.schedule);
    const int n = t.nodes();
    CHECK(poseidon_flits_delivered(out.str(), t.factors()[0].size, t.factors()[1].size, o.schedule.period) == n * (n - 1));
  }
}

TEST_CASE("Poseidon XML: one tile per node, one timeslot per slot", "[periodic][shd]") {
  const Topology t = parse_topology("torus:3x3");
  const PeriodicOutcome o = periodic_schedule(t, Model::Nic, {"greedy", 1});
  std::ostringstream out;
  write_poseidon(out, t, o.schedule);
  const std::string x = out.str();
  auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (std::size_t i = x.find(what); i != std::string::npos; i = x.find(what, i + 1)) ++n;
    return n;
  };
  CHECK(x.find("<schedule length=\"" + std::to_string(o.schedule.period) + "\" width=\"3\" height=\"3\"") != std::string::npos);
  CHECK(count("<tile ") == 9);
  CHECK(count("<timeslot ") == 9 * static_cast<std::size_t>(o.schedule.period));
  CHECK(count(" route=\"") == 72);  // every message injected once
  CHECK(count("<output id=\"L\" input=\"D\"") == 9 * static_cast<std::size_t>(o.schedule.period) - 72);
  CHECK_THROWS_AS(write_poseidon(out, parse_topology("hypercube:3"), o.schedule), UsageError);
}

TEST_CASE("periodic: every_shortest_path_uses counts what node_problem builds", "[periodic]") {
  const auto built = [](const Topology& t, bool nic) {
    std::int64_t uses = 0;
    for (const periodic::Item& it : periodic::node_problem(t, nic, true).items)
      for (const periodic::Candidate& c : it.cands) uses += static_cast<std::int64_t>(c.uses.size());
    return uses;
  };
  // ring:4 by hand: 8 ordered pairs one hop apart (one path each), 4 two hops apart (two paths
  // each); a path holds its hops, and under nic the inject and eject ports too.
  const Topology ring = parse_topology("ring:4");
  CHECK(periodic::every_shortest_path_uses(ring, true) == 8 * 3 + 4 * 2 * 4);
  CHECK(periodic::every_shortest_path_uses(ring, false) == 8 * 1 + 4 * 2 * 2);
  CHECK(built(ring, true) == 56);
  // Degraded networks (what the packing's guard is for), a failed node and a placed torus: the
  // count equals the problem's.
  for (const char* spec : {"torus:4x4~fail:0-1", "torus:6x6~fail:0-1,2-8", "torus:5x5~fail:12", "torus:6x6@linear", "mesh:3x4"}) {
    const Topology t = parse_topology(spec);
    INFO(spec);
    CHECK(periodic::every_shortest_path_uses(t, true) == built(t, true));
    CHECK(periodic::every_shortest_path_uses(t, false) == built(t, false));
  }
  // At most 512 paths a message, as node_problem enumerates them: mesh:7x7's opposite corners have
  // C(12, 6) = 924 shortest paths.
  const Topology mesh = parse_topology("mesh:7x7");
  CHECK(periodic::every_shortest_path_uses(mesh, true) == built(mesh, true));
}
