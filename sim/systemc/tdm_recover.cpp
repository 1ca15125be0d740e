// SPDX-License-Identifier: Apache-2.0
#include "tdm_recover.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "harness_exit.hpp"
#include "model_check.hpp"
#include "recover_check.hpp"
#include "tdm_drive.hpp"
#include "tdm_network.hpp"
#include "totex/error.hpp"
#include "totex/link_recovery.hpp"
#include "totex/tdm_run.hpp"
#include "totex/tdm_tables.hpp"

namespace totex::sim {

namespace {

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

/// The SystemC network and the recovery controller, cycle by cycle.
class RecoverRun {
 public:
  RecoverRun(const Topology& t, const TdmTables& tables, int periods, const LinkFault& fault, double budget_seconds,
             ModelChecks& checks)
      : t_(t), tables_(tables), periods_(periods), fault_(fault), budget_seconds_(budget_seconds), checks_(checks), n_(t.nodes()), p_(tables.tile.ports),
        w_(tables.tile.payload_bits), words_((tables.tile.entry_bits() + 63) / 64),
        net_(std::make_unique<TdmNetwork>("tdm", t, tables.tile, checks, true, std::pair{fault.a, fault.b})),
        queue_(tdm_offer_queues(tables, periods)), next_(queue_.size(), 0), offering_(queue_.size(), 0),
        error_from_(at(n_), kNever) {
    net_->period_last.write(tables.period - 1);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    net_->rst_n.write(false);
    tick();
    tick();
    net_->rst_n.write(true);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }

  /// The table into the shadow bank (bank 1; bank 0 holds idle entries, the SystemC table starts at
  /// zero), the cores' first messages taken while bank 0 primes (it decides nothing), then a swap
  /// now (bank 1, the table) primes with period 0's messages waiting: the rtl harness's load ends
  /// in the same state (bank 1 active, error and counters clear), without its resets.
  void load() {
    const auto words = tdm_load_words(tables_, "");
    std::int64_t c = kTdmBeforeRun;
    for (int s = 0; s < tables_.period; ++s) {
      net_->sh_we.write(true);
      net_->sh_addr.write(s);
      for (int v = 0; v < n_; ++v)
        for (int w = 0; w < words_; ++w) net_->sh_data[at(v * words_ + w)].write(words[at(v)][at(s)][at(w)]);
      cycle(c);
    }
    net_->sh_we.write(false);
    offering_on_ = true;
    const int prime = TdmTile::prime_cycles(tables_.tile.node_bits) + 8;
    for (int e = 0; e < prime; ++e) cycle(c);
    for (int e = 0; e < 2 * n_ && before_run_pending(); ++e) cycle(c);
    net_->tbl_we.write(true);  // swap now
    cycle(c);
    net_->tbl_we.write(false);
    for (int e = 0; e < prime; ++e) cycle(c);
    std::fill(error_from_.begin(), error_from_.end(), kNever);
    for (int v = 0; v < n_; ++v) {
      if (net_->error[at(v)].read()) errors_.push_back("node " + std::to_string(v) + ": error is high after the load");
      if (!net_->bank[at(v)].read()) errors_.push_back("node " + std::to_string(v) + ": bank 0 is active after the load");
    }
    missed_before_ = missed();
    checks_at_load_ = checks_.count();
    if (checks_at_load_ > 0) errors_.push_back(std::to_string(checks_at_load_) + " model check(s) failed during the load");
  }

