// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "totex/bounds/bounds.hpp"
#include "totex/error.hpp"
#include "totex/generators/exact.hpp"
#include "totex/io/exchange_table.hpp"
#include "totex/generators/generators.hpp"
#include "generators/path_packing.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

namespace {

struct Known {
  const char* spec;
  Model model;
  std::int64_t optimum;
};

/// Optima measured by exact_schedule (each proven: a schedule of that length, verified, and
/// T-1 UNSAT on the full model, checked below independently of bounds.cpp).
const Known kKnown[] = {
    {"ring:4", Model::Nic, 4},       {"ring:4", Model::AllPort, 2},      {"ring:5", Model::Nic, 5},
    {"ring:5", Model::AllPort, 3},   {"ring:6", Model::Nic, 6},          {"ring:6", Model::AllPort, 5},
    {"ring:7", Model::Nic, 7},       {"ring:7", Model::AllPort, 6},      {"ring:8", Model::Nic, 9},
    {"ring:8", Model::AllPort, 8},   {"torus:3x3", Model::Nic, 9},       {"torus:3x3", Model::AllPort, 3},
    {"torus:2x4", Model::Nic, 8},    {"torus:2x4", Model::AllPort, 4},   {"hypercube:3", Model::Nic, 8},
    {"hypercube:3", Model::AllPort, 4}, {"hypercube:4", Model::Nic, 17}, {"hypercube:4", Model::AllPort, 8},
    {"torus:4x4", Model::Nic, 17},   {"torus:4x4", Model::AllPort, 8},
};

std::string proof_kind(const ExactResult& r) {
  if (r.status != ExactStatus::Optimal) return to_string(r.status);
  return r.proof.rfind("meets", 0) == 0 ? "meets bound" : "T-1 UNSAT";
}

Hops hops_of(const Topology& t, const std::vector<NodeId>& walk) {
  Hops h;
  for (std::size_t i = 0; i + 1 < walk.size(); ++i) h.emplace_back(walk[i], *t.port_to(walk[i], walk[i + 1]));
  return h;
}

/// Every message on its given walk (default: the shortest path of pairwise), packed earliest-first.
Schedule packed(const Topology& t, Model m, const std::vector<std::pair<Message, std::vector<NodeId>>>& walks) {
  const Schedule base = pairwise_schedule(t, m);  // for the shortest paths of the other messages
  std::vector<std::pair<Message, Hops>> paths;
  for (const auto& [msg, walk] : walks) paths.emplace_back(msg, hops_of(t, walk));
  std::vector<Message> done;
  for (const auto& p : paths) done.push_back(p.first);
  // Collect each remaining message's hops from the pairwise schedule (in step order).
  std::vector<std::vector<Hops>> by_msg(static_cast<std::size_t>(t.nodes() * t.nodes()));
  for (const auto& step : base.steps)
    for (const Transfer& tr : step) {
      auto& v = by_msg[static_cast<std::size_t>(tr.msg.src) * static_cast<std::size_t>(t.nodes()) +
                       static_cast<std::size_t>(tr.msg.dst)];
      if (v.empty()) v.emplace_back();
      v[0].emplace_back(tr.from, tr.port);
    }
  for (NodeId s : t.processors())
    for (NodeId d : t.processors()) {
      if (s == d) continue;
      const Message msg{s, d};
      if (std::find(done.begin(), done.end(), msg) != done.end()) continue;
      paths.emplace_back(msg, by_msg[static_cast<std::size_t>(s) * static_cast<std::size_t>(t.nodes()) +
                                     static_cast<std::size_t>(d)][0]);
    }
  PathPacker packer(t, m, "hand");
  for (const auto& [msg, hops] : paths) packer.place(msg, hops, packer.earliest(msg, hops, 0));
  return packer.take();
}

}  // namespace

