// SPDX-License-Identifier: Apache-2.0
#include "totex/verify/message_index.hpp"

#include <algorithm>

#include "totex/error.hpp"

namespace totex {

bool is_all_traffic(const Topology& t, const Traffic* traffic) {
  if (traffic == nullptr) return true;
  // On one-way links every traffic, all too, goes to the traffic generators and bounds (the all
  // generators assume links both ways).
  if (t.is_one_way()) return false;
  if (!traffic->is_uniform() || traffic->uniform_flits() != 1 || traffic->nodes() != t.nodes()) return false;
  if (traffic->members().empty()) return !t.is_partial();
  return traffic->members() == t.processors();
}

TrafficTag traffic_tag(const Topology& t, const Traffic* traffic) {
  if (is_all_traffic(t, traffic)) return {};
  return {traffic->spec(), traffic->sha256(), traffic->total_flits()};
}

std::string traffic_mismatch(const Topology& t, const TrafficTag& recorded, const Traffic* traffic) {
  const TrafficTag want = traffic_tag(t, traffic);
  if (want.sha256 == recorded.sha256) return "";
  return "schedule is for traffic '" + (recorded.is_all() ? std::string("all") : recorded.spec) + "', not '" +
         (want.is_all() ? std::string("all") : want.spec) + "' (the SHA-256 digests differ)";
}

std::optional<Traffic> read_traffic_again(const Topology& t, const TrafficTag& tag, const std::string& holder) {
  if (tag.is_all()) return std::nullopt;
  std::optional<Traffic> traffic;
  try {
    traffic = parse_traffic(tag.spec, t);
  } catch (const ResourceError&) {  // past the limits: exit 3, as everywhere
    throw;
  } catch (const std::runtime_error& e) {
    throw UsageError(holder + " records traffic " + tag.spec + ", which cannot be read again here: " + e.what());
  }
  if (traffic->sha256() != tag.sha256)
    throw UsageError(holder + " records traffic " + tag.spec + " with SHA-256 " + tag.sha256.substr(0, 12) +
                     "..., but it reads now to " + traffic->sha256().substr(0, 12) + "... (the file changed?)");
  return traffic;
}

std::optional<Traffic> recorded_traffic(const Topology& t, const Schedule& s) {
  return read_traffic_again(t, s.traffic, "the schedule");
}

MessageIndex::MessageIndex(const Topology& t, const Traffic* traffic) : t_(t), traffic_(traffic), n_(t.nodes()) {
  if (traffic != nullptr && traffic->nodes() != t.nodes())
    throw UsageError("traffic " + traffic->spec() + " is for " + std::to_string(traffic->nodes()) + " nodes, " + t.spec() + " has " +
                     std::to_string(t.nodes()));
  const auto n = static_cast<std::size_t>(n_);
  if (is_all_traffic(t, traffic)) {
    traffic_ = nullptr;
    if (t.is_partial()) {
      member_.assign(n, false);
      for (NodeId p : t.processors()) member_[static_cast<std::size_t>(p)] = true;
    }
    size_ = n * n;
    const auto np = static_cast<std::int64_t>(t.processor_count());
    expected_ = np * (np - 1);
    return;
  }
  expected_ = traffic->total_flits();
  if (traffic->is_uniform()) {
    per_pair_ = static_cast<std::int32_t>(traffic->uniform_flits());
    multi_flit_ = per_pair_ > 1;
    if (!traffic->members().empty()) {
      member_.assign(n, false);
      for (NodeId p : traffic->members()) member_[static_cast<std::size_t>(p)] = true;
    }
    size_ = n * n * static_cast<std::size_t>(per_pair_);
    return;
  }
  row_.assign(n + 1, 0);
  pair_dst_.reserve(static_cast<std::size_t>(traffic->pairs()));
  sparse_.reserve(static_cast<std::size_t>(traffic->pairs()) + 1);
  std::size_t next = 0;
  for (NodeId s = 0; s < n_; ++s) {
    traffic->for_each_in_row(s, [&](NodeId d, std::int64_t w) {
      pair_dst_.push_back(d);
      sparse_.push_back(next);
      next += static_cast<std::size_t>(w);
      if (w > 1) multi_flit_ = true;
    });
    row_[static_cast<std::size_t>(s) + 1] = pair_dst_.size();
  }
  sparse_.push_back(next);
  size_ = next;
}

std::size_t MessageIndex::sparse_slot(const Message& m) const {
  const auto s = static_cast<std::size_t>(m.src);
  const auto first = pair_dst_.begin() + static_cast<std::ptrdiff_t>(row_[s]);
  const auto last = pair_dst_.begin() + static_cast<std::ptrdiff_t>(row_[s + 1]);
  const auto it = std::lower_bound(first, last, m.dst);
  if (it == last || *it != m.dst) return npos;
  const auto pair = static_cast<std::size_t>(it - pair_dst_.begin());
  const std::size_t at = sparse_[pair] + static_cast<std::size_t>(m.flit);
  return at < sparse_[pair + 1] ? at : npos;
}

Message MessageIndex::message(std::size_t slot) const {
  const auto n = static_cast<std::size_t>(n_);
  if (sparse_.empty()) {
    const std::size_t base = slot / static_cast<std::size_t>(per_pair_);
    return {static_cast<NodeId>(base % n), static_cast<NodeId>(base / n), static_cast<std::int32_t>(slot % static_cast<std::size_t>(per_pair_))};
  }
  const auto pair = static_cast<std::size_t>(std::upper_bound(sparse_.begin(), sparse_.end(), slot) - sparse_.begin()) - 1;
  const auto src = static_cast<std::size_t>(std::upper_bound(row_.begin(), row_.end(), pair) - row_.begin()) - 1;
  return {static_cast<NodeId>(src), pair_dst_[pair], static_cast<std::int32_t>(slot - sparse_[pair])};
}

bool MessageIndex::expected(std::size_t slot) const {
  if (!sparse_.empty()) return slot < size_;
  const Message m = message(slot);
  return m.src != m.dst && member(m.src) && member(m.dst);
}

std::string MessageIndex::text(const Message& m) const {
  std::string s = "(" + std::to_string(m.src) + "," + std::to_string(m.dst) + ")";
  if (multi_flit_ || m.flit != 0) s += "#" + std::to_string(m.flit);
  return s;
}

std::string MessageIndex::why_not(const Message& m) const {
  if (m.src < 0 || m.src >= n_ || m.dst < 0 || m.dst >= n_ || m.src == m.dst)
    return "message " + text(m) + " is not a message of this exchange";
  if (m.flit < 0) return "message " + text(m) + " has a negative flit index";
  if (traffic_ == nullptr) {
    if (t_.is_partial() && (!t_.is_processor(m.src) || !t_.is_processor(m.dst)))
      return "message " + text(m) + ": node " + std::to_string(t_.is_processor(m.src) ? m.dst : m.src) + " has no processor in " + t_.spec();
    return "message " + text(m) + ": the exchange `all` sends one flit per pair (flit 0)";
  }
  const std::int64_t w = traffic_->flits(m.src, m.dst);
  if (w == 0)
    return "message " + text(m) + ": traffic " + traffic_->spec() + " sends no flit from " + std::to_string(m.src) + " to " +
           std::to_string(m.dst);
  return "message " + text(m) + ": traffic " + traffic_->spec() + " sends " + std::to_string(w) + " flit" + (w == 1 ? "" : "s") +
         " from " + std::to_string(m.src) + " to " + std::to_string(m.dst) + " (flits 0.." + std::to_string(w - 1) + ")";
}

}  // namespace totex
