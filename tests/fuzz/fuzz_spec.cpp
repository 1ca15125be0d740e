// SPDX-License-Identifier: Apache-2.0
/// The topology spec parser (`--topo`): any bytes either parse or raise UsageError/ResourceError
/// (FileError for a graph:FILE that cannot be read); a parsed network is consistent (links are
/// symmetric, ports in range, the spec parses again to the same network). Bytes that start with
/// "nodes" or "#" are a graph file (graph:FILE, docs/networks.md) read from memory instead.
#include <sstream>

#include "fuzz_common.hpp"
#include "totex/network/graph.hpp"
#include "totex/network/spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace totex;
  if (size > 200) return 0;
  const std::string spec = fuzz::bytes(data, size);
  try {
    const bool graph_file = spec.rfind("nodes", 0) == 0 || spec.rfind("#", 0) == 0;
    std::istringstream in(spec);
    const Network net = graph_file ? Network(read_graph(in, "fuzz.graph", "graph:fuzz.graph")) : parse_spec(spec);
    if (const auto* t = std::get_if<Topology>(&net)) {
      fuzz::require(t->nodes() >= 2 && t->nodes() <= kMaxNodes, "node count out of range");
      fuzz::require(t->processor_count() >= 1 && t->processor_count() <= t->nodes(), "processor count");
      if (t->links() <= (1 << 16))  // port_to is linear in the degree: keep the check itself cheap
        for (NodeId v = 0; v < t->nodes(); ++v)
          for (Port p = 0; p < t->degree(v); ++p) {
            const NodeId w = t->neighbor(v, p);
            fuzz::require(w >= 0 && w < t->nodes() && w != v, "neighbour out of range");
            const auto back = t->port_to(w, v);
            fuzz::require(back.has_value() && t->neighbor(w, *back) == v, "link without its reverse");
          }
      // The round trip rebuilds the network; above 2^20 links that doubled the cost of the
      // execution (ghc:42x537, 12.7 M links: about 1 s CPU per build under ASan) for the same code.
      if (t->links() <= (1 << 20) && !graph_file) {
        const Network again = parse_spec(t->spec());
        fuzz::require(std::get<Topology>(again).nodes() == t->nodes(), "spec does not parse to the same network");
      }
    } else {
      const auto& m = std::get<MinNetwork>(net);
      fuzz::require(m.terminals() >= 2 && m.stages() >= 1, "MIN shape");
      const Network again = parse_spec(m.spec());
      fuzz::require(std::get<MinNetwork>(again).terminals() == m.terminals(), "MIN spec does not parse again");
      if (m.terminals() <= 4096) {
        const std::vector<int> perm = m.permutation(MinConfiguration(static_cast<std::size_t>(m.switches()), 0));
        std::vector<bool> hit(perm.size(), false);
        for (const int p : perm) {
          fuzz::require(p >= 0 && p < m.terminals() && !hit[static_cast<std::size_t>(p)], "not a permutation");
          hit[static_cast<std::size_t>(p)] = true;
        }
      }
    }
  } catch (const UsageError&) {
  } catch (const ResourceError&) {
  } catch (const FileError&) {
  }
  return 0;
}