TEST_CASE("exact: optimal schedules for small rings, tori and hypercubes", "[exact]") {
  for (const Known& k : kKnown) {
    const Topology t = parse_topology(k.spec);
    INFO(k.spec << " " << to_string(k.model));
    ExactOptions o;
    // A safety stop, not a target: each case takes seconds alone, but a CI machine running four
    // Verilator builds beside it stalled hypercube:4 nic past a 60 s budget.
    o.time_budget_seconds = 600;
    const ExactResult r = exact_schedule(t, k.model, o);
    INFO(r.stopped_because);
    REQUIRE(r.status == ExactStatus::Optimal);
    REQUIRE(r.schedule);
    const VerifyReport rep = verify(t, *r.schedule);
    REQUIRE(rep.ok);
    REQUIRE(rep.steps == r.steps);
    CHECK(r.schedule->algorithm == "exact");
    CHECK(r.schedule->model == k.model);
    CHECK(r.steps == k.optimum);
    CHECK(r.lower_bound == lower_bound(t, k.model).steps);
    CHECK(r.steps >= r.lower_bound);  // the bound is sound
    CHECK(!r.proof.empty());
    CHECK(r.stopped_because.empty());
    CHECK(!r.log.empty());
  }
}

TEST_CASE("exact: one step less than the optimum is UNSAT on the full model", "[exact]") {
  // Independent of bounds.cpp: the solver itself refutes T = optimum - 1.
  for (const Known& k : kKnown) {
    const Topology t = parse_topology(k.spec);
    INFO(k.spec << " " << to_string(k.model));
    const ExactAttempt a = exact_decide(t, k.model, k.optimum - 1);
    INFO(a.log_line());
    CHECK(a.answer == SatAnswer::Unsat);
    CHECK(a.full_model);
  }
  // Without the implied counting constraints, on the plain encoding (1)-(7), for the small ones.
  for (const Known& k : kKnown) {
    const Topology t = parse_topology(k.spec);
    if (t.nodes() > 5) continue;
    INFO(k.spec << " " << to_string(k.model));
    DecideOptions o;
    o.implied = false;
    const ExactAttempt below = exact_decide(t, k.model, k.optimum - 1, o);
    INFO(below.log_line());
    CHECK(below.answer == SatAnswer::Unsat);
    const ExactAttempt at = exact_decide(t, k.model, k.optimum, o);
    INFO(at.log_line());
    REQUIRE(at.answer == SatAnswer::Sat);
    CHECK(verify(t, *at.schedule).ok);
  }
}

