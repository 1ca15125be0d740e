// SPDX-License-Identifier: Apache-2.0
/// Verilator testbench of an exported TDM network (written by `totex rtl`; README.md, "The
/// testbench"). Every node offers one message to every other node per period for K periods on its
/// s_axis (in the order its table injects them, tb_config.h kOrder), payload = {period index,
/// source, destination} cut to W bits; every m_axis beat is checked: its node is the destination,
/// tid the source, the payload the next one expected for that pair (so order, loss and duplicates
/// show), and error_o stays low. With +stall=1 (the default) the send side idles at random, the
/// sinks drop tready at random and en_i pauses the network at random.
///
/// The control port (AXI4-Lite, README.md "Control port"), before en_i first rises: every tile's
/// INFO read (its entry and slot widths checked), its own table (tables/node<v>.hex) written into
/// its shadow bank. Once the slots run: tile 0's STATUS read, the swap armed for two periods later
/// (of the default 6) by one broadcast write, every tile's STATUS polled until the swap
/// is done (the other bank active, nothing armed, not late). The checks above run across the swap:
/// the same table in the other bank, so every delivery must go on exactly as before.
///
/// Usage: Vtop [+periods=K] [+seed=S] [+stall=0|1]   Prints PASS or FAIL; exit 0 pass, 1 fail.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "Vtop.h"
#include "tb_config.h"
#include "verilated.h"

namespace {

/// Bits [lsb, lsb + w) of a Verilated port (an integer up to 64 bits, else VlWide's 32-bit words).
template <class T>
std::uint64_t get_bits(const T& sig, int lsb, int w) {
  std::uint64_t v = 0;
  for (int b = 0; b < w; ++b) {
    const int i = lsb + b;
    std::uint64_t bit = 0;
    if constexpr (std::is_integral_v<T>)
      bit = (static_cast<std::uint64_t>(sig) >> i) & 1U;
    else
      bit = (sig[static_cast<std::size_t>(i / 32)] >> (i % 32)) & 1U;
    v |= bit << b;
  }
  return v;
}

template <class T>
void put_bits(T& sig, int lsb, int w, std::uint64_t v) {
  for (int b = 0; b < w; ++b) {
    const int i = lsb + b;
    const std::uint64_t bit = (v >> b) & 1U;
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      const U mask = static_cast<U>(U{1} << i);
      sig = static_cast<T>(bit ? (static_cast<U>(sig) | mask) : (static_cast<U>(sig) & static_cast<U>(~mask)));
    } else {
      auto& word = sig[static_cast<std::size_t>(i / 32)];
      const std::uint32_t mask = std::uint32_t{1} << (i % 32);
      word = bit ? (word | mask) : (word & ~mask);
    }
  }
}

std::uint64_t payload(int src, int dst, int k) {
  const std::uint64_t v = (static_cast<std::uint64_t>(k) << (2 * kNodeW)) |
                          (static_cast<std::uint64_t>(src) << kNodeW) | static_cast<std::uint64_t>(dst);
  return kPayloadW >= 64 ? v : v & ((std::uint64_t{1} << kPayloadW) - 1);
}

/// One AXI4-Lite operation of the control script: a write or a read of a byte address, run one at
/// a time; `ready` gates its start (null: at once), `done` gets the read data (writes: 0).
struct CtlOp {
  bool write;
  std::uint32_t addr, data;
  std::function<bool()> ready;
  std::function<void(std::uint32_t)> done;
};

constexpr std::uint32_t kStatus = 0x00, kCtrl = 0x08, kTblHi = 0x0C, kInfo = 0x10;
std::uint32_t tile_addr(int v, std::uint32_t offset) {
  return (static_cast<std::uint32_t>(v) << kTileAddrW) | offset;
}
const std::uint32_t kBroadcast = std::uint32_t{1} << (kTileAddrW + kTileBits);

