// SPDX-License-Identifier: Apache-2.0
/// Recovery from a stuck link on the RTL (`totex sim --engine rtl --periods K --fault-at F:A-B
/// --recover`, docs/tdm-runs.md "Recovery from a stuck link"; totex/link_recovery.hpp tells the
/// story). N Verilated rtl/tdm/totex_tdm_ctl_tile.sv (the nic tile with its AXI4-Lite control port
/// and shadow bank) wired as sim/tdm_wired_main.cpp wires the nic tiles, each with its own
/// AXI4-Lite master driven from C++ here, and a controller that uses nothing but those ports:
///   load      every tile's table through its port into both banks (the shadow bank, CTRL swap now,
///             the other bank), a reset (error_o and the counters clear), the first offers taken,
///             CTRL swap now (bank 1), primed;
///   run       run_i high; the cores offer as sim/tdm_drive.hpp says (tdm_offer_queues);
///   fault     from cycle F * P the receivers of link A-B read a valid all-ones flit (the harness
///             forces their in_valid/in_data: the link is stuck, the tiles are not); RTL assertions
///             are checked up to then and switched off from then (the left-flit assertion fires at
///             the stuck link's receivers by design; the link counters and the trace check the rest);
///   poll      at the start of every period, every tile's LINK0..P-1 and STATUS, one read per three
///             cycles; STATUS's period number must be the next period's;
///   recover   the first poll with a count names the link (its receivers' inputs); the controller
///             plans with the library (plan_link_recovery: the degraded network's periodic schedule,
///             rotated, on the tiles' ports), writes every tile's shadow bank, arms the swap, drives
///             period_last_i = P_new - 1 from the middle of the last old period, and the cores offer
///             the periods from the swap on in the new table's order;
///   check     the deliveries (m_axis, step = beat cycle - 2) against the reference model
///             (run_recovery_reference: the same fault, a table-level flit model), delivery by
///             delivery, plus: the link and period the controller found are the model's, the arm
///             was taken in its planned cycle, STATUS after the swap shows the other bank and no
///             armed or late swap, missed_o (0 within the K periods), error_o high exactly at the
///             tiles where the model leaves a flit, and every tile's link counters at the end equal
///             the model's left-flit counts (16 bits, wrapping).
///
/// Usage: harness tdm --topo T --schedule FILE --periods K [--payload W] [--period P] --fault-at F:A-B
///        [--recover-budget B]
/// Prints "TOTEX-RESULT {json}" (with the recovery object); exit 0 pass, 1 check failed, 2 usage.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "Vtotex_tdm_ctl_tile.h"
#include "harness_exit.hpp"
#include "recover_check.hpp"
#include "tdm_drive.hpp"
#include "totex/error.hpp"
#include "totex/link_recovery.hpp"
#include "totex/tdm_run.hpp"
#include "totex/tdm_tables.hpp"
#include "vl_harness.hpp"

namespace {

using totex::sim::bits;
using totex::sim::set_bits;
using totex::sim::set_port;
using Tile = Vtotex_tdm_ctl_tile;

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

/// One AXI4-Lite master: writes (AW and W together, bready always high) and reads (one
/// outstanding, rready always high), each queued with the first cycle it may be issued.
class AxiLiteMaster {
 public:
  struct Op {
    std::uint32_t addr, data;
    std::int64_t not_before;
    std::function<void(std::uint32_t)> done;  // reads: the data; writes: called when taken (data unused)
  };
  void write(std::uint32_t addr, std::uint32_t data, std::int64_t not_before, std::function<void(std::uint32_t)> taken = {}) {
    writes_.push_back({addr, data, not_before, std::move(taken)});
  }
  void read(std::uint32_t addr, std::int64_t not_before, std::function<void(std::uint32_t)> done) {
    reads_.push_back({addr, 0, not_before, std::move(done)});
  }
  /// Drives the tile's slave inputs for cycle `now`.
  void drive(Tile& x, std::int64_t now) {
    const bool w = !writes_.empty() && writes_.front().not_before <= now;
    x.s_axil_awvalid = w;
    x.s_axil_wvalid = w;
    if (w) {
      x.s_axil_awaddr = writes_.front().addr;
      x.s_axil_wdata = writes_.front().data;
    }
    x.s_axil_wstrb = 0xF;
    x.s_axil_bready = 1;
    x.s_axil_rready = 1;
    const bool r = !pending_ && !reads_.empty() && reads_.front().not_before <= now;
    x.s_axil_arvalid = r;
    if (r) x.s_axil_araddr = reads_.front().addr;
  }
  /// After evaluation, before the edge: what the edge takes.
  void sample(const Tile& x, std::int64_t now) {
    if (x.s_axil_rvalid && pending_) {
      pending_ = false;
      auto done = std::move(in_flight_);
      done(x.s_axil_rdata);
    }
    if (x.s_axil_awvalid && x.s_axil_awready) {
      if (writes_.front().done) writes_.front().done(static_cast<std::uint32_t>(now));
      writes_.pop_front();
    }
    if (x.s_axil_arvalid && x.s_axil_arready) {
      pending_ = true;
      in_flight_ = std::move(reads_.front().done);
      reads_.pop_front();
    }
  }
  [[nodiscard]] bool idle() const { return writes_.empty() && reads_.empty() && !pending_; }

