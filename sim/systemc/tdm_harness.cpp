// SPDX-License-Identifier: Apache-2.0
#include "tdm_harness.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "harness_exit.hpp"
#include "model_check.hpp"
#include "tdm_network.hpp"
#include "totex/error.hpp"
#include "totex/io/schedule_io.hpp"
#include "totex/network/spec.hpp"
#include "totex/tdm_run.hpp"
#include "totex/tdm_tables.hpp"

namespace totex::sim {

namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }

/// One message a node offers: its period, destination and the first run cycle it may be offered
/// in (as sim/tdm_wired_main.cpp: period 0 from the load on, period k >= 1 from the cycle after
/// period k-1's slot for the destination executed).
struct Offer {
  std::int64_t period;
  int dst;
  std::int64_t from_cycle;
};

/// The SystemC network driven cycle by cycle; the same steps, offers and checks as the rtl
/// harness's TdmNetwork.
class TdmRun {
 public:
  TdmRun(const Topology& t, const TdmTables& tables, int periods, ModelChecks& checks)
      : tables_(tables), n_(t.nodes()), p_(tables.tile.ports), w_(tables.tile.payload_bits),
        net_(std::make_unique<TdmNetwork>("tdm", t, tables.tile, checks)) {
    queue_.resize(at(n_));
    for (int v = 0; v < n_; ++v)
      for (std::int64_t k = 0; k < periods; ++k)
        for (int slot = 0; slot < tables.period; ++slot) {
          const TdmEntry& e = tables.entries[at(v)][at(slot)];
          if (std::count(e.out_sel.begin(), e.out_sel.end(), p_ + 1) > 0)
            queue_[at(v)].push_back({k, e.inject_dst, k == 0 ? kBeforeRun : (k - 1) * tables.period + slot + 1});
        }
    net_->period_last.write(tables.period - 1);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    // Reset as the rtl harness: asserted, two rising edges, released.
    net_->rst_n.write(false);
    tick();
    tick();
    net_->rst_n.write(true);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }

  std::string fault;

