// SPDX-License-Identifier: Apache-2.0
/// Recovery from a stuck link (totex/link_recovery.hpp): the fault's flag, the controller's plan
/// and the table-level reference model.
#include "totex/link_recovery.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>

#include "totex/bounds/bounds.hpp"
#include "totex/error.hpp"
#include "totex/generators/periodic.hpp"
#include "totex/network/spec.hpp"

namespace totex {
namespace {

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

const char* const kFaultAtForm =
    "expected PERIOD:A-B, a period 1..K-1 of --periods K and two adjacent nodes A and B of the network (e.g. 2:0-1)";

/// A read of link i issued in cycle c sees the left flits of cycles <= c - kLeftVisibleLag: the
/// left flag is registered (left_q), the counter adds it at the next edge, and the read's word is
/// taken from the counter one cycle after AR (totex_tdm_axil).
constexpr std::int64_t kLeftVisibleLag = 1;

int inject_slot_of(const TdmTables& tables, NodeId v, NodeId d) {
  const int p = tables.tile.ports;
  for (int s = 0; s < tables.period; ++s) {
    const TdmEntry& e = tables.entries[at(v)][at(s)];
    for (int o = 0; o < p; ++o)
      if (e.out_sel[at(o)] == p + 1 && e.inject_dst == d) return s;
  }
  return -1;
}

/// Node v's port towards `to` in t (the tiles' numbering).
int base_port(const Topology& t, NodeId v, NodeId to) {
  const auto p = t.port_to(v, to);
  if (!p) throw std::logic_error("link_recovery: nodes " + std::to_string(v) + " and " + std::to_string(to) + " are not adjacent");
  return *p;
}

/// The degraded network's entry of node v with its ports renumbered as the base network's.
TdmEntry on_base_ports(const TdmEntry& e, const Topology& base, const Topology& degraded, NodeId v, int ports) {
  TdmEntry out = e;
  out.out_sel.assign(at(ports), 0);
  const int dp = degraded.degree(v);
  const auto map_sel = [&](int sel) {
    if (sel == 0) return 0;
    if (sel == static_cast<int>(e.out_sel.size()) + 1) return ports + 1;  // inject
    return 1 + base_port(base, v, degraded.neighbor(v, sel - 1));
  };
  for (int o = 0; o < static_cast<int>(e.out_sel.size()); ++o) {
    if (e.out_sel[at(o)] == 0) continue;
    if (o >= dp) throw std::logic_error("link_recovery: a select on a port node " + std::to_string(v) + " does not have");
    out.out_sel[at(base_port(base, v, degraded.neighbor(v, o)))] = map_sel(e.out_sel[at(o)]);
  }
  out.eject_sel = e.eject_sel == 0 ? 0 : 1 + base_port(base, v, degraded.neighbor(v, e.eject_sel - 1));
  return out;
}

std::string pair_text(NodeId s, NodeId d) { return "(" + std::to_string(s) + "," + std::to_string(d) + ")"; }

}  // namespace

std::string LinkFault::text() const {
  return std::to_string(period) + ":" + std::to_string(a) + "-" + std::to_string(b);
}

LinkFault parse_fault_at(const std::string& text, const Topology& t, int periods) {
  const std::string flag = "--fault-at '" + text + "': ";
  const auto colon = text.find(':');
  const auto dash = text.find('-', colon == std::string::npos ? 0 : colon);
  const auto number = [&](const std::string& s, long long hi) -> long long {
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
      throw UsageError(flag + kFaultAtForm);
    const long long v = std::stoll(s);
    if (v > hi) throw UsageError(flag + kFaultAtForm);
    return v;
  };
  if (colon == std::string::npos || dash == std::string::npos) throw UsageError(flag + kFaultAtForm);
  LinkFault f;
  const long long k = number(text.substr(0, colon), 1LL << 30);
  const long long a = number(text.substr(colon + 1, dash - colon - 1), 1LL << 30);
  const long long b = number(text.substr(dash + 1), 1LL << 30);
  if (k < 1 || k >= periods)
    throw UsageError(flag + "the fault's period must be 1.." + std::to_string(periods - 1) + " (--periods " +
                     std::to_string(periods) + "): at least one healthy period before it and the run after it");
  if (a >= t.nodes() || b >= t.nodes())
    throw UsageError(flag + "nodes are 0.." + std::to_string(t.nodes() - 1) + " on " + t.spec());
  if (a == b || !t.port_to(static_cast<NodeId>(a), static_cast<NodeId>(b)))
    throw UsageError(flag + "nodes " + std::to_string(a) + " and " + std::to_string(b) + " are not adjacent on " + t.spec() +
                     " (" + kFaultAtForm + ")");
  f.period = static_cast<int>(k);
  f.a = static_cast<NodeId>(std::min(a, b));
  f.b = static_cast<NodeId>(std::max(a, b));
  // The degraded network must still carry the exchange (checked before any run).
  try {
    (void)parse_topology(t.spec() + "~fail:" + std::to_string(f.a) + "-" + std::to_string(f.b));
  } catch (const UsageError& e) {
    throw UsageError(flag + "the network without link " + std::to_string(f.a) + "-" + std::to_string(f.b) +
                     " cannot run the exchange, nothing to recover to: " + e.what());
  }
  return f;
}

TdmTables recovery_tiles(TdmTables healthy) {
  healthy.tile.depth *= 2;
  return healthy;
}

void check_recovery_tables(const Topology& t, const TdmTables& healthy) {
  if (healthy.tile.kind != TileKind::Nic)
    throw UsageError("--recover: the control port and shadow bank are on the nic tile (totex_tdm_ctl_tile): accepted: --model nic");
  if (t.is_degraded())
    throw UsageError("--recover: " + t.spec() + " is degraded already; give the healthy network and --fault-at PERIOD:A-B");
  for (NodeId v = 0; v < t.nodes(); ++v) {
    std::set<NodeId> seen;
    for (int p = 0; p < t.degree(v); ++p)
      if (!seen.insert(t.neighbor(v, p)).second)
        throw UsageError("--recover: " + t.spec() + " has two links between nodes " + std::to_string(v) + " and " +
                         std::to_string(t.neighbor(v, p)) + "; a failed link is named by its two nodes");
  }
  // period_last_i changes in the middle of the last old period: after the fetch counter's wrap
  // into it (four slots ahead of execution) and before its wrap out of it.
  if (healthy.period < 10)
    throw UsageError("--recover: period " + std::to_string(healthy.period) +
                     " is below 10 slots: the controller changes period_last_i in the middle of the last old period, "
                     "which must lie between the fetch counter's wraps (four slots ahead of execution)");
}

std::vector<std::string> recovery_argv(const RecoveryArgs& a) {
  std::vector<std::string> argv = {"--fault-at", a.fault_at};
  if (a.budget_seconds > 0) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", a.budget_seconds);  // 17 digits: the same double back
    argv.insert(argv.end(), {"--recover-budget", text});
  }
  return argv;
}

