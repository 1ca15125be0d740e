// SPDX-License-Identifier: Apache-2.0
/// Single-port TDM tile: the scheduled router with a relay buffer, the NIC, the slot counter and the
/// slot table of one node of a time-division-multiplexed all-to-all exchange under the
/// `single-port` model (docs/models.md, docs/tdm-tile.md "The single-port tile"): in one slot a
/// node sends at most one flit, on one of its links, and receives at most one; a relayed flit may
/// wait at the relay (the relay buffer) for any number of slots.
///
/// A slot's entry (block RAM, read ahead: totex_tdm_slot_pipe) names the send port and what it
/// sends (the NIC's message for inject_dst, the flit received in this slot, or relay buffer word
/// send_buf), and the receive port and what happens to its flit (forwarded by this slot's send,
/// ejected to m_axis with source eject_src, or stored in relay buffer word recv_buf). One data
/// register drives every output link (one send per slot); only the send port's valid bit is set.
/// The relay buffer is block RAM with a registered write (one cycle after the receive) and a read
/// one slot ahead; a word read in the same cycle it is written, or the one cycle before, comes
/// from the bypass registers. A word is busy from the slot that stores a flit up to the slot that
/// sends it: the table may store into it again from that send's slot on (the table builder
/// allocates the words so).
///
/// Cycle contract: the nic tile's (docs/tdm-tile.md, "Cycle contract"; PrimeCycles =
/// totex_tdm_pkg::prime_cycles(NodeW)): s_axis, m_axis, missed_o, the table port, run_i and
/// period_last_i behave the same.
/// error_o (sticky until reset): an m_axis overrun; run_i high before priming ended; a flit on an
/// input that the slot does not receive; a table write while a decided injection is pending.
`default_nettype none

module totex_tdm_single_tile #(
  /// Neighbour links P, >= 1.
  parameter int unsigned NumPorts = 32'd4,
  /// Payload bits W of a flit.
  parameter int unsigned PayloadW = 32'd32,
  /// Bits of a node id.
  parameter int unsigned NodeW = 32'd6,
  /// Slots the table holds (the period is at most Depth).
  parameter int unsigned Depth = 32'd256,
  /// Words of the relay buffer (the most flits the node holds at once, rounded up).
  parameter int unsigned BufDepth = 32'd64,
  /// $readmemh image of the slot table; "" = none.
  parameter TableFile = "",
  /// Bits of missed_o (>= 2).
  parameter int unsigned MissW = 32'd16,
  /// 1: the NIC's toggle bits in flip-flops rather than block RAM.
  parameter bit BitsInFlops = 1'b0,
  /// Bits of a select field; do not overwrite.
  localparam int unsigned SelW = totex_tdm_pkg::sel_width(NumPorts),
  /// Bits of a relay buffer address; do not overwrite.
  localparam int unsigned BufW = totex_pkg::idx_width(BufDepth),
  /// Bits of a table entry; do not overwrite.
  localparam int unsigned EntryW = totex_tdm_pkg::single_entry_width(NumPorts, NodeW, BufW),
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
  /// Offer accepted (a flip-flop).
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
  /// Slots that found no committed message (wraps).
  output logic [MissW-1:0]             missed_o,
  /// Sticky error.
  output logic                         error_o
);

  localparam int unsigned P = NumPorts;
  localparam int unsigned W = PayloadW;
  // Entry fields, from bit 0 up.
  localparam int unsigned SendPortLsb = 32'd0;
  localparam int unsigned SendSrcLsb  = SendPortLsb + SelW;
  localparam int unsigned SendBufLsb  = SendSrcLsb + 32'd2;
  localparam int unsigned InjDstLsb   = SendBufLsb + BufW;
  localparam int unsigned RecvPortLsb = InjDstLsb + NodeW;
  localparam int unsigned RecvActLsb  = RecvPortLsb + SelW;
  localparam int unsigned RecvBufLsb  = RecvActLsb + 32'd2;
  localparam int unsigned EjSrcLsb    = RecvBufLsb + BufW;
  localparam logic [1:0] SRC_INJECT = 2'd0, SRC_RECEIVED = 2'd1, SRC_BUFFER = 2'd2;
  localparam logic [1:0] ACT_EJECT = 2'd1, ACT_STORE = 2'd2;

  // Slot pipeline: load and priming, slot counter, the table read ahead into pre_q and ent_q. adv
  // in copies of at most about AdvLoads enables (no global buffer, see totex_tdm_slot_pipe): 0 the
  // NIC, 1 its send buffer's read, 2 the execute selects, 3 the inject key, relay word and eject
  // source, 4 the relay buffer's read, then the bypass registers bit by bit (the last copy also
  // the bypass's address matches: copy 2 would have more than 15 loads).
  localparam int unsigned AdvLoads  = totex_tdm_pkg::ADV_LOADS;
  localparam int unsigned BypBase   = 32'd5;
  localparam int unsigned AdvCopies = BypBase + (W + 32'd1 + AdvLoads - 32'd1) / AdvLoads;
  logic [AdvCopies-1:0] adv;
  logic                 primed_q, look_next, prev_q, entv_q;
  logic [EntryW-1:0]    ent_q;
  // Waiver: of the read-ahead entry only the fields decided one advance early are used (whether
  // it injects, its inject destination for the NIC's toggle-bit read, its relay buffer word).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [EntryW-1:0] tbl_rd, pre_q;
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

  // The decision's key: the entry injects and is valid (decoded from the table's output beside
  // pre_q, pinj_q, and cleared by a table write, as in the nic tile).
  logic pinj_q, ent_inj_q;
  always_ff @(posedge clk_i) begin
    if (adv[3]) pinj_q <= (tbl_rd[SendPortLsb +: SelW] != '0) && (tbl_rd[SendSrcLsb +: 2] == SRC_INJECT);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ent_inj_q <= 1'b0;
    else if (tbl_we_i) ent_inj_q <= 1'b0;
    else if (adv[3]) ent_inj_q <= prev_q & pinj_q;
  end

  // NIC: one inject lane.
  logic         has_q, miss_p;
  logic [W-1:0] nic_data;
  totex_tdm_nic #(.PayloadW(W), .NodeW(NodeW), .BitsInFlops(BitsInFlops)) u_nic (
    .clk_i,
    .rst_ni,
    .adv_i        (adv[0]),
    .adv_buf_i    (adv[1]),
    .look_next_i  (look_next),
    .pre_dst_i    (pre_q[InjDstLsb +: NodeW]),
    .ent_dst_i    (ent_q[InjDstLsb +: NodeW]),
    .key_i        (ent_inj_q),
    .s_axis_tvalid,
    .s_axis_tready,
    .s_axis_tdata,
    .s_axis_tdest,
    .has_o        (has_q),
    .data_o       (nic_data),
    .miss_o       (miss_p)
  );

  // ---------------------------------------------------------------------------------------------
  // Execute registers of the slot executing next, decoded from the entry register.
  // ---------------------------------------------------------------------------------------------
  logic [P-1:0]     so_q, ri_q;                 // send port, receive port (one-hot)
  logic             s_inj_q, s_rcv_q, s_buf_q;  // what the send takes (one-hot)
  logic             a_ej_q, a_st_q;             // the received flit is ejected / stored
  logic [BufW-1:0]  rbuf_q;
  logic [NodeW-1:0] ejsrc_q;
  logic [SelW-1:0]  ent_sport, ent_rport;
  logic [1:0]       ent_ssrc, ent_ract;
  assign ent_sport = ent_q[SendPortLsb +: SelW];
  assign ent_ssrc  = ent_q[SendSrcLsb +: 2];
  assign ent_rport = ent_q[RecvPortLsb +: SelW];
  assign ent_ract  = ent_q[RecvActLsb +: 2];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      so_q    <= '0;
      ri_q    <= '0;
      s_inj_q <= 1'b0;
      s_rcv_q <= 1'b0;
      s_buf_q <= 1'b0;
      a_ej_q  <= 1'b0;
      a_st_q  <= 1'b0;
    end else if (adv[2]) begin
      for (int unsigned o = 0; o < P; o++) so_q[o] <= entv_q && (ent_sport == SelW'(o + 32'd1));
      for (int unsigned i = 0; i < P; i++) ri_q[i] <= entv_q && (ent_rport == SelW'(i + 32'd1));
      s_inj_q <= entv_q && (ent_ssrc == SRC_INJECT);
      s_rcv_q <= entv_q && (ent_ssrc == SRC_RECEIVED);
      s_buf_q <= entv_q && (ent_ssrc == SRC_BUFFER);
      a_ej_q  <= entv_q && (ent_ract == ACT_EJECT);
      a_st_q  <= entv_q && (ent_ract == ACT_STORE);
    end
  end
  always_ff @(posedge clk_i) begin
    if (adv[3]) begin
      rbuf_q  <= ent_q[RecvBufLsb +: BufW];
      ejsrc_q <= ent_q[EjSrcLsb +: NodeW];
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Receive: the selected input link (AND-OR of the one-hot select).
  // ---------------------------------------------------------------------------------------------
  logic         rcv_v;
  logic [W-1:0] rcv_d;
  logic [P-1:0] left_d;
  always_comb begin
    rcv_v = 1'b0;
    rcv_d = '0;
    for (int unsigned i = 0; i < P; i++) begin
      rcv_v     = rcv_v | (ri_q[i] & in_valid_i[i]);
      rcv_d     = rcv_d | ({W{ri_q[i]}} & in_data_i[i*W +: W]);
      left_d[i] = run_i & in_valid_i[i] & ~ri_q[i];
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Relay buffer: {valid, payload} words. The received flit is registered (recv_q) and written one
  // cycle later (bw_q). The send's word is read when the slot pipeline moves, at ent_q's send_buf;
  // a write at that edge or a flit captured at that edge for the next write is taken from the
  // bypass register instead of the block RAM, which would return the old word.
  // ---------------------------------------------------------------------------------------------
  logic [W:0]      recv_q, byp_q, buf_rdata, buf_word;
  logic            bw_q, byp_use_q, sam_q, sbm_q;
  logic [BufW-1:0] bwa_q, ent_sbuf, pre_sbuf;
  assign ent_sbuf = ent_q[SendBufLsb +: BufW];
  assign pre_sbuf = pre_q[SendBufLsb +: BufW];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) bw_q <= 1'b0;
    else         bw_q <= run_i & a_st_q;
  end
  // At the edge that reads slot s's word: the word may be written at that edge (recv_q, stored by
  // slot s-2: bw_q & sam_q) or stored next by slot s-1, whose flit is captured at that edge (sbm_q;
  // newer: it wins). Both address matches are registered one advance earlier (slot s's send_buf
  // is pre_q's then), and the bypass word is chosen at the read, so that the block RAM's output
  // passes one 2:1 mux. With pauses the write of slot s-2's flit may come before the read edge:
  // bw_q is low at it then, and the block RAM has the word.
  always_ff @(posedge clk_i) begin
    if (run_i) recv_q <= {rcv_v, rcv_d};
    bwa_q <= rbuf_q;
    if (adv[AdvCopies-1]) begin
      sbm_q     <= entv_q && (ent_ract == ACT_STORE) && (ent_q[RecvBufLsb +: BufW] == pre_sbuf);
      sam_q     <= a_st_q & (rbuf_q == pre_sbuf);
      byp_use_q <= sbm_q | (bw_q & sam_q);
    end
  end
  logic [W:0] byp_d;
  assign byp_d = sbm_q ? {rcv_v, rcv_d} : recv_q;
  for (genvar b = 0; b <= W; b++) begin : gen_byp
    always_ff @(posedge clk_i) begin
      if (adv[BypBase + b / AdvLoads]) byp_q[b] <= byp_d[b];
    end
  end
  totex_tdm_ram #(.Depth(32'd1 << BufW), .Width(W + 32'd1)) u_relay (
    .clk_i,
    .we_i   (bw_q),
    .waddr_i(bwa_q),
    .wdata_i(recv_q),
    .re_i   (adv[4]),
    .raddr_i(ent_sbuf),
    .rdata_o(buf_rdata)
  );
  assign buf_word = byp_use_q ? byp_q : buf_rdata;

  // ---------------------------------------------------------------------------------------------
  // Send: one data register for every output link, the valid bit on the send port only.
  // ---------------------------------------------------------------------------------------------
  logic         send_v;
  logic [W-1:0] send_d;
  logic [P-1:0] out_valid_q;
  logic [W-1:0] out_data_q;
  assign send_v = (s_inj_q & has_q) | (s_rcv_q & rcv_v) | (s_buf_q & buf_word[W]);
  assign send_d = ({W{s_inj_q}} & nic_data) | ({W{s_rcv_q}} & rcv_d) | ({W{s_buf_q}} & buf_word[W-1:0]);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)    out_valid_q <= '0;
    else if (run_i) out_valid_q <= so_q & {P{send_v}};
  end
  always_ff @(posedge clk_i) begin
    if (run_i) out_data_q <= send_d;
  end
  assign out_valid_o = out_valid_q;
  assign out_data_o  = {P{out_data_q}};

  // Eject register.
  logic         m_valid_q;
  logic [W-1:0] m_data_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) m_valid_q <= 1'b0;
    else         m_valid_q <= run_i & a_ej_q & rcv_v;
  end
  always_ff @(posedge clk_i) begin
    if (run_i) begin
      m_data_q   <= rcv_d;
      m_axis_tid <= ejsrc_q;
    end
  end
  assign m_axis_tvalid = m_valid_q;
  assign m_axis_tdata  = m_data_q;

  // ---------------------------------------------------------------------------------------------
  // Counters and checks: the error sources, counted and made sticky by totex_tdm_status.
  // ---------------------------------------------------------------------------------------------
  logic err_overrun, err_early, err_lost;
  assign err_overrun = m_valid_q & ~m_axis_tready;
  assign err_early   = run_i & ~primed_q;
  assign err_lost    = tbl_we_i & has_q;
  totex_tdm_status #(.Lanes(32'd1), .Ports(P), .MissW(MissW)) u_status (
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
      assert (!err_overrun) else $error("totex_tdm_single_tile: m_axis_tvalid while m_axis_tready is low (receive overrun)");
      assert (!err_early) else $error("totex_tdm_single_tile: run_i high before the slot pipeline is primed");
      assert (!(|left_d)) else $error("totex_tdm_single_tile: a flit on an input the slot does not receive (in_valid_i %b)", in_valid_i);
      assert (!err_lost) else $error("totex_tdm_single_tile: table write while a decided injection is pending");
    end
  end
`endif
`endif

endmodule
