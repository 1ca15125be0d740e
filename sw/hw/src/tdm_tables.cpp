// SPDX-License-Identifier: Apache-2.0
/// Slot tables of the TDM tiles from a nic, all-port or single-port schedule (totex/tdm_tables.hpp,
/// docs/tdm-runs.md).
#include "totex/tdm_tables.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <sstream>

#include "totex/io/output_file.hpp"
#include "totex/load_port.hpp"

namespace totex {
namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }

/// Sets bits [lsb, lsb + width) of a little-endian word vector.
void put_bits(std::vector<std::uint64_t>& w, int lsb, int width, std::uint64_t value) {
  for (int b = 0; b < width; ++b)
    if ((value >> b) & 1U) w[at((lsb + b) / 64)] |= std::uint64_t{1} << ((lsb + b) % 64);
}
std::uint64_t get_bits(const std::vector<std::uint64_t>& w, int lsb, int width) {
  std::uint64_t v = 0;
  for (int b = 0; b < width; ++b) {
    const auto word = at((lsb + b) / 64);
    if (word < w.size() && ((w[word] >> ((lsb + b) % 64)) & 1U)) v |= std::uint64_t{1} << b;
  }
  return v;
}

std::string msg_text(const Message& m) { return "message (" + std::to_string(m.src) + "," + std::to_string(m.dst) + ")"; }

/// Who uses a node's resource in a slot: the message and the (unfolded) step.
struct Use {
  Message msg{-1, -1};
  std::int64_t step = -1;
  [[nodiscard]] bool used() const { return step >= 0; }
};

/// The unfolded table derivation and the fold: everything tdm_fold_conflicts and tdm_tables share.
struct Fold {
  std::vector<std::vector<TdmEntry>> entries;
  std::vector<TdmConflict> conflicts;
  std::int64_t conflict_count = 0;
  std::vector<std::int64_t> last_hop;   // [(src * N + dst) * flits + the schedule's flit index]
  std::vector<std::int64_t> first_hop;  // the same, the step of the injection
  std::vector<int> first_port;          // the same, the output port of the injection (its lane on all-port)
  std::vector<int> last_in;             // the same, the input link it arrives on at its destination
  int flits = 1;                        // the schedule's largest flit index + 1
  std::vector<std::vector<int>> lanes;  // all-port: [node][dst] the output port of dst's first hop
  int buffer_words = 0;                 // single-port: relay buffer words the busiest node uses
  std::int64_t steps = 0;
};

/// A flit waiting at a single-port relay: stored in step `store` (its receive slot), sent in step
/// `send`; the word is busy over steps store .. send-1 (modulo the period).
struct Wait {
  NodeId node;
  std::int64_t store, send;
};

/// Relay buffer words for every wait, per node: circular first fit in order of the store step, a
/// word taken over the wait's slots modulo the period. Returns the most words a node uses.
int allocate_relay_words(std::vector<Wait>& waits, std::vector<std::vector<TdmEntry>>& entries, int period) {
  std::stable_sort(waits.begin(), waits.end(), [](const Wait& a, const Wait& b) {
    return a.node != b.node ? a.node < b.node : a.store < b.store;
  });
  int most = 0;
  std::vector<std::vector<char>> busy;  // [word][slot] of the current node
  for (std::size_t i = 0; i < waits.size(); ++i) {
    if (i == 0 || waits[i].node != waits[i - 1].node) busy.clear();
    const Wait& w = waits[i];
    const auto free_over = [&](const std::vector<char>& word) {
      for (std::int64_t x = w.store; x < w.send; ++x)
        if (word[static_cast<std::size_t>(x % period)]) return false;
      return true;
    };
    std::size_t word = 0;
    while (word < busy.size() && !free_over(busy[word])) ++word;
    if (word == busy.size()) busy.emplace_back(static_cast<std::size_t>(period), 0);
    for (std::int64_t x = w.store; x < w.send; ++x) busy[word][static_cast<std::size_t>(x % period)] = 1;
    entries[at(w.node)][static_cast<std::size_t>(w.store % period)].recv_buf = static_cast<int>(word);
    entries[at(w.node)][static_cast<std::size_t>(w.send % period)].send_buf = static_cast<int>(word);
    most = std::max(most, static_cast<int>(busy.size()));
  }
  return most;
}

