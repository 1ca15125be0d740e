// SPDX-License-Identifier: Apache-2.0
// Table swap testbench of the TDM tile with its control port (rtl/tdm/totex_tdm_ctl_tile.sv,
// docs/tdm-tile.md "Control port and table swap"): three tiles, Verilated once and wired in C++ as
// a unidirectional ring (NumPorts = 1), run two different valid all-to-all schedules of period 4
// and swap between them while running, through each tile's AXI4-Lite port:
//   table A: slot 0 inject n+2; slot 1 forward; slot 2 inject n+1, eject (source n-2); slot 3 eject (n-1)
//   table B: slot 0 inject n+1; slot 1 inject n+2, eject (n-1); slot 2 forward; slot 3 eject (n-2)
// The controller (the same writes to every tile, as a network top broadcasts them) loads A into the
// shadow bank and swaps now (stopped), then again and again: waits a random time, writes the other
// table into the shadow bank (one AXI write per slot, while the exchange runs), reads STATUS (the
// next period boundary N), arms the swap for period N + 2, and waits until STATUS shows it done.
// Cores offer random messages with random gaps, run_i has random pauses (all tiles together).
// Checks: every accepted message is delivered exactly once, in order per (source, destination), with
// its payload and tid = source, in a slot that the table of its period ejects from that source (so
// the swap happens at the armed boundary on every tile, and what waited in a NIC across it was sent
// under the new table); nothing else is delivered; error_o low; no swap is late; after draining,
// nothing is left. Usage: tb_tdm_swap [cycles] [seed]; exit 0 when every check passes.
#include "Vtotex_tdm_ctl_tile.h"
#include "verilated.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <random>
#include <utility>
#include <vector>

namespace {
constexpr int kNodes = 3, kPeriod = 4, kNodeW = 2, kSelW = 2;
constexpr int kPrime = (1 << kNodeW) + 4;
constexpr uint32_t kStatus = 0x00, kCtrl = 0x08, kTable = 0x80;  // AddrW 8 (SlotW 2)
int failures = 0;
#define CHECK(c, ...) do { if (!(c)) { ++failures; std::printf("FAIL: " __VA_ARGS__); std::printf("\n"); if (failures > 20) std::exit(1); } } while (0)

uint32_t entry(int out_sel, int ej_sel, int inj_dst, int ej_src) {
  return uint32_t(out_sel) | uint32_t(ej_sel) << kSelW | uint32_t(inj_dst) << (2 * kSelW) |
         uint32_t(ej_src) << (2 * kSelW + kNodeW);
}
int mod(int a) { return ((a % kNodes) + kNodes) % kNodes; }
uint32_t table_entry(int tab, int n, int s) {
  if (tab == 0) {
    const uint32_t a[kPeriod] = {entry(2, 0, mod(n + 2), 0), entry(1, 0, 0, 0),
                                 entry(2, 1, mod(n + 1), mod(n - 2)), entry(0, 1, 0, mod(n - 1))};
    return a[s];
  }
  const uint32_t b[kPeriod] = {entry(2, 0, mod(n + 1), 0), entry(2, 1, mod(n + 2), mod(n - 1)),
                               entry(1, 0, 0, 0), entry(0, 1, 0, mod(n - 2))};
  return b[s];
}
// The source node n ejects in slot s under table tab, or -1.
int eject_src(int tab, int n, int s) {
  if (tab == 0) return s == 2 ? mod(n - 2) : s == 3 ? mod(n - 1) : -1;
  return s == 1 ? mod(n - 1) : s == 3 ? mod(n - 2) : -1;
}
struct Msg { int src, dst; uint32_t data; };
}  // namespace

