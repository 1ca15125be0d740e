// SPDX-License-Identifier: Apache-2.0
// Verilator checks of the bit-serial 64 x 64 MIN self-test (rtl/board/totex_board_serial_selftest.sv,
// docs/fpga.md "The 64 x 64 MIN on the HX8K"):
//   * the engine at N = 64, d = 4 (ports driven directly): complete runs of paper 002's two phases
//     pass its hardware checker, every run takes the same number of cycles (the sum of its phases,
//     computed here from the parameters), no RTL assertion fires; a corrupted switch state and a
//     flipped payload bit each make it report FAIL with the right fail code; and, read out of its
//     block RAMs (min64_public.vlt), the label matrix it built is the one an independent model of the
//     MIN (rtl_test_support.hpp) gives for paper 002's schedule, a Latin square, and the send order
//     its inverse.
//   * totex_board_hx8k_min64 (built with LedShift = 0, and once more with FaultState = 1), through its
//     pins from power-on: the LEDs count runs, or the fail LED and the message-phase code come on.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "Vtotex_board_hx8k_min64.h"
#include "Vtotex_board_hx8k_min64_fault.h"
#include "Vtotex_board_serial_selftest.h"
#include "rtl_test_support.hpp"
#include "verilated_syms.h"

namespace {

constexpr unsigned kFailLabels = 1u << 0, kFailOrder = 1u << 1, kFailMessages = 1u << 2, kFailPayload = 1u << 3;

// The engine's schedule at N = 64, d = 4, from its parameters (one run = both phases):
constexpr unsigned kN = 64, kIdW = 6, kStages = 3, kSwitches = kStages * kN / 4;
constexpr unsigned kWord = 2 * kIdW;                           // cycles per step: src and payload bits interleaved
constexpr unsigned kPhase = kN * kWord + kStages;              // N words, the last one out after the 3 stages
constexpr unsigned kClear = kN * 4;                            // column bitmap: 64 x 64 bits in 16-bit words
constexpr unsigned kOrder = kN * kN * kIdW + kIdW + 2;         // one plane a cycle, plus the last entry's writes
constexpr unsigned kRun = 2 * kSwitches + 2 * kPhase + kClear + kOrder;

using Engine = rtltest::ClockedModel<Vtotex_board_serial_selftest>;

/// Clocks until `runs` more runs have completed (run_done_o pulses); returns the cycles taken.
std::uint64_t run_for(Engine& h, unsigned runs) {
  std::uint64_t cycles = 0;
  for (unsigned r = 0; r < runs; ++r) {
    std::uint64_t c = 0;
    do {
      h.tick();
      ++c;
      REQUIRE(c < 2 * kRun);
    } while (!h.top().run_done_o);
    cycles += c;
  }
  return cycles;
}

}  // namespace

TEST_CASE("MIN 64 self-test: repeated bit-serial total exchanges pass the hardware checker", "[board][min64]") {
  Engine h;
  auto& top = h.top();
  top.fault_state_i = 0;
  top.fault_payload_i = 0;
  h.tick();
  CHECK(top.pass_o == 0);  // no run completed yet
  CHECK(top.fail_o == 0);
  run_for(h, 1);           // first run: from reset
  for (unsigned r = 1; r <= 3; ++r) {
    const std::uint64_t c = run_for(h, 1);
    CHECK(c == kRun);  // run_done pulses once per run, so this is the run's length
    CHECK(top.pass_o == 1);
    CHECK(top.fail_o == 0);
    CHECK(top.fail_code_o == 0);
    CHECK(top.runs_o == r + 1);
  }
  std::cout << "MIN 64 self-test: " << top.runs_o << " runs passed, " << kRun << " cycles per run ("
            << kPhase << " per phase)\n";
  CHECK(h.assertion_failures() == 0);
}

TEST_CASE("MIN 64 self-test: a corrupted switch state is reported as FAIL", "[board][min64][fault]") {
  Engine h;
  auto& top = h.top();
  top.fault_state_i = 0;
  top.fault_payload_i = 0;
  run_for(h, 1);
  REQUIRE(top.pass_o == 1);
  top.fault_state_i = 1;  // the next message phase runs with one switch's M^0 entry = 1
  run_for(h, 1);
  CHECK(top.fail_o == 1);
  CHECK(top.pass_o == 0);
  // Misrouted words: the receivers see sources that are not the labels of the label phase. The
  // label phase ran with the right states and its matrix is a Latin square.
  CHECK((top.fail_code_o & kFailMessages) != 0);
  CHECK((top.fail_code_o & (kFailLabels | kFailOrder)) == 0);
  top.fault_state_i = 0;
  run_for(h, 1);
  CHECK(top.fail_o == 1);  // sticky until reset
  CHECK(top.runs_o == 3);  // the engine keeps running
  h.reset(2);
  run_for(h, 1);
  CHECK(top.fail_o == 0);  // reset clears it, and the next run passes again
  CHECK(top.pass_o == 1);
}

TEST_CASE("MIN 64 self-test: a flipped payload bit is reported as FAIL by the payload check only", "[board][min64][fault]") {
  Engine h;
  auto& top = h.top();
  top.fault_state_i = 0;
  top.fault_payload_i = 1;
  run_for(h, 1);
  CHECK(top.fail_o == 1);
  CHECK(top.pass_o == 0);
  // Routing, sources, valid bits and step tags are all fine: only the payload of terminal 0's words.
  CHECK(top.fail_code_o == kFailPayload);
  CHECK(h.assertion_failures() == 0);
}

