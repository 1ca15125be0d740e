// SPDX-License-Identifier: Apache-2.0
/// Slot tables of the TDM router tiles (rtl/tdm/totex_tdm_tile.sv for nic schedules,
/// rtl/tdm/totex_tdm_allport_tile.sv for all-port ones, rtl/tdm/totex_tdm_single_tile.sv for
/// single-port ones; docs/tdm-tile.md) from a schedule, folded modulo a period P (docs/tdm-runs.md).
///
/// A tile runs its table periodically: in run cycle c it executes slot c mod P. One register per
/// hop: a flit a tile selects in slot s is on its out_* during slot s+1, where the neighbour's entry
/// for slot s+1 acts on it. So a transfer of message m in step t leaving node u through port p is,
/// at u, slot t mod P, output p selecting the local inject (u == m.src, first hop) or the input
/// link m arrived on; m is ejected at m.dst in slot (t_last + 1) mod P from the input link of its
/// last hop, eject_src = m.src; the source's first-hop slot names inject_dst = m.dst.
///
/// Table entry, fields from bit 0 up, SelW = idx_width(P_ports + 2):
///   for each output port o = 0..P_ports-1: SelW bits (0 idle, 1+i forward input link i, P_ports+1 inject)
///   SelW bits eject select (0 none, 1+i eject input link i)
///   NodeW bits inject_dst, NodeW bits eject_src
/// Input link i of node v is the link arriving from neighbor(v, i) (the reverse of v's port i).
///
/// All-port entry (TileKind::AllPort), fields from bit 0 up: the P output selects as above
/// (P_ports+1: inject lane o's message on output o), a P-bit eject mask (bit i: eject input link
/// i to m_axis lane i), P inject destinations (NodeW bits each, output o's), P eject sources
/// (NodeW bits each, input link i's).
///
/// Single-port entry (TileKind::SinglePort), fields from bit 0 up, BufW = idx_width(buffer
/// words): send port (SelW: 0 none, 1+o), send source (2 bits: 0 inject, 1 the flit received in
/// this slot, 2 relay buffer word), send_buf (BufW), inject_dst (NodeW), receive port (SelW: 0 none,
/// 1+i), receive action (2 bits: 0 forwarded by this slot's send, 1 eject, 2 store), recv_buf
/// (BufW), eject_src (NodeW). A relayed flit that leaves in the step after it arrived is forwarded;
/// one that waits is stored in a relay buffer word, busy from its store slot up to its send slot.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "totex/error.hpp"
#include "totex/network/topology.hpp"
#include "totex/schedule.hpp"