 private:
  std::deque<Op> writes_, reads_;
  bool pending_ = false;
  std::function<void(std::uint32_t)> in_flight_;
};

constexpr std::uint32_t kStatus = 0x00, kCtrl = 0x08, kTblHi = 0x0C, kLink0 = 0x20;

class RecoverNetwork {
 public:
  RecoverNetwork(const totex::Topology& t, const totex::TdmTables& tables, int periods, const totex::LinkFault& fault,
                 double budget_seconds)
      : t_(t), tables_(tables), periods_(periods), fault_(fault), budget_seconds_(budget_seconds), n_(t.nodes()), p_(tables.tile.ports),
        w_(tables.tile.payload_bits), axi_(at(n_)) {
    ctx_.randReset(2);
    ctx_.fatalOnError(false);
    ctx_.errorLimit(1 << 30);
    const int slot_bits = tables.tile.slot_bits();
    addr_bits_ = std::max(slot_bits, 5) + 3;
    upstream_.assign(at(n_) * at(p_), {-1, 0});
    for (int v = 0; v < n_; ++v)
      for (int i = 0; i < t.degree(v); ++i) {
        const totex::NodeId u = t.neighbor(v, i);
        upstream_[at(v) * at(p_) + at(i)] = {u, *t.port_to(u, v)};
      }
    queue_ = totex::sim::tdm_offer_queues(tables, periods);
    next_.assign(queue_.size(), 0);
    error_from_.assign(at(n_), kNever);
    for (int v = 0; v < n_; ++v) {
      tiles_.push_back(std::make_unique<Tile>(&ctx_, ("t" + std::to_string(v)).c_str()));
      Tile& x = *tiles_.back();
      x.clk_i = 0;
      x.rst_ni = 1;
      x.run_i = 0;
      set_port(x.period_last_i, static_cast<std::uint64_t>(tables.period - 1));
      set_port(x.in_valid_i, 0);
      for (int lsb = 0; lsb < p_ * w_; lsb += 32) set_bits(x.in_data_i, lsb, std::min(32, p_ * w_ - lsb), 0);
      x.s_axis_tvalid = 0;
      x.m_axis_tready = 1;
      x.s_axil_awprot = 0;
      x.s_axil_arprot = 0;
      axi_[at(v)].drive(x, kBefore);
      x.eval();
    }
    totex::sim::reset_tiles(tiles_, [this] { tick(); });
  }
  ~RecoverNetwork() {
    for (auto& x : tiles_) x->final();
  }
  RecoverNetwork(const RecoverNetwork&) = delete;
  RecoverNetwork& operator=(const RecoverNetwork&) = delete;

