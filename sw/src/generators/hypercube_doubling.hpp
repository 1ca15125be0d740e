// SPDX-License-Identifier: Apache-2.0
/// All-port total exchange on the n-cube in 2^(n-1) steps, the lower bound (hops / links), for
/// every n, without relay buffering: a translation-invariant schedule built by doubling.
///
/// A schedule of Q_n is a tiling of an n x 2^(n-1) grid (row = dimension, column = step) by the
/// 2^n - 1 patterns d != 0, each a run of popcount(d) consecutive columns in the rows of its bits.
/// Q_(n+1) takes two copies of Q_n's tiling side by side (the second one possibly reversed in
/// time): columns [0, T) and [T, 2T). Each offset d of Q_n appears twice; one copy stays d, the
/// other becomes d + e_n by taking one hop in the new dimension n just before its first column or
/// just after its last (its hops stay consecutive). Row n must then be filled exactly once per
/// column: a bipartite matching of the 2T - 1 offsets onto the 2T columns of row n (each offset
/// has up to four candidate columns), the free column going to e_n itself. Copies are tried as
/// they are, reversed in time and with their dimensions renamed (seeded, so deterministic) until
/// the matching is perfect and the result can be doubled again; the construction reports failure
/// if no try works (it succeeds for every n <= 16, the largest hypercube totex accepts).
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "pattern_schedule.hpp"
#include "totex/network/topology.hpp"

namespace totex {

/// Whether `t` is a hypercube (every factor of size 2) with a processor at every node.
[[nodiscard]] bool hypercube_doubling_applies(const Topology& t);

/// The pattern of one offset of a hypercube (bit i = dimension i): it leaves in step `start` and
/// crosses `dims` in that order, one per step. Shared with the pipeline construction.
[[nodiscard]] PlacedPattern hypercube_pattern(const Topology& t, unsigned offset, std::int64_t start, const std::vector<int>& dims);

/// The 2^n - 1 placed patterns of the doubling construction, or nothing if a matching failed.
[[nodiscard]] std::optional<std::vector<PlacedPattern>> hypercube_doubling_patterns(const Topology& t);

}  // namespace totex
