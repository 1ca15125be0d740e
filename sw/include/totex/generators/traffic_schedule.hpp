// SPDX-License-Identifier: Apache-2.0
/// Schedules for any traffic (issue 49, docs/traffic.md, "Schedules"): one message per flit, on any
/// direct network (families, placed tori, degraded networks, graph files), one-shot or periodic.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "totex/bounds/bounds.hpp"
#include "totex/generators/scheduler.hpp"
#include "totex/model.hpp"
#include "totex/schedule.hpp"
#include "totex/network/topology.hpp"
#include "totex/traffic/traffic.hpp"
#include "totex/traffic/traffic_bounds.hpp"

namespace totex {

/// Resource look-ups of the list scheduler per budget second (measured on the development
/// machine: about 60 M/s on torus:16x16 random traffic); the work, not the clock, stops it.
inline constexpr double kTrafficLookupsPerSecond = 40e6;

/// The list scheduler's default budget in seconds for `flits` flits on `t`: 1 per 500 flits, from
/// 4 to 60, or to 240 on networks of more than 256 nodes (issue 49 asks N <= 256 in 60 s, N = 1024
/// in 5 minutes).
[[nodiscard]] double list_default_budget_seconds(const Topology& t, std::int64_t flits);

struct TrafficRequest {
  /// auto: every generator that applies, the shortest verified schedule kept; list: the list
  /// scheduler alone; repeat: `all:M` as M copies of the optimal `all` period; split (periodic):
  /// a traffic whose pairs' flits share a factor g as d | g copies of its d-th part; lines: `groups`
  /// along dimensions of a product, every line scheduled as its own ring, path or clique; exact:
  /// one-shot SAT (exact.hpp, one message per flit) on small instances under nic or all-port,
  /// which proves optimality by UNSAT when the bound is not met.
  std::string algorithm = "auto";
  /// Counted work (resource look-ups of the list scheduler), about seconds; 0: 4 s.
  double budget_seconds = 0;
  bool periodic = false;
  RunLimits limits;
  /// auto also tries the traffic as g copies of a smaller one (split); off in split's own calls.
  bool split = true;
};

struct TrafficOutcome {
  Schedule schedule;            // period > 0 when periodic; traffic tag set
  std::string algorithm;
  LowerBound bound;             // traffic_lower_bound or traffic_periodic_lower_bound
  std::int64_t length = 0;      // steps (one-shot) or period (periodic)
  bool proven_optimal = false;  // length == bound, or the exact search proved length-1 infeasible
  std::string proof;
  std::vector<Attempt> tried;
  std::vector<std::string> log;
};

/// The generator names for --help and errors.
[[nodiscard]] std::string traffic_algorithm_help();

/// Schedules `traffic` on `t` under `m`; the schedule is verified (one-shot or modulo its period)
/// before it is returned. Throws UsageError for an algorithm that does not apply (naming those
/// that do) and for traffic that cannot be delivered (a pair with no path); ResourceError past
/// the list scheduler's limits (4,096 nodes, 2^27 flit hops).
[[nodiscard]] TrafficOutcome schedule_traffic(const Topology& t, Model m, const Traffic& traffic, const TrafficRequest& r);

/// The list scheduler's routes (shortest candidates plus the congestion-balanced ones) with the
/// placement by SAT: a (route, start) per flit, no two on one resource in one slot (periodic:
/// starts and slots mod `period`; one-shot: every hop before step `horizon`). At most `work`
/// conflicts x clauses (cnf.hpp: 6e8 a second) and about `max_clauses` clauses; a schedule with
/// no steps when it is not found (`note` says why: UNSAT here proves nothing, the routes are a
/// choice). `spent_work` (if given) is increased by the work spent, building included.
/// `lp` (if given): the periodic congestion LP's flows, solved on the first call that needs them
/// and kept there for the next (they do not depend on the period).
[[nodiscard]] Schedule route_sat_schedule(const Topology& t, Model m, const Traffic& traffic, int period, std::int64_t horizon,
                                          int routes, double work, std::int64_t max_clauses, std::string* note,
                                          double* spent_work = nullptr, std::optional<CongestionLp>* lp = nullptr);

/// A degraded network's schedule from its base network's: `base` (a verified one-shot schedule of
/// `traffic` on t.base(), same node ids: failed links only) keeps every message whose walk avoids
/// the failed links, at its steps; the others are placed by the list scheduler (`routes`
/// shortest candidates plus balanced routes, `orders` priority orders) around them, each at its
/// earliest free start. `displaced_flits` gets how many were placed anew. With `repair_work` > 0
/// (nic, all-port) then the min-conflicts repair of every flit from that placement under a
/// horizon, bisected while the look-ups last. Algorithm "repair".
[[nodiscard]] Schedule repair_schedule(const Topology& t, Model m, const Traffic& traffic, const Schedule& base, int routes,
                                       int orders, std::int64_t* work = nullptr, std::int64_t* displaced_flits = nullptr,
                                       std::int64_t repair_work = 0);

/// The list scheduler's periodic search (docs/traffic.md "Schedules", list): from `found`, a
/// verified periodic schedule of `traffic` on t (the one-shot list schedule back to back), the
/// bound `lo` first (an eighth of `work`), then halfway down, at most 4 % at a time (a third of
/// the work left each); every period by the priority orders, then the negotiated placement started
/// from the schedule in hand, all on one list scheduler (its routes and balanced routes computed
/// once). The shortest periodic schedule found (`found` when nothing shorter fits); a line per
/// period tried in `log`; the look-ups spent are added to `spent`. On a network with failed links
/// the base network's schedule is a start, computed with `start_budget` (start_budget_seconds).
[[nodiscard]] Schedule periodic_list_search(const Topology& t, Model m, const Traffic& traffic, int routes, Schedule found,
                                            std::int64_t lo, std::int64_t work, std::int64_t* spent, std::vector<std::string>& log,
                                            double start_budget = 0);

/// A one-shot schedule from the periodic schedule `p` (period P): every message keeps its hops'
/// offsets and starts in step (s - r) mod P, s its first hop's step, r the rotation that ends
/// soonest. Valid whenever `p` is: every hop moves by -r modulo P, so two hops that would meet in
/// a step would meet in a slot of `p`. Where P is long against the routes (torus:16x16~fail:0-1
/// nic: period 540, routes of at most 17 hops) it is P plus a few steps.
[[nodiscard]] Schedule unroll_periodic(const Schedule& p);

/// The list scheduler on its own (for tests and benches): every flit on one of up to `routes`
/// shortest paths, at the earliest step where every link and port it needs is free (one-shot:
/// any step; periodic: the slots of `period`, injection in slot < period; returns a schedule with
/// no steps when a flit does not fit). `orders` priority orders are tried, the best kept; periodic,
/// when none fits, the negotiated placement (docs/traffic.md) runs for at most `repair_work`
/// look-ups, started from `warm` (a schedule of this traffic on t, e.g. of a longer period) when
/// given. One-shot with `repair_work` and a lower bound `floor`: the negotiated placement under a
/// horizon, from `floor` up, shortens the list's schedule, or a one-shot `warm` when that is
/// shorter (an unrolled periodic schedule, unroll_periodic). With `orders_work` > 0, no order after
/// the first starts once the call has spent that many look-ups, and `repair_work` counts the whole
/// call (the negotiation gets what the orders left). One-shot with `greedy_start`, the greedy
/// over every shortest path, farthest first (T-CREST Poseidon's order), is a start beside the
/// orders; `log` (if given) gets which start was kept and what paths the shortening widens to.
/// On a network with failed links the base network's schedules (starts of the repair and the
/// negotiation) are computed with `start_budget` (start_budget_seconds).
[[nodiscard]] Schedule list_schedule(const Topology& t, Model m, const Traffic& traffic, int period, int routes, int orders,
                                     std::int64_t* work = nullptr, std::int64_t repair_work = 0,
                                     const Schedule* warm = nullptr, std::int64_t floor = 0, std::int64_t orders_work = 0,
                                     std::vector<std::string>* log = nullptr, bool greedy_start = false, double start_budget = 0);

/// The budget of the base network's schedule where a search on a network with failed links starts
/// from it: the caller's when below every generator's default (4 s), so that a small --budget
/// bounds the whole search, else 0, the default (so the default and larger budgets keep the start
/// they had: torus:16x16~fail:0-1's period 540 comes from the base network's rotation schedule).
[[nodiscard]] double start_budget_seconds(double budget_seconds);

}  // namespace totex
