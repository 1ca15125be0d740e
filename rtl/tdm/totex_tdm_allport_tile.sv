// SPDX-License-Identifier: Apache-2.0
/// All-port TDM tile: the scheduled router, P NIC lanes, the slot counter and the slot table of
/// one node of a time-division-multiplexed all-to-all exchange under the `all-port` model
/// (docs/models.md, docs/tdm-tile.md "The all-port tile"): in one slot a node may inject on every
/// output link and eject from every input link; relays never buffer.
///
/// Built, as the nic tile, from the tiles' shell (totex_tdm_shell, here with P NIC lanes) and
/// router (totex_tdm_router). Every cycle with run_i high executes one slot (slot 0 ..
/// period_last_i, then 0 again). A slot's table entry (block RAM, read ahead) says for each output
/// link o whether it is idle, forwards input link i, or injects lane o's message for inject_dst[o],
/// and for each input link i whether its flit is ejected (to m_axis lane i, source eject_src[i]).
/// Output link o injects from its own NIC lane (totex_tdm_nic, the nic tile's NIC), which has its
/// own s_axis stream: the core offers d's message on the lane whose link carries d's slot (the lane
/// map that `totex` writes with the tables), so that a node can take up to P messages per cycle, as
/// many as its slots may inject. Receive: P m_axis lanes, lane i a registered one-cycle pulse per
/// flit ejected from input link i; the core takes every beat (m_axis_tready[i] high whenever
/// m_axis_tvalid[i] is, else error_o).
///
/// Multi-flit traffic (QueueDepth >= 2; docs/tdm-tile.md, "Traffic"): every lane is a NIC queue
/// (totex_tdm_nic_queue, QueueDepth messages per destination, as on the nic tile), and the entry
/// gets P last bits at its top, bit i marking the eject of input link i as its pair's last flit in
/// the period (m_axis_tlast[i]). With QueueDepth 1 the tile is unchanged and m_axis_tlast is
/// constant high.
///
/// Cycle contract: the nic tile's (docs/tdm-tile.md, "Cycle contract"; PrimeCycles =
/// totex_tdm_pkg::prime_cycles(NodeW)), per lane.
/// error_o (sticky until reset): an m_axis overrun; run_i high before priming ended; a flit left
/// on an input (valid, but no output and no eject selects it); a table write while a decided
/// injection is pending.
`default_nettype none

module totex_tdm_allport_tile #(
  /// Neighbour links P (inputs and outputs, and NIC lanes), >= 1.
  parameter int unsigned NumPorts = 32'd4,
  /// Payload bits W of a flit.
  parameter int unsigned PayloadW = 32'd32,
  /// Bits of a node id.
  parameter int unsigned NodeW = 32'd6,
  /// Slots the table holds (the period is at most Depth).
  parameter int unsigned Depth = 32'd64,
  /// $readmemh image of the slot table; "" = none.
  parameter TableFile = "",
  /// Bits of missed_o (>= 2).
  parameter int unsigned MissW = 32'd16,
  /// 1: the lanes' toggle bits in flip-flops rather than block RAM.
  parameter bit BitsInFlops = 1'b0,
  /// Waiting messages per destination in each lane: 1 (the default) one (totex_tdm_nic); a power
  /// of two >= 2: a queue per destination (totex_tdm_nic_queue, multi-flit traffic), and the entry
  /// gets a last bit per input link at its top (m_axis_tlast). `totex fpga` sizes it from the
  /// schedule (docs/tdm-tile.md, "Traffic").
  parameter int unsigned QueueDepth = 32'd1,
  /// Bits of a select field; do not overwrite.
  localparam int unsigned SelW = totex_tdm_pkg::sel_width(NumPorts),
  /// Bits of a table entry; do not overwrite.
  localparam int unsigned EntryW = totex_tdm_pkg::allport_entry_width(NumPorts, NodeW)
                                   + totex_tdm_pkg::last_width(totex_tdm_pkg::KIND_ALLPORT,
                                                               NumPorts, QueueDepth),
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
  /// Send offer from the core on lane o (for a destination whose slots are on output link o).
  input  logic [NumPorts-1:0]          s_axis_tvalid,
  /// Offer accepted, per lane (flip-flops).
  output logic [NumPorts-1:0]          s_axis_tready,
  /// Payload, lane o at s_axis_tdata[o*PayloadW +: PayloadW].
  input  logic [NumPorts*PayloadW-1:0] s_axis_tdata,
  /// Destination node, lane o at s_axis_tdest[o*NodeW +: NodeW].
  input  logic [NumPorts*NodeW-1:0]    s_axis_tdest,
  /// Received flit of input link i (one-cycle pulse).
  output logic [NumPorts-1:0]          m_axis_tvalid,
  /// Must be high whenever m_axis_tvalid is, per lane.
  input  logic [NumPorts-1:0]          m_axis_tready,
  /// Payload, lane i at m_axis_tdata[i*PayloadW +: PayloadW].
  output logic [NumPorts*PayloadW-1:0] m_axis_tdata,
  /// Source node, lane i at m_axis_tid[i*NodeW +: NodeW].
  output logic [NumPorts*NodeW-1:0]    m_axis_tid,
  /// The flit of lane i is the last of its pair's message in the period (the entry's last bit i;
  /// constant high with QueueDepth 1, where every message is one flit).
  output logic [NumPorts-1:0]          m_axis_tlast,
  /// Inject slots that found no committed message, all lanes (wraps).
  output logic [MissW-1:0]             missed_o,
  /// Sticky error.
  output logic                         error_o
);

  localparam int unsigned P = NumPorts;
  localparam int unsigned W = PayloadW;
  localparam int unsigned MaskLsb = P * SelW;   // the eject mask, after the output selects
  localparam int unsigned Copies = totex_tdm_pkg::router_copies(NumPorts);
  // The last bits' own copy of the advance enable (after the router's), with a queue.
  localparam int unsigned LastW = totex_tdm_pkg::last_width(totex_tdm_pkg::KIND_ALLPORT, NumPorts,
                                                           QueueDepth);
  localparam int unsigned TileCopies = Copies + ((LastW != 32'd0) ? 32'd1 : 32'd0);

  // The shell: slot pipeline, a NIC lane per output link, their inject keys, output registers,
  // status (missed_o adds the lanes' pulses of a cycle: three cycles behind the nic tile's count).
  logic [TileCopies-1:0] adv;
  logic [EntryW-1:0] unused_pre;
  // Waiver: of the decided entry only the selects and the eject mask are the router's (the inject
  // destinations and eject sources are the shell's).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [EntryW-1:0] ent;
  /* verilator lint_on UNUSEDSIGNAL */
  logic              entv;
  logic [P-1:0]      inj_valid, out_valid_d, left, ej_q;
  // Waiver: no shadow bank in this tile (totex_tdm_ctl_tile has one): its status is unused.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [10:0] unused_swap;   // {next period (8 bits), late, armed, bank}
  /* verilator lint_on UNUSEDSIGNAL */
  logic [P*W-1:0]    inj_data, out_data_d;
  totex_tdm_shell #(.Kind(totex_tdm_pkg::KIND_ALLPORT), .NumPorts(P), .PayloadW(W), .NodeW(NodeW),
                    .Depth(Depth), .TableFile(TableFile), .MissW(MissW), .BitsInFlops(BitsInFlops),
                    .QueueDepth(QueueDepth), .TileCopies(TileCopies)) u_shell (
    .*, .sh_we_i(1'b0), .sh_addr_i('0), .sh_data_i('0), .arm_i(1'b0), .arm_per_i('0),
    .swap_o(unused_swap), .adv_o(adv), .pre_o(unused_pre), .ent_o(ent), .entv_o(entv), .inj_valid_o(inj_valid),
    .inj_data_o(inj_data), .out_valid_d_i(out_valid_d), .out_data_d_i(out_data_d),
    .m_valid_d_i(ej_q & in_valid_i), .m_data_d_i(in_data_i), .left_i(left)
  );

  // The router: output o's inject source is lane o; the ejection registers (in the shell) take the
  // input links as they are, a lane per link.
  totex_tdm_router #(.NumPorts(P), .PayloadW(W)) u_router (
    .clk_i, .rst_ni, .adv_i(adv[Copies-1:0]), .run_i, .ent_sel_i(ent[MaskLsb-1:0]), .entv_i(entv),
    .ent_ej_i(ent[MaskLsb +: P]), .in_valid_i, .in_data_i, .inj_valid_i(inj_valid),
    .inj_data_i(inj_data), .ej_q_o(ej_q), .out_valid_d_o(out_valid_d),
    .out_data_d_o(out_data_d), .left_o(left)
  );

  // m_axis_tlast: the decided entry's last bits, held and loaded as the shell holds and loads
  // m_axis_tid (at the advance, then with run_i), lane i's from bit EntryW - P + i.
  if (LastW != 32'd0) begin : gen_last
    logic [P-1:0] dec_last_q, last_q;
    always_ff @(posedge clk_i) begin
      if (adv[Copies]) dec_last_q <= ent[EntryW-1 -: P];
      if (run_i) last_q <= dec_last_q;
    end
    assign m_axis_tlast = last_q;
  end else begin : gen_one_flit
    assign m_axis_tlast = '1;
  end

endmodule
