// SPDX-License-Identifier: Apache-2.0
#include "totex/direct_controller.hpp"
#include "totex/hw_schema.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "totex/error.hpp"
#include "totex/splitmix.hpp"
#include "totex/verify/trace.hpp"

namespace totex {
namespace {

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

/// FNV-1a of a text: the 32-bit parameter signatures the RTL drives on signature_o.
std::uint32_t fnv1a(const std::string& text) {
  std::uint32_t h = 2166136261U;
  for (const char c : text) {
    h ^= static_cast<std::uint8_t>(c);
    h *= 16777619U;
  }
  return h;
}

// The RTL's model codes are the order of totex::Model (both sides follow rtl/totex_direct_pkg.sv).
static_assert(static_cast<int>(Model::SinglePort) == rtl::totex_direct_pkg::MODEL_SINGLE_PORT);
static_assert(static_cast<int>(Model::AllPort) == rtl::totex_direct_pkg::MODEL_ALL_PORT);
static_assert(static_cast<int>(Model::Nic) == rtl::totex_direct_pkg::MODEL_NIC);
static_assert(DirectLayout::kWordBits == 32, "Bits packs table entries into 32-bit words");

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
  t.require_two_way("the router RTL and its SystemC model (a router's input port is its link back)");
  nodes = t.nodes();
  ports = std::max(1, t.max_degree());
  const bool scheduled = p.mode == DirectMode::Scheduled;
  lanes = scheduled && p.model == Model::AllPort ? ports : 1;
  node_bits = idx_width(nodes);
  msg_bits = 2 * node_bits + p.payload_bits;
  act_bits = idx_width(ports + kActForward);
  route_bits = idx_width(ports + kRoutePort0);
  if (p.flits < 1) throw UsageError("flits per pair must be at least 1, got " + std::to_string(p.flits));
  // Own flit f for destination d sits in slot {f, d} (f << node_bits | d): slot d when f = 0.
  own_slots = (p.flits - 1) * (1 << node_bits) + nodes;
  slot_bits = idx_width(own_slots + p.buffer_slots);
  buffer_bits = idx_width(p.buffer_slots);
  entry_bits = ports * act_bits + lanes * (route_bits + slot_bits) + buffer_bits;
  words = (entry_bits + kWordBits - 1) / kWordBits;
  word_bits = idx_width(words);
  step_bits = idx_width(p.depth);
  const int queue_bits = idx_width(nodes);  // dynamic send-queue slot / count (N-1 + 1 values)
  index_bits = std::max({step_bits + word_bits, node_bits, queue_bits, idx_width(own_slots), 2});
  addr_bits = kRegionBits + node_bits + index_bits;
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

DirectLayout::AddressFields DirectLayout::fields(std::uint64_t addr) const {
  const auto field = [&](int lsb, int width) { return (addr >> lsb) & ((std::uint64_t{1} << width) - 1); };
  return {static_cast<int>(field(node_bits + index_bits, kRegionBits)), field(index_bits, node_bits),
          field(0, index_bits)};
}

std::uint32_t DirectLayout::signature() const {
  std::ostringstream s;
  s << spec << '|' << to_string(params.mode) << '|' << to_string(params.model) << '|' << params.depth << '|'
    << params.buffer_slots << '|' << params.payload_bits << '|' << params.fifo_depth << '|' << ports << '|' << vcs;
  if (params.mode == DirectMode::Dynamic) s << '|' << to_string(params.routing) << '|' << adaptive_vcs;
  if (params.flits > 1) s << "|flits" << params.flits;  // one-flit models keep their signatures
  std::uint32_t h = 2166136261U;  // FNV-1a
  for (const char c : s.str()) {
    h ^= static_cast<std::uint8_t>(c);
    h *= 16777619U;
  }
  return h;
}

std::uint32_t DirectLayout::tile_signature() const {
  std::ostringstream s;
  s << "tile|" << nodes << '|' << to_string(params.mode) << '|' << to_string(params.model) << '|' << params.depth
    << '|' << params.buffer_slots << '|' << params.payload_bits << '|' << params.fifo_depth << '|' << ports << '|'
    << vcs << '|' << adaptive_vcs;
  if (params.flits > 1) s << "|flits" << params.flits;
  return fnv1a(s.str());
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
  Message msg;
};

/// The most flits of one pair the schedule moves (flit indices + 1; 1 for a one-flit exchange).
int schedule_flits(const Schedule& s) {
  int flits = 1;
  for (const auto& step : s.steps)
    for (const Transfer& tr : step) flits = std::max(flits, tr.msg.flit + 1);
  return flits;
}

/// Message number (src*N + dst) * F + flit: every flit is a message of its own.
std::int64_t message_number(const Message& m, std::int64_t n, std::int64_t flits) {
  return (std::int64_t{m.src} * n + m.dst) * flits + m.flit;
}

/// "(s,d)", or "(s,d)#f" when pairs carry several flits (the verifier's names).
std::string message_name(const Message& m, int flits) {
  return "(" + std::to_string(m.src) + "," + std::to_string(m.dst) + ")" + (flits > 1 ? "#" + std::to_string(m.flit) : "");
}

std::vector<Wait> relay_waits(const Topology& t, const Schedule& s) {
  const auto n = static_cast<std::int64_t>(t.nodes());
  const std::int64_t flits = schedule_flits(s);
  std::vector<MessageState> st(at(n * n * flits));
  std::vector<Wait> waits;
  for (std::size_t step = 0; step < s.steps.size(); ++step) {
    for (const Transfer& tr : s.steps[step]) {
      if (tr.msg.src < 0 || tr.msg.src >= n || tr.msg.dst < 0 || tr.msg.dst >= n || tr.msg.flit < 0) continue;
      MessageState& m = st[at(message_number(tr.msg, n, flits))];
      if (m.arrived >= 0 && m.at == tr.from && m.arrived + 1 < static_cast<std::int64_t>(step))
        waits.push_back({tr.from, m.arrived + 1, static_cast<std::int64_t>(step), tr.msg});
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

int direct_schedule_flits(const Schedule& s) { return schedule_flits(s); }

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
    throw UsageError("message " + message_name(w.msg, schedule_flits(s)) + " waits at node " +
                     std::to_string(w.node) + " from step " + std::to_string(w.from - 1) + " to step " +
                     std::to_string(w.to) + ": the " + to_string(layout.params.model) +
                     " hardware has " + std::to_string(layout.params.buffer_slots) + " relay buffer entries, " +
                     std::to_string(used) + " needed");
  }
  // Flits: each its own message, in NIC slot {flit, dst}; the NIC holds layout.params.flits per pair.
  const int flits = layout.params.flits;
  if (const int most = schedule_flits(s); most > flits)
    throw UsageError("the schedule sends " + std::to_string(most) + " flits of one pair; the hardware was built for " +
                     std::to_string(flits));
  std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> wait_of;  // (message, read entry) -> wait
  for (std::size_t i = 0; i < waits.size(); ++i) wait_of[{message_number(waits[i].msg, n, flits), waits[i].to}] = i;

  auto note = [&](const std::string& text) {
    if (prog.notes.size() < 20) prog.notes.push_back(text);
  };
  auto set_act = [&](NodeId v, std::int64_t e, int input, int act, const Message& msg) {
    int& a = table[at(v)][at(e)].act[at(input)];
    if (a != DirectLayout::kActNone) {
      note("entry " + std::to_string(e) + ", node " + std::to_string(v) + ": two messages on input " +
           std::to_string(input) + " (message " + message_name(msg, flits) + " is the second); the link was driven twice");
      return;
    }
    a = act;
  };

  std::vector<MessageState> st(at(std::int64_t{n} * n * flits));
  std::vector<bool> injected(st.size(), false);  // own flits the tables inject: their payloads are loaded
  for (std::int64_t step = 0; step < steps; ++step) {
    for (const Transfer& tr : s.steps[at(step)]) {
      const Message& msg = tr.msg;
      if (msg.src < 0 || msg.src >= n || msg.dst < 0 || msg.dst >= n || msg.flit < 0 || tr.from < 0 || tr.from >= n ||
          tr.port < 0 || tr.port >= t.degree(tr.from))
        throw UsageError("step " + std::to_string(step) + ": transfer out of range");
      MessageState& m = st[at(message_number(msg, n, flits))];
      const std::string name = message_name(msg, flits);
      const NodeId here = m.arrived < 0 ? msg.src : m.at;
      // Named as the reference engine names a crossing: step, node, link.
      const auto where = [&] {
        return "step " + std::to_string(step) + ", node " + std::to_string(tr.from) + ", link " +
               std::to_string(tr.from) + "->" + std::to_string(t.neighbor(tr.from, tr.port)) + ": ";
      };
      if (here != tr.from)
        throw UsageError(where() + "message " + name + " is sent from node " + std::to_string(tr.from) + " but is at node " + std::to_string(here));
      if (m.arrived == step)  // e.g. a crossing repeated a step early: the tables have no entry for it
        throw UsageError(where() + "message " + name + " crosses a second link in this step (it arrived over link " + std::to_string(m.prev) +
                         "->" + std::to_string(tr.from) + " in this step); a message moves one hop per step");
      Entry& e = table[at(tr.from)][at(step)];
      if (m.arrived < 0) {
        e.lanes.emplace_back(tr.port, (msg.flit << layout.node_bits) | msg.dst);  // own flit: slot {flit, dst}
        injected[at(message_number(msg, n, flits))] = true;
      } else {
        const int input = *t.port_to(tr.from, m.prev);
        if (m.arrived + 1 == step) {
          set_act(tr.from, step, input, DirectLayout::kActForward + tr.port, msg);
        } else {
          const auto found = wait_of.find({message_number(msg, n, flits), step});
          if (found == wait_of.end())  // relay_waits and this replay disagree: name the crossing, not map::at
            throw UsageError(where() + "message " + name + " leaves a relay wait the schedule compiler did not plan");
          const std::size_t w = found->second;
          const int j = buffer_entry[w];
          Entry& store = table[at(tr.from)][at(m.arrived + 1)];
          if (store.store_slot >= 0 && store.store_slot != j)
            note("entry " + std::to_string(m.arrived + 1) + ", node " + std::to_string(tr.from) +
                 ": two stores in one step; the second uses the first's buffer entry");
          else
            store.store_slot = j;
          set_act(tr.from, m.arrived + 1, input, DirectLayout::kActStore, msg);
          e.lanes.emplace_back(tr.port, layout.own_slots + j);
        }
      }
      m.prev = tr.from;
      m.at = t.neighbor(tr.from, tr.port);
      m.arrived = step;
      if (m.at == msg.dst) set_act(m.at, step + 1, *t.port_to(m.at, tr.from), DirectLayout::kActEject, msg);
    }
  }

  // Messages: every processor's own payloads (routers at empty nodes have none; they only forward).
  // One flit per pair: every pair's, as always. Several: the flits the tables inject, flit f of
  // (v, d) at index {f, d} with payload_of(v, d, f).
  for (NodeId v : t.processors())
    for (int f = 0; f < flits; ++f)
      for (NodeId d : t.processors())
        if (d != v && (flits == 1 || injected[at(message_number({v, d, f}, n, flits))]))
          prog.writes.push_back({layout.address(DirectLayout::kRegionMessages, at(v),
                                                (static_cast<std::uint64_t>(f) << layout.node_bits) | at(d)),
                                 payload_of(v, d, f)});
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
        bits.set(base, layout.route_bits, static_cast<std::uint64_t>(DirectLayout::kRoutePort0 + e.lanes[l].first));
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

int direct_queue_slots(const DirectLayout& layout) { return std::max(1, layout.nodes - 1) * layout.params.flits; }

std::vector<LoadWrite> direct_queue_writes(const Topology& t, const DirectLayout& layout, const Traffic* traffic) {
  // Ranks: processor index under `dor` (processor i sends to i+1, ..., i+|P|-1 mod |P|: every
  // node's plain order when every node is a processor), a seeded random permutation of the
  // processor indices under `adaptive`. Rank r sends to ranks r+1, r+2, ... (mod |P|) in that
  // order. Empty nodes get counts 0: their NIC is idle, their router forwards.
  if (traffic && traffic->nodes() != t.nodes())
    throw UsageError("traffic " + traffic->spec() + " is for " + std::to_string(traffic->nodes()) + " nodes, " + t.spec() +
                     " has " + std::to_string(t.nodes()));
  const std::vector<NodeId>& procs = t.processors();
  const auto np = static_cast<std::int64_t>(procs.size());
  std::vector<std::int64_t> rank(at(np)), at_rank(at(np));
  for (std::int64_t i = 0; i < np; ++i) rank[at(i)] = i;
  if (layout.params.routing == DynamicRouting::Adaptive) {
    std::uint64_t state = 0;  // the seed: the same order on every engine and platform
    for (std::size_t i = rank.size(); i-- > 1;) std::swap(rank[i], rank[at(static_cast<std::int64_t>(splitmix64(state) % (i + 1)))]);
  }
  for (std::int64_t i = 0; i < np; ++i) at_rank[at(rank[at(i)])] = i;
  const std::int64_t slots = direct_queue_slots(layout);
  const std::int64_t rounds = traffic ? heaviest_pair(*traffic).flits : 1;
  std::vector<LoadWrite> writes;
  for (NodeId v = 0; v < t.nodes(); ++v) {
    std::int64_t count = 0;
    if (t.is_processor(v)) {
      const auto self = std::lower_bound(procs.begin(), procs.end(), v) - procs.begin();
      // Round f: flit f to every destination (in rank order) that has one.
      for (std::int64_t f = 0; f < rounds; ++f)
        for (std::int64_t i = 1; i < np; ++i) {
          const NodeId d = procs[at(at_rank[at((rank[at(self)] + i) % np)])];
          if (traffic && traffic->flits(v, d) <= f) continue;
          if (count == slots)
            throw UsageError("node " + std::to_string(v) + " sends more than the " + std::to_string(slots) +
                             " flits its dynamic NIC's send queue holds");
          writes.push_back({layout.address(DirectLayout::kRegionMessages, at(v), at(count)),
                            (static_cast<std::uint64_t>(d) << layout.params.payload_bits) |
                                payload_of(v, d, static_cast<std::int32_t>(f))});
          ++count;
        }
    }
    // Receive: the node's column sum (N - 1 for `all`). Written in today's order, so `all` loads
    // exactly the words it always did.
    const std::int64_t receive = !t.is_processor(v) ? 0 : traffic ? traffic->received(v) : np - 1;
    writes.push_back({layout.address(DirectLayout::kRegionControl, at(v), DirectLayout::kControlSendCount), at(count)});
    writes.push_back({layout.address(DirectLayout::kRegionControl, at(v), DirectLayout::kControlRecvCount), at(receive)});
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
// Parameters of rtl/totex_direct_top.sv
// ---------------------------------------------------------------------------------------------

namespace {

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

DirectNodeTables direct_node_tables(const Topology& t, const DirectLayout& L) {
  const int n = t.nodes();
  const int p = L.ports;
  const int links = t.links();
  DirectNodeTables r;
  // Per node and port: the link into input i (from neighbor(v, i)) and out of output i; `links` if absent.
  r.in_link.assign(at(n) * at(p), links);
  r.out_link.assign(at(n) * at(p), links);
  for (NodeId v = 0; v < n; ++v)
    for (Port i = 0; i < t.degree(v); ++i) {
      const NodeId w = t.neighbor(v, i);
      r.in_link[at(v) * at(p) + at(i)] = t.link_id(w, *t.port_to(w, v));
      r.out_link[at(v) * at(p) + at(i)] = t.link_id(v, i);
    }
  if (L.params.mode != DirectMode::Dynamic) return r;
  const DirectRoutes routes = dimension_order_routes(t, p, L.params.routing);
  for (NodeId v = 0; v < n; ++v) {
    r.route.insert(r.route.end(), routes.out_port[at(v)].begin(), routes.out_port[at(v)].end());
    r.port_dim.insert(r.port_dim.end(), routes.port_dim[at(v)].begin(), routes.port_dim[at(v)].end());
    r.dateline.insert(r.dateline.end(), routes.dateline[at(v)].begin(), routes.dateline[at(v)].end());
    // Shortest-path ports per destination (adaptive routing only; DOR ignores them).
    for (std::size_t k = 0; k < at(n) * at(p); ++k) r.minimal.push_back(L.adaptive_vcs > 0 && routes.minimal[at(v)][k]);
  }
  return r;
}

std::string direct_params_svh(const Topology& t, const DirectLayout& L) {
  const int n = t.nodes();
  if (n > kMaxDirectRtlNodes)
    throw UsageError(t.spec() + " has " + std::to_string(n) + " nodes; the RTL network is built for at most " +
                     std::to_string(kMaxDirectRtlNodes));
  const bool dyn = L.params.mode == DirectMode::Dynamic;
  const int p = L.ports;
  const int links = t.links();
  DirectNodeTables tables = direct_node_tables(t, L);
  // Scheduled mode: one zero field each.
  if (!dyn) {
    tables.route = tables.port_dim = {0};
    tables.minimal = tables.dateline = {false};
  }
  const auto& [in_link, out_link, route, port_dim, minimal, dateline] = tables;
  const int link_w = rtl::totex_direct_pkg::TOPO_LINK_W;
  const int port_w = rtl::totex_direct_pkg::TOPO_PORT_W;
  std::ostringstream o;
  o << "// GENERATED by totex (sw/hw/src/direct_controller.cpp, direct_params_svh) for " << t.spec() << ", "
    << to_string(L.params.mode) << (dyn ? " " + to_string(L.params.routing) : " " + to_string(L.params.model))
    << ". Do not edit.\n"
    << "// The parameters of rtl/totex_direct_top.sv (its header describes each), included in its parameter list.\n"
    << schema::svh_params(schema::WiredTileParams::from(L, links, true))
    << "  parameter logic [" << n * p * link_w - 1 << ":0] InLink = " << flat_hex(in_link, link_w) << ",\n"
    << "  parameter logic [" << n * p * link_w - 1 << ":0] OutLink = " << flat_hex(out_link, link_w) << ",\n"
    << "  parameter logic [" << route.size() * at(port_w) - 1 << ":0] RouteTable = " << flat_hex(route, port_w)
    << ",\n"
    << "  parameter logic [" << minimal.size() - 1 << ":0] Minimal = " << hex_bits(minimal) << ",\n"
    << "  parameter logic [" << port_dim.size() * at(port_w) - 1 << ":0] PortDim = " << flat_hex(port_dim, port_w)
    << ",\n"
    << "  parameter logic [" << dateline.size() - 1 << ":0] Dateline = " << hex_bits(dateline) << ",\n";
  return o.str();
}

}  // namespace totex
