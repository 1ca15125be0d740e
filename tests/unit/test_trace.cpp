// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "totex/generators.hpp"
#include "totex/sha256.hpp"
#include "totex/spec.hpp"
#include "totex/trace.hpp"

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
}

TEST_CASE("scoreboard accepts the expected run and names each kind of mistake", "[trace]") {
  const MinNetwork net = std::get<MinNetwork>(parse_spec("min:4:2:omega"));
  const MinSchedule s = latin_schedule(net, zero_m0(net));
  const auto expected = expected_deliveries(net, s);
  REQUIRE(expected.size() == 16);
  Scoreboard good(4, expected);
  for (const ExpectedDelivery& e : expected)
    good.observe(e.cycle, e.delivery.dst, e.delivery.src, e.delivery.dst, e.delivery.step, e.delivery.payload);
  good.finish();
  REQUIRE(good.errors().empty());
  REQUIRE(good.delivered() == 16);
  REQUIRE(good.last_cycle() == 4 + 2 - 2);

  Scoreboard bad(4, expected);
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
