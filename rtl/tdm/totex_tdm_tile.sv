// SPDX-License-Identifier: Apache-2.0
/// TDM tile: the scheduled router, the NIC, the slot counter and the slot table of one node of a
/// time-division-multiplexed all-to-all exchange under the `nic` model (docs/tdm-tile.md).
///
/// Every cycle with run_i high executes one slot of a periodic schedule (slot 0 .. period_last_i,
/// then 0 again). A slot's table entry (in block RAM, read ahead) says, for each of the NumPorts
/// output links, whether it is idle, forwards the flit on input link i or injects the local
/// message for inject_dst, and whether one input's flit is ejected to the core (m_axis, source id
/// eject_src). Links carry PayloadW data bits plus a valid bit; relays never buffer: a flit
/// selected in slot s is on out_* during slot s+1 (one register per hop) and the neighbour's entry
/// for slot s+1 decides what happens to it.
///
/// Built from the shell of the three tiles (totex_tdm_shell: the slot pipeline with the table read
/// ahead, the NIC lane, the inject-key decode, the output registers, missed_o and error_o) and the
/// router of the nic and all-port tiles (totex_tdm_router) with the eject mux in front of m_axis
/// (totex_tdm_nic_route, shared with totex_tdm_ctl_tile). The NIC (totex_tdm_nic) holds one waiting message per destination (send buffer in
/// block RAM, two words per destination; the pending state as toggle bits in block RAM, one per
/// side: S flips on a commit, R on an injection). An offer on s_axis is accepted unless an earlier
/// offer whose destination is occupied is parked (head of line); accepted messages are committed in
/// order, each as soon as its destination's entry is free. The slot of d injects d's message if one
/// is committed, else nothing is sent and missed_o counts the slot. Receive: m_axis is a registered
/// one-cycle pulse per ejected flit; the core must take it (m_axis_tready high whenever
/// m_axis_tvalid is high), else error_o.
///
/// Cycle contract (PrimeCycles = totex_tdm_pkg::prime_cycles(NodeW) = 2**NodeW + 4):
///   * After reset release the NIC clears its toggle bits (2**NodeW cycles, s_axis_tready low).
///     After reset release and after every table write (tbl_we_i), the tile waits 2**NodeW
///     cycles and reads the first slots of the table ahead by itself ("priming"); run_i must stay
///     low for at least PrimeCycles cycles after reset release and after the last table write
///     (else error_o).
///   * The first cycle with run_i high executes slot 0; each later cycle with run_i high executes
///     the next slot (period_last_i wraps to 0). A cycle with run_i low is a pause: no slot
///     executes, out_* and the NIC's decisions hold, m_axis_tvalid is low.
///   * A flit selected in the cycle executing slot s is on out_* from the next cycle until the next
///     cycle after a slot executes; an ejected flit is on m_axis (tvalid high one cycle) in the next
///     cycle.
///   * The inject decision for a slot is made in the cycle before it executes (the cycle in which
///     the previous slot executes, or the last priming cycle for the first slot 0): a message
///     accepted on s_axis at the end of cycle a with its entry free is committed at the end of
///     cycle a + 1 and injected by the first slot for its destination that executes in cycle
///     a + 4 or later, unless one of the two slots before it sent to the same destination.
///   * Table writes: only while run_i is low; a write restarts priming from slot 0; a write while a
///     decided injection is pending (after a run, paused) loses it and sets error_o.
/// error_o (sticky until reset): m_axis overrun; run_i high before priming ended; a flit left on
/// an input (valid, but no output and no eject selects it); an entry with two injecting outputs;
/// a table write while a decided injection is pending. Immediate assertions unless SYNTHESIS /
/// TOTEX_NO_ASSERTIONS.
`default_nettype none

module totex_tdm_tile #(
  /// Neighbour links P (inputs and outputs), >= 1.
  parameter int unsigned NumPorts = 32'd4,
  /// Payload bits W of a flit.
  parameter int unsigned PayloadW = 32'd32,
  /// Bits of a node id (the send buffer has 2**NodeW entries).
  parameter int unsigned NodeW = 32'd6,
  /// Slots the table holds (the period is at most Depth).
  parameter int unsigned Depth = 32'd128,
  /// $readmemh image of the slot table (block-RAM initial contents); "" = none.
  parameter TableFile = "",
  /// Bits of missed_o (>= 2).
  parameter int unsigned MissW = 32'd16,
  /// 1: the NIC's toggle bits in flip-flops rather than block RAM (4 block RAMs fewer, for many
  /// small tiles on one device; slower: docs/tdm-tile.md).
  parameter bit BitsInFlops = 1'b0,
  /// Waiting messages per destination in the NIC: 1 (the default) one, as above; a power of two
  /// >= 2: a queue per destination (totex_tdm_nic_queue, multi-flit traffic), and the entry gets
  /// a last bit at its top that marks the eject of a pair's last flit in the period
  /// (m_axis_tlast). `totex fpga` sizes it from the schedule (docs/tdm-tile.md, "Traffic").
  parameter int unsigned QueueDepth = 32'd1,
  /// Bits of a select field; do not overwrite.
  localparam int unsigned SelW = totex_tdm_pkg::sel_width(NumPorts),
  /// Bits of a table entry; do not overwrite.
  localparam int unsigned EntryW = totex_tdm_pkg::entry_width(NumPorts, NodeW)
                                   + totex_tdm_pkg::last_width(totex_tdm_pkg::KIND_NIC, NumPorts,
                                                                             QueueDepth),
  /// Bits of a slot number; do not overwrite.
  localparam int unsigned SlotW = totex_pkg::idx_width(Depth)
) (
  /// Clock, rising edge.
  input  logic                         clk_i,
  /// Asynchronous active-low reset of the control state (no reset on the datapath).
  input  logic                         rst_ni,
  /// Input link valid, port i.
  input  logic [NumPorts-1:0]          in_valid_i,
  /// Input link data, port i at in_data_i[i*PayloadW +: PayloadW].
  input  logic [NumPorts*PayloadW-1:0] in_data_i,
  /// Output link valid (registered).
  output logic [NumPorts-1:0]          out_valid_o,
  /// Output link data (registered), port o at out_data_o[o*PayloadW +: PayloadW].
  output logic [NumPorts*PayloadW-1:0] out_data_o,
  /// Table write enable (while run_i is low).
  input  logic                         tbl_we_i,
  /// Table write address (slot).
  input  logic [SlotW-1:0]             tbl_addr_i,
  /// Table write data (one entry, layout in docs/tdm-tile.md).
  input  logic [EntryW-1:0]            tbl_data_i,
  /// Slots execute while high.
  input  logic                         run_i,
  /// Period minus one: the slot after period_last_i is slot 0.
  input  logic [SlotW-1:0]             period_last_i,
  /// Send offer from the core.
  input  logic                         s_axis_tvalid,
  /// Offer accepted.
  output logic                         s_axis_tready,
  /// Payload.
  input  logic [PayloadW-1:0]          s_axis_tdata,
  /// Destination node.
  input  logic [NodeW-1:0]             s_axis_tdest,
  /// Received flit (one-cycle pulse).
  output logic                         m_axis_tvalid,
  /// Must be high whenever m_axis_tvalid is.
  input  logic                         m_axis_tready,
  /// Payload.
  output logic [PayloadW-1:0]          m_axis_tdata,
  /// Source node (eject_src of the slot's entry).
  output logic [NodeW-1:0]             m_axis_tid,
  /// The flit is the last of its pair's message in the period (the entry's last bit; constant
  /// high with QueueDepth 1, where every message is one flit).
  output logic                         m_axis_tlast,
  /// Slots of a destination that found no committed message (wraps).
  output logic [MissW-1:0]             missed_o,
  /// Sticky error.
  output logic                         error_o
);

  localparam int unsigned P = NumPorts;
  localparam int unsigned W = PayloadW;
  localparam int unsigned EjLsb = P * SelW;   // the eject select, after the output selects
  localparam int unsigned Copies = totex_tdm_pkg::router_copies(NumPorts);

  // The shell: slot pipeline, NIC lane, inject key (an entry may select P+1 on any output: the
  // shell also checks that it does so at most once), output registers, status.
  logic              inj_valid, entv, m_valid_d;
  logic [W-1:0]      inj_data, m_data_d;
  logic [P-1:0]      out_valid_d, left;
  logic [P*W-1:0]    out_data_d;
  logic [Copies-1:0] adv;
  logic [EntryW-1:0] unused_pre;
  // Waiver: of the decided entry only the selects and the eject select are the router's (the
  // inject destination and the eject source are the shell's).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [EntryW-1:0] ent;
  /* verilator lint_on UNUSEDSIGNAL */
  // Waiver: no shadow bank in this tile (totex_tdm_ctl_tile has one): its status is unused.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [10:0] unused_swap;   // {next period (8 bits), late, armed, bank}
  /* verilator lint_on UNUSEDSIGNAL */
  totex_tdm_shell #(.Kind(totex_tdm_pkg::KIND_NIC), .NumPorts(P), .PayloadW(W), .NodeW(NodeW),
                    .Depth(Depth), .TableFile(TableFile), .MissW(MissW), .BitsInFlops(BitsInFlops),
                    .QueueDepth(QueueDepth), .TileCopies(Copies)) u_shell (
    .*, .sh_we_i(1'b0), .sh_addr_i('0), .sh_data_i('0), .arm_i(1'b0), .arm_per_i('0),
    .swap_o(unused_swap), .adv_o(adv), .pre_o(unused_pre), .ent_o(ent), .entv_o(entv), .inj_valid_o(inj_valid),
    .inj_data_o(inj_data), .out_valid_d_i(out_valid_d), .out_data_d_i(out_data_d),
    .m_valid_d_i(m_valid_d), .m_data_d_i(m_data_d), .left_i(left)
  );

  // m_axis_tlast: the decided entry's last bit, held and loaded as the shell holds and loads
  // m_axis_tid (at the advance, then with run_i).
  if (QueueDepth > 32'd1) begin : gen_last
    logic dec_last_q, last_q;
    always_ff @(posedge clk_i) begin
      if (adv[0]) dec_last_q <= ent[EntryW-1];
      if (run_i) last_q <= dec_last_q;
    end
    assign m_axis_tlast = last_q;
  end else begin : gen_one_flit
    assign m_axis_tlast = 1'b1;
  end

  // The router and the eject mux (shared with the other nic tile).
  totex_tdm_nic_route #(.NumPorts(P), .PayloadW(W)) u_route (
    .clk_i, .rst_ni, .adv_i(adv), .run_i, .ent_sel_i(ent[EjLsb+SelW-1:0]), .entv_i(entv),
    .in_valid_i, .in_data_i, .inj_valid_i(inj_valid), .inj_data_i(inj_data),
    .out_valid_d_o(out_valid_d), .out_data_d_o(out_data_d), .m_valid_d_o(m_valid_d), .m_data_d_o(m_data_d),
    .left_o(left)
  );

endmodule