constexpr std::size_t kConflictsKept = 20;

Fold fold(const Topology& t, const Schedule& s, int period) {
  const TileKind kind = tdm_tile_kind(s.model);
  const bool all_port = kind == TileKind::AllPort, single = kind == TileKind::SinglePort;
  if (period < 1) throw UsageError("period " + std::to_string(period) + ": a TDM period is at least 1 slot");
  if (s.lazy()) throw UsageError("tdm tables: expand the schedule first (Schedule::materialize)");
  const int n = t.nodes(), ports = std::max(1, t.max_degree());
  Fold f;
  // Multi-flit traffic: a pair's flits are told apart by their index (one flit: today's layout).
  for (const auto& step : s.steps)
    for (const Transfer& tr : step) f.flits = std::max(f.flits, tr.msg.flit + 1);
  const auto nn = static_cast<std::size_t>(n) * static_cast<std::size_t>(n) * static_cast<std::size_t>(f.flits);
  check_memory(static_cast<std::uint64_t>(nn), 24, "the TDM tables of " + t.spec());
  check_memory(static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(period) * static_cast<std::uint64_t>(ports + 3), 24,
               "the TDM tables of " + t.spec() + " at period " + std::to_string(period));
  TdmEntry idle{std::vector<int>(at(ports), 0), 0, 0, 0, {}, {}};
  if (all_port) {
    idle.inject_dsts.assign(at(ports), 0);
    idle.eject_srcs.assign(at(ports), -1);
    f.lanes.assign(at(n), std::vector<int>(at(n), -1));
  }
  f.entries.assign(at(n), std::vector<TdmEntry>(at(period), idle));
  f.last_hop.assign(nn, -1);
  f.first_hop.assign(nn, -1);
  f.first_port.assign(nn, -1);
  f.last_in.assign(nn, -1);
  // Per (node, slot): who drives each output, the eject (per input link under all-port; under
  // single-port every receive, relays included) and the inject (nic; all-port injects per output,
  // counted by out_use; single-port: every send, relays included).
  const int eject_lanes = all_port ? ports : 1;
  std::vector<Use> out_use(at(n) * at(period) * at(ports)), eject_use(at(n) * at(period) * at(eject_lanes)),
      inject_use(at(n) * at(period));
  // Where each message is: its node and the step it arrived there (-1: still at its source, never moved).
  std::vector<NodeId> where(nn);
  std::vector<std::int64_t> arrived(nn, -1);
  std::vector<Wait> waits;  // single-port: flits held by a relay
  std::vector<NodeId> came_from(nn, -1);
  for (std::size_t m = 0; m < nn; ++m) where[m] = static_cast<NodeId>(m / (at(n) * at(f.flits)));
  const auto conflict = [&](NodeId v, int slot, const std::string& resource, const Use& first, const Message& msg,
                            std::int64_t step) {
    if (++f.conflict_count > static_cast<std::int64_t>(kConflictsKept)) return;
    f.conflicts.push_back({v, slot, resource,
                           "node " + std::to_string(v) + ", slot " + std::to_string(slot) + " (period " +
                               std::to_string(period) + "): " + resource + " used by " + msg_text(first.msg) +
                               " in step " + std::to_string(first.step) + " and by " + msg_text(msg) + " in step " +
                               std::to_string(step)});
  };
  const auto claim = [&](std::vector<Use>& uses, std::size_t index, NodeId v, int slot, const std::string& resource,
                         const Message& msg, std::int64_t step) {
    Use& u = uses[index];
    if (u.used()) {
      conflict(v, slot, resource, u, msg, step);
      return false;
    }
    u = {msg, step};
    return true;
  };
  for (std::size_t step = 0; step < s.steps.size(); ++step) {
    const auto st = static_cast<std::int64_t>(step);
    const int slot = static_cast<int>(st % period);
    for (const Transfer& tr : s.steps[step]) {
      const Message& msg = tr.msg;
      if (msg.src < 0 || msg.src >= n || msg.dst < 0 || msg.dst >= n || msg.src == msg.dst || tr.from < 0 ||
          tr.from >= n || tr.port < 0 || tr.port >= t.degree(tr.from))
        throw UsageError("step " + std::to_string(step) + ": a transfer of " + msg_text(msg) + " from node " +
                         std::to_string(tr.from) + " port " + std::to_string(tr.port) +
                         " is not in this network; verify the schedule first");
      const std::size_t m = (at(msg.src) * at(n) + at(msg.dst)) * at(f.flits) + at(msg.flit);
      const NodeId u = tr.from, to = t.neighbor(u, tr.port);
      if (where[m] != u)
        throw UsageError("step " + std::to_string(step) + ": " + msg_text(msg) + " leaves node " + std::to_string(u) +
                         " but is at node " + std::to_string(where[m]) + "; verify the schedule first");
      int sel = 0;
      TdmEntry& sender = f.entries[at(u)][at(slot)];
      const bool first = arrived[m] < 0;
      if (single) (void)claim(inject_use, at(u) * at(period) + at(slot), u, slot, "send", msg, st);
      if (first) {  // the first hop: the source's NIC injects it
        sel = ports + 1;
        f.first_hop[m] = st;
        f.first_port[m] = tr.port;
        if (all_port) {  // lane tr.port: its output is claimed below
          sender.inject_dsts[at(tr.port)] = msg.dst;
          int& lane = f.lanes[at(u)][at(msg.dst)];
          if (lane < 0) lane = tr.port;  // the pair's first flit's (steps in order)
        } else if (single || claim(inject_use, at(u) * at(period) + at(slot), u, slot, "inject", msg, st)) {
          sender.inject_dst = msg.dst;
        }
      } else {
        if (arrived[m] != st && !single)
          throw UsageError(msg_text(msg) + " waits at relay node " + std::to_string(u) + " from step " +
                           std::to_string(arrived[m]) + " to step " + std::to_string(step) +
                           ": the nic and all-port TDM tiles never buffer a relayed flit (it leaves in the next step)");
        if (arrived[m] + period <= st)
          throw UsageError(msg_text(msg) + " waits at relay node " + std::to_string(u) + " from step " +
                           std::to_string(arrived[m]) + " to step " + std::to_string(step) +
                           ", a whole period of " + std::to_string(period) +
                           " slots or more: one relay buffer word would hold two periods' flits; use a longer --period");
        const std::optional<Port> in = t.port_to(u, came_from[m]);
        sel = 1 + *in;  // adjacent: it came over that link
      }
      if (single) {
        sender.send_port = 1 + tr.port;
        sender.send_src = first ? 0 : arrived[m] == st ? 1 : 2;
        if (!first && arrived[m] != st) {  // stored when it arrived, read now
          f.entries[at(u)][static_cast<std::size_t>(arrived[m] % period)].recv_act = 2;
          waits.push_back({u, arrived[m], st});
        }
        if (!first) sel = 0;  // out_sel marks only the injecting output
      }
      const std::string out_name =
          "output port " + std::to_string(tr.port) + " (" + t.port_name(u, tr.port) + ")";
      if (claim(out_use, (at(u) * at(period) + at(slot)) * at(ports) + at(tr.port), u, slot, out_name, msg, st))
        sender.out_sel[at(tr.port)] = sel;
      came_from[m] = u;
      where[m] = to;
      arrived[m] = st + 1;
      if (single) {  // every arrival takes the receive of its slot (a relay's too)
        const int rslot = static_cast<int>((st + 1) % period);
        if (claim(eject_use, at(to) * at(period) + at(rslot), to, rslot, "receive", msg, st + 1)) {
          TdmEntry& r = f.entries[at(to)][at(rslot)];
          r.recv_port = 1 + *t.port_to(to, u);
          r.recv_act = to == msg.dst ? 1 : 0;  // a relay's: forwarded, or stored (set when it leaves)
        }
      }
      if (to == msg.dst) {
        const int eslot = static_cast<int>((st + 1) % period);
        const int in = *t.port_to(to, u);
        const int lane = all_port ? in : 0;
        if (single || claim(eject_use, (at(to) * at(period) + at(eslot)) * at(eject_lanes) + at(lane), to, eslot,
                            all_port ? "eject lane " + std::to_string(in) : "eject", msg, st + 1)) {
          TdmEntry& e = f.entries[at(to)][at(eslot)];
          if (all_port) {
            e.eject_srcs[at(in)] = msg.src;
          } else {
            e.eject_sel = 1 + in;
            e.eject_src = msg.src;
          }
        }
        f.last_hop[m] = st;
        f.last_in[m] = in;
        arrived[m] = -2;  // delivered: any later transfer is an error above (where[m] is its destination)
      }
      f.steps = std::max(f.steps, st + 1);
    }
  }
  if (single && f.conflict_count == 0) f.buffer_words = allocate_relay_words(waits, f.entries, period);
  if (f.conflict_count > static_cast<std::int64_t>(kConflictsKept))
    f.conflicts.push_back({-1, -1, "", "... and " + std::to_string(f.conflict_count - static_cast<std::int64_t>(kConflictsKept)) +
                                           " more conflicts"});
  return f;
}

