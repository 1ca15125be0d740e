// SPDX-License-Identifier: Apache-2.0
/// What the two TDM tile harnesses share (`totex sim --periods K`, docs/tdm-runs.md): the rtl one
/// (sim/tdm_wired_main.cpp, Verilated tiles) and the SystemC one (sim/systemc/tdm_harness.cpp)
/// drive their tiles the same way, so that a run means the same on both:
///   * the arguments (schema::TdmHarnessArgs: tdm --topo T --schedule FILE --periods K [--payload W]
///     [--period P] [--fault F]) and the folded tables;
///   * the offers: each node's messages in the order its table injects them, period by period,
///     slot by slot, on the s_axis lane of the output its slot injects on (all-port: lane o for
///     output o; else one lane); a destination's first Q on a lane (Q the NIC's queue depth, 1
///     unless a pair sends several flits per period) from the load on, each later one from the
///     cycle after the slot that injected the message Q before it on that lane executed (a lane
///     holds Q messages per destination: offered earlier, it would wait at the lane's head and hold
///     back the offers behind it); with Q = 1 that is period k's from the cycle after period k-1's
///     slot for that destination;
///   * the faults of TOTEX_TDM_FAULT (--fault eject|pause|pauses) and the pause sequence;
///   * the checks after the run (every message taken, missed at the end of period K-1 and at the
///     end, the tiles' error outputs).
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "harness_exit.hpp"
#include "totex/hw_schema.hpp"
#include "totex/error.hpp"
#include "totex/io/schedule_io.hpp"
#include "totex/network/spec.hpp"
#include "totex/tdm_run.hpp"
#include "totex/tdm_tables.hpp"
#include "totex/verify/message_index.hpp"

