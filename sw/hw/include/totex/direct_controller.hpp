// SPDX-License-Identifier: Apache-2.0
/// The controller side of the direct-network hardware (rtl/totex_direct_*.sv, rtl/totex_router*.sv):
/// field layout and load-port address map, the writes that program a run (schedule tables,
/// messages, send queues), dimension-order route tables for the dynamic baseline, and the
/// parameters of the network top rtl/totex_direct_top.sv for a topology.
///
/// Scheduled mode. Every node has a schedule memory; entry e (executed in cycle e of the run)
/// says, for the messages visible on the node's input links in cycle e (they crossed the link in
/// step e-1), whether each is ejected, stored in the NIC's relay buffer (single-port only) or
/// forwarded on an output port, and which NIC slots are injected on which output ports in step e.
/// A schedule of T steps uses entries 0..T (entry T only ejects), so a run takes T + 1 cycles:
/// pipeline latency 1 (the link register; one register per hop).
///
/// Dynamic mode (DynamicRouting). Route tables generated here, dateline VCs on rings, credit flow
/// control; every NIC injects its send queue in order as fast as the router accepts. `adaptive`
/// (default): minimal adaptive routing over 2 adaptive VCs with the dimension-order VCs as Duato's
/// escape, ties between the two ways round an even ring split by node parity, and the NICs send
/// in the order of a pairwise exchange over randomly relabelled nodes. `dor`: the first baseline:
/// dimension order only, ties +, and every NIC sends s+1, s+2, ..., s+N-1 (mod N).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "totex/load_port.hpp"
#include "totex/model.hpp"
#include "totex/rtl_constants.hpp"  // generated from rtl/totex_pkg.sv and rtl/totex_direct_pkg.sv
#include "totex/schedule.hpp"
#include "totex/network/topology.hpp"
#include "totex/traffic/traffic.hpp"

namespace totex {

enum class DirectMode { Scheduled, Dynamic };
[[nodiscard]] std::string to_string(DirectMode m);

/// The router and send order of dynamic mode (`totex sim --mode dynamic --dynamic dor|adaptive`).
enum class DynamicRouting {
  Dor,       // dimension order, one VC per dateline class, ties +, NIC order s+1, s+2, ...
  Adaptive,  // minimal adaptive + DOR escape VCs (Duato), balanced ties, relabelled NIC order
};
[[nodiscard]] std::string to_string(DynamicRouting r);
/// "dor" | "adaptive"; throws UsageError otherwise.
[[nodiscard]] DynamicRouting parse_dynamic_routing(const std::string& s);
/// Adaptive VCs per router input under `adaptive` (on top of the 1-2 dimension-order VCs).
inline constexpr int kAdaptiveVcs = 2;

/// The build parameters of one direct-network model (everything the generated top depends on).
struct DirectParams {
  DirectMode mode = DirectMode::Scheduled;
  Model model = Model::AllPort;  // scheduled mode: the model the routers check
  int depth = 16;                // scheduled: schedule-memory entries (>= steps + 1)
  int buffer_slots = 0;          // scheduled, single-port: relay buffer entries per node
  int payload_bits = 16;
  int fifo_depth = 4;            // dynamic: entries per input VC FIFO
  DynamicRouting routing = DynamicRouting::Adaptive;  // dynamic: router and NIC send order
  int flits = 1;                 // most flits of one pair (multi-flit traffic; 1 for `all`); dynamic: the
                                 // send queue holds (N - 1) * flits entries
};

/// Field widths of the direct-network hardware for a topology. The widths follow the functions of
/// rtl/totex_direct_pkg.sv (tests/rtl/test_direct_pkg.cpp Verilates the package and compares them for
/// many parameter sets); the codes below are generated from it (totex/rtl_constants.hpp).
struct DirectLayout {
  DirectLayout(const Topology& t, const DirectParams& p);
  DirectParams params;
  std::string spec;
  int nodes;         // N
  int ports;         // P = max degree (every router has P ports; missing ones are tied off)
  int lanes;         // NIC inject lanes: num_lanes(model, P) in scheduled mode, 1 in dynamic mode
  int node_bits;     // node_width(N)
  int msg_bits;      // msg_width(N, PW), message {src, dst, payload}
  int act_bits;      // act_width(P)
  int route_bits;    // route_width(P)
  int own_slots;     // own_slots(N, flits): NIC slots of the node's own flits, slot {flit, dst}
  int slot_bits;     // slot_width(N, buffer_slots, flits)
  int buffer_bits;   // buffer_width(buffer_slots)
  int entry_bits;    // entry_width: P*act + lanes*(route+slot) + buffer
  int words;         // entry_words: LOAD_DATA_W-bit words per entry
  int word_bits;     // word_width
  int step_bits;     // step_width(depth)
  int index_bits;    // index_width, XW
  int addr_bits;     // addr_width: REGION_W + node_bits + XW
  int vcs;           // dynamic: escape VCs (2 when a ring dimension has >= 4 nodes, else 1) + adaptive_vcs
  int adaptive_vcs;  // dynamic: kAdaptiveVcs under DynamicRouting::Adaptive, else 0
  int eject_lanes;   // per node on the top's eject bus: P (scheduled) or 1 (dynamic)
  /// {region[REGION_W], node[IW], index[XW]}.
  [[nodiscard]] std::uint64_t address(int region, std::uint64_t node, std::uint64_t index) const;
  /// The fields of an address: the inverse of address() (harnesses decode the load port with it).
  struct AddressFields {
    int region;
    std::uint64_t node, index;
  };
  [[nodiscard]] AddressFields fields(std::uint64_t addr) const;
  /// A 32-bit digest of everything above; the top drives it on signature_o so that a harness can
  /// refuse a model built for other parameters.
  [[nodiscard]] std::uint32_t signature() const;
  /// The same for one tile of the wired build (rtl/totex_direct_tile.sv): every parameter above
  /// but the topology, which the harness wires at run time.
  [[nodiscard]] std::uint32_t tile_signature() const;