/// The single-port entry's fields from bit 0 up with their widths (E: TdmEntry or const TdmEntry).
template <class E>
auto single_port_fields(E& e, const TdmTileParams& p) {
  const int sw = p.sel_bits(), bw = p.buffer_bits(), nw = p.node_bits;
  return std::array<std::pair<decltype(&e.send_port), int>, 8>{{{&e.send_port, sw},
                                                               {&e.send_src, 2},
                                                               {&e.send_buf, bw},
                                                               {&e.inject_dst, nw},
                                                               {&e.recv_port, sw},
                                                               {&e.recv_act, 2},
                                                               {&e.recv_buf, bw},
                                                               {&e.eject_src, nw}}};
}

std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBULL;
  x ^= x >> 31;
  return x;
}

/// Numbers every pair's flits in their inject order (the core offers them so, the NIC queue keeps
/// it) and checks that they arrive in that order and leave their source within one period (so that
/// periods do not interleave in the queue). All-port: a pair's flits may leave on several lanes,
/// each lane's queue keeps its own order, so the flits are numbered in their arrival order (a
/// step's arrivals in the order of their input links, the m_axis lanes) and the check is that the
/// flits of one lane leave in that order. Sets the tables' flit layout, last hops, the entries'
/// last bits (all-port: per input link), the inject flit numbers (per lane on all-port) and the
/// all-port flit lanes, and the queue depth (the most flits of one pair: what one destination's
/// queue holds at once, rounded up to a power of two; on all-port a lane's queue holds at most as
/// many).
void number_flits(const Fold& f, int n, TdmTables& out) {
  const auto F = at(f.flits);
  out.flits = f.flits;
  out.last_hop.assign(f.last_hop.size(), -1);
  out.flit_number.assign(f.last_hop.size(), 0);
  const int lanes = out.tile.lanes();
  const bool all_port = out.tile.kind == TileKind::AllPort;
  out.inject_flit.assign(out.entries.size(), std::vector<int>(at(out.period) * at(lanes), 0));
  if (all_port && F > 1) out.flit_lanes.assign(out.entries.size(), std::vector<int>(at(n) * F, -1));
  int most = 1;
  std::vector<std::size_t> order;
  for (std::size_t pair = 0; pair < at(n) * at(n); ++pair) {
    order.clear();
    for (std::size_t k = 0; k < F; ++k)
      if (f.last_hop[pair * F + k] >= 0) order.push_back(k);
    if (all_port) {
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const std::size_t ma = pair * F + a, mb = pair * F + b;
        return f.last_hop[ma] != f.last_hop[mb] ? f.last_hop[ma] < f.last_hop[mb] : f.last_in[ma] < f.last_in[mb];
      });
    } else {
      std::stable_sort(order.begin(), order.end(),
                       [&](std::size_t a, std::size_t b) { return f.first_hop[pair * F + a] < f.first_hop[pair * F + b]; });
    }
    most = std::max(most, static_cast<int>(order.size()));
    const auto src = static_cast<NodeId>(pair / at(n)), dst = static_cast<NodeId>(pair % at(n));
    const auto name = [&](std::size_t k) {
      return "(" + std::to_string(src) + "," + std::to_string(dst) + ")#" + std::to_string(k);
    };
    // The flit that leaves first (order[0] but on all-port, numbered by arrival).
    std::size_t first = 0;
    for (std::size_t i = 1; i < order.size(); ++i)
      if (f.first_hop[pair * F + order[i]] < f.first_hop[pair * F + order[first]]) first = i;
    for (std::size_t i = 0; i < order.size(); ++i) {
      const std::size_t m = pair * F + order[i];
      if (all_port) {  // the flits before it on its lane left before it
        for (std::size_t j = 0; j < i; ++j) {
          const std::size_t prev = pair * F + order[j];
          if (f.first_port[prev] == f.first_port[m] && f.first_hop[prev] > f.first_hop[m])
            throw UsageError("flits " + name(order[j]) + " and " + name(order[i]) + " leave node " + std::to_string(src) +
                             " on output port " + std::to_string(f.first_port[m]) + " in steps " +
                             std::to_string(f.first_hop[prev]) + " and " + std::to_string(f.first_hop[m]) +
                             " but arrive in steps " + std::to_string(f.last_hop[prev] + 1) + " and " +
                             std::to_string(f.last_hop[m] + 1) +
                             ": the all-port TDM tile's NIC lane keeps a pair's flits in order, the schedule must "
                             "deliver the flits of one lane so");
        }
      } else if (i > 0) {
        const std::size_t prev = pair * F + order[i - 1];
        if (f.last_hop[m] <= f.last_hop[prev])
          throw UsageError("flits " + name(order[i - 1]) + " and " + name(order[i]) + " leave node " +
                           std::to_string(src) + " in steps " + std::to_string(f.first_hop[prev]) + " and " +
                           std::to_string(f.first_hop[m]) + " but arrive in steps " + std::to_string(f.last_hop[prev] + 1) +
                           " and " + std::to_string(f.last_hop[m] + 1) +
                           ": the TDM NIC's queue keeps a pair's flits in order, the schedule must deliver them so");
      }
      if (f.first_hop[m] - f.first_hop[pair * F + order[first]] >= out.period)
        throw UsageError("flits " + name(order[first]) + " and " + name(order[i]) + " leave node " + std::to_string(src) +
                         " in steps " + std::to_string(f.first_hop[pair * F + order[first]]) + " and " +
                         std::to_string(f.first_hop[m]) + ", a period of " + std::to_string(out.period) +
                         " slots or more apart: the next period's flits would overtake them in the NIC's queue");
      const auto number = static_cast<int>(i);
      out.flit_number[m] = number;
      out.last_hop[pair * F + i] = f.last_hop[m];
      const int lane = all_port ? f.first_port[m] : 0;
      out.inject_flit[at(src)][static_cast<std::size_t>(f.first_hop[m] % out.period) * at(lanes) + at(lane)] = number;
      if (!out.flit_lanes.empty()) out.flit_lanes[at(src)][at(dst) * F + i] = lane;
      TdmEntry& e = out.entries[at(dst)][static_cast<std::size_t>((f.last_hop[m] + 1) % out.period)];
      if (all_port) {
        e.eject_lasts.resize(at(out.tile.ports), 0);
        e.eject_lasts[at(f.last_in[m])] = i + 1 == order.size() ? 1 : 0;
      } else {
        e.eject_last = i + 1 == order.size();
      }
    }
  }
  out.tile.queue_depth = 1;
  while (out.tile.queue_depth < most) out.tile.queue_depth *= 2;
  for (auto& node : out.entries)
    for (TdmEntry& e : node) {
      if (!out.tile.last_bit()) {  // no last bit in the entry: every flit is its message's last
        e.eject_last = false;
        e.eject_lasts.clear();
      } else if (all_port) {  // one bit per input link in every entry (as decoded)
        e.eject_lasts.resize(at(out.tile.ports), 0);
      }
    }
}

}  // namespace

