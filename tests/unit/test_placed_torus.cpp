// SPDX-License-Identifier: Apache-2.0
// Partially populated tori as topologies (paper 004): the spec, processors, the verifier, bounds,
// the odr/udr/pairwise generators, the schedule file and the controller writes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "totex/bounds/bounds.hpp"
#include "totex/direct_controller.hpp"
#include "totex/network/distance.hpp"
#include "totex/error.hpp"
#include "totex/io/exchange_table.hpp"
#include "totex/generators/generators.hpp"
#include "totex/network/placement.hpp"
#include "totex/io/schedule_io.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

namespace {

std::int64_t term(const LowerBound& lb, const std::string& name) {
  for (const BoundTerm& t : lb.terms)
    if (t.name == name) return t.value;
  FAIL("no bound term " << name);
  return -1;
}

bool has_kind(const VerifyReport& r, const std::string& kind) {
  return std::any_of(r.violations.begin(), r.violations.end(), [&](const Violation& v) { return v.kind == kind; });
}

}  // namespace

TEST_CASE("placed torus specs keep every router and mark the placement's processors", "[placed]") {
  struct Case {
    const char* spec;
    const char* base;
    const char* placement;
  };
  for (const Case c : {Case{"torus:8x8@linear", "torus:8x8", "linear"}, Case{"torus:6x6x6@multiple:2", "torus:6x6x6", "multiple:2"},
                       Case{"torus:5x5@multiple:3", "torus:5x5", "multiple:3"}, Case{"torus:3x3x3@linear", "torus:3x3x3", "linear"}}) {
    INFO(c.spec);
    const Topology placed = parse_topology(c.spec);
    const Topology full = parse_topology(c.base);
    CHECK(placed.spec() == c.spec);
    CHECK(placed.nodes() == full.nodes());
    CHECK(placed.links() == full.links());
    CHECK(placed.is_partial());
    CHECK_FALSE(placed.is_vertex_transitive());
    const std::vector<NodeId> procs = placement_nodes(full, parse_placement(c.placement));
    CHECK(placed.processors() == procs);
    for (NodeId v = 0; v < placed.nodes(); ++v)
      CHECK(placed.is_processor(v) == std::binary_search(procs.begin(), procs.end(), v));
    CHECK_FALSE(full.is_partial());
    CHECK(full.processor_count() == full.nodes());
  }
  // |P| = T k^(d-1); T = k populates every node.
  CHECK(parse_topology("torus:6x6x6@multiple:2").processor_count() == 72);
  CHECK_FALSE(parse_topology("torus:5x5@multiple:5").is_partial());
}

TEST_CASE("bad placed torus specs are usage errors naming the accepted forms", "[placed]") {
  for (const char* spec : {"torus:8x6@linear", "torus:2x2@linear", "ring:8@linear", "torus:8x8@multiple:9",
                           "torus:8x8@multiple:0", "torus:8x8@diagonal", "torus:8x8@", "min:16:4:omega@linear",
                           "torus:8x8@linear@linear", "hypercube:4@linear", "metacube:2,1@linear"}) {
    INFO(spec);
    try {
      (void)parse_spec(spec);
      FAIL("accepted " << spec);
    } catch (const UsageError& e) {
      const std::string what = e.what();
      CHECK(what.find(std::string("bad topology '") + spec + "'") != std::string::npos);
      CHECK(what.find("torus:KxK[x...]@linear") != std::string::npos);
    }
  }
}

TEST_CASE("placed schedules verify over the processors only, routers at empty nodes forward", "[placed]") {
  for (const char* spec : {"torus:6x6@linear", "torus:5x5@multiple:2", "torus:4x4x4@linear", "torus:8x8@linear"}) {
    const Topology t = parse_topology(spec);
    const auto np = static_cast<std::int64_t>(t.processor_count());
    for (const Model m : {Model::Nic, Model::AllPort, Model::SinglePort}) {
      for (const std::string algo : {"odr", "udr", "pairwise"}) {
        INFO(spec << " " << to_string(m) << " " << algo);
        const Schedule s = algo == "pairwise" ? pairwise_schedule(t, m) : dimension_order_schedule(t, m, parse_routing(algo));
        CHECK(s.algorithm == algo);
        const VerifyReport r = verify(t, s);
        CHECK(r.ok);
        CHECK(r.expected == np * (np - 1));
        CHECK(r.delivered == r.expected);
        CHECK(r.max_buffered == 0);  // hops on consecutive steps
        bool relayed_at_empty = false;
        for (const auto& step : s.steps)
          for (const Transfer& tr : step) relayed_at_empty = relayed_at_empty || !t.is_processor(tr.from);
        CHECK(relayed_at_empty);
        CHECK(r.steps >= lower_bound(t, m).steps);
      }
    }
  }
}

