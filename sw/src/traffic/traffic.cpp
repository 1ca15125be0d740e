// SPDX-License-Identifier: Apache-2.0
// The Traffic matrix: construction, totals, canonical digest (docs/traffic.md, "Digest").
#include "totex/traffic/traffic.hpp"

#include <algorithm>

#include "totex/error.hpp"
#include "totex/verify/sha256.hpp"

namespace totex {
namespace {

std::string resource(const std::string& source, int line, const std::string& what) {
  return "resources: " + source + ":" + std::to_string(line) + ": " + what;
}

}  // namespace

Traffic Traffic::uniform(int nodes, std::int64_t flits, std::vector<NodeId> members, std::string kind, std::string spec) {
  if (nodes < 1 || nodes > kMaxNodes) throw UsageError("traffic: " + std::to_string(nodes) + " nodes is out of range");
  if (flits < 0) throw UsageError("traffic: a negative flit count " + std::to_string(flits));
  if (flits > kMaxPairFlits)
    throw ResourceError("resources: traffic '" + printable(spec) + "': " + std::to_string(flits) +
                        " flits per pair is above the limit of " + std::to_string(kMaxPairFlits));
  std::sort(members.begin(), members.end());
  members.erase(std::unique(members.begin(), members.end()), members.end());
  for (NodeId v : members)
    if (v < 0 || v >= nodes) throw UsageError("traffic: member " + std::to_string(v) + " is not a node 0.." + std::to_string(nodes - 1));
  const std::int64_t p = members.empty() ? nodes : static_cast<std::int64_t>(members.size());
  if (flits > 0 && p * (p - 1) > kMaxTrafficFlits / flits)
    throw ResourceError("resources: traffic '" + printable(spec) + "': " + std::to_string(p) + " nodes x " + std::to_string(p - 1) +
                        " pairs x " + std::to_string(flits) + " flits is above the limit of " + std::to_string(kMaxTrafficFlits) +
                        " flits");
  Traffic t;
  t.nodes_ = nodes;
  t.kind_ = std::move(kind);
  t.spec_ = std::move(spec);
  if (flits == 0 || p < 2) {  // nothing to send: the empty sparse traffic
    t.row_.assign(static_cast<std::size_t>(nodes) + 1, 0);
  } else {
    t.uniform_ = true;
    t.uniform_flits_ = flits;
    if (static_cast<int>(members.size()) != nodes && !members.empty()) {
      t.member_.assign(static_cast<std::size_t>(nodes), false);
      for (NodeId v : members) t.member_[static_cast<std::size_t>(v)] = true;
      t.members_ = std::move(members);
    }
  }
  t.finish();
  return t;
}

Traffic Traffic::from_triplets(int nodes, std::vector<Triplet> triplets, Duplicates dup, std::string kind, std::string spec,
                               const std::string& source) {
  if (nodes < 1 || nodes > kMaxNodes) throw UsageError("traffic: " + std::to_string(nodes) + " nodes is out of range");
  for (const Triplet& x : triplets) {
    if (x.src < 0 || x.src >= nodes || x.dst < 0 || x.dst >= nodes)
      throw FileError(source, x.line, "node " + std::to_string(x.src < 0 || x.src >= nodes ? x.src : x.dst) +
                                          " is out of range 0.." + std::to_string(nodes - 1));
    if (x.src == x.dst && x.flits > 0)
      throw FileError(source, x.line, "self-traffic: node " + std::to_string(x.src) + " sends " + std::to_string(x.flits) +
                                          " flits to itself");
    if (x.flits > kMaxPairFlits)
      throw ResourceError(resource(source, x.line, std::to_string(x.flits) + " flits from node " + std::to_string(x.src) +
                                                       " to " + std::to_string(x.dst) + " is above the limit of " +
                                                       std::to_string(kMaxPairFlits) + " per pair"));
  }
  triplets.erase(std::remove_if(triplets.begin(), triplets.end(), [](const Triplet& x) { return x.flits == 0; }), triplets.end());
  std::stable_sort(triplets.begin(), triplets.end(),
                   [](const Triplet& a, const Triplet& b) { return a.src != b.src ? a.src < b.src : a.dst < b.dst; });
  Traffic t;
  t.nodes_ = nodes;
  t.kind_ = std::move(kind);
  t.spec_ = std::move(spec);
  t.row_.assign(static_cast<std::size_t>(nodes) + 1, 0);
  std::int64_t total = 0;
  for (std::size_t i = 0; i < triplets.size();) {
    const Triplet& first = triplets[i];
    std::int64_t sum = 0;
    std::size_t j = i;
    for (; j < triplets.size() && triplets[j].src == first.src && triplets[j].dst == first.dst; ++j) {
      if (j > i && dup == Duplicates::Refuse)
        throw FileError(source, triplets[j].line, "node " + std::to_string(first.src) + " to " + std::to_string(first.dst) +
                                                      " is given twice (first on line " + std::to_string(first.line) + ")");
      sum += triplets[j].flits;
      if (sum > kMaxPairFlits)
        throw ResourceError(resource(source, triplets[j].line, "node " + std::to_string(first.src) + " to " +
                                                                   std::to_string(first.dst) + " adds up to more than " +
                                                                   std::to_string(kMaxPairFlits) + " flits"));
    }
    total += sum;
    if (total > kMaxTrafficFlits)
      throw ResourceError(resource(source, first.line, "the traffic adds up to more than " + std::to_string(kMaxTrafficFlits) + " flits"));
    t.entries_.push_back({first.dst, static_cast<std::uint32_t>(sum)});
    ++t.row_[static_cast<std::size_t>(first.src) + 1];
    i = j;
  }
  triplets.clear();
  triplets.shrink_to_fit();
  for (std::size_t s = 0; s < static_cast<std::size_t>(nodes); ++s) t.row_[s + 1] += t.row_[s];
  return canonical(std::move(t));
}

Traffic Traffic::from_rows(int nodes, std::vector<std::size_t> row, std::vector<Entry> entries, std::string kind, std::string spec) {
  const auto n = static_cast<std::size_t>(nodes);
  if (nodes < 1 || nodes > kMaxNodes || row.size() != n + 1 || row.front() != 0 || row.back() != entries.size())
    throw UsageError("traffic: malformed rows");
  std::int64_t total = 0;
  for (std::size_t s = 0; s < n; ++s) {
    if (row[s] > row[s + 1]) throw UsageError("traffic: malformed rows");
    for (std::size_t i = row[s]; i < row[s + 1]; ++i) {
      const Entry& e = entries[i];
      if (e.dst < 0 || e.dst >= nodes || e.dst == static_cast<NodeId>(s) || e.flits == 0 || e.flits > kMaxPairFlits ||
          (i > row[s] && entries[i - 1].dst >= e.dst))
        throw UsageError("traffic: row " + std::to_string(s) + " is not increasing destinations of 1.." +
                         std::to_string(kMaxPairFlits) + " flits");
      total += e.flits;
    }
  }
  if (total > kMaxTrafficFlits)
    throw ResourceError("resources: traffic '" + printable(spec) + "' adds up to more than " + std::to_string(kMaxTrafficFlits) + " flits");
  Traffic t;
  t.nodes_ = nodes;
  t.kind_ = std::move(kind);
  t.spec_ = std::move(spec);
  t.row_ = std::move(row);
  t.entries_ = std::move(entries);
  return canonical(std::move(t));
}

Traffic Traffic::canonical(Traffic t) {
  const int nodes = t.nodes_;
  // Canonical form: every pair of distinct nodes of some set X with one count is uniform over X.
  if (!t.entries_.empty()) {
    const std::uint32_t w = t.entries_.front().flits;
    bool same = std::all_of(t.entries_.begin(), t.entries_.end(), [&](const Entry& e) { return e.flits == w; });
    if (same) {
      std::vector<bool> touched(static_cast<std::size_t>(nodes), false);
      for (NodeId s = 0; s < nodes; ++s)
        for (std::size_t i = t.row_[static_cast<std::size_t>(s)]; i < t.row_[static_cast<std::size_t>(s) + 1]; ++i) {
          touched[static_cast<std::size_t>(s)] = true;
          touched[static_cast<std::size_t>(t.entries_[i].dst)] = true;
        }
      std::vector<NodeId> members;
      for (NodeId v = 0; v < nodes; ++v)
        if (touched[static_cast<std::size_t>(v)]) members.push_back(v);
      const auto p = static_cast<std::int64_t>(members.size());
      if (p * (p - 1) == static_cast<std::int64_t>(t.entries_.size())) {
        if (p == nodes) members.clear();
        return uniform(nodes, w, std::move(members), std::move(t.kind_), std::move(t.spec_));
      }
    }
  }
  t.entries_.shrink_to_fit();
  t.finish();
  return t;
}

std::int64_t Traffic::flits(NodeId src, NodeId dst) const {
  if (src < 0 || src >= nodes_ || dst < 0 || dst >= nodes_ || src == dst) return 0;
  if (uniform_) return is_member(src) && is_member(dst) ? uniform_flits_ : 0;
  const auto s = static_cast<std::size_t>(src);
  const auto begin = entries_.begin() + static_cast<std::ptrdiff_t>(row_[s]);
  const auto end = entries_.begin() + static_cast<std::ptrdiff_t>(row_[s + 1]);
  const auto it = std::lower_bound(begin, end, dst, [](const Entry& e, NodeId d) { return e.dst < d; });
  return it != end && it->dst == dst ? it->flits : 0;
}

std::string traffic_row_text(const Traffic& t, NodeId src) {
  std::string text;
  t.for_each_in_row(src, [&](NodeId d, std::int64_t w) {
    text += text.empty() ? std::to_string(src) : std::string();
    text += ' ' + std::to_string(d) + ':' + std::to_string(w);
  });
  return text.empty() ? text : text + '\n';
}

void Traffic::finish() {
  const auto n = static_cast<std::size_t>(nodes_);
  sent_.assign(n, 0);
  received_.assign(n, 0);
  std::string canonical = "totex-traffic 1\nnodes " + std::to_string(nodes_) + "\n";
  if (uniform_) {
    const std::int64_t p = members_.empty() ? nodes_ : static_cast<std::int64_t>(members_.size());
    for (NodeId v = 0; v < nodes_; ++v)
      if (is_member(v)) sent_[static_cast<std::size_t>(v)] = received_[static_cast<std::size_t>(v)] = (p - 1) * uniform_flits_;
    total_ = p * (p - 1) * uniform_flits_;
    pairs_ = p * (p - 1);
    canonical += "uniform " + std::to_string(uniform_flits_) + "\nmembers";
    if (members_.empty()) canonical += " all";
    for (NodeId v : members_) canonical += ' ' + std::to_string(v);
    canonical += '\n';
  } else {
    total_ = 0;
    pairs_ = static_cast<std::int64_t>(entries_.size());
    canonical += "sparse\n";
    for (NodeId s = 0; s < nodes_; ++s) {
      for (std::size_t i = row_[static_cast<std::size_t>(s)]; i < row_[static_cast<std::size_t>(s) + 1]; ++i) {
        sent_[static_cast<std::size_t>(s)] += entries_[i].flits;
        received_[static_cast<std::size_t>(entries_[i].dst)] += entries_[i].flits;
        total_ += entries_[i].flits;
      }
      const std::string row = traffic_row_text(*this, s);
      if (!row.empty()) canonical += std::to_string(s) + ' ' + sha256_hex(row) + '\n';
    }
  }
  sha_ = sha256_hex(canonical);
}

PairFlits heaviest_pair(const Traffic& t) {
  PairFlits most;
  t.for_each([&](NodeId src, NodeId dst, std::int64_t flits) {
    if (flits > most.flits) most = {src, dst, flits};
  });
  return most;
}

}  // namespace totex