  /// The run: `cycles` cycles with run high; the controller polls, plans, writes and arms.
  void run(std::int64_t cycles) {
    const std::int64_t P = tables_.period, poll_end = recover_poll_cycles(p_);
    const std::int64_t every = P * recover_poll_stride(p_, tables_.period);
    net_->run.write(true);
    std::int64_t c = 0;
    while (c < cycles) {
      if (c == fault_.period * P) {  // the stuck link from the fault's first cycle on
        checks_before_fault_ = checks_.count() - checks_at_load_;
        checks_.enable(false);  // the stuck link's receivers leave flits by design; the counters and the trace check the rest
        net_->stuck_on.write(true);
      }
      if (!plan_ && c >= every && c % every == 0) poll(c);
      if (!plan_ && c >= every && c % every == poll_end) decide((c - poll_end) / P);
      if (plan_) {
        if (c == plan_->period_change_cycle) net_->period_last.write(plan_->new_period - 1);
        if (c == plan_->swap_cycle + plan_->new_period / 2) status_after_ = c;  // STATUS read in cycle c (its AR cycle's value)
        if (c == recover_check_cycle(*plan_, periods_)) missed_at_check_ = missed() - missed_before_;
        drive_writes(c);
      }
      sample_reads(c);
      cycle(c);
    }
    net_->run.write(false);
    net_->sh_we.write(false);
    net_->arm.write(false);
    for (int e = 0; e < kSettleEdges; ++e) cycle(c);
    end_counts_.assign(at(n_) * at(p_), 0);
    for (std::size_t q = 0; q < end_counts_.size(); ++q) end_counts_[q] = net_->link_cnt[q].read();
  }
  static constexpr int kSettleEdges = 8;  // as the rtl harness's pause before its counter reads

  [[nodiscard]] RecoverObserved observed() const {
    RecoverObserved o;
    o.plan = plan_;
    o.missed_at_check = missed_at_check_;
    o.missed_in_run = missed() - missed_before_;
    o.counts = tdm_offer_counts(queue_, next_, 1);
    o.end_counts = end_counts_;
    for (int v = 0; v < n_; ++v)
      if (net_->error[at(v)].read()) o.errors_high.push_back(v);
    o.error_from = [this](int v) -> std::optional<std::int64_t> {
      if (error_from_[at(v)] == kNever) return std::nullopt;
      return error_from_[at(v)];
    };
    return o;
  }
  const std::vector<Delivery>& trace() const { return trace_; }
  const std::vector<std::string>& errors() const { return errors_; }
  int checks_before_fault() const { return checks_before_fault_; }
  std::uint64_t edges() const { return edges_; }
  std::uint64_t run_edges() const { return run_edges_; }

 private:
  static constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
  /// A register read, as the rtl's (R two cycles after AR): STATUS the value of its AR's cycle
  /// (the port samples the tile's status every cycle), a link counter that of the cycle after.
  struct Read {
    std::int64_t cycle;
    int node, reg;  // reg -1: STATUS; i >= 0: LINK i
    std::int64_t poll_period;
  };

  [[nodiscard]] std::uint64_t missed() const {
    std::uint64_t sum = 0;
    for (int v = 0; v < n_; ++v) sum += net_->missed[at(v)].read();
    return sum;
  }

  [[nodiscard]] bool before_run_pending() const {
    for (std::size_t v = 0; v < queue_.size(); ++v)
      if (next_[v] < queue_[v].size() && queue_[v][next_[v]].from_cycle == kTdmBeforeRun) return true;
    return false;
  }

  /// The poll from cycle c: STATUS then LINK 0..P-1, one read per kRecoverReadCycles cycles.
  void poll(std::int64_t c) {
    const std::int64_t k = c / tables_.period;
    poll_counts_.assign(at(n_) * at(p_), 0);
    for (int v = 0; v < n_; ++v)
      for (int j = 0; j <= p_; ++j) reads_.push_back({c + kRecoverReadCycles * j + (j == 0 ? 0 : 1), v, j - 1, k});
  }