TEST_CASE("exact: the encoding admits detours, cycles and any verified schedule", "[exact]") {
  SECTION("hand-made ring:4 schedules with a detour and a walk through its own source") {
    const Topology t = parse_topology("ring:4");
    for (Model m : {Model::Nic, Model::AllPort}) {
      INFO(to_string(m));
      // (0,1) the long way round; (0,2) goes 0->1->0->3->2, passing its source again; (2,3) 2->1->0->3.
      const Schedule s = packed(t, m, {{{0, 1}, {0, 3, 2, 1}}, {{0, 2}, {0, 1, 0, 3, 2}}, {{2, 3}, {2, 1, 0, 3}}});
      const VerifyReport rep = verify(t, s);
      REQUIRE(rep.ok);
      for (std::int64_t T : {rep.steps, rep.steps + 3}) {
        DecideOptions o;
        o.fixed = &s;
        const ExactAttempt a = exact_decide(t, m, T, o);
        INFO(a.log_line() << " " << a.why);
        CHECK(a.answer == SatAnswer::Sat);
        CHECK(a.full_model);
      }
      // Fewer steps than the fixed schedule takes: rejected.
      DecideOptions o;
      o.fixed = &s;
      CHECK(exact_decide(t, m, rep.steps - 1, o).answer == SatAnswer::Unsat);
    }
  }
  SECTION("a schedule with a detour as phase hints: still solved, still verified") {
    const Topology t = parse_topology("ring:5");
    const Schedule s = packed(t, Model::Nic, {{{0, 1}, {0, 4, 3, 2, 1}}});
    REQUIRE(verify(t, s).ok);
    DecideOptions o;
    o.phases = &s;
    const ExactAttempt a = exact_decide(t, Model::Nic, verify(t, s).steps, o);
    REQUIRE(a.answer == SatAnswer::Sat);
    CHECK(verify(t, *a.schedule).ok);
  }
  SECTION("pairwise schedules of several families, placed tori included") {
    for (const char* spec : {"ring:5", "path:5", "torus:3x3", "hypercube:3", "complete:4", "torus:4x4@linear",
                             "torus:3x3@multiple:2"}) {
      const Topology t = parse_topology(spec);
      for (Model m : {Model::Nic, Model::AllPort}) {
        INFO(spec << " " << to_string(m));
        const Schedule s = pairwise_schedule(t, m);
        const VerifyReport rep = verify(t, s);
        REQUIRE(rep.ok);
        DecideOptions o;
        o.fixed = &s;
        const ExactAttempt a = exact_decide(t, m, rep.steps, o);
        INFO(a.log_line() << " " << a.why);
        CHECK(a.answer == SatAnswer::Sat);
      }
    }
  }
  SECTION("an invalid schedule is rejected") {
    const Topology t = parse_topology("ring:4");
    Schedule s = pairwise_schedule(t, Model::Nic);
    const std::int64_t steps = verify(t, s).steps;
    // Move one crossing of a two-hop message one step later: the message would wait at a relay.
    bool moved = false;
    for (std::size_t c = 0; c + 1 < s.steps.size() && !moved; ++c)
      for (std::size_t i = 0; i < s.steps[c].size() && !moved; ++i) {
        const Transfer tr = s.steps[c][i];
        if (t.neighbor(tr.from, tr.port) == tr.msg.dst && tr.from != tr.msg.src) {
          s.steps[c].erase(s.steps[c].begin() + static_cast<std::ptrdiff_t>(i));
          s.steps[c + 1].push_back(tr);
          moved = true;
        }
      }
    REQUIRE(moved);
    REQUIRE_FALSE(verify(t, s).ok);
    DecideOptions o;
    o.fixed = &s;
    o.implied = false;
    CHECK(exact_decide(t, Model::Nic, steps + 1, o).answer == SatAnswer::Unsat);
  }
}

TEST_CASE("exact: the implied constraints admit tight schedules found without them", "[exact]") {
  // At these T the slacks are 0, so (8) adds its strongest clauses; each schedule here was built
  // without (8) and must satisfy it.
  SECTION("paper 001 exchange tables (all-port, optimal)") {
    for (const char* spec : {"ring:6", "ring:7", "ring:8", "hypercube:3", "hypercube:4", "torus:3x3", "torus:4x4"}) {
      const Topology t = parse_topology(spec);
      const Schedule s = expand_exchange_table(t, require_exchange_table(t));
      const VerifyReport rep = verify(t, s);
      REQUIRE(rep.ok);
      DecideOptions o;
      o.fixed = &s;
      const ExactAttempt a = exact_decide(t, Model::AllPort, rep.steps, o);
      INFO(spec << ": " << a.log_line());
      CHECK(a.answer == SatAnswer::Sat);
      if (std::string(spec) != "ring:6") CHECK(a.link_slack == std::optional<std::int64_t>(0));  // ring:6: 60 - 54
    }
  }
  SECTION("schedules of the plain encoding (1)-(7)") {
    const Known cases[] = {{"ring:7", Model::Nic, 7},
                           {"torus:3x3@linear", Model::Nic, 3},
                           {"torus:5x5@linear", Model::Nic, 6},
                           {"ring:7", Model::AllPort, 6}};
    for (const Known& k : cases) {
      const Topology t = parse_topology(k.spec);
      INFO(k.spec << " " << to_string(k.model));
      DecideOptions plain;
      plain.implied = false;
      const ExactAttempt found = exact_decide(t, k.model, k.optimum, plain);
      REQUIRE(found.answer == SatAnswer::Sat);
      DecideOptions o;
      o.fixed = &*found.schedule;
      const ExactAttempt a = exact_decide(t, k.model, k.optimum, o);
      INFO(a.log_line());
      CHECK(a.answer == SatAnswer::Sat);
    }
  }
}

