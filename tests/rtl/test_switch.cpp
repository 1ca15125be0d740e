// SPDX-License-Identifier: Apache-2.0
// Self-check of totex_shift_switch and totex_crossbar for every D = 2..8 (one model,
// tb_switch_wrap): every state of every D, random data and valids, one-cycle latency.
#include <catch2/catch.hpp>

#include <random>

#include "Vtb_switch_wrap.h"
#include "rtl_test_support.hpp"

using rtltest::get_bits;
using rtltest::set_bits;

namespace {
constexpr unsigned kW = 8, kDMin = 2, kDMax = 8, kNumD = kDMax - kDMin + 1, kSWMax = 3;

struct Stimulus {
  std::vector<std::vector<uint64_t>> data;   // [slot][lane]
  std::vector<std::vector<unsigned>> valid;  // [slot][lane]
};

Stimulus drive_random(Vtb_switch_wrap& top, std::mt19937& rng) {
  Stimulus st;
  top.valid_i = 0;
  for (unsigned s = 0; s < kNumD; ++s) {
    const unsigned d = kDMin + s;
    st.data.emplace_back(d);
    st.valid.emplace_back(d);
    for (unsigned u = 0; u < d; ++u) {
      st.data[s][u] = rng() & 0xffu;
      st.valid[s][u] = rng() & 1u;
      set_bits(top.data_i.data(), (s * kDMax + u) * kW, kW, st.data[s][u]);
      set_bits(top.valid_i, s * kDMax + u, 1, st.valid[s][u]);
    }
  }
  return st;
}
}  // namespace

TEST_CASE("shift switch: every D in 2..8, every state k, input u -> output (u+k) mod D",
          "[switch]") {
  rtltest::ClockedModel<Vtb_switch_wrap> h;
  auto& top = h.top();
  std::mt19937 rng(1);
  for (auto& w : top.sel_i.m_storage) w = 0;  // legal crossbar selects (the crossbar asserts them)
  // After reset the outputs are cleared.
  for (unsigned s = 0; s < kNumD; ++s) REQUIRE(get_bits(top.sw_valid_o, s * kDMax, kDMax) == 0);

  unsigned checked = 0;
  for (unsigned k = 0; k < kDMax; ++k) {
    for (int round = 0; round < 16; ++round) {
      uint32_t state = 0;
      for (unsigned s = 0; s < kNumD; ++s) {
        const unsigned d = kDMin + s;
        state |= (k % d) << (s * kSWMax);  // every slot gets a legal state; k < d covers all
      }
      top.state_i = state;
      const Stimulus st = drive_random(top, rng);
      h.tick();
      for (unsigned s = 0; s < kNumD; ++s) {
        const unsigned d = kDMin + s, ks = k % d;
        INFO("D=" << d << " k=" << ks);
        for (unsigned u = 0; u < d; ++u) {
          const unsigned v = (u + ks) % d;
          REQUIRE(get_bits(top.sw_data_o.data(), (s * kDMax + v) * kW, kW) == st.data[s][u]);
          REQUIRE(get_bits(top.sw_valid_o, s * kDMax + v, 1) == st.valid[s][u]);
          ++checked;
        }
        for (unsigned v = d; v < kDMax; ++v) {  // tied-off lanes of the slot
          REQUIRE(get_bits(top.sw_valid_o, s * kDMax + v, 1) == 0);
        }
      }
    }
  }
  CHECK(checked > 0);
  REQUIRE(h.assertion_failures() == 0);
}

TEST_CASE("shift switch: a state >= D is caught by the guarded assertion", "[switch]") {
  rtltest::ClockedModel<Vtb_switch_wrap> h;
  auto& top = h.top();
  std::mt19937 rng(2);
  for (auto& w : top.sel_i.m_storage) w = 0;
  drive_random(top, rng);
  top.valid_i = ~0ull;
  top.state_i = 3u << (1 * kSWMax);  // slot 1 is D = 3: state 3 does not exist
  h.tick();
  REQUIRE(h.assertion_failures() >= 1);
}

TEST_CASE("crossbar: every D in 2..8, random per-output selects", "[switch]") {
  rtltest::ClockedModel<Vtb_switch_wrap> h;
  auto& top = h.top();
  std::mt19937 rng(3);
  top.state_i = 0;
  for (int round = 0; round < 64; ++round) {
    std::vector<std::vector<unsigned>> sel(kNumD);
    for (unsigned s = 0; s < kNumD; ++s) {
      const unsigned d = kDMin + s;
      for (unsigned v = 0; v < kDMax; ++v) {
        const unsigned x = v < d ? rng() % d : 0;
        sel[s].push_back(x);
        set_bits(top.sel_i.data(), (s * kDMax + v) * kSWMax, kSWMax, x);
      }
    }
    const Stimulus st = drive_random(top, rng);
    h.tick();
    for (unsigned s = 0; s < kNumD; ++s) {
      const unsigned d = kDMin + s;
      INFO("D=" << d);
      for (unsigned v = 0; v < d; ++v) {
        REQUIRE(get_bits(top.xb_data_o.data(), (s * kDMax + v) * kW, kW) == st.data[s][sel[s][v]]);
        REQUIRE(get_bits(top.xb_valid_o, s * kDMax + v, 1) == st.valid[s][sel[s][v]]);
      }
    }
  }
  REQUIRE(h.assertion_failures() == 0);
}
