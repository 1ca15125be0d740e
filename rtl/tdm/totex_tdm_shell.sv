// SPDX-License-Identifier: Apache-2.0
/// The shell of a TDM tile (docs/tdm-tile.md): everything the nic, all-port and single-port tiles
/// (totex_tdm_tile, totex_tdm_allport_tile, totex_tdm_single_tile) have in common, so that a tile
/// adds only its router (what the slot's entry does with the links). Kind (totex_tdm_pkg::KIND_*)
/// names the tile and with it the entry layout:
///   * the slot pipeline (totex_tdm_slot_pipe): load, priming, slot counter, the table read ahead
///     into pre_o and ent_o, the advance enable in copies (the tile's own in adv_o);
///   * Lanes NIC lanes (totex_tdm_nic; the all-port tile one per output link, the others one) with
///     their s_axis streams; lane l's sends are inj_valid_o[l] / inj_data_o;
///   * the inject-key decode: whether the slot decided next injects on a lane, from the table's
///     output beside pre_o (a select of P+1 on the nic and all-port tiles, a send of the NIC's
///     message on the single-port tile), and on the nic tile whether it injects twice (an error);
///   * the output registers: out_valid_o / out_data_o (the single-port tile: one data register
///     for every link) and the m_axis lanes (the eject sources held from the entry), loaded in
///     cycles with run_i high from the tile's next values (*_d_i);
///   * the status (totex_tdm_status): missed_o and the sticky error_o with its sources, and their
///     immediate assertions.
/// Every path keeps the depth the tiles had before they shared this shell (at most two LUT4
/// levels; the decisions' flip-flop terms kept apart, see totex_tdm_nic).
`default_nettype none

module totex_tdm_shell #(
  /// The tile: totex_tdm_pkg::KIND_NIC, KIND_ALLPORT or KIND_SINGLE.
  parameter int unsigned Kind = totex_tdm_pkg::KIND_NIC,
  /// Neighbour links P, >= 1.
  parameter int unsigned NumPorts = 32'd4,
  /// Payload bits W of a flit.
  parameter int unsigned PayloadW = 32'd32,
  /// Bits of a node id.
  parameter int unsigned NodeW = 32'd6,
  /// Slots the table holds.
  parameter int unsigned Depth = 32'd128,
  /// Bits of a relay buffer word number (the single-port tile's entry; 1 for the others).
  parameter int unsigned BufW = 32'd1,
  /// $readmemh image of the slot table; "" = none.
  parameter TableFile = "",
  /// Bits of missed_o (>= 2).
  parameter int unsigned MissW = 32'd16,
  /// 1: the NIC lanes' toggle bits in flip-flops rather than block RAM.
  parameter bit BitsInFlops = 1'b0,
  /// Waiting messages per destination in a NIC lane: 1 is totex_tdm_nic (one per destination),
  /// a power of two >= 2 totex_tdm_nic_queue in every lane (multi-flit traffic; the entry then
  /// ends with the ejects' last-flit bits, totex_tdm_pkg::last_width, which the tile decodes).
  parameter int unsigned QueueDepth = 32'd1,
  /// Copies of the advance enable for the tile's own registers (adv_o), each for at most
  /// totex_tdm_pkg::ADV_LOADS enables.
  parameter int unsigned TileCopies = 32'd1,
  /// 1: the table's shadow bank and swap (totex_tdm_slot_pipe Shadow; tbl_we_i then swaps).
  parameter bit Shadow = 1'b0,
  /// Bits of a period number (Shadow).
  parameter int unsigned PerW = 32'd8,
  /// NIC lanes (s_axis and m_axis streams); do not overwrite.
  localparam int unsigned Lanes = totex_tdm_pkg::lanes(Kind, NumPorts),
  /// Bits of the output data register (one for every link on the single-port tile); do not
  /// overwrite.
  localparam int unsigned OutW = (Kind == totex_tdm_pkg::KIND_SINGLE) ? PayloadW
                                                                     : NumPorts * PayloadW,
  /// Bits of a table entry; do not overwrite.
  localparam int unsigned EntryW = totex_tdm_pkg::kind_entry_width(Kind, NumPorts, NodeW, BufW)
                                   + totex_tdm_pkg::last_width(Kind, NumPorts, QueueDepth),
  /// Bits of a slot number; do not overwrite.
  localparam int unsigned SlotW = totex_pkg::idx_width(Depth)
) (
  /// Clock, rising edge.
  input  logic                         clk_i,
  /// Asynchronous active-low reset of the control state.
  input  logic                         rst_ni,
  /// The tile's table write port, run_i and period_last_i (its cycle contract).
  input  logic                         tbl_we_i,
  input  logic [SlotW-1:0]             tbl_addr_i,
  input  logic [EntryW-1:0]            tbl_data_i,
  input  logic                         run_i,
  input  logic [SlotW-1:0]             period_last_i,
  /// Shadow: shadow-bank write, arm (totex_tdm_slot_pipe); tie to 0 without Shadow.
  input  logic                         sh_we_i,
  input  logic [SlotW-1:0]             sh_addr_i,
  input  logic [EntryW-1:0]            sh_data_i,
  input  logic                         arm_i,
  input  logic [PerW-1:0]              arm_per_i,
  /// Shadow: {next period number, late, armed, bank} (totex_tdm_slot_pipe; 0 without Shadow).
  output logic [PerW+2:0]              swap_o,
  /// The tile's send streams, lane l at bit l, s_axis_tdata[l*PayloadW +: PayloadW] and
  /// s_axis_tdest[l*NodeW +: NodeW].
  input  logic [Lanes-1:0]             s_axis_tvalid,
  output logic [Lanes-1:0]             s_axis_tready,
  input  logic [Lanes*PayloadW-1:0]    s_axis_tdata,
  input  logic [Lanes*NodeW-1:0]       s_axis_tdest,
  /// The tile's receive streams (registered), lane l as on s_axis.
  output logic [Lanes-1:0]             m_axis_tvalid,
  input  logic [Lanes-1:0]             m_axis_tready,
  output logic [Lanes*PayloadW-1:0]    m_axis_tdata,
  output logic [Lanes*NodeW-1:0]       m_axis_tid,
  /// The tile's missed_o and error_o.
  output logic [MissW-1:0]             missed_o,
  output logic                         error_o,
  /// The tile's output links (registered).
  output logic [NumPorts-1:0]          out_valid_o,
  output logic [NumPorts*PayloadW-1:0] out_data_o,
  /// Copies of the slot pipeline's advance enable for the tile's registers.
  output logic [TileCopies-1:0]        adv_o,
  /// The entry of the slot after ent_o's (totex_tdm_slot_pipe pre_o).
  output logic [EntryW-1:0]            pre_o,
  /// The entry decided in this cycle and whether it holds one (totex_tdm_slot_pipe).
  output logic [EntryW-1:0]            ent_o,
  output logic                         entv_o,
  /// Lane l's message goes out in the executing slot (decided at the last advance), and its
  /// payload (block-RAM output).
  output logic [Lanes-1:0]             inj_valid_o,
  output logic [Lanes*PayloadW-1:0]    inj_data_o,
  /// Next values of the output links, loaded in a cycle with run_i high.
  input  logic [NumPorts-1:0]          out_valid_d_i,
  input  logic [OutW-1:0]              out_data_d_i,
  /// Next values of the m_axis lanes: a flit ejected (without run_i), its payload.
  input  logic [Lanes-1:0]             m_valid_d_i,
  input  logic [Lanes*PayloadW-1:0]    m_data_d_i,
  /// Per input link: a flit on it that nothing takes (with run_i).
  input  logic [NumPorts-1:0]          left_i
);

  localparam int unsigned P = NumPorts;
  localparam int unsigned W = PayloadW;
  localparam int unsigned SelW = totex_tdm_pkg::sel_width(NumPorts);
  localparam logic [SelW-1:0] SEL_INJ = SelW'(P + 32'd1);
  localparam int unsigned DstLsb = totex_tdm_pkg::inj_dst_lsb(Kind, NumPorts, BufW);
  localparam int unsigned SrcLsb = totex_tdm_pkg::ej_src_lsb(Kind, NumPorts, NodeW, BufW);
  // Inject flags per lane: the nic tile's one lane has one per output link (the entry may select
  // P+1 on any), the others one.
  localparam int unsigned Terms = (Kind == totex_tdm_pkg::KIND_NIC) ? NumPorts : 32'd1;
  localparam bit          Dup = Terms > 32'd1;   // an entry may inject twice: an error to check

  // Copies of the advance enable, at most AdvLoads enables each (no global buffer, see
  // totex_tdm_slot_pipe): the tile's first (adv_o); then the eject sources bit by bit and per lane
  // its inject flags, its key and (Dup) the two flags of the duplicate check, and the duplicate
  // check's decision flag (a data input); then lane l's NIC at LaneBase + l, its send buffer's
  // read at LaneBase + Lanes + l (the block RAM is placed apart).
  localparam int unsigned AdvLoads  = totex_tdm_pkg::ADV_LOADS;
  localparam int unsigned KeyStride = Terms + 32'd1 + (Dup ? 32'd2 : 32'd0);
  localparam int unsigned KeyLoads  = Lanes * NodeW + Lanes * KeyStride + (Dup ? 32'd1 : 32'd0);
  localparam int unsigned KeyBase   = TileCopies;
  localparam int unsigned LaneBase  = KeyBase + (KeyLoads + AdvLoads - 32'd1) / AdvLoads;
  localparam int unsigned AdvCopies = LaneBase + 32'd2 * Lanes;
  logic [AdvCopies-1:0] adv;
  logic                 primed, look_next, prev;
  // Waiver: of the table's output only the inject fields are decoded here (beside pre_o).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [EntryW-1:0]    tbl_rd;
  /* verilator lint_on UNUSEDSIGNAL */
  totex_tdm_slot_pipe #(.NodeW(NodeW), .Depth(Depth), .EntryW(EntryW), .TableFile(TableFile),
                        .AdvCopies(AdvCopies), .Shadow(Shadow), .PerW(PerW)) u_pipe (
    .clk_i,
    .rst_ni,
    .run_i,
    .period_last_i,
    .tbl_we_i,
    .tbl_addr_i,
    .tbl_data_i,
    .sh_we_i,
    .sh_addr_i,
    .sh_data_i,
    .arm_i,
    .arm_per_i,
    .bank_o      (swap_o[0]),
    .armed_o     (swap_o[1]),
    .late_o      (swap_o[2]),
    .next_per_o  (swap_o[3 +: PerW]),
    .adv_o       (adv),
    .primed_o    (primed),
    .look_next_o (look_next),
    .rd_o        (tbl_rd),
    .pre_o,
    .prev_o      (prev),
    .ent_o,
    .entv_o
  );
  assign adv_o = adv[TileCopies-1:0];

  // ---------------------------------------------------------------------------------------------
  // Inject keys: each flag compared as the table's block RAM delivers it (pre_inj_q, beside pre_o),
  // then combined one advance later (ent_key_q: the decided entry injects on the lane and is
  // valid, prev being set at the advance that loads a valid pre_o, and cleared by a table write),
  // so that neither takes more than two LUTs.
  // ---------------------------------------------------------------------------------------------
  logic [Lanes*Terms-1:0] pre_inj_q;
  logic [Lanes-1:0]       ent_key_q, dec_dup_q;
  for (genvar l = 0; l < Lanes; l++) begin : gen_key
    localparam int unsigned Load = Lanes * NodeW + l * KeyStride;
    logic pre_inj, pre_dup;
    for (genvar t = 0; t < Terms; t++) begin : gen_term
      // Output o = l*Terms + t: nic lane 0's output t, all-port lane l's output l.
      logic inj;
      if (Kind == totex_tdm_pkg::KIND_SINGLE) begin : gen_send
        assign inj = (tbl_rd[0 +: SelW] != '0) && (tbl_rd[SelW +: 2] == totex_tdm_pkg::SRC_INJECT);
      end else begin : gen_sel
        assign inj = tbl_rd[(l*Terms + t)*SelW +: SelW] == SEL_INJ;
      end
      always_ff @(posedge clk_i) begin
        if (adv[KeyBase + (Load + t) / AdvLoads]) pre_inj_q[l*Terms + t] <= inj;
      end
    end
    always_comb begin
      pre_inj = 1'b0;
      pre_dup = 1'b0;
      for (int unsigned t = 0; t < Terms; t++) begin
        if (pre_inj_q[l*Terms + t]) begin
          pre_dup = pre_dup | pre_inj;
          pre_inj = 1'b1;
        end
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) ent_key_q[l] <= 1'b0;
      else if (tbl_we_i) ent_key_q[l] <= 1'b0;
      else if (adv[KeyBase + (Load + Terms) / AdvLoads]) ent_key_q[l] <= prev & pre_inj;
    end
    if (Dup) begin : gen_dup
      // ent_dup_q: the entry in ent_o injects twice; dec_dup_q: the decided one did.
      logic ent_dup_q;
      always_ff @(posedge clk_i) begin
        if (adv[KeyBase + (Load + Terms + 32'd1) / AdvLoads]) ent_dup_q <= pre_dup;
      end
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) dec_dup_q[l] <= 1'b0;
        else if (adv[KeyBase + (Load + Terms + 32'd2) / AdvLoads]) begin
          dec_dup_q[l] <= entv_o & ent_dup_q;
        end
      end
    end else begin : gen_no_dup
      assign dec_dup_q[l] = 1'b0;
      // Waiver: one flag per lane, never two.
      logic unused_dup;
      assign unused_dup = pre_dup;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // NIC lanes: lane l injects for the inject destination of its field.
  // ---------------------------------------------------------------------------------------------
  logic [Lanes-1:0] miss;
  for (genvar l = 0; l < Lanes; l++) begin : gen_lane
    if (QueueDepth > 32'd1) begin : gen_queue
      // One read port of the send side's counts on the all-port tile (two block RAMs fewer per
      // lane: its P lanes with two did not fit the UP5K or HX8K at torus:4x4 all:2).
      totex_tdm_nic_queue #(.PayloadW(W), .NodeW(NodeW), .QueueDepth(QueueDepth),
                            .HeadReads(Kind == totex_tdm_pkg::KIND_ALLPORT ? 32'd1 : 32'd2)) u_nic (
        .clk_i,
        .rst_ni,
        .adv_i        (adv[LaneBase + l]),
        .adv_buf_i    (adv[LaneBase + Lanes + l]),
        .look_next_i  (look_next),
        .rd_dst_i     (tbl_rd[DstLsb + l*NodeW +: NodeW]),
        .pre_dst_i    (pre_o[DstLsb + l*NodeW +: NodeW]),
        .ent_dst_i    (ent_o[DstLsb + l*NodeW +: NodeW]),
        .key_i        (ent_key_q[l]),
        .s_axis_tvalid(s_axis_tvalid[l]),
        .s_axis_tready(s_axis_tready[l]),
        .s_axis_tdata (s_axis_tdata[l*W +: W]),
        .s_axis_tdest (s_axis_tdest[l*NodeW +: NodeW]),
        .has_o        (inj_valid_o[l]),
        .data_o       (inj_data_o[l*W +: W]),
        .miss_o       (miss[l])
      );
    end else begin : gen_one
      totex_tdm_nic #(.PayloadW(W), .NodeW(NodeW), .BitsInFlops(BitsInFlops)) u_nic (
        .clk_i,
        .rst_ni,
        .adv_i        (adv[LaneBase + l]),
        .adv_buf_i    (adv[LaneBase + Lanes + l]),
        .look_next_i  (look_next),
        .pre_dst_i    (pre_o[DstLsb + l*NodeW +: NodeW]),
        .ent_dst_i    (ent_o[DstLsb + l*NodeW +: NodeW]),
        .key_i        (ent_key_q[l]),
        .s_axis_tvalid(s_axis_tvalid[l]),
        .s_axis_tready(s_axis_tready[l]),
        .s_axis_tdata (s_axis_tdata[l*W +: W]),
        .s_axis_tdest (s_axis_tdest[l*NodeW +: NodeW]),
        .has_o        (inj_valid_o[l]),
        .data_o       (inj_data_o[l*W +: W]),
        .miss_o       (miss[l])
      );
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Output registers: the links and the m_axis lanes, with the eject sources of the decided entry
  // (dec_src_q) held from the entry register. Enable run_i rather than a slot-executes flag: the
  // same under the contract (run_i low while priming; a violation is an error anyway), and an
  // input, not a LUT, drives the wide enable.
  // ---------------------------------------------------------------------------------------------
  logic [Lanes*NodeW-1:0] dec_src_q;
  for (genvar b = 0; b < Lanes * NodeW; b++) begin : gen_src
    always_ff @(posedge clk_i) begin
      if (adv[KeyBase + b / AdvLoads]) dec_src_q[b] <= ent_o[SrcLsb + b];
    end
  end
  logic [P-1:0]     out_valid_q;
  logic [OutW-1:0]  out_data_q;
  logic [Lanes-1:0] m_valid_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_q <= '0;
      m_valid_q   <= '0;
    end else begin
      if (run_i) out_valid_q <= out_valid_d_i;
      m_valid_q <= {Lanes{run_i}} & m_valid_d_i;
    end
  end
  always_ff @(posedge clk_i) begin
    if (run_i) begin
      out_data_q   <= out_data_d_i;
      m_axis_tdata <= m_data_d_i;
      m_axis_tid   <= dec_src_q;
    end
  end
  assign out_valid_o   = out_valid_q;
  assign out_data_o    = {(P * W / OutW){out_data_q}};
  assign m_axis_tvalid = m_valid_q;

  // ---------------------------------------------------------------------------------------------
  // Status: the error sources, counted and made sticky by totex_tdm_status; missed_o adds the
  // lanes' miss pulses of a cycle (several lanes: three cycles behind the one-lane count).
  // ---------------------------------------------------------------------------------------------
  logic decided_q, err_overrun, err_early, err_lost, err_dup;
  assign err_overrun = |(m_valid_q & ~m_axis_tready);
  assign err_early   = run_i & ~primed;
  assign err_lost    = tbl_we_i & (|inj_valid_o);
  assign err_dup     = decided_q & (|dec_dup_q);   // one cycle after the decision
  if (Dup) begin : gen_decided
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) decided_q <= 1'b0;
      else decided_q <= adv[KeyBase + (KeyLoads - 32'd1) / AdvLoads];   // decided at the last edge
    end
  end else begin : gen_no_decided
    assign decided_q = 1'b0;
  end
  totex_tdm_status #(.Lanes(Lanes), .Ports(P), .MissW(MissW)) u_status (
    .clk_i,
    .rst_ni,
    .miss_i  (miss),
    .err_a_i (err_overrun | err_early),
    .err_b_i (err_lost | err_dup),
    .left_i,
    .missed_o,
    .error_o
  );

`ifndef SYNTHESIS
`ifndef TOTEX_NO_ASSERTIONS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!err_overrun) else $error("m_axis_tvalid while m_axis_tready is low (overrun)");
      assert (!err_early) else $error("run_i high before the slot pipeline is primed");
      assert (!(|left_i)) else $error("a flit left on an input link (links %b): nothing takes it",
                                      left_i);
      assert (!err_lost) else $error("table write while a decided injection is pending");
      assert (!err_dup) else $error("table entry with two injecting outputs");
    end
  end
`endif
`endif

endmodule