  /// Every tile's table through its control port into both banks, a reset, the cores' first
  /// messages, a swap now and the priming edges. After the first reset the slot pipeline primes on
  /// bank 0, which nothing has written (Verilator fills it at random; the iCE40's block RAM starts
  /// at zero), and its duplicate-inject check may fire on that garbage and set the sticky error_o
  /// (torus:8x8: node 8 among others) before the table is in. So: the table into the shadow bank 1, swap now,
  /// the table into bank 0 (the shadow now), and a second reset (bank 0 active, error_o and the
  /// counters clear); then the cores offer (a reset drops what a NIC holds), and a swap now to bank
  /// 1 primes the pipeline with period 0's messages waiting. error_o at the end shows the run's
  /// errors only.
  void load() {
    ctx_.assertOn(false);  // on from the second reset: the first priming reads the unwritten bank 0
    for (int v = 0; v < n_; ++v) {
      queue_table(v, tables_, kBefore);
      axi_[at(v)].write(kCtrl, 1, kBefore);  // swap now: the written bank becomes the active one
    }
    std::int64_t c = kBefore;  // counts up with the writes' not_before cycles
    while (!all_idle()) cycle(c++);
    // The swap-now pulse two cycles after the write, then PrimeCycles (2^NodeW + 4) and a margin.
    const int prime = 2 + (1 << tables_.tile.node_bits) + 4 + 8;
    for (int e = 0; e < prime; ++e) cycle(c++);
    for (int v = 0; v < n_; ++v) queue_table(v, tables_, c);  // bank 0, the shadow since the swap now
    while (!all_idle()) cycle(c++);
    for (int e = 0; e < 4; ++e) cycle(c++);
    totex::sim::reset_tiles(tiles_, [this] { tick(); });
    ctx_.assertOn(true);
    offering_ = true;  // the cores offer from here (a reset would drop what a NIC took before)
    for (int e = 0; e < prime; ++e) cycle(c++);
    // The messages offered before the run (period 0's) all taken, one per cycle; then swap now
    // again (bank 1, the same table), so that the priming decides the first slots with them waiting.
    for (int e = 0; e < 2 * n_ && before_run_pending(); ++e) cycle(c++);
    for (int v = 0; v < n_; ++v) axi_[at(v)].write(kCtrl, 1, c);
    while (!all_idle()) cycle(c++);
    for (int e = 0; e < prime; ++e) cycle(c++);
    std::fill(error_from_.begin(), error_from_.end(), kNever);
    for (int v = 0; v < n_; ++v)
      if (tiles_[at(v)]->error_o) errors_.push_back("node " + std::to_string(v) + ": error_o is high after the load");
    missed_before_ = missed();
    // Assertions count from here (none may have fired since the second reset either).
    asserts_at_load_ = ctx_.errorCount();
    if (asserts_at_load_ > 0)
      errors_.push_back(std::to_string(asserts_at_load_) + " RTL assertion(s) fired during the load, after its reset");
  }

  /// The run: `cycles` cycles with run_i high; the controller acts through the AXI4-Lite ports.
  void run(std::int64_t cycles) {
    const std::int64_t P = tables_.period, poll_end = totex::recover_poll_cycles(p_);
    const std::int64_t every = P * totex::recover_poll_stride(p_, tables_.period);
    for (auto& x : tiles_) x->run_i = 1;
    for (std::int64_t c = 0; c < cycles; ++c) {
      if (c + 1 == fault_.period * P) {  // from the fault's first cycle on
        asserts_before_fault_ = ctx_.errorCount() - asserts_at_load_;
        ctx_.assertOn(false);
      }
      if (!planned_ && c >= every && c % every == 0) poll(c);
      if (!planned_ && c >= every && c % every == poll_end) decide((c - poll_end) / P);  // the poll's period
      if (planned_ && c == plan_.period_change_cycle)
        for (auto& x : tiles_) set_port(x->period_last_i, static_cast<std::uint64_t>(plan_.new_period - 1));
      if (planned_ && c == plan_.swap_cycle + plan_.new_period / 2) check_status_after_swap(c);
      if (planned_ && c == check_cycle()) missed_at_check_ = missed() - missed_before_;
      cycle(c);
    }
    // A pause for the counters' pipelines, then every link counter read through the ports.
    for (auto& x : tiles_) x->run_i = 0;
    end_counts_.assign(at(n_) * at(p_), 0);
    for (int v = 0; v < n_; ++v)
      for (int i = 0; i < p_; ++i)
        axi_[at(v)].read(kLink0 + 4U * static_cast<std::uint32_t>(i), cycles + 8,
                         [this, v, i](std::uint32_t d) { end_counts_[at(v) * at(p_) + at(i)] = d; });
    for (std::int64_t c = cycles; c < cycles + 8 || !all_idle(); ++c) cycle(c);
  }

  [[nodiscard]] std::int64_t check_cycle() const { return totex::sim::recover_check_cycle(plan_, periods_); }
  [[nodiscard]] std::uint64_t missed() const {
    std::uint64_t sum = 0;
    for (const auto& x : tiles_) sum += x->missed_o;
    return sum;
  }

