// SPDX-License-Identifier: Apache-2.0
// A product network's symmetries as node maps, and a schedule relabelled by one (base_relabel.hpp).
#include "base_relabel.hpp"

#include <algorithm>
#include <numeric>

#include <optional>
#include <stdexcept>

namespace totex {

std::vector<std::vector<NodeId>> factor_symmetries(const Topology& b, std::size_t limit) {
  const auto n = static_cast<std::size_t>(b.nodes());
  std::vector<NodeId> identity(n);
  std::iota(identity.begin(), identity.end(), 0);
  std::vector<std::vector<NodeId>> out{identity};
  if (!b.is_product() || b.is_degraded() || limit <= 1) return out;
  const std::vector<Factor>& f = b.factors();
  const std::size_t dims = f.size();
  // Reflections of rings and paths (a ring or path of size 2 reflected is a translation: skipped).
  std::vector<std::size_t> reflectable;
  for (std::size_t d = 0; d < dims; ++d)
    if (f[d].kind != FactorKind::Complete && f[d].size > 2) reflectable.push_back(d);
  if (reflectable.size() > 16) reflectable.resize(16);
  std::vector<std::size_t> perm(dims);
  std::iota(perm.begin(), perm.end(), 0U);
  do {
    bool equal = true;  // a permutation of equal factors only
    for (std::size_t d = 0; d < dims; ++d) equal = equal && f[perm[d]] == f[d];
    if (!equal) continue;
    for (std::size_t mask = 0; mask < (std::size_t{1} << reflectable.size()); ++mask) {
      std::vector<bool> flip(dims, false);
      for (std::size_t i = 0; i < reflectable.size(); ++i) flip[reflectable[i]] = ((mask >> i) & 1U) != 0;
      std::vector<NodeId> map(n);
      std::vector<int> to(dims);
      for (std::size_t v = 0; v < n; ++v) {
        const std::vector<int> c = b.coordinates(static_cast<NodeId>(v));
        for (std::size_t d = 0; d < dims; ++d) {
          int x = c[perm[d]];
          if (flip[d]) x = f[d].kind == FactorKind::Ring ? (f[d].size - x) % f[d].size : f[d].size - 1 - x;
          to[d] = x;
        }
        map[v] = b.node_at(to);
      }
      if (map == identity) continue;
      out.push_back(std::move(map));
      if (out.size() >= limit) return out;
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
  return out;
}

Schedule relabel(const Topology& b, const Schedule& s, const std::vector<NodeId>& map) {
  Schedule out{s.topology, s.model, s.algorithm, {}};
  out.period = s.period;
  out.traffic = s.traffic;
  const auto at = [&](NodeId v) { return map[static_cast<std::size_t>(v)]; };
  s.for_each_step([&](std::size_t i, const std::vector<Transfer>& step) {
    if (out.steps.size() <= i) out.steps.resize(i + 1);
    for (const Transfer& tr : step) {
      const NodeId from = at(tr.from);
      const std::optional<Port> p = b.port_to(from, at(b.neighbor(tr.from, tr.port)));
      if (!p) throw std::logic_error("relabel: the map is not an automorphism of " + b.spec());
      out.steps[i].push_back({{at(tr.msg.src), at(tr.msg.dst), tr.msg.flit}, from, *p});
    }
  });
  out.steps.resize(s.step_count());
  return out;
}

}  // namespace totex
