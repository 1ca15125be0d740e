// SPDX-License-Identifier: Apache-2.0
/// All-port TDM tile: the scheduled router, P NIC lanes, the slot counter and the slot table of
/// one node of a time-division-multiplexed all-to-all exchange under the `all-port` model
/// (docs/models.md, docs/tdm-tile.md "The all-port tile"): in one slot a node may inject on every
/// output link and eject from every input link; relays never buffer.
///
/// Every cycle with run_i high executes one slot (slot 0 .. period_last_i, then 0 again). A slot's
/// table entry (block RAM, read ahead: totex_tdm_slot_pipe) says for each output link o whether it
/// is idle, forwards input link i, or injects lane o's message for inject_dst[o], and for each
/// input link i whether its flit is ejected (to m_axis lane i, source eject_src[i]). Output link o
/// injects from its own NIC lane (totex_tdm_nic, the nic tile's NIC), which has its own s_axis
/// stream: the core offers d's message on the lane whose link carries d's slot (the lane map that
/// `totex` writes with the tables), so that a node can take up to P messages per cycle, as many
/// as its slots may inject. Receive: P m_axis lanes, lane i a registered one-cycle pulse per flit
/// ejected from input link i; the core takes every beat (m_axis_tready[i] high whenever
/// m_axis_tvalid[i] is, else error_o).
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
  /// Bits of a select field; do not overwrite.
  localparam int unsigned SelW = totex_tdm_pkg::sel_width(NumPorts),
  /// Bits of a table entry; do not overwrite.
  localparam int unsigned EntryW = totex_tdm_pkg::allport_entry_width(NumPorts, NodeW),
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
  /// Inject slots that found no committed message, all lanes (wraps).
  output logic [MissW-1:0]             missed_o,
  /// Sticky error.
  output logic                         error_o
);

  localparam int unsigned P = NumPorts;
  localparam int unsigned W = PayloadW;
  localparam int unsigned SelsW = P * SelW;        // output selects
  localparam int unsigned DstLsb = SelsW + P;      // inject_dst[o] (after the eject mask)
  localparam int unsigned SrcLsb = DstLsb + P * NodeW;  // eject_src[i]
  localparam logic [SelW-1:0] SEL_INJ = SelW'(P + 32'd1);

  // Slot pipeline: load and priming, slot counter, the table read ahead into pre_q and ent_q. adv
  // in copies of at most AdvLoads enables (no global buffer, see totex_tdm_slot_pipe): one per
  // lane's flip-flops, one per lane's send buffer, then the selects and eject flags bit by bit
  // (SelCopies), then the inject keys and eject sources (SrcCopies).
  localparam int unsigned AdvLoads  = totex_tdm_pkg::ADV_LOADS;
  localparam int unsigned SelBits   = P * (P + 32'd1) + P;
  localparam int unsigned SelCopies = (SelBits + AdvLoads - 32'd1) / AdvLoads;
  localparam int unsigned SrcCopies = (P * NodeW + 32'd2 * P + AdvLoads - 32'd1) / AdvLoads;
  localparam int unsigned SelBase   = 32'd2 * P;
  localparam int unsigned SrcBase   = SelBase + SelCopies;
  localparam int unsigned AdvCopies = SrcBase + SrcCopies;
  logic [AdvCopies-1:0] adv;
  logic                 primed_q, look_next, prev_q, entv_q;
  logic [EntryW-1:0]    ent_q;
  // Waiver: of the table's output and the read-ahead entry only the fields decided one advance
  // early are used (the inject selects, the inject destinations), not the eject mask and sources.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [EntryW-1:0]    tbl_rd, pre_q;
  /* verilator lint_on UNUSEDSIGNAL */
  totex_tdm_slot_pipe #(.NodeW(NodeW), .Depth(Depth), .EntryW(EntryW), .TableFile(TableFile),
                        .AdvCopies(AdvCopies)) u_pipe (
    .clk_i,
    .rst_ni,
    .run_i,
    .period_last_i,
    .tbl_we_i,
    .tbl_addr_i,
    .tbl_data_i,
    .adv_o       (adv),
    .primed_o    (primed_q),
    .look_next_o (look_next),
    .rd_o        (tbl_rd),
    .pre_o       (pre_q),
    .prev_o      (prev_q),
    .ent_o       (ent_q),
    .entv_o      (entv_q)
  );

  // ---------------------------------------------------------------------------------------------
  // NIC lanes: lane o injects on output o. Its key (the decided slot injects on o and is valid) is
  // decoded from the table's output beside pre_q (pinj_q) and cleared by a table write, like the
  // nic tile's.
  // ---------------------------------------------------------------------------------------------
  logic [P-1:0]   pinj_q, inj_q, has_q, miss_p;
  logic [P*W-1:0] sb_rdata;
  for (genvar o = 0; o < P; o++) begin : gen_lane
    // Two enables per lane after the eject sources (SrcCopies counts them).
    localparam int unsigned PinjCopy = SrcBase + (P * NodeW + 32'd2 * o) / AdvLoads;
    localparam int unsigned KeyCopy  = SrcBase + (P * NodeW + 32'd2 * o + 32'd1) / AdvLoads;
    always_ff @(posedge clk_i) begin
      if (adv[PinjCopy]) pinj_q[o] <= (tbl_rd[o*SelW +: SelW] == SEL_INJ);
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) inj_q[o] <= 1'b0;
      else if (tbl_we_i) inj_q[o] <= 1'b0;
      else if (adv[KeyCopy]) inj_q[o] <= prev_q & pinj_q[o];
    end
    totex_tdm_nic #(.PayloadW(W), .NodeW(NodeW), .BitsInFlops(BitsInFlops)) u_nic (
      .clk_i,
      .rst_ni,
      .adv_i        (adv[o]),
      .adv_buf_i    (adv[P + o]),
      .look_next_i  (look_next),
      .pre_dst_i    (pre_q[DstLsb + o*NodeW +: NodeW]),
      .ent_dst_i    (ent_q[DstLsb + o*NodeW +: NodeW]),
      .key_i        (inj_q[o]),
      .s_axis_tvalid(s_axis_tvalid[o]),
      .s_axis_tready(s_axis_tready[o]),
      .s_axis_tdata (s_axis_tdata[o*W +: W]),
      .s_axis_tdest (s_axis_tdest[o*NodeW +: NodeW]),
      .has_o        (has_q[o]),
      .data_o       (sb_rdata[o*W +: W]),
      .miss_o       (miss_p[o])
    );
  end

  // ---------------------------------------------------------------------------------------------
  // Execute registers: one-hot selects of the slot executing next, decoded from the entry register.
  // ---------------------------------------------------------------------------------------------
  logic [P*(P+1)-1:0] sel_d, sel_q;    // sel[o*(P+1) + i]: i < P forward input i, i == P inject
  logic [P-1:0]       ej_d, ej_q;
  logic [P*NodeW-1:0] ejsrc_q;
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      for (int unsigned i = 0; i < P + 1; i++) begin
        sel_d[o*(P+1) + i] = entv_q && (ent_q[o*SelW +: SelW] == SelW'(i + 32'd1));
      end
    end
    ej_d = {P{entv_q}} & ent_q[SelsW +: P];
  end
  for (genvar b = 0; b < P * (P + 1); b++) begin : gen_sel
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) sel_q[b] <= 1'b0;
      else if (adv[SelBase + b / AdvLoads]) sel_q[b] <= sel_d[b];
    end
  end
  for (genvar i = 0; i < P; i++) begin : gen_ej
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) ej_q[i] <= 1'b0;
      else if (adv[SelBase + (P * (P + 1) + i) / AdvLoads]) ej_q[i] <= ej_d[i];
    end
  end
  for (genvar b = 0; b < P * NodeW; b++) begin : gen_src
    always_ff @(posedge clk_i) begin
      if (adv[SrcBase + b / AdvLoads]) ejsrc_q[b] <= ent_q[SrcLsb + b];
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Datapath: registered crossbar (AND-OR of one-hot selects; output o's inject source is lane o),
  // one ejection register per input link.
  // ---------------------------------------------------------------------------------------------
  logic [P-1:0]   out_valid_d, out_valid_q, m_valid_q, left_d;
  logic [P*W-1:0] out_data_d, out_data_q, m_data_q;
  // As in the nic tile: the forwarded inputs in kept pairs, so that the lane's block-RAM output
  // passes one LUT to the output register.
  localparam int unsigned G = (P + 32'd1) / 32'd2;
  (* keep *) logic [P*G-1:0]   ov_t;
  (* keep *) logic [P*G*W-1:0] od_t;
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      for (int unsigned g = 0; g < G; g++) begin
        ov_t[o*G + g]          = 1'b0;
        od_t[(o*G + g)*W +: W] = '0;
        for (int unsigned k = 2 * g; k < 2 * g + 2; k++) begin
          if (k < P) begin
            ov_t[o*G + g]          = ov_t[o*G + g] | (sel_q[o*(P+1) + k] & in_valid_i[k]);
            od_t[(o*G + g)*W +: W] = od_t[(o*G + g)*W +: W]
                                   | ({W{sel_q[o*(P+1) + k]}} & in_data_i[k*W +: W]);
          end
        end
      end
      out_valid_d[o]       = (|ov_t[o*G +: G]) | (sel_q[o*(P+1) + P] & has_q[o]);
      out_data_d[o*W +: W] = {W{sel_q[o*(P+1) + P]}} & sb_rdata[o*W +: W];
      for (int unsigned g = 0; g < G; g++) out_data_d[o*W +: W] = out_data_d[o*W +: W] | od_t[(o*G + g)*W +: W];
    end
    for (int unsigned i = 0; i < P; i++) begin
      logic used;
      used = ej_q[i];
      for (int unsigned o = 0; o < P; o++) used = used | sel_q[o*(P+1) + i];
      left_d[i] = run_i & in_valid_i[i] & ~used;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_q <= '0;
      m_valid_q   <= '0;
    end else begin
      if (run_i) out_valid_q <= out_valid_d;
      m_valid_q <= {P{run_i}} & ej_q & in_valid_i;
    end
  end
  // The ejection registers take the input links as they are (no select: a lane per link).
  always_ff @(posedge clk_i) begin
    if (run_i) begin
      out_data_q <= out_data_d;
      m_data_q   <= in_data_i;
      m_axis_tid <= ejsrc_q;
    end
  end
  assign out_valid_o   = out_valid_q;
  assign out_data_o    = out_data_q;
  assign m_axis_tvalid = m_valid_q;
  assign m_axis_tdata  = m_data_q;

  // ---------------------------------------------------------------------------------------------
  // Counters and checks: the error sources, counted and made sticky by totex_tdm_status;
  // missed_o adds the lanes' miss pulses of a cycle (up to P; totex_tdm_status: three cycles
  // behind the nic tile's count).
  // ---------------------------------------------------------------------------------------------
  logic err_overrun, err_early, err_lost;
  assign err_overrun = |(m_valid_q & ~m_axis_tready);
  assign err_early   = run_i & ~primed_q;
  assign err_lost    = tbl_we_i & (|has_q);
  totex_tdm_status #(.Lanes(P), .Ports(P), .MissW(MissW)) u_status (
    .clk_i,
    .rst_ni,
    .miss_i  (miss_p),
    .err_a_i (err_overrun | err_early),
    .err_b_i (err_lost),
    .left_i  (left_d),
    .missed_o,
    .error_o
  );

`ifndef SYNTHESIS
`ifndef TOTEX_NO_ASSERTIONS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!err_overrun) else $error("totex_tdm_allport_tile: m_axis_tvalid while m_axis_tready is low (receive overrun)");
      assert (!err_early) else $error("totex_tdm_allport_tile: run_i high before the slot pipeline is primed");
      assert (!(|left_d)) else $error("totex_tdm_allport_tile: a flit left on an input link (in_valid_i %b)", in_valid_i);
      assert (!err_lost) else $error("totex_tdm_allport_tile: table write while a decided injection is pending");
    end
  end
`endif
`endif

endmodule
