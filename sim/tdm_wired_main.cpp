// SPDX-License-Identifier: Apache-2.0
/// The TDM tile network (`totex sim --engine rtl --periods K`, docs/tdm-runs.md): one Verilated
/// model of rtl/tdm/totex_tdm_tile.sv (nic schedules), rtl/tdm/totex_tdm_allport_tile.sv (all-port
/// ones, TOTEX_TDM_KIND=1) or rtl/tdm/totex_tdm_single_tile.sv (single-port ones,
/// TOTEX_TDM_KIND=2), built once per tile parameter set (sw/hw/src/tdm_rtl.cpp, the macros of
/// schema::tdm_tile_fields),
/// instantiated N times here and wired in C++ by the topology: input link i of node v is the link
/// arriving from neighbor(v, i), so in_*[v][i] = out_*[u][port_to(u, v)] with u = neighbor(v, i);
/// a port a node does not have (a mesh's border) reads idle.
///
/// Usage: harness tdm --topo T --schedule FILE --periods K [--payload W] [--period P] [--fault F]
///
/// The run:
///   reset        rst_ni low over two rising edges, released;
///   load         every tile's slot table (totex::tdm_tables, the folded schedule) through its write
///                port, one slot per edge, all tiles in parallel; period_last_i = P - 1;
///   offer        every node's messages go through s_axis as sim/tdm_drive.hpp says (the SystemC
///                harness offers the same way): in the order its table injects them, tdest =
///                destination, tdata = tdm_payload of the flit (tdm_offer_payload), each once the one before it
///                is taken (tvalid && tready at an edge);
///   run          run_i high from cycle 0 (the first cycle with run_i high executes slot 0), the
///                links copied from outputs to inputs after every edge;
///   scoreboard   every m_axis beat (all-port: of every lane; tvalid high in cycle c, tid = source, tdata = payload) is
///                checked by totex::TdmScoreboard: K x N x (N-1) deliveries (K x the pairs
///                of the traffic the schedule records: recorded_traffic), each at its node,
///                with its payload, in cycle k*P + t_last + 1 (latency 1: one register per hop);
///                missed_o is 0 when period K-1's last slot has passed (every slot found its
///                message); afterwards it counts exactly the inject slots of periods >= K, whose
///                messages are not offered (read after a pause of a few cycles at the end, so
///                that the counter's pipeline has settled); error_o stays low.
/// Prints "TOTEX-RESULT {json}" (the SimResult of every engine); exit 0 pass, 1 check failed,
/// 2 usage.
///
/// Fault injection (the checks must catch it; CTest rtl.tdm.fault_*): --fault eject or pause
/// (TOTEX_TDM_FAULT as the CLI read it), and the contract check pauses (sim/tdm_drive.hpp, TdmPauses and tdm_load_words).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#if TOTEX_TDM_KIND == 1  // TileKind::AllPort
#include "Vtotex_tdm_allport_tile.h"
#elif TOTEX_TDM_KIND == 2  // TileKind::SinglePort
#include "Vtotex_tdm_single_tile.h"
#else
#include "Vtotex_tdm_tile.h"
#endif
#include "harness_exit.hpp"
#include "tdm_drive.hpp"
#include "totex/error.hpp"
#include "totex/tdm_run.hpp"
#include "totex/tdm_tables.hpp"
#include "vl_harness.hpp"

