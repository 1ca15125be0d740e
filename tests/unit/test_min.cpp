// SPDX-License-Identifier: Apache-2.0
// Paper 002: configuration matrices, the Latin square A, and the two-phase algorithm.
#include <catch2/catch.hpp>

#include <random>

#include "totex/generators/generators.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

namespace {
MinNetwork min(const char* spec) { return std::get<MinNetwork>(parse_spec(spec)); }

/// Phase 2 executed from phase 1's send order: every message lands where its label went.
void require_two_phases_deliver(const MinNetwork& net, const MinSchedule& s) {
  const auto order = label_phase_send_order(net, s);
  const auto n = static_cast<std::size_t>(net.terminals());
  std::vector<int> received(n * n, 0);
  for (std::size_t x = 0; x < s.configurations.size(); ++x) {
    const std::vector<int> perm = net.permutation(s.configurations[x]);
    for (std::size_t src = 0; src < n; ++src) {
      const int intended = order[src][x];  // personalized message src prepared for step x
      REQUIRE(perm[src] == intended);      // phase 2 delivers it to that processor
      ++received[src * n + static_cast<std::size_t>(intended)];
    }
  }
  for (int r : received) REQUIRE(r == 1);
}
}  // namespace

TEST_CASE("paper 002's printed 16x16 4-MIN matrix A", "[min]") {
  // Row 0 and row 5 of A as printed in the paper (Fig. 5 network); A[j][x] = input reaching output j.
  const std::vector<int> row0{0, 3, 2, 1, 12, 15, 14, 13, 8, 11, 10, 9, 4, 7, 6, 5};
  const std::vector<int> row5{5, 4, 7, 6, 1, 0, 3, 2, 13, 12, 15, 14, 9, 8, 11, 10};
  // The paper's network is a shuffle-exchange (omega) network; baseline and butterfly give other
  // Latin squares.
  const MinNetwork net = min("min:16:4:omega");
  const auto a = arrival_matrix(net, latin_schedule(net, zero_m0(net)));
  REQUIRE(is_latin_square(a));
  REQUIRE(a[0] == row0);
  REQUIRE(a[5] == row5);
  const MinNetwork bfly = min("min:16:4:butterfly");
  const auto b = arrival_matrix(bfly, latin_schedule(bfly, zero_m0(bfly)));
  REQUIRE(is_latin_square(b));
  REQUIRE(b[0] != row0);
}

TEST_CASE("M^x realizes a Latin square for every wiring, d and N up to 4096", "[min]") {
  for (const char* wiring : {"omega", "baseline", "butterfly"}) {
    for (const auto& [n, d] : std::vector<std::pair<int, int>>{
             {4, 2}, {64, 2}, {4096, 2}, {9, 3}, {243, 3}, {2187, 3}, {16, 4}, {256, 4}, {4096, 4}, {64, 8}, {4096, 8}}) {
      const std::string spec = "min:" + std::to_string(n) + ":" + std::to_string(d) + ":" + wiring;
      INFO(spec);
      const MinNetwork net = min(spec.c_str());
      const MinSchedule s = latin_schedule(net, zero_m0(net));
      REQUIRE(is_latin_square(arrival_matrix(net, s)));
      const VerifyReport r = verify(net, s);
      REQUIRE(r.ok);
      REQUIRE(r.steps == n + net.stages() - 1);
      if (n <= 256) require_two_phases_deliver(net, s);
    }
  }
}

TEST_CASE("Corollary 4: any initial states of a 2-MIN work", "[min]") {
  std::mt19937 rng(2007);
  for (const char* spec : {"min:32:2:omega", "min:64:2:baseline", "min:128:2:butterfly"}) {
    INFO(spec);
    const MinNetwork net = min(spec);
    std::vector<std::uint8_t> m0(static_cast<std::size_t>(net.switches()));
    for (auto& k : m0) k = static_cast<std::uint8_t>(rng() % 2);
    const MinSchedule s = latin_schedule(net, m0);
    REQUIRE(is_latin_square(arrival_matrix(net, s)));
    REQUIRE(verify(net, s).ok);
    require_two_phases_deliver(net, s);
  }
}

TEST_CASE("a changed switch state is caught", "[min]") {
  const MinNetwork net = min("min:64:4:omega");
  MinSchedule s = latin_schedule(net, zero_m0(net));
  s.configurations[10][5] = static_cast<std::uint8_t>((s.configurations[10][5] + 1) % 4);
  REQUIRE_FALSE(is_latin_square(arrival_matrix(net, s)));
  const VerifyReport r = verify(net, s);
  REQUIRE_FALSE(r.ok);
  bool twice = false, lost = false;
  for (const Violation& v : r.violations) {
    twice = twice || v.kind == "delivered-twice";
    lost = lost || v.kind == "lost";
  }
  REQUIRE(twice);
  REQUIRE(lost);

  s.configurations[3][0] = 7;  // not a shift state of a 4x4 switch
  const VerifyReport bad = verify(net, s);
  REQUIRE(bad.violations.front().text == "step 3: stage 0, switch 0: state 7 >= d = 4");
}

TEST_CASE("destination-tag paths agree with routing", "[min]") {
  for (const char* spec : {"min:27:3:omega", "min:27:3:baseline", "min:27:3:butterfly", "min:16:2:butterfly"}) {
    const MinNetwork net = min(spec);
    for (int s = 0; s < net.terminals(); ++s) {
      for (int t = 0; t < net.terminals(); ++t) {
        MinConfiguration c(static_cast<std::size_t>(net.switches()), 0);
        for (const auto& h : net.path(s, t))
          c[static_cast<std::size_t>(h.stage * net.switches_per_stage() + h.sw)] =
              static_cast<std::uint8_t>((h.out_port - h.in_port + net.radix()) % net.radix());
        REQUIRE(net.route(c, s) == t);
      }
    }
  }
}

TEST_CASE("the pairwise MIN baseline is correct but not optimal", "[min]") {
  for (const char* spec : {"min:16:4:omega", "min:27:3:baseline", "min:64:2:butterfly"}) {
    INFO(spec);
    const MinNetwork net = min(spec);
    const MinSchedule s = pairwise_schedule(net);
    const VerifyReport r = verify(net, s);
    REQUIRE(r.ok);
    REQUIRE(r.delivered == r.expected);
    REQUIRE(r.steps >= net.terminals() + net.stages() - 1);  // on min:16:4:omega it happens to be optimal
  }
}