namespace {

/// Reads a bit-plane memory (totex_board_bitram, 64-bit words) of the engine; min64_public.vlt
/// makes it public.
std::vector<std::uint64_t> read_planes(VerilatedContext& ctx, const std::string& scope) {
  const VerilatedScope* sc = ctx.scopeFind(scope.c_str());
  REQUIRE(sc != nullptr);
  const VerilatedVar* v = sc->varFind("mem_q");
  REQUIRE(v != nullptr);
  REQUIRE(v->entSize() == 8);  // QData: 64 bits, one per terminal
  const std::size_t n = static_cast<std::size_t>(v->elements(1));
  std::vector<std::uint64_t> words(n);
  std::memcpy(words.data(), v->datap(), n * 8);
  return words;
}

/// Entry t of row x of a matrix stored as bit planes, plane c of row x at address x * 8 + c.
unsigned entry(const std::vector<std::uint64_t>& planes, unsigned x, unsigned t) {
  unsigned v = 0;
  for (unsigned c = 0; c < kIdW; ++c) v |= static_cast<unsigned>((planes[x * 8 + c] >> t) & 1u) << c;
  return v;
}

}  // namespace

TEST_CASE("MIN 64 self-test: the label matrix is the model's schedule and the send order its inverse", "[board][min64]") {
  Engine h;
  auto& top = h.top();
  top.fault_state_i = 0;
  top.fault_payload_i = 0;
  run_for(h, 1);
  REQUIRE(top.pass_o == 1);
  const auto labels = read_planes(h.context(), "top.totex_board_serial_selftest.u_labels");
  const auto order = read_planes(h.context(), "top.totex_board_serial_selftest.u_order");
  REQUIRE(labels.size() == kN * 8);
  const rtltest::Min min{kN, 4, kStages, rtltest::kOmega};
  const std::vector<unsigned> m0(min.num_switches(), 0);  // paper 002: M^0 = 0 for d > 2
  std::vector<std::vector<bool>> seen(kN, std::vector<bool>(kN, false));  // [t][s]
  unsigned mismatches = 0, inverse_bad = 0, repeats = 0;
  for (unsigned x = 0; x < kN; ++x) {
    const auto perm = min.permutation(min.config(m0, x));  // perm[t] = source whose path ends at t
    for (unsigned t = 0; t < kN; ++t) {
      const unsigned s = entry(labels, x, t);
      if (s != perm[t]) ++mismatches;
      if (s < kN && entry(order, x, s) != t) ++inverse_bad;
      if (s < kN && seen[t][s]) ++repeats;
      if (s < kN) seen[t][s] = true;
    }
  }
  CHECK(mismatches == 0);
  CHECK(inverse_bad == 0);
  CHECK(repeats == 0);  // with N entries per column: every source reaches every terminal once
}

namespace {

/// Clocks a board top from power-on (no reset pin: its own power-on reset).
template <class Top>
struct PowerOn {
  VerilatedContext ctx;
  Top top{&ctx, "top"};
  PowerOn() {
    ctx.randReset(2);  // memories and registers start random: the bitmap clear and the resets must do their job
    ctx.fatalOnError(false);
    top.CLK = 0;
    top.eval();
  }
  ~PowerOn() { top.final(); }
  void tick(unsigned n = 1) {
    for (unsigned i = 0; i < n; ++i) {
      top.CLK = 1;
      top.eval();
      top.CLK = 0;
      top.eval();
    }
  }
};

}  // namespace

TEST_CASE("HX8K MIN 64 top: from power-on the LEDs count passing runs", "[board][min64][pins]") {
  PowerOn<Vtotex_board_hx8k_min64> b;
  // LedShift = 0: LED[5:0] are run-counter bits 0..5 and LED[6] is bit 0 while passing.
  unsigned last = b.top.LED & 63u, changes = 0, blink_on = 0;
  CHECK(last == 0);
  for (unsigned c = 0; c < 5 * kRun + 100; ++c) {
    b.tick();
    REQUIRE((b.top.LED & 0x80u) == 0);  // LED[7]: fail
    if (b.top.LED & 0x40u) ++blink_on;
    const unsigned now = b.top.LED & 63u;
    if (now != last) {
      CHECK(now == ((last + 1) & 63u));
      last = now;
      ++changes;
    }
  }
  CHECK(changes == 5);
  CHECK(blink_on > 0);
  CHECK(b.ctx.errorCount() == 0);
}

TEST_CASE("HX8K MIN 64 top: the FaultState build lights the fail LED and the message-phase LED", "[board][min64][pins][fault]") {
  PowerOn<Vtotex_board_hx8k_min64_fault> b;
  unsigned c = 0;
  for (; c < 2 * kRun && (b.top.LED & 0x80u) == 0; ++c) b.tick();
  INFO("cycles to the fail LED: " << c);
  CHECK((b.top.LED & 0x80u) != 0);       // LED[7] on
  CHECK((b.top.LED & 0x40u) == 0);       // LED[6] off
  CHECK((b.top.LED & (1u << 2)) != 0);   // LED[2]: message phase
  CHECK((b.top.LED & 0x3u) == 0);        // LED[0], LED[1]: label phase and the Latin square were fine
  CHECK(c > kRun - kPhase);              // not before the first message phase
  b.tick(kRun);
  CHECK((b.top.LED & 0x80u) != 0);       // sticky
}