int TdmTileParams::sel_bits() const { return idx_width(ports + 2); }
int TdmTileParams::slot_bits() const { return idx_width(depth); }
int TdmTileParams::buffer_bits() const { return idx_width(buffer_words); }
int TdmTileParams::entry_bits() const {
  switch (kind) {
    case TileKind::SinglePort: return 2 * sel_bits() + 4 + 2 * buffer_bits() + 2 * node_bits + last_bits();
    case TileKind::AllPort: return ports * sel_bits() + ports + 2 * ports * node_bits + last_bits();
    case TileKind::Nic: break;
  }
  return (ports + 1) * sel_bits() + 2 * node_bits + last_bits();
}

const TileKindInfo& tdm_tile_kind_info(TileKind kind) {
  static const TileKindInfo kinds[] = {
      {TileKind::Nic, Model::Nic, "nic", "totex_tdm_tile", "tile"},
      {TileKind::AllPort, Model::AllPort, "all-port", "totex_tdm_allport_tile", "allport"},
      {TileKind::SinglePort, Model::SinglePort, "single-port", "totex_tdm_single_tile", "single"},
  };
  for (const TileKindInfo& k : kinds)
    if (k.kind == kind) return k;
  return kinds[0];
}

TileKind tdm_tile_kind(Model model) {
  for (const TileKind k : {TileKind::Nic, TileKind::AllPort, TileKind::SinglePort})
    if (tdm_tile_kind_info(k).model == model) return k;
  return TileKind::Nic;
}

