// SPDX-License-Identifier: Apache-2.0
#include "totex/traffic/min_terminals.hpp"

#include <string>

#include "totex/error.hpp"
#include "totex/network/spec.hpp"

namespace totex {

Topology min_traffic_nodes(const MinNetwork& net) {
  return std::get<Topology>(parse_spec("ring:" + std::to_string(net.terminals())));
}

Traffic parse_min_traffic(std::string_view spec, const MinNetwork& net) {
  const Topology nodes = min_traffic_nodes(net);
  try {
    return parse_traffic(spec, nodes);
  } catch (const UsageError& e) {  // "... ring:64 is not one": say the MIN's terminals instead
    std::string text = e.what();
    const std::string stand_in = nodes.spec();
    for (std::size_t at = text.find(stand_in); at != std::string::npos; at = text.find(stand_in, at + 1))
      text.replace(at, stand_in.size(), net.spec() + " (" + std::to_string(net.terminals()) + " terminals)");
    throw UsageError(text);
  }
}

}  // namespace totex
