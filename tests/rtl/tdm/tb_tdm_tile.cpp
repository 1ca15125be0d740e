// SPDX-License-Identifier: Apache-2.0
// Module testbench of the TDM tile (rtl/tdm/totex_tdm_tile.sv, docs/tdm-tile.md): three tiles,
// Verilated once and wired in C++ as a unidirectional ring (NumPorts = 1: node n's output link 0
// is node n+1's input link 0), run a hand-made periodic all-to-all schedule of period 4:
//   slot 0: out0 injects the message for n+2            (relayed by n+1 in slot 1)
//   slot 1: out0 forwards input 0                       (n-1's message for n+1)
//   slot 2: out0 injects the message for n+1; eject input 0 (source n-2, relayed by n-1)
//   slot 3: out0 idle;                     eject input 0 (source n-1)
// Every core offers random messages (random destination, random payload) with random gaps
// (tvalid held until accepted, AXI4-Stream), run_i has random pauses (all tiles in lockstep), and
// the tiles are loaded through the table port. Checks: every accepted message is delivered exactly
// once, in order per (source, destination), with its payload, tid = source, in the slot the table
// ejects that pair; nothing else is delivered; error_o stays low; after draining, missed_o of every
// tile equals its decided inject slots minus the messages it sent; a second phase with a continuous
// offer stream in the order of the inject slots shows the NIC keeps up with the schedule.
// Usage: tb_tdm_tile [cycles] [seed]; exit 0 when every check passes.
#include "Vtotex_tdm_tile.h"
#include "verilated.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <random>
#include <vector>

#ifndef TB_NODEW
#define TB_NODEW 2
#endif
#ifndef TB_PERIOD
#define TB_PERIOD 4  // slots 4.. are idle
#endif
namespace {
constexpr int kNodes = 3, kPeriod = TB_PERIOD, kNodeW = TB_NODEW;
// Full rate needs a destination's inject slots at least kRoundTrip cycles apart (docs/tdm-tile.md).
constexpr int kRoundTrip = 5;
constexpr int kSelW = 2;  // idx_width(P + 2) with P = 1
constexpr int kPrime = (1 << kNodeW) + 4;  // PrimeCycles (totex_tdm_pkg::prime_cycles)
int failures = 0;
#define CHECK(c, ...) do { if (!(c)) { ++failures; std::printf("FAIL: " __VA_ARGS__); std::printf("\n"); if (failures > 20) std::exit(1); } } while (0)

uint32_t entry(int out_sel, int ej_sel, int inj_dst, int ej_src) {
  return uint32_t(out_sel) | uint32_t(ej_sel) << kSelW | uint32_t(inj_dst) << (2 * kSelW) |
         uint32_t(ej_src) << (2 * kSelW + kNodeW);
}
int mod(int a) { return ((a % kNodes) + kNodes) % kNodes; }
struct Msg { int src, dst; uint32_t data; };
}  // namespace

