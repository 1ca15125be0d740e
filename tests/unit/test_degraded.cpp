// SPDX-License-Identifier: Apache-2.0
// Networks beyond the families (issue 49 item 2, docs/networks.md): degraded networks
// (SPEC~fail:LIST) and graph:FILE.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "totex/bounds/bounds.hpp"
#include "totex/error.hpp"
#include "totex/generators/generators.hpp"
#include "totex/generators/scheduler.hpp"
#include "totex/generators/traffic_schedule.hpp"
#include "totex/network/distance.hpp"
#include "totex/network/graph.hpp"
#include "totex/network/spec.hpp"
#include "totex/traffic/traffic.hpp"
#include "totex/traffic/traffic_bounds.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;
using Catch::Matchers::Contains;

namespace {

Topology graph_of(const std::string& text, const std::string& name = "g.txt") {
  std::istringstream in(text);
  return read_graph(in, name, "graph:" + name);
}

/// The steps of every term, by name (the terms of two bounds compared one by one).
std::vector<std::pair<std::string, std::int64_t>> terms(const LowerBound& lb) {
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (const BoundTerm& t : lb.terms) out.emplace_back(t.name, t.value);
  return out;
}

}  // namespace

TEST_CASE("a fail list removes links both ways and nodes with their links", "[degraded]") {
  const Topology base = parse_topology("torus:4x4");
  const Topology t = parse_topology("torus:4x4~fail:0-1");
  REQUIRE(t.nodes() == 16);
  REQUIRE(t.links() == base.links() - 2);
  REQUIRE_FALSE(t.port_to(0, 1));
  REQUIRE_FALSE(t.port_to(1, 0));
  REQUIRE(t.port_to(0, 4));
  REQUIRE_FALSE(t.is_product());
  REQUIRE_FALSE(t.is_metacube());
  REQUIRE_FALSE(t.is_vertex_transitive());
  REQUIRE_FALSE(t.is_partial());
  REQUIRE(t.is_degraded());
  REQUIRE(t.base()->spec() == "torus:4x4");
  REQUIRE(t.failed_links() == std::vector<std::pair<NodeId, NodeId>>{{0, 1}});
  // Ports keep the base's order and names, minus the failed one: node 0 lost d0+ (to node 1).
  REQUIRE(t.degree(0) == 3);
  REQUIRE(t.port_name(0, 0) == "d0-");
  REQUIRE(t.neighbor(0, 0) == 3);
  REQUIRE(t.port_name(5, 0) == base.port_name(5, 0));

  const Topology n = parse_topology("torus:4x4~fail:5");
  REQUIRE(n.is_partial());
  REQUIRE(n.processor_count() == 15);
  REQUIRE_FALSE(n.is_processor(5));
  REQUIRE(n.degree(5) == 0);
  REQUIRE(n.degree(1) == 3);
  REQUIRE_FALSE(n.port_to(4, 5));
  REQUIRE(n.failed_nodes() == std::vector<NodeId>{5});
}

TEST_CASE("the canonical spec of a degraded network lists its failures sorted", "[degraded]") {
  REQUIRE(parse_topology("torus:8x8~fail:17-9,1-0").spec() == "torus:8x8~fail:0-1,9-17");
  REQUIRE(parse_topology("torus:4x4~fail:5,0-1").spec() == "torus:4x4~fail:0-1,5");
  REQUIRE(parse_topology("torus:4x4~fail:6-7,2,0-4").spec() == "torus:4x4~fail:0-4,2,6-7");
  // It parses back to the same network.
  const Topology t = parse_topology("mesh:4x4~fail:9,1-5");
  const Topology again = parse_topology(t.spec());
  REQUIRE(again.spec() == t.spec());
  REQUIRE(again.links() == t.links());
  REQUIRE(again.processors() == t.processors());
}