TEST_CASE("exact: partially populated tori", "[exact]") {
  for (const char* spec : {"torus:3x3@linear", "torus:4x4@linear", "torus:4x4@multiple:2"}) {
    const Topology t = parse_topology(spec);
    for (Model m : {Model::Nic, Model::AllPort}) {
      INFO(spec << " " << to_string(m));
      const ExactResult r = exact_schedule(t, m);
      REQUIRE(r.status == ExactStatus::Optimal);
      const VerifyReport rep = verify(t, *r.schedule);
      CHECK(rep.ok);
      CHECK(rep.delivered == rep.expected);
      CHECK(r.steps >= lower_bound(t, m).steps);
    }
  }
}

TEST_CASE("exact: an optimum above the lower bound is proven by UNSAT", "[exact]") {
  // path:5 under nic: the bound is 6, the optimum 7.
  const Topology t = parse_topology("path:5");
  const ExactResult r = exact_schedule(t, Model::Nic);
  REQUIRE(r.status == ExactStatus::Optimal);
  CHECK(r.steps == 7);
  CHECK(r.lower_bound == 6);
  CHECK(r.proven_infeasible == 6);
  CHECK(r.proof.rfind("T=6 infeasible: UNSAT on the full model", 0) == 0);
  CHECK(verify(t, *r.schedule).ok);
  DecideOptions o;
  o.implied = false;  // the same answer without the counting constraints
  CHECK(exact_decide(t, Model::Nic, 6, o).answer == SatAnswer::Unsat);
  CHECK(exact_decide(t, Model::Nic, 7, o).answer == SatAnswer::Sat);
}

