// SPDX-License-Identifier: Apache-2.0
/// The NIC of a TDM tile (docs/tdm-tile.md, "How the NIC stays small"): one inject lane. The tiles'
/// shell (totex_tdm_shell) has one on the nic and single-port tiles, one per output link on the
/// all-port tile.
///
/// One waiting message per destination: the send buffer in block RAM (two words per destination),
/// the pending state as toggle bits in block RAM, one per side (S flips on a commit, R on an
/// injection; d's message is pending iff S[d] != R[d]). An offer on s_axis is accepted unless an
/// earlier offer whose destination is occupied is parked (head of line); accepted messages are
/// committed in order, each as soon as its destination's entry is free. A slot whose entry injects
/// on this lane (key_i) sends d's message if one is committed (has_o), else misses (miss_o).
/// After reset the NIC clears its toggle bits (2**NodeW cycles, s_axis_tready low); the tile's
/// load and priming (totex_tdm_slot_pipe) last as long.
`default_nettype none

module totex_tdm_nic #(
  /// Payload bits W of a message.
  parameter int unsigned PayloadW = 32'd32,
  /// Bits of a node id (the send buffer has 2 * 2**NodeW words).
  parameter int unsigned NodeW = 32'd6,
  /// 1: the toggle bits in flip-flops rather than block RAM.
  parameter bit BitsInFlops = 1'b0
) (
  /// Clock, rising edge.
  input  logic                clk_i,
  /// Asynchronous active-low reset of the control state.
  input  logic                rst_ni,
  /// The slot pipeline moves at this edge (totex_tdm_slot_pipe adv_o).
  input  logic                adv_i,
  /// The same, a copy of its own for the send buffer's read enable (the block RAM is placed apart
  /// from the NIC's flip-flops; one net to both was the UP5K's critical path).
  input  logic                adv_buf_i,
  /// Read the next slot's state (totex_tdm_slot_pipe look_next_o), else reread the decided slot's.
  input  logic                look_next_i,
  /// Inject destination of the slot after the decided one (from pre_o).
  input  logic [NodeW-1:0]    pre_dst_i,
  /// Inject destination of the slot decided in this cycle (from ent_o).
  input  logic [NodeW-1:0]    ent_dst_i,
  /// The slot decided in this cycle injects on this lane (a valid entry selecting it).
  input  logic                key_i,
  /// Send offer from the core.
  input  logic                s_axis_tvalid,
  /// Offer accepted (a flip-flop).
  output logic                s_axis_tready,
  /// Payload.
  input  logic [PayloadW-1:0] s_axis_tdata,
  /// Destination node.
  input  logic [NodeW-1:0]    s_axis_tdest,
  /// The executing slot sends a message (decided at the last advance).
  output logic                has_o,
  /// Its payload (block-RAM output, valid while has_o is).
  output logic [PayloadW-1:0] data_o,
  /// One-cycle pulse in the cycle after a decision whose slot found no committed message.
  output logic                miss_o
);

  localparam int unsigned W = PayloadW;
  localparam int unsigned Nodes = 32'd1 << NodeW;
  // Node id comparisons in two-bit pieces (kept by their users, so that a flag of a comparison and
  // one more term is two LUTs deep: Yosys mapped some three deep).
  localparam int unsigned Pieces = (NodeW + 32'd1) / 32'd2;
  function automatic logic [Pieces-1:0] eq_pieces(input logic [NodeW-1:0] a, input logic [NodeW-1:0] b);
    for (int unsigned k = 0; k < Pieces; k++) begin
      eq_pieces[k] = (a[2*k] == b[2*k]);
      if (2 * k + 1 < NodeW) eq_pieces[k] = eq_pieces[k] & (a[2*k+1] == b[2*k+1]);
    end
  endfunction

  // Clearing sweep after reset (block RAM has no reset): one word per cycle, at sweep_cnt_q.
  // sweep_q is high for the 2**NodeW cycles of the sweep, a flip-flop of its own cleared as the
  // count wraps (a compare of flip-flops, not the end of the count's carry chain: that chain to a
  // top count bit was the UP5K's critical path in some placements).
  logic             sweep, sweep_q;
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
  assign sweep = sweep_q;
  // sweep_next_q: the next cycle sweeps too (a flip-flop a step ahead of the count, for the send
  // side's sweep state below: no comparison of the count in front of its flip-flops).
  logic sweep_next_q, sweep_next_d;
  if (NodeW > 32'd1) begin : gen_swn
    assign sweep_next_d = sweep & (sweep_cnt_q[NodeW-1:1] != '1);   // not the sweep's last two cycles
  end else begin : gen_swn1
    assign sweep_next_d = 1'b0;                                            // a sweep of two cycles
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sweep_next_q <= 1'b1;
    else         sweep_next_q <= sweep_next_d;
  end

  // ---------------------------------------------------------------------------------------------
  // Toggle pairs. Each side owns one bit and knows it exactly (its own writes still in flight are
  // compared by id); it reads the other's bit from block RAM, possibly a few cycles old, which is
  // safe because the other side only moves the pending state one way (a stale S makes the inject
  // side miss, a stale R makes the send side wait). Both bits sit in totex_tdm_bits (one copy per
  // reading side). The payload of d's messages alternates between two send-buffer words {S, d}
  // (double buffer): the committed message is at S[d], the next one is written at ~S[d] as soon
  // as it is accepted, pending or not, so no payload register waits for a commit.
  // ---------------------------------------------------------------------------------------------
  logic [NodeW-1:0] ia, ra;
  logic             s_i, r_i, s_s, r_s;     // bits read by the inject (i) and send (s) sides
  logic             s_we, s_wd;
  logic [NodeW-1:0] s_wa;
  logic             rw_we, rw_d, dec_q, dec_r_q, has_q;
  logic [NodeW-1:0] rw_a;
  // The inject side reads the next slot's bits when the slot pipeline moves, and reads the bits of
  // the decided slot again in every cycle it does not (a pause, or primed and waiting for run_i),
  // so a commit made meanwhile is seen.
  assign ia      = look_next_i ? pre_dst_i : ent_dst_i;
  totex_tdm_bits #(.Depth(Nodes), .InFlops(BitsInFlops)) u_sbits (
    .clk_i,
    .we_i     (s_we),
    .waddr_i  (s_wa),
    .wdata_i  (s_wd),
    .re_a_i   (1'b1),
    .raddr_a_i(ia),
    .rdata_a_o(s_i),
    .re_b_i   (1'b1),
    .raddr_b_i(ra),
    .rdata_b_o(s_s)
  );
  totex_tdm_bits #(.Depth(Nodes), .InFlops(BitsInFlops)) u_rbits (
    .clk_i,
    .we_i     (rw_we),
    .waddr_i  (rw_a),
    .wdata_i  (rw_d),
    .re_a_i   (1'b1),
    .raddr_a_i(ia),
    .rdata_a_o(r_i),
    .re_b_i   (1'b1),
    .raddr_b_i(ra),
    .rdata_b_o(r_s)
  );

  // Inject side. The bits of a slot's destination are read when its entry enters the entry
  // register (with the table's read-ahead, one cycle before the decision); the decision registers
  // of the previous two slots are the inject side's own writes that read may not show: a slot
  // whose destination equals that of one of them which sent misses (eq1_q, f2_q; the message is
  // then not pending anyway, or committed too late for this slot).
  logic             eq1_q, f2_q, dec_has;
  logic [NodeW-1:0] dec_d_q;
  (* keep *) logic [Pieces-1:0] eq1_c, f2_c;
  assign eq1_c = eq_pieces(pre_dst_i, ent_dst_i);
  assign f2_c  = eq_pieces(pre_dst_i, dec_d_q);
  always_ff @(posedge clk_i) begin
    if (adv_i) begin
      eq1_q <= &eq1_c;
      f2_q  <= (&f2_c) & has_q;
    end
  end
  // The flip-flop terms are kept apart (dec_x) so that the block-RAM bits pass one LUT into
  // has_q. Whether the decision missed is key_h_q & ~has_q after it (not a second function of the
  // block-RAM bits beside has_q: Yosys shared the two, three LUTs deep).
  (* keep *) logic dec_x;
  logic            key_h_q;    // the decided slot injects on this lane
  assign dec_x    = key_i & ~f2_q & ~(eq1_q & has_q);
  assign dec_has  = dec_x & (s_i ^ r_i);
  always_ff @(posedge clk_i) begin
    if (adv_i) begin
      dec_d_q <= ent_dst_i;
      dec_r_q <= r_i;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dec_q   <= 1'b0;
      has_q   <= 1'b0;
      key_h_q <= 1'b0;
    end else begin
      dec_q <= adv_i;   // a decision was made at the last edge
      if (adv_i) begin
        has_q   <= dec_has;
        key_h_q <= key_i;
      end
    end
  end
  assign has_o  = has_q;
  assign miss_o = dec_q & key_h_q & ~has_q;
  // R write in the cycle after the decision, from the decision registers (and the clearing sweep
  // after reset): R[d] := ~R[d] when the slot sends.
  assign rw_we = sweep | (dec_q & has_q);
  assign rw_a  = sweep ? sweep_cnt_q : dec_d_q;
  assign rw_d  = ~sweep & ~dec_r_q;

  // Send side. The head (head_q: there is one; head_dst_q, head_data_q) holds the offer accepted at
  // the last edge; its bits were read at that edge (ra = s_axis_tdest while rdy_q). In the next
  // cycle it is placed: its payload written to the free buffer word {~S[d], d}, and either
  // committed (S[d] flipped, when d's entry is free) or parked (parked_q, d in park_dst_q;
  // s_axis_tready low) until a fresh read of R[d] shows the entry free. An offer accepted while the
  // head parks waits in the head until the park commits (commits stay in offer order), then reads
  // its bits again (through park_dst_q, two cycles later). s_axis_tready = rdy_q is high exactly
  // when the head (if any) is placed in this cycle, so an accepted offer always finds the head
  // register free.
  // head_read_q: there is a head and this cycle's read is its (of s_axis_tdest at its acceptance,
  // or of park_dst_q while park_dst_q holds head_dst_q: park_dst_head_q), one flip-flop so that
  // the S write enable is one LUT; park_read_q: this cycle's read is the park's.
  // During the sweep head_q and park_read_q are high and park_dst_head_q low (reset values; head_q
  // and park_read_q fall after the sweep's last cycle): a state of no other use (park_read_q, the
  // park's read, with head_q and no park) that holds s_axis_tready low, so that its logic needs no
  // sweep flag (below).
  logic             rdy_q, head_q, parked_q, park_read_q, head_read_q, park_dst_head_q;
  logic             same_dst_q, same_dst_r_q;
  logic [NodeW-1:0] head_dst_q, park_dst_q;
  logic [W-1:0]     head_data_q;
  logic             go, occ, park_d, rdy_d;
  assign ra       = rdy_q ? s_axis_tdest : park_dst_q;
  assign go       = head_read_q & ~parked_q;
  // The bits show d's entry occupied (S[d] != R[d]). A park reads S[d] again beside R[d]: S[d]
  // keeps the value written at the placement until the park commits (no copy of it is needed).
  assign occ      = s_s ^ r_s;
  // The S write of the head and of the park is unconditional: S[d] := ~R[d] as read. That flips
  // S[d] exactly when the read shows the entry free (S[d] == R[d], a commit) and rewrites the
  // value S[d] has otherwise (S[d] != R[d]: waiting); so no decision drives the write enable,
  // which is one LUT of four flip-flops.
  assign s_we     = sweep | (parked_q ? park_read_q : head_read_q);
  assign s_wa     = parked_q ? park_dst_q : head_dst_q;   // head_dst_q: every d during the sweep
  assign s_wd     = ~sweep & ~r_s;
  assign s_axis_tready = rdy_q;
  // park_d: the placed head parks on same_dst_q or occ, a park stays until a read (park_read_q)
  // shows the entry free. rdy_d: s_axis_tready next (no park now or next; the head placed or gone,
  // not waiting behind a park: head_q & park_read_q, or head_q & same_dst_q). Each is one LUT of
  // the two block-RAM bits and two kept one-LUT functions of flip-flops, so that no path is more
  // than two LUTs deep; their flip-flop terms are reduced over the reachable states of the send
  // side (no sweep flag: its state above).
  (* keep *) logic pk_now, pk_occ, rdy_k, go_k;
  assign pk_now   = parked_q ? ~park_read_q : (head_read_q & same_dst_q);   // parks anyway
  assign pk_occ   = parked_q | head_read_q;   // parks if the bits show the entry occupied
  assign park_d   = pk_now | (pk_occ & occ);
  assign rdy_k    = ~parked_q & ~(head_q & (park_read_q | same_dst_q));
  assign rdy_d    = rdy_k & ~(head_read_q & occ);
  assign go_k     = go;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rdy_q           <= 1'b0;
      head_q          <= 1'b1;
      parked_q        <= 1'b0;
      park_read_q     <= 1'b1;
      head_read_q     <= 1'b0;
      park_dst_head_q <= 1'b0;
      head_dst_q      <= '0;
    end else begin
      // Not from the park's commit (one LUT level after the block RAM): s_axis_tready returns one
      // cycle after the park commits.
      rdy_q <= rdy_d;
      if (rdy_q) head_q <= s_axis_tvalid;
      else if (sweep && !sweep_next_q) head_q <= 1'b0;   // the sweep's last cycle
      parked_q        <= park_d;
      park_read_q     <= parked_q | sweep_next_q;
      head_read_q     <= (rdy_q ? s_axis_tvalid : head_q)
                       & (rdy_q | (~parked_q & head_q & park_dst_head_q));
      park_dst_head_q <= ~parked_q & ~rdy_q & ~sweep_next_q;
      if (rdy_q)      head_dst_q <= s_axis_tdest;
      else if (sweep) head_dst_q <= head_dst_q + NodeW'(1);
    end
  end
  // The head's forward flag (below): go and the comparison in kept pieces, two LUTs deep.
  (* keep *) logic [Pieces-1:0] same_dst_c;
  assign same_dst_c = eq_pieces(s_axis_tdest, head_dst_q);
  always_ff @(posedge clk_i) begin
    if (rdy_q) head_data_q <= s_axis_tdata;
    if (!parked_q) park_dst_q <= head_dst_q;
    same_dst_q   <= go_k & (&same_dst_c);   // go implies rdy_q: the read is of s_axis_tdest
    same_dst_r_q <= r_s;
  end
  // The parity of the placed head's free word, ~S[hd]: S[hd] is the read, or the value the previous
  // head wrote for the same d at the read's edge (same_dst_q; after such a write the entry is
  // occupied, the head parks). Its pieces are registered at the placement as they come (no LUT
  // between a block-RAM output and a register: that was the HX8K's critical path) and combined in
  // the cycle after (px) by the registered buffer write. (The park itself reads S[d] again: it was
  // written ~px at the placement and holds that until the park commits.)
  logic par_s_q, par_same_q, par_r_q, px;
  always_ff @(posedge clk_i) begin
    if (!parked_q) begin
      par_s_q    <= s_s;
      par_same_q <= same_dst_q;
      par_r_q    <= same_dst_r_q;
    end
  end
  assign px = par_same_q ? par_r_q : ~par_s_q;

  // Send buffer: written when the head is placed, read at the decision (ahead of the executing
  // slot) at the committed word {S[d], d}.
  // The buffer write is registered (enable, data and the address's node are flip-flops at the
  // block RAM, the parity px one LUT of flip-flops: go fanned out to every write-mask pin was the
  // critical path before, 2026-11-26) and lands one edge after the placement; the inject side
  // reads a message's word at least two edges after its commit, so always after that write.
  logic             sb_we_q;
  logic [NodeW-1:0] sb_wa_q;
  logic [W-1:0]     sb_wd_q;
  always_ff @(posedge clk_i) begin
    sb_we_q <= go;
    sb_wa_q <= head_dst_q;
    sb_wd_q <= head_data_q;
  end
  // SpareHalf (the write enable off the block RAM's mask pins) where it costs no block RAM.
  totex_tdm_ram #(.Depth(32'd2 * Nodes), .Width(W), .SpareHalf(Nodes <= 32'd64)) u_sendbuf (
    .clk_i,
    .we_i   (sb_we_q),
    .waddr_i({px, sb_wa_q}),
    .wdata_i(sb_wd_q),
    .re_i   (adv_buf_i),
    .raddr_i({s_i, ent_dst_i}),
    .rdata_o(data_o)
  );

endmodule