  const std::vector<totex::Delivery>& trace() const { return trace_; }
  const std::vector<std::string>& errors() const { return errors_; }
  const totex::RecoveryPlan& plan() const { return plan_; }
  bool planned() const { return planned_; }
  std::uint64_t edges() const { return edges_; }
  std::uint64_t run_edges() const { return run_edges_; }
  int assertions_before_fault() const { return asserts_before_fault_; }
  std::uint64_t missed_at_check() const { return missed_at_check_; }
  std::uint64_t missed_in_run() const { return missed() - missed_before_; }
  const std::vector<std::uint32_t>& end_counts() const { return end_counts_; }
  /// The first cycle tile v's error_o was high (cycles before the run are negative), or nullopt.
  [[nodiscard]] std::optional<std::int64_t> error_from(int v) const {
    if (error_from_[at(v)] == kNever) return std::nullopt;
    return error_from_[at(v)];
  }
  std::vector<int> errors_high() const {
    std::vector<int> v;
    for (int i = 0; i < n_; ++i)
      if (tiles_[at(i)]->error_o) v.push_back(i);
    return v;
  }
  /// What every node took from s_axis, against what it had to.
  totex::sim::TdmRunCounts counts() const { return totex::sim::tdm_offer_counts(queue_, next_, 1); }

 private:
  static constexpr std::int64_t kBefore = totex::sim::kTdmBeforeRun;
  static constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

  /// Whether a tile has not yet taken a message offered from before the run.
  [[nodiscard]] bool before_run_pending() const {
    for (std::size_t v = 0; v < queue_.size(); ++v)
      if (next_[v] < queue_[v].size() && queue_[v][next_[v]].from_cycle == kBefore) return true;
    return false;
  }

  /// Queues node v's table (tables.period entries; with TBL_HI before each where EntryW > 32)
  /// into its shadow bank, the first write not before `from`.
  void queue_table(int v, const totex::TdmTables& tables, std::int64_t from) {
    const std::uint32_t window = 1U << (addr_bits_ - 1);
    const bool hi = tables.tile.entry_bits() > 32;
    const auto words = tables.words(v);
    for (int s = 0; s < tables.period; ++s) {
      const std::uint64_t e = words[at(s)][0];
      if (hi) axi_[at(v)].write(kTblHi, static_cast<std::uint32_t>(e >> 32), from++);
      axi_[at(v)].write(window + 4U * static_cast<std::uint32_t>(s), static_cast<std::uint32_t>(e), from++);
    }
  }

  void poll(std::int64_t c) {
    const std::int64_t k = c / tables_.period;
    poll_counts_.assign(at(n_) * at(p_), 0);
    for (int v = 0; v < n_; ++v) {
      // STATUS first, read in the period's first cycle: the fetch counter runs four slots ahead,
      // so the period fetched next is k + 1.
      axi_[at(v)].read(kStatus, c, [this, v, k](std::uint32_t d) {
        if (((d >> 16) & 0xFF) != static_cast<std::uint32_t>((k + 1) & 0xFF))
          errors_.push_back("node " + std::to_string(v) + ": STATUS at the poll of period " + std::to_string(k) +
                            " says period " + std::to_string((d >> 16) & 0xFF) + " is fetched next, expected " +
                            std::to_string((k + 1) & 0xFF));
      });
      for (int i = 0; i < p_; ++i)
        axi_[at(v)].read(kLink0 + 4U * static_cast<std::uint32_t>(i), c,
                         [this, v, i](std::uint32_t d) { poll_counts_[at(v) * at(p_) + at(i)] = d; });
    }
  }

