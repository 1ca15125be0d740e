// SPDX-License-Identifier: Apache-2.0
// The direct-network controller: layout widths, table programming, relay-buffer allocation,
// dimension-order routes and the generated top.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "totex/generators/a2.hpp"
#include "totex/direct_controller.hpp"
#include "totex/error.hpp"
#include "totex/io/exchange_table.hpp"
#include "totex/generators/generators.hpp"
#include "totex/network/spec.hpp"
#include "totex/traffic/traffic.hpp"
#include "totex/verify/trace.hpp"

using namespace totex;

TEST_CASE("direct layout mirrors the RTL widths", "[direct]") {
  const Topology t = parse_topology("torus:4x4");
  DirectParams p;
  p.model = Model::AllPort;
  p.depth = 32;
  const DirectLayout l(t, p);
  CHECK(l.ports == 4);
  CHECK(l.lanes == 4);
  CHECK(l.node_bits == 4);
  CHECK(l.msg_bits == 24);
  CHECK(l.act_bits == 3);    // idx_width(P + 3 = 7)
  CHECK(l.route_bits == 3);  // idx_width(P + 1 = 5)
  CHECK(l.slot_bits == 4);   // idx_width(N + 0)
  CHECK(l.entry_bits == 4 * 3 + 4 * (3 + 4) + 1);
  CHECK(l.words == 2);
  CHECK(l.step_bits == 5);
  CHECK(l.index_bits == 6);
  CHECK(l.vcs == 2);
  CHECK(l.address(DirectLayout::kRegionMessages, 3, 5) == ((1ULL << 10) | (3ULL << 6) | 5ULL));
  const DirectLayout::AddressFields f = l.fields(l.address(DirectLayout::kRegionControl, 15, 63));
  CHECK(f.region == DirectLayout::kRegionControl);
  CHECK(f.node == 15);
  CHECK(f.index == 63);
  p.model = Model::Nic;
  CHECK(DirectLayout(t, p).lanes == 1);
  CHECK(DirectLayout(t, p).signature() != l.signature());
}

TEST_CASE("direct program: one write per payload and table word, then the step count", "[direct]") {
  const Topology t = parse_topology("ring:5");
  const Schedule s = pairwise_schedule(t, Model::AllPort);
  DirectParams p;
  p.model = Model::AllPort;
  const DirectLayout l(t, p);
  const DirectProgram prog = direct_program(t, s, l);
  const auto steps = static_cast<std::int64_t>(s.steps.size());
  CHECK(prog.steps == steps);
  CHECK(prog.notes.empty());
  CHECK(static_cast<std::int64_t>(prog.writes.size()) == 5 * 4 + 5 * (steps + 1) * l.words + 1);
  CHECK(prog.writes.back().data == static_cast<std::uint64_t>(steps));
}

TEST_CASE("single-port A2 waits at relays and needs buffer entries", "[direct]") {
  const Topology t = parse_topology("torus:4x4");
  const Schedule s = a2_schedule(t);
  const int slots = direct_buffer_slots(t, s);
  CHECK(slots > 0);
  DirectParams p;
  p.model = Model::SinglePort;
  p.depth = 128;
  p.buffer_slots = slots;
  CHECK_NOTHROW(direct_program(t, s, DirectLayout(t, p)));
  p.buffer_slots = slots - 1;
  CHECK_THROWS_AS(direct_program(t, s, DirectLayout(t, p)), UsageError);
  // A ring's A2 schedule forwards every message on consecutive steps: nothing waits.
  CHECK(direct_buffer_slots(parse_topology("ring:8"), a2_schedule(parse_topology("ring:8"))) == 0);
}

TEST_CASE("direct program refuses what the NIC cannot express", "[direct]") {
  const Topology t = parse_topology("ring:3");
  Schedule s;
  s.topology = "ring:3";
  s.model = Model::Nic;
  s.steps = {{{{0, 1}, 0, *t.port_to(0, 1)}, {{0, 2}, 0, *t.port_to(0, 2)}}};  // two injections at node 0
  DirectParams p;
  p.model = Model::Nic;
  CHECK_THROWS_WITH(direct_program(t, s, DirectLayout(t, p)), Catch::Contains("1 inject lane"));
  p.model = Model::AllPort;  // all-port NICs have one lane per port
  s.model = Model::AllPort;
  CHECK_NOTHROW(direct_program(t, s, DirectLayout(t, p)));
}

