// SPDX-License-Identifier: Apache-2.0
// Module-level self-checks of the direct family's storage (one model, tb_direct_units_wrap):
//   * totex_direct_fifo against a bounded deque: random push / pop / clear for thousands of cycles,
//     head, fill level and overflow every cycle, and exactly one RTL assertion per misuse;
//   * totex_direct_table against an array of entries: random word writes (the last word partial),
//     asynchronous reads of random entries;
//   * totex_direct_nic: own messages, the relay buffer, receive counting and every check that sets
//     the sticky error (own message twice or to itself, empty or overwritten buffer entry, wrong
//     destination ejected), cleared by clear_i.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <random>
#include <vector>

#include "Vtb_direct_units_wrap.h"
#include "rtl_test_support.hpp"

using rtltest::get_bits;
using rtltest::set_bits;

namespace {

using Model = rtltest::ClockedModel<Vtb_direct_units_wrap>;

// The wrapper's parameters (tb_direct_units_wrap.sv).
constexpr unsigned kFifoDepth = 3, kTableDepth = 8, kTableEW = 72, kN = 4, kPW = 8, kBufSlots = 2;
constexpr unsigned kIW = 2, kMW = 2 * kIW + kPW, kSlotW = 3;  // node_width(4), msg_width, slot_width(4, 2)

void quiet_inputs(Vtb_direct_units_wrap& t) {
  t.fifo_clear_i = 0;
  t.fifo_push_i = 0;
  t.fifo_pop_i = 0;
  t.table_we_i = 0;
  t.nic_msg_we_i = 0;
  t.nic_clear_i = 0;
  t.nic_lane_valid_i = 0;
  t.nic_store_valid_i = 0;
  t.nic_eject_valid_i = 0;
  t.nicf_msg_we_i = 0;
  t.nicf_clear_i = 0;
  t.nicf_lane_valid_i = 0;
  t.nicf_store_valid_i = 0;
}

/// A NIC message {src, dst, payload}.
std::uint64_t message(unsigned src, unsigned dst, unsigned payload) {
  return (static_cast<std::uint64_t>(src) << (kIW + kPW)) | (static_cast<std::uint64_t>(dst) << kPW) | payload;
}

}  // namespace

TEST_CASE("direct FIFO: random push, pop and clear against a bounded deque", "[direct][fifo]") {
  Model h;
  auto& t = h.top();
  quiet_inputs(t);
  t.eval();
  std::mt19937 rng(7);
  std::deque<unsigned> model;
  int expected_errors = 0;
  for (int cycle = 0; cycle < 4000; ++cycle) {
    INFO("cycle " << cycle);
    // Outputs show the state after the last edge.
    REQUIRE(t.fifo_count_o == model.size());
    REQUIRE(t.fifo_valid_o == !model.empty());
    if (!model.empty()) REQUIRE(t.fifo_head_o == model.front());
    const bool clear = rng() % 50 == 0;
    // Mostly legal traffic (the FIFO runs full and empty often); a misuse now and then.
    const bool misuse = rng() % 40 == 0;
    const bool push = rng() % 3 != 0 && (misuse || model.size() < kFifoDepth || rng() % 2 == 0);
    const bool pop = rng() % 2 == 0 && (misuse || !model.empty());
    const unsigned data = rng() & 0xffu;
    t.fifo_clear_i = clear;
    t.fifo_push_i = push;
    t.fifo_pop_i = pop;
    t.fifo_data_i = data;
    t.eval();
    const bool do_pop = pop && !model.empty();
    const bool do_push = push && (model.size() < kFifoDepth || do_pop);
    REQUIRE(t.fifo_overflow_o == (push && !do_push));  // this cycle's push, combinationally
    if (!clear) expected_errors += (push && !do_push ? 1 : 0) + (pop && model.empty() ? 1 : 0);
    h.tick();
    if (clear) {
      model.clear();
      continue;
    }
    if (do_pop) model.pop_front();
    if (do_push) model.push_back(data);
  }
  CHECK(expected_errors > 0);  // the sequence did provoke both misuses
  REQUIRE(h.assertion_failures() == expected_errors);
}

