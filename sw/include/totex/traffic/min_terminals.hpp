// SPDX-License-Identifier: Apache-2.0
/// A MIN's traffic is read on its terminals (docs/traffic.md, "On a MIN"). Apart from the MIN
/// scheduler (min_traffic.hpp) so that the verifier and the engines need no SAT solver.
#pragma once
#include <string_view>

#include "totex/network/min_network.hpp"
#include "totex/network/topology.hpp"
#include "totex/traffic/traffic.hpp"

namespace totex {

/// The network a MIN's traffic is read on: its N terminals as the nodes of ring:N (a file or
/// generator names terminals; `groups:0` is all of them; `perm:transpose` is refused).
[[nodiscard]] Topology min_traffic_nodes(const MinNetwork& net);
/// parse_traffic on those nodes, its messages naming the MIN.
[[nodiscard]] Traffic parse_min_traffic(std::string_view spec, const MinNetwork& net);

}  // namespace totex