namespace totex {

/// The payload width of a TDM tile unless --payload says otherwise (the one place it is written).
inline constexpr int kTdmDefaultPayloadBits = 32;

/// The three TDM tiles, one per communication model of the schedule they run.
///   Nic:        rtl/tdm/totex_tdm_tile.sv, one inject and one eject per slot
///   AllPort:    rtl/tdm/totex_tdm_allport_tile.sv, an inject lane per output, an eject lane per input
///   SinglePort: rtl/tdm/totex_tdm_single_tile.sv, one send and one receive per slot, a relay buffer
enum class TileKind { Nic, AllPort, SinglePort };

/// What differs by kind, in one row per kind (tdm_tile_kind_info).
struct TileKindInfo {
  TileKind kind;
  Model model;             // the schedules it runs
  const char* name;        // "nic", "all-port", "single-port" (the CLI's and JSON's word)
  const char* rtl_top;     // its module under rtl/tdm/ (the Verilated model's top)
  const char* synth_top;   // rtl/synth/tdm_synth.sh --top
};
[[nodiscard]] const TileKindInfo& tdm_tile_kind_info(TileKind kind);
/// The tile that runs schedules of `model`.
[[nodiscard]] TileKind tdm_tile_kind(Model model);

/// The parameters of one tile for a network (every tile of a run has the same ones).
struct TdmTileParams {
  TileKind kind = TileKind::Nic;
  int ports = 1;         // NumPorts: the network's largest degree
  int payload_bits = kTdmDefaultPayloadBits;  // PayloadW
  int node_bits = 1;     // NodeW = idx_width(nodes)
  int depth = 1;         // Depth: slots held, the period rounded up to a power of two
  int buffer_words = 1;  // single-port: BufDepth, the relay buffer's words (a power of two)
  bool bits_in_flops = false;  // BitsInFlops: the NIC's toggle bits in flip-flops (synthesis only)
  /// QueueDepth (every tile): waiting messages per destination in a NIC lane, a power of two; 1
  /// (one flit per pair and period: totex_tdm_nic, today's entry) unless a pair sends several
  /// flits per period (totex_tdm_nic_queue; the entry's last bits, m_axis_tlast).
  int queue_depth = 1;
  /// Whether the entry ends with the ejects' last-flit bits (totex_tdm_pkg::last_width).
  [[nodiscard]] bool last_bit() const { return queue_depth > 1; }
  /// How many: one per m_axis lane (the all-port tile's P, else 1) with a queue, else 0.
  [[nodiscard]] int last_bits() const { return last_bit() ? lanes() : 0; }
  [[nodiscard]] int buffer_bits() const;  // BufW = idx_width(buffer_words)
  /// s_axis / m_axis lanes of the tile: P on the all-port tile, else 1.
  [[nodiscard]] int lanes() const { return kind == TileKind::AllPort ? ports : 1; }
  [[nodiscard]] int sel_bits() const;    // SelW = idx_width(ports + 2)
  [[nodiscard]] int slot_bits() const;   // SlotW = idx_width(depth)
  /// EntryW: nic (ports + 1) * SelW + 2 * NodeW; all-port ports * SelW + ports + 2 * ports * NodeW;
  /// single-port 2 * SelW + 4 + 2 * BufW + 2 * NodeW; each + last_bits() at the top.
  [[nodiscard]] int entry_bits() const;
};

/// One slot of one node's table (decoded).
struct TdmEntry {
  std::vector<int> out_sel;  // per output port: 0 idle, 1+i forward input link i, ports+1 inject
  int eject_sel = 0;         // nic: 0 none, 1+i eject input link i
  int inject_dst = 0;        // nic
  int eject_src = 0;         // nic
  std::vector<int> inject_dsts;  // all-port: per output port, the destination it injects (0 unused)
  std::vector<int> eject_srcs;   // all-port: per input link, the source of the flit ejected, -1 none
  // Single-port (out_sel marks the injecting output with ports+1, eject_sel the ejecting input):
  int send_port = 0;  // 0 none, 1+o
  int send_src = 0;   // 0 inject, 1 the flit received in this slot, 2 relay buffer word send_buf
  int send_buf = 0;
  int recv_port = 0;  // 0 none, 1+i
  int recv_act = 0;   // 0 forwarded by this slot's send, 1 eject, 2 store in word recv_buf
  int recv_buf = 0;
  /// nic and single-port with the last bit (TdmTileParams::last_bit): the flit ejected is the last
  /// of its pair's flits in the period (m_axis_tlast); false without the bit.
  bool eject_last = false;
  /// all-port with the last bits: per input link, 1 when the flit it ejects is the last of its
  /// pair's flits in the period (m_axis_tlast of that lane); empty without them.
  std::vector<int> eject_lasts = {};
  /// Outputs that inject (nic: at most one; all-port: one per lane).
  [[nodiscard]] int injections() const;
  bool operator==(const TdmEntry& o) const {
    return out_sel == o.out_sel && eject_sel == o.eject_sel && inject_dst == o.inject_dst &&
           eject_src == o.eject_src && eject_last == o.eject_last && eject_lasts == o.eject_lasts && inject_dsts == o.inject_dsts && eject_srcs == o.eject_srcs &&
           send_port == o.send_port && send_src == o.send_src && send_buf == o.send_buf &&
           recv_port == o.recv_port && recv_act == o.recv_act && recv_buf == o.recv_buf;
  }
};

/// Packs an entry into EntryW bits, 64-bit words, least significant first.
[[nodiscard]] std::vector<std::uint64_t> encode_tdm_entry(const TdmEntry& e, const TdmTileParams& p);
/// The inverse of encode_tdm_entry.
[[nodiscard]] TdmEntry decode_tdm_entry(const std::vector<std::uint64_t>& words, const TdmTileParams& p);

/// Two uses of one resource of a node in the same slot modulo the period.
struct TdmConflict {
  NodeId node = 0;
  int slot = 0;
  std::string resource;  // "output port 2 (d1+)", "eject", "inject"
  std::string text;      // the whole sentence, both uses named
};

/// A fold with conflicts: every conflict (up to a limit) is listed in what() and in conflicts().
class TdmFoldError : public UsageError {
 public:
  TdmFoldError(const std::string& what, std::vector<TdmConflict> conflicts)
      : UsageError(what), conflicts_(std::move(conflicts)) {}
  [[nodiscard]] const std::vector<TdmConflict>& conflicts() const { return conflicts_; }