TEST_CASE("bad fail lists are refused with the grammar", "[degraded]") {
  const auto refused = [](const char* spec, const char* why) {
    INFO(spec);
    REQUIRE_THROWS_WITH(parse_topology(spec), Contains(why) && Contains("accepted:"));
  };
  refused("torus:4x4~fail:0-5", "nodes 0 and 5 are not adjacent");
  refused("torus:4x4~fail:0-0", "nodes 0 and 0 are not adjacent");
  refused("torus:4x4~fail:16", "node 16 is out of range 0..15");
  refused("torus:4x4~fail:0-99", "node 99 is out of range");
  refused("torus:4x4~fail:0-1,1-0", "names link 0-1 twice");
  refused("torus:4x4~fail:3,3", "names node 3 twice");
  refused("torus:4x4~fail:", "the fail list is empty");
  refused("torus:4x4~fail:0-1,,2", "has an empty item");
  refused("torus:4x4~fail:x", "is not a node v or a link a-b");
  refused("torus:4x4~fail:-1", "is not a node v or a link a-b");
  refused("torus:4x4~fail:1-2-3", "is not a node v or a link a-b");
  refused("torus:4x4~fail:1,1-2", "fails with all its links");
  refused("torus:4x4~fail:1~fail:2", "one ~fail:LIST only");
  refused("torus:4x4~fail:1@linear", "a placement comes before ~fail");
  refused("~fail:1", "follows a network");
  refused("min:16:4~fail:1", "a MIN cannot have failures");
  refused("torus:4x4~fial:1", "unknown suffix '~fial:1'");
}

TEST_CASE("a partitioned network is refused naming two nodes that cannot meet", "[degraded]") {
  REQUIRE_THROWS_WITH(parse_topology("ring:6~fail:0-1,3-4"), Contains("partitioned: node 0 cannot reach node 1"));
  REQUIRE_THROWS_WITH(parse_topology("path:4~fail:1-2"), Contains("node 0 cannot reach node 2"));
  // Node 0 cut off by failing its four neighbours: it cannot reach node 2 (1 failed too).
  REQUIRE_THROWS_WITH(parse_topology("torus:4x4~fail:1,3,4,12"), Contains("cannot reach node 2"));
  REQUIRE_THROWS_WITH(parse_topology("ring:3~fail:0,1"), Contains("only node 2 survives"));
  // A failed node between two others is no partition when the rest stays connected.
  REQUIRE_NOTHROW(parse_topology("ring:6~fail:0"));
}

TEST_CASE("failures compose with placements", "[degraded]") {
  const Topology placed = parse_topology("torus:4x4@linear");
  const Topology t = parse_topology("torus:4x4@linear~fail:2-3," + std::to_string(placed.processors()[1]));
  REQUIRE(t.spec() == "torus:4x4@linear~fail:2-3," + std::to_string(placed.processors()[1]));
  REQUIRE(t.processor_count() == placed.processor_count() - 1);
  REQUIRE(t.is_partial());
  // A router that is no processor may fail too (its links go, the processors stay).
  NodeId router = 0;
  while (placed.is_processor(router)) ++router;
  const Topology r = parse_topology("torus:4x4@linear~fail:" + std::to_string(router));
  REQUIRE(r.processor_count() == placed.processor_count());
  REQUIRE(r.degree(router) == 0);
}

TEST_CASE("distances on a degraded torus are those of the real graph", "[degraded]") {
  // torus:4x4 without 0-1: node 1 is three hops from 0 (0-3-2-1 or 0-4-5-1), not one.
  const Topology t = parse_topology("torus:4x4~fail:0-1");
  const std::vector<int> d = bfs_distances(t, 0);
  REQUIRE(d[1] == 3);
  REQUIRE(d[3] == 1);
  REQUIRE(d[5] == 2);
  REQUIRE(d[10] == 4);
  // total_status and processor_status use BFS (no product formula on a degraded network).
  REQUIRE(total_status(t) == total_status_bfs(t));
  REQUIRE(total_status(t) > total_status(parse_topology("torus:4x4")));
  // A failed node is out of every path: 0 to 2 around node 1 in ring:4~fail:1 is 0-3-2.
  const Topology r = parse_topology("ring:4~fail:1");
  REQUIRE(bfs_distances(r, 0)[2] == 2);
  REQUIRE(bfs_distances(r, 0)[1] == -1);
  REQUIRE(processor_status(r) == 2 * (1 + 2 + 1));
}

