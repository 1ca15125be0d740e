// SPDX-License-Identifier: Apache-2.0
/// The NIC lane of a TDM tile with a queue of QueueDepth waiting messages per destination (issue
/// 49: multi-flit traffic; docs/tdm-tile.md, "Traffic"). The shell (totex_tdm_shell) takes it in
/// place of totex_tdm_nic when its QueueDepth is above 1; QueueDepth 1 is totex_tdm_nic, unchanged.
/// Same ports and the same meaning of them as totex_tdm_nic.
///
/// Why a second module rather than a wider toggle pair: with one waiting message per destination
/// the NIC's state is one bit per side in block RAM, read a few cycles stale (both sides move it
/// one way), and a slot within two slots after one of its destination's that sent misses. A queue
/// must let back-to-back slots to one destination all send, so the inject side needs the count
/// exact in the cycle of its decision: here the per-destination state is flip-flops and only the
/// payloads are in block RAM (QueueDepth words per destination, word {pointer, d}).
///
///   * Per destination d: cnt[d] waiting messages (0 .. QueueDepth), wr[d] and rd[d] the next word
///     to write and to read (modulo QueueDepth).
///   * Read ahead, exact: the state of the destination decided at the next advance is looked up
///     one edge early (the next slot's when the slot pipeline moves, look_next_i, else the decided
///     slot's again) into flip-flops, with two flags for what that edge itself does to it (a commit
///     to it, an injection from it); the decision adds them (a few LUTs of flip-flops) rather than
///     reading 2**NodeW counters through a mux in its own cycle. The head of the send side keeps
///     its destination's count and write pointer the same way.
///   * Send side: s_axis_tready is a flip-flop, high unless the skid register holds an offer. An
///     accepted offer becomes the head, or waits in the skid register while the head cannot commit
///     (its queue is full: head of line); the head commits (payload written, cnt and wr + 1) in any
///     cycle its queue has room, so offers go in at one per cycle while queues have room.
///   * Inject side: the slot decided at an advance (key_i, ent_dst_i) sends iff its count is not 0,
///     and takes the message (cnt - 1, rd + 1) at the same edge, so the next slot sees it: a message
///     committed at the end of cycle c goes out in the first slot for d that executes in cycle c + 2
///     or later; its payload is read from block RAM at the decision (data_o, valid while has_o is).
/// Messages to one destination leave in the order they were offered (one FIFO per destination).
/// No clearing sweep: the state is reset flip-flops (s_axis_tready is high from the first cycle
/// after reset).
`default_nettype none

module totex_tdm_nic_queue #(
  /// Payload bits W of a message.
  parameter int unsigned PayloadW = 32'd32,
  /// Bits of a node id.
  parameter int unsigned NodeW = 32'd6,
  /// Waiting messages per destination, a power of two >= 2 (the send buffer has QueueDepth *
  /// 2**NodeW words).
  parameter int unsigned QueueDepth = 32'd2
) (
  // Ports as totex_tdm_nic's.
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                adv_i,
  input  logic                adv_buf_i,
  input  logic                look_next_i,
  input  logic [NodeW-1:0]    pre_dst_i,
  input  logic [NodeW-1:0]    ent_dst_i,
  input  logic                key_i,
  input  logic                s_axis_tvalid,
  output logic                s_axis_tready,
  input  logic [PayloadW-1:0] s_axis_tdata,
  input  logic [NodeW-1:0]    s_axis_tdest,
  output logic                has_o,
  output logic [PayloadW-1:0] data_o,
  output logic                miss_o
);

  localparam int unsigned Nodes = 32'd1 << NodeW;
  localparam int unsigned QW = totex_pkg::idx_width(QueueDepth);   // a word within a queue
  localparam int unsigned CW = QW + 32'd1;                         // a count 0 .. QueueDepth
  localparam logic [CW-1:0] FULL = CW'(QueueDepth);

  // Per-destination state.
  logic [CW-1:0] cnt_q [Nodes];
  logic [QW-1:0] wr_q  [Nodes];
  logic [QW-1:0] rd_q  [Nodes];

  // ---------------------------------------------------------------------------------------------
  // Inject side: the read-ahead of the destination decided next (la) as flags of its count (0, 1)
  // and its read pointer, its one-hot (the per-destination updates' enables: no comparison with
  // ent_dst_i in the decision's cycle), and the flags of the edge that took them (a commit to it,
  // an injection from it). Its count is then cnt + lc1 - li1, and since an injection needs a
  // count of 1 or more, it is not 0 iff lc1 | ~(l0 | (li1 & l1)): one LUT of flip-flops.
  // ---------------------------------------------------------------------------------------------
  logic [NodeW-1:0] la, la_q;
  logic [Nodes-1:0] la_oh_q;
  logic [QW-1:0]    lr_q, l_rd;
  logic             l0_q, l1_q, lc1_q, li1_q;
  logic             dec_has, inject;
  assign la      = look_next_i ? pre_dst_i : ent_dst_i;
  assign dec_has = key_i & (lc1_q | ~(l0_q | (li1_q & l1_q)));
  assign inject  = adv_i & dec_has;
  assign l_rd    = lr_q + QW'(li1_q);

  // ---------------------------------------------------------------------------------------------
  // Send side: the head (its destination's count, flags of it, write pointer and one-hot, read
  // ahead as above: hc_q, hf_q (= QueueDepth), hn_q (= QueueDepth - 1), hw_q, hd_oh_q, with the
  // flags hc1_q and hi1_q), the skid register, s_axis_tready. A commit needs a count below
  // QueueDepth, so hc1 implies hc < QueueDepth: full iff ~hi1 & (hf | (hn & hc1)).
  // ---------------------------------------------------------------------------------------------
  logic                hv_q, sv_q, rdy_q;
  logic [NodeW-1:0]    hd_q, sd_q, cand;
  logic [Nodes-1:0]    hd_oh_q;
  logic [PayloadW-1:0] hdata_q, sdata_q;
  logic [CW-1:0]       hc_q, h_cnt;
  logic [QW-1:0]       hw_q, h_wr;
  logic                hf_q, hn_q, hc1_q, hi1_q, full, commit, accept, head_free, take;
  assign full      = ~hi1_q & (hf_q | (hn_q & hc1_q));
  assign commit    = hv_q & ~full;
  assign h_cnt     = hc_q + CW'(hc1_q) - CW'(hi1_q);
  assign h_wr      = hw_q + QW'(hc1_q);
  assign accept    = s_axis_tvalid & rdy_q;
  assign head_free = ~hv_q | commit;
  // A new head at this edge: the skid's offer, else the one accepted now (rdy_q implies ~sv_q).
  assign take      = head_free & (sv_q | accept);
  assign cand      = sv_q ? sd_q : s_axis_tdest;

  // Per destination: a commit to it, an injection from it (the one-hots of the read-ahead).
  logic [Nodes-1:0] put, got;
  assign put = {Nodes{commit}} & hd_oh_q;
  assign got = {Nodes{inject}} & la_oh_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned d = 0; d < Nodes; d++) begin
        cnt_q[d] <= '0;
        wr_q[d]  <= '0;
        rd_q[d]  <= '0;
      end
      la_q    <= '0;
      la_oh_q <= '0;
      lr_q    <= '0;
      l0_q    <= 1'b1;
      l1_q    <= 1'b0;
      lc1_q   <= 1'b0;
      li1_q   <= 1'b0;
      hv_q    <= 1'b0;
      sv_q    <= 1'b0;
      rdy_q   <= 1'b0;
      hd_oh_q <= '0;
      hc_q    <= '0;
      hf_q    <= 1'b0;
      hn_q    <= 1'b0;
      hw_q    <= '0;
      hc1_q   <= 1'b0;
      hi1_q   <= 1'b0;
    end else begin
      for (int unsigned d = 0; d < Nodes; d++) begin
        cnt_q[d] <= cnt_q[d] + CW'(put[d]) - CW'(got[d]);
        if (put[d]) wr_q[d] <= h_wr + QW'(1);
        if (got[d]) rd_q[d] <= l_rd + QW'(1);
      end
      la_q    <= la;
      la_oh_q <= Nodes'(1) << la;
      lr_q    <= rd_q[la];
      l0_q    <= cnt_q[la] == CW'(0);
      l1_q    <= cnt_q[la] == CW'(1);
      lc1_q   <= commit & (hd_q == la);
      li1_q   <= inject & (la_q == la);
      if (take) begin
        hd_oh_q <= Nodes'(1) << cand;
        hc_q    <= cnt_q[cand];
        hf_q    <= cnt_q[cand] == FULL;
        hn_q    <= cnt_q[cand] == FULL - CW'(1);
        hw_q    <= wr_q[cand];
        hc1_q   <= commit & (hd_q == cand);
        hi1_q   <= inject & (la_q == cand);
      end else begin   // the head stays (or there is none): its count and pointer carried on
        hc_q    <= h_cnt;
        hf_q    <= h_cnt == FULL;
        hn_q    <= h_cnt == FULL - CW'(1);
        hw_q    <= h_wr;
        hc1_q   <= 1'b0;   // a head that stays did not commit
        hi1_q   <= inject & (la_q == hd_q);
      end
      hv_q  <= take | (hv_q & ~commit);
      // The skid holds an offer accepted while the head could not commit, until the head does.
      sv_q  <= sv_q ? ~head_free : (accept & ~head_free);
      rdy_q <= ~(sv_q ? ~head_free : (accept & ~head_free));
    end
  end
  always_ff @(posedge clk_i) begin
    if (take) begin
      hd_q    <= cand;
      hdata_q <= sv_q ? sdata_q : s_axis_tdata;
    end
    if (accept & ~head_free) begin
      sd_q    <= s_axis_tdest;
      sdata_q <= s_axis_tdata;
    end
  end
  assign s_axis_tready = rdy_q;

`ifndef SYNTHESIS
`ifndef TOTEX_NO_ASSERTIONS
  // The read-ahead is of the slot decided: the slot pipeline moved (look_next_i) or held.
  always_ff @(posedge clk_i) begin
    if (rst_ni && adv_i && key_i)
      assert (la_q == ent_dst_i) else $error("NIC queue: read ahead for node %0d, decided %0d", la_q, ent_dst_i);
  end
`endif
`endif

  // Decision registers and the miss pulse (as totex_tdm_nic).
  logic dec_q, has_q, key_h_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dec_q   <= 1'b0;
      has_q   <= 1'b0;
      key_h_q <= 1'b0;
    end else begin
      dec_q <= adv_i;
      if (adv_i) begin
        has_q   <= dec_has;
        key_h_q <= key_i;
      end
    end
  end
  assign has_o  = has_q;
  assign miss_o = dec_q & key_h_q & ~has_q;

  // Send buffer: written at the commit, read at the decision (a word committed at an earlier edge:
  // a queue with a message to send is not the one being written into the same word).
  totex_tdm_ram #(.Depth(QueueDepth * Nodes), .Width(PayloadW)) u_sendbuf (
    .clk_i,
    .we_i   (commit),
    .waddr_i({h_wr, hd_q}),
    .wdata_i(hdata_q),
    .re_i   (adv_buf_i),
    .raddr_i({l_rd, ent_dst_i}),
    .rdata_o(data_o)
  );

endmodule