int TdmEntry::injections() const {
  int count = 0;
  const int inject = static_cast<int>(out_sel.size()) + 1;
  for (const int sel : out_sel) count += sel == inject ? 1 : 0;
  return count;
}

std::vector<std::uint64_t> encode_tdm_entry(const TdmEntry& e, const TdmTileParams& p) {
  const int sw = p.sel_bits();
  std::vector<std::uint64_t> w(at((p.entry_bits() + 63) / 64), 0);
  const auto field = [](const std::vector<int>& v, int i, int none) { return i < static_cast<int>(v.size()) ? v[at(i)] : none; };
  if (p.kind == TileKind::SinglePort) {
    int lsb = 0;
    for (const auto& [member, width] : single_port_fields(e, p)) {
      put_bits(w, lsb, width, static_cast<std::uint64_t>(*member));
      lsb += width;
    }
    if (p.last_bit()) put_bits(w, p.entry_bits() - 1, 1, e.eject_last ? 1 : 0);
    return w;
  }
  for (int o = 0; o < p.ports; ++o) put_bits(w, o * sw, sw, static_cast<std::uint64_t>(field(e.out_sel, o, 0)));
  if (p.kind == TileKind::AllPort) {
    const int dst_lsb = p.ports * sw + p.ports, src_lsb = dst_lsb + p.ports * p.node_bits;
    for (int i = 0; i < p.ports; ++i) {
      const int src = field(e.eject_srcs, i, -1);
      if (src >= 0) {
        put_bits(w, p.ports * sw + i, 1, 1);
        put_bits(w, src_lsb + i * p.node_bits, p.node_bits, static_cast<std::uint64_t>(src));
      }
      put_bits(w, dst_lsb + i * p.node_bits, p.node_bits, static_cast<std::uint64_t>(field(e.inject_dsts, i, 0)));
      // The last bits at the top, input link i's at (entry bits - ports + i).
      if (p.last_bit()) put_bits(w, p.entry_bits() - p.ports + i, 1, field(e.eject_lasts, i, 0) ? 1 : 0);
    }
    return w;
  }
  put_bits(w, p.ports * sw, sw, static_cast<std::uint64_t>(e.eject_sel));
  put_bits(w, (p.ports + 1) * sw, p.node_bits, static_cast<std::uint64_t>(e.inject_dst));
  put_bits(w, (p.ports + 1) * sw + p.node_bits, p.node_bits, static_cast<std::uint64_t>(e.eject_src));
  if (p.last_bit()) put_bits(w, p.entry_bits() - 1, 1, e.eject_last ? 1 : 0);
  return w;
}