TEST_CASE("ring:8 without a link has the bounds of path:8", "[degraded][bounds]") {
  // The ring cut at 0-1 is the path 1-2-...-7-0: the same graph, renumbered.
  const Topology ring = parse_topology("ring:8~fail:0-1");
  const Topology path = parse_topology("path:8");
  for (Model m : {Model::SinglePort, Model::AllPort, Model::Nic}) {
    INFO(to_string(m));
    const LowerBound a = lower_bound(ring, m), b = lower_bound(path, m);
    REQUIRE(a.steps == b.steps);
    for (const auto& [name, value] : terms(b)) {  // every term of the path is found again
      INFO(name);
      bool found = false;
      for (const auto& [n2, v2] : terms(a)) found = found || (n2 == name && v2 == value);
      REQUIRE(found);
    }
  }
  // By hand, all-port: the middle link of the path carries 4*4 = 16 messages each way.
  REQUIRE(lower_bound(ring, Model::AllPort).steps == 16);
  // ring:6 without node 0 is path:5 (nodes 1..5); its processors are all five nodes.
  const LowerBound p5 = lower_bound(parse_topology("path:5"), Model::AllPort);
  REQUIRE(lower_bound(parse_topology("ring:6~fail:0"), Model::AllPort).steps == p5.steps);
}

TEST_CASE("bounds on a degraded torus hold and count the lost links", "[degraded][bounds]") {
  const Topology full = parse_topology("torus:4x4");
  const Topology t = parse_topology("torus:4x4~fail:0-1");
  for (Model m : {Model::SinglePort, Model::AllPort, Model::Nic}) {
    INFO(to_string(m));
    const LowerBound lb = lower_bound(t, m);
    REQUIRE(lb.steps >= lower_bound(full, m).steps);  // fewer links never help
    for (const BoundTerm& term : lb.terms) REQUIRE(term.name != "dimension_cut");
  }
  // link_traversals: S_G over the 62 directed links left.
  const LowerBound ap = lower_bound(t, Model::AllPort);
  bool found = false;
  for (const BoundTerm& term : ap.terms)
    if (term.name == "link_traversals") {
      found = true;
      REQUIRE(term.value == (total_status_bfs(t) + 61) / 62);
    }
  REQUIRE(found);
  // The cut d0 in [1,3) of torus:4x4~fail:0-1,2-3... crosses links 0-1 (failed) and 2-3: one
  // failure per row halves that row's crossing. With 0-1 and 3-0 failed on row 0 and 2-3 on row 1
  // the arcs see fewer links: the bound grows above the torus's.
  const Topology two = parse_topology("torus:4x4~fail:0-1,6-7");
  REQUIRE(lower_bound(two, Model::AllPort).steps >= lower_bound(t, Model::AllPort).steps);
}

