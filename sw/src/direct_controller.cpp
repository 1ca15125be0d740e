// SPDX-License-Identifier: Apache-2.0
#include "totex/direct_controller.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "totex/error.hpp"
#include "totex/trace.hpp"

namespace totex {
namespace {

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

/// An entry under construction: a little-endian bit vector.
class Bits {
 public:
  explicit Bits(int width) : words_(at((width + 31) / 32), 0U) {}
  void set(int lsb, int width, std::uint64_t value) {
    for (int i = 0; i < width; ++i)
      if ((value >> i) & 1U) words_[at((lsb + i) / 32)] |= 1U << ((lsb + i) % 32);
  }
  [[nodiscard]] const std::vector<std::uint32_t>& words() const { return words_; }

 private:
  std::vector<std::uint32_t> words_;
};

/// What one node does in one table entry.
struct Entry {
  std::vector<int> act;                   // per input
  std::vector<std::pair<int, int>> lanes;  // (output port, slot)
  int store_slot = -1;                     // buffer entry (not slot) of the store
};

}  // namespace

std::string to_string(DirectMode m) { return m == DirectMode::Scheduled ? "scheduled" : "dynamic"; }

std::string to_string(DynamicRouting r) { return r == DynamicRouting::Dor ? "dor" : "adaptive"; }

DynamicRouting parse_dynamic_routing(const std::string& s) {
  if (s == "dor") return DynamicRouting::Dor;
  if (s == "adaptive") return DynamicRouting::Adaptive;
  throw UsageError("--dynamic must be dor | adaptive, got '" + s + "'");
}

DirectLayout::DirectLayout(const Topology& t, const DirectParams& p) : params(p), spec(t.spec()) {
  nodes = t.nodes();
  ports = std::max(1, t.max_degree());
  const bool scheduled = p.mode == DirectMode::Scheduled;
  lanes = scheduled && p.model == Model::AllPort ? ports : 1;
  node_bits = idx_width(nodes);
  msg_bits = 2 * node_bits + p.payload_bits;
  act_bits = idx_width(ports + 3);
  route_bits = idx_width(ports + 1);
  slot_bits = idx_width(nodes + p.buffer_slots);
  buffer_bits = idx_width(p.buffer_slots);
  entry_bits = ports * act_bits + lanes * (route_bits + slot_bits) + buffer_bits;
  words = (entry_bits + 31) / 32;
  word_bits = idx_width(words);
  step_bits = idx_width(p.depth);
  const int queue_bits = idx_width(nodes);  // dynamic send-queue slot / count (N-1 + 1 values)
  index_bits = std::max({step_bits + word_bits, node_bits, queue_bits, 2});
  addr_bits = 2 + node_bits + index_bits;
  vcs = 1;
  if (t.is_product())
    for (const Factor& f : t.factors())
      if (f.kind == FactorKind::Ring && f.size >= 4) vcs = 2;
  adaptive_vcs = p.mode == DirectMode::Dynamic && p.routing == DynamicRouting::Adaptive ? kAdaptiveVcs : 0;
  vcs += adaptive_vcs;
  eject_lanes = scheduled ? ports : 1;
  if (p.payload_bits < 1 || p.payload_bits > 32 - node_bits)
    throw UsageError("payload width " + std::to_string(p.payload_bits) + " does not fit the 32-bit load port");
  if (addr_bits > 64) throw UsageError("the load-port address of " + spec + " needs more than 64 bits");
}

std::uint64_t DirectLayout::address(int region, std::uint64_t node, std::uint64_t index) const {
  return (static_cast<std::uint64_t>(region) << (node_bits + index_bits)) | (node << index_bits) | index;
}

std::uint32_t DirectLayout::signature() const {
  std::ostringstream s;
  s << spec << '|' << to_string(params.mode) << '|' << to_string(params.model) << '|' << params.depth << '|'
    << params.buffer_slots << '|' << params.payload_bits << '|' << params.fifo_depth << '|' << ports << '|' << vcs;
  if (params.mode == DirectMode::Dynamic) s << '|' << to_string(params.routing) << '|' << adaptive_vcs;
  std::uint32_t h = 2166136261U;  // FNV-1a
  for (const char c : s.str()) {
    h ^= static_cast<std::uint8_t>(c);
    h *= 16777619U;
  }
  return h;
}

// ---------------------------------------------------------------------------------------------
// Scheduled mode
// ---------------------------------------------------------------------------------------------

namespace {

/// Replays the transfers: per message its position, where it came from and when it arrived.
struct MessageState {
  NodeId at = -1;
  NodeId prev = -1;
  std::int64_t arrived = -1;  // step of the last crossing; -1 = still at its source
};

/// A wait at a relay: stored in entry `from` (arrival step + 1), read in entry `to`.
struct Wait {
  NodeId node;
  std::int64_t from;
  std::int64_t to;
  NodeId src, dst;
};

std::vector<Wait> relay_waits(const Topology& t, const Schedule& s) {
  const auto n = static_cast<std::int64_t>(t.nodes());
  std::vector<MessageState> st(at(n * n));
  std::vector<Wait> waits;
  for (std::size_t step = 0; step < s.steps.size(); ++step) {
    for (const Transfer& tr : s.steps[step]) {
      MessageState& m = st[at(std::int64_t{tr.msg.src} * n + tr.msg.dst)];
      if (m.arrived >= 0 && m.at == tr.from && m.arrived + 1 < static_cast<std::int64_t>(step))
        waits.push_back({tr.from, m.arrived + 1, static_cast<std::int64_t>(step), tr.msg.src, tr.msg.dst});
      m.prev = tr.from;
      m.at = t.neighbor(tr.from, tr.port);
      m.arrived = static_cast<std::int64_t>(step);
    }
  }
  return waits;
}

/// Buffer entry per wait: interval colouring by start (an entry read in cycle c can be written in c).
std::vector<int> assign_buffer_entries(const std::vector<Wait>& waits, int nodes, int* max_used) {
  std::vector<std::size_t> order(waits.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return waits[a].from < waits[b].from; });
  std::vector<std::vector<std::int64_t>> busy_until(at(nodes));  // per node, per entry: free from this cycle
  std::vector<int> entry(waits.size(), -1);
  int used = 0;
  for (const std::size_t i : order) {
    auto& slots = busy_until[at(waits[i].node)];
    std::size_t e = 0;
    while (e < slots.size() && slots[e] > waits[i].from) ++e;
    if (e == slots.size()) slots.push_back(0);
    slots[e] = waits[i].to;
    entry[i] = static_cast<int>(e);
    used = std::max(used, static_cast<int>(slots.size()));
  }
  if (max_used) *max_used = used;
  return entry;
}

}  // namespace