TdmEntry decode_tdm_entry(const std::vector<std::uint64_t>& w, const TdmTileParams& p) {
  const int sw = p.sel_bits();
  TdmEntry e;
  if (p.kind == TileKind::SinglePort) {
    int lsb = 0;
    for (const auto& [member, width] : single_port_fields(e, p)) {
      *member = static_cast<int>(get_bits(w, lsb, width));
      lsb += width;
    }
    if (p.last_bit()) e.eject_last = get_bits(w, p.entry_bits() - 1, 1) != 0;
    // The informational fields of the other tiles: the injecting output, the ejecting input.
    e.out_sel.assign(at(p.ports), 0);
    if (e.send_port > 0 && e.send_src == 0) e.out_sel[at(e.send_port - 1)] = p.ports + 1;
    e.eject_sel = e.recv_act == 1 ? e.recv_port : 0;
    if (e.eject_sel == 0) e.eject_src = 0;
    if (e.send_port == 0 || e.send_src != 0) e.inject_dst = 0;
    return e;
  }
  for (int o = 0; o < p.ports; ++o) e.out_sel.push_back(static_cast<int>(get_bits(w, o * sw, sw)));
  if (p.kind == TileKind::AllPort) {
    const int dst_lsb = p.ports * sw + p.ports, src_lsb = dst_lsb + p.ports * p.node_bits;
    for (int i = 0; i < p.ports; ++i) {
      e.inject_dsts.push_back(static_cast<int>(get_bits(w, dst_lsb + i * p.node_bits, p.node_bits)));
      e.eject_srcs.push_back(get_bits(w, p.ports * sw + i, 1) ? static_cast<int>(get_bits(w, src_lsb + i * p.node_bits, p.node_bits)) : -1);
      if (p.last_bit()) e.eject_lasts.push_back(static_cast<int>(get_bits(w, p.entry_bits() - p.ports + i, 1)));
    }
    return e;
  }
  e.eject_sel = static_cast<int>(get_bits(w, p.ports * sw, sw));
  e.inject_dst = static_cast<int>(get_bits(w, (p.ports + 1) * sw, p.node_bits));
  e.eject_src = static_cast<int>(get_bits(w, (p.ports + 1) * sw + p.node_bits, p.node_bits));
  if (p.last_bit()) e.eject_last = get_bits(w, p.entry_bits() - 1, 1) != 0;
  return e;
}