TEST_CASE("failed nodes make cut vertices: the relay term counts processors", "[degraded][bounds]") {
  // mesh:3x3 without nodes 1 and 7: the columns {0,3,6} and {2,5,8} meet only at node 4. Node 4
  // sends its own |P|-1 = 6 and relays 6*6 - 3*3 - 3*3 = 18, over its 2 links under all-port:
  // 12. Node 3 is a cut vertex too ({0}, {6}, the rest): 6 + (36 - 1 - 1 - 16) = 24 under
  // single-port. The cut d0<1 carries 3*4 messages over one link each way: 12.
  const Topology t = parse_topology("mesh:3x3~fail:1,7");
  REQUIRE(t.processor_count() == 7);
  const auto value = [](const LowerBound& lb, const std::string& name) {
    std::int64_t v = -1;
    for (const BoundTerm& term : lb.terms)
      if (term.name == name) v = term.value;
    return v;
  };
  const LowerBound ap = lower_bound(t, Model::AllPort);
  REQUIRE(value(ap, "relay") == 12);
  REQUIRE(value(ap, "bisection") == 12);
  REQUIRE(ap.steps == 12);
  REQUIRE(value(lower_bound(t, Model::SinglePort), "relay") == 24);
  // A verified schedule meets or exceeds every bound.
  for (Model m : {Model::SinglePort, Model::AllPort, Model::Nic}) {
    const VerifyReport r = verify(t, pairwise_schedule(t, m));
    REQUIRE(r.ok);
    REQUIRE(r.steps >= lower_bound(t, m).steps);
  }
}

TEST_CASE("pairwise and auto schedule degraded tori, and the verifier accepts them", "[degraded][scheduler]") {
  for (const char* spec : {"torus:4x4~fail:0-1", "torus:4x4~fail:5", "torus:4x4~fail:0-1,5", "mesh:3x4~fail:1-2"}) {
    const Topology t = parse_topology(spec);
    for (Model m : {Model::SinglePort, Model::AllPort, Model::Nic}) {
      INFO(spec << " " << to_string(m));
      const Schedule s = pairwise_schedule(t, m);
      const VerifyReport r = verify(t, s);
      REQUIRE(r.ok);
      const std::int64_t p = t.processor_count();
      REQUIRE(r.delivered == p * (p - 1));
      REQUIRE(r.steps >= lower_bound(t, m).steps);
    }
  }
  for (const char* spec : {"torus:4x4~fail:0-1", "torus:4x4~fail:5"}) {
    const Topology t = parse_topology(spec);
    INFO(spec);
    const ScheduleOutcome out = schedule_direct(t, Model::Nic, ScheduleRequest("auto", 0.5));
    REQUIRE(out.report.ok);
    REQUIRE(verify(t, out.schedule).ok);
    REQUIRE(out.report.steps >= out.lower_bound);
    REQUIRE(out.schedule.topology == t.spec());
  }
}

TEST_CASE("graph files: nodes, links, comments", "[graph]") {
  const Topology g = graph_of("# a square with a diagonal\nnodes 4\n0 1\n1 2  # comment\n\n2 3\n3 0\n0 2\n");
  REQUIRE(g.nodes() == 4);
  REQUIRE(g.links() == 10);
  REQUIRE(g.spec() == "graph:g.txt");
  REQUIRE_FALSE(g.is_product());
  REQUIRE_FALSE(g.is_vertex_transitive());
  REQUIRE(g.degree(0) == 3);
  REQUIRE(g.neighbor(0, 0) == 1);  // ports in increasing neighbour id
  REQUIRE(g.neighbor(0, 2) == 3);
  REQUIRE(g.port_name(0, 1) == "to2");
  REQUIRE(bfs_distances(g, 1)[3] == 2);
  const Schedule s = pairwise_schedule(g, Model::Nic);
  REQUIRE(verify(g, s).ok);
  // A path given as a graph: at least path:5's bounds. Under nic its ball cuts give cut_corners 7
  // ((24 crossings + 2 idle) / 4 links), which path:5's one dimension cut cannot: exact proves 7.
  const Topology p = graph_of("nodes 5\n0 1\n1 2\n2 3\n3 4\n");
  for (Model m : {Model::SinglePort, Model::AllPort})
    REQUIRE(lower_bound(p, m).steps == lower_bound(parse_topology("path:5"), m).steps);
  REQUIRE(lower_bound(p, Model::Nic).steps == 7);
}

