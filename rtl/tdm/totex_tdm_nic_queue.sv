// SPDX-License-Identifier: Apache-2.0
/// The NIC lane of a TDM tile with a queue of QueueDepth waiting messages per destination (issue
/// 49: multi-flit traffic; docs/tdm-tile.md, "Traffic"). The shell (totex_tdm_shell) takes it in
/// place of totex_tdm_nic when its QueueDepth is above 1; QueueDepth 1 is totex_tdm_nic, unchanged.
/// Same ports and the same meaning of them as totex_tdm_nic.
///
/// Why a second module rather than a wider toggle pair in totex_tdm_nic: that NIC reads the other
/// side's bit a few cycles stale and makes a slot within two slots after one of its destination's
/// that sent miss. A queue must let back-to-back slots to one destination all send, so here every
/// read of the state is exact: read one edge ahead and corrected by what that edge wrote.
///
///   * State in block RAM, as toggle pairs widened to counts modulo 2 * QueueDepth, one writer each:
///     W[d] messages committed (the send side), R[d] injected (the inject side); d has W - R
///     (0 .. QueueDepth) waiting, the oldest in send-buffer word {R mod Q, d}, the next commit goes
///     to {W mod Q, d}. Each count has two copies (one read port each: the inject side's, the
///     head's). After reset a sweep writes every count to 0 (2**NodeW cycles, s_axis_tready low),
///     within the tile's priming.
///   * Inject side: the counts of the destination decided at the next advance (la: the next
///     slot's when the slot pipeline moves, look_next_i, else the decided slot's again) are read at
///     every edge; a count written at that same edge (block RAM: undefined read) is taken from the
///     write's own register instead. The slot decided at an advance sends iff W != R and writes
///     R + 1 at that edge; a message committed at the end of cycle c goes out in the first slot for
///     d executing in cycle c + 2 or later; its payload is read at the decision (data_o).
///   * Send side: s_axis_tready is a flip-flop, high unless two accepted offers wait (or the sweep
///     runs). Accepted offers wait in a two-entry FIFO; the oldest is the head, and the other waits
///     while the head cannot commit (its queue is full: head of line). The head's W is read when it
///     becomes the head (it changes only by the head's own commit) and its R followed in a
///     register; it commits (payload written, W + 1) in any cycle its queue has room, so offers go
///     in at one per cycle while queues have room.
/// Messages to one destination leave in the order they were offered (one FIFO per destination).
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

  if (QueueDepth < 32'd2 || (QueueDepth & (QueueDepth - 32'd1)) != 32'd0) begin : gen_depth_err
    $error("totex_tdm_nic_queue: QueueDepth must be a power of two >= 2 (1 is totex_tdm_nic)");
  end
  localparam int unsigned Nodes = 32'd1 << NodeW;
  localparam int unsigned QW = totex_pkg::idx_width(QueueDepth);   // a word within a queue
  localparam int unsigned CW = QW + 32'd1;                         // a count modulo 2 * QueueDepth

  // Clearing sweep after reset (block RAM has no reset), one word of every count per cycle.
  logic             sweep_q;
  logic [NodeW-1:0] sweep_cnt_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sweep_q     <= 1'b1;
      sweep_cnt_q <= '0;
    end else if (sweep_q) begin
      sweep_q     <= sweep_cnt_q != '1;
      sweep_cnt_q <= sweep_cnt_q + NodeW'(1);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Inject side: W and R of la read at every edge (w_i, r_i), with the flags of what that edge
  // wrote to la (lw1_q: a commit, its value wd_q; lr1_q: an injection, its value rn_q).
  // ---------------------------------------------------------------------------------------------
  logic [NodeW-1:0] la;
  logic [CW-1:0]    w_i, r_i, wd_q, rn_q, l_w, l_r, w_new, r_new;
  logic             lw1_q, lr1_q, dec_has, inject, commit;
  logic [NodeW-1:0] hd_q;
  assign la      = look_next_i ? pre_dst_i : ent_dst_i;
  assign l_w     = lw1_q ? wd_q : w_i;
  assign l_r     = lr1_q ? rn_q : r_i;
  assign dec_has = key_i & (l_w != l_r);
  assign inject  = adv_i & dec_has;
  assign r_new   = l_r + CW'(1);

  // ---------------------------------------------------------------------------------------------
  // Send side: accepted offers in a two-entry FIFO (written at the acceptance, wp_q; the head is
  // entry rp_q, hv_q: there is one; sv_q: both entries are taken, s_axis_tready low), so a new
  // head moves no payload (only its destination, hd_q, and its counts). The head's W: read when it
  // became the head (w_h), or the value a commit to its destination wrote at that edge (hw1_q,
  // hwd_q); its R: read then (r_h, or hr1_q/hrn_q likewise) in the cycle after (fresh_q), then
  // followed in rh_q. Full: W - R = QueueDepth, i.e. equal below the top bit, unequal at it.
  // ---------------------------------------------------------------------------------------------
  logic                hv_q, sv_q, rdy_q, fresh_q, hw1_q, hr1_q, wp_q, rp_q;
  logic [NodeW-1:0]    ed_q [2];
  logic [PayloadW-1:0] edata_q [2];
  logic [NodeW-1:0]    cand;
  logic [CW-1:0]       w_h, r_h, hwd_q, hrn_q, rh_q, h_w, h_r;
  logic                full, accept, head_free, take, sv_d;
  assign h_w       = hw1_q ? hwd_q : w_h;
  assign h_r       = fresh_q ? (hr1_q ? hrn_q : r_h) : rh_q;
  assign full      = (h_w[QW-1:0] == h_r[QW-1:0]) & (h_w[QW] != h_r[QW]);
  assign commit    = hv_q & ~full;
  assign w_new     = h_w + CW'(1);
  assign accept    = s_axis_tvalid & rdy_q;
  assign head_free = ~hv_q | commit;
  // A new head at this edge: the other entry's offer, else the one accepted now (rdy_q implies
  // ~sv_q).
  assign take      = head_free & (sv_q | accept);
  assign cand      = sv_q ? ed_q[~rp_q] : s_axis_tdest;
  assign sv_d      = sv_q ? ~head_free : (accept & ~head_free);

  // The counts: W written by commits, R by injections (and both by the sweep); two copies each.
  logic             w_we, r_we;
  logic [NodeW-1:0] w_wa, r_wa;
  logic [CW-1:0]    w_wd, r_wd;
  assign w_we = sweep_q | commit;
  assign w_wa = sweep_q ? sweep_cnt_q : hd_q;
  assign w_wd = sweep_q ? '0 : w_new;
  assign r_we = sweep_q | inject;
  assign r_wa = sweep_q ? sweep_cnt_q : ent_dst_i;
  assign r_wd = sweep_q ? '0 : r_new;
  totex_tdm_ram #(.Depth(Nodes), .Width(CW)) u_w_i (
    .clk_i, .we_i(w_we), .waddr_i(w_wa), .wdata_i(w_wd), .re_i(1'b1), .raddr_i(la), .rdata_o(w_i)
  );
  totex_tdm_ram #(.Depth(Nodes), .Width(CW)) u_r_i (
    .clk_i, .we_i(r_we), .waddr_i(r_wa), .wdata_i(r_wd), .re_i(1'b1), .raddr_i(la), .rdata_o(r_i)
  );
  totex_tdm_ram #(.Depth(Nodes), .Width(CW)) u_w_h (
    .clk_i, .we_i(w_we), .waddr_i(w_wa), .wdata_i(w_wd), .re_i(take), .raddr_i(cand), .rdata_o(w_h)
  );
  totex_tdm_ram #(.Depth(Nodes), .Width(CW)) u_r_h (
    .clk_i, .we_i(r_we), .waddr_i(r_wa), .wdata_i(r_wd), .re_i(take), .raddr_i(cand), .rdata_o(r_h)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lw1_q   <= 1'b0;
      lr1_q   <= 1'b0;
      hv_q    <= 1'b0;
      sv_q    <= 1'b0;
      rdy_q   <= 1'b0;
      fresh_q <= 1'b0;
      hw1_q   <= 1'b0;
      hr1_q   <= 1'b0;
      wp_q    <= 1'b0;
      rp_q    <= 1'b0;
    end else begin
      if (accept) wp_q <= ~wp_q;
      if (commit) rp_q <= ~rp_q;
      lw1_q   <= commit & (hd_q == la);
      lr1_q   <= inject & (ent_dst_i == la);
      hv_q    <= take | (hv_q & ~commit);
      sv_q    <= sv_d;
      // The skid holds an offer accepted while the head could not commit, until the head does;
      // no offer during the sweep (its last cycle: sweep_cnt_q all ones).
      rdy_q   <= ~sv_d & ~(sweep_q & (sweep_cnt_q != '1));
      fresh_q <= take;
      if (take) begin
        hw1_q <= commit & (hd_q == cand);
        hr1_q <= inject & (ent_dst_i == cand);
      end
    end
  end
  always_ff @(posedge clk_i) begin
    wd_q  <= w_new;
    rn_q  <= r_new;
    rh_q  <= (inject & (ent_dst_i == hd_q)) ? r_new : h_r;
    if (take) begin
      hd_q  <= cand;
      hwd_q <= w_new;
      hrn_q <= r_new;
    end
    if (accept) begin
      ed_q[wp_q]    <= s_axis_tdest;
      edata_q[wp_q] <= s_axis_tdata;
    end
  end
  assign s_axis_tready = rdy_q;

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
    .waddr_i({h_w[QW-1:0], hd_q}),
    .wdata_i(edata_q[rp_q]),
    .re_i   (adv_buf_i),
    .raddr_i({l_r[QW-1:0], ent_dst_i}),
    .rdata_o(data_o)
  );

endmodule