int plusarg(VerilatedContext& ctx, const char* name, int fallback) {
  const std::string prefix = std::string(name) + "=";
  const char* arg = ctx.commandArgsPlusMatch(prefix.c_str());
  if (arg == nullptr || *arg == '\0') return fallback;
  const std::string s(arg);
  return std::atoi(s.substr(s.find('=') + 1).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  ctx->randReset(2);         // a missing reset shows up
  ctx->fatalOnError(false);  // an RTL assertion is counted and reported as FAIL, not an abort
  const int periods = plusarg(*ctx, "periods", 0) > 0 ? plusarg(*ctx, "periods", 0) : kDefaultPeriods;
  const int seed = plusarg(*ctx, "seed", 1);
  const bool stall = plusarg(*ctx, "stall", 1) != 0;
  auto top = std::make_unique<Vtop>(ctx.get(), "top");
  std::mt19937_64 rng(static_cast<std::uint64_t>(seed));
  const auto chance = [&](int one_in) { return rng() % static_cast<std::uint64_t>(one_in) == 0; };

  const int n = kNodes, per_node = periods * (n - 1);
  const std::int64_t total = static_cast<std::int64_t>(n) * per_node;
  std::vector<int> sent(static_cast<std::size_t>(n), 0);
  std::vector<bool> offering(static_cast<std::size_t>(n), false);
  std::vector<int> next_k(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), 0);  // [src * n + dst]
  std::int64_t delivered = 0, errors = 0, running = 0, first_slot = -1, first_delivery = -1, last_delivery = -1;
  std::vector<std::string> problems;
  const auto problem = [&](const std::string& text) {
    ++errors;
    if (problems.size() < 12) problems.push_back(text);
  };

  // The control script (the header comment): tables first, then the armed swap.
  std::deque<CtlOp> ctl;
  bool tables_written = false;
  int swapped_tiles = 0, arm_period = -1;
  for (int v = 0; v < n; ++v) {
    ctl.push_back({false, tile_addr(v, kInfo), 0, nullptr, [&, v](std::uint32_t d) {
                     if (static_cast<int>((d >> 8) & 0xFF) != kEntryW)
                       problem("tile " + std::to_string(v) + ": INFO says " + std::to_string((d >> 8) & 0xFF) +
                               "-bit entries, the tables have " + std::to_string(kEntryW));
                   }});
    std::ifstream hex("tables/node" + std::to_string(v) + ".hex");
    std::string line;
    for (int slot = 0; slot < kPeriod && std::getline(hex, line); ++slot) {
      const std::uint64_t e = std::stoull(line, nullptr, 16);
      if (kEntryW > 32) ctl.push_back({true, tile_addr(v, kTblHi), static_cast<std::uint32_t>(e >> 32), nullptr, nullptr});
      ctl.push_back({true, tile_addr(v, (std::uint32_t{1} << (kTileAddrW - 1)) + 4U * static_cast<std::uint32_t>(slot)),
                     static_cast<std::uint32_t>(e), nullptr, nullptr});
    }
    if (!hex) problem("tile " + std::to_string(v) + ": cannot read tables/node" + std::to_string(v) + ".hex");
  }
  ctl.push_back({false, tile_addr(0, kStatus), 0, nullptr, [&](std::uint32_t) { tables_written = true; }});
  // After the arm: every tile's STATUS until its swap is done (bank 1 active, nothing armed, not late).
  std::function<void(int)> check_swap = [&](int v) {
    ctl.push_front({false, tile_addr(v, kStatus), 0, nullptr, [&, v](std::uint32_t d) {
                      if (d & 4U) return check_swap(v);  // still armed: read again
                      if ((d & 0xAU) != 2U)
                        problem("tile " + std::to_string(v) + ": STATUS after the swap is " + std::to_string(d) +
                                " (bank 1 active and not late expected)");
                      else
                        ++swapped_tiles;
                    }});
  };
  ctl.push_back({false, tile_addr(0, kStatus), 0, [&] { return first_slot >= 0; }, [&](std::uint32_t d) {
                   arm_period = static_cast<int>(((d >> 16) + 2) & 0xFF);
                   for (int v = n - 1; v >= 0; --v) check_swap(v);
                   ctl.push_front({true, kBroadcast | kCtrl, 2U | (static_cast<std::uint32_t>(arm_period) << 16),
                                   nullptr, nullptr});
                 }});
  CtlOp cur;                                // the operation under way
  bool op_active = false, accepted = false;  // (taken off ctl before its done runs: done may queue more)

  top->clk_i = 0;
  top->rst_ni = 1;
  top->en_i = 0;
  top->s_axis_tvalid = 0;
  top->m_axis_tready = 0;
  top->eval();
  top->rst_ni = 0;  // a falling edge: the asynchronous reset
  top->eval();
  const std::int64_t max_cycles =
      1000 + kPrimeCycles + static_cast<std::int64_t>(periods + 4) * kPeriod * (stall ? 24 : 2);
  std::int64_t cycle = 0, done_at = -1;
  for (; cycle < max_cycles; ++cycle) {
    const bool reset = cycle < 4;  // handshakes during reset do not count (AXI4-Stream)
    top->rst_ni = reset ? 0 : 1;
    // en_i low until every node's period-0 messages are taken (so that every slot of period 0
    // finds its message: README, "Start"), then random pauses.
    bool primed = true;
    for (int v = 0; v < n; ++v) primed = primed && sent[static_cast<std::size_t>(v)] >= std::min(n - 1, per_node);
    top->en_i = (!primed || !tables_written || (stall && chance(16))) ? 0 : 1;
    // The control port's master: one operation at a time, bready and rready high.
    if (!reset && !op_active && !ctl.empty() && (!ctl.front().ready || ctl.front().ready())) {
      cur = std::move(ctl.front());
      ctl.pop_front();
      op_active = true;
      accepted = false;
    }
    top->s_axil_awvalid = op_active && cur.write && !accepted;
    top->s_axil_wvalid = top->s_axil_awvalid;
    top->s_axil_awaddr = op_active ? cur.addr : 0;
    top->s_axil_wdata = op_active ? cur.data : 0;
    top->s_axil_arvalid = op_active && !cur.write && !accepted;
    top->s_axil_araddr = op_active ? cur.addr : 0;
    top->s_axil_awprot = 0;
    top->s_axil_arprot = 0;
    top->s_axil_wstrb = 0xF;
    top->s_axil_bready = 1;
    top->s_axil_rready = 1;
    // Send side: one offer per node, held until taken (AXI4-Stream).
    for (int v = 0; v < n; ++v) {
      const auto i = static_cast<std::size_t>(v);
      if (!reset && !offering[i] && sent[i] < per_node && !(stall && chance(8))) offering[i] = true;
      put_bits(top->s_axis_tvalid, v, 1, offering[i] ? 1 : 0);
      if (offering[i]) {
        const int k = sent[i] / (n - 1), d = kOrder[v][sent[i] % (n - 1)];
        put_bits(top->s_axis_tdata, v * kPayloadW, kPayloadW, payload(v, d, k));
        put_bits(top->s_axis_tdest, v * kNodeW, kNodeW, static_cast<std::uint64_t>(d));
      }
      put_bits(top->m_axis_tready, v, 1, (reset || (stall && chance(8))) ? 0 : 1);
    }
    top->clk_i = 0;
    top->eval();
    // What the rising edge samples.
    if (op_active && !accepted) {
      accepted = cur.write ? top->s_axil_awready != 0 : top->s_axil_arready != 0;
    } else if (op_active && (cur.write ? top->s_axil_bvalid : top->s_axil_rvalid)) {
      op_active = false;
      if ((cur.write ? top->s_axil_bresp : top->s_axil_rresp) != 0) problem("the control port answered an error");
      if (cur.done) cur.done(cur.write ? 0U : static_cast<std::uint32_t>(top->s_axil_rdata));
    }
    if (top->running_o && first_slot < 0) first_slot = cycle;
    running += top->running_o ? 1 : 0;
    for (int v = 0; v < n; ++v) {
      const auto i = static_cast<std::size_t>(v);
      if (offering[i] && get_bits(top->s_axis_tready, v, 1)) {
        offering[i] = false;
        ++sent[i];
      }
      if (!(get_bits(top->m_axis_tvalid, v, 1) && get_bits(top->m_axis_tready, v, 1))) continue;
      const int src = static_cast<int>(get_bits(top->m_axis_tid, v * kNodeW, kNodeW));
      const std::uint64_t data = get_bits(top->m_axis_tdata, v * kPayloadW, kPayloadW);
      ++delivered;
      if (first_delivery < 0) first_delivery = cycle;
      last_delivery = cycle;
      const std::string where = "cycle " + std::to_string(cycle) + ", node " + std::to_string(v) + ": ";
      if (src >= n || src == v) {
        problem(where + "a message from source " + std::to_string(src) + " (no such sender)");
        continue;
      }
      int& k = next_k[static_cast<std::size_t>(src) * static_cast<std::size_t>(n) + i];
      if (k >= periods) {
        problem(where + "message " + std::to_string(src) + " -> " + std::to_string(v) + " once more than sent (duplicate)");
        continue;
      }
      if (data != payload(src, v, k)) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "payload 0x%llx from %d, expected 0x%llx (period %d's %d -> %d)",
                      static_cast<unsigned long long>(data), src, static_cast<unsigned long long>(payload(src, v, k)),
                      k, src, v);
        problem(where + buf);
      }
      ++k;
    }
    top->clk_i = 1;
    top->eval();
    if (done_at < 0 && delivered >= total) done_at = cycle;
    if (done_at >= 0 && cycle >= done_at + 3 * kPeriod + 20) break;  // room for an extra delivery to show
  }
  top->final();

  for (int v = 0; v < n; ++v)
    if (get_bits(top->error_o, v, 1)) problem("node " + std::to_string(v) + ": error_o is high");
  if (ctx->gotError()) problem("an RTL assertion failed (see above)");
  std::int64_t missing = 0, missing_pairs = 0;
  for (int s = 0; s < n; ++s)
    for (int d = 0; d < n; ++d) {
      if (s == d) continue;
      const int k = next_k[static_cast<std::size_t>(s) * static_cast<std::size_t>(n) + static_cast<std::size_t>(d)];
      if (k < periods) {
        if (++missing_pairs <= 4)
          problem("message " + std::to_string(s) + " -> " + std::to_string(d) + " of period " + std::to_string(k) +
                  " never arrived");
        missing += periods - k;
      }
    }

  std::printf("%s, %d nodes, %d periods of %d slots, seed %d, stalls %s: %lld/%lld messages delivered in %lld cycles "
              "(%lld running)\n",
              TB_TOPOLOGY, n, periods, kPeriod, seed, stall ? "on" : "off", static_cast<long long>(delivered),
              static_cast<long long>(total), static_cast<long long>(cycle), static_cast<long long>(running));
  if (delivered > 0)
    std::printf("  slots from cycle %lld; deliveries from cycle %lld to %lld: the last %lld cycles after the first slot "
                "(%d periods x %d slots = %d)\n",
                static_cast<long long>(first_slot), static_cast<long long>(first_delivery),
                static_cast<long long>(last_delivery), static_cast<long long>(last_delivery - first_slot), periods,
                kPeriod, periods * kPeriod);
  if (missing > 0) problem(std::to_string(missing) + " messages never arrived");
  std::printf("  control port: every tile's table written into its shadow bank, swap armed for period %d by one "
              "broadcast write, done at %d of %d tiles\n",
              arm_period, swapped_tiles, n);
  if (swapped_tiles != n) problem("the armed swap was seen done at " + std::to_string(swapped_tiles) + " of " + std::to_string(n) + " tiles");
  if (errors == 0) {
    std::printf("PASS\n");
    return 0;
  }
  for (const std::string& p : problems) std::printf("  %s\n", p.c_str());
  std::printf("FAIL: %lld problems\n", static_cast<long long>(errors));
  return 1;
}