int direct_buffer_slots(const Topology& t, const Schedule& s) {
  int used = 0;
  (void)assign_buffer_entries(relay_waits(t, s), t.nodes(), &used);
  return used;
}

DirectProgram direct_program(const Topology& t, const Schedule& s, const DirectLayout& layout) {
  if (layout.spec != t.spec()) throw UsageError("the layout was made for " + layout.spec + ", not " + t.spec());
  if (layout.params.mode != DirectMode::Scheduled) throw UsageError("direct_program needs a scheduled-mode layout");
  if (s.model != layout.params.model)
    throw UsageError("the schedule is " + to_string(s.model) + ", the hardware was built for " +
                     to_string(layout.params.model));
  DirectProgram prog;
  const auto steps = static_cast<std::int64_t>(s.steps.size());
  prog.steps = steps;
  if (steps + 1 > layout.params.depth)
    throw UsageError("the schedule has " + std::to_string(steps) + " steps; the schedule memories hold " +
                     std::to_string(layout.params.depth - 1));
  const int n = t.nodes();
  const int p = layout.ports;
  std::vector<std::vector<Entry>> table(at(n), std::vector<Entry>(at(steps + 1)));
  for (auto& node : table)
    for (Entry& e : node) e.act.assign(at(p), DirectLayout::kActNone);

  // Relay waits and their buffer entries.
  const std::vector<Wait> waits = relay_waits(t, s);
  int used = 0;
  const std::vector<int> buffer_entry = assign_buffer_entries(waits, n, &used);
  if (!waits.empty() && used > layout.params.buffer_slots) {
    const Wait& w = waits.front();
    throw UsageError("message (" + std::to_string(w.src) + "," + std::to_string(w.dst) + ") waits at node " +
                     std::to_string(w.node) + " from step " + std::to_string(w.from - 1) + " to step " +
                     std::to_string(w.to) + ": the " + to_string(layout.params.model) +
                     " hardware has " + std::to_string(layout.params.buffer_slots) + " relay buffer entries, " +
                     std::to_string(used) + " needed");
  }
  std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> wait_of;  // (message, read entry) -> wait
  for (std::size_t i = 0; i < waits.size(); ++i)
    wait_of[{std::int64_t{waits[i].src} * n + waits[i].dst, waits[i].to}] = i;

  auto note = [&](const std::string& text) {
    if (prog.notes.size() < 20) prog.notes.push_back(text);
  };
  auto set_act = [&](NodeId v, std::int64_t e, int input, int act, const Message& msg) {
    int& a = table[at(v)][at(e)].act[at(input)];
    if (a != DirectLayout::kActNone) {
      note("entry " + std::to_string(e) + ", node " + std::to_string(v) + ": two messages on input " +
           std::to_string(input) + " (message (" + std::to_string(msg.src) + "," + std::to_string(msg.dst) +
           ") is the second); the link was driven twice");
      return;
    }
    a = act;
  };

  std::vector<MessageState> st(at(std::int64_t{n} * n));
  for (std::int64_t step = 0; step < steps; ++step) {
    for (const Transfer& tr : s.steps[at(step)]) {
      const Message& msg = tr.msg;
      if (msg.src < 0 || msg.src >= n || msg.dst < 0 || msg.dst >= n || tr.from < 0 || tr.from >= n ||
          tr.port < 0 || tr.port >= t.degree(tr.from))
        throw UsageError("step " + std::to_string(step) + ": transfer out of range");
      MessageState& m = st[at(std::int64_t{msg.src} * n + msg.dst)];
      const NodeId here = m.arrived < 0 ? msg.src : m.at;
      if (here != tr.from)
        throw UsageError("step " + std::to_string(step) + ": message (" + std::to_string(msg.src) + "," +
                         std::to_string(msg.dst) + ") is sent from node " + std::to_string(tr.from) +
                         " but is at node " + std::to_string(here));
      Entry& e = table[at(tr.from)][at(step)];
      if (m.arrived < 0) {
        e.lanes.emplace_back(tr.port, msg.dst);  // own message: slot = destination
      } else {
        const int input = *t.port_to(tr.from, m.prev);
        if (m.arrived + 1 == step) {
          set_act(tr.from, step, input, DirectLayout::kActForward + tr.port, msg);
        } else {
          const std::size_t w = wait_of.at({std::int64_t{msg.src} * n + msg.dst, step});
          const int j = buffer_entry[w];
          Entry& store = table[at(tr.from)][at(m.arrived + 1)];
          if (store.store_slot >= 0 && store.store_slot != j)
            note("entry " + std::to_string(m.arrived + 1) + ", node " + std::to_string(tr.from) +
                 ": two stores in one step; the second uses the first's buffer entry");
          else
            store.store_slot = j;
          set_act(tr.from, m.arrived + 1, input, DirectLayout::kActStore, msg);
          e.lanes.emplace_back(tr.port, n + j);
        }
      }
      m.prev = tr.from;
      m.at = t.neighbor(tr.from, tr.port);
      m.arrived = step;
      if (m.at == msg.dst) set_act(m.at, step + 1, *t.port_to(m.at, tr.from), DirectLayout::kActEject, msg);
    }
  }

  // Messages: every processor's own payloads (routers at empty nodes have none; they only forward).
  for (NodeId v : t.processors())
    for (NodeId d : t.processors())
      if (d != v)
        prog.writes.push_back({layout.address(DirectLayout::kRegionMessages, at(v), at(d)), payload_of(v, d)});
  // Tables, entries 0..T of every node.
  const int lane_bits = layout.route_bits + layout.slot_bits;
  for (NodeId v = 0; v < n; ++v) {
    for (std::int64_t step = 0; step <= steps; ++step) {
      const Entry& e = table[at(v)][at(step)];
      if (static_cast<int>(e.lanes.size()) > layout.lanes)
        throw UsageError("node " + std::to_string(v) + " injects " + std::to_string(e.lanes.size()) +
                         " messages from its NIC in step " + std::to_string(step) + "; the " +
                         to_string(layout.params.model) + " NIC has " + std::to_string(layout.lanes) +
                         " inject lane(s)");
      Bits bits(layout.entry_bits);
      for (int i = 0; i < p; ++i)
        bits.set(i * layout.act_bits, layout.act_bits, static_cast<std::uint64_t>(e.act[at(i)]));
      for (std::size_t l = 0; l < e.lanes.size(); ++l) {
        const int base = p * layout.act_bits + static_cast<int>(l) * lane_bits;
        bits.set(base, layout.route_bits, static_cast<std::uint64_t>(e.lanes[l].first + 1));
        bits.set(base + layout.route_bits, layout.slot_bits, static_cast<std::uint64_t>(e.lanes[l].second));
      }
      if (e.store_slot >= 0)
        bits.set(p * layout.act_bits + layout.lanes * lane_bits, layout.buffer_bits,
                 static_cast<std::uint64_t>(e.store_slot));
      for (int w = 0; w < layout.words; ++w)
        prog.writes.push_back({layout.address(DirectLayout::kRegionTable, at(v),
                                              (static_cast<std::uint64_t>(step) << layout.word_bits) | at(w)),
                               bits.words()[at(w)]});
    }
  }
  prog.writes.push_back(
      {layout.address(DirectLayout::kRegionControl, 0, DirectLayout::kControlLast), static_cast<std::uint64_t>(steps)});
  return prog;
}