TEST_CASE("graph file errors name the file and line", "[graph]") {
  const auto refused = [](const std::string& text, const char* where_what) {
    INFO(text);
    REQUIRE_THROWS_WITH(graph_of(text), Contains(where_what));
  };
  refused("", "g.txt:0: empty graph file");
  refused("# only a comment\n", "empty graph file");
  refused("0 1\n", "g.txt:1: expected the line 'nodes N' before any link");
  refused("nodes\n", "g.txt:1: expected 'nodes N'");
  refused("nodes 1\n", "g.txt:1: nodes 1 is out of range 2..65536");
  refused("nodes 70000\n", "nodes 70000 is out of range 2..65536");
  refused("nodes x\n", "nodes 'x' is not an integer");
  refused("nodes 3\n0 1\n1 3\n", "g.txt:3: node 3 is out of range 0..2");
  refused("nodes 3\n0 1\n2 2\n", "g.txt:3: link 2-2 is a self-loop");
  refused("nodes 3\n0 1\n1 2\n# again\n1 0\n", "g.txt:5: link 0-1 is given twice (first on line 2)");
  refused("nodes 3\n0 1 2\n", "g.txt:2: expected 'a b");
  refused("nodes 3\n0 1\nnodes 3\n", "g.txt:3: a second 'nodes' line");
  REQUIRE_THROWS_AS(graph_of("nodes 3\n0\n"), FileError);
  // A partitioned graph: a UsageError naming two nodes.
  REQUIRE_THROWS_WITH(graph_of("nodes 4\n0 1\n2 3\n"), Contains("node 0 cannot reach node 2"));
  REQUIRE_THROWS_AS(graph_of("nodes 4\n0 1\n2 3\n"), UsageError);
}

TEST_CASE("graph:FILE through the spec parser, with failures", "[graph]") {
  const std::string path = "test_degraded_graph.txt";
  {
    std::ofstream out(path);
    out << "nodes 5\n0 1\n1 2\n2 3\n3 4\n4 0\n0 2\n";
  }
  const Topology g = parse_topology("graph:" + path);
  REQUIRE(g.spec() == "graph:" + path);
  REQUIRE(g.links() == 12);
  const Topology d = parse_topology("graph:" + path + "~fail:2-0,4");
  REQUIRE(d.spec() == "graph:" + path + "~fail:0-2,4");
  REQUIRE(d.port_name(0, 0) == "to1");
  REQUIRE(verify(d, pairwise_schedule(d, Model::AllPort)).ok);
  REQUIRE_THROWS_WITH(parse_topology("graph:" + path + "~fail:1-3"), Contains("not adjacent"));
  std::remove(path.c_str());
  REQUIRE_THROWS_WITH(parse_topology("graph:" + path), Contains(path + ":0: cannot open file"));
  REQUIRE_THROWS_WITH(parse_topology("graph:."), Contains(".:0: is a directory"));
  REQUIRE_THROWS_WITH(parse_topology("graph:"), Contains("graph:FILE needs a file"));
}