  /// The poll of period k is in: a count names the link; plan, write, arm.
  void decide(std::int64_t k) {
    const auto named = totex::sim::recover_named_links(t_, p_, poll_counts_, errors_);
    if (named.empty()) return;
    if (named.size() > 1) errors_.push_back("the link counters name " + std::to_string(named.size()) + " links");
    plan_ = totex::plan_link_recovery(t_, tables_, named.begin()->first, named.begin()->second, static_cast<int>(k), budget_seconds_);
    planned_ = true;
    for (int v = 0; v < n_; ++v) {
      queue_table(v, plan_.tables, plan_.write_cycle);
      const std::uint32_t arm = 2U | (static_cast<std::uint32_t>(plan_.swap_period & 0xFF) << 16);
      axi_[at(v)].write(kCtrl, arm, plan_.arm_cycle, [this, v](std::uint32_t taken) {
        if (taken != plan_.arm_cycle)
          errors_.push_back("node " + std::to_string(v) + ": the arm was taken in cycle " + std::to_string(taken) +
                            ", planned for " + std::to_string(plan_.arm_cycle));
      });
    }
    totex::sim::recover_requeue_offers(plan_, tables_.period, periods_, queue_, next_, errors_);
  }

  void check_status_after_swap(std::int64_t c) {
    for (int v = 0; v < n_; ++v)
      axi_[at(v)].read(kStatus, c, [this, v](std::uint32_t d) {
        // The load's last swap now made bank 1 active; the armed swap makes it bank 0.
        if ((d & 0xE) != 0)
          errors_.push_back("node " + std::to_string(v) + ": STATUS after the swap is 0x" + hex(d) +
                            " (expected bank 0, nothing armed, not late)");
      });
  }

  static std::string hex(std::uint32_t d) {
    char b[16];
    std::snprintf(b, sizeof b, "%x", d);
    return b;
  }

  bool all_idle() const {
    return std::all_of(axi_.begin(), axi_.end(), [](const AxiLiteMaster& m) { return m.idle(); });
  }

  /// One cycle: offers and AXI inputs driven, evaluated, beats and handshakes sampled, the edge.
  void cycle(std::int64_t c) {
    now_ = c;
    const int nw = tables_.tile.node_bits;
    std::vector<char> taken(at(n_), 0);
    for (int v = 0; v < n_; ++v) {
      Tile& x = *tiles_[at(v)];
      const auto& q = queue_[at(v)];
      const std::size_t i = next_[at(v)];
      const bool valid = offering_ && i < q.size() && q[i].from_cycle <= c;
      x.s_axis_tvalid = valid;
      if (valid) {
        set_port(x.s_axis_tdest, static_cast<std::uint64_t>(q[i].dst));
        for (int lsb = 0; lsb < w_; lsb += 32)
          set_bits(x.s_axis_tdata, lsb, std::min(32, w_ - lsb),
                   totex::tdm_payload(v, q[i].dst, q[i].period, w_) >> lsb);
      }
      axi_[at(v)].drive(x, c);
      x.eval();
    }
    for (int v = 0; v < n_; ++v) {
      Tile& x = *tiles_[at(v)];
      if (c >= 0 && x.m_axis_tvalid)
        trace_.push_back({c - 2, v, static_cast<totex::NodeId>(bits(x.m_axis_tid, 0, nw)),
                          static_cast<std::uint32_t>(bits(x.m_axis_tdata, 0, std::min(32, w_)))});
      if (x.error_o && error_from_[at(v)] == kNever) error_from_[at(v)] = c;
      taken[at(v)] = x.s_axis_tvalid && x.s_axis_tready;
      axi_[at(v)].sample(x, c);
    }
    tick();
    if (c >= 0) ++run_edges_;
    for (int v = 0; v < n_; ++v) next_[at(v)] += taken[at(v)] ? 1 : 0;
  }

  /// The rising edge on every tile, then the links copied (the stuck link forced) for the next cycle.
  void tick() {
    for (auto& x : tiles_) {
      x->clk_i = 1;
      x->eval();
    }
    const bool stuck = now_ >= 0 && now_ + 1 >= fault_.period * std::int64_t{tables_.period};
    const std::uint64_t ones = w_ >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w_) - 1;
    for (int v = 0; v < n_; ++v) {
      Tile& x = *tiles_[at(v)];
      x.clk_i = 0;
      for (int i = 0; i < p_; ++i) {
        const auto [un, up] = upstream_[at(v) * at(p_) + at(i)];
        const Tile* u = un < 0 ? nullptr : tiles_[at(un)].get();
        const bool failed = stuck && u && ((un == fault_.a && v == fault_.b) || (un == fault_.b && v == fault_.a));
        set_bits(x.in_valid_i, i, 1, failed ? 1 : u ? bits(u->out_valid_o, up, 1) : 0);
        for (int lsb = 0; lsb < w_; lsb += 32) {
          const int width = std::min(32, w_ - lsb);
          set_bits(x.in_data_i, i * w_ + lsb, width, failed ? ones >> lsb : u ? bits(u->out_data_o, up * w_ + lsb, width) : 0);
        }
      }
    }
    for (auto& x : tiles_) x->eval();
    ctx_.timeInc(10);
    ++edges_;
  }

