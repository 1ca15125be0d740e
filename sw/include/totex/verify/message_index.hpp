// SPDX-License-Identifier: Apache-2.0
/// The messages an exchange must deliver, numbered 0..size()-1, for the verifiers (one-shot and
/// periodic) and the reference engine. A message is one flit: (src, dst, flit index).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "totex/schedule.hpp"
#include "totex/network/topology.hpp"
#include "totex/traffic/traffic.hpp"

namespace totex {

class MessageIndex {
 public:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  /// `traffic` null (or a traffic equal to `all`): one flit between every ordered pair of processors,
  /// numbered destination-major (dst * N + src), the layout the verifiers always used. A uniform
  /// traffic of M flits: (dst * N + src) * M + flit. Any other: pairs in row order, flits of a pair
  /// consecutive. `traffic` must outlive the index.
  MessageIndex(const Topology& t, const Traffic* traffic);

  /// Slots: every number slot() can return (some may be unused, see expected()).
  [[nodiscard]] std::size_t size() const { return size_; }
  /// The messages to deliver.
  [[nodiscard]] std::int64_t expected_count() const { return expected_; }
  /// The slot of `m`, or npos when it is not a message of this exchange (why_not() says why).
  [[nodiscard]] std::size_t slot(const Message& m) const {
    if (m.src < 0 || m.src >= n_ || m.dst < 0 || m.dst >= n_ || m.src == m.dst || m.flit < 0) return npos;
    const auto base = static_cast<std::size_t>(m.dst) * static_cast<std::size_t>(n_) + static_cast<std::size_t>(m.src);
    if (sparse_.empty()) {
      if (m.flit >= per_pair_ || !member(m.src) || !member(m.dst)) return npos;
      return base * static_cast<std::size_t>(per_pair_) + static_cast<std::size_t>(m.flit);
    }
    return sparse_slot(m);
  }
  /// The message in `slot`.
  [[nodiscard]] Message message(std::size_t slot) const;
  /// Whether `slot` holds a message that must be delivered.
  [[nodiscard]] bool expected(std::size_t slot) const;
  /// Why slot(m) is npos, as a clause ("node 3 has no processor in ...", "traffic ... sends no flit from 1 to 2").
  [[nodiscard]] std::string why_not(const Message& m) const;
  /// "(s,d)" for one-flit pairs, "(s,d)#k" when pairs carry several flits.
  [[nodiscard]] std::string text(const Message& m) const;
  /// Whether flit indices appear (some pair carries more than one flit).
  [[nodiscard]] bool multi_flit() const { return multi_flit_; }

 private:
  [[nodiscard]] bool member(NodeId v) const { return member_.empty() || member_[static_cast<std::size_t>(v)]; }
  [[nodiscard]] std::size_t sparse_slot(const Message& m) const;
  const Topology& t_;
  const Traffic* traffic_ = nullptr;
  NodeId n_ = 0;
  std::int32_t per_pair_ = 1;     // uniform layouts
  std::vector<bool> member_;      // uniform layouts: who sends and receives (empty: every node)
  std::vector<std::size_t> sparse_;  // sparse: the first slot of every pair in row order, then size
  std::vector<std::size_t> row_;     // sparse: row s's pairs are [row_[s], row_[s+1])
  std::vector<NodeId> pair_dst_;     // sparse: destination of every pair
  std::size_t size_ = 0;
  std::int64_t expected_ = 0;
  bool multi_flit_ = false;
};

/// Whether a traffic is `all` (one flit between every ordered pair of the processors of `t`): its
/// schedules, files and digests are today's.
[[nodiscard]] bool is_all_traffic(const Topology& t, const Traffic* traffic);

/// "" when a schedule tagged `recorded` was made for `traffic` (null: all); otherwise the verifiers'
/// violation text naming both specs (the digests differ).
[[nodiscard]] std::string traffic_mismatch(const Topology& t, const TrafficTag& recorded, const Traffic* traffic);

/// The traffic `s` records (Schedule::traffic), read again from its spec, or nullopt for all.
/// Throws UsageError when the spec cannot be read here (a file that moved) or reads to another
/// digest (a file that changed): what must be delivered comes from the traffic, never from the
/// schedule under test.
[[nodiscard]] std::optional<Traffic> recorded_traffic(const Topology& t, const Schedule& s);
/// The traffic `tag` names (nullopt for all), read again from its spec and checked against its
/// digest, as recorded_traffic does; errors say that `holder` ("the schedule") records it.
[[nodiscard]] std::optional<Traffic> read_traffic_again(const Topology& t, const TrafficTag& tag, const std::string& holder);

/// The tag a schedule made for `traffic` records (empty for all).
[[nodiscard]] TrafficTag traffic_tag(const Topology& t, const Traffic* traffic);

}  // namespace totex