  void sample_reads(std::int64_t c) {
    for (const Read& r : reads_) {
      if (r.cycle != c) continue;
      if (r.reg >= 0) {
        poll_counts_[at(r.node) * at(p_) + at(r.reg)] = net_->link_cnt[at(r.node) * at(p_) + at(r.reg)].read();
        continue;
      }
      // STATUS read in the period's first cycle: the fetch counter runs four slots ahead, so the
      // period fetched next is k + 1.
      const int per = net_->next_per[at(r.node)].read();
      if (per != static_cast<int>((r.poll_period + 1) & 0xFF))
        errors_.push_back("node " + std::to_string(r.node) + ": STATUS at the poll of period " +
                          std::to_string(r.poll_period) + " says period " + std::to_string(per) +
                          " is fetched next, expected " + std::to_string((r.poll_period + 1) & 0xFF));
    }
    reads_.erase(std::remove_if(reads_.begin(), reads_.end(), [c](const Read& r) { return r.cycle <= c; }), reads_.end());
  }

  /// The poll of period k is in: a count names the link; plan.
  void decide(std::int64_t k) {
    const auto named = recover_named_links(t_, p_, poll_counts_, errors_);
    if (named.empty()) return;
    if (named.size() > 1) errors_.push_back("the link counters name " + std::to_string(named.size()) + " links");
    plan_ = plan_link_recovery(t_, tables_, named.begin()->first, named.begin()->second, static_cast<int>(k), budget_seconds_);
    new_words_ = tdm_load_words(plan_->tables, "");
    recover_requeue_offers(*plan_, tables_.period, periods_, queue_, next_, errors_);
  }

  /// The shadow writes and the arm as the rtl controller's AXI4-Lite writes take effect: write j of
  /// a tile (TBL_HI before each entry where EntryW > 32) is taken in cycle write_cycle + j and
  /// written in the next; the arm, taken in arm_cycle, pulses two cycles later.
  void drive_writes(std::int64_t c) {
    const int per_entry = plan_->writes / plan_->new_period;
    const std::int64_t j = c - 1 - plan_->write_cycle;
    const bool we = j >= 0 && j < plan_->writes && (j + 1) % per_entry == 0;
    net_->sh_we.write(we);
    if (we) {
      const int s = static_cast<int>(j / per_entry);
      net_->sh_addr.write(s);
      for (int v = 0; v < n_; ++v)
        for (int w = 0; w < words_; ++w) net_->sh_data[at(v * words_ + w)].write(new_words_[at(v)][at(s)][at(w)]);
    }
    const bool arm = c == plan_->arm_cycle + 2;
    net_->arm.write(arm);
    if (arm) net_->arm_per.write(plan_->swap_period & 0xFF);
  }

  /// One cycle: offers driven, beats and registers sampled, the edge.
  void cycle(std::int64_t& c) {
    for (std::size_t q = 0; q < queue_.size(); ++q) {
      const std::size_t i = next_[q];
      offering_[q] = offering_on_ && i < queue_[q].size() && queue_[q][i].from_cycle <= c ? 1 : 0;
      net_->s_tvalid[q].write(offering_[q] != 0);
      if (!offering_[q]) continue;
      const TdmOffer& o = queue_[q][i];
      net_->s_tdest[q].write(o.dst);
      net_->s_tdata[q].write(tdm_payload(static_cast<NodeId>(q), o.dst, o.period, w_));
    }
    for (int v = 0; v < n_; ++v) {
      if (c >= 0 && net_->m_tvalid[at(v)].read())
        trace_.push_back({c - 2, v, static_cast<NodeId>(net_->m_tid[at(v)].read()),
                          static_cast<std::uint32_t>(net_->m_tdata[at(v)].read() & 0xFFFFFFFFU)});
      if (net_->error[at(v)].read() && error_from_[at(v)] == kNever) error_from_[at(v)] = c;
      if (c == status_after_ && (net_->bank[at(v)].read() || net_->armed[at(v)].read() || net_->late[at(v)].read()))
        errors_.push_back("node " + std::to_string(v) + ": after the swap the bank is " +
                          std::to_string(net_->bank[at(v)].read() ? 1 : 0) + ", armed " +
                          std::to_string(net_->armed[at(v)].read() ? 1 : 0) + ", late " +
                          std::to_string(net_->late[at(v)].read() ? 1 : 0) + " (expected bank 0, nothing armed, not late)");
    }
    std::vector<char> taken(queue_.size(), 0);
    for (std::size_t q = 0; q < queue_.size(); ++q) taken[q] = offering_[q] && net_->s_tready[q].read();
    tick();
    if (c >= 0) ++run_edges_;
    for (std::size_t q = 0; q < queue_.size(); ++q) next_[q] += taken[q] ? 1U : 0U;
    ++c;
  }