  /// Load-port regions and control registers (rtl/totex_direct_pkg.sv REGION_*, CONTROL_*).
  static constexpr int kRegionTable = rtl::totex_direct_pkg::REGION_TABLE;        // index = {step, word}
  static constexpr int kRegionMessages = rtl::totex_direct_pkg::REGION_MESSAGES;  // scheduled: index = {flit, dst}; dynamic: send queue
  static constexpr int kRegionControl = rtl::totex_direct_pkg::REGION_CONTROL;
  static constexpr int kControlLast = rtl::totex_direct_pkg::CONTROL_LAST;             // scheduled: last entry = steps T
  static constexpr int kControlSendCount = rtl::totex_direct_pkg::CONTROL_SEND_COUNT;  // dynamic, per node
  static constexpr int kControlRecvCount = rtl::totex_direct_pkg::CONTROL_RECV_COUNT;  // dynamic, per node
  /// Input actions of a table entry (ACT_*).
  static constexpr int kActNone = rtl::totex_direct_pkg::ACT_NONE;
  static constexpr int kActEject = rtl::totex_direct_pkg::ACT_EJECT;
  static constexpr int kActStore = rtl::totex_direct_pkg::ACT_STORE;
  static constexpr int kActForward = rtl::totex_direct_pkg::ACT_FORWARD;  // + output port
  /// Lane routes (ROUTE_*): idle, or kRoutePort0 + output port.
  static constexpr int kRouteIdle = rtl::totex_direct_pkg::ROUTE_IDLE;
  static constexpr int kRoutePort0 = rtl::totex_direct_pkg::ROUTE_PORT0;
  /// Widths of the address's region field and of the data word (a table entry is cut into such words).
  static constexpr int kRegionBits = rtl::totex_direct_pkg::REGION_W;
  static constexpr int kWordBits = rtl::totex_direct_pkg::LOAD_DATA_W;
};

/// The most flits of one pair a schedule moves (its flit indices + 1; 1 for `all`): DirectParams::flits.
[[nodiscard]] int direct_schedule_flits(const Schedule& s);

/// Relay-buffer entries a schedule needs at its busiest node (0 when nothing waits at a relay).
[[nodiscard]] int direct_buffer_slots(const Topology& t, const Schedule& s);

/// Everything the controller writes for a scheduled run.
struct DirectProgram {
  std::vector<LoadWrite> writes;  // messages, table entries 0..T of every node, then `last`
  std::int64_t steps = 0;         // T
  /// Things the tables cannot express exactly (two messages on one link in one step, two stores
  /// at a node in one step); the RTL checks flag them when the run executes them.
  std::vector<std::string> notes;
};

/// Programs a scheduled run. The schedule need not be verified: violations that the hardware can
/// represent (a single-port node sending or receiving twice, a link driven twice, two ejections
/// at a nic node) are loaded as they are so that the RTL assertions catch them; what it cannot
/// represent at all (more injections in a step than the NIC has lanes, a message that waits at a
/// relay without a buffer, a message moved from a node it is not at) throws UsageError.
[[nodiscard]] DirectProgram direct_program(const Topology& t, const Schedule& s, const DirectLayout& layout);

/// Dynamic mode: every node's send queue and the send/receive counts. Each processor has a rank
/// r: its index among the processors under DynamicRouting::Dor, a random permutation of those
/// (Fisher-Yates driven by splitmix64 from seed 0: the same on every engine and platform) under
/// Adaptive; rank r sends to ranks r+1, r+2, ..., r+|P|-1 (mod |P|) in that order (Dor on a fully
/// populated network: dst = s+1, ..., s+N-1 mod N). Slot i of every queue together is a
/// permutation (each processor is the destination of one slot-i message), as in MPI's pairwise
/// exchange; the random ranks scatter the directions. Empty nodes send and receive nothing (their
/// routers forward).
/// With a traffic (null: all), each queue holds exactly the node's row of it, flit f of pair (s, d)
/// carrying payload_of(s, d, f): round f offers flit f to every destination that has one, in the
/// rank order above, so a pair's flits are queued in index order and every round scatters the
/// directions as `all` does (`all` gives today's queues exactly). The receive count is the node's
/// column sum. Throws UsageError when a row does not fit the queue ((N - 1) * params.flits slots).
[[nodiscard]] std::vector<LoadWrite> direct_queue_writes(const Topology& t, const DirectLayout& layout,
                                                         const Traffic* traffic = nullptr);
/// The most send-queue slots a dynamic NIC is built with ((N - 1) x the heaviest pair's flits):
/// beyond it `--mode dynamic --traffic` is refused rather than Verilating a huge memory per node.
inline constexpr std::int64_t kMaxDynamicQueueSlots = 65536;
/// The dynamic NIC's send-queue slots: (N - 1) * params.flits (at least one); rtl/totex_direct_dyn_node.sv's QDepth.
[[nodiscard]] int direct_queue_slots(const DirectLayout& layout);

/// Dimension-order routing (products of rings, paths and complete graphs; throws UsageError for
/// a metacube): routes[v][d] = the output port of v towards d, or degree(v)... P for d == v.
/// A ring of even size k has two shortest ways to the node k/2 away: Dor takes + always,
/// Adaptive takes + from an even coordinate and - from an odd one (every link then carries the
/// same load in a total exchange).
struct DirectRoutes {
  std::vector<std::vector<int>> out_port;     // [v][d], P = eject
  std::vector<std::vector<int>> port_dim;     // [v][p] dimension of port p (0 for missing ports)
  std::vector<std::vector<bool>> dateline;    // [v][p] output p is a ring's wrap-around link
  std::vector<std::vector<bool>> minimal;     // [v][d * P + p] port p of v is on a shortest path to d
};
[[nodiscard]] DirectRoutes dimension_order_routes(const Topology& t, int ports, DynamicRouting routing);

/// Per-node constants of a direct network, flat over nodes: in_link[v*P + i] / out_link[v*P + i],
/// the directed link into input i / out of output i of node v (Topology::link_id; t.links() when
/// node v has no port i); dynamic mode only: route[v*N + d] (DirectRoutes::out_port),
/// minimal[(v*N + d)*P + p] (adaptive routing only), port_dim[v*P + p], dateline[v*P + p].
/// What totex_direct_params.svh holds and what the wired build's harness drives into its tiles.
struct DirectNodeTables {
  std::vector<int> in_link, out_link;
  std::vector<int> route, port_dim;
  std::vector<bool> minimal, dateline;
};
[[nodiscard]] DirectNodeTables direct_node_tables(const Topology& t, const DirectLayout& layout);

/// `totex_direct_params.svh`: the parameters of rtl/totex_direct_top.sv for the topology and
/// parameter set (numbers and flat link/route tables only; the top's header describes them).
[[nodiscard]] std::string direct_params_svh(const Topology& t, const DirectLayout& layout);

/// Largest network direct_params_svh() describes (Verilator build time grows with it).
inline constexpr int kMaxDirectRtlNodes = 1024;

}  // namespace totex
