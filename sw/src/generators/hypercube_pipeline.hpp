// SPDX-License-Identifier: Apache-2.0
/// The pipeline construction for hypercubes under nic (issue 29): a translation-invariant (XOR)
/// schedule at the nic pipeline bound, N - 1 + ceil(sum over offsets of (w - 1) / (N - 1)) with
/// w = popcount(offset), built in milliseconds instead of searched for.
///
/// Every node sends offset d in step t(d) on a route through the w dimensions of d, one per step,
/// so the message is ejected in step e(d) = t(d) + w - 1. Under nic each node injects and ejects
/// one message per step: t and e must both be injective. The links of a hypercube are at most
/// half busy, so the bound is set by the NICs alone; meeting it needs the injections in steps
/// 0..N-2 with no gap and the last ejection in step T - 1 (docs/scale.md#the-hypercube-pipeline):
/// the ejection steps are the injection steps shifted by c = floor(mean(w - 1)) for the first
/// part and by c + 1 for the last r offsets (r = the remainder), and within each part e - t - c
/// runs over the displacements of a permutation. The permutation is built from blocks (a block
/// of 2a positions shifting a offsets by +a and a by -a; a pair +a, -a around a - 1 fixed points;
/// a cycle of one +a with smaller steps back), which fixes how many offsets of each weight go
/// where. Which offset of a weight takes which slot, and
/// the order of each route's dimensions, is then a bipartite matching per route against the
/// steps each dimension is already busy (one pattern hop per dimension and step is the link rule
/// of a translation-invariant hypercube schedule), with one rip-up of a blocking route.
/// Deterministic for a given C++ library (seeded std::shuffle and distributions, whose streams the
/// standard leaves to the library; a few seeds tried). Which pairs of delays
/// the last part takes decides whether the first part's cycles find enough fixed points: pairs
/// +-1 first serve every n <= 16 but 13 and 15, pairs +-2 first serve those.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "pattern_schedule.hpp"
#include "totex/network/topology.hpp"

namespace totex {

/// Empty when the construction applies (a hypercube with a processor at every node whose
/// permutation blocks exist: every n <= 16), else why not.
[[nodiscard]] std::string hypercube_pipeline_why_not(const Topology& t);

/// The N - 1 placed patterns at the nic pipeline bound, or nothing where the construction does not
/// apply (not a hypercube with a processor at every node) or no seed routes every offset.
[[nodiscard]] std::optional<std::vector<PlacedPattern>> hypercube_pipeline_patterns(const Topology& t);

/// A periodic schedule of period N - 1 (the nic period bound, nic_ejection): every NIC injects and
/// ejects in every slot. Then the delays must add up to a multiple of N - 1, which minimal routes
/// do not (docs/periodic.md: slot sums); the lightest offsets take a detour (one spare dimension
/// crossed twice) until they do. Injection slots are all of 0..N-2; the ejections, slot + delay
/// modulo the period, are made distinct by a min-conflicts local search over the order of the
/// delays; routes as for the one-shot schedule, modulo the period. Nothing where it fails (seen on
/// hypercube:4, whose links the detours fill completely) or past hypercube:11 (hypercube:12 needs
/// 4092 detours and found no routing in 16 seeds).
[[nodiscard]] std::optional<std::vector<PlacedPattern>> hypercube_pipeline_periodic_patterns(const Topology& t);

}  // namespace totex
