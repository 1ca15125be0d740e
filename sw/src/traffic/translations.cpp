// SPDX-License-Identifier: Apache-2.0
#include "totex/traffic/translations.hpp"

#include <limits>

namespace totex {
namespace {

constexpr std::uint32_t kUnset = std::numeric_limits<std::uint32_t>::max();

/// Numbers the orbits of 0 .. count-1 under `image(g, x)` for every map g, in order of least member;
/// `least` (if given) gets 1 at each orbit's least member.
template <class Image>
std::uint32_t number_orbits(const Translations& tr, std::size_t count, const Image& image, std::vector<std::uint32_t>& orbit,
                            std::vector<char>* least = nullptr) {
  orbit.assign(count, kUnset);
  if (least != nullptr) least->assign(count, 0);
  std::uint32_t next = 0;
  for (std::size_t x = 0; x < count; ++x) {
    if (orbit[x] != kUnset) continue;
    if (least != nullptr) (*least)[x] = 1;
    for (const std::vector<NodeId>& g : tr.maps) orbit[image(g, x)] = next;
    ++next;
  }
  return next;
}

}  // namespace

LinkId translate_link(const Topology& t, const std::vector<NodeId>& g, LinkId l) {
  const NodeId u = t.link_source(l);
  return t.link_id(g[static_cast<std::size_t>(u)], static_cast<Port>(l - t.link_id(u, 0)));
}

Translations traffic_translations(const Topology& t, const Traffic& traffic, std::int64_t max_work, std::int64_t* work) {
  const int n = t.nodes();
  Translations out;
  std::vector<NodeId> identity(static_cast<std::size_t>(n));
  for (NodeId v = 0; v < n; ++v) identity[static_cast<std::size_t>(v)] = v;
  out.maps.push_back(identity);
  bool torus = t.is_product() && !t.is_degraded() && !t.is_partial() && traffic.nodes() == n;
  if (torus)
    for (const Factor& f : t.factors()) torus = torus && f.kind == FactorKind::Ring;
  std::int64_t pairs = 0;
  traffic.for_each([&](NodeId, NodeId, std::int64_t) { ++pairs; });
  const std::int64_t cost = static_cast<std::int64_t>(n) * pairs;
  if (torus && cost <= max_work) {
    if (work != nullptr) *work += cost;
    const std::vector<Factor>& f = t.factors();
    std::vector<std::vector<int>> coords(static_cast<std::size_t>(n));
    for (NodeId v = 0; v < n; ++v) coords[static_cast<std::size_t>(v)] = t.coordinates(v);
    for (NodeId shift = 1; shift < n; ++shift) {
      const std::vector<int>& by = coords[static_cast<std::size_t>(shift)];
      std::vector<NodeId> map(static_cast<std::size_t>(n));
      std::vector<int> c(by.size());
      for (NodeId v = 0; v < n; ++v) {
        for (std::size_t d = 0; d < c.size(); ++d) c[d] = (coords[static_cast<std::size_t>(v)][d] + by[d]) % f[d].size;
        map[static_cast<std::size_t>(v)] = t.node_at(c);
      }
      bool keeps = true;
      traffic.for_each([&](NodeId a, NodeId b, std::int64_t w) {
        keeps = keeps && traffic.flits(map[static_cast<std::size_t>(a)], map[static_cast<std::size_t>(b)]) == w;
      });
      // A route maps by its ports: every node's ports must lead the same way.
      for (NodeId v = 0; v < n && keeps; ++v)
        for (Port q = 0; q < t.degree(v) && keeps; ++q)
          keeps = t.neighbor(map[static_cast<std::size_t>(v)], q) == map[static_cast<std::size_t>(t.neighbor(v, q))];
      if (keeps) out.maps.push_back(std::move(map));
    }
  }
  out.node_orbits = number_orbits(out, static_cast<std::size_t>(n),
                                  [](const std::vector<NodeId>& g, std::size_t v) { return static_cast<std::size_t>(g[v]); }, out.node_orbit,
                                  &out.leader);
  out.link_orbits = number_orbits(out, static_cast<std::size_t>(t.links()),
                                  [&](const std::vector<NodeId>& g, std::size_t l) {
                                    return static_cast<std::size_t>(translate_link(t, g, static_cast<LinkId>(l)));
                                  },
                                  out.link_orbit);
  return out;
}

}  // namespace totex
