// SPDX-License-Identifier: Apache-2.0
/// Paper 003 (Li, Peng & Chu, "Efficient Communication in Metacube"): total exchange in the
/// metacube MC(k,m) for k = 2 (quad-cube, as printed) and k = 1 (dual-cube, the same idea).
///
///  - Algorithm 1: the destination order. In communication step x every source s sends to
///    d = (c, c[F-1 (+) x'], ..., c[0 (+) x']) (+) s, with (c, c[F-1], ..., c[0]) the binary digits of
///    x+1, F = 2^k fields and x' = c (+) c_s (the class of d); step "x = -1" would be d = s.
///  - Algorithm 3: the type of (s,d), from the fields (relative to c_s) that are neither s's nor d's.
///  - Table 1: classPath[dest][type] = (length, classes relative to c_s).
///  - Algorithms 2 and 4: ascending routing in the cluster of the current class, then along the
///    class path, routing in each cluster it enters while the message is not yet at d.
///
/// Table 1 as printed has one invalid entry: (dest 3, type 2) = (2,1,3) never enters a class-2
/// cluster although type 2 means field 2 differs; the route would end at a node that is not d.
/// The corrected entry (2,2,3) is used by default (it is the one the paper's E_3 term assumes);
/// ClassPathTable::Printed reproduces the printed one so the failure can be shown.
///
/// k = 1 (dual-cube, not in paper 003): two fields, so Algorithm 1 keeps its form with 2 fields,
/// Algorithm 3 gives type 1 iff s and d are in the same class and the other field differs, and
/// the table is dest 0: (0), (2,1,0); dest 1: (1,1). It is the restriction of Table 1's rule
/// "visit the class of every differing field on a shortest class walk" to the 1-cube.
#pragma once
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "totex/schedule.hpp"
#include "totex/network/topology.hpp"

namespace totex {

enum class ClassPathTable { Corrected, Printed };

/// Throws UsageError unless t is a metacube with k = 1 or k = 2.
void require_supported_metacube(const Topology& t);

/// Number of communication steps of Algorithm 1: p - 1.
[[nodiscard]] int metacube_step_count(const Topology& t);
/// Destination of source s in communication step x (0-based, x < p-1): Algorithm 1.
[[nodiscard]] NodeId metacube_destination(const Topology& t, NodeId s, int step);
/// Algorithm 1's destination order for source s: order[x] = destination in step x (p-1 nodes).
[[nodiscard]] std::vector<NodeId> metacube_destination_order(const Topology& t, NodeId s);
/// Algorithm 3 (for k = 1 its restriction): the type of (s,d), 0..3.
[[nodiscard]] int metacube_type(const Topology& t, NodeId s, NodeId d);
/// Table 1 row (dest, type): element 0 is the length, then the classes relative to c_s.
[[nodiscard]] std::vector<int> metacube_class_path(int k, int dest, int type,
                                                   ClassPathTable table = ClassPathTable::Corrected);
/// Algorithms 2 + 4: the nodes of the route from s to d (s first). With the printed table the
/// last node can differ from d (that is how the invalid entry shows).
[[nodiscard]] std::vector<NodeId> metacube_route(const Topology& t, NodeId s, NodeId d,
                                                 ClassPathTable table = ClassPathTable::Corrected);
/// The route as hops (node, port), for building schedules.
[[nodiscard]] std::vector<std::pair<NodeId, Port>> metacube_route_hops(
    const Topology& t, NodeId s, NodeId d, ClassPathTable table = ClassPathTable::Corrected);

/// Two messages of one communication step that cross the same directed link.
struct MetacubeLinkConflict {
  int step = -1;
  Message a{-1, -1};
  Message b{-1, -1};
  NodeId from = -1;  // the shared directed link from -> to
  NodeId to = -1;
  int hop_a = -1;    // 0-based hop index at which a / b crosses it
  int hop_b = -1;
};

/// What the computation says about the paper's claims (all routes with the corrected table).
struct MetacubeAnalysis {
  int k = 0, m = 0, nodes = 0;
  std::int64_t routes_checked = 0;
  bool routes_valid = false;          // every route is a path of adjacent nodes from s to d
  bool routes_shortest = false;       // ... of BFS length
  std::int64_t invalid_routes = 0;
  std::int64_t non_shortest_routes = 0;
  std::int64_t printed_table_invalid_routes = 0;  // routes that miss d with the printed Table 1
  /// Sum over d of the route length from one source (the d*t_h coefficient); min = max when
  /// every source sees the same total.
  std::int64_t total_path_length_min = 0;
  std::int64_t total_path_length_max = 0;
  std::int64_t total_bfs_distance = 0;  // the same sum of BFS distances, for source 0
  /// The paper's value p(log p / 2 + 5/2) - sqrt(2) p^{3/4} - 3 sqrt(p) (k = 2 only).
  std::optional<std::int64_t> paper_total_path_length;
  /// In every step all p pairs (s,d) have the same distance.
  bool distance_uniform_per_step = false;
  int non_uniform_steps = 0;
  /// In every step the p routes are pairwise link-disjoint as sets of directed links.
  bool link_disjoint_per_step = false;
  int link_conflict_steps = 0;              // steps with at least one shared directed link
  std::int64_t link_conflict_pairs = 0;     // (link, extra message) collisions over all steps
  std::optional<MetacubeLinkConflict> first_link_conflict;
  /// Weaker: with all messages of a step injected together, no directed link is used by two
  /// messages at the same hop index (time-aligned conflict-freedom).
  bool time_aligned_disjoint_per_step = false;
  int time_aligned_conflict_steps = 0;
  std::optional<MetacubeLinkConflict> first_time_aligned_conflict;
};

/// Checks every route against BFS and the paper's per-step claims.
[[nodiscard]] MetacubeAnalysis analyze_metacube(const Topology& t);

/// Largest metacube the schedule and the analysis accept (they handle all p(p-1) routes).
inline constexpr int kMaxMetacubeScheduleNodes = 4096;

/// The order in which communication steps are placed.
enum class MetacubeOrder {
  Paper,     // Algorithm 1's order: step x at the earliest start where it fits (after nothing else)
  FirstFit,  // list scheduling: at each start, the first not yet placed step (paper order) that fits
};

/// The schedule and how it was placed.
struct MetacubeScheduleResult {
  Schedule schedule;
  std::vector<int> injection_step;  // per communication step: the link-level step its messages start
  int split_steps = 0;              // communication steps that had to be placed message by message
};

/// Paper 003's communication steps as a `nic` schedule: each step's p messages are injected
/// together (one per node) and move one hop per step without waiting; each step is placed at the
/// earliest link-level step where all of its hops, injections and ejections are free. A
/// communication step whose own messages collide at the same hop index would be placed message by
/// message (counted in split_steps; it never happens for k = 1, 2). Throws UsageError for
/// unsupported k or more than kMaxMetacubeScheduleNodes nodes.
[[nodiscard]] MetacubeScheduleResult metacube_schedule_detailed(const Topology& t,
                                                                MetacubeOrder order = MetacubeOrder::Paper);
[[nodiscard]] Schedule metacube_schedule(const Topology& t, MetacubeOrder order = MetacubeOrder::Paper);

}  // namespace totex
