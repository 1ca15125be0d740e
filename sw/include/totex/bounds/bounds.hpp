// SPDX-License-Identifier: Apache-2.0
/// Lower bounds on total-exchange steps per model (docs/models.md).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "totex/network/min_network.hpp"
#include "totex/model.hpp"
#include "totex/network/topology.hpp"

namespace totex {

/// One bound with how it was obtained; `value` is already rounded up to whole steps.
struct BoundTerm {
  BoundTerm() = default;
  /// {name, value, detail} as before: a term that does not hold modulo a period.
  BoundTerm(std::string n, std::int64_t v, std::string d, std::int64_t periodic = -1, std::string periodic_detail = {})
      : name(std::move(n)), value(v), detail(std::move(d)), per_period(periodic), per_period_detail(std::move(periodic_detail)) {}
  std::string name;     // e.g. "average_status", "bisection"
  std::int64_t value = 0;  // steps
  std::string detail;   // e.g. "S_G/N = 96/16", "cut d0<2: 8*8 messages / 4 links"
  /// What the same argument proves for a periodic schedule (the exchange repeats every P steps and
  /// a message may wrap into the next period; docs/models.md, "The periodic bound"): the period it
  /// forces, or -1 where the argument does not hold modulo a period (fill and drain, distances,
  /// arrival times). Set by the code that derives the term, so each term says it itself.
  std::int64_t per_period = -1;
  std::string per_period_detail;  // the periodic argument, when it differs from `detail`
};

struct LowerBound {
  std::int64_t steps = 0;           // the max of all terms
  std::vector<BoundTerm> terms;
};

/// Periodic (TDM) operation: the exchange repeats every `period` steps and a message may wrap into
/// the next period, so there is no fill or drain. Each one-shot term says what it proves modulo a
/// period (BoundTerm::per_period): the capacity terms hold per period (average_status,
/// link_traversals, injection, bisection; nic_ejection as |P|-1 only, without the arrival times of
/// placed tori; a MIN's configurations); the fill, drain and distance terms do not (nic_pipeline,
/// link_fill, cut_corners, distance, a MIN's pipeline) and the relay term is not kept. A one-shot
/// schedule of T steps repeated back to back is a periodic one of period T.
[[nodiscard]] LowerBound periodic_lower_bound(const LowerBound& one_shot);

/// single-port: AS(G) = S_G/N and the cut bound with at most min(c,|A|,|B|) crossings per step;
/// all-port: S_G / directed links (= status/degree when vertex-transitive), (N-1)/deg(v), cuts;
/// nic: max(N-1, S_G / directed links, cuts). Graphs with cut vertices (paths, meshes) also get
/// the relay bound: a cut vertex forwards every message between the components it separates.
[[nodiscard]] LowerBound lower_bound(const Topology& t, Model m);
/// MIN: N configurations (each terminal sends N messages, the self slot included)
/// plus log_d N - 1 pipeline cycles.
[[nodiscard]] LowerBound lower_bound(const MinNetwork& net);

/// The candidate cuts (A, B) used by the bisection bound; each is valid, the best is kept.
struct Cut {
  std::string name;
  std::vector<bool> in_a;
};
[[nodiscard]] std::vector<Cut> candidate_cuts(const Topology& t);
/// Directed links from A to B, counted explicitly.
[[nodiscard]] std::int64_t cut_links(const Topology& t, const std::vector<bool>& in_a);
/// Two cuts' directed crossing links together, and the link-steps they must leave idle under nic in
/// the first and the last step (a tail or head of k of them serves one: k - 1 idle), cut_corners' terms.
struct CutPairCapacity {
  std::int64_t links = 0, idle = 0;
  std::int64_t idle_first = 0, idle_last = 0;  // idle's two parts: sum of out - 1 and of in - 1
};
[[nodiscard]] CutPairCapacity cut_pair_capacity(const Topology& t, const Cut& a, const Cut& b);
/// cut_corners' steps for two cuts crossed `crossings` times in all: ceil((crossings + idle) /
/// links), the idle link-steps being in the first step (a NIC injects one flit) and in the last (it
/// ejects one). That takes two distinct steps: where one step could carry the crossings (each node
/// injecting and ejecting one flit in it, crossings + max(idle_first, idle_last) <= links) the
/// term says no more than 1.
[[nodiscard]] std::int64_t cut_corner_steps(std::int64_t crossings, const CutPairCapacity& c);
/// The articulation points of `t` (nodes whose removal disconnects it): the relay bounds' nodes.
[[nodiscard]] std::vector<NodeId> cut_vertices(const Topology& t);

}  // namespace totex