  /// Every tile's table through the write port, one slot per edge, all tiles at once, while the
  /// messages are offered.
  void load() {
    std::vector<std::vector<std::vector<std::uint64_t>>> words;
    for (int v = 0; v < n_; ++v) words.push_back(tables_.words(v));
    if (fault == "eject")
      for (int slot = 0; slot < tables_.period; ++slot) {
        TdmEntry e = tables_.entries[0][at(slot)];
        if (e.eject_sel == 0) continue;
        e.eject_sel = 0;
        words[0][at(slot)] = encode_tdm_entry(e, tables_.tile);
        break;
      }
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

  /// `cycles` cycles with run high (cycle 0 executes slot 0); on_eject(cycle, node, src, payload)
  /// for every m_axis beat with the cycle it is on m_axis; missed noted when cycle `missed_check`
  /// starts; then a few paused edges for the counters to settle.
  template <class OnEject>
  void run(std::int64_t cycles, std::int64_t missed_check, OnEject on_eject) {
    const std::int64_t pause = fault == "pause" ? tables_.period + tables_.period / 2 : -1;
    for (std::int64_t c = 0; c < cycles; ++c) {
      now_ = c;
      net_->run.write(c != pause);
      offer();
      if (c == missed_check) missed_at_check_ = missed() - missed_before_;
      for (int v = 0; v < n_; ++v)
        if (net_->m_tvalid[at(v)].read())
          on_eject(c, v, static_cast<NodeId>(net_->m_tid[at(v)].read()), net_->m_tdata[at(v)].read());
      clock_offered();
      ++run_edges_;
    }
    if (missed_check >= cycles) missed_at_check_ = missed() - missed_before_;
    net_->run.write(false);
    for (int e = 0; e < kSettleEdges; ++e) {
      offer();
      clock_offered();
    }
  }
  static constexpr int kSettleEdges = 4;

  [[nodiscard]] std::uint64_t missed() const {
    std::uint64_t sum = 0;
    for (int v = 0; v < n_; ++v) sum += net_->missed[at(v)].read();
    return sum;
  }
  [[nodiscard]] std::uint64_t missed_in_run() const { return missed() - missed_before_; }
  [[nodiscard]] std::uint64_t missed_at_check() const { return missed_at_check_; }
  [[nodiscard]] int errors_high() const {
    int count = 0;
    for (int v = 0; v < n_; ++v) count += net_->error[at(v)].read() ? 1 : 0;
    return count;
  }
  [[nodiscard]] std::size_t offered(int v) const { return next_[at(v)]; }
  [[nodiscard]] std::size_t to_offer(int v) const { return queue_[at(v)].size(); }
  [[nodiscard]] std::uint64_t edges() const { return edges_; }
  [[nodiscard]] std::uint64_t run_edges() const { return run_edges_; }

 private:
  /// Drives every node's s_axis with the next message it has to offer (held until taken).
  void offer() {
    for (int v = 0; v < n_; ++v) {
      const std::size_t i = next_[at(v)];
      if (i < queue_[at(v)].size() && queue_[at(v)][i].from_cycle <= now_) {
        const Offer& o = queue_[at(v)][i];
        offering_[at(v)] = 1;
        net_->s_tvalid[at(v)].write(true);
        net_->s_tdest[at(v)].write(o.dst);
        net_->s_tdata[at(v)].write(tdm_payload(v, o.dst, o.period, w_));
      } else {
        offering_[at(v)] = 0;
        net_->s_tvalid[at(v)].write(false);
      }
    }
  }
  /// One rising edge; the offers it samples with tvalid && tready are taken (tready is a register:
  /// its value now is the one the edge samples; tvalid is what offer() just wrote).
  void clock_offered() {
    std::vector<char> taken(at(n_), 0);
    for (int v = 0; v < n_; ++v) taken[at(v)] = offering_[at(v)] && net_->s_tready[at(v)].read();
    tick();
    for (int v = 0; v < n_; ++v) next_[at(v)] += taken[at(v)] ? 1U : 0U;
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
  int n_, p_, w_;
  std::unique_ptr<TdmNetwork> net_;
  std::vector<std::vector<Offer>> queue_;
  std::vector<std::size_t> next_ = std::vector<std::size_t>(at(n_), 0);
  std::vector<char> offering_ = std::vector<char>(at(n_), 0);  // s_tvalid as offer() wrote it
  static constexpr std::int64_t kBeforeRun = -(std::int64_t{1} << 40);
  std::int64_t now_ = kBeforeRun;
  std::uint64_t missed_before_ = 0, missed_at_check_ = 0, edges_ = 0, run_edges_ = 0;
};

int run_main(int argc, char** argv) {
  std::map<std::string, std::string> a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    if (key.rfind("--", 0) != 0) throw UsageError("unexpected argument '" + key + "'");
    a[key.substr(2)] = argv[i + 1];
  }
  if (argc % 2 == 0 || !a.count("topo") || !a.count("schedule") || !a.count("periods"))
    throw UsageError("usage: totex_systemc --topo T --schedule FILE --periods K [--payload W] [--period P]");
  const auto start = std::chrono::steady_clock::now();
  const Topology t = parse_topology(a.at("topo"));
  const int periods = std::stoi(a.at("periods"));
  const int payload = a.count("payload") ? std::stoi(a.at("payload")) : 32;
  if (periods < 1) throw UsageError("--periods must be at least 1");
  const LoadedSchedule loaded = read_schedule_file(a.at("schedule"));
  const auto* s = std::get_if<Schedule>(&loaded.schedule);
  if (!s) throw UsageError("the TDM tile runs step schedules of direct networks");
  if (parse_topology(s->topology).spec() != t.spec())
    throw UsageError("the schedule is for " + s->topology + ", this run for " + t.spec());
  const TdmTables tables = tdm_tables(t, *s, a.count("period") ? std::stoi(a.at("period")) : 0, payload);
  const TdmTileParams& p = tables.tile;

  ModelChecks checks("systemc");
  TdmRun net(t, tables, periods, checks);
  const char* fault = std::getenv("TOTEX_TDM_FAULT");
  net.fault = fault ? fault : "";
  if (net.fault != "" && net.fault != "eject" && net.fault != "pause")
    throw UsageError("TOTEX_TDM_FAULT=" + net.fault + ": accepted values are eject and pause (unset: none)");
  net.load();
  // The rtl harness's priming: PrimeCycles plus a margin of 8 edges.
  net.preload(TdmTile::prime_cycles(p.node_bits) + 8);
  // Delivery cycle k*P + t_last + 1 (one register per hop); m_axis is registered, so the beat is
  // one cycle later and the scoreboard gets its cycle minus 1.
  constexpr int kLatency = 1;
  constexpr int kEjectRegister = 1;
  TdmScoreboard board(t, tables, periods, kLatency);
  const std::int64_t cycles = board.expected_cycles() + kEjectRegister + 8;
  const std::int64_t check = static_cast<std::int64_t>(periods) * tables.period - 1;
  const auto run_start = std::chrono::steady_clock::now();
  net.run(cycles, check, [&](std::int64_t cycle, int node, NodeId src, std::uint64_t payload_seen) {
    board.observe(cycle - kEjectRegister, node, src, payload_seen);
  });
  const double run_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count();
  board.finish();
  SimResult r;
  r.engine = "systemc";
  board.fill(r);
  for (int v = 0; v < t.nodes(); ++v)
    if (net.offered(v) != net.to_offer(v))
      r.errors.push_back("node " + std::to_string(v) + ": the tile took " + std::to_string(net.offered(v)) + " of its " +
                         std::to_string(net.to_offer(v)) + " messages from s_axis");
  if (net.missed_at_check() != 0)
    r.errors.push_back("missed counts " + std::to_string(net.missed_at_check()) +
                       " slots without a waiting message within the " + std::to_string(periods) +
                       " periods (each message was offered from the cycle after its destination's previous slot: a "
                       "period of " + std::to_string(tables.period) +
                       " slots may be shorter than the tile's offer-to-inject latency; docs/tdm-runs.md, Limits)");
  std::uint64_t idle_slots = 0;
  for (std::int64_t c = check + 1; c <= cycles; ++c)
    for (int v = 0; v < t.nodes(); ++v) {
      const TdmEntry& e = tables.entries[at(v)][static_cast<std::size_t>(c % tables.period)];
      idle_slots += std::count(e.out_sel.begin(), e.out_sel.end(), p.ports + 1) > 0 ? 1U : 0U;
    }
  if (net.missed_in_run() != idle_slots)
    r.errors.push_back("missed counts " + std::to_string(net.missed_in_run()) + " at the end, expected " +
                       std::to_string(idle_slots) + " (the inject slots after the last period, with nothing offered)");
  if (net.errors_high() > 0) r.errors.push_back(std::to_string(net.errors_high()) + " tile(s) raised error");
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