int TdmTables::inject_decisions(const TdmEntry& e) const {
  return tile.kind == TileKind::AllPort ? e.injections() : std::min(1, e.injections());
}

std::int64_t TdmTables::inject_slots(NodeId v) const {
  std::int64_t count = 0;
  for (const TdmEntry& e : entries[at(v)]) count += inject_decisions(e);
  return count;
}

std::vector<std::vector<std::uint64_t>> TdmTables::words(NodeId v) const {
  std::vector<std::vector<std::uint64_t>> out;
  const TdmEntry idle{std::vector<int>(at(tile.ports), 0), 0, 0, 0, {}, {}};
  for (int slot = 0; slot < tile.depth; ++slot)
    out.push_back(encode_tdm_entry(slot < period ? entries[at(v)][at(slot)] : idle, tile));
  return out;
}

std::vector<TdmConflict> tdm_fold_conflicts(const Topology& t, const Schedule& s, int period) {
  return fold(t, s, period).conflicts;
}

int tdm_default_period(const Topology& t, const Schedule& s) {
  if (s.period > 0) {
    // A traffic's periodic schedule below the tiles' minimum: its smallest multiple at or above it
    // (every fold at a multiple of a periodic schedule's period is clean; each destination gets
    // one slot per period, now far enough apart for the NIC). `all` keeps its own period.
    if (s.traffic.is_all() || s.period >= kTdmTileMinPeriod) return s.period;
    return (kTdmTileMinPeriod + s.period - 1) / s.period * s.period;
  }
  // T: steps up to the last transfer (trailing empty steps do not count).
  std::int64_t steps = 0;
  for (std::size_t i = 0; i < s.steps.size(); ++i)
    if (!s.steps[i].empty()) steps = static_cast<std::int64_t>(i) + 1;
  if (steps == 0) throw UsageError("the schedule has no transfers: nothing to put in a TDM table");
  if (steps >= (std::int64_t{1} << 30)) throw UsageError("the schedule is too long for a TDM table");
  const int T = static_cast<int>(steps);
  // Below the tiles' minimum period: that period, which folds nothing (it is at least T + 1).
  if (T < kTdmTileMinPeriod) return kTdmTileMinPeriod;
  return fold(t, s, T).conflict_count == 0 ? T : T + 1;
}