namespace {

using totex::sim::bits;
using totex::sim::set_bits;
using totex::sim::set_port;
#if TOTEX_TDM_KIND == 1
using Tile = Vtotex_tdm_allport_tile;
#elif TOTEX_TDM_KIND == 2
using Tile = Vtotex_tdm_single_tile;
#else
using Tile = Vtotex_tdm_tile;
#endif

std::size_t at(int i) { return static_cast<std::size_t>(i); }

/// Sets a port wider than 64 bits (or not) from 64-bit words, least significant first.
template <class T>
void set_words(T& port, const std::vector<std::uint64_t>& words, int width) {
  for (int lsb = 0; lsb < width; lsb += 64)
    set_bits(port, lsb, std::min(64, width - lsb), words[at(lsb / 64)]);
}

class TdmNetwork {
 public:
  TdmNetwork(const totex::Topology& t, const totex::TdmTables& tables, int periods, std::string fault)
      : tables_(tables), fault_(std::move(fault)), n_(t.nodes()), p_(tables.tile.ports), w_(tables.tile.payload_bits),
        lanes_(tables.tile.lanes()) {
    ctx_.randReset(2);
    ctx_.fatalOnError(false);
    ctx_.errorLimit(1 << 30);
    // Who feeds each input: (node, output port), node -1 for none.
    upstream_.assign(at(n_) * at(p_), {-1, 0});
    for (int v = 0; v < n_; ++v)
      for (int i = 0; i < t.degree(v); ++i) {
        const totex::NodeId u = t.neighbor(v, i);
        upstream_[at(v) * at(p_) + at(i)] = {u, *t.port_to(u, v)};
      }
    queue_ = totex::sim::tdm_offer_queues(tables, periods);
    next_.assign(queue_.size(), 0);
    for (int v = 0; v < n_; ++v) {
      tiles_.push_back(std::make_unique<Tile>(&ctx_, ("t" + std::to_string(v)).c_str()));
      Tile& x = *tiles_.back();
      x.clk_i = 0;
      x.rst_ni = 1;
      x.tbl_we_i = 0;
      set_port(x.tbl_addr_i, 0);
      set_words(x.tbl_data_i, std::vector<std::uint64_t>(at((tables.tile.entry_bits() + 63) / 64), 0),
                tables.tile.entry_bits());
      x.run_i = 0;
      set_port(x.period_last_i, static_cast<std::uint64_t>(tables.period - 1));
      set_port(x.in_valid_i, 0);
      set_words(x.in_data_i, std::vector<std::uint64_t>(at((p_ * w_ + 63) / 64), 0), p_ * w_);
      set_port(x.s_axis_tvalid, 0);
      set_words(x.s_axis_tdata, std::vector<std::uint64_t>(at((lanes_ * w_ + 63) / 64), 0), lanes_ * w_);
      set_port(x.s_axis_tdest, 0);
      set_port(x.m_axis_tready, (std::uint64_t{1} << lanes_) - 1);  // the network never stalls
      x.eval();
    }
    totex::sim::reset_tiles(tiles_, [this] { tick(); });
  }
  ~TdmNetwork() {
    for (auto& x : tiles_) x->final();
  }
  TdmNetwork(const TdmNetwork&) = delete;
  TdmNetwork& operator=(const TdmNetwork&) = delete;

  /// Every tile's table through its write port: one slot per edge, all tiles at once, while the
  /// messages are offered (so the first period's wait before the tiles prime: the first slot's
  /// inject decision is made in the last priming cycle). The load starts at the first edge after
  /// reset, before the tiles prime on a table nobody wrote.
  void load() {
    const auto words = totex::sim::tdm_load_words(tables_, fault_);
    for (int slot = 0; slot < tables_.tile.depth; ++slot) {
      for (int v = 0; v < n_; ++v) {
        Tile& x = *tiles_[at(v)];
        x.tbl_we_i = 1;
        set_port(x.tbl_addr_i, static_cast<std::uint64_t>(slot));
        set_words(x.tbl_data_i, words[at(v)][at(slot)], tables_.tile.entry_bits());
      }
      offer();
      clock_offered();
    }
    for (auto& x : tiles_) x->tbl_we_i = 0;
    missed_before_ = missed();
  }

  /// `edges` edges with run_i low (the tiles prime: totex_tdm_pkg::prime_cycles edges after the
  /// last table write, or after reset if later), messages still offered.
  void preload(int edges) {
    for (int e = 0; e < edges; ++e) {
      offer();
      clock_offered();
    }
  }

  /// Runs `cycles` cycles with run_i high (cycle 0 executes slot 0); calls on_eject(cycle, node,
  /// src, payload, last) for every m_axis beat with the cycle it is on m_axis (last: the lane's
  /// m_axis_tlast, every tile), and notes missed_o (less
  /// what it counted before the run) when cycle `missed_check` starts.
  template <class OnEject>
  void run(std::int64_t cycles, std::int64_t missed_check, OnEject on_eject) {
    for (auto& x : tiles_) x->run_i = 1;
    totex::sim::TdmPauses pauses(fault_, tables_.period);
    std::int64_t last = -1;  // the slot executed in the previous cycle, -1 after a pause
    for (std::int64_t c = 0; c < cycles;) {
      const bool exec = pauses.executes(c);
      now_ = c;
      for (auto& x : tiles_) x->run_i = exec ? 1 : 0;
      offer();
      if (c == missed_check && (exec || !pauses.counts_slots())) missed_at_check_ = missed() - missed_before_;
      const std::int64_t beat_cycle = pauses.counts_slots() ? last + 1 : c;
      for (int v = 0; v < n_; ++v) {
        const Tile& x = *tiles_[at(v)];
        for (int l = 0; l < lanes_; ++l)
          if (bits(x.m_axis_tvalid, l, 1))
            on_eject(beat_cycle, v,
                     static_cast<totex::NodeId>(bits(x.m_axis_tid, l * tables_.tile.node_bits, tables_.tile.node_bits)),
                     bits(x.m_axis_tdata, l * w_, w_), tlast(x, l));
      }
      clock_offered();
      ++run_edges_;
      last = exec ? c : -1;
      if (exec || !pauses.counts_slots()) ++c;
    }
    if (missed_check >= cycles) missed_at_check_ = missed() - missed_before_;
    // A pause (run_i low: no slot executes, no decision is made) for the counters' own pipeline
    // registers to settle, so missed_o shows every decision of the run.
    for (auto& x : tiles_) x->run_i = 0;
    for (int e = 0; e < kSettleEdges; ++e) {
      offer();
      clock_offered();
    }
  }
  static constexpr int kSettleEdges = 8;  // the all-port tile counts three cycles behind the nic tile