TEST_CASE("direct program: a pair's flits in NIC slots {flit, dst}, one payload each", "[direct]") {
  // ring:4 nic: flits 0 and 1 of (0,1) injected in steps 0 and 1, both one hop.
  const Topology t = parse_topology("ring:4");
  Schedule s;
  s.topology = "ring:4";
  s.model = Model::Nic;
  const Port east = *t.port_to(0, 1);
  s.steps = {{{{0, 1, 0}, 0, east}}, {{{0, 1, 1}, 0, east}}};
  DirectParams p;
  p.model = Model::Nic;
  CHECK(direct_schedule_flits(s) == 2);
  CHECK_THROWS_WITH(direct_program(t, s, DirectLayout(t, p)),
                    Catch::Contains("the schedule sends 2 flits of one pair; the hardware was built for 1"));
  p.flits = 2;
  const DirectLayout l(t, p);
  CHECK(l.own_slots == 4 + 4);   // {1, d} = 4 + d: (2 - 1) * 2^2 + 4
  CHECK(l.slot_bits == 3);
  DirectParams one;
  one.model = Model::Nic;
  CHECK(l.signature() != DirectLayout(t, one).signature());  // a one-flit model is refused
  const DirectProgram prog = direct_program(t, s, l);
  // Only the injected flits' payloads are loaded, at index {f, d} with payload_of(s, d, f).
  std::vector<std::pair<std::uint64_t, std::uint64_t>> payloads;
  for (const LoadWrite& w : prog.writes)
    if (l.fields(w.addr).region == DirectLayout::kRegionMessages) payloads.emplace_back(l.fields(w.addr).index, w.data);
  REQUIRE(payloads.size() == 2);
  CHECK(payloads[0] == std::make_pair(std::uint64_t{1}, std::uint64_t{payload_of(0, 1, 0)}));
  CHECK(payloads[1] == std::make_pair(std::uint64_t{(1 << 2) | 1}, std::uint64_t{payload_of(0, 1, 1)}));
}

TEST_CASE("single-port: two flits of one pair waiting at a relay take two buffer entries", "[direct]") {
  // ring:4: flits 0 and 1 of (0,2) reach node 1 in steps 0 and 1 and leave it in steps 3 and 4.
  const Topology t = parse_topology("ring:4");
  Schedule s;
  s.topology = "ring:4";
  s.model = Model::SinglePort;
  const Port p01 = *t.port_to(0, 1), p12 = *t.port_to(1, 2);
  s.steps = {{{{0, 2, 0}, 0, p01}}, {{{0, 2, 1}, 0, p01}}, {}, {{{0, 2, 0}, 1, p12}}, {{{0, 2, 1}, 1, p12}}};
  CHECK(direct_buffer_slots(t, s) == 2);  // keyed by pair, the second wait would overwrite the first
  DirectParams p;
  p.model = Model::SinglePort;
  p.flits = 2;
  p.buffer_slots = 2;
  const DirectLayout l(t, p);
  const DirectProgram prog = direct_program(t, s, l);
  CHECK(prog.notes.empty());
  p.buffer_slots = 1;
  CHECK_THROWS_WITH(direct_program(t, s, DirectLayout(t, p)),
                    Catch::Contains("message (0,2)#0 waits at node 1") && Catch::Contains("2 needed"));
}

TEST_CASE("direct program names a message that crosses two links in one step", "[direct]") {
  // Issue 15's fault campaign: a crossing repeated a step early made the compiler stop with map::at.
  const Topology t = parse_topology("ring:4");
  Schedule s;
  s.topology = "ring:4";
  s.model = Model::AllPort;
  s.steps = {{{{0, 2}, 0, *t.port_to(0, 1)}, {{0, 2}, 1, *t.port_to(1, 2)}}};  // 0->1 and 1->2 in step 0
  DirectParams p;
  p.model = Model::AllPort;
  CHECK_THROWS_WITH(direct_program(t, s, DirectLayout(t, p)),
                    Catch::Contains("step 0, node 1, link 1->2: message (0,2) crosses a second link in this step") &&
                        Catch::Contains("arrived over link 0->1"));
  s.steps = {{{{0, 2}, 0, *t.port_to(0, 1)}}, {{{0, 2}, 0, *t.port_to(0, 1)}}};  // sent again from where it was
  CHECK_THROWS_WITH(direct_program(t, s, DirectLayout(t, p)),
                    Catch::Contains("step 1, node 0, link 0->1: message (0,2) is sent from node 0 but is at node 1"));
}