int main(int argc, char** argv) {
  const long cycles = argc > 1 ? std::atol(argv[1]) : 20000;
  const unsigned seed = argc > 2 ? unsigned(std::atoi(argv[2])) : 1;
  std::mt19937 rng(seed);
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->randReset(2);
  std::vector<std::unique_ptr<Vtotex_tdm_ctl_tile>> t;
  for (int n = 0; n < kNodes; ++n) t.emplace_back(std::make_unique<Vtotex_tdm_ctl_tile>(ctx.get()));
  auto eval_all = [&] { for (auto& m : t) m->eval(); };
  auto edge = [&] { for (auto& m : t) m->clk_i = 1; eval_all(); for (auto& m : t) m->clk_i = 0; };
  for (auto& m : t) {
    m->clk_i = 0; m->rst_ni = 0; m->run_i = 0; m->s_axis_tvalid = 0; m->m_axis_tready = 1;
    m->in_valid_i = 0; m->in_data_i = 0; m->period_last_i = kPeriod - 1;
    m->s_axil_awvalid = 0; m->s_axil_wvalid = 0; m->s_axil_bready = 1; m->s_axil_arvalid = 0;
    m->s_axil_rready = 1; m->s_axil_awprot = 0; m->s_axil_arprot = 0; m->s_axil_wstrb = 0xf;
  }
  eval_all(); edge(); edge();
  for (auto& m : t) m->rst_ni = 1;
  eval_all();

  // AXI4-Lite writes, the same to every tile: present (addr, data) until taken; B taken at once.
  std::deque<std::pair<uint32_t, std::vector<uint32_t>>> writes;  // addr, data per tile
  long axi_writes = 0;
  auto axi_cycle = [&] {  // before eval: drive; returns after the edge
    const bool w = !writes.empty();
    for (int n = 0; n < kNodes; ++n) {
      t[n]->s_axil_awvalid = w; t[n]->s_axil_wvalid = w;
      if (w) { t[n]->s_axil_awaddr = writes.front().first; t[n]->s_axil_wdata = writes.front().second[n]; }
    }
  };
  auto axi_taken = [&] {  // after eval, before the edge
    if (writes.empty()) return;
    bool all = true, any = false;
    for (auto& m : t) { all = all && m->s_axil_awready && m->s_axil_wready; any = any || m->s_axil_awready; }
    CHECK(all == any, "tiles disagree on awready");
    if (all) { writes.pop_front(); ++axi_writes; }
  };
  auto queue_table = [&](int tab) {
    for (int s = 0; s < kPeriod; ++s) {
      std::vector<uint32_t> d(kNodes);
      for (int n = 0; n < kNodes; ++n) d[n] = table_entry(tab, n, s);
      writes.emplace_back(kTable + 4u * uint32_t(s), d);
    }
  };
  auto ctrl = [&](uint32_t v) { writes.emplace_back(kCtrl, std::vector<uint32_t>(kNodes, v)); };
  // Initial load: A into the shadow bank, swap now, priming.
  queue_table(0);
  ctrl(1);
  while (!writes.empty()) { axi_cycle(); eval_all(); axi_taken(); edge(); }
  for (auto& m : t) { m->s_axil_awvalid = 0; m->s_axil_wvalid = 0; }
  for (int i = 0; i < kPrime + 2; ++i) { eval_all(); edge(); }

  std::vector<std::deque<Msg>> pending(kNodes * kNodes);
  std::vector<long> sent(kNodes, 0);
  std::vector<bool> offering(kNodes, false);
  std::vector<Msg> offer(kNodes);
  std::vector<int> period_table{0};  // table of executed period p (grows)
  long exec = 0, delivered = 0, swaps = 0;
  int active = 0;      // table of the periods from swap_at on
  long swap_at = 0;    // first period under `active`
  // Controller: 0 wait, 1 writing the shadow, 2 reading STATUS, 3 arming, 4 waiting for the swap.
  int st = 0;
  long wait_until = 200, status_per = -1;
  bool rd_pending = false;
  // Reconfiguration time: from the first shadow write offered to the first slot executed under
  // the new table (writes, STATUS read, arm, the wait for the armed boundary), and its parts.
  long t_start = 0, t_armed = 0, recfg_sum = 0, recfg_max = 0, recfg_n = 0, wr_sum = 0;
  long t_writes_done = 0;
  bool timing = false;
  int rd_wait = 0;
  const long drain_from = cycles - 40 * kPeriod;
  for (long c = 0; c < cycles; ++c) {
    const bool drain = c >= drain_from;
    const bool run = rng() % 8 != 0;
    // The controller.
    bool arvalid = false;
    if (st == 0 && c >= wait_until && !drain) { queue_table(1 - active); st = 1; t_start = c; }
    else if (st == 1 && writes.empty()) { st = 2; t_writes_done = c; }
    if (st == 2 && !rd_pending) arvalid = true;
    if (st == 4 && !rd_pending && c % 4 == 0) arvalid = true;
    axi_cycle();
    for (int n = 0; n < kNodes; ++n) {
      auto& m = *t[n];
      auto& up = *t[mod(n - 1)];
      m.in_valid_i = up.out_valid_o;
      m.in_data_i = up.out_data_o;
      m.run_i = run;
      m.s_axil_arvalid = arvalid;
      m.s_axil_araddr = kStatus;
      if (!offering[n] && !drain && rng() % 3 != 0) {
        offering[n] = true;
        offer[n] = Msg{n, mod(n + 1 + int(rng() % 2)), uint32_t(rng())};
      }
      m.s_axis_tvalid = offering[n];
      m.s_axis_tdata = offer[n].data;
      m.s_axis_tdest = offer[n].dst;
    }
    eval_all();
    axi_taken();
    if (arvalid) { CHECK(t[0]->s_axil_arready, "cycle %ld: arready low with no read outstanding", c); rd_pending = true; ++rd_wait; }
    if (rd_pending && ++rd_wait > 3) CHECK(false, "cycle %ld: no R two cycles after AR", c);
    for (int n = 0; n < kNodes; ++n) {
      if (offering[n] && t[n]->s_axis_tready) {
        pending[n * kNodes + offer[n].dst].push_back(offer[n]);
        ++sent[n];
        offering[n] = false;
      }
    }
    edge();
    // Outputs of cycle c+1: m_axis shows what the slot executed in cycle c ejected.
    const int slot = run ? int(exec % kPeriod) : -1;
    const long per = exec / kPeriod;
    if (run && timing && per == swap_at && slot == 0) {
      const long d = c - t_start;
      recfg_sum += d; recfg_max = d > recfg_max ? d : recfg_max; ++recfg_n;
      wr_sum += t_writes_done - t_start;
      timing = false;
    }
    (void)t_armed;
    if (run) ++exec;
    while (long(period_table.size()) <= per + 2) {
      const long p = long(period_table.size());
      period_table.push_back(p >= swap_at ? active : period_table.back());
    }
    if (rd_pending && t[0]->s_axil_rvalid) {  // R comes two cycles after AR; rready is high
      const uint32_t v = t[0]->s_axil_rdata;
      rd_pending = false;
      rd_wait = 0;
      for (auto& m : t) CHECK(m->s_axil_rdata == v, "cycle %ld: tiles' STATUS differ (%08x, %08x)", c, unsigned(m->s_axil_rdata), unsigned(v));
      CHECK(!(v & 8u), "cycle %ld: swap late (STATUS %08x)", c, unsigned(v));
      if (st == 2) {
        status_per = long(v >> 16);
        const uint32_t arm = uint32_t(status_per + 2) & 0xffu;
        ctrl(2u | arm << 16);
        st = 3;
      } else if (st == 4 && !(v & 4u)) {
        st = 0; wait_until = c + 20 + long(rng() % 200); ++swaps;
      }
    }
    if (st == 3 && writes.empty()) {
      // The arm is taken: periods from status_per + 2 on (the tiles' count, modulo 256, is this
      // testbench's executed-period count: both start at 0 after priming) run the new table.
      active = 1 - active;
      // The tiles number periods modulo 2^8 (PerW): the first period from the current one on
      // with that number.
      swap_at = per + ((status_per + 2 - per) % 256 + 256) % 256;
      t_armed = c;
      timing = true;
      for (long p = swap_at; p < long(period_table.size()); ++p) period_table[size_t(p)] = active;
      st = 4;
    }
    for (int n = 0; n < kNodes; ++n) {
      auto& m = *t[n];
      CHECK(!m.error_o, "cycle %ld: node %d error_o", c, n);
      if (!m.m_axis_tvalid) continue;
      const int tab = period_table[size_t(per)];
      const int src = int(m.m_axis_tid);
      CHECK(slot >= 0 && src == eject_src(tab, n, slot),
            "cycle %ld: node %d delivery from %d after slot %d of period %ld (table %c)", c, n, src, slot, per, 'A' + tab);
      auto& q = pending[size_t(src * kNodes + n)];
      if (q.empty()) { CHECK(false, "cycle %ld: node %d got %08x from %d, nothing pending", c, n, unsigned(m.m_axis_tdata), src); continue; }
      CHECK(q.front().data == m.m_axis_tdata, "cycle %ld: node %d from %d: payload %08x, expected %08x", c, n, src, unsigned(m.m_axis_tdata), q.front().data);
      q.pop_front();
      ++delivered;
    }
  }
  long total_sent = 0;
  for (int n = 0; n < kNodes; ++n) {
    total_sent += sent[n];
    for (int d = 0; d < kNodes; ++d)
      CHECK(pending[size_t(n * kNodes + d)].empty(), "%zu messages %d -> %d never delivered", pending[size_t(n * kNodes + d)].size(), n, d);
  }
  CHECK(swaps >= 10, "only %ld swaps", swaps);
  std::printf("ring of 3, period 4, %ld cycles, seed %u: %ld slots executed, %ld swaps (A <-> B, armed through "
              "AXI4-Lite while running), %ld AXI writes, %ld messages sent and delivered (%ld)\n",
              cycles, seed, exec, swaps, axi_writes, total_sent, delivered);
  if (recfg_n > 0)
    std::printf("reconfiguration (first shadow write offered -> first slot under the new table, 1 in 8 cycles paused): "
                "mean %.1f, max %ld cycles over %ld swaps; the %d table writes took %.1f cycles on average\n",
                double(recfg_sum) / double(recfg_n), recfg_max, recfg_n, kPeriod, double(wr_sum) / double(recfg_n));
  for (auto& m : t) m->final();
  std::printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}