TEST_CASE("exact: options, limits and errors", "[exact]") {
  const Topology ring = parse_topology("ring:6");
  SECTION("single-port is rejected, naming the accepted models") {
    try {
      (void)exact_schedule(ring, Model::SinglePort);
      FAIL("no UsageError");
    } catch (const UsageError& e) {
      CHECK(std::string(e.what()).find("nic, all-port") != std::string::npos);
    }
    CHECK_THROWS_AS(exact_decide(ring, Model::SinglePort, 5), UsageError);
  }
  SECTION("no budget: no result, and says why") {
    ExactOptions o;
    o.time_budget_seconds = 0;
    const ExactResult r = exact_schedule(ring, Model::Nic, o);
    CHECK(r.status == ExactStatus::NoResult);
    CHECK(!r.schedule);
    CHECK(r.steps == -1);
    CHECK(r.stopped_because.find("work budget") != std::string::npos);
  }
  SECTION("no budget but an incumbent: feasible, unproven, the incumbent returned") {
    ExactOptions o;
    o.time_budget_seconds = 0;
    o.incumbent = pairwise_schedule(ring, Model::Nic);
    const std::int64_t steps = verify(ring, *o.incumbent).steps;
    const ExactResult r = exact_schedule(ring, Model::Nic, o);
    if (steps > r.lower_bound) {
      CHECK(r.status == ExactStatus::FeasibleUnproven);
      CHECK(r.stopped_because.find("work budget") != std::string::npos);
    }
    REQUIRE(r.schedule);
    CHECK(r.steps == steps);
    CHECK(r.schedule->algorithm == o.incumbent->algorithm);
  }
  SECTION("an upper bound without a schedule") {
    ExactOptions o;
    o.time_budget_seconds = 0;
    o.upper = 40;
    const ExactResult r = exact_schedule(ring, Model::Nic, o);
    CHECK(r.status == ExactStatus::FeasibleUnproven);
    CHECK(r.steps == 40);
    CHECK(!r.schedule);
  }
  SECTION("size limit, checked before building") {
    ExactOptions o;
    o.max_clauses = 1000;
    const ExactResult r = exact_schedule(parse_topology("torus:4x4"), Model::Nic, o);
    CHECK(r.status == ExactStatus::NoResult);
    CHECK(r.stopped_because.find("size limit") != std::string::npos);
  }
  SECTION("the budget is kept on an instance too large to finish") {
    // Counted work (conflicts times clauses, encodings per clause), not the clock: the same
    // answer on a loaded machine, and the wall-clock safety cap (25 s here) does not fire.
    ExactOptions o;
    o.time_budget_seconds = 1.5;
    const ExactResult r = exact_schedule(parse_topology("torus:5x5"), Model::Nic, o);
    CHECK(r.status == ExactStatus::NoResult);
    CHECK(r.stopped_because.find("work budget") != std::string::npos);
    CHECK_FALSE(r.capped);
    const ExactResult again = exact_schedule(parse_topology("torus:5x5"), Model::Nic, o);
    CHECK(again.stopped_because == r.stopped_because);  // the same T and stage, by counted work
  }
  SECTION("lower above the bound: a schedule, optimality not claimed unless it meets the bound") {
    ExactOptions o;
    o.lower = 8;  // ring:6 nic: optimum 6
    const ExactResult r = exact_schedule(ring, Model::Nic, o);
    REQUIRE(r.schedule);
    CHECK(verify(ring, *r.schedule).ok);
    CHECK((r.status == ExactStatus::Optimal) == (r.steps == r.lower_bound));
  }
  SECTION("lower below the bound: the solver re-proves the bound") {
    ExactOptions o;
    o.lower = 1;
    const ExactResult r = exact_schedule(ring, Model::AllPort, o);
    REQUIRE(r.status == ExactStatus::Optimal);
    CHECK(r.steps == 5);
    CHECK(r.proven_infeasible == 4);
  }
  SECTION("ring:2: one step") {
    const ExactResult r = exact_schedule(parse_topology("ring:2"), Model::Nic);
    CHECK(r.status == ExactStatus::Optimal);
    CHECK(r.steps == 1);
  }
}

TEST_CASE("exact: table of optima", "[.][exact-bench]") {
  const char* specs[] = {"ring:4",      "ring:5",      "ring:6",      "ring:7",        "ring:8",
                         "ring:9",      "ring:10",     "ring:12",     "path:5",        "path:6",
                         "path:7",      "torus:2x4",   "torus:3x3",   "torus:3x4",     "torus:4x4",
                         "torus:3x5",   "torus:5x5",   "torus:6x6",   "torus:2x2x3",   "torus:3x3x3",
                         "hypercube:3", "hypercube:4", "hypercube:5", "path:3*path:4", "path:4*path:4",
                         "torus:4x4@linear", "torus:5x5@linear", "torus:6x6@linear", "torus:4x4@multiple:2"};
  std::cout << "| topology | model | lower bound | optimum | proof | seconds | last solver call |\n"
            << "|---|---|---:|---:|---|---:|---|\n";
  for (const char* spec : specs) {
    const Topology t = parse_topology(spec);
    for (Model m : {Model::Nic, Model::AllPort}) {
      const ExactResult r = exact_schedule(t, m);
      if (r.schedule) CHECK(verify(t, *r.schedule).ok);
      char secs[32];
      std::snprintf(secs, sizeof secs, "%.2f", r.seconds);
      std::cout << "| `" << spec << "` | " << to_string(m) << " | " << r.lower_bound << " | "
                << (r.status == ExactStatus::Optimal ? std::to_string(r.steps)
                                                     : (r.steps > 0 ? "<= " + std::to_string(r.steps) : "?"))
                << " | " << proof_kind(r) << " | " << secs << " | " << (r.log.empty() ? "" : r.log.back()) << " |"
                << std::endl;
    }
  }
}
