// SPDX-License-Identifier: Apache-2.0
#include "tdm_harness.hpp"

#include <chrono>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "harness_exit.hpp"
#include "model_check.hpp"
#include "tdm_drive.hpp"
#include "tdm_network.hpp"
#include "totex/tdm_run.hpp"
#include "totex/tdm_tables.hpp"

namespace totex::sim {

namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }

/// The SystemC network driven cycle by cycle; the same steps, offers, faults and checks as the
/// rtl harness's TdmNetwork (sim/tdm_drive.hpp).
class TdmRun {
 public:
  TdmRun(const Topology& t, const TdmTables& tables, int periods, std::string fault, ModelChecks& checks)
      : tables_(tables), n_(t.nodes()), lanes_(tables.tile.lanes()),
        fault_(std::move(fault)), net_(std::make_unique<TdmNetwork>("tdm", t, tables.tile, checks)),
        queue_(tdm_offer_queues(tables, periods)), next_(queue_.size(), 0), offering_(queue_.size(), 0) {
    net_->period_last.write(tables.period - 1);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    // Reset as the rtl harness: asserted, two rising edges, released.
    net_->rst_n.write(false);
    tick();
    tick();
    net_->rst_n.write(true);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }

  /// Every tile's table through the write port, one slot per edge, all tiles at once, while the
  /// messages are offered.
  void load() {
    const auto words = tdm_load_words(tables_, fault_);
    const int nw = net_->words();
    for (int slot = 0; slot < tables_.tile.depth; ++slot) {
      net_->tbl_we.write(true);
      net_->tbl_addr.write(slot);
      for (int v = 0; v < n_; ++v)
        for (int w = 0; w < nw; ++w) net_->tbl_data[at(v * nw + w)].write(words[at(v)][at(slot)][at(w)]);
      offer();
      clock_offered();
    }
    net_->tbl_we.write(false);
    missed_before_ = missed();
  }

  /// `edges` edges with run low (priming), messages still offered.
  void preload(int edges) {
    for (int e = 0; e < edges; ++e) {
      offer();
      clock_offered();
    }
  }

  /// `cycles` cycles with run high (cycle 0 executes slot 0, pauses as TOTEX_TDM_FAULT says);
  /// on_eject(cycle, node, src, payload) for every m_axis beat with the cycle it is on m_axis
  /// (with pauses: the slot executed in the cycle before it, plus one); missed noted when cycle
  /// `missed_check` starts; then a few paused edges for the counters to settle.
  template <class OnEject>
  void run(std::int64_t cycles, std::int64_t missed_check, OnEject on_eject) {
    TdmPauses pauses(fault_, tables_.period);
    std::int64_t last = -1;  // the slot executed in the previous cycle, -1 after a pause
    for (std::int64_t c = 0; c < cycles;) {
      const bool exec = pauses.executes(c);
      now_ = c;
      net_->run.write(exec);
      offer();
      if (c == missed_check && (exec || !pauses.counts_slots())) missed_at_check_ = missed() - missed_before_;
      const std::int64_t beat_cycle = pauses.counts_slots() ? last + 1 : c;
      for (int q = 0; q < n_ * lanes_; ++q)
        if (net_->m_tvalid[at(q)].read())
          on_eject(beat_cycle, q / lanes_, static_cast<NodeId>(net_->m_tid[at(q)].read()), net_->m_tdata[at(q)].read(),
                   net_->last_of(q));
      clock_offered();
      ++run_edges_;
      last = exec ? c : -1;
      if (exec || !pauses.counts_slots()) ++c;
    }
    if (missed_check >= cycles) missed_at_check_ = missed() - missed_before_;
    net_->run.write(false);
    for (int e = 0; e < kSettleEdges; ++e) {
      offer();
      clock_offered();
    }
  }
  static constexpr int kSettleEdges = 8;  // as the rtl harness's (the all-port tile counts two edges later)

  [[nodiscard]] std::uint64_t missed() const {
    std::uint64_t sum = 0;
    for (int v = 0; v < n_; ++v) sum += net_->missed[at(v)].read();
    return sum;
  }
  /// What the run counted, for tdm_check_counts.
  [[nodiscard]] TdmRunCounts counts() const {
    TdmRunCounts c = tdm_offer_counts(queue_, next_, lanes_);
    for (int v = 0; v < n_; ++v) c.errors_high += net_->error[at(v)].read() ? 1 : 0;
    c.missed_at_check = missed_at_check_;
    c.missed_in_run = missed() - missed_before_;
    return c;
  }
  [[nodiscard]] std::uint64_t edges() const { return edges_; }
  [[nodiscard]] std::uint64_t run_edges() const { return run_edges_; }