// ---------------------------------------------------------------------------------------------
// Dynamic mode
// ---------------------------------------------------------------------------------------------

namespace {
/// splitmix64 (Steele, Lea, Flood 2014): a fixed, portable sequence for the dynamic send order
/// (std::shuffle's algorithm differs between standard libraries).
std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
}  // namespace

std::vector<LoadWrite> direct_queue_writes(const Topology& t, const DirectLayout& layout) {
  // Ranks: processor index under `dor` (processor i sends to i+1, ..., i+|P|-1 mod |P|: every
  // node's plain order when every node is a processor), a seeded random permutation of the
  // processor indices under `adaptive`. Rank r sends to ranks r+1, r+2, ... (mod |P|) in that
  // order. Empty nodes get counts 0: their NIC is idle, their router forwards.
  const std::vector<NodeId>& procs = t.processors();
  const auto np = static_cast<std::int64_t>(procs.size());
  std::vector<std::int64_t> rank(at(np)), at_rank(at(np));
  for (std::int64_t i = 0; i < np; ++i) rank[at(i)] = i;
  if (layout.params.routing == DynamicRouting::Adaptive) {
    std::uint64_t state = 0;  // the seed: the same order on every engine and platform
    for (std::size_t i = rank.size(); i-- > 1;) std::swap(rank[i], rank[at(static_cast<std::int64_t>(splitmix64(state) % (i + 1)))]);
  }
  for (std::int64_t i = 0; i < np; ++i) at_rank[at(rank[at(i)])] = i;
  std::vector<LoadWrite> writes;
  for (NodeId v = 0; v < t.nodes(); ++v) {
    const std::int64_t count = t.is_processor(v) ? np - 1 : 0;
    if (t.is_processor(v)) {
      const auto self = std::lower_bound(procs.begin(), procs.end(), v) - procs.begin();
      for (std::int64_t i = 1; i < np; ++i) {
        const NodeId d = procs[at(at_rank[at((rank[at(self)] + i) % np)])];
        writes.push_back({layout.address(DirectLayout::kRegionMessages, at(v), at(i - 1)),
                          (static_cast<std::uint64_t>(d) << layout.params.payload_bits) | payload_of(v, d)});
      }
    }
    writes.push_back({layout.address(DirectLayout::kRegionControl, at(v), DirectLayout::kControlSendCount), at(count)});
    writes.push_back({layout.address(DirectLayout::kRegionControl, at(v), DirectLayout::kControlRecvCount), at(count)});
  }
  return writes;
}

