// SPDX-License-Identifier: Apache-2.0
#include "totex/trace.hpp"

#include <algorithm>
#include <sstream>
#include <tuple>

#include "totex/sha256.hpp"

namespace totex {

std::uint32_t payload_of(NodeId src, NodeId dst) {
  // A few rounds of multiply-xorshift so that neighbouring (src, dst) pairs differ in many bits.
  auto x = static_cast<std::uint32_t>(src) * 0x9E3779B1U ^ static_cast<std::uint32_t>(dst) * 0x85EBCA77U;
  x ^= x >> 15;
  x *= 0x2C1B3C6DU;
  x ^= x >> 12;
  return x & 0xFFFFU;
}

std::string trace_sha256(std::vector<Delivery> trace) {
  std::sort(trace.begin(), trace.end(), [](const Delivery& a, const Delivery& b) {
    return std::tie(a.step, a.dst, a.src) < std::tie(b.step, b.dst, b.src);
  });
  std::ostringstream text;
  for (const Delivery& d : trace) text << d.step << ' ' << d.dst << ' ' << d.src << ' ' << d.payload << '\n';
  return sha256_hex(text.str());
}

Scoreboard::Scoreboard(int nodes, std::vector<ExpectedDelivery> expected)
    : nodes_(nodes),
      expected_(std::move(expected)),
      index_(static_cast<std::size_t>(nodes) * static_cast<std::size_t>(nodes), -1),
      seen_(expected_.size(), false) {
  for (std::size_t i = 0; i < expected_.size(); ++i) {
    const Delivery& d = expected_[i].delivery;
    index_[static_cast<std::size_t>(d.src) * static_cast<std::size_t>(nodes_) + static_cast<std::size_t>(d.dst)] =
        static_cast<std::int64_t>(i);
  }
}

void Scoreboard::error(std::string text) {
  constexpr std::size_t kMaxErrors = 100;
  if (++error_count_ <= static_cast<std::int64_t>(kMaxErrors)) errors_.push_back(std::move(text));
}

void Scoreboard::observe(std::int64_t cycle, NodeId at, NodeId src, NodeId dst, std::int64_t step, std::uint32_t payload) {
  trace_.push_back({step, at, src, payload});
  last_cycle_ = std::max(last_cycle_, cycle);
  const std::string where = "cycle " + std::to_string(cycle) + ", node " + std::to_string(at) + ": ";
  const std::string msg = "message (" + std::to_string(src) + "," + std::to_string(dst) + ")";
  if (src < 0 || src >= nodes_ || dst < 0 || dst >= nodes_) return error(where + msg + " is not a message of this exchange");
  if (dst != at) return error(where + msg + " delivered to the wrong node");
  const std::int64_t i = index_[static_cast<std::size_t>(src) * static_cast<std::size_t>(nodes_) + static_cast<std::size_t>(dst)];
  if (i < 0) return error(where + msg + " is not expected");
  const ExpectedDelivery& e = expected_[static_cast<std::size_t>(i)];
  if (seen_[static_cast<std::size_t>(i)]) return error(where + msg + " delivered twice");
  seen_[static_cast<std::size_t>(i)] = true;
  ++delivered_;
  if (payload != e.delivery.payload)
    error(where + msg + " payload " + std::to_string(payload) + ", expected " + std::to_string(e.delivery.payload));
  if (step != e.delivery.step)
    error(where + msg + " carries step " + std::to_string(step) + ", expected " + std::to_string(e.delivery.step));
  if (cycle != e.cycle) error(where + msg + " arrived, expected in cycle " + std::to_string(e.cycle));
}

void Scoreboard::finish() {
  for (std::size_t i = 0; i < expected_.size(); ++i) {
    if (seen_[i]) continue;
    const ExpectedDelivery& e = expected_[i];
    error("node " + std::to_string(e.delivery.dst) + ": message (" + std::to_string(e.delivery.src) + "," +
          std::to_string(e.delivery.dst) + ") of step " + std::to_string(e.delivery.step) +
          " never arrived (expected in cycle " + std::to_string(e.cycle) + ")");
  }
  if (error_count_ > static_cast<std::int64_t>(errors_.size()))
    errors_.push_back("... and " + std::to_string(error_count_ - static_cast<std::int64_t>(errors_.size())) + " more");
}

std::vector<ExpectedDelivery> expected_deliveries(const MinNetwork& net, const MinSchedule& s) {
  std::vector<ExpectedDelivery> out;
  for (std::size_t x = 0; x < s.configurations.size(); ++x) {
    const std::vector<int> perm = net.permutation(s.configurations[x]);
    for (int src = 0; src < net.terminals(); ++src) {
      if (!s.sends(x, src)) continue;
      const int dst = perm[static_cast<std::size_t>(src)];
      out.push_back({{static_cast<std::int64_t>(x), dst, src, payload_of(src, dst)},
                     static_cast<std::int64_t>(x) + net.stages() - 1});
    }
  }
  return out;
}

std::vector<ExpectedDelivery> expected_deliveries(const Topology& t, const Schedule& s) {
  std::vector<ExpectedDelivery> out;
  for (std::size_t step = 0; step < s.steps.size(); ++step)
    for (const Transfer& tr : s.steps[step])
      if (t.neighbor(tr.from, tr.port) == tr.msg.dst)
        out.push_back({{static_cast<std::int64_t>(step), tr.msg.dst, tr.msg.src, payload_of(tr.msg.src, tr.msg.dst)},
                       static_cast<std::int64_t>(step)});
  return out;
}

}  // namespace totex