namespace totex::sim {

/// A harness's run: the network, its folded tables, K, the fault to inject ("" none, eject, pause
/// or pauses: TOTEX_TDM_FAULT as the CLI read it, --fault here).
struct TdmRunSetup {
  Topology topology;
  TdmTables tables;
  int periods = 1;
  std::string fault;
  /// The traffic the schedule records (recorded_traffic: read again from its spec, digest
  /// checked), nullopt for all: the scoreboard's pairs. The offers need nothing from it: a node
  /// offers what its table injects, which for a traffic schedule is the traffic's pairs.
  std::optional<Traffic> traffic;
  [[nodiscard]] const Traffic* traffic_or_null() const { return traffic ? &*traffic : nullptr; }
};

/// Parses the harness's arguments (schema::TdmHarnessArgs) and folds the schedule (a usage error
/// for anything wrong).
inline TdmRunSetup tdm_run_setup(int argc, char** argv, const std::string& name) {
  const schema::TdmHarnessArgs a = schema::parse_argv<schema::TdmHarnessArgs>(argc, argv, name);
  const Topology t = parse_topology(a.topo);
  const LoadedSchedule loaded = read_schedule_file(a.schedule);
  const auto* s = std::get_if<Schedule>(&loaded.schedule);
  if (!s) throw UsageError("the TDM tile runs step schedules of direct networks");
  if (parse_topology(s->topology).spec() != t.spec())
    throw UsageError("the schedule is for " + s->topology + ", this run for " + t.spec());
  std::optional<Traffic> traffic = recorded_traffic(t, *s);
  return {t, tdm_tables(t, *s, a.period, a.payload), a.periods,
          a.fault == schema::TdmFault::None ? std::string() : schema::enum_name(a.fault), std::move(traffic)};
}

/// One message a node offers: its period, destination, the first run cycle it may be offered in,
/// and its flit number in the pair's message of the period (TdmTables::last_hop; 0 for one flit).
struct TdmOffer {
  std::int64_t period;
  int dst;
  std::int64_t from_cycle;
  int flit = 0;
};

/// The payload node v offers as `o` (tdm_payload of its flit).
inline std::uint64_t tdm_offer_payload(const TdmTables& tables, NodeId v, const TdmOffer& o) {
  return tdm_payload(v, o.dst, tdm_flit_index(tables, o.period, o.flit), tables.tile.payload_bits);
}
inline constexpr std::int64_t kTdmBeforeRun = -(std::int64_t{1} << 40);  // a cycle before the run

/// [v * lanes + l]: what node v offers on lane l, in order.
inline std::vector<std::vector<TdmOffer>> tdm_offer_queues(const TdmTables& tables, int periods) {
  const int lanes = tables.tile.lanes(), ports = tables.tile.ports;
  const auto depth = static_cast<std::size_t>(tables.tile.queue_depth);
  std::vector<std::vector<TdmOffer>> queue(tables.entries.size() * static_cast<std::size_t>(lanes));
  for (std::size_t v = 0; v < tables.entries.size(); ++v) {
    // [lane * N + dst]: the cycles the lane's slots for dst execute
    std::vector<std::vector<std::int64_t>> injected(tables.entries.size() * static_cast<std::size_t>(lanes));
    for (std::int64_t k = 0; k < periods; ++k)
      for (int slot = 0; slot < tables.period; ++slot) {
        const TdmEntry& e = tables.entries[v][static_cast<std::size_t>(slot)];
        for (int o = 0; o < ports; ++o) {
          if (e.out_sel[static_cast<std::size_t>(o)] != ports + 1) continue;
          const bool all_port = tables.tile.kind == TileKind::AllPort;
          const int lane = all_port ? o : 0;
          const int dst = all_port ? e.inject_dsts[static_cast<std::size_t>(o)] : e.inject_dst;
          std::vector<std::int64_t>& before =
              injected[static_cast<std::size_t>(lane) * tables.entries.size() + static_cast<std::size_t>(dst)];
          const std::int64_t from = before.size() < depth ? kTdmBeforeRun : before[before.size() - depth] + 1;
          const int flit = tables.inject_flit[v][static_cast<std::size_t>(slot * lanes + lane)];
          queue[v * static_cast<std::size_t>(lanes) + static_cast<std::size_t>(lane)].push_back({k, dst, from, flit});
          before.push_back(k * tables.period + slot);
          if (!all_port) break;
        }
      }
  }
  return queue;
}

/// Every node's table words as loaded: TOTEX_TDM_FAULT=eject takes the first ejecting slot's eject
/// away at node 0, or at the lowest node that ejects anything (a traffic may send node 0 nothing:
/// the fault is never a no-op) (a message is never delivered and its flit is left on the input,
/// or, on the single-port tile, received and neither sent nor stored).
inline std::vector<std::vector<std::vector<std::uint64_t>>> tdm_load_words(const TdmTables& tables,
                                                                            const std::string& fault) {
  std::vector<std::vector<std::vector<std::uint64_t>>> words;
  for (std::size_t v = 0; v < tables.entries.size(); ++v) words.push_back(tables.words(static_cast<NodeId>(v)));
  if (fault != "eject") return words;
  for (std::size_t v = 0; v < tables.entries.size(); ++v)
    for (int slot = 0; slot < tables.period; ++slot) {
      TdmEntry e = tables.entries[v][static_cast<std::size_t>(slot)];
      const auto ejecting = std::find_if(e.eject_srcs.begin(), e.eject_srcs.end(), [](int src) { return src >= 0; });
      if (e.eject_sel == 0 && ejecting == e.eject_srcs.end()) continue;
      e.eject_sel = 0;
      if (e.recv_act == 1) e.recv_act = 0;
      if (ejecting != e.eject_srcs.end()) *ejecting = -1;
      words[v][static_cast<std::size_t>(slot)] = encode_tdm_entry(e, tables.tile);
      return words;
    }
  throw UsageError("TOTEX_TDM_FAULT=eject: no node ejects anything, there is no eject to take away");
}

/// When run is low: TOTEX_TDM_FAULT=pause holds it low for one cycle in the middle of the second
/// period (a fault: every later delivery one cycle late); pauses holds it low in about one cycle
/// in eight (a fixed pseudo-random sequence; not a fault: the run is then counted in executed
/// slots, and a tile that pauses as its contract says passes it exactly).
class TdmPauses {
 public:
  TdmPauses(const std::string& fault, int period)
      : pause_(fault == "pause" ? period + period / 2 : -1), random_(fault == "pauses") {}
  /// Whether run cycle c executes a slot; advances the sequence.
  bool executes(std::int64_t c) {
    if (!random_) return c != pause_;
    lcg_ = lcg_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return (lcg_ >> 61) != 0;
  }
  /// Whether the run is counted in executed slots (pauses) rather than cycles.
  [[nodiscard]] bool counts_slots() const { return random_; }

