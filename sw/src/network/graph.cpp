// SPDX-License-Identifier: Apache-2.0
#include "totex/network/graph.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <set>
#include <tuple>

#include "../io/line_reader.hpp"
#include "totex/error.hpp"
#include "totex/network/spec.hpp"
#include "totex/traffic/traffic.hpp"

namespace totex {
namespace {

std::ifstream open_graph(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw FileError(path, 0, "is a directory, not a graph file");
  // A FIFO or a device (graph:/dev/stdin, /dev/zero) could block or never end: only files.
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    throw FileError(path, 0, "is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FileError(path, 0, "cannot open file");
  return in;
}

/// Poseidon's platform as a topology: bitorus and mesh are the product specs it names, a custom
/// platform the undirected graph of its links when each comes in both directions, else the
/// directed graph of its one-way links (router x,y is node x + width*y).
Topology poseidon_graph(std::istream& in, const std::string& path, std::string spec) {
  const PoseidonSpec p = read_poseidon_traffic(in, path, "poseidon:" + path);
  if (!p.topology_spec.empty()) return Topology::product(parse_topology(p.topology_spec).factors(), std::move(spec));
  std::set<std::pair<NodeId, NodeId>> directed(p.links.begin(), p.links.end());
  std::vector<std::pair<NodeId, NodeId>> links;
  for (const auto& [a, b] : directed) {
    if (directed.count({b, a}) == 0)
      return Topology::one_way_graph(p.width * p.height, {directed.begin(), directed.end()}, std::move(spec));
    if (a < b) links.emplace_back(a, b);
  }
  return Topology::graph(p.width * p.height, links, std::move(spec));
}

}  // namespace

Topology read_graph(std::istream& in, const std::string& name, std::string spec) {
  io_detail::ByteSource src(in, name);
  io_detail::LineLimits limits;
  limits.max_line = 4096;
  limits.what = "graph";
  io_detail::LineReader r(src, name, limits);
  if (!r.next()) r.fail("empty graph file: expected a line 'nodes N' and then one link 'a b' per line");
  if (r.fields()[0] != "nodes") r.fail("expected the line 'nodes N' before any link");
  r.expect_fields(2, "nodes N");
  const auto nodes = static_cast<int>(r.integer(1, 2, kMaxNodes, "nodes"));
  struct Link {
    NodeId a, b;
    int line;
  };
  std::vector<Link> links;
  while (r.next()) {
    if (r.fields()[0] == "nodes") r.fail("a second 'nodes' line");
    r.expect_fields(2, "a b (one link: two node ids)");
    const auto a = static_cast<NodeId>(r.integer(0, 0, nodes - 1, "node"));
    const auto b = static_cast<NodeId>(r.integer(1, 0, nodes - 1, "node"));
    if (a == b) r.fail("link " + std::to_string(a) + "-" + std::to_string(b) + " is a self-loop");
    if (links.size() == static_cast<std::size_t>(kMaxGraphLinks))
      r.fail("more than " + std::to_string(kMaxGraphLinks) + " links");
    links.push_back({std::min(a, b), std::max(a, b), r.line()});
  }
  // A link given twice (either way round): named at its second line.
  std::sort(links.begin(), links.end(),
            [](const Link& x, const Link& y) { return std::tie(x.a, x.b, x.line) < std::tie(y.a, y.b, y.line); });
  const Link* first_dup = nullptr;
  int first_line = 0;
  for (std::size_t i = 1; i < links.size(); ++i)
    if (links[i].a == links[i - 1].a && links[i].b == links[i - 1].b && (!first_dup || links[i].line < first_dup->line)) {
      first_dup = &links[i];
      first_line = links[i - 1].line;
    }
  if (first_dup)
    r.fail_at(first_dup->line, "link " + std::to_string(first_dup->a) + "-" + std::to_string(first_dup->b) +
                                   " is given twice (first on line " + std::to_string(first_line) + ")");
  std::vector<std::pair<NodeId, NodeId>> pairs;
  pairs.reserve(links.size());
  for (const Link& l : links) pairs.emplace_back(l.a, l.b);
  return Topology::graph(nodes, pairs, std::move(spec));
}

Topology load_graph(const std::string& path, std::string spec) {
  std::ifstream in = open_graph(path);
  const bool xml = path.size() >= 4 && path.compare(path.size() - 4, 4, ".xml") == 0;
  return xml ? poseidon_graph(in, path, std::move(spec)) : read_graph(in, path, std::move(spec));
}

FailList parse_fail_list(std::string_view list, const Topology& base) {
  if (list.empty()) throw UsageError("the fail list is empty (~fail:LIST, LIST = items a-b (a link) or v (a node), joined by ',')");
  const auto number = [&](std::string_view text, std::string_view item) {
    int v = -1;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || text[0] == '-' || text[0] == '+')
      throw UsageError("fail item '" + printable(item) + "' is not a node v or a link a-b (non-negative node ids)");
    if (v >= base.nodes())
      throw UsageError("fail item '" + printable(item) + "': node " + std::to_string(v) + " is out of range 0.." +
                       std::to_string(base.nodes() - 1));
    return static_cast<NodeId>(v);
  };
  // (v, -1) is node v, (a, b) with a < b the link a-b: sorted, the canonical order.
  std::vector<std::pair<NodeId, NodeId>> items;
  for (std::string_view item : split_fields(list, ',')) {
    if (item.empty()) throw UsageError("the fail list '" + printable(list) + "' has an empty item (items are joined by one ',')");
    const std::size_t dash = item.find('-');
    if (dash == std::string_view::npos) {
      items.emplace_back(number(item, item), -1);
      continue;
    }
    const NodeId a = number(item.substr(0, dash), item), b = number(item.substr(dash + 1), item);
    if (a == b || !base.port_to(a, b))
      throw UsageError("fail item '" + printable(item) + "': nodes " + std::to_string(a) + " and " + std::to_string(b) +
                       " are not adjacent in " + printable(base.spec()) + ", so there is no link " + std::to_string(a) + "-" +
                       std::to_string(b) + " to fail");
    items.emplace_back(std::min(a, b), std::max(a, b));
  }
  std::sort(items.begin(), items.end());
  const auto name = [](const std::pair<NodeId, NodeId>& i) {
    return i.second < 0 ? "node " + std::to_string(i.first) : "link " + std::to_string(i.first) + "-" + std::to_string(i.second);
  };
  for (std::size_t i = 1; i < items.size(); ++i)
    if (items[i] == items[i - 1]) throw UsageError("the fail list names " + name(items[i]) + " twice");
  FailList out;
  for (const auto& i : items)
    if (i.second < 0) out.nodes.push_back(i.first);
  for (const auto& i : items) {
    if (i.second < 0) continue;
    for (NodeId v : {i.first, i.second})
      if (std::binary_search(out.nodes.begin(), out.nodes.end(), v))
        throw UsageError("the fail list names " + name(i) + " and node " + std::to_string(v) +
                         ", which fails with all its links: leave the link out");
    out.links.push_back(i);
  }
  return out;
}

std::string to_string(const FailList& f) {
  std::vector<std::pair<NodeId, NodeId>> items = f.links;
  for (NodeId v : f.nodes) items.emplace_back(v, -1);
  std::sort(items.begin(), items.end());
  std::string out;
  for (const auto& [a, b] : items) {
    if (!out.empty()) out += ',';
    out += std::to_string(a);
    if (b >= 0) out += "-" + std::to_string(b);
  }
  return out;
}

}  // namespace totex