RecoveryArgs take_recovery_args(int argc, char** argv, std::vector<char*>& rest) {
  RecoveryArgs a;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--fault-at" || arg == "--recover-budget") && i + 1 < argc) {
      const std::string value = argv[++i];
      if (arg == "--fault-at") {
        a.fault_at = value;
      } else {
        const std::optional<double> b = plain_decimal(value);
        if (!b || !(*b > 0)) throw UsageError("--recover-budget '" + printable(value) + "': a positive decimal number of seconds");
        a.budget_seconds = *b;
      }
      continue;
    }
    rest.push_back(argv[i]);
  }
  return a;
}

namespace {
PeriodicOutcome degraded_periodic_schedule(const Topology& degraded, double budget_seconds) {
  static std::mutex lock;
  static std::map<std::pair<std::string, double>, PeriodicOutcome> done;
  const std::lock_guard<std::mutex> hold(lock);
  const auto key = std::make_pair(degraded.spec(), budget_seconds);
  const auto it = done.find(key);
  if (it != done.end()) return it->second;
  PeriodicRequest request;
  request.budget_seconds = budget_seconds;
  return done.emplace(key, periodic_schedule(degraded, Model::Nic, request)).first->second;
}
}  // namespace

RecoveryPlan plan_link_recovery(const Topology& t, const TdmTables& healthy, NodeId a, NodeId b, int detect_period,
                                double budget_seconds) {
  RecoveryPlan p;
  p.a = std::min(a, b);
  p.b = std::max(a, b);
  p.detect_period = detect_period;
  p.old_period = healthy.period;
  p.degraded_spec = t.spec() + "~fail:" + std::to_string(p.a) + "-" + std::to_string(p.b);
  Topology degraded = [&] {
    try {
      return parse_topology(p.degraded_spec);
    } catch (const UsageError& e) {
      throw UsageError("--fault-at: the network without link " + std::to_string(p.a) + "-" + std::to_string(p.b) +
                       " cannot run the exchange: " + e.what());
    }
  }();
  // The library's periodic schedule of the degraded network (periodic_schedule, auto): counted
  // work, so every engine plans the same; its period is the table's. Computed once per process and
  // network (a harness plans twice, for its reference model and for its controller; the search is
  // most of a run's time).
  PeriodicOutcome o = degraded_periodic_schedule(degraded, budget_seconds);
  if (o.capped)
    throw UsageError("--recover: the periodic schedule of " + p.degraded_spec +
                     " stopped at a wall-clock cap, so another engine's plan could differ; nothing to recover to");
  Schedule s = std::move(o.schedule);
  s.materialize();
  p.degraded_algorithm = o.algorithm;
  p.degraded_budget = budget_seconds;
  p.degraded_steps = static_cast<std::int64_t>(s.step_count());
  p.degraded_bound = o.bound.steps;
  TdmTables nt = tdm_tables(degraded, s, 0, healthy.tile.payload_bits);
  const int P = nt.period, ports = healthy.tile.ports, n = t.nodes();
  p.new_period = P;
  if (P > healthy.tile.depth)
    throw UsageError("--recover: the degraded network's period " + std::to_string(P) + " (" + p.degraded_spec +
                     ", " + p.degraded_algorithm + ") does not fit the tiles' " + std::to_string(healthy.tile.depth) +
                     "-slot tables (Depth: twice the healthy period rounded up to a power of two)");
  // Each message's first step (its injection): the rotation moves messages across the period boundary.
  std::vector<std::int64_t> first(at(n) * at(n), -1);
  s.for_each_step([&](std::size_t step, const std::vector<Transfer>& transfers) {
    for (const Transfer& tr : transfers) {
      std::int64_t& f = first[at(tr.msg.src) * at(n) + at(tr.msg.dst)];
      if (tr.from == tr.msg.src && f < 0) f = static_cast<std::int64_t>(step);
    }
  });
  TdmTables mapped;
  mapped.period = P;
  mapped.tile = healthy.tile;
  mapped.entries.assign(at(n), {});
  for (NodeId v = 0; v < n; ++v)
    for (int slot = 0; slot < P; ++slot)
      mapped.entries[at(v)].push_back(on_base_ports(nt.entries[at(v)][at(slot)], t, degraded, v, ports));
  // The rotation: the fewest slots sigma such that every node's slot for each destination in the
  // first new period comes at least kTdmTileMinPeriod cycles after its slot in the last old one.
  p.old_inject_slot.assign(at(n), std::vector<int>(at(n), -1));
  std::vector<std::vector<int>> new_slot(at(n), std::vector<int>(at(n), -1));
  for (NodeId v = 0; v < n; ++v)
    for (NodeId d = 0; d < n; ++d) {
      p.old_inject_slot[at(v)][at(d)] = inject_slot_of(healthy, v, d);
      new_slot[at(v)][at(d)] = inject_slot_of(mapped, v, d);
    }
  int sigma = -1;
  for (int r = 0; r < P && sigma < 0; ++r) {
    bool ok = true;
    for (NodeId v = 0; v < n && ok; ++v)
      for (NodeId d = 0; d < n && ok; ++d) {
        const int old = p.old_inject_slot[at(v)][at(d)], now = new_slot[at(v)][at(d)];
        if (old >= 0 && now >= 0 && healthy.period - old + (now + r) % P < kTdmTileMinPeriod) ok = false;
      }
    if (ok) sigma = r;
  }
  // None: an idle first period under the new table (every gap is then at least P_new - 1).
  p.idle_transition = sigma < 0;
  p.rotation = std::max(sigma, 0);
  sigma = p.rotation;
  p.tables = mapped;
  for (NodeId v = 0; v < n; ++v)
    for (int slot = 0; slot < P; ++slot)
      p.tables.entries[at(v)][at(slot)] = mapped.entries[at(v)][at((slot - sigma + P) % P)];
  // One flit per pair (the recovery runs `all`): the flit numbers are the degraded tables', rotated with the entries.
  p.tables.flits = nt.flits;
  p.tables.flit_number = nt.flit_number;
  p.tables.inject_flit.assign(at(n), std::vector<int>(at(P), 0));
  for (NodeId v = 0; v < n; ++v)
    for (int slot = 0; slot < P; ++slot) p.tables.inject_flit[at(v)][at(slot)] = nt.inject_flit[at(v)][at((slot - sigma + P) % P)];
  p.tables.last_hop = nt.last_hop;
  std::int64_t steps = 0;
  for (std::size_t m = 0; m < p.tables.last_hop.size(); ++m) {
    std::int64_t& lh = p.tables.last_hop[m];
    if (lh < 0) continue;
    // The message injected in slot (first + sigma) mod P of period k is period k's (a periodic
    // schedule may inject in a step >= P too).
    lh += sigma - (first[m] + sigma) / P * P;
    steps = std::max(steps, lh + 1);
  }
  p.tables.steps = steps;
  // Timing: the poll ends, the writes follow one per cycle, then the arm, then the boundary.
  const std::int64_t Po = healthy.period;
  p.write_cycle = detect_period * Po + recover_poll_cycles(ports) + 1;
  p.writes = P * (healthy.tile.entry_bits() > 32 ? 2 : 1);
  p.arm_cycle = p.write_cycle + p.writes;
  p.swap_period = static_cast<int>(std::max<std::int64_t>(detect_period + 2, (p.arm_cycle + kRecoverArmLead + Po - 1) / Po));
  p.swap_cycle = p.swap_period * Po;
  p.new_start = p.swap_cycle + (p.idle_transition ? P : 0);
  p.period_change_cycle = (p.swap_period - 1) * Po + Po / 2;
  return p;
}