 private:
  std::vector<TdmConflict> conflicts_;
};

/// Folded tables of a whole network.
struct TdmTables {
  int period = 0;       // P: slots per period
  std::int64_t steps = 0;  // T: the schedule's steps up to its last transfer; entries 0..T before folding
  TdmTileParams tile;
  std::vector<std::vector<TdmEntry>> entries;  // [node][slot], slot < period
  /// Flits per pair and period the layout below makes room for: the schedule's most flits of one
  /// pair (1 for one-flit traffic, whose layout is today's).
  int flits = 1;
  /// The step of each flit's last hop, (src * N + dst) * flits + f -> step, -1 for a flit the
  /// schedule does not carry. f is the flit's number in the tiles' order: a pair's flits are
  /// numbered by their inject step (the core offers them in that order, the NIC queue keeps it),
  /// and the fold checks that they arrive in that order too (flit_number).
  std::vector<std::int64_t> last_hop;
  /// (src * N + dst) * flits + the schedule's flit index k -> f, the flit's number above (the
  /// identity when the schedule's indices are in inject order).
  std::vector<int> flit_number;
  /// The flit's number f of a schedule transfer's message (0 for one-flit traffic).
  [[nodiscard]] int number_of(const Message& m, int nodes) const {
    return flit_number[(static_cast<std::size_t>(m.src) * static_cast<std::size_t>(nodes) + static_cast<std::size_t>(m.dst)) *
                           static_cast<std::size_t>(flits) + static_cast<std::size_t>(m.flit)];
  }
  /// [node][slot * tile.lanes() + lane] the flit number f the slot's injection on that lane
  /// carries (the harnesses' offers; [node][slot] on the nic and single-port tiles).
  std::vector<std::vector<int>> inject_flit;
  /// All-port: [node][dst] the output port (lane) whose slot injects dst (with several flits per
  /// pair, the lane of the flit that leaves first: flit_lanes has each), -1 for none.
  std::vector<std::vector<int>> lanes;
  /// All-port with several flits per pair: [node][dst * flits + f] the lane flit f is offered on
  /// (a pair's flits may leave on different links), -1 for none; empty otherwise.
  std::vector<std::vector<int>> flit_lanes;
  /// m_axis_tlast of the flit that entry e ejects from input link `in` (1 without last bits).
  [[nodiscard]] int eject_last_of(const TdmEntry& e, int in) const {
    if (!tile.last_bit()) return 1;
    if (tile.kind != TileKind::AllPort) return e.eject_last ? 1 : 0;
    return static_cast<std::size_t>(in) < e.eject_lasts.size() && e.eject_lasts[static_cast<std::size_t>(in)] ? 1 : 0;
  }
  /// Inject decisions of a node per period (the outputs that select inject, over its slots), for
  /// the missed-slot count.
  [[nodiscard]] std::int64_t inject_slots(NodeId v) const;
  /// Inject decisions of one entry (what missed_o counts when none finds a message): one per
  /// injecting output on the all-port tile, at most one on the others.
  [[nodiscard]] int inject_decisions(const TdmEntry& e) const;
  /// Node v's table as EntryW-bit words per slot, `tile.depth` slots (unused ones zero).
  [[nodiscard]] std::vector<std::vector<std::uint64_t>> words(NodeId v) const;
};

/// Every conflict of folding schedule `s` modulo `period` (empty: the fold is clean). Throws
/// UsageError when the schedule is not one a tile runs (a relay that buffers under nic or
/// all-port, a flit waiting a whole period or more under single-port, an invalid transfer) or the
/// period is below 1.
[[nodiscard]] std::vector<TdmConflict> tdm_fold_conflicts(const Topology& t, const Schedule& s, int period);

/// The shortest period the TDM tiles run: a node's NIC holds one waiting message per destination,
/// so a destination's slots must be at least this many cycles apart, and with one message per
/// pair and period they are exactly P apart (docs/tdm-runs.md, Limits; docs/tdm-tile.md, Cycle
/// contract). ref runs any period; the rtl and systemc engines refuse a shorter period that totex
/// picked (a periodic schedule's own) and run a shorter --period as asked (it fails, saying why).
inline constexpr int kTdmTileMinPeriod = 5;

/// The default period: a periodic schedule's own (Schedule::period; for a traffic's periodic
/// schedule below kTdmTileMinPeriod, its smallest multiple at or above it: one exchange per
/// table period, every tile runs it); for a one-shot schedule of T
/// steps (entries 0..T, entry T only ejects) the smallest P >= max(T, kTdmTileMinPeriod) whose fold
/// is clean (T, else T+1, which never folds anything; kTdmTileMinPeriod when T is below it).
[[nodiscard]] int tdm_default_period(const Topology& t, const Schedule& s);

/// The folded tables at `period` (0: tdm_default_period). Throws TdmFoldError naming every conflict
/// (node, slot, port) when the fold has any; never folds silently.
[[nodiscard]] TdmTables tdm_tables(const Topology& t, const Schedule& s, int period = 0,
                                   int payload_bits = kTdmDefaultPayloadBits);

/// A node's table as a $readmemh image: `tile.depth` lines of ceil(EntryW / 4) hex digits.
[[nodiscard]] std::string tdm_hex_image(const TdmTables& tables, NodeId v);
/// Writes tdm_hex_image of every node to DIR/<prefix><node>.hex; returns the paths written.
std::vector<std::string> write_tdm_hex_files(const TdmTables& tables, const std::string& dir,
                                             const std::string& prefix = "node");

/// The payload of message (src, dst) in period k, `bits` wide (1..64): consecutive periods differ.
/// A multi-flit pair's flit f of period k carries period_index k * TdmTables::flits + f (so for
/// one-flit traffic, k: today's payloads).
[[nodiscard]] std::uint64_t tdm_payload(NodeId src, NodeId dst, std::int64_t period_index, int bits);
/// period_index of flit f of period k (tdm_payload above).
[[nodiscard]] inline std::int64_t tdm_flit_index(const TdmTables& tables, std::int64_t period, int flit) {
  return period * tables.flits + flit;
}

}  // namespace totex
