// SPDX-License-Identifier: Apache-2.0
// Verilator checks of the board self-test (rtl/board/):
//   * totex_board_selftest (the engine, ports driven directly): several complete runs of paper
//     002's two phases pass its hardware checker (pass_o, run counter advancing, constant run
//     length, no RTL assertion); a corrupted switch state and a flipped payload bit each make it
//     report FAIL with the right fail code, and reset clears it.
//   * totex_board_icebreaker (built with LedShift = 0, so the PMOD LEDs show the low run-counter
//     bits): through its pins only: reset button, LEDs counting runs, green blink, red LED and the
//     fail code on LED1..LED4 while BTN1 (switch-state fault) is held.
#include <catch2/catch.hpp>

#include <cstdint>
#include <iostream>
#include <memory>

#include "Vtotex_board_icebreaker.h"
#include "Vtotex_board_selftest.h"
#include "rtl_test_support.hpp"

namespace {

constexpr unsigned kFailLabels = 1u << 0, kFailOrder = 1u << 1, kFailMessages = 1u << 2, kFailPayload = 1u << 3;

using Engine = rtltest::ClockedModel<Vtotex_board_selftest>;

/// Clocks until `runs` more runs have completed (run_done_o pulses); returns the cycles taken.
/// Fails the test if a run takes more than `limit` cycles.
std::uint64_t run_for(Engine& h, unsigned runs, std::uint64_t limit = 2000) {
  std::uint64_t cycles = 0;
  for (unsigned r = 0; r < runs; ++r) {
    std::uint64_t c = 0;
    do {
      h.tick();
      ++c;
      REQUIRE(c < limit);
    } while (!h.top().run_done_o);
    cycles += c;
  }
  return cycles;
}

}  // namespace

TEST_CASE("board self-test: repeated total exchanges pass the hardware checker", "[board]") {
  Engine h;
  auto& top = h.top();
  top.fault_state_i = 0;
  top.fault_payload_i = 0;
  h.tick();
  CHECK(top.pass_o == 0);  // no run completed yet
  CHECK(top.fail_o == 0);
  run_for(h, 1);           // first run: from reset
  std::uint64_t prev = 0;
  for (unsigned r = 1; r <= 8; ++r) {
    const std::uint64_t c = run_for(h, 1);
    if (r > 1) CHECK(c == prev);  // every run takes the same number of cycles
    prev = c;
    CHECK(top.pass_o == 1);
    CHECK(top.fail_o == 0);
    CHECK(top.fail_code_o == 0);
    CHECK(top.runs_o == r + 1);
  }
  std::cout << "board self-test: " << top.runs_o << " runs passed, " << prev << " cycles per run\n";
  CHECK(h.assertion_failures() == 0);  // no RTL assertion (NIC receive checks) fired
}

TEST_CASE("board self-test: a corrupted switch state is reported as FAIL", "[board][fault]") {
  Engine h;
  auto& top = h.top();
  top.fault_state_i = 0;
  top.fault_payload_i = 0;
  run_for(h, 2);
  REQUIRE(top.pass_o == 1);
  top.fault_state_i = 1;  // the next message phase runs with one switch's M^0 entry = 1
  run_for(h, 1);
  CHECK(top.fail_o == 1);
  CHECK(top.pass_o == 0);
  // Misrouted messages: the NICs see a wrong dst (and the payload no longer matches the receiver);
  // the label phase ran before the fault was applied and is clean.
  CHECK((top.fail_code_o & kFailMessages) != 0);
  CHECK((top.fail_code_o & (kFailLabels | kFailOrder)) == 0);
  CHECK(h.assertion_failures() > 0);  // the NICs' simulation assertions fired too
  top.fault_state_i = 0;
  run_for(h, 2);
  CHECK(top.fail_o == 1);  // sticky until reset
  CHECK(top.runs_o == 5);  // the engine keeps running
}

TEST_CASE("board self-test: a flipped payload bit is reported as FAIL by the payload check", "[board][fault]") {
  Engine h;
  auto& top = h.top();
  top.fault_state_i = 0;
  top.fault_payload_i = 1;
  run_for(h, 1);
  CHECK(top.fail_o == 1);
  CHECK(top.pass_o == 0);
  // Only the board checker looks at payloads: routing, counts and NIC checks are all fine.
  CHECK(top.fail_code_o == kFailPayload);
  CHECK(h.assertion_failures() == 0);
}

namespace {

/// The iCEBreaker top's clock pin and reset button (active low).
struct BoardPins {
  static auto& clock(Vtotex_board_icebreaker& m) { return m.CLK; }
  static auto& reset_n(Vtotex_board_icebreaker& m) { return m.BTN_N; }
};

/// The iCEBreaker top, driven through its pins from power-on (its own reset logic, no reset at start).
class Board {
 public:
  Board() : h_("", totex::sim::Start::PowerOn) {
    top().BTN1 = 0;
    top().BTN2 = 0;
    top().eval();
  }
  Vtotex_board_icebreaker& top() { return h_.top(); }
  void tick(unsigned n = 1) { h_.tick(static_cast<int>(n)); }
  void press_reset() {  // held over three edges, then one more edge released
    h_.reset(3);
    tick(1);
  }
  unsigned pmod() {
    const auto& t = top();
    return t.LED1 | t.LED2 << 1 | t.LED3 << 2 | t.LED4 << 3 | t.LED5 << 4;
  }

 private:
  rtltest::ClockedModel<Vtotex_board_icebreaker, BoardPins> h_;
};

}  // namespace

TEST_CASE("iCEBreaker top: LEDs count passing runs and BTN1 lights the red LED with the fail code", "[board][pins]") {
  Board b;
  auto& top = b.top();
  b.press_reset();
  CHECK(b.pmod() == 0);
  // LedShift = 0: LED1..LED5 are run-counter bits 0..4 and the green LED is bit 0 (low = on).
  unsigned last = b.pmod(), changes = 0, green_on = 0;
  for (unsigned c = 0; c < 12 * 400; ++c) {
    b.tick();
    CHECK(top.LEDR_N == 1);
    if (top.LEDG_N == 0) ++green_on;
    if (b.pmod() != last) {
      CHECK(b.pmod() == ((last + 1) & 31));  // the counter advances by one run at a time
      last = b.pmod();
      ++changes;
    }
  }
  CHECK(changes >= 10);
  CHECK(green_on > 0);
  top.BTN1 = 1;  // switch-state fault while held
  for (unsigned c = 0; c < 2 * 400 && top.LEDR_N == 1; ++c) b.tick();
  top.BTN1 = 0;
  b.tick(2);
  CHECK(top.LEDR_N == 0);
  CHECK(top.LEDG_N == 1);
  CHECK((b.pmod() & (1u << 2)) != 0);  // LED3: message phase failed
  CHECK((b.pmod() & ((1u << 0) | (1u << 1) | (1u << 4))) == 0);
  b.tick(3 * 400);
  CHECK(top.LEDR_N == 0);  // sticky
  b.press_reset();
  b.tick(3 * 400);
  CHECK(top.LEDR_N == 1);  // reset clears the failure
  CHECK(b.pmod() != 0);
}
