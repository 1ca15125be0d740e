// SPDX-License-Identifier: Apache-2.0
/// Lower bounds for any traffic on a direct network, per model (docs/traffic.md, "Lower bounds").
/// The terms mirror totex::lower_bound's (bounds.hpp) and keep their names where the term is the
/// same one generalised; with `all` every shared term has today's value.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "totex/bounds/bounds.hpp"
#include "totex/model.hpp"
#include "totex/network/topology.hpp"
#include "totex/traffic/traffic.hpp"

namespace totex {

struct TrafficBoundOptions {
  /// Solve the min-congestion multicommodity-flow LP (COIN-OR CLP).
  bool congestion_lp = true;
  /// The LP has (sources with traffic) x (directed links) + 1 columns; above this it is not solved
  /// and the term says so (value 0). torus:8x8 `all`: 16,385 columns, about 1 s; torus:16x16:
  /// 262,145 columns, about 160 s (CLP's barrier, one core).
  std::int64_t lp_max_columns = 65536;
  /// Past that, the LP in path form (congestion_lp) where the traffic has at most this many pairs.
  std::int64_t lp_max_path_pairs = 512;
  /// One-shot, nic and all-port: the time-expanded LP (time_expanded_lp) from the other terms' bound
  /// up while it proves the steps too few, on models of at most `time_expanded_max_columns`.
  bool time_expanded = true;
  std::int64_t time_expanded_max_columns = 65536;
};

/// One-shot lower bound on the steps of any schedule that delivers `traffic` on `t` under `m`.
/// Terms (each only where it applies): average_status (single-port), link_traversals,
/// injection, ejection, nic_injection, nic_ejection, distance, nic_pipeline, link_fill,
/// bisection, dimension_cut, cut_corners, relay, congestion_lp, time_expanded_lp.
[[nodiscard]] LowerBound traffic_lower_bound(const Topology& t, Model m, const Traffic& traffic,
                                             const TrafficBoundOptions& options = {});
/// Periodic (TDM) bound: only the terms that count capacity per period (no fill, drain, distance,
/// relay); nic_injection and nic_ejection become the plain per-node totals.
[[nodiscard]] LowerBound traffic_periodic_lower_bound(const Topology& t, Model m, const Traffic& traffic,
                                                      const TrafficBoundOptions& options = {});

/// The fractional min-congestion multicommodity flow, aggregated by source: minimise z subject to
/// one flow per source s (supplying sent(s), each d absorbing traffic(s,d)) and, on every directed
/// link, the sum of the flows <= z; under single-port also every node's outgoing and incoming sums
/// <= z. Solved with CLP; the bound is certified from its dual: integer lengths on the links (and
/// nodes) scaled from the duals, sum w(s,d) dist(s,d) / sum of lengths, computed exactly, rounded up.
/// Where translations of a torus keep the traffic, the LP is solved on one source per orbit and a
/// capacity row per orbit of links (the same optimum: an optimum averaged over the group is one).
struct CongestionLp {
  bool solved = false;
  std::int64_t columns = 0;
  std::int64_t translations = 1;  // the torus translations that keep the traffic (translations.hpp): one source per orbit
  double lp_value = 0;           // CLP's optimum z*
  std::int64_t bound = 0;        // ceil of the certified ratio (<= ceil(z*))
  std::string certificate;       // "numerator/denominator"
  std::string why_not;           // when not solved
  bool path_form = false;        // solved in path form (column generation), not per source
  int rounds = 0;                // the path form's column-generation rounds
  bool converged = false;        // the path form: no path was left to add (lp_value is z*)
  /// With `flows` asked: CLP's optimal flows, per source that leads its translation orbit (in
  /// node order, `flow_sources`), per directed link.
  std::vector<NodeId> flow_sources;
  std::vector<std::vector<double>> flows;
};
/// `symmetry` false: one source per source even where translations keep the traffic (the tests
/// compare the two).
/// Past `max_columns`, without `flows`: the path form (column generation) up to `max_path_pairs`
/// pairs with traffic. `shortest_only`: each source's flow only on links one hop farther from it
/// (so on shortest paths alone): the least congestion of a routing on shortest paths, a guide for
/// the searches (a schedule of T steps on shortest paths has T >= z*), not a bound on every
/// schedule, so `lp_value` and `bound` (its ceiling) are not certified; the arc form only.
[[nodiscard]] CongestionLp congestion_lp(const Topology& t, Model m, const Traffic& traffic, std::int64_t max_columns,
                                         bool symmetry = true, bool flows = false, std::int64_t max_path_pairs = 0,
                                         bool shortest_only = false);

/// The time-expanded congestion LP of a one-shot schedule of `steps` steps under nic or all-port
/// (no relay buffers): per source (one per orbit of the translations that keep the traffic) a flow
/// over (directed link, step), injected at the source (nic: into its injection port of that step),
/// each hop one step after the last, taken off at a destination in the step it arrives (nic: its
/// ejection port of that step) by step steps-1; minimise z, the most flow on any resource in any
/// step. A schedule of `steps` steps is a point with z <= 1, so a certified z > 1 proves it too
/// short: `infeasible`, with the dual lengths' ratio (sum over flits of their cheapest walks'
/// lengths / sum of the lengths) as `certificate`.
struct TimeExpandedLp {
  bool solved = false;
  bool infeasible = false;  // certified: no schedule of `steps` steps
  std::int64_t steps = 0;
  std::int64_t columns = 0;
  std::int64_t translations = 1;
  double lp_value = 0;
  std::string certificate;
  std::string why_not;
};
[[nodiscard]] TimeExpandedLp time_expanded_lp(const Topology& t, Model m, const Traffic& traffic, std::int64_t steps,
                                              std::int64_t max_columns);

/// Adds the time_expanded_lp term to a one-shot bound `lb` (nic and all-port): from lb.steps up,
/// below `below` and at most 4 lengths, while time_expanded_lp proves the steps too few; the term's
/// value is the first length it does not (0 when that is lb.steps). schedule_traffic adds it only
/// when its best schedule is above the other terms (below: that schedule's length).
void add_time_expanded_bound(LowerBound& lb, const Topology& t, Model m, const Traffic& traffic, std::int64_t below,
                             std::int64_t max_columns);

/// S_w = sum over pairs of traffic(s,d) * dist(s,d): the hops all flits need at least.
[[nodiscard]] std::int64_t traffic_status(const Topology& t, const Traffic& traffic);

}  // namespace totex