TEST_CASE("direct schedule table: word writes and asynchronous reads of every entry", "[direct][table]") {
  Model h;
  auto& t = h.top();
  quiet_inputs(t);
  std::mt19937 rng(11);
  constexpr unsigned kWords = (kTableEW + 31) / 32, kLastBits = kTableEW - 32 * (kWords - 1);
  std::array<std::array<std::uint32_t, kWords>, kTableDepth> model{};
  auto write = [&](unsigned step, unsigned word, std::uint32_t data) {
    t.table_we_i = 1;
    t.table_wr_step_i = step;
    t.table_wr_word_i = word;
    t.table_wr_data_i = data;
    h.tick();
    t.table_we_i = 0;
    model[step][word] = word == kWords - 1 ? data & ((1u << kLastBits) - 1) : data;  // the last word keeps its low bits
  };
  for (unsigned s = 0; s < kTableDepth; ++s)  // the table is a RAM: the controller writes every entry
    for (unsigned w = 0; w < kWords; ++w) write(s, w, static_cast<std::uint32_t>(rng()));
  for (int i = 0; i < 500; ++i) {
    if (rng() % 2 == 0) write(rng() % kTableDepth, rng() % kWords, static_cast<std::uint32_t>(rng()));
    const unsigned step = rng() % kTableDepth;
    t.table_rd_step_i = step;
    t.eval();
    INFO("read " << i << " entry " << step);
    for (unsigned w = 0; w < kWords; ++w)
      REQUIRE(get_bits(t.table_entry_o.data(), 32 * w, w == kWords - 1 ? kLastBits : 32) == model[step][w]);
  }
  REQUIRE(h.assertion_failures() == 0);
}

TEST_CASE("direct NIC: own messages, relay buffer, receive count and every sticky check", "[direct][nic]") {
  Model h;
  auto& t = h.top();
  quiet_inputs(t);
  constexpr unsigned kNode = 2;
  t.nic_node_id_i = kNode;
  const std::array<unsigned, kN> payload = {0x11, 0x22, 0x33, 0x44};
  for (unsigned d = 0; d < kN; ++d) {  // load port: own payloads
    t.nic_msg_we_i = 1;
    t.nic_msg_slot_i = d;
    t.nic_msg_payload_i = payload[d];
    h.tick();
  }
  t.nic_msg_we_i = 0;
  auto clear = [&] {
    t.nic_clear_i = 1;
    h.tick();
    t.nic_clear_i = 0;
    t.eval();
  };
  auto lanes = [&](unsigned valid, unsigned slot0, unsigned slot1) {
    t.nic_lane_valid_i = valid;
    t.nic_lane_slot_i = slot0 | slot1 << kSlotW;
    t.eval();
  };
  auto lane_data = [&](unsigned l) { return get_bits(t.nic_lane_data_o, l * kMW, kMW); };
  clear();
  REQUIRE(t.nic_error_o == 0);
  REQUIRE(t.nic_recv_count_o == 0);

  SECTION("own messages on two lanes at once, each once, and buffered messages read back once") {
    lanes(3, 0, 3);
    CHECK(lane_data(0) == message(kNode, 0, payload[0]));
    CHECK(lane_data(1) == message(kNode, 3, payload[3]));
    h.tick();
    lanes(0, 0, 0);
    const std::uint64_t relayed = message(1, 3, 0x5a);
    t.nic_store_valid_i = 1;  // store into entry 1 (slot N + 1)
    t.nic_store_entry_i = 1;
    t.nic_store_data_i = relayed;
    h.tick();
    t.nic_store_valid_i = 0;
    lanes(2, 0, kN + 1);
    CHECK(lane_data(1) == relayed);
    h.tick();
    lanes(1, 1, 0);  // the last unsent own message to another node
    CHECK(lane_data(0) == message(kNode, 1, payload[1]));
    h.tick();
    lanes(0, 0, 0);
    // Ejects: two messages for this node in one cycle, then one.
    t.nic_eject_valid_i = 3;
    t.nic_eject_data_i = message(0, kNode, 1) | message(3, kNode, 2) << kMW;
    h.tick();
    t.nic_eject_valid_i = 1;
    h.tick();
    t.nic_eject_valid_i = 0;
    t.eval();
    CHECK(t.nic_recv_count_o == 3);
    CHECK(t.nic_error_o == 0);
    CHECK(h.assertion_failures() == 0);
    clear();
    CHECK(t.nic_recv_count_o == 0);
  }

  struct Misuse {
    const char* what;
    std::function<void()> provoke;  // drives one bad cycle's inputs
  };
  const std::vector<Misuse> misuses = {
      {"own message sent twice", [&] { lanes(1, 0, 0); h.tick(); lanes(1, 0, 0); }},
      {"own message sent twice in one cycle", [&] { lanes(3, 1, 1); }},
      {"own message to itself", [&] { lanes(1, kNode, 0); }},
      {"empty buffer entry read", [&] { lanes(1, kN + 0, 0); }},
      {"buffer entry overwritten while full",
       [&] {
         t.nic_store_valid_i = 1;
         t.nic_store_entry_i = 0;
         t.nic_store_data_i = message(0, 1, 7);
         h.tick();
       }},
      {"message for another node ejected",
       [&] {
         t.nic_eject_valid_i = 2;
         t.nic_eject_data_i = message(0, 1, 9) << kMW;
       }},
  };
  for (const Misuse& m : misuses) {
    SECTION(m.what) {
      const int before = h.assertion_failures();
      m.provoke();
      h.tick();
      quiet_inputs(t);
      t.eval();
      CHECK(t.nic_error_o == 1);
      CHECK(h.assertion_failures() > before);
      h.tick(3);
      CHECK(t.nic_error_o == 1);  // sticky
      clear();
      CHECK(t.nic_error_o == 0);  // until the next run starts
    }
  }
}