TEST_CASE("the verifier rejects placed schedules that lose, invent or misplace messages", "[placed]") {
  const Topology t = parse_topology("torus:6x6@linear");
  const Schedule good = dimension_order_schedule(t, Model::Nic, Routing::Odr);
  REQUIRE(verify(t, good).ok);

  Schedule lost = good;  // the last hop of some message removed: it ends short of its destination
  lost.steps.back().pop_back();
  const VerifyReport r1 = verify(t, lost);
  CHECK_FALSE(r1.ok);
  CHECK(has_kind(r1, "lost"));

  Schedule from_empty = good;  // a message from a node without a processor
  NodeId empty = 0;
  while (t.is_processor(empty)) ++empty;
  from_empty.steps.push_back({{{empty, t.processors().front()}, empty, 0}});
  const VerifyReport r2 = verify(t, from_empty);
  CHECK_FALSE(r2.ok);
  CHECK(has_kind(r2, "bad-message"));
  CHECK(r2.violations.front().text.find("has no processor") != std::string::npos);

  // A complete exchange of the fully populated torus is not a schedule of the placed one.
  Schedule full = pairwise_schedule(parse_topology("torus:6x6"), Model::Nic);
  full.topology = t.spec();
  CHECK(has_kind(verify(t, full), "bad-message"));

  Schedule twice = good;  // two injections at one NIC in one step
  const Transfer first = twice.steps[0][0];
  const NodeId other = t.processors()[1] == first.msg.dst ? t.processors()[2] : t.processors()[1];
  REQUIRE(other != first.msg.src);
  const auto path = routes(t, first.msg.src, other, Routing::Odr).front();
  twice.steps[0].push_back({{first.msg.src, other}, first.msg.src, *t.port_to(path[0], path[1])});
  CHECK(has_kind(verify(t, twice), "inject-limit"));
}

TEST_CASE("placed torus bounds are paper 004's cut bound and the processors' injection and ejection", "[placed]") {
  for (const char* spec : {"torus:8x8@linear", "torus:6x6@linear", "torus:7x7@multiple:2", "torus:4x4x4@linear",
                           "torus:6x6x6@multiple:2", "torus:5x5x5@linear"}) {
    INFO(spec);
    const Topology t = parse_topology(spec);
    const std::string text(spec);
    const Placement p = parse_placement(text.substr(text.find('@') + 1));
    const LoadReport loads = compute_loads(parse_topology(text.substr(0, text.find('@'))), p, Routing::Odr);
    const std::int64_t np = t.processor_count();
    const LowerBound nic = lower_bound(t, Model::Nic);
    const LowerBound all = lower_bound(t, Model::AllPort);
    // Lemma 1 with Theorem 1's cut, computed independently by compute_loads, in whole steps.
    CHECK(term(all, "bisection") == static_cast<std::int64_t>(std::ceil(loads.bisection_bound - 1e-9)));
    // Lemma 1 with |S| = 1: (|P|-1)/(2d).
    CHECK(term(all, "injection") == static_cast<std::int64_t>(std::ceil(loads.single_bound - 1e-9)));
    CHECK(nic.steps >= np - 1);
    CHECK(term(nic, "nic_ejection") >= np - 1);
    CHECK(all.steps <= nic.steps);
    // S_P by brute force over processor pairs.
    std::int64_t sp = 0, far = 0;
    for (NodeId a : t.processors()) {
      const std::vector<int> dist = bfs_distances(t, a);
      for (NodeId b : t.processors()) {
        sp += dist[static_cast<std::size_t>(b)];
        far = std::max<std::int64_t>(far, dist[static_cast<std::size_t>(b)]);
      }
    }
    CHECK(processor_status(t) == sp);
    CHECK(term(all, "distance") == far);
    CHECK(term(nic, "nic_ejection") >= far);  // the farthest arrival is included
    CHECK(term(all, "link_traversals") == (sp + t.links() - 1) / t.links());
    // No routing beats the cut: ODR's E_max is at least the cut bound (both are link loads).
    CHECK(loads.max_load >= loads.bisection_bound - 1e-9);
  }
  // The ejection term counts distance: on torus:8x8@linear every processor has one partner 8 hops
  // away and two 6 hops away, so 7 arrivals need 8 steps (worked by hand).
  CHECK(term(lower_bound(parse_topology("torus:8x8@linear"), Model::Nic), "nic_ejection") == 8);
  // Unplaced topologies keep their bounds.
  CHECK(lower_bound(parse_topology("torus:8x8"), Model::AllPort).steps == 64);
}