DirectRoutes dimension_order_routes(const Topology& t, int ports, DynamicRouting routing) {
  if (!t.is_product())
    throw UsageError("--mode dynamic routes in dimension order and needs a product topology (ring, torus, "
                     "hypercube, ghc), not " + t.spec());
  const int n = t.nodes();
  const auto& factors = t.factors();
  DirectRoutes r;
  r.out_port.assign(at(n), std::vector<int>(at(n), ports));
  r.port_dim.assign(at(n), std::vector<int>(at(ports), 0));
  r.dateline.assign(at(n), std::vector<bool>(at(ports), false));
  r.minimal.assign(at(n), std::vector<bool>(at(n) * at(ports), false));
  // Distance within factor d (the product's distance is the sum over the factors).
  auto factor_distance = [&](std::size_t d, int a, int b) {
    const int k = factors[d].size, delta = a > b ? a - b : b - a;
    switch (factors[d].kind) {
      case FactorKind::Ring: return std::min(delta, k - delta);
      case FactorKind::Path: return delta;
      case FactorKind::Complete: return delta == 0 ? 0 : 1;
    }
    return 0;
  };
  for (NodeId v = 0; v < n; ++v) {
    const std::vector<int> c = t.coordinates(v);
    // Port properties: the dimension a port moves in, and whether it wraps around a ring.
    std::vector<int> port_coord(at(t.degree(v)));  // the coordinate port p moves to
    for (Port p = 0; p < t.degree(v); ++p) {
      const std::vector<int> nc = t.coordinates(t.neighbor(v, p));
      for (std::size_t d = 0; d < factors.size(); ++d) {
        if (nc[d] == c[d]) continue;
        r.port_dim[at(v)][at(p)] = static_cast<int>(d);
        port_coord[at(p)] = nc[d];
        const int k = factors[d].size;
        r.dateline[at(v)][at(p)] = factors[d].kind == FactorKind::Ring && k >= 3 &&
                                   ((c[d] == k - 1 && nc[d] == 0) || (c[d] == 0 && nc[d] == k - 1));
      }
    }
    for (NodeId dst = 0; dst < n; ++dst) {
      if (dst == v) continue;
      const std::vector<int> cd = t.coordinates(dst);
      std::size_t d = 0;
      while (cd[d] == c[d]) ++d;
      const int k = factors[d].size;
      std::vector<int> next = c;
      switch (factors[d].kind) {
        case FactorKind::Ring: {
          const int delta = ((cd[d] - c[d]) % k + k) % k;
          const bool plus = 2 * delta < k || (2 * delta == k && (routing == DynamicRouting::Dor || c[d] % 2 == 0));
          next[d] = plus ? (c[d] + 1) % k : (c[d] + k - 1) % k;
          break;
        }
        case FactorKind::Path: next[d] = cd[d] > c[d] ? c[d] + 1 : c[d] - 1; break;
        case FactorKind::Complete: next[d] = cd[d]; break;
      }
      r.out_port[at(v)][at(dst)] = *t.port_to(v, t.node_at(next));
      // Every port that moves one coordinate one step closer is on a shortest path.
      for (Port p = 0; p < t.degree(v); ++p) {
        const std::size_t e = at(r.port_dim[at(v)][at(p)]);
        r.minimal[at(v)][at(dst) * at(ports) + at(p)] =
            factor_distance(e, port_coord[at(p)], cd[e]) < factor_distance(e, c[e], cd[e]);
      }
    }
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Generated top
// ---------------------------------------------------------------------------------------------

namespace {

std::string bin(const std::vector<bool>& bits) {  // MSB first
  std::string s = std::to_string(bits.size()) + "'b";
  for (std::size_t i = bits.size(); i-- > 0;) s += bits[i] ? '1' : '0';
  return s;
}

/// A constant of bits (bit i of the vector at [i]) in hex.
std::string hex_bits(const std::vector<bool>& bits) {
  const std::size_t total = bits.size();
  std::string hex;
  for (std::size_t nib = (total + 3) / 4; nib-- > 0;) {
    int v = 0;
    for (int b = 3; b >= 0; --b) {
      const std::size_t i = nib * 4 + at(b);
      v = v * 2 + (i < total && bits[i] ? 1 : 0);
    }
    hex += "0123456789abcdef"[v];
  }
  return std::to_string(total) + "'h" + hex;
}

/// A flat constant of fields (field i at [i*w +: w]) in hex.
std::string flat_hex(const std::vector<int>& fields, int w) {
  std::vector<bool> bits(fields.size() * at(w), false);
  for (std::size_t i = 0; i < fields.size(); ++i)
    for (int b = 0; b < w; ++b) bits[i * at(w) + at(b)] = (fields[i] >> b) & 1;
  return hex_bits(bits);
}

}  // namespace

std::string direct_top_sv(const Topology& t, const DirectLayout& L) {
  const int n = t.nodes();
  if (n > kMaxDirectRtlNodes)
    throw UsageError(t.spec() + " has " + std::to_string(n) + " nodes; the RTL network is built for at most " +
                     std::to_string(kMaxDirectRtlNodes));
  const bool dyn = L.params.mode == DirectMode::Dynamic;
  const int p = L.ports;
  const int links = t.links();
  const int vw = idx_width(L.vcs);
  std::ostringstream o;
  o << "// SPDX-License-Identifier: Apache-2.0\n"
    << "/// GENERATED by totex (sw/src/direct_controller.cpp) for " << t.spec() << ", " << to_string(L.params.mode)
    << (dyn ? "" : " " + to_string(L.params.model)) << " mode. Do not edit.\n"
    << "///\n"
    << "/// " << n << " nodes, " << p << " ports per router, " << links << " directed links (link id l = the\n"
    << "/// port p of node v with l = Topology::link_id(v, p)). Input port i of node v is the link from\n"
    << "/// neighbor(v, i) back to v.\n"
    << "/// Ports: load port cfg_* ({region[1:0], node[" << L.node_bits << "], index[" << L.index_bits
    << "]}, 32-bit data),\n"
    << "/// start_i/busy_o/done_o/step_o (totex_direct_ctrl), eject_valid_o[v*" << L.eject_lanes
    << " + i] / eject_data_o[(v*" << L.eject_lanes << " + i)*MW +: MW]\n"
    << "/// (" << (dyn ? "the message node v ejects" : "input i of node v is delivered; MW = " + std::to_string(L.msg_bits))
    << "), link_valid_o[l] (link l carries a message this cycle), error_o (sticky, any node),\n"
    << "/// signature_o (DirectLayout::signature()).\n"
    << "`default_nettype none\n\n"
    << "module totex_direct_top (\n"
    << "  input  logic clk_i,\n"
    << "  input  logic rst_ni,\n"
    << "  input  logic cfg_we_i,\n"
    << "  input  logic [" << L.addr_bits - 1 << ":0] cfg_addr_i,\n"
    << "  input  logic [31:0] cfg_data_i,\n"
    << "  input  logic start_i,\n"
    << "  output logic busy_o,\n"
    << "  output logic done_o,\n"
    << "  output logic [" << L.step_bits - 1 << ":0] step_o,\n"
    << "  output logic [" << n * L.eject_lanes - 1 << ":0] eject_valid_o,\n"
    << "  output logic [" << n * L.eject_lanes * L.msg_bits - 1 << ":0] eject_data_o,\n"
    << "  output logic [" << links - 1 << ":0] link_valid_o,\n"
    << "  output logic error_o,\n"
    << "  output logic [31:0] signature_o\n"
    << ");\n\n"
    << "  localparam int unsigned N  = 32'd" << n << ";\n"
    << "  localparam int unsigned P  = 32'd" << p << ";\n"
    << "  localparam int unsigned XW = 32'd" << L.index_bits << ";\n"
    << "  localparam int unsigned StepW = 32'd" << L.step_bits << ";\n\n"
    << "  logic [" << links - 1 << ":0] link_valid;\n"
    << "  logic [" << links * L.msg_bits - 1 << ":0] link_data;\n"
    << (dyn ? "  logic [" + std::to_string(links * vw - 1) + ":0] link_vc;\n  logic [" +
                  std::to_string(links * L.vcs - 1) + ":0] link_credit;\n"
            : "")
    << "  logic [N-1:0] node_error;\n"
    << (dyn ? "  logic [N-1:0] node_done;\n" : "")
    << "  logic clear, busy;\n"
    << "  logic cfg_we;\n"
    << "  assign cfg_we = cfg_we_i && !busy;\n\n"
    << "  totex_direct_ctrl #(\n    .StepW   (StepW),\n    .Dynamic (32'd" << (dyn ? 1 : 0) << ")\n  ) u_ctrl (\n"
    << "    .clk_i      (clk_i),\n    .rst_ni     (rst_ni),\n"
    << "    .last_we_i  (cfg_we && cfg_addr_i[" << L.addr_bits - 1 << ":" << L.addr_bits - 2 << "] == 2'd"
    << DirectLayout::kRegionControl << " && cfg_addr_i[XW-1:0] == XW'(" << DirectLayout::kControlLast << ")),\n"
    << "    .last_i     (cfg_data_i[StepW-1:0]),\n"
    << "    .start_i    (start_i),\n"
    << "    .all_done_i (" << (dyn ? "&node_done" : "1'b1") << "),\n"
    << "    .clear_o    (clear),\n    .busy_o     (busy),\n    .done_o     (done_o),\n    .step_o     (step_o)\n  );\n"
    << "  assign busy_o = busy;\n\n";

  // Per node: input link ids (or -1 for a missing port).
  auto in_link = [&](NodeId v, int i) -> int {
    if (i >= t.degree(v)) return -1;
    const NodeId w = t.neighbor(v, i);
    return t.link_id(w, *t.port_to(w, v));
  };
  auto concat = [&](NodeId v, int width, const std::string& bus, bool out) {
    // {port P-1, ..., port 0}; missing ports tie off to zero (inputs) or are left open (outputs).
    std::string s = "{";
    for (int i = p - 1; i >= 0; --i) {
      const int l = out ? (i < t.degree(v) ? t.link_id(v, i) : -1) : in_link(v, i);
      if (l < 0) s += std::to_string(width) + "'(0)";
      else s += bus + "[" + std::to_string(l * width + width - 1) + ":" + std::to_string(l * width) + "]";
      if (i > 0) s += ", ";
    }
    return s + "}";
  };
  DirectRoutes routes;
  if (dyn) routes = dimension_order_routes(t, p, L.params.routing);
  const int rw = idx_width(p + 1);
  for (NodeId v = 0; v < n; ++v) {
    std::vector<bool> conn(at(p), false);
    for (int i = 0; i < t.degree(v); ++i) conn[at(i)] = true;
    const bool full = t.degree(v) == p;
    const std::string name = "u_node_" + std::to_string(v);
    if (!full) o << "  logic [" << p - t.degree(v) - 1 << ":0] unused_out_" << v << ";\n";
    // Outputs of missing ports go to a dummy wire.
    auto outputs = [&](const std::string& bus, int width) {
      if (full) return concat(v, width, bus, true);
      std::string s = "{";
      for (int i = p - 1; i >= 0; --i) {
        if (i >= t.degree(v)) s += "unused_out_" + std::to_string(v) + "[" + std::to_string(i - t.degree(v)) + "]";
        else s += bus + "[" + std::to_string(t.link_id(v, i) * width + width - 1) + ":" +
                  std::to_string(t.link_id(v, i) * width) + "]";
        if (i > 0) s += ", ";
      }
      return s + "}";
    };
    if (!dyn) {
      o << "  totex_direct_node #(\n"
        << "    .N (N), .NumPorts (P), .ConnectedMask (" << bin(conn) << "),\n"
        << "    .Model (32'd" << static_cast<int>(L.params.model) << "), .PW (32'd" << L.params.payload_bits
        << "), .Depth (32'd" << L.params.depth << "), .BufSlots (32'd" << L.params.buffer_slots
        << "), .XW (XW)\n  ) " << name << " (\n"
        << "    .clk_i (clk_i), .rst_ni (rst_ni), .node_id_i (" << L.node_bits << "'d" << v << "),\n"
        << "    .cfg_we_i (cfg_we), .cfg_addr_i (cfg_addr_i), .cfg_data_i (cfg_data_i),\n"
        << "    .clear_i (clear), .active_i (busy), .step_i (step_o),\n"
        << "    .in_valid_i (" << concat(v, 1, "link_valid", false) << "),\n"
        << "    .in_data_i (" << concat(v, L.msg_bits, "link_data", false) << "),\n"
        << "    .out_valid_o (" << outputs("link_valid", 1) << "),\n"
        << "    .out_data_o (" << (full ? concat(v, L.msg_bits, "link_data", true) : "unused_data_" + std::to_string(v))
        << "),\n"
        << "    .eject_valid_o (eject_valid_o[" << (v + 1) * p - 1 << ":" << v * p << "]),\n"
        << "    .error_o (node_error[" << v << "])\n  );\n"
        << "  assign eject_data_o[" << (v + 1) * p * L.msg_bits - 1 << ":" << v * p * L.msg_bits
        << "] = " << concat(v, L.msg_bits, "link_data", false) << ";\n";
      if (!full) {
        o << "  logic [" << p * L.msg_bits - 1 << ":0] unused_data_" << v << ";\n";
        for (int i = 0; i < t.degree(v); ++i)
          o << "  assign link_data[" << t.link_id(v, i) * L.msg_bits + L.msg_bits - 1 << ":"
            << t.link_id(v, i) * L.msg_bits << "] = unused_data_" << v << "[" << i * L.msg_bits + L.msg_bits - 1
            << ":" << i * L.msg_bits << "];\n";
      }
    } else {
      std::vector<int> route(at(n));
      for (NodeId d = 0; d < n; ++d) route[at(d)] = routes.out_port[at(v)][at(d)];
      std::vector<bool> date(at(p), false);
      for (int i = 0; i < p; ++i) date[at(i)] = routes.dateline[at(v)][at(i)];
      // Shortest-path ports per destination, [d*P + i] (adaptive routing only; DOR ignores them).
      const std::vector<bool>& minimal = routes.minimal[at(v)];
      // Credits: this node returns credits for its inputs on the credit wires of the links that
      // end here, and receives credits for its outputs on the wires of the links that start here.
      o << "  totex_direct_dyn_node #(\n"
        << "    .N (N), .NumPorts (P), .PW (32'd" << L.params.payload_bits << "), .NumVcs (32'd" << L.vcs
        << "), .AdaptiveVcs (32'd" << L.adaptive_vcs << "), .Depth (32'd" << L.params.fifo_depth << "), .XW (XW),\n"
        << "    .ConnectedMask (" << bin(conn) << ")\n  ) " << name << " (\n"
        << "    .clk_i (clk_i), .rst_ni (rst_ni), .node_id_i (" << L.node_bits << "'d" << v << "),\n"
        << "    .route_table_i (" << flat_hex(route, rw) << "),\n"
        << "    .minimal_i (" << (L.adaptive_vcs > 0 ? hex_bits(minimal) : "'0") << "),\n"
        << "    .port_dim_i (" << flat_hex(routes.port_dim[at(v)], 8) << "), .dateline_i (" << bin(date) << "),\n"
        << "    .cfg_we_i (cfg_we), .cfg_addr_i (cfg_addr_i), .cfg_data_i (cfg_data_i),\n"
        << "    .clear_i (clear), .active_i (busy),\n"
        << "    .in_valid_i (" << concat(v, 1, "link_valid", false) << "),\n"
        << "    .in_vc_i (" << concat(v, vw, "link_vc", false) << "),\n"
        << "    .in_data_i (" << concat(v, L.msg_bits, "link_data", false) << "),\n"
        << "    .in_credit_o (" << (full ? concat(v, L.vcs, "link_credit", false) : "unused_credit_" + std::to_string(v)) << "),\n"
        << "    .out_valid_o (" << outputs("link_valid", 1) << "),\n"
        << "    .out_vc_o (" << (full ? concat(v, vw, "link_vc", true) : "unused_vc_" + std::to_string(v)) << "),\n"
        << "    .out_data_o (" << (full ? concat(v, L.msg_bits, "link_data", true) : "unused_data_" + std::to_string(v)) << "),\n"
        << "    .out_credit_i (" << concat(v, L.vcs, "link_credit", true) << "),\n"
        << "    .eject_valid_o (eject_valid_o[" << v << "]),\n"
        << "    .eject_data_o (eject_data_o[" << (v + 1) * L.msg_bits - 1 << ":" << v * L.msg_bits << "]),\n"
        << "    .done_o (node_done[" << v << "]),\n"
        << "    .error_o (node_error[" << v << "])\n  );\n";
      if (!full) {
        o << "  logic [" << p * L.msg_bits - 1 << ":0] unused_data_" << v << ";\n"
          << "  logic [" << p * vw - 1 << ":0] unused_vc_" << v << ";\n"
          << "  logic [" << p * L.vcs - 1 << ":0] unused_credit_" << v << ";\n";
        for (int i = 0; i < t.degree(v); ++i) {
          const int l = t.link_id(v, i);
          o << "  assign link_data[" << l * L.msg_bits + L.msg_bits - 1 << ":" << l * L.msg_bits << "] = unused_data_"
            << v << "[" << i * L.msg_bits + L.msg_bits - 1 << ":" << i * L.msg_bits << "];\n"
            << "  assign link_vc[" << l * vw + vw - 1 << ":" << l * vw << "] = unused_vc_" << v << "["
            << i * vw + vw - 1 << ":" << i * vw << "];\n";
          const int li = in_link(v, i);
          o << "  assign link_credit[" << li * L.vcs + L.vcs - 1 << ":" << li * L.vcs << "] = unused_credit_" << v
            << "[" << i * L.vcs + L.vcs - 1 << ":" << i * L.vcs << "];\n";
        }
      }
    }
  }
  o << "\n  assign link_valid_o = link_valid;\n"
    << "  assign error_o      = |node_error;\n"
    << "  assign signature_o  = 32'h" << std::hex << L.signature() << std::dec << ";\n\n"
    << "endmodule\n";
  return o.str();
}

}  // namespace totex