TEST_CASE("direct NIC, multi-flit: own flits in slots {flit, dst}, each once, the buffer after them", "[direct][nic]") {
  // The wrapper's second NIC: N = 3 (node_width 2: slot {f, d} = f << 2 | d, d = 3 a gap), Flits 2,
  // one lane, relay buffer entry 0 at slot own_slots(3, 2) = 7.
  Model h;
  auto& t = h.top();
  quiet_inputs(t);
  constexpr unsigned kNode = 1, kBufferSlot = 7;
  t.nicf_node_id_i = kNode;
  auto payload = [](unsigned slot) { return 0x80u | slot; };
  for (const unsigned slot : {0u, 2u, 4u, 6u}) {  // flits 0 and 1 for destinations 0 and 2
    t.nicf_msg_we_i = 1;
    t.nicf_msg_slot_i = slot;
    t.nicf_msg_payload_i = payload(slot);
    h.tick();
  }
  t.nicf_msg_we_i = 0;
  auto clear = [&] {
    t.nicf_clear_i = 1;
    h.tick();
    t.nicf_clear_i = 0;
    t.eval();
  };
  auto lane = [&](unsigned slot) {
    t.nicf_lane_valid_i = 1;
    t.nicf_lane_slot_i = slot;
    t.eval();
  };
  clear();

  SECTION("each flit once, in any order, with its own payload; a relayed message after them") {
    lane(6);  // flit 1 to node 2 before flit 0
    CHECK(t.nicf_lane_data_o == message(kNode, 2, payload(6)));
    h.tick();
    lane(2);
    CHECK(t.nicf_lane_data_o == message(kNode, 2, payload(2)));
    h.tick();
    lane(4);
    CHECK(t.nicf_lane_data_o == message(kNode, 0, payload(4)));
    h.tick();
    t.nicf_lane_valid_i = 0;
    t.nicf_store_valid_i = 1;
    t.nicf_store_data_i = message(0, 2, 0x5a);
    h.tick();
    t.nicf_store_valid_i = 0;
    lane(kBufferSlot);
    CHECK(t.nicf_lane_data_o == message(0, 2, 0x5a));
    h.tick();
    t.nicf_lane_valid_i = 0;
    t.eval();
    CHECK(t.nicf_error_o == 0);
    CHECK(h.assertion_failures() == 0);
  }
  SECTION("misuse: a flit twice, a flit to itself, a destination in the gap") {
    for (const unsigned bad : {6u, 5u, 3u}) {
      INFO("slot " << bad);
      const int before = h.assertion_failures();
      if (bad == 6u) {  // the second read of flit 1 to node 2 is the error
        lane(6);
        h.tick();
        CHECK(t.nicf_error_o == 0);
      }
      lane(bad);
      h.tick();
      t.nicf_lane_valid_i = 0;
      t.eval();
      CHECK(t.nicf_error_o == 1);
      CHECK(h.assertion_failures() > before);
      clear();
      CHECK(t.nicf_error_o == 0);
    }
  }
}