std::optional<std::int64_t> period_after_swap(const RecoveryPlan& plan, const Delivery& d, int periods) {
  const std::int64_t n = static_cast<std::int64_t>(plan.old_inject_slot.size());
  if (d.src < 0 || d.src >= n || d.dst < 0 || d.dst >= n) return std::nullopt;
  const std::int64_t lh = plan.tables.last_hop[at(d.src) * at(n) + at(d.dst)];
  if (lh < 0) return std::nullopt;
  const std::int64_t off = d.step - plan.new_start - lh;
  if (off < 0 || off % plan.new_period != 0) return std::nullopt;
  const std::int64_t k = plan.swap_period + off / plan.new_period;
  if (k >= periods) return std::nullopt;
  if (d.payload != static_cast<std::uint32_t>(tdm_payload(d.src, d.dst, k, plan.tables.tile.payload_bits))) return std::nullopt;
  return k;
}

namespace {

/// Whether a delivery is a message of the old regime (period < A) intact at its step: its period.
std::optional<std::int64_t> period_before_swap(const TdmTables& healthy, const RecoveryPlan& plan, const Delivery& d) {
  const std::int64_t n = static_cast<std::int64_t>(plan.old_inject_slot.size());
  if (d.src < 0 || d.src >= n || d.dst < 0 || d.dst >= n) return std::nullopt;
  const std::int64_t lh = healthy.last_hop[at(d.src) * at(n) + at(d.dst)];
  if (lh < 0) return std::nullopt;
  const std::int64_t off = d.step - lh;
  if (off < 0 || off % healthy.period != 0 || off / healthy.period >= plan.swap_period) return std::nullopt;
  const std::int64_t k = off / healthy.period;
  if (d.payload != static_cast<std::uint32_t>(tdm_payload(d.src, d.dst, k, healthy.tile.payload_bits))) return std::nullopt;
  return k;
}

struct Flit {
  bool valid = false;
  std::int64_t id = -1;  // k * N * N + src * N + dst; -1 the stuck value
  std::uint64_t payload = 0;
};

}  // namespace