TEST_CASE("graph:FILE.xml reads Poseidon's platform", "[graph]") {
  const std::string path = "test_degraded_platform.xml";
  const auto write = [&](const std::string& links) {
    std::ofstream out(path);
    out << "<platform width=\"2\" height=\"2\">\n<topology type=\"custom\" routerDepth=\"1\" linkDepth=\"0\">\n" << links
        << "</topology>\n</platform>\n";
  };
  const std::string matrix_path = "test_degraded_platform_matrix.txt";
  const auto write_matrix = [&](const std::string& lines) {
    std::ofstream(matrix_path) << lines;
    return matrix_path;
  };
  // A ring of four routers: (0,0) (1,0) (1,1) (0,1), each link in both directions.
  write("<link source=\"(0,0)\" sink=\"(1,0)\"/><link source=\"(1,0)\" sink=\"(0,0)\"/>\n"
        "<link source=\"(1,0)\" sink=\"(1,1)\"/><link source=\"(1,1)\" sink=\"(1,0)\"/>\n"
        "<link source=\"(1,1)\" sink=\"(0,1)\"/><link source=\"(0,1)\" sink=\"(1,1)\"/>\n"
        "<link source=\"(0,1)\" sink=\"(0,0)\"/><link source=\"(0,0)\" sink=\"(0,1)\"/>\n");
  const Topology g = parse_topology("graph:" + path);
  REQUIRE(g.nodes() == 4);
  REQUIRE(g.links() == 8);
  REQUIRE(g.port_to(0, 1));
  REQUIRE(g.port_to(3, 2));
  REQUIRE_FALSE(g.port_to(0, 3));
  REQUIRE(lower_bound(g, Model::Nic).steps == lower_bound(parse_topology("ring:4"), Model::Nic).steps);
  REQUIRE_FALSE(g.is_one_way());
  // A link one way only (1 -> 3): a directed graph, each node's ports its out-links; the all
  // generators and bounds, failures and the hardware refuse it, the traffic ones take it.
  write("<link source=\"(0,0)\" sink=\"(1,0)\"/><link source=\"(1,0)\" sink=\"(0,0)\"/>\n"
        "<link source=\"(1,0)\" sink=\"(1,1)\"/>\n<link source=\"(0,1)\" sink=\"(0,0)\"/><link source=\"(0,0)\" sink=\"(0,1)\"/>\n");
  const Topology one_way = parse_topology("graph:" + path);
  REQUIRE(one_way.is_one_way());
  REQUIRE(one_way.links() == 5);
  REQUIRE(one_way.degree(1) == 2);  // to 0 and to 3
  REQUIRE(one_way.degree(3) == 0);  // no link out
  REQUIRE(one_way.port_to(1, 3));
  REQUIRE_FALSE(one_way.port_to(3, 1));
  REQUIRE(one_way.link_source(*one_way.port_to(1, 3) + one_way.link_id(1, 0)) == 1);
  REQUIRE_THROWS_WITH(lower_bound(one_way, Model::Nic), Contains("has one-way links, and the all lower bounds assume links both ways"));
  REQUIRE_THROWS_WITH(parse_topology("graph:" + path + "~fail:0-1"), Contains("failures (~fail:, --fail) assume links both ways"));
  // 2 -> 0 -> 1 -> 3 is the only way from 2 to 3; nothing reaches 2 from 3.
  const Traffic reachable = parse_traffic("matrix:" + write_matrix("2 3 2\n"), one_way);
  const LowerBound lb = traffic_lower_bound(one_way, Model::Nic, reachable);
  REQUIRE(lb.steps == 4);  // two flits, 3 hops: distance 2 + 3 - 1
  REQUIRE_THROWS_WITH(traffic_lower_bound(one_way, Model::Nic, parse_traffic("matrix:" + write_matrix("3 2 1\n"), one_way)),
                      Contains("cannot be delivered on graph:" + path + ": node 2 cannot be reached from node 3"));
  const TrafficOutcome o = schedule_traffic(one_way, Model::Nic, reachable, TrafficRequest{});
  REQUIRE(o.schedule.step_count() == 4);
  REQUIRE(verify(one_way, o.schedule, std::nullopt, RunLimits{}, &reachable).ok);
  std::remove(matrix_path.c_str());
  // A mesh platform is the product mesh:3x2 under the spec graph:FILE.xml (every product generator).
  {
    std::ofstream out(path);
    out << "<platform width=\"3\" height=\"2\">\n<topology type=\"mesh\" routerDepth=\"1\" linkDepth=\"0\"/>\n</platform>\n";
  }
  const Topology mesh = parse_topology("graph:" + path);
  REQUIRE(mesh.is_product());
  REQUIRE(mesh.spec() == "graph:" + path);
  REQUIRE(mesh.factors() == parse_topology("mesh:3x2").factors());
  REQUIRE(parse_topology("graph:" + path + "~fail:0-1").links() == mesh.links() - 2);
  std::remove(path.c_str());
}