TEST_CASE("dimension-order routes: shorter way on rings, ties +, datelines on wrap links", "[direct]") {
  const Topology t = parse_topology("torus:4x4");
  const DirectRoutes r = dimension_order_routes(t, 4, DynamicRouting::Dor);
  CHECK(r.out_port[0][0] == 4);                                      // eject
  CHECK(r.out_port[0][2] == *t.port_to(0, 1));                       // distance 2: + (tie)
  CHECK(r.out_port[0][3] == *t.port_to(0, 3));                       // distance 1 the other way
  CHECK(r.out_port[0][5] == *t.port_to(0, 1));                       // dimension 0 first
  CHECK(r.out_port[1][13] == *t.port_to(1, 13));                     // then dimension 1, wrapping
  CHECK(r.dateline[3][static_cast<std::size_t>(*t.port_to(3, 0))]);  // 3 -> 0 wraps
  CHECK(r.dateline[0][static_cast<std::size_t>(*t.port_to(0, 3))]);  // 0 -> 3 wraps
  CHECK_FALSE(r.dateline[1][static_cast<std::size_t>(*t.port_to(1, 2))]);
  CHECK(r.port_dim[0][static_cast<std::size_t>(*t.port_to(0, 4))] == 1);
  CHECK_THROWS_AS(dimension_order_routes(parse_topology("metacube:1,2"), 3, DynamicRouting::Dor), UsageError);
}

TEST_CASE("adaptive routes: ties split by coordinate parity, every shortest-path port marked", "[direct]") {
  const Topology t = parse_topology("torus:4x4");
  const DirectRoutes r = dimension_order_routes(t, 4, DynamicRouting::Adaptive);
  auto minimal = [&](NodeId v, NodeId d, NodeId w) {
    return static_cast<bool>(r.minimal[static_cast<std::size_t>(v)][static_cast<std::size_t>(d * 4 + *t.port_to(v, w))]);
  };
  CHECK(r.out_port[0][2] == *t.port_to(0, 1));  // distance 2 from an even coordinate: +
  CHECK(r.out_port[1][3] == *t.port_to(1, 0));  // from an odd one: -
  CHECK(r.out_port[0][5] == *t.port_to(0, 1));  // still dimension 0 first
  CHECK(minimal(0, 2, 1));                      // both ways round are shortest
  CHECK(minimal(0, 2, 3));
  CHECK_FALSE(minimal(0, 2, 4));
  CHECK(minimal(0, 5, 1));                      // (1,1): +x and +y
  CHECK(minimal(0, 5, 4));
  CHECK_FALSE(minimal(0, 5, 3));
  CHECK_FALSE(minimal(0, 5, 12));
  for (int p = 0; p < 4; ++p) CHECK_FALSE(r.minimal[0][static_cast<std::size_t>(p)]);  // nothing towards itself
  // A hypercube: every differing bit is a shortest-path port.
  const Topology h = parse_topology("hypercube:3");
  const DirectRoutes rh = dimension_order_routes(h, 3, DynamicRouting::Adaptive);
  int marked = 0;
  for (int p = 0; p < 3; ++p) marked += rh.minimal[0][static_cast<std::size_t>(7 * 3 + p)] ? 1 : 0;
  CHECK(marked == 3);
}