  void tick() {
    net_->clk.write(false);
    sc_core::sc_start(5, sc_core::SC_NS);
    net_->clk.write(true);
    sc_core::sc_start(5, sc_core::SC_NS);
    ++edges_;
  }

  const Topology& t_;
  const TdmTables& tables_;
  int periods_;
  LinkFault fault_;
  double budget_seconds_;  // --recover-budget: the degraded search's work (0: the default)
  ModelChecks& checks_;
  int n_, p_, w_, words_;
  std::unique_ptr<TdmNetwork> net_;
  std::vector<std::vector<TdmOffer>> queue_;
  std::vector<std::size_t> next_;
  std::vector<char> offering_;
  bool offering_on_ = false;
  std::vector<std::int64_t> error_from_;
  std::vector<Delivery> trace_;
  std::vector<std::string> errors_;
  std::vector<Read> reads_;
  std::vector<std::uint32_t> poll_counts_, end_counts_;
  std::optional<RecoveryPlan> plan_;
  std::vector<std::vector<std::vector<std::uint64_t>>> new_words_;
  std::int64_t status_after_ = -1;  // STATUS after the swap, sampled here: bank 0 (the load left bank 1), nothing armed, not late
  int checks_at_load_ = 0, checks_before_fault_ = 0;
  std::uint64_t missed_before_ = 0, missed_at_check_ = 0, edges_ = 0, run_edges_ = 0;
};

int run_main(int argc, char** argv) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<char*> args;
  const RecoveryArgs recovery = take_recovery_args(argc, argv, args);
  const TdmRunSetup setup = tdm_run_setup(static_cast<int>(args.size()), args.data(), "totex_systemc");
  const Topology& t = setup.topology;
  const TdmTables tables = recovery_tiles(setup.tables);
  const int periods = setup.periods;
  if (recovery.fault_at.empty()) throw UsageError("totex_systemc tdm: --fault-at PERIOD:A-B is required for a recovery run");
  check_recovery_tables(t, tables);
  const LinkFault fault = parse_fault_at(recovery.fault_at, t, periods);
  const RecoveryReference ref = run_recovery_reference(t, tables, fault, periods, recovery.budget_seconds);

  ModelChecks checks("systemc");
  RecoverRun net(t, tables, periods, fault, recovery.budget_seconds, checks);
  net.load();
  const auto run_start = std::chrono::steady_clock::now();
  net.run(ref.run_cycles);
  const double run_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count();

  SimResult r;
  r.engine = "systemc";
  fill_recovery_result(r, ref, net.trace(), periods);
  r.errors.insert(r.errors.end(), net.errors().begin(), net.errors().end());
  if (net.checks_before_fault() > 0)
    r.errors.push_back(std::to_string(net.checks_before_fault()) + " model check(s) failed before the fault");
  check_recovery_run(r, t, fault, ref, net.observed(), periods, ref.run_cycles);
  r.simulated_cycles = net.edges();
  r.run_edges = net.run_edges();
  r.run_seconds = run_seconds;
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "TOTEX-RESULT " << sim_result_json(r) << '\n';
  return r.ok() ? 0 : 1;
}

}  // namespace

int tdm_recover_systemc_main(int argc, char** argv) {
  return harness_main("tdm recovery systemc harness", [&] { return run_main(argc, argv); });
}

}  // namespace totex::sim