 private:
  /// Drives every lane's s_axis with the next message it has to offer (held until taken).
  void offer() {
    for (std::size_t q = 0; q < queue_.size(); ++q) {
      const std::size_t i = next_[q];
      offering_[q] = i < queue_[q].size() && queue_[q][i].from_cycle <= now_ ? 1 : 0;
      net_->s_tvalid[q].write(offering_[q] != 0);
      if (!offering_[q]) continue;
      const TdmOffer& o = queue_[q][i];
      const NodeId v = static_cast<NodeId>(q / static_cast<std::size_t>(lanes_));
      net_->s_tdest[q].write(o.dst);
      net_->s_tdata[q].write(tdm_offer_payload(tables_, v, o));
    }
  }
  /// One rising edge; the offers it samples with tvalid && tready are taken (tready is a register:
  /// its value now is the one the edge samples; tvalid is what offer() just wrote).
  void clock_offered() {
    std::vector<char> taken(queue_.size(), 0);
    for (std::size_t q = 0; q < queue_.size(); ++q) taken[q] = offering_[q] && net_->s_tready[q].read();
    tick();
    for (std::size_t q = 0; q < queue_.size(); ++q) next_[q] += taken[q] ? 1U : 0U;
  }
  /// One clock period: low for 5 ns (the inputs settle), the rising edge, high for 5 ns.
  void tick() {
    net_->clk.write(false);
    sc_core::sc_start(5, sc_core::SC_NS);
    net_->clk.write(true);
    sc_core::sc_start(5, sc_core::SC_NS);
    ++edges_;
  }

  const TdmTables& tables_;
  int n_, lanes_;
  std::string fault_;
  std::unique_ptr<TdmNetwork> net_;
  std::vector<std::vector<TdmOffer>> queue_;  // [v * lanes + l]
  std::vector<std::size_t> next_;             // per lane: the next message of queue_ to offer
  std::vector<char> offering_;                // s_tvalid as offer() wrote it
  std::int64_t now_ = kTdmBeforeRun;
  std::uint64_t missed_before_ = 0, missed_at_check_ = 0, edges_ = 0, run_edges_ = 0;
};

int run_main(int argc, char** argv) {
  const auto start = std::chrono::steady_clock::now();
  const TdmRunSetup setup = tdm_run_setup(argc, argv, "totex_systemc");
  const Topology& t = setup.topology;
  const TdmTables& tables = setup.tables;
  const int periods = setup.periods;

  ModelChecks checks("systemc");
  TdmRun net(t, tables, periods, setup.fault, checks);
  net.load();
  // The rtl harness's priming: PrimeCycles (2^NodeW + 4) plus a margin of 8 edges.
  net.preload(TdmTile::prime_cycles(tables.tile.node_bits) + 8);
  // Delivery cycle k*P + t_last + 1 (one register per hop); m_axis is registered, so the beat is
  // one cycle later and the scoreboard gets its cycle minus 1.
  constexpr int kLatency = 1;
  constexpr int kEjectRegister = 1;
  TdmScoreboard board(t, tables, periods, kLatency, setup.traffic_or_null());
  const std::int64_t cycles = board.expected_cycles() + kEjectRegister + 8;
  const std::int64_t check = static_cast<std::int64_t>(periods) * tables.period - 1;
  const auto run_start = std::chrono::steady_clock::now();
  net.run(cycles, check, [&](std::int64_t cycle, int node, NodeId src, std::uint64_t payload_seen, int last) {
    board.observe(cycle - kEjectRegister, node, src, payload_seen, last);
  });
  const double run_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count();
  board.finish();
  SimResult r;
  r.engine = "systemc";
  board.fill(r);
  tdm_check_counts(r, tables, periods, cycles, check, net.counts(), "");
  if (checks.count() > 0) r.errors.push_back(std::to_string(checks.count()) + " model check(s) failed");
  r.simulated_cycles = net.edges();
  r.run_edges = net.run_edges();
  r.run_seconds = run_seconds;
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "TOTEX-RESULT " << sim_result_json(r) << '\n';
  return r.ok() ? 0 : 1;
}

}  // namespace

int tdm_systemc_main(int argc, char** argv) {
  return harness_main("tdm systemc harness", [&] { return run_main(argc, argv); });
}

}  // namespace totex::sim