std::string RecoveryReference::digest_after(int periods) const {
  std::vector<Delivery> after;
  for (const Delivery& d : trace)
    if (period_after_swap(plan, d, periods)) after.push_back(d);
  return trace_sha256(after);
}

RecoveryReference run_recovery_reference(const Topology& t, const TdmTables& healthy, const LinkFault& fault, int periods,
                                         double budget_seconds) {
  check_recovery_tables(t, healthy);
  RecoveryReference ref;
  ref.fault = fault;
  ref.healthy = healthy;
  const int n = t.nodes(), ports = healthy.tile.ports, w = healthy.tile.payload_bits;
  const std::int64_t Po = healthy.period, fault_cycle = fault.period * Po, nn = std::int64_t{n} * n;
  const std::uint64_t stuck = w >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
  ref.messages = periods * (nn - n);
  ref.left.assign(at(n), std::vector<std::int64_t>(at(ports), 0));
  // Upstream of every input: (node, its output port), -1 none.
  std::vector<std::pair<NodeId, int>> up(at(n) * at(ports), {-1, 0});
  for (NodeId v = 0; v < n; ++v)
    for (int i = 0; i < t.degree(v); ++i) {
      const NodeId u = t.neighbor(v, i);
      up[at(v) * at(ports) + at(i)] = {u, base_port(t, u, v)};
    }
  const auto on_failed = [&](NodeId u, NodeId v) {
    return (u == fault.a && v == fault.b) || (u == fault.b && v == fault.a);
  };
  std::vector<Flit> out(at(n) * at(ports)), next(out.size());
  std::vector<std::int64_t> injected(at(nn), 0);  // per (v, d): messages injected so far
  std::vector<std::string> why(at(periods * nn));
  std::vector<std::int64_t> intact_step(at(periods * nn), -1);
  // Left flits on each input, by cycle, until the detection (what the poll can see).
  std::vector<std::vector<std::int64_t>> left_cycles(at(n) * at(ports));
  const int stride = recover_poll_stride(ports, healthy.period);
  // The counters see only a flit that no slot takes: a receiver that takes the stuck link in
  // every slot (a fully loaded link) never counts, and nothing in the flit says it is wrong.
  bool visible = false;
  for (const auto& [u, v] : {std::pair{fault.a, fault.b}, std::pair{fault.b, fault.a}}) {
    const int i = base_port(t, v, u);
    for (int slot = 0; slot < healthy.period && !visible; ++slot) {
      const TdmEntry& e = healthy.entries[at(v)][at(slot)];
      visible = e.eject_sel != i + 1 && std::find(e.out_sel.begin(), e.out_sel.end(), i + 1) == e.out_sel.end();
    }
  }
  if (!visible)
    throw UsageError("--fault-at " + fault.text() + ": nodes " + std::to_string(fault.a) + " and " + std::to_string(fault.b) +
                     " take a flit from the link in every slot of the period (a fully loaded link), so a stuck link "
                     "there leaves no flit for the link error counters, and the flits carry no check bits: the fault "
                     "cannot be detected; pick a link with an idle slot");
  bool planned = false;
  std::int64_t end = std::int64_t{1} << 62;  // set once planned
  for (std::int64_t c = 0; c < end; ++c) {
    // The poll of period k ends in this cycle: did a read see a left flit?
    if (!planned && c >= Po * stride && c % (Po * stride) == recover_poll_cycles(ports)) {
      const std::int64_t k = (c - recover_poll_cycles(ports)) / Po;  // the period the poll began in
      std::set<std::pair<NodeId, NodeId>> named;
      for (NodeId v = 0; v < n; ++v)
        for (int i = 0; i < ports; ++i) {
          const std::int64_t read = k * Po + kRecoverReadCycles * (i + 1);  // after STATUS
          for (std::int64_t lc : left_cycles[at(v) * at(ports) + at(i)])
            if (lc <= read - kLeftVisibleLag) {
              const NodeId u = t.neighbor(v, i);
              named.insert({std::min(u, v), std::max(u, v)});
            }
        }
      if (!named.empty()) {
        if (named.size() > 1) ref.errors.push_back("the link counters name " + std::to_string(named.size()) + " links");
        ref.plan = plan_link_recovery(t, healthy, named.begin()->first, named.begin()->second, static_cast<int>(k), budget_seconds);
        planned = true;
        if (ref.plan.swap_period + 2 > periods)
          throw UsageError("--periods " + std::to_string(periods) + ": the swap comes at period " +
                           std::to_string(ref.plan.swap_period) + " (fault in period " + std::to_string(fault.period) +
                           ", detected at the poll of period " + std::to_string(k) + "); give --periods " +
                           std::to_string(ref.plan.swap_period + 2) + " or more");
        // The run: K-1's last slot, the degraded schedule's drain, the eject register and a margin.
        end = ref.plan.new_start + (periods - ref.plan.swap_period - 1) * std::int64_t{ref.plan.new_period} +
              ref.plan.tables.steps + 8;
      }
    }
    if (!planned && c > (fault.period + 2 + 2 * stride) * Po)
      throw std::logic_error("link_recovery: the stuck link was not seen by the poll");
    const bool swapped = planned && c >= ref.plan.swap_cycle;
    const TdmTables& tab = swapped ? ref.plan.tables : healthy;
    const std::int64_t slot = swapped ? (c - ref.plan.swap_cycle) % ref.plan.new_period : c % Po;
    for (NodeId v = 0; v < n; ++v) {
      const TdmEntry& e = tab.entries[at(v)][at(slot)];
      std::vector<Flit> in(at(ports));
      for (int i = 0; i < ports; ++i) {
        const auto [u, po] = up[at(v) * at(ports) + at(i)];
        if (u < 0) continue;
        in[at(i)] = out[at(u) * at(ports) + at(po)];
        if (c >= fault_cycle && on_failed(u, v)) {
          if (in[at(i)].valid && in[at(i)].id >= 0 && why[at(in[at(i)].id)].empty())
            why[at(in[at(i)].id)] = "on the stuck link " + std::to_string(u) + "->" + std::to_string(v) + " in cycle " + std::to_string(c);
          in[at(i)] = {true, -1, stuck};
        }
        if (swapped && in[at(i)].valid && in[at(i)].id >= 0 && in[at(i)].id / nn < ref.plan.swap_period &&
            why[at(in[at(i)].id)].empty())
          why[at(in[at(i)].id)] = "in flight at the swap (cycle " + std::to_string(ref.plan.swap_cycle) + ")";
      }
      std::vector<char> taken(at(ports), 0);
      for (int o = 0; o < ports; ++o) {
        const int sel = e.out_sel[at(o)];
        Flit& f = next[at(v) * at(ports) + at(o)];
        f = {};
        if (sel == ports + 1 && swapped && c < ref.plan.new_start) {
          // The idle transition period: the cores have offered nothing for it.
        } else if (sel == ports + 1) {
          const NodeId d = static_cast<NodeId>(e.inject_dst);
          std::int64_t& k = injected[at(std::int64_t{v} * n + d)];
          if (k < periods) f = {true, k * nn + std::int64_t{v} * n + d, tdm_payload(v, d, k, w)};
          ++k;
        } else if (sel > 0) {
          f = in[at(sel - 1)];
          taken[at(sel - 1)] = 1;
        }
      }
      if (e.eject_sel > 0) {
        const int i = e.eject_sel - 1;
        taken[at(i)] = 1;
        if (in[at(i)].valid) {
          const Delivery d{c - 1, v, static_cast<NodeId>(e.eject_src), static_cast<std::uint32_t>(in[at(i)].payload)};
          ref.trace.push_back(d);
          const std::int64_t id = in[at(i)].id;
          if (id >= 0 && id % n == v && (id / n) % n == e.eject_src) {
            intact_step[at(id)] = c - 1;
            ++ref.intact;
          } else {
            ++ref.corrupted;
          }
        }
      }
      for (int i = 0; i < ports; ++i)
        if (in[at(i)].valid && !taken[at(i)]) {
          ++ref.left[at(v)][at(i)];
          if (!planned) left_cycles[at(v) * at(ports) + at(i)].push_back(c);
        }
    }
    std::swap(out, next);
  }
  ref.run_cycles = end;
  ref.expected_cycles = 0;
  for (const Delivery& d : ref.trace) ref.expected_cycles = std::max(ref.expected_cycles, d.step + 1);
  // The model against the two schedules: from the swap on every message arrives intact at the step
  // the new table predicts; before it, intact at the old table's step or lost with a cause.
  const RecoveryPlan& p = ref.plan;
  ref.lost_per_period.assign(at(periods), 0);
  for (std::int64_t k = 0; k < periods; ++k)
    for (NodeId s = 0; s < n; ++s)
      for (NodeId d = 0; d < n; ++d) {
        if (s == d) continue;
        const std::size_t pair = at(std::int64_t{s} * n + d), m = at(k * nn) + pair;
        const std::int64_t due = k < p.swap_period ? k * Po + healthy.last_hop[pair]
                                                   : p.new_start + (k - p.swap_period) * p.new_period + p.tables.last_hop[pair];
        const std::string name = "message " + pair_text(s, d) + " of period " + std::to_string(k);
        if (intact_step[m] >= 0 && intact_step[m] != due)
          ref.errors.push_back(name + " arrived in step " + std::to_string(intact_step[m]) + ", due in " + std::to_string(due));
        if (intact_step[m] >= 0) continue;
        // From the swap on nothing may be lost; before it only a message the stuck link or the swap
        // hit (a periodic schedule's period F-1 may still be in flight at the fault).
        if (k >= p.swap_period) {
          ref.errors.push_back(name + " never arrived (due in step " + std::to_string(due) + ")");
          continue;
        }
        ++ref.lost_per_period[at(k)];
        ref.lost.push_back(name + " (due in step " + std::to_string(due) + "): lost " +
                           (why[m].empty() ? std::string("(no cause found)") : why[m]));
        if (why[m].empty()) ref.errors.push_back(name + " was lost without passing the stuck link or the swap");
      }
  // The classifier the engines use must count what the model delivered intact.
  std::int64_t classified = 0;
  for (const Delivery& d : ref.trace)
    if (period_before_swap(healthy, p, d) || period_after_swap(p, d, periods)) ++classified;
  if (classified != ref.intact)
    ref.errors.push_back("the delivery classifier counts " + std::to_string(classified) + " intact deliveries, the model " +
                         std::to_string(ref.intact));
  return ref;
}