  /// missed_o of every tile, summed (each counter wraps at its width; the runs here stay below).
  [[nodiscard]] std::uint64_t missed() const {
    std::uint64_t sum = 0;
    for (const auto& x : tiles_) sum += bits(x->missed_o, 0, 64);
    return sum;
  }
  /// What the run counted, for tdm_check_counts.
  [[nodiscard]] totex::sim::TdmRunCounts counts() const {
    totex::sim::TdmRunCounts c = totex::sim::tdm_offer_counts(queue_, next_, lanes_);
    for (const auto& x : tiles_) c.errors_high += x->error_o ? 1 : 0;
    c.missed_at_check = missed_at_check_;
    c.missed_in_run = missed() - missed_before_;
    return c;
  }
  [[nodiscard]] int assertion_failures() const { return ctx_.errorCount(); }
  [[nodiscard]] std::uint64_t edges() const { return edges_; }
  [[nodiscard]] std::uint64_t run_edges() const { return run_edges_; }

 private:
  struct End {
    int node, port;
  };
  /// m_axis_tlast of lane l (every tile; constant high with one message per destination).
  static int tlast(const Tile& x, int l) { return static_cast<int>(bits(x.m_axis_tlast, l, 1)); }

  /// Drives every node's s_axis lanes with the next message each has to offer, and evaluates.
  void offer() {
    const int nw = tables_.tile.node_bits;
    for (int v = 0; v < n_; ++v) {
      Tile& x = *tiles_[at(v)];
      for (int l = 0; l < lanes_; ++l) {
        const std::size_t q = at(v) * at(lanes_) + at(l), i = next_[q];
        const bool valid = i < queue_[q].size() && queue_[q][i].from_cycle <= now_;
        set_bits(x.s_axis_tvalid, l, 1, valid ? 1 : 0);
        if (!valid) continue;
        const totex::sim::TdmOffer& o = queue_[q][i];
        set_bits(x.s_axis_tdest, l * nw, nw, static_cast<std::uint64_t>(o.dst));
        for (int lsb = 0; lsb < w_; lsb += 64) {
          const int width = std::min(64, w_ - lsb);
          set_bits(x.s_axis_tdata, l * w_ + lsb, width, totex::sim::tdm_offer_payload(tables_, v, o) >> lsb);
        }
      }
      x.eval();
    }
  }
  /// One rising edge; the messages whose tvalid && tready it sampled are taken.
  void clock_offered() {
    std::vector<char> taken(next_.size(), 0);
    for (int v = 0; v < n_; ++v)
      for (int l = 0; l < lanes_; ++l)
        taken[at(v) * at(lanes_) + at(l)] =
            bits(tiles_[at(v)]->s_axis_tvalid, l, 1) && bits(tiles_[at(v)]->s_axis_tready, l, 1);
    tick();
    for (std::size_t q = 0; q < next_.size(); ++q) next_[q] += taken[q] ? 1 : 0;
  }
  /// One rising edge on every tile, then the links copied and every tile evaluated with the clock low.
  void tick() {
    for (auto& x : tiles_) {
      x->clk_i = 1;
      x->eval();
    }
    for (int v = 0; v < n_; ++v) {
      Tile& x = *tiles_[at(v)];
      x.clk_i = 0;
      for (int i = 0; i < p_; ++i) {
        const End up = upstream_[at(v) * at(p_) + at(i)];
        const Tile* u = up.node < 0 ? nullptr : tiles_[at(up.node)].get();
        set_bits(x.in_valid_i, i, 1, u ? bits(u->out_valid_o, up.port, 1) : 0);
        for (int lsb = 0; lsb < w_; lsb += 64) {
          const int width = std::min(64, w_ - lsb);
          set_bits(x.in_data_i, i * w_ + lsb, width, u ? bits(u->out_data_o, up.port * w_ + lsb, width) : 0);
        }
      }
    }
    for (auto& x : tiles_) x->eval();
    ctx_.timeInc(10);
    ++edges_;
  }

