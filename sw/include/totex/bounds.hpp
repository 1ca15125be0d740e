// SPDX-License-Identifier: Apache-2.0
/// Lower bounds on total-exchange steps per model (docs/models.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "totex/min_network.hpp"
#include "totex/model.hpp"
#include "totex/topology.hpp"

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