 private:
  std::int64_t pause_;
  bool random_;
  std::uint64_t lcg_ = 0x2545F4914F6CDD1DULL;
};

/// What a harness counted in its run.
struct TdmRunCounts {
  std::vector<std::size_t> offered, to_offer;  // per node, all lanes
  std::uint64_t missed_at_check = 0;           // missed when period K-1's last slot had passed
  std::uint64_t missed_in_run = 0;             // at the end
  int errors_high = 0;                         // tiles with error high
};

/// The messages each node's lanes took and had to take (queue and next: [v * lanes + l]); the
/// harness adds missed and errors_high.
inline TdmRunCounts tdm_offer_counts(const std::vector<std::vector<TdmOffer>>& queue,
                                     const std::vector<std::size_t>& next, int lanes) {
  TdmRunCounts c;
  const auto per_node = static_cast<std::size_t>(lanes);
  for (std::size_t q = 0; q < queue.size(); ++q) {
    if (q % per_node == 0) {
      c.offered.push_back(0);
      c.to_offer.push_back(0);
    }
    c.offered.back() += next[q];
    c.to_offer.back() += queue[q].size();
  }
  return c;
}

/// The checks after the run, added to r.errors. `suffix` is the ports' ("_o" on the RTL).
inline void tdm_check_counts(SimResult& r, const TdmTables& tables, int periods, std::int64_t cycles,
                             std::int64_t check, const TdmRunCounts& c, const std::string& suffix) {
  for (std::size_t v = 0; v < c.offered.size(); ++v)
    if (c.offered[v] != c.to_offer[v])
      r.errors.push_back("node " + std::to_string(v) + ": the tile took " + std::to_string(c.offered[v]) + " of its " +
                         std::to_string(c.to_offer[v]) + " messages from s_axis");
  if (c.missed_at_check != 0)
    r.errors.push_back("missed" + suffix + " counts " + std::to_string(c.missed_at_check) +
                       " slots without a waiting message within the " + std::to_string(periods) +
                       " periods (each message was offered from the cycle after its destination's previous slot: a "
                       "period of " + std::to_string(tables.period) +
                       " slots may be shorter than the tile's offer-to-inject latency; docs/tdm-runs.md, Limits)");
  // After period K-1 nothing is offered: every inject slot decided by the end is missed (slots
  // executing in cycles K*P .. cycles, decided one cycle before).
  std::uint64_t idle_slots = 0;
  for (std::int64_t cycle = check + 1; cycle <= cycles; ++cycle)
    for (const auto& node : tables.entries)
      idle_slots += static_cast<std::uint64_t>(tables.inject_decisions(node[static_cast<std::size_t>(cycle % tables.period)]));
  if (c.missed_in_run != idle_slots)
    r.errors.push_back("missed" + suffix + " counts " + std::to_string(c.missed_in_run) + " at the end, expected " +
                       std::to_string(idle_slots) + " (the inject slots after the last period, with nothing offered)");
  if (c.errors_high > 0) r.errors.push_back(std::to_string(c.errors_high) + " tile(s) raised error" + suffix);
}

}  // namespace totex::sim
