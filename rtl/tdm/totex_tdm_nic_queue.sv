// SPDX-License-Identifier: Apache-2.0
/// The NIC lane of a TDM tile with a queue of QueueDepth waiting messages per destination (issue
/// 49: multi-flit traffic; docs/tdm-tile.md, "Traffic"). The shell (totex_tdm_shell) takes it in
/// place of totex_tdm_nic when its QueueDepth is above 1; QueueDepth 1 is totex_tdm_nic, unchanged.
/// Same ports and the same meaning of them as totex_tdm_nic.
///
/// Why a second module rather than a wider toggle pair: with one waiting message per destination
/// the NIC's state is one bit per side in block RAM, read a few cycles stale (both sides move it
/// one way), and a slot within two slots after one of its destination's that sent misses. A queue
/// must let back-to-back slots to one destination all send, so the inject side needs its count
/// exact in the cycle of the decision: here both counts are flip-flops (2 * 2**NodeW counters of
/// log2(QueueDepth) + 1 bits), read through muxes, and only the payloads are in block RAM.
///
///   * Counts per destination d, modulo 2 * QueueDepth: wr[d] messages committed, rd[d] injected;
///     d has wr[d] - rd[d] (0 .. QueueDepth) waiting, the oldest in word {rd[d], d} of the send
///     buffer, the next commit goes to word {wr[d], d} (both modulo QueueDepth).
///   * Send side: an offer accepted at an edge is the head; in the next cycle it commits (payload
///     written, wr[d] + 1) if d's queue has room, else it waits (head of line). s_axis_tready is a
///     flip-flop: high when the head register is free at the next edge or its head commits in the
///     next cycle for sure (room is computed on the counts after the edge, and only grows until
///     the head commits), so offers go in at one per cycle while queues have room.
///   * Inject side: the slot decided at an advance (key_i, ent_dst_i) sends iff wr[d] != rd[d] at
///     that edge; rd[d] + 1 at the same edge, so the next slot sees it. A message committed at the
///     end of cycle c goes out in the first slot for d that executes in cycle c + 2 or later; its
///     payload is read from block RAM at the decision (data_o, valid while has_o is).
/// Messages to one destination leave in the order they were offered (one FIFO per destination).
/// No clearing sweep: the counts are reset flip-flops (s_axis_tready is high from the second cycle
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
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                adv_i,
  input  logic                adv_buf_i,
  // Waiver: the counts are flip-flops, read in the cycle of the decision; the next slot's
  // destination (read ahead by totex_tdm_nic for its block-RAM bits) is not needed.
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic                look_next_i,
  input  logic [NodeW-1:0]    pre_dst_i,
  /* verilator lint_on UNUSEDSIGNAL */
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
  localparam int unsigned QW = totex_pkg::idx_width(QueueDepth);   // word within a queue
  localparam int unsigned CW = QW + 32'd1;                         // a count modulo 2 * QueueDepth
  localparam logic [CW-1:0] FULL = CW'(QueueDepth);

  logic [CW-1:0] wr_q [Nodes];
  logic [CW-1:0] rd_q [Nodes];

  // Send side: the head, its commit, the accepted offer.
  logic                hv_q, rdy_q, commit, accept, hv_d;
  logic [NodeW-1:0]    hd_q, hd_d;
  logic [PayloadW-1:0] hdata_q;
  logic [CW-1:0]       h_wr, h_rd;
  assign h_wr   = wr_q[hd_q];
  assign h_rd   = rd_q[hd_q];
  assign commit = hv_q & ((h_wr - h_rd) != FULL);
  assign accept = s_axis_tvalid & rdy_q;
  assign hv_d   = accept | (hv_q & ~commit);
  assign hd_d   = accept ? s_axis_tdest : hd_q;

  // Inject side: the decision at an advance.
  logic             dec_has, inject;
  logic [CW-1:0]    e_wr, e_rd;
  assign e_wr    = wr_q[ent_dst_i];
  assign e_rd    = rd_q[ent_dst_i];
  assign dec_has = key_i & (e_wr != e_rd);
  assign inject  = adv_i & dec_has;

  // s_axis_tready next: the next head (if any) finds room with the counts after this edge.
  logic [CW-1:0] n_wr, n_rd;
  logic          rdy_d;
  assign n_wr  = wr_q[hd_d] + CW'(commit && hd_q == hd_d);
  assign n_rd  = rd_q[hd_d] + CW'(inject && ent_dst_i == hd_d);
  assign rdy_d = ~hv_d | ((n_wr - n_rd) != FULL);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned d = 0; d < Nodes; d++) begin
        wr_q[d] <= '0;
        rd_q[d] <= '0;
      end
      hv_q  <= 1'b0;
      rdy_q <= 1'b0;
    end else begin
      if (commit) wr_q[hd_q] <= h_wr + CW'(1);
      if (inject) rd_q[ent_dst_i] <= e_rd + CW'(1);
      hv_q  <= hv_d;
      rdy_q <= rdy_d;
    end
  end
  always_ff @(posedge clk_i) begin
    if (accept) begin
      hd_q    <= s_axis_tdest;
      hdata_q <= s_axis_tdata;
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
    .waddr_i({h_wr[QW-1:0], hd_q}),
    .wdata_i(hdata_q),
    .re_i   (adv_buf_i),
    .raddr_i({e_rd[QW-1:0], ent_dst_i}),
    .rdata_o(data_o)
  );

endmodule