TEST_CASE("dynamic layout and send queues: dor is the plain order, adaptive relabels the nodes", "[direct]") {
  const Topology t = parse_topology("torus:4x4");
  DirectParams p;
  p.mode = DirectMode::Dynamic;
  p.routing = DynamicRouting::Dor;
  const DirectLayout dor(t, p);
  CHECK(dor.vcs == 2);
  CHECK(dor.adaptive_vcs == 0);
  p.routing = DynamicRouting::Adaptive;
  const DirectLayout ad(t, p);
  CHECK(ad.vcs == 2 + kAdaptiveVcs);
  CHECK(ad.adaptive_vcs == kAdaptiveVcs);
  CHECK(ad.signature() != dor.signature());
  CHECK(DirectLayout(parse_topology("hypercube:4"), p).vcs == 1 + kAdaptiveVcs);
  CHECK(parse_dynamic_routing("dor") == DynamicRouting::Dor);
  CHECK_THROWS_AS(parse_dynamic_routing("west-first"), UsageError);
  // Node 5's queue: slot i holds dst (5 + i + 1) mod 16 under dor; a permutation of it under adaptive.
  auto queue = [&](const DirectLayout& l, NodeId v) {
    std::vector<NodeId> q(15, -1);
    for (const LoadWrite& w : direct_queue_writes(t, l)) {
      const auto region = static_cast<int>(w.addr >> (l.node_bits + l.index_bits));
      const auto node = static_cast<NodeId>((w.addr >> l.index_bits) & ((1U << l.node_bits) - 1));
      if (region == DirectLayout::kRegionMessages && node == v)
        q[static_cast<std::size_t>(w.addr & ((1ULL << l.index_bits) - 1))] = static_cast<NodeId>(w.data >> l.params.payload_bits);
    }
    return q;
  };
  const std::vector<NodeId> plain = queue(dor, 5), shuffled = queue(ad, 5);
  for (std::size_t i = 0; i < plain.size(); ++i) CHECK(plain[i] == static_cast<NodeId>((5 + i + 1) % 16));
  CHECK(shuffled != plain);
  CHECK(std::is_permutation(shuffled.begin(), shuffled.end(), plain.begin()));
  CHECK(queue(ad, 5) == shuffled);  // deterministic
  // Slot i over all nodes is a permutation: every node receives one slot-i message.
  std::vector<std::vector<NodeId>> all;
  for (NodeId v = 0; v < 16; ++v) all.push_back(queue(ad, v));
  for (std::size_t i = 0; i < 15; ++i) {
    std::vector<int> hits(16, 0);
    for (NodeId v = 0; v < 16; ++v) ++hits[static_cast<std::size_t>(all[static_cast<std::size_t>(v)][i])];
    CHECK(std::count(hits.begin(), hits.end(), 1) == 16);
  }
}

TEST_CASE("dynamic send queues of a traffic: the row, round f flit f in the send order", "[direct]") {
  const Topology t = parse_topology("torus:4x4");
  DirectParams p;
  p.mode = DirectMode::Dynamic;
  // Node 0 sends 3 flits to 1 and 1 to 2; node 5 sends 2 to 0. Heaviest pair: 3 flits.
  const Traffic tr = Traffic::from_triplets(16, {{0, 1, 3}, {0, 2, 1}, {5, 0, 2}}, Traffic::Duplicates::Refuse, "matrix",
                                            "matrix:test");
  p.flits = 3;
  const DirectLayout l(t, p);
  CHECK(direct_queue_slots(l) == 45);
  struct Slot {
    NodeId dst;
    std::uint32_t payload;
  };
  std::vector<std::vector<Slot>> queue(16);
  std::vector<std::uint64_t> send(16, 99), recv(16, 99);
  for (const LoadWrite& w : direct_queue_writes(t, l, &tr)) {
    const auto region = static_cast<int>(w.addr >> (l.node_bits + l.index_bits));
    const auto node = static_cast<std::size_t>((w.addr >> l.index_bits) & ((1U << l.node_bits) - 1));
    const auto index = static_cast<std::size_t>(w.addr & ((1ULL << l.index_bits) - 1));
    if (region == DirectLayout::kRegionMessages) {
      REQUIRE(index == queue[node].size());  // slots written in order, from 0
      queue[node].push_back({static_cast<NodeId>(w.data >> l.params.payload_bits),
                             static_cast<std::uint32_t>(w.data & 0xFFFFU)});
    } else if (index == DirectLayout::kControlSendCount) {
      send[node] = w.data;
    } else if (index == DirectLayout::kControlRecvCount) {
      recv[node] = w.data;
    }
  }
  // Node 0: round 0 offers flit 0 to 1 and 2 (in the adaptive send order), rounds 1 and 2 flits 1, 2 to 1.
  REQUIRE(queue[0].size() == 4);
  CHECK(send[0] == 4);
  std::vector<NodeId> round0 = {queue[0][0].dst, queue[0][1].dst};
  std::sort(round0.begin(), round0.end());
  CHECK(round0 == std::vector<NodeId>{1, 2});
  CHECK(queue[0][2].dst == 1);
  CHECK(queue[0][3].dst == 1);
  CHECK(queue[0][3].payload == payload_of(0, 1, 2));
  CHECK(queue[0][2].payload == payload_of(0, 1, 1));
  REQUIRE(queue[5].size() == 2);
  CHECK(queue[5][0].payload == payload_of(5, 0, 0));
  CHECK(queue[5][1].payload == payload_of(5, 0, 1));
  CHECK(queue[3].empty());
  CHECK(send[3] == 0);
  CHECK(recv[0] == 2);  // column sums
  CHECK(recv[1] == 3);
  CHECK(recv[2] == 1);
  CHECK(recv[5] == 0);
  // `all` as a traffic gives exactly today's writes.
  p.flits = 1;
  const DirectLayout one(t, p);
  const Traffic all = parse_traffic("all", t);
  const std::vector<LoadWrite> a = direct_queue_writes(t, one), b = direct_queue_writes(t, one, &all);
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].addr == b[i].addr);
    CHECK(a[i].data == b[i].data);
  }
}