std::vector<std::string> compare_recovery_trace(const RecoveryReference& ref, const std::vector<Delivery>& observed) {
  const auto key = [](const Delivery& d) { return std::make_tuple(d.step, d.dst, d.src, d.payload); };
  std::multiset<std::tuple<std::int64_t, NodeId, NodeId, std::uint32_t>> want, got;
  for (const Delivery& d : ref.trace) want.insert(key(d));
  for (const Delivery& d : observed) got.insert(key(d));
  std::vector<std::string> errors;
  std::int64_t extra = 0, missing = 0;
  const auto text = [](const auto& k) {
    char b[40];
    std::snprintf(b, sizeof b, "0x%x", static_cast<unsigned>(std::get<3>(k)));
    return "step " + std::to_string(std::get<0>(k)) + ", node " + std::to_string(std::get<1>(k)) + ", source " +
           std::to_string(std::get<2>(k)) + ", payload " + b;
  };
  for (const auto& k : got)
    if (want.count(k) < got.count(k) && ++extra <= 5) errors.push_back("delivered, not in the reference model's run: " + text(k));
  for (const auto& k : want)
    if (got.count(k) < want.count(k) && ++missing <= 5) errors.push_back("the reference model delivers, this run did not: " + text(k));
  if (extra > 5 || missing > 5)
    errors.push_back(std::to_string(extra) + " deliveries not in the model's run, " + std::to_string(missing) + " missing");
  return errors;
}

