// SPDX-License-Identifier: Apache-2.0
/// Lower bounds on total-exchange steps per model (docs/models.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "totex/network/min_network.hpp"
#include "totex/model.hpp"
#include "totex/network/topology.hpp"

namespace totex {

/// One bound with how it was obtained; `value` is already rounded up to whole steps.
struct BoundTerm {
  std::string name;     // e.g. "average_status", "bisection"
  std::int64_t value;   // steps
  std::string detail;   // e.g. "S_G/N = 96/16", "cut d0<2: 8*8 messages / 4 links"
};

struct LowerBound {
  std::int64_t steps = 0;           // the max of all terms
  std::vector<BoundTerm> terms;
};

/// Periodic (TDM) operation: the exchange repeats every `period` steps and a message may wrap into
/// the next period, so there is no fill or drain. Of a one-shot bound's terms this keeps the ones
/// that count capacity per period (average_status, link_traversals, injection, nic_ejection,
/// bisection; a MIN's configurations) and drops those that count the fill and drain
/// (nic_pipeline, link_fill, cut_corners, a MIN's pipeline) and the relay term. A one-shot schedule
/// of T steps repeated back to back is a periodic one of period T.
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

}  // namespace totex
