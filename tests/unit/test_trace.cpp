// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "totex/generators/a2.hpp"
#include "totex/verify/reference_engine.hpp"
#include "totex/generators/generators.hpp"
#include "totex/verify/sha256.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/trace.hpp"

using namespace totex;

TEST_CASE("SHA-256 test vectors (FIPS 180-4 examples)", "[trace]") {
  REQUIRE(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  REQUIRE(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  REQUIRE(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  REQUIRE(sha256_hex(std::string(1000, 'a')) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

TEST_CASE("trace digest is independent of observation order", "[trace]") {
  std::vector<Delivery> a{{0, 1, 2, 7}, {1, 0, 3, 9}, {0, 0, 1, 5}};
  std::vector<Delivery> b{a[2], a[0], a[1]};
  REQUIRE(trace_sha256(a) == trace_sha256(b));
  b[0].payload ^= 1;
  REQUIRE(trace_sha256(a) != trace_sha256(b));
  // Two flits of one pair in one step (all-port: over two links), in either order.
  const std::vector<Delivery> c{{6, 0, 7, 0x1234}, {6, 0, 7, 0xb26b}, {2, 3, 4, 1}};
  REQUIRE(trace_sha256(c) == trace_sha256({c[1], c[2], c[0]}));
  REQUIRE(trace_sha256(c) == trace_sha256({c[2], c[1], c[0]}));
}

TEST_CASE("scoreboard accepts the expected run and names each kind of mistake", "[trace]") {
  const MinNetwork net = std::get<MinNetwork>(parse_spec("min:4:2:omega"));
  const MinSchedule s = latin_schedule(net, zero_m0(net));
  const auto expected = expected_deliveries(net, s);
  REQUIRE(expected.size() == 16);
  Scoreboard good(net, expected);
  for (const ExpectedDelivery& e : expected)
    good.observe(e.cycle, e.delivery.dst, e.delivery.src, e.delivery.dst, e.delivery.step, e.delivery.payload);
  good.finish();
  REQUIRE(good.errors().empty());
  REQUIRE(good.delivered() == 16);
  REQUIRE(good.last_cycle() == 4 + 2 - 2);

  Scoreboard bad(net, expected);
  const Delivery& d = expected[0].delivery;
  bad.observe(expected[0].cycle + 1, d.dst, d.src, d.dst, d.step, d.payload ^ 1U);
  bad.observe(expected[0].cycle + 1, d.dst, d.src, d.dst, d.step, d.payload);
  bad.observe(3, (d.dst + 1) % 4, d.src, d.dst, d.step, d.payload);
  bad.finish();
  const auto& e = bad.errors();
  const std::string msg = "message (" + std::to_string(d.src) + "," + std::to_string(d.dst) + ")";
  REQUIRE(e.at(0) == "cycle 2, node " + std::to_string(d.dst) + ": " + msg + " payload " +
                         std::to_string(d.payload ^ 1U) + ", expected " + std::to_string(d.payload));
  REQUIRE(e.at(1) == "cycle 2, node " + std::to_string(d.dst) + ": " + msg + " arrived, expected in cycle 1");
  REQUIRE(e.at(2) == "cycle 2, node " + std::to_string(d.dst) + ": " + msg + " delivered twice");
  REQUIRE(e.at(3) == "cycle 3, node " + std::to_string((d.dst + 1) % 4) + ": " + msg + " delivered to the wrong node");
  REQUIRE(e.size() == 4 + 15);  // and the 15 messages never seen
}

TEST_CASE("scoreboard takes what must arrive from the network, not from the schedule", "[trace]") {
  // A MIN: all N*N messages, the self slot included, even when the timing lists none of them.
  const MinNetwork net = std::get<MinNetwork>(parse_spec("min:4:2:omega"));
  Scoreboard min_board(net, {});
  min_board.finish();
  REQUIRE(min_board.expected_count() == 16);
  REQUIRE(min_board.errors().size() == 16);
  REQUIRE(min_board.errors().at(0) == "node 0: message (0,0) never arrived (the schedule never delivers it)");

  // A direct network: every ordered pair of distinct processors; a delivery the timing does not
  // list is reported, and so is a message that is not part of the exchange.
  const Topology t = parse_topology("torus:3x3");
  Scoreboard direct(t, {});
  REQUIRE(direct.expected_count() == 72);
  direct.observe(0, 1, 0, 1, 0, payload_of(0, 1));
  direct.observe(0, 2, 2, 2, 0, payload_of(2, 2));
  direct.finish();
  REQUIRE(direct.delivered() == 1);
  REQUIRE(direct.errors().at(0) == "cycle 0, node 1: message (0,1) arrived, but the schedule never delivers it");
  REQUIRE(direct.errors().at(1) == "cycle 0, node 2: message (2,2) is not a message of this exchange");
  REQUIRE(direct.errors().size() == 2 + 71);

  // Placed torus, untimed (dynamic routing): processors only; the payload is recomputed.
  const Topology placed = parse_topology("torus:3x3@linear");
  Scoreboard dyn(placed);
  REQUIRE(dyn.expected_count() == 6);
  const NodeId p0 = placed.processors().at(0), p1 = placed.processors().at(1);
  dyn.observe(5, p1, p0, p1, 5, payload_of(p0, p1) ^ 4U);
  dyn.observe(6, 1, 0, 1, 6, payload_of(0, 1));  // node 1 has no processor in torus:3x3@linear
  dyn.finish();
  REQUIRE(dyn.delivered() == 1);
  REQUIRE(dyn.errors().at(0).find("payload") != std::string::npos);
  REQUIRE(dyn.errors().at(1) == "cycle 6, node 1: message (0,1) is not a message of this exchange");
  REQUIRE(dyn.errors().size() == 2 + 5);
}

TEST_CASE("reference engine moves messages hop by hop and checks the claimed step count", "[trace]") {
  const Topology t = parse_topology("torus:3x3");
  const Schedule good = a2_schedule(t);
  const SimResult ok = run_reference(t, good);
  REQUIRE(ok.ok());
  REQUIRE(ok.delivered == 72);
  REQUIRE(ok.expected_delivered == 72);

  // Delete the first hop of a two-hop message: its last hop now starts where it never was.
  Schedule relay = good;
  bool removed = false;
  for (auto& step : relay.steps) {
    for (auto it = step.begin(); it != step.end() && !removed; ++it)
      if (t.neighbor(it->from, it->port) != it->msg.dst) {
        step.erase(it);
        removed = true;
        break;
      }
    if (removed) break;
  }
  REQUIRE(removed);
  const SimResult lost = run_reference(t, relay);
  REQUIRE_FALSE(lost.ok());
  REQUIRE(lost.delivered == 71);
  REQUIRE(lost.expected_delivered == 72);

  // No transfers at all: nothing delivered out of 72, not "0/0".
  Schedule empty = good;
  empty.steps.clear();
  const SimResult none = run_reference(t, empty);
  REQUIRE_FALSE(none.ok());
  REQUIRE(none.delivered == 0);
  REQUIRE(none.expected_delivered == 72);

  // A claimed step count the run does not take.
  REQUIRE_FALSE(run_reference(t, good, ok.cycles + 1).ok());
  const MinNetwork net = std::get<MinNetwork>(parse_spec("min:16:2:omega"));
  const MinSchedule ms = latin_schedule(net, zero_m0(net));
  REQUIRE(run_reference(net, ms, 19).ok());
  const SimResult longer = run_reference(net, ms, 20);
  REQUIRE_FALSE(longer.ok());
  REQUIRE(longer.errors.at(0) == "run took 19 cycles, the schedule predicts 20");
}

TEST_CASE("scoreboard checks every flit of a multi-flit traffic and its order", "[trace]") {
  // ring:3 all:2: 6 pairs x 2 flits; flit f of every pair arrives in cycle f (step f).
  const Topology t = parse_topology("ring:3");
  const Traffic traffic = parse_traffic("all:2", t);
  std::vector<ExpectedDelivery> timing;
  for (NodeId s = 0; s < 3; ++s)
    for (NodeId d = 0; d < 3; ++d)
      if (s != d)
        for (std::int32_t f = 0; f < 2; ++f) timing.push_back({{f, d, s, payload_of(s, d, f)}, f, f});
  REQUIRE(payload_of(0, 1, 0) == payload_of(0, 1));  // flit 0 keeps the one-flit payload
  REQUIRE(payload_of(0, 1, 1) != payload_of(0, 1, 0));

  Scoreboard good(t, timing, traffic);
  REQUIRE(good.expected_count() == 12);
  for (const ExpectedDelivery& e : timing)
    good.observe(e.cycle, e.delivery.dst, e.delivery.src, e.delivery.dst, e.delivery.step, e.delivery.payload);
  good.finish();
  REQUIRE(good.errors().empty());
  REQUIRE(good.delivered() == 12);

  // Pair (0,1)'s flits swapped in time, a payload of no flit, and a flit never sent.
  Scoreboard bad(t, timing, traffic);
  for (const ExpectedDelivery& e : timing) {
    const Delivery& d = e.delivery;
    if (d.src == 0 && d.dst == 1) {
      bad.observe(1 - e.flit, d.dst, d.src, d.dst, 1 - e.flit, d.payload);
    } else if (d.src == 2 && d.dst == 0 && e.flit == 1) {
      bad.observe(e.cycle, d.dst, d.src, d.dst, d.step, payload_of(2, 0, 7));
    } else if (!(d.src == 1 && d.dst == 2 && e.flit == 0)) {
      bad.observe(e.cycle, d.dst, d.src, d.dst, d.step, d.payload);
    }
  }
  bad.finish();
  const auto& e = bad.errors();
  REQUIRE(e.size() == 8);
  REQUIRE(e.at(0) == "cycle 1, node 1: flit (0,1)#0 carries step 1, expected 0");
  REQUIRE(e.at(1) == "cycle 1, node 1: flit (0,1)#0 arrived, expected in cycle 0");
  REQUIRE(e.at(2) == "cycle 0, node 1: flit (0,1)#1 carries step 0, expected 1");
  REQUIRE(e.at(3) == "cycle 0, node 1: flit (0,1)#1 arrived, expected in cycle 1");
  REQUIRE(e.at(4) == "cycle 1, node 0: pair (2,0): payload " + std::to_string(payload_of(2, 0, 7)) +
                         " is the payload of none of its flits");
  REQUIRE(e.at(5) == "node 1: flit (0,1)#1 arrived in cycle 0, before flit (0,1)#0 (cycle 1): the pair's flits are out of order");
  REQUIRE(e.at(6) == "node 2: flit (1,2)#0 of step 0 never arrived (expected in cycle 0)");
  REQUIRE(e.at(7) == "node 0: flit (2,0)#1 of step 1 never arrived (expected in cycle 1)");
}