TdmTables tdm_tables(const Topology& t, const Schedule& s, int period, int payload_bits) {
  t.require_two_way("the TDM tiles");
  if (payload_bits < 1 || payload_bits > 64)
    throw UsageError("--payload " + std::to_string(payload_bits) + ": accepted values are 1 to 64 bits");
  if (period == 0) period = tdm_default_period(t, s);
  Fold f = fold(t, s, period);
  if (f.conflict_count > 0) {
    // One line (the CLI prints errors as one line): the first few conflicts, the count, and the
    // period that does fold.
    std::string text = "the schedule does not fold into a TDM table of period " + std::to_string(period) + ": " +
                       std::to_string(f.conflict_count) + " conflict" + (f.conflict_count == 1 ? "" : "s") + " (";
    constexpr std::size_t kShown = 3;
    for (std::size_t i = 0; i < f.conflicts.size() && i < kShown && f.conflicts[i].node >= 0; ++i)
      text += (i ? "; " : "") + f.conflicts[i].text;
    if (f.conflict_count > static_cast<std::int64_t>(kShown))
      text += "; ... and " + std::to_string(f.conflict_count - static_cast<std::int64_t>(kShown)) + " more";
    text += ")";
    if (const int clean = tdm_default_period(t, s); clean != period)
      text += "; period " + std::to_string(clean) + " folds without conflict";
    throw TdmFoldError(text, std::move(f.conflicts));
  }
  TdmTables out;
  out.period = period;
  out.steps = f.steps;
  out.tile.ports = std::max(1, t.max_degree());
  out.tile.payload_bits = payload_bits;
  out.tile.node_bits = idx_width(t.nodes());
  out.tile.depth = 1;
  while (out.tile.depth < period) out.tile.depth *= 2;
  out.tile.kind = tdm_tile_kind(s.model);
  out.tile.buffer_words = 1;
  while (out.tile.buffer_words < f.buffer_words) out.tile.buffer_words *= 2;
  out.entries = std::move(f.entries);
  out.lanes = std::move(f.lanes);
  number_flits(f, t.nodes(), out);
  return out;
}

std::string tdm_hex_image(const TdmTables& tables, NodeId v) {
  const int digits = (tables.tile.entry_bits() + 3) / 4;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const auto& w : tables.words(v)) {
    for (int d = digits - 1; d >= 0; --d) out += kHex[get_bits(w, 4 * d, 4)];
    out += '\n';
  }
  return out;
}

std::vector<std::string> write_tdm_hex_files(const TdmTables& tables, const std::string& dir, const std::string& prefix) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw OutputError(dir + ": " + ec.message());
  std::vector<std::string> paths;
  for (NodeId v = 0; v < static_cast<NodeId>(tables.entries.size()); ++v) {
    const std::string path = (std::filesystem::path(dir) / (prefix + std::to_string(v) + ".hex")).string();
    write_output_file(path, [&](std::ostream& out) { out << tdm_hex_image(tables, v); });
    paths.push_back(path);
  }
  return paths;
}

std::uint64_t tdm_payload(NodeId src, NodeId dst, std::int64_t period_index, int bits) {
  // A hash of the pair plus k times an odd constant: within 2^bits periods no two periods of one
  // pair carry the same payload.
  const std::uint64_t base = mix64((static_cast<std::uint64_t>(static_cast<std::uint32_t>(src)) << 32) |
                                   static_cast<std::uint32_t>(dst));
  const std::uint64_t x = base + static_cast<std::uint64_t>(period_index) * 0x9E3779B97F4A7C15ULL;
  return bits >= 64 ? x : x & ((std::uint64_t{1} << bits) - 1);
}

}  // namespace totex