  const totex::Topology& t_;
  const totex::TdmTables& tables_;
  int periods_;
  totex::LinkFault fault_;
  double budget_seconds_;  // --recover-budget: the degraded search's work (0: the default)
  int n_, p_, w_, addr_bits_ = 8;
  VerilatedContext ctx_;
  std::vector<std::unique_ptr<Tile>> tiles_;
  std::vector<AxiLiteMaster> axi_;
  std::vector<std::pair<int, int>> upstream_;
  std::vector<std::vector<totex::sim::TdmOffer>> queue_;
  std::vector<std::size_t> next_;
  std::vector<std::int64_t> error_from_;  // per tile: the first cycle error_o was seen high
  std::vector<totex::Delivery> trace_;
  std::vector<std::string> errors_;
  std::vector<std::uint32_t> poll_counts_, end_counts_;
  totex::RecoveryPlan plan_;
  bool planned_ = false;
  bool offering_ = false;  // the cores offer messages (from the load's second reset on)
  int asserts_before_fault_ = 0, asserts_at_load_ = 0;
  std::int64_t now_ = kBefore;
  std::uint64_t missed_before_ = 0, missed_at_check_ = 0, edges_ = 0, run_edges_ = 0;
};

int recover_main(int argc, char** argv) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<char*> args;
  const totex::RecoveryArgs recovery = totex::take_recovery_args(argc, argv, args);
  const totex::sim::TdmRunSetup setup =
      totex::sim::tdm_run_setup(static_cast<int>(args.size()), args.data(), "tdm_recover");
  const totex::Topology& t = setup.topology;
  const totex::TdmTables tables = totex::recovery_tiles(setup.tables);
  const int periods = setup.periods;
  if (recovery.fault_at.empty()) throw totex::UsageError("tdm_recover: --fault-at PERIOD:A-B is required");
  totex::check_recovery_tables(t, tables);
  const totex::LinkFault fault = totex::parse_fault_at(recovery.fault_at, t, periods);
  const totex::TdmTileParams& p = tables.tile;
  if (p.ports != TOTEX_TDM_PORTS || p.payload_bits != TOTEX_TDM_PAYLOAD || p.node_bits != TOTEX_TDM_NODE_BITS ||
      p.depth != TOTEX_TDM_DEPTH)
    throw totex::UsageError("this model was built for another tile (ports, payload, node bits or depth)");
  // The reference model: what the run must deliver, delivery by delivery.
  const totex::RecoveryReference ref = totex::run_recovery_reference(t, tables, fault, periods, recovery.budget_seconds);

  RecoverNetwork net(t, tables, periods, fault, recovery.budget_seconds);
  net.load();
  const auto run_start = std::chrono::steady_clock::now();
  net.run(ref.run_cycles);
  const double run_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count();

  totex::SimResult r;
  r.engine = "rtl";
  totex::fill_recovery_result(r, ref, net.trace(), periods);
  r.errors.insert(r.errors.end(), net.errors().begin(), net.errors().end());
  if (net.assertions_before_fault() > 0)
    r.errors.push_back(std::to_string(net.assertions_before_fault()) + " RTL assertion(s) fired before the fault");
  totex::sim::RecoverObserved obs;
  if (net.planned()) obs.plan = net.plan();
  obs.missed_at_check = net.missed_at_check();
  obs.missed_in_run = net.missed_in_run();
  obs.counts = net.counts();
  obs.end_counts = net.end_counts();
  obs.errors_high = net.errors_high();
  obs.error_from = [&net](int v) { return net.error_from(v); };
  totex::sim::check_recovery_run(r, t, fault, ref, obs, periods, ref.run_cycles);
  r.simulated_cycles = net.edges();
  r.run_edges = net.run_edges();
  r.run_seconds = run_seconds;
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "TOTEX-RESULT " << totex::sim_result_json(r) << '\n';
  return r.ok() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return totex::sim::harness_main("tdm_recover", [&] { return recover_main(argc, argv); });
}