TEST_CASE("untimed scoreboard of a traffic: every flit once, index order only when asked", "[direct]") {
  const Topology t = parse_topology("ring:4");
  const Traffic tr = Traffic::from_triplets(4, {{0, 2, 2}, {1, 3, 1}}, Traffic::Duplicates::Refuse, "matrix", "matrix:test");
  for (const bool in_order : {true, false}) {
    Scoreboard b(t, tr, in_order);
    b.observe(3, 2, 0, 2, 3, payload_of(0, 2, 1));  // flit 1 overtakes flit 0
    b.observe(4, 2, 0, 2, 4, payload_of(0, 2, 0));
    b.observe(5, 3, 1, 3, 5, payload_of(1, 3, 0));
    b.finish();
    CHECK(b.delivered() == 3);
    CHECK(b.expected_count() == 3);
    CHECK(b.errors().size() == (in_order ? 1U : 0U));
    CHECK(b.reordered() == (in_order ? 0 : 1));
  }
  Scoreboard twice(t, tr, false);
  twice.observe(1, 2, 0, 2, 1, payload_of(0, 2, 0));
  twice.observe(2, 2, 0, 2, 2, payload_of(0, 2, 0));
  twice.finish();  // a duplicate, and flit 1 of (0,2) and (1,3) never arrived
  REQUIRE(twice.errors().size() == 3);
  CHECK(twice.errors()[0].find("delivered twice") != std::string::npos);
}

TEST_CASE("top parameters: sizes, link tables, the layout's signature", "[direct]") {
  const Topology t = parse_topology("torus:3x3");
  DirectParams p;
  const DirectLayout l(t, p);
  const std::string svh = direct_params_svh(t, l);
  CHECK(svh.find("parameter int unsigned N           = 32'd9,") != std::string::npos);
  CHECK(svh.find("parameter int unsigned NumLinks    = 32'd36,") != std::string::npos);
  CHECK(svh.find("parameter int unsigned Dynamic     = 32'd0,") != std::string::npos);
  CHECK(svh.find("InLink = 1152'h") != std::string::npos);  // 9 nodes x 4 ports x 32 bits
  CHECK(svh.find("module") == std::string::npos);            // data only: the logic is rtl/totex_direct_top.sv
  char sig[16];
  std::snprintf(sig, sizeof sig, "32'h%x", l.signature());
  CHECK(svh.find(sig) != std::string::npos);
  p.mode = DirectMode::Dynamic;
  const std::string dyn = direct_params_svh(t, DirectLayout(t, p));
  CHECK(dyn.find("parameter int unsigned Dynamic     = 32'd1,") != std::string::npos);
  CHECK(dyn.find("RouteTable = 648'h") != std::string::npos);  // 9 x 9 entries x 8 bits
}
