// SPDX-License-Identifier: Apache-2.0
/// The recovery controller's decisions and the recovery run's checks, shared by the rtl harness
/// (sim/tdm_recover_main.cpp: Verilated ctl tiles behind AXI4-Lite ports) and the SystemC one
/// (sim/systemc/tdm_recover.cpp: the SystemC tiles' shadow bank and armed swap written as timed
/// register writes). Both engines name the link from the counters the same way, requeue the cores'
/// offers after the swap the same way and check the same things against the reference model
/// (totex/link_recovery.hpp: run_recovery_reference).
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tdm_drive.hpp"
#include "totex/link_recovery.hpp"
#include "totex/network/topology.hpp"
#include "totex/tdm_run.hpp"
#include "totex/tdm_tables.hpp"

namespace totex::sim {

/// The links the poll's counts name (counts[v * ports + i]: node v's input link i), as (min, max)
/// node pairs; a count on a port a node does not have is an error.
inline std::set<std::pair<NodeId, NodeId>> recover_named_links(const Topology& t, int ports,
                                                               const std::vector<std::uint32_t>& counts,
                                                               std::vector<std::string>& errors) {
  std::set<std::pair<NodeId, NodeId>> named;
  for (int v = 0; v < t.nodes(); ++v)
    for (int i = 0; i < ports; ++i)
      if (counts[static_cast<std::size_t>(v * ports + i)] != 0) {
        if (i >= t.degree(v)) {
          errors.push_back("node " + std::to_string(v) + ": link counter " + std::to_string(i) + " counts on a port it does not have");
          continue;
        }
        const NodeId u = t.neighbor(v, i);
        named.insert({std::min<NodeId>(u, v), std::max<NodeId>(u, v)});
      }
  return named;
}

/// Node v's slot injecting to d in the new table.
inline std::int64_t recover_new_inject_slot(const RecoveryPlan& plan, int v, int d) {
  const auto& row = plan.tables.entries[static_cast<std::size_t>(v)];
  const int ports = plan.tables.tile.ports;
  for (std::size_t s = 0; s < row.size(); ++s)
    for (int sel : row[s].out_sel)
      if (sel == ports + 1 && row[s].inject_dst == d) return static_cast<std::int64_t>(s);
  return 0;
}

/// The cores offer the periods from the swap on in the new table's order (tdm_drive.hpp's queues of
/// the new table, shifted to the swap; period A from the cycle after period A-1's slot for the
/// destination, or with an idle transition after the idle period's slot for it, else the NIC would
/// send it there). queue[v] / next[v]: node v's offers and the next one to offer.
inline void recover_requeue_offers(const RecoveryPlan& plan, int old_period, int periods,
                                   std::vector<std::vector<TdmOffer>>& queue, const std::vector<std::size_t>& next,
                                   std::vector<std::string>& errors) {
  const auto fresh = tdm_offer_queues(plan.tables, periods - plan.swap_period);
  for (std::size_t v = 0; v < queue.size(); ++v) {
    auto& q = queue[v];
    q.erase(std::remove_if(q.begin(), q.end(), [&](const TdmOffer& o) { return o.period >= plan.swap_period; }), q.end());
    if (next[v] > q.size()) errors.push_back("node " + std::to_string(v) + ": a period after the swap was offered before the plan");
    for (TdmOffer o : fresh[v]) {
      if (o.period == 0)
        o.from_cycle = plan.idle_transition
                           ? plan.swap_cycle + recover_new_inject_slot(plan, static_cast<int>(v), o.dst) + 1
                           : (plan.swap_period - 1) * std::int64_t{old_period} + plan.old_inject_slot[v][static_cast<std::size_t>(o.dst)] + 1;
      else
        o.from_cycle += plan.new_start;
      o.period += plan.swap_period;
      q.push_back(o);
    }
  }
}

/// The last cycle of period K-1 under the new table.
inline std::int64_t recover_check_cycle(const RecoveryPlan& plan, int periods) {
  return plan.new_start + (periods - plan.swap_period) * std::int64_t{plan.new_period} - 1;
}

/// What an engine's recovery run observed, beside its deliveries.
struct RecoverObserved {
  std::optional<RecoveryPlan> plan;  // the controller's, once the counters named a link
  std::uint64_t missed_at_check = 0;  // missed_o summed over the tiles at recover_check_cycle, since the load
  std::uint64_t missed_in_run = 0;    // ... at the end
  TdmRunCounts counts;                // what every node took from s_axis
  std::vector<std::uint32_t> end_counts;  // [v * ports + i]: the link counters read after the run
  std::vector<int> errors_high;           // the tiles with error_o high at the end
  std::function<std::optional<std::int64_t>(int)> error_from;  // the first cycle tile v's error_o was high
};

/// The checks of a recovery run against the reference model, appended to r.errors: the link and
/// period the controller found are the model's, missed_o within the K periods and at the end, every
/// message taken from s_axis, every link counter the model's left-flit count (16 bits, wrapping),
/// error_o high exactly where the model leaves a flit.
inline void check_recovery_run(SimResult& r, const Topology& t, const LinkFault& fault, const RecoveryReference& ref,
                               const RecoverObserved& obs, int periods, std::int64_t run_cycles) {
  const auto at = [](std::int64_t i) { return static_cast<std::size_t>(i); };
  const int ports = ref.healthy.tile.ports;
  if (!obs.plan) {
    r.errors.push_back("the controller's polls never saw a link error count");
  } else {
    const RecoveryPlan& got = *obs.plan;
    if (got.a != ref.plan.a || got.b != ref.plan.b || got.detect_period != ref.plan.detect_period)
      r.errors.push_back("the counters named link " + std::to_string(got.a) + "-" + std::to_string(got.b) +
                         " at the poll of period " + std::to_string(got.detect_period) + "; the model: " +
                         std::to_string(ref.plan.a) + "-" + std::to_string(ref.plan.b) + " at period " +
                         std::to_string(ref.plan.detect_period));
    if (got.a != fault.a || got.b != fault.b)
      r.errors.push_back("the counters named link " + std::to_string(got.a) + "-" + std::to_string(got.b) +
                         ", the stuck link is " + std::to_string(fault.a) + "-" + std::to_string(fault.b));
    // Within the K periods only the idle transition's inject slots find nothing.
    std::uint64_t idle_transition = 0;
    if (got.idle_transition)
      for (int v = 0; v < t.nodes(); ++v) idle_transition += static_cast<std::uint64_t>(got.tables.inject_slots(v));
    if (obs.missed_at_check != idle_transition)
      r.errors.push_back("missed_o counts " + std::to_string(obs.missed_at_check) +
                         " inject slots without a message within the " + std::to_string(periods) + " periods, expected " +
                         std::to_string(idle_transition) + " (the idle transition period's)");
    // After period K-1 nothing is offered: every inject slot decided by the end is missed.
    std::uint64_t idle = idle_transition;
    for (std::int64_t c = recover_check_cycle(got, periods) + 1; c <= run_cycles; ++c)
      for (const auto& node : got.tables.entries)
        idle += static_cast<std::uint64_t>(got.tables.inject_decisions(node[at((c - got.swap_cycle) % got.new_period)]));
    if (obs.missed_in_run != idle)
      r.errors.push_back("missed_o counts " + std::to_string(obs.missed_in_run) + " at the end, expected " +
                         std::to_string(idle) + " (the inject slots of the idle transition and after the last period)");
  }
  for (std::size_t v = 0; v < obs.counts.offered.size(); ++v)
    if (obs.counts.offered[v] != obs.counts.to_offer[v])
      r.errors.push_back("node " + std::to_string(v) + ": the tile took " + std::to_string(obs.counts.offered[v]) + " of its " +
                         std::to_string(obs.counts.to_offer[v]) + " messages from s_axis");
  std::vector<int> want_high;
  for (int v = 0; v < t.nodes(); ++v) {
    bool any = false;
    for (int i = 0; i < ports; ++i) {
      const std::uint32_t model = static_cast<std::uint32_t>(ref.left[at(v)][at(i)] & 0xFFFF);
      const std::uint32_t seen = obs.end_counts[at(v) * at(ports) + at(i)];
      any = any || ref.left[at(v)][at(i)] > 0;
      if (seen != model)
        r.errors.push_back("node " + std::to_string(v) + ": link counter " + std::to_string(i) + " reads " +
                           std::to_string(seen) + ", the model leaves " + std::to_string(ref.left[at(v)][at(i)]) + " flits there");
    }
    if (any) want_high.push_back(v);
  }
  if (obs.errors_high != want_high) {
    // Name the tiles that differ (up to a few) and when error_o rose at them.
    std::string which;
    int named = 0;
    for (int v = 0; v < t.nodes(); ++v) {
      const bool is = std::find(obs.errors_high.begin(), obs.errors_high.end(), v) != obs.errors_high.end();
      const bool want = std::find(want_high.begin(), want_high.end(), v) != want_high.end();
      if (is == want || ++named > 4) continue;
      const std::optional<std::int64_t> from = obs.error_from ? obs.error_from(v) : std::nullopt;
      which += std::string(named > 1 ? "; " : "") + "node " + std::to_string(v) +
               (is ? " high from cycle " + (from ? std::to_string(*from) : std::string("?")) + ", the model leaves no flit there"
                   : " low, the model leaves flits there");
    }
    r.errors.push_back("error_o is high at " + std::to_string(obs.errors_high.size()) + " tiles; the model leaves flits at " +
                       std::to_string(want_high.size()) + " (" + which + ")");
  }
}

}  // namespace totex::sim
