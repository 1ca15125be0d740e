// SPDX-License-Identifier: Apache-2.0
#include "totex/verify/trace.hpp"

#include <algorithm>
#include <unordered_map>
#include <charconv>
#include <tuple>

#include "totex/error.hpp"
#include "totex/verify/sha256.hpp"

namespace totex {

std::uint32_t payload_of(NodeId src, NodeId dst) {
  // A few rounds of multiply-xorshift so that neighbouring (src, dst) pairs differ in many bits.
  auto x = static_cast<std::uint32_t>(src) * 0x9E3779B1U ^ static_cast<std::uint32_t>(dst) * 0x85EBCA77U;
  x ^= x >> 15;
  x *= 0x2C1B3C6DU;
  x ^= x >> 12;
  return x & 0xFFFFU;
}

std::uint32_t payload_of(NodeId src, NodeId dst, std::int32_t flit) {
  return (payload_of(src, dst) + static_cast<std::uint32_t>(flit) * 0x9E37U) & 0xFFFFU;
}

std::string trace_sha256(std::vector<Delivery> trace) {
  // The payload last: under all-port two flits of one pair can arrive in one step over two links,
  // in whichever order an engine delivers them (torus:4x4 all-port all:2 at its bound 16).
  std::sort(trace.begin(), trace.end(), [](const Delivery& a, const Delivery& b) {
    return std::tie(a.step, a.dst, a.src, a.payload) < std::tie(b.step, b.dst, b.src, b.payload);
  });
  // The same text an ostream writes ("step dst src payload\n" per delivery), formatted with
  // to_chars: the ostream took 12 % of a 256 x 256 MIN run on the RTL (65 536 deliveries).
  std::string text;
  text.reserve(trace.size() * 24);
  const auto put = [&text](auto value, char separator) {
    char digits[24];  // any 64-bit integer
    text.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
    text.push_back(separator);
  };
  for (const Delivery& d : trace) {
    put(d.step, ' ');
    put(d.dst, ' ');
    put(d.src, ' ');
    put(d.payload, '\n');
  }
  return sha256_hex(text);
}

namespace {
/// N*N, once it is clear that the scoreboard's tables fit the memory budget.
std::size_t pair_slots(int nodes) {
  const auto n = static_cast<std::uint64_t>(nodes);
  check_memory(n * n, 5, "a scoreboard for " + std::to_string(nodes) + " nodes");
  return static_cast<std::size_t>(n * n);
}
}  // namespace

Scoreboard::Scoreboard(int nodes, const std::vector<NodeId>& senders, bool self_slot,
                       const std::vector<ExpectedDelivery>* timing)
    : nodes_(nodes),
      timed_(timing != nullptr),
      slot_(pair_slots(nodes), kNotRequired),
      seen_(slot_.size(), false) {
  // What must arrive: from the network alone.
  for (const NodeId src : senders)
    for (const NodeId dst : senders)
      if (src != dst || self_slot) {
        slot_[pair(src, dst)] = kUntimed;
        ++required_count_;
      }
  if (!timing) return;
  // When it arrives: from the schedule (the last entry wins if the schedule delivers a pair twice).
  timing_ = *timing;
  for (std::size_t i = 0; i < timing_.size(); ++i) {
    const Delivery& d = timing_[i].delivery;
    if (d.src < 0 || d.src >= nodes_ || d.dst < 0 || d.dst >= nodes_) continue;
    if (slot_[pair(d.src, d.dst)] != kNotRequired) slot_[pair(d.src, d.dst)] = static_cast<std::int32_t>(i);
  }
}

namespace {
std::vector<NodeId> all_terminals(int n) {
  std::vector<NodeId> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i;
  return v;
}
}  // namespace

Scoreboard::Scoreboard(const Topology& t, const std::vector<ExpectedDelivery>& timing)
    : Scoreboard(t.nodes(), t.processors(), false, &timing) {}
Scoreboard::Scoreboard(const Topology& t, const std::vector<ExpectedDelivery>& timing, const Traffic& traffic)
    : Scoreboard(t.nodes(), {}, false, &timing) {
  require(t, traffic);
  fill_timing();
}
void Scoreboard::fill_timing() {
  for (std::size_t i = 0; i < timing_.size(); ++i) {  // as the constructor above: when each arrives
    const Delivery& d = timing_[i].delivery;
    const std::int32_t f = timing_[i].flit;
    if (d.src < 0 || d.src >= nodes_ || d.dst < 0 || d.dst >= nodes_ || f < 0 || f >= flits_) continue;
    if (slot_[pair(d.src, d.dst, f)] != kNotRequired) slot_[pair(d.src, d.dst, f)] = static_cast<std::int32_t>(i);
  }
}
Scoreboard::Scoreboard(const Topology& t, const Traffic& traffic, bool in_order)
    : Scoreboard(t.nodes(), {}, false, nullptr) {
  in_order_ = in_order;
  require(t, traffic);
}
Scoreboard::Scoreboard(const MinNetwork& net, const std::vector<ExpectedDelivery>& timing, const Traffic& traffic)
    : Scoreboard(net.terminals(), {}, false, &timing) {
  require(net.spec(), traffic);
  fill_timing();
}
void Scoreboard::require(const Topology& t, const Traffic& traffic) { require(t.spec(), traffic); }
void Scoreboard::require(const std::string& network, const Traffic& traffic) {
  if (traffic.nodes() != nodes_)
    throw UsageError("traffic " + traffic.spec() + " is for " + std::to_string(traffic.nodes()) + " nodes, " + network + " has " +
                     std::to_string(nodes_));
  const std::int64_t most = heaviest_pair(traffic).flits;
  if (most > 1) {  // one slot per flit: what must arrive is every flit of the traffic
    if (most > 65536)
      throw UsageError("traffic " + traffic.spec() + " sends " + std::to_string(most) +
                       " flits for one pair; the 16-bit payloads name at most 65536 flits of a pair");
    flits_ = static_cast<std::int32_t>(most);
    const auto n = static_cast<std::uint64_t>(nodes_);
    check_memory(n * n * static_cast<std::uint64_t>(most), 14, "a scoreboard for " + traffic.spec());
    slot_.assign(static_cast<std::size_t>(n * n * static_cast<std::uint64_t>(most)), kNotRequired);
    seen_.assign(slot_.size(), false);
    seen_cycle_.assign(slot_.size(), -1);
  }
  traffic.for_each([&](NodeId src, NodeId dst, std::int64_t w) {
    for (std::int32_t f = 0; f < w; ++f) {
      slot_[pair(src, dst, f)] = kUntimed;
      ++required_count_;
    }
  });
}
Scoreboard::Scoreboard(const MinNetwork& net, const std::vector<ExpectedDelivery>& timing)
    : Scoreboard(net.terminals(), all_terminals(net.terminals()), true, &timing) {}
Scoreboard::Scoreboard(const Topology& t) : Scoreboard(t.nodes(), t.processors(), false, nullptr) {}

namespace {
constexpr std::int64_t kMaxErrors = 100;  // kept in full; the rest are only counted
}  // namespace

void Scoreboard::error(std::string text) {
  if (++error_count_ <= kMaxErrors) errors_.push_back(std::move(text));
}

void Scoreboard::observe(std::int64_t cycle, NodeId at, NodeId src, NodeId dst, std::int64_t step, std::uint32_t payload) {
  trace_.push_back({step, at, src, payload});
  last_cycle_ = std::max(last_cycle_, cycle);
  if (cycle >= 0 && cycle < (std::int64_t{1} << 24)) {  // a wild cycle is an error below, not a huge vector
    if (per_cycle_.size() <= static_cast<std::size_t>(cycle)) per_cycle_.resize(static_cast<std::size_t>(cycle) + 1, 0);
    ++per_cycle_[static_cast<std::size_t>(cycle)];
  }
  const std::string where = "cycle " + std::to_string(cycle) + ", node " + std::to_string(at) + ": ";
  if (src < 0 || src >= nodes_ || dst < 0 || dst >= nodes_)
    return error(where + name(src, dst, 0) + " is not a message of this exchange");
  // Which flit: the one of the pair whose payload it carries (one flit per pair: flit 0).
  std::int32_t flit = 0;
  if (flits_ > 1) {
    flit = -1;
    for (std::int32_t f = 0; f < flits_ && flit < 0; ++f)
      if (slot_[pair(src, dst, f)] != kNotRequired && payload_of(src, dst, f) == payload) flit = f;
    if (flit < 0) {
      if (slot_[pair(src, dst, 0)] == kNotRequired) return error(where + "pair (" + std::to_string(src) + "," +
                                                                 std::to_string(dst) + ") is not a pair of this exchange");
      return error(where + "pair (" + std::to_string(src) + "," + std::to_string(dst) + "): payload " +
                   std::to_string(payload) + " is the payload of none of its flits");
    }
  }
  const std::string msg = name(src, dst, flit);
  if (dst != at) return error(where + msg + " delivered to the wrong node");
  const std::size_t p = pair(src, dst, flit);
  const std::int32_t slot = slot_[p];
  if (slot == kNotRequired) return error(where + msg + " is not a message of this exchange");
  if (seen_[p]) return error(where + msg + " delivered twice");
  seen_[p] = true;
  if (!seen_cycle_.empty()) seen_cycle_[p] = cycle;
  ++delivered_;
  const std::uint32_t want = payload_of(src, dst, flit);  // recomputed here, not taken from the schedule
  if (payload != want) error(where + msg + " payload " + std::to_string(payload) + ", expected " + std::to_string(want));
  if (!timed_) return;
  if (slot == kUntimed) return error(where + msg + " arrived, but the schedule never delivers it");
  const ExpectedDelivery& e = timing_[static_cast<std::size_t>(slot)];
  if (step != e.delivery.step)
    error(where + msg + " carries step " + std::to_string(step) + ", expected " + std::to_string(e.delivery.step));
  if (cycle != e.cycle) error(where + msg + " arrived, expected in cycle " + std::to_string(e.cycle));
}

std::string Scoreboard::name(NodeId src, NodeId dst, std::int32_t flit) const {
  const std::string p = "(" + std::to_string(src) + "," + std::to_string(dst) + ")";
  return flits_ > 1 ? "flit " + p + "#" + std::to_string(flit) : "message " + p;
}

void Scoreboard::finish() {
  for (NodeId src = 0; src < nodes_; ++src)
    for (NodeId dst = 0; dst < nodes_; ++dst)
      for (std::int32_t f = 0; f < flits_; ++f) {
        const std::size_t p = pair(src, dst, f);
        if (slot_[p] == kNotRequired) continue;
        // A multi-flit message keeps its order (flit f arrives no later than flit f + 1) where
        // the network guarantees it; elsewhere an overtaking flit is only counted.
        const bool overtook = seen_[p] && f > 0 && seen_[p - 1] && seen_cycle_[p] < seen_cycle_[p - 1];
        if (overtook && !in_order_) ++reordered_;
        if (overtook && in_order_) {
          error("node " + std::to_string(dst) + ": " + name(src, dst, f) + " arrived in cycle " +
                std::to_string(seen_cycle_[p]) + ", before " + name(src, dst, f - 1) + " (cycle " +
                std::to_string(seen_cycle_[p - 1]) + "): the pair's flits are out of order");
          continue;
        }
        if (seen_[p]) continue;
        if (error_count_ >= kMaxErrors) {  // would only be counted: a run that delivers nothing on
          ++error_count_;                  // N nodes built N^2 texts here (241 k on torus:8x62)
          continue;
        }
        std::string text = "node " + std::to_string(dst) + ": " + name(src, dst, f);
        if (slot_[p] >= 0) {
          const ExpectedDelivery& e = timing_[static_cast<std::size_t>(slot_[p])];
          text += " of step " + std::to_string(e.delivery.step) + " never arrived (expected in cycle " +
                  std::to_string(e.cycle) + ")";
        } else {
          text += timed_ ? " never arrived (the schedule never delivers it)" : " never arrived";
        }
        error(std::move(text));
      }
  if (error_count_ > static_cast<std::int64_t>(errors_.size()))
    errors_.push_back("... and " + std::to_string(error_count_ - static_cast<std::int64_t>(errors_.size())) + " more");
}

std::vector<ExpectedDelivery> expected_deliveries(const MinNetwork& net, const MinSchedule& s) {
  std::vector<ExpectedDelivery> out;
  // A traffic's pairs may repeat: the k-th configuration sending (src, dst) carries its flit k.
  std::unordered_map<std::int64_t, std::int32_t> sent;
  for (std::size_t x = 0; x < s.configurations.size(); ++x) {
    const std::vector<int> perm = net.permutation(s.configurations[x]);
    for (int src = 0; src < net.terminals(); ++src) {
      if (!s.sends(x, src)) continue;
      const int dst = perm[static_cast<std::size_t>(src)];
      const std::int32_t flit = s.traffic.is_all() ? 0 : sent[std::int64_t{src} * net.terminals() + dst]++;
      out.push_back({{static_cast<std::int64_t>(x), dst, src, payload_of(src, dst, flit)},
                     static_cast<std::int64_t>(x) + net.stages() - 1, flit});
    }
  }
  return out;
}

std::vector<ExpectedDelivery> expected_deliveries(const Topology& t, const Schedule& s) {
  std::vector<ExpectedDelivery> out;
  for (std::size_t step = 0; step < s.steps.size(); ++step)
    for (const Transfer& tr : s.steps[step])
      if (t.neighbor(tr.from, tr.port) == tr.msg.dst)
        out.push_back({{static_cast<std::int64_t>(step), tr.msg.dst, tr.msg.src,
                        payload_of(tr.msg.src, tr.msg.dst, tr.msg.flit)},
                       static_cast<std::int64_t>(step), tr.msg.flit});
  return out;
}

}  // namespace totex