TEST_CASE("odr schedules use exactly the ODR paths, so their steps are at least E_max", "[placed]") {
  for (const char* spec : {"torus:8x8@linear", "torus:5x5@multiple:2", "torus:4x4x4@linear"}) {
    INFO(spec);
    const Topology t = parse_topology(spec);
    const std::string text(spec);
    const LoadReport loads = compute_loads(parse_topology(text.substr(0, text.find('@'))),
                                           parse_placement(text.substr(text.find('@') + 1)), Routing::Odr);
    const Schedule s = dimension_order_schedule(t, Model::AllPort, Routing::Odr);
    std::map<std::pair<NodeId, NodeId>, std::vector<NodeId>> walked;
    for (const auto& step : s.steps)
      for (const Transfer& tr : step) {
        auto& path = walked[{tr.msg.src, tr.msg.dst}];
        if (path.empty()) path.push_back(tr.from);
        CHECK(path.back() == tr.from);
        path.push_back(t.neighbor(tr.from, tr.port));
      }
    CHECK(walked.size() == static_cast<std::size_t>(t.processor_count() * (t.processor_count() - 1)));
    for (const auto& [pair, path] : walked) CHECK(path == routes(t, pair.first, pair.second, Routing::Odr).front());
    CHECK(static_cast<double>(s.steps.size()) >= loads.max_load);
  }
}

TEST_CASE("placed schedules round-trip through the file, files naming empty nodes are rejected", "[placed][io]") {
  const Topology t = parse_topology("torus:5x5@multiple:2");
  const Schedule s = dimension_order_schedule(t, Model::Nic, Routing::Udr);
  std::stringstream buf;
  write_schedule(buf, t, s);
  const LoadedSchedule back = read_schedule(buf, "mem");
  const auto& b = std::get<Schedule>(back.schedule);
  CHECK(b.topology == "torus:5x5@multiple:2");
  CHECK(b.steps == s.steps);
  CHECK(verify(parse_topology(b.topology), b, back.claimed_steps).ok);

  NodeId empty = 0;
  while (t.is_processor(empty)) ++empty;
  std::istringstream bad("totex-schedule 1\nmodel nic\ntopology torus:5x5@multiple:2\nalgorithm x\nnodes 25\nsteps 1\n"
                         "step 0\n" + std::to_string(empty) + " " + std::to_string(t.neighbor(empty, 0)) + " " +
                         std::to_string(empty) + " 0\n");
  try {
    (void)read_schedule(bad, "f.txt");
    FAIL("accepted a message from an empty node");
  } catch (const FileError& e) {
    CHECK(std::string(e.what()).find("f.txt:8:") != std::string::npos);
    CHECK(std::string(e.what()).find("has no processor") != std::string::npos);
  }
  CHECK_FALSE(make_exchange_table(t).has_value());  // tables exchange among every node
}

TEST_CASE("the controller loads messages and send queues for processors only", "[placed][direct]") {
  const Topology t = parse_topology("torus:6x6@linear");
  const auto np = static_cast<std::uint64_t>(t.processor_count());
  DirectParams dyn;
  dyn.mode = DirectMode::Dynamic;
  const DirectLayout ld(t, dyn);
  const std::vector<LoadWrite> q = direct_queue_writes(t, ld);
  std::set<std::pair<NodeId, NodeId>> queued;
  for (const LoadWrite& w : q) {
    const auto region = static_cast<int>(w.addr >> (ld.node_bits + ld.index_bits));
    const auto node = static_cast<NodeId>((w.addr >> ld.index_bits) & ((1U << ld.node_bits) - 1));
    const auto index = w.addr & ((1ULL << ld.index_bits) - 1);
    if (region == DirectLayout::kRegionMessages) {
      CHECK(t.is_processor(node));
      queued.insert({node, static_cast<NodeId>(w.data >> ld.params.payload_bits)});
    } else {
      REQUIRE(region == DirectLayout::kRegionControl);
      CHECK(w.data == (t.is_processor(node) ? np - 1 : 0));
      CHECK((index == DirectLayout::kControlSendCount || index == DirectLayout::kControlRecvCount));
    }
  }
  CHECK(queued.size() == np * (np - 1));
  for (const auto& [src, dst] : queued) CHECK((t.is_processor(dst) && src != dst));

  DirectParams sched;
  sched.model = Model::Nic;
  const DirectLayout ls(t, sched);
  const DirectProgram prog = direct_program(t, dimension_order_schedule(t, Model::Nic, Routing::Odr), ls);
  std::size_t messages = 0;
  for (const LoadWrite& w : prog.writes)
    if (static_cast<int>(w.addr >> (ls.node_bits + ls.index_bits)) == DirectLayout::kRegionMessages) ++messages;
  CHECK(messages == np * (np - 1));
  CHECK(prog.notes.empty());
}