std::string recovery_json(const RecoveryReference& ref, const std::vector<Delivery>& observed, int periods) {
  const RecoveryPlan& p = ref.plan;
  nlohmann::json lost_per_period = nlohmann::json::object();
  std::int64_t with_losses = 0;
  for (std::size_t k = 0; k < ref.lost_per_period.size(); ++k)
    if (ref.lost_per_period[k] > 0) {
      lost_per_period[std::to_string(k)] = ref.lost_per_period[k];
      ++with_losses;
    }
  std::vector<Delivery> after, before;
  for (const Delivery& d : observed)
    if (period_after_swap(p, d, periods)) after.push_back(d);
  std::vector<Delivery> ref_before;
  const std::int64_t fault_cycle = std::int64_t{ref.fault.period} * p.old_period;
  for (const Delivery& d : observed)
    if (d.step + 1 < fault_cycle) before.push_back(d);
  for (const Delivery& d : ref.trace)
    if (d.step + 1 < fault_cycle) ref_before.push_back(d);
  const nlohmann::json j{
      {"fault", ref.fault.text()},
      {"fault_cycle", fault_cycle},
      {"detected_link", std::to_string(p.a) + "-" + std::to_string(p.b)},
      {"detected_period", p.detect_period},
      {"degraded", p.degraded_spec},
      {"degraded_algorithm", p.degraded_algorithm},
      {"degraded_budget", p.degraded_budget},
      {"degraded_steps", p.degraded_steps},
      {"degraded_period", p.new_period},
      {"degraded_bound", p.degraded_bound},
      {"old_period", p.old_period},
      {"rotation", p.rotation},
      {"writes_per_tile", p.writes},
      {"write_cycle", p.write_cycle},
      {"arm_cycle", p.arm_cycle},
      {"swap_period", p.swap_period},
      {"swap_cycle", p.swap_cycle},
      {"idle_transition", p.idle_transition},
      {"new_start", p.new_start},
      {"periods_lost", p.swap_period - ref.fault.period},
      {"periods_with_losses", with_losses},
      {"lost_count", static_cast<std::int64_t>(ref.lost.size())},
      {"lost_per_period", lost_per_period},
      {"lost", ref.lost},
      {"corrupted_deliveries", ref.corrupted},
      {"digest_before_fault", trace_sha256(before)},
      {"digest_before_fault_ref", trace_sha256(ref_before)},
      {"digest_after_swap", trace_sha256(after)},
      {"digest_after_swap_ref", ref.digest_after(periods)},
  };
  return j.dump();
}

void fill_recovery_result(SimResult& r, const RecoveryReference& ref, const std::vector<Delivery>& observed, int periods) {
  r.expected_cycles = ref.expected_cycles;
  r.cycles = 0;
  r.delivered = 0;
  for (const Delivery& d : observed) {
    r.cycles = std::max(r.cycles, d.step + 1);
    if (period_before_swap(ref.healthy, ref.plan, d) || period_after_swap(ref.plan, d, periods)) ++r.delivered;
  }
  r.expected_delivered = ref.intact;
  r.errors.insert(r.errors.end(), ref.errors.begin(), ref.errors.end());
  const std::vector<std::string> diff = compare_recovery_trace(ref, observed);
  r.errors.insert(r.errors.end(), diff.begin(), diff.end());
  r.trace_sha256 = trace_sha256(observed);
  r.recovery = recovery_json(ref, observed, periods);
}

}  // namespace totex