  const totex::TdmTables& tables_;
  std::string fault_;  // TOTEX_TDM_FAULT: "", eject, pause or pauses
  int n_, p_, w_, lanes_;
  VerilatedContext ctx_;
  std::vector<std::unique_ptr<Tile>> tiles_;
  std::vector<End> upstream_;
  std::vector<std::vector<totex::sim::TdmOffer>> queue_;  // [v * lanes + l]
  std::vector<std::size_t> next_;  // per (node, lane): the next message of queue_ to offer
  std::int64_t now_ = totex::sim::kTdmBeforeRun;  // the run cycle (before it while loading and priming)
  std::uint64_t missed_before_ = 0, missed_at_check_ = 0, edges_ = 0, run_edges_ = 0;
};

int tdm_main(int argc, char** argv) {
  const auto start = std::chrono::steady_clock::now();
  const totex::sim::TdmRunSetup setup = totex::sim::tdm_run_setup(argc, argv, "tdm_wired");
  const totex::Topology& t = setup.topology;
  const totex::TdmTables& tables = setup.tables;
  const int periods = setup.periods;
  const totex::TdmTileParams& p = tables.tile;
  totex::TdmTileParams built;  // the tile this harness was compiled for (schema::cpp_defines)
  built.kind = static_cast<totex::TileKind>(TOTEX_TDM_KIND);
  built.ports = TOTEX_TDM_PORTS;
  built.payload_bits = TOTEX_TDM_PAYLOAD;
  built.node_bits = TOTEX_TDM_NODE_BITS;
  built.depth = TOTEX_TDM_DEPTH;
  built.buffer_words = TOTEX_TDM_BUFFER;
  built.queue_depth = TOTEX_TDM_QUEUE;
  if (!totex::schema::same_build(p, built))
    throw totex::UsageError(
        "this model was built for another tile (kind, ports, payload, node bits, depth, relay buffer or NIC queue)");

  TdmNetwork net(t, tables, periods, setup.fault);
  net.load();
  // totex_tdm_pkg::prime_cycles is 2^NodeW + 4 since the NIC's toggle bits are in block RAM (the
  // sweep that clears them after reset; ceil(NodeW/2) + 4 before): a margin of 8 edges keeps the
  // harness valid if the tile's read-ahead grows a little.
  const int prime = (1 << p.node_bits) + 4;
  net.preload(prime + 8);
  // The delivery cycle is the cycle whose slot ejects the flit: k*P + t_last + 1 (latency 1, one
  // register per hop). m_axis is registered (docs/tdm-tile.md): the beat is on m_axis one cycle
  // later, so the scoreboard gets the beat's cycle minus 1 and checks it exactly.
  constexpr int kLatency = 1;
  constexpr int kEjectRegister = 1;
  totex::TdmScoreboard board(t, tables, periods, kLatency, setup.traffic_or_null());
  // Past the predicted end: a late or extra delivery is seen, not cut off.
  const std::int64_t cycles = board.expected_cycles() + kEjectRegister + 8;
  // The inject decision for a slot is made (and a miss counted) in the cycle before it executes:
  // at the start of cycle K*P - 1 every decision of periods 0..K-1 is made, none of period K.
  const std::int64_t check = static_cast<std::int64_t>(periods) * tables.period - 1;
  const auto run_start = std::chrono::steady_clock::now();
  net.run(cycles, check, [&](std::int64_t cycle, int node, totex::NodeId src, std::uint64_t payload_seen, int last) {
    board.observe(cycle - kEjectRegister, node, src, payload_seen, last);
  });
  const double run_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count();
  board.finish();
  totex::SimResult r;
  r.engine = "rtl";
  board.fill(r);
  totex::sim::tdm_check_counts(r, tables, periods, cycles, check, net.counts(), "_o");
  if (net.assertion_failures() > 0) r.errors.push_back(std::to_string(net.assertion_failures()) + " RTL assertion(s) fired");
  r.simulated_cycles = net.edges();
  r.run_edges = net.run_edges();
  r.run_seconds = run_seconds;
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "TOTEX-RESULT " << totex::sim_result_json(r) << '\n';
  return r.ok() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return totex::sim::harness_main("tdm_wired", [&] { return tdm_main(argc, argv); });
}