int main(int argc, char** argv) {
  const long cycles = argc > 1 ? std::atol(argv[1]) : 20000;
  const unsigned seed = argc > 2 ? unsigned(std::atoi(argv[2])) : 1;
  std::mt19937 rng(seed);
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->randReset(2);
  std::vector<std::unique_ptr<Vtotex_tdm_tile>> t;
  for (int n = 0; n < kNodes; ++n) t.emplace_back(std::make_unique<Vtotex_tdm_tile>(ctx.get()));

  auto eval_all = [&] { for (auto& m : t) m->eval(); };
  auto edge = [&] { for (auto& m : t) m->clk_i = 1; eval_all(); for (auto& m : t) m->clk_i = 0; };
  for (auto& m : t) {
    m->clk_i = 0; m->rst_ni = 0; m->run_i = 0; m->tbl_we_i = 0; m->s_axis_tvalid = 0;
    m->m_axis_tready = 1; m->in_valid_i = 0; m->in_data_i = 0; m->period_last_i = kPeriod - 1;
  }
  eval_all(); edge(); edge();
  for (auto& m : t) m->rst_ni = 1;
  eval_all();
  // Load the tables through the write port (slot 3 written first: any order works).
  uint32_t table[kNodes][kPeriod];
  for (int n = 0; n < kNodes; ++n) {
    table[n][0] = entry(2, 0, mod(n + 2), 0);
    table[n][1] = entry(1, 0, 0, 0);
    table[n][2] = entry(2, 1, mod(n + 1), mod(n - 2));
    table[n][3] = entry(0, 1, 0, mod(n - 1));
    for (int s = 4; s < kPeriod; ++s) table[n][s] = 0;
  }
  for (int s = kPeriod - 1; s >= 0; --s) {
    for (int n = 0; n < kNodes; ++n) {
      t[n]->tbl_we_i = 1; t[n]->tbl_addr_i = s; t[n]->tbl_data_i = table[n][s];
    }
    eval_all(); edge();
  }
  for (auto& m : t) m->tbl_we_i = 0;
  for (int i = 0; i < kPrime; ++i) { eval_all(); edge(); }

  std::vector<std::deque<Msg>> pending(kNodes * kNodes);  // accepted, not delivered, per (src,dst)
  std::vector<long> sent(kNodes, 0), delivered(kNodes, 0);
  std::vector<bool> offering(kNodes, false);
  std::vector<Msg> offer(kNodes);
  long exec = 0;         // slots executed so far
  int last_slot = -1;    // slot executed in the previous cycle (-1: none)
  long phase2 = cycles / 2, drain_from = cycles - 40 * kPeriod;
  long accepted_phase2 = 0, missed_at_phase2 = 0;
  for (long c = 0; c < cycles; ++c) {
    const bool drain = c >= drain_from;
    const bool run = (c < phase2) ? (rng() % 10 != 0) : true;  // random pauses in phase 1
    for (int n = 0; n < kNodes; ++n) {
      auto& m = *t[n];
      auto& up = *t[mod(n - 1)];
      m.in_valid_i = up.out_valid_o;
      m.in_data_i = up.out_data_o;
      m.run_i = run;
      if (!offering[n] && !drain && (c >= phase2 || rng() % 3 != 0)) {
        offering[n] = true;
        // Phase 2: destinations alternate (the order of the inject slots), so that no offer
        // waits behind an occupied entry for long.
        const int dst = c >= phase2 ? mod(n + 1 + int(sent[n] % 2)) : mod(n + 1 + int(rng() % 2));
        offer[n] = Msg{n, dst, uint32_t(rng())};
      }
      m.s_axis_tvalid = offering[n];
      m.s_axis_tdata = offer[n].data;
      m.s_axis_tdest = offer[n].dst;
    }
    eval_all();
    for (int n = 0; n < kNodes; ++n) {
      if (offering[n] && t[n]->s_axis_tready) {
        pending[n * kNodes + offer[n].dst].push_back(offer[n]);
        ++sent[n];
        offering[n] = false;
        if (c >= phase2) ++accepted_phase2;
      }
    }
    if (c == phase2) for (auto& m : t) missed_at_phase2 += m->missed_o;
    edge();
    // Outputs of cycle c+1: m_axis shows what the slot executed in cycle c ejected.
    const int slot = run ? int(exec % kPeriod) : -1;
    if (run) ++exec;
    for (int n = 0; n < kNodes; ++n) {
      auto& m = *t[n];
      CHECK(!m.error_o, "cycle %ld: node %d error_o", c, n);
      if (!m.m_axis_tvalid) continue;
      CHECK(slot == 2 || slot == 3, "cycle %ld: node %d delivery after slot %d", c, n, slot);
      const int src = int(m.m_axis_tid);
      const int want_src = slot == 2 ? mod(n - 2) : mod(n - 1);
      CHECK(src == want_src, "cycle %ld: node %d tid %d, slot %d ejects source %d", c, n, src, slot, want_src);
      auto& q = pending[src * kNodes + n];
      if (q.empty()) { CHECK(false, "cycle %ld: node %d got %08x from %d, nothing pending", c, n, m.m_axis_tdata, src); continue; }
      CHECK(q.front().data == m.m_axis_tdata, "cycle %ld: node %d from %d: payload %08x, expected %08x", c, n, src, m.m_axis_tdata, q.front().data);
      q.pop_front();
      ++delivered[src];
    }
    last_slot = slot;
  }
  (void)last_slot;
  // Three paused cycles: missed_o counts a decision one cycle after it is made, and its upper
  // half takes the lower half's carry one cycle later.
  for (int i = 0; i < 3; ++i) {
    for (auto& m : t) { m->run_i = 0; m->s_axis_tvalid = 0; }
    eval_all(); edge();
  }
  long total_sent = 0, missed_total = 0;
  for (int n = 0; n < kNodes; ++n) {
    for (int d = 0; d < kNodes; ++d)
      CHECK(pending[n * kNodes + d].empty(), "%zu messages %d -> %d never delivered", pending[n * kNodes + d].size(), n, d);
    // Decided slots: every executed slot plus the one decided next (slot `exec`).
    long inject_decisions = 0;
    for (long s = 0; s <= exec; ++s) inject_decisions += (s % kPeriod == 0 || s % kPeriod == 2);
    CHECK(long(t[n]->missed_o) == ((inject_decisions - sent[n]) & 0xffff),
          "node %d: missed_o %u, expected %ld (inject decisions %ld, sent %ld)", n, unsigned(t[n]->missed_o),
          inject_decisions - sent[n], inject_decisions, sent[n]);
    total_sent += sent[n];
    missed_total += t[n]->missed_o;
  }
  // Phase 2 offers continuously, in slot order: every inject slot should carry a message.
  const long periods2 = (drain_from - phase2) / kPeriod;
  std::printf("NodeW %d, period %d, %ld cycles, seed %u: %ld slots executed, %ld messages sent and delivered; "
              "phase 2 (continuous offers): %ld accepted in %ld periods (%ld inject slots)\n",
              kNodeW, kPeriod, cycles, seed, exec, total_sent, accepted_phase2, periods2, 2 * periods2 * kNodes);
  // Full rate needs a destination's inject slots at least kRoundTrip cycles apart (the round trip
  // send -> R write -> the parked offer's read -> commit -> the inject side's read, docs/tdm-tile.md);
  // a shorter period divides the rate by at most ceil(round trip / period).
  const long divide = (kRoundTrip + kPeriod - 1) / kPeriod;
  CHECK(accepted_phase2 >= 2 * (periods2 - 4) * kNodes / divide,
        "phase 2: the NIC does not keep up with a continuous offer stream (expected 1/%ld of the inject slots)", divide);
  (void)missed_total; (void)missed_at_phase2;
  for (auto& m : t) m->final();
  std::printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}
