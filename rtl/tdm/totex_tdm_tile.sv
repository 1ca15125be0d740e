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
/// NIC: one waiting message per destination (send buffer in block RAM, two words per destination;
/// the pending state as toggle bits in block RAM, one per side: S flips on a commit, R on an
/// injection). An offer on s_axis is accepted unless an earlier offer whose destination is
/// occupied is parked (head of line); accepted messages are committed in order, each as soon as
/// its destination's entry is free. The slot of d injects d's message if one is committed, else
/// nothing is sent and missed_o counts the slot. Receive: m_axis is a registered one-cycle pulse
/// per ejected flit; the core must take it (m_axis_tready high whenever m_axis_tvalid is high),
/// else error_o.
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
  /// Bits of a select field; do not overwrite.
  localparam int unsigned SelW = totex_tdm_pkg::sel_width(NumPorts),
  /// Bits of a table entry; do not overwrite.
  localparam int unsigned EntryW = totex_tdm_pkg::entry_width(NumPorts, NodeW),
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
  /// Slots of a destination that found no committed message (wraps).
  output logic [MissW-1:0]             missed_o,
  /// Sticky error.
  output logic                         error_o
);

  localparam int unsigned P = NumPorts;
  localparam int unsigned W = PayloadW;
  localparam int unsigned Nodes = 32'd1 << NodeW;
  localparam int unsigned Prime = 32'd5;    // priming advances + 1 (table read, pre, entry, decision)
  localparam int unsigned PcW = totex_pkg::idx_width(Prime + 32'd1);
  localparam int unsigned SelsW = (P + 32'd1) * SelW;       // output and eject selects
  localparam logic [SelW-1:0] SEL_INJ = SelW'(P + 32'd1);

  // ---------------------------------------------------------------------------------------------
  // Slot pipeline control. After reset and after a table write: 2**NodeW load cycles (init_q: the
  // slot counter takes period_last_i; swc_q counts them), then Prime - 1 = 4 priming advances,
  // so that the first slot's inject decision is made PrimeCycles = 2**NodeW + 4 cycles after reset
  // or the last table write, the time the NIC had to take the first messages. After reset the
  // load cycles overlap the sweep that clears the NIC's toggle bits (block RAM has no reset), one
  // word per cycle, counted by sw_q (not restarted by table writes). Then the slot pipeline
  // advances exactly in the cycles with run_i high.
  // ---------------------------------------------------------------------------------------------
  logic             flush, init_q, primed_q, prm_q, adv, sweep;
  logic [PcW-1:0]   pc_q;
  logic [NodeW:0]   swc_q, sw_q;
  assign sweep = ~sw_q[NodeW];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      swc_q <= (NodeW + 32'd1)'(1);
      sw_q  <= '0;
    end else begin
      if (flush)              swc_q <= (NodeW + 32'd1)'(1);
      else if (!swc_q[NodeW]) swc_q <= swc_q + (NodeW + 32'd1)'(1);
      if (sweep)              sw_q  <= sw_q + (NodeW + 32'd1)'(1);
    end
  end
  logic [SlotW-1:0] f_q;            // slot fetched next
  assign flush = tbl_we_i;
  // The slot pipeline moves at this edge: (run_i | ~primed_q) & ~init_q & ~flush, written with
  // prm_q = ~primed_q & ~init_q (primed_q implies ~init_q) so that it is one LUT of its own (it
  // drives the pipeline's enables through a global buffer). adv is only ever an enable, never
  // logic (the decision flags that need it use dec_q, adv one cycle later).
  // A slot executes in a cycle with run_i & primed_q; the datapath takes run_i alone for that (the
  // same under the contract: run_i high before priming ends is err_early), so that no other logic
  // shares adv's AND (Yosys would merge the two, and the shared term, a LUT output of its own,
  // would put adv two LUTs deep).
  assign adv   = ((run_i & primed_q) | prm_q) & ~flush;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      init_q   <= 1'b1;
      primed_q <= 1'b0;
      prm_q    <= 1'b0;
      pc_q     <= '0;
    end else if (flush) begin
      init_q   <= 1'b1;
      primed_q <= 1'b0;
      prm_q    <= 1'b0;
      pc_q     <= '0;
    end else begin
      init_q <= ~swc_q[NodeW];   // one cycle longer than the count: no carry chain into init_q
      prm_q  <= swc_q[NodeW] & ~primed_q & ~(!init_q && pc_q == PcW'(Prime - 32'd2));
      if (!init_q && !primed_q) begin
        pc_q     <= pc_q + PcW'(1);
        primed_q <= (pc_q == PcW'(Prime - 32'd2));
      end
    end
  end
  // The counter's step is run_i | ~primed_q (one LUT from an input and a flip-flop, as in the
  // crossbar): it also steps in a flush cycle, harmless as init_q reloads it next.
  totex_tdm_slot_counter #(.SlotW(SlotW)) u_slot (
    .clk_i,
    .load_i       (init_q),
    .step_i       (run_i | ~primed_q),
    .period_last_i,
    .slot_o       (f_q)
  );

  // Slot table: block RAM read at every advance, then two entry registers: pre_q (so that no
  // block-RAM output drives another block RAM's address through a LUT: the toggle bits are read at
  // pre_q's inject_dst) and ent_q.
  logic [EntryW-1:0] tbl_rdata, pre_q, ent_q;
  logic              rdv_q, prev_q, entv_q, ent_inj_q, ent_dup_q, rd_inj, rd_dup;
  totex_tdm_ram #(.Depth(Depth), .Width(EntryW), .InitFile(TableFile)) u_table (
    .clk_i,
    .we_i   (tbl_we_i),
    .waddr_i(tbl_addr_i),
    .wdata_i(tbl_data_i),
    .re_i   (adv),
    .raddr_i(f_q),
    .rdata_o(tbl_rdata)
  );
  always_comb begin
    rd_inj = 1'b0;
    rd_dup = 1'b0;
    for (int unsigned o = 0; o < P; o++) begin
      if (pre_q[o*SelW +: SelW] == SEL_INJ) begin
        rd_dup = rd_dup | rd_inj;
        rd_inj = 1'b1;
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rdv_q  <= 1'b0;
      prev_q <= 1'b0;
      entv_q <= 1'b0;
    end else begin
      // Cleared by a table write (and reset), set by the first three priming advances (prm_q:
      // adv while priming); from flip-flops only, no enable from adv.
      rdv_q  <= ~flush & (rdv_q | prm_q);
      prev_q <= ~flush & (prev_q | (prm_q & rdv_q));
      entv_q <= ~flush & (entv_q | (prm_q & prev_q));
    end
  end
  always_ff @(posedge clk_i) begin
    if (adv) begin
      pre_q     <= tbl_rdata;
      ent_q     <= pre_q;
      ent_inj_q <= rd_inj;
      ent_dup_q <= rd_dup;
    end
  end
  logic [NodeW-1:0] ent_dst, ent_src;
  logic [SelsW-1:0] ent_sels;
  assign ent_sels = ent_q[SelsW-1:0];
  assign ent_dst  = ent_q[SelsW +: NodeW];
  assign ent_src  = ent_q[SelsW + NodeW +: NodeW];

  // ---------------------------------------------------------------------------------------------
  // NIC: toggle pairs. S[d] flips when the send side commits a message for d, R[d] when the
  // inject side sends it; d's message is pending iff S[d] != R[d]. Each side owns one bit and
  // knows it exactly (its own writes still in flight are compared by id); it reads the other's
  // bit from block RAM, possibly a few cycles old, which is safe because the other side only
  // moves the pending state one way (a stale S makes the inject side miss, a stale R makes the
  // send side wait). Both bits sit in totex_tdm_bits (one copy per reading side). The payload of
  // d's messages alternates between two send-buffer words {S, d} (double buffer): the committed
  // message is at S[d], the next one is written at ~S[d] as soon as it is accepted, pending or
  // not, so no payload register waits for a commit.
  // ---------------------------------------------------------------------------------------------
  logic [NodeW-1:0] pre_dst, ia, ra;
  logic             s_i, r_i, s_s, r_s;     // bits read by the inject (i) and send (s) sides
  logic             s_we, s_wd;
  logic [NodeW-1:0] s_wa;
  logic             rw_we, rw_d, dec_q, rq_q;
  logic [NodeW-1:0] rw_a;
  assign pre_dst = pre_q[SelsW +: NodeW];
  // The inject side reads the next slot's bits when the slot pipeline moves, and reads the bits of
  // the slot in ent_q again in every cycle it does not (a pause, or primed and waiting for run_i),
  // so a commit made meanwhile is seen (run_i | ~primed_q: adv without init_q and flush, whose
  // entries are dropped anyway).
  assign ia      = (run_i | ~primed_q) ? pre_dst : ent_dst;
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

  // Inject side. The bits of slot s's inject_dst are read when its entry enters ent_q (with the
  // table's read-ahead, one cycle before the decision); the decision registers of the previous
  // two slots are the inject side's own writes that read may not show: a slot whose inject_dst
  // equals that of one of them which sent misses (eq1_q, f2_q; the message is then not pending
  // anyway, or committed too late for this slot).
  logic             eq1_q, f2_q, has_q, key, dec_has;
  logic [NodeW-1:0] dec_d_q;
  always_ff @(posedge clk_i) begin
    if (adv) begin
      eq1_q <= (pre_dst == ent_dst);
      f2_q  <= (pre_dst == dec_d_q) & has_q;
    end
  end
  assign key      = entv_q & ent_inj_q;
  // The flip-flop terms are kept apart (dec_x) so that the block-RAM bits pass one LUT into
  // has_q and one into miss_h_q.
  (* keep *) logic dec_x;
  logic            miss_h_q, dup_h_q;    // this decision missed / its entry injects twice
  assign dec_x    = key & ~f2_q & ~(eq1_q & has_q);
  assign dec_has  = dec_x & (s_i ^ r_i);
  always_ff @(posedge clk_i) begin
    if (adv) begin
      dec_d_q <= ent_dst;
      rq_q    <= r_i;
    end
  end
  // R write in the cycle after the decision, from the decision registers (and the clearing sweep
  // after reset): R[d] := ~R[d] when the slot sends.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) dec_q <= 1'b0;
    else         dec_q <= adv;   // a decision was made at the last edge
  end
  assign rw_we = sweep | (dec_q & has_q);
  assign rw_a  = sweep ? sw_q[NodeW-1:0] : dec_d_q;
  assign rw_d  = ~sweep & ~rq_q;

  // Send side. The head (hv_q, hd_q, hdata_q) holds the offer accepted at the last edge; its bits
  // were read at that edge (ra = s_axis_tdest while rdy_q). In the next cycle it is placed: its
  // payload written to the free buffer word {~S[d], d}, and either committed (S[d] flipped, when
  // d's entry is free) or parked (pv_q, d in la_q, its word's parity in pb_q; s_axis_tready low)
  // until a fresh read of R[d] shows the entry free. An offer accepted while the head parks waits
  // in the head until the park commits (commits stay in offer order), then reads its bits again
  // (through la_q, two cycles later). s_axis_tready = rdy_q is high exactly when the head (if
  // any) is placed in this cycle, so an accepted offer always finds the head register free.
  // hvh_q: there is a head and this cycle's read is its (of s_axis_tdest at its acceptance, or of
  // la_q while la_q == hd_q: lih_q), one flip-flop so that the S write enable is one LUT; vq_q:
  // this cycle's read is the park's.
  logic             rdy_q, hv_q, pv_q, pb_q, vq_q, hvh_q, lih_q, fq_q, fq_b_q;
  logic [NodeW-1:0] hd_q, la_q;
  logic [W-1:0]     hdata_q;
  logic             sx, go, h_park, p_commit, pv_d, rdy_d;
  assign ra       = rdy_q ? s_axis_tdest : la_q;
  // S[hd]: the read, or the value the previous head wrote for the same d at the read's edge (fq_q).
  // After such a write the entry is occupied (the previous head committed or parked, and nothing
  // can send its message that fast): the head parks.
  assign sx       = fq_q ? fq_b_q : s_s;
  assign go       = hvh_q & ~pv_q;
  assign h_park   = go & (fq_q | (s_s ^ r_s));
  assign p_commit = pv_q & vq_q & (r_s ^ pb_q);           // R[d] == S[d]: the entry is free
  // The S write of the head and of the park is unconditional: S[d] := ~R[d] as read. That flips
  // S[d] exactly when the read shows the entry free (S[d] == R[d], a commit) and rewrites the
  // value S[d] has otherwise (S[d] != R[d]: waiting); so no decision drives the write enable,
  // which is one LUT of four flip-flops.
  assign s_we     = sweep | (pv_q ? vq_q : hvh_q);
  assign s_wa     = pv_q ? la_q : hd_q;     // hd_q counts through every d during the sweep
  assign s_wd     = ~sweep & ~r_s;
  assign s_axis_tready = rdy_q;
  assign pv_d     = pv_q ? ~p_commit : h_park;
  // rdy_d = ~sweep & ~pv_q & ~h_park & (rdy_q | ~hv_q | lih_q), with the flip-flop terms kept
  // apart so that the block-RAM bits pass one LUT.
  (* keep *) logic rdy_pre, go_k;
  assign rdy_pre  = ~sweep & ~pv_q & ~(go & fq_q) & (rdy_q | ~hv_q | lih_q);
  assign go_k     = go;
  assign rdy_d    = rdy_pre & ~(go_k & (s_s ^ r_s));
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rdy_q <= 1'b0;
      hv_q  <= 1'b0;
      pv_q  <= 1'b0;
      vq_q  <= 1'b0;
      hvh_q <= 1'b0;
      lih_q <= 1'b0;
      hd_q  <= '0;
    end else begin
      // Not from p_commit (one LUT level after the block RAM): s_axis_tready returns one cycle
      // after the park commits.
      rdy_q <= rdy_d;
      if (rdy_q) hv_q <= s_axis_tvalid;
      pv_q  <= pv_d;
      vq_q  <= pv_q;
      hvh_q <= (rdy_q ? s_axis_tvalid : hv_q) & (rdy_q | (~pv_q & hv_q & lih_q));
      lih_q <= ~pv_q & ~rdy_q;
      if (rdy_q)      hd_q <= s_axis_tdest;
      else if (sweep) hd_q <= hd_q + NodeW'(1);
    end
  end
  always_ff @(posedge clk_i) begin
    if (rdy_q) hdata_q <= s_axis_tdata;
    if (!pv_q) pb_q <= ~sx;
    if (!pv_q) la_q <= hd_q;
    fq_q    <= go & (s_axis_tdest == hd_q);   // go implies rdy_q: the read is of s_axis_tdest
    fq_b_q  <= ~r_s;
  end

  // Send buffer: written when the head is placed, read at the decision (ahead of the executing
  // slot) at the committed word {S[d], d}.
  // The buffer write is registered (enable, address and data are flip-flops at the block RAM:
  // the word's parity ~sx comes out of the toggle bits' block RAM, and go fanned out to every
  // write-mask pin was the critical path before, 2026-11-26) and lands one edge after the
  // placement; the inject side reads a message's word at least two edges after its commit, so
  // always after that write.
  logic             sb_we_q;
  logic [NodeW:0]   sb_wa_q;
  logic [W-1:0]     sb_wd_q, sb_rdata;
  always_ff @(posedge clk_i) begin
    sb_we_q <= go;
    sb_wa_q <= {~sx, hd_q};
    sb_wd_q <= hdata_q;
  end
  totex_tdm_ram #(.Depth(32'd2 * Nodes), .Width(W)) u_sendbuf (
    .clk_i,
    .we_i   (sb_we_q),
    .waddr_i(sb_wa_q),
    .wdata_i(sb_wd_q),
    .re_i   (adv),
    .raddr_i({s_i, ent_dst}),
    .rdata_o(sb_rdata)
  );

  // ---------------------------------------------------------------------------------------------
  // Execute registers: one-hot selects of the slot executing next, decoded from the entry register.
  // ---------------------------------------------------------------------------------------------
  logic [P*(P+1)-1:0] sel_d, sel_q;    // sel[o*(P+1) + i]: i < P forward input i, i == P inject
  logic [P-1:0]       ej_d, ej_q;
  logic [NodeW-1:0]   ejsrc_q;
  logic [SelsW-1:0]   dsels;
  assign dsels = ent_sels;
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      for (int unsigned i = 0; i < P + 1; i++) begin
        sel_d[o*(P+1) + i] = entv_q && (dsels[o*SelW +: SelW] == SelW'(i + 32'd1));
      end
    end
    for (int unsigned i = 0; i < P; i++) begin
      ej_d[i] = entv_q && (dsels[P*SelW +: SelW] == SelW'(i + 32'd1));
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sel_q <= '0;
      ej_q  <= '0;
      has_q <= 1'b0;
    end else if (adv) begin
      sel_q <= sel_d;
      ej_q  <= ej_d;
      has_q <= dec_has;
    end
  end
  always_ff @(posedge clk_i) begin
    if (adv) ejsrc_q <= ent_src;
  end

  // ---------------------------------------------------------------------------------------------
  // Datapath: registered crossbar (AND-OR of one-hot selects), ejection register.
  // ---------------------------------------------------------------------------------------------
  logic [P-1:0]   out_valid_d, out_valid_q;
  logic [P*W-1:0] out_data_d, out_data_q;
  logic           m_valid_d, m_valid_q;
  logic [W-1:0]   m_data_d, m_data_q;
  logic [P-1:0]   left_d;
  // AND-OR selects written as a two-level tree (pairs of forwarded inputs, then one OR with the
  // injected payload), which is what LUT4 mapping needs to stay at two levels; a sequential OR
  // chain maps one level deeper. The pairs are kept (keep: LUT outputs of their own) so that the
  // send buffer's block-RAM output, late, passes one LUT only (P <= 4: two pairs + select + data).
  localparam int unsigned G = (P + 32'd1) / 32'd2;  // pairs of the P forwarded inputs of an output
  localparam int unsigned GE = (P + 32'd1) / 32'd2; // pairs of the P eject sources
  (* keep *) logic [P*G-1:0]   ov_t;
  (* keep *) logic [P*G*W-1:0] od_t;
  logic [GE-1:0]   mv_t;
  logic [GE*W-1:0] md_t;
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      for (int unsigned g = 0; g < G; g++) begin
        ov_t[o*G + g]         = 1'b0;
        od_t[(o*G + g)*W +: W] = '0;
        for (int unsigned k = 2 * g; k < 2 * g + 2; k++) begin
          if (k < P) begin
            ov_t[o*G + g]          = ov_t[o*G + g] | (sel_q[o*(P+1) + k] & in_valid_i[k]);
            od_t[(o*G + g)*W +: W] = od_t[(o*G + g)*W +: W]
                                   | ({W{sel_q[o*(P+1) + k]}} & in_data_i[k*W +: W]);
          end
        end
      end
      out_valid_d[o]       = (|ov_t[o*G +: G]) | (sel_q[o*(P+1) + P] & has_q);
      out_data_d[o*W +: W] = {W{sel_q[o*(P+1) + P]}} & sb_rdata;
      for (int unsigned g = 0; g < G; g++) out_data_d[o*W +: W] = out_data_d[o*W +: W] | od_t[(o*G + g)*W +: W];
    end
    for (int unsigned g = 0; g < GE; g++) begin
      mv_t[g]         = 1'b0;
      md_t[g*W +: W]  = '0;
      for (int unsigned k = 2 * g; k < 2 * g + 2; k++) begin
        if (k < P) begin
          mv_t[g]        = mv_t[g] | (ej_q[k] & in_valid_i[k]);
          md_t[g*W +: W] = md_t[g*W +: W] | ({W{ej_q[k]}} & in_data_i[k*W +: W]);
        end
      end
    end
    m_valid_d = run_i & (|mv_t);
    m_data_d  = '0;
    for (int unsigned g = 0; g < GE; g++) m_data_d = m_data_d | md_t[g*W +: W];
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
      m_valid_q   <= 1'b0;
    end else begin
      if (run_i) out_valid_q <= out_valid_d;
      m_valid_q <= m_valid_d;
    end
  end
  // Enable run_i rather than exec: the same under the contract (run_i low while priming; a
  // violation is an error anyway), and an input, not a LUT, drives the wide enable.
  always_ff @(posedge clk_i) begin
    if (run_i) begin
      out_data_q <= out_data_d;
      m_data_q   <= m_data_d;
      m_axis_tid <= ejsrc_q;
    end
  end
  assign out_valid_o   = out_valid_q;
  assign out_data_o    = out_data_q;
  assign m_axis_tvalid = m_valid_q;
  assign m_axis_tdata  = m_data_q;

  // ---------------------------------------------------------------------------------------------
  // Counters and checks (the error sources are registered, then ORed into the sticky bit).
  // ---------------------------------------------------------------------------------------------
  logic [MissW-1:0] missed_q;
  localparam int unsigned MissLoW = MissW / 32'd2;
  logic             err_q, ea_q, eb_q, miss_p, miss_c_q;
  assign miss_p = dec_q & miss_h_q;   // a pulse in the cycle after each decision that missed
  logic [P-1:0]     left_q;
  logic             err_overrun, err_early, err_lost, err_dup;
  assign err_overrun = m_valid_q & ~m_axis_tready;
  assign err_early   = run_i & ~primed_q;
  assign err_lost    = tbl_we_i & has_q;
  assign err_dup     = dec_q & dup_h_q;   // one cycle after the decision
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      missed_q <= '0;
      miss_h_q <= 1'b0;
      dup_h_q  <= 1'b0;
      miss_c_q <= 1'b0;
      err_q    <= 1'b0;
      ea_q     <= 1'b0;
      eb_q     <= 1'b0;
      left_q   <= '0;
    end else begin
      if (adv) begin
        miss_h_q <= key & ~(dec_x & (s_i ^ r_i));    // key & ~dec_has
        dup_h_q  <= entv_q & ent_dup_q;
      end
      // Two halves, the high one counting the low one's registered carry: short carry chains.
      // missed_o lags by one cycle after the low half wraps.
      // The carry as an AND (two LUT levels), not out of the end of the carry chain; miss_p as the
      // low half's enable, so the carry chain starts at flip-flops.
      if (miss_p) missed_q[MissLoW-1:0] <= missed_q[MissLoW-1:0] + MissLoW'(1);
      miss_c_q <= miss_p & (&missed_q[MissLoW-1:0]);
      missed_q[MissW-1:MissLoW] <= missed_q[MissW-1:MissLoW] + {{(MissW - MissLoW - 32'd1){1'b0}}, miss_c_q};
      ea_q   <= err_overrun | err_early;
      eb_q   <= err_lost | err_dup;
      left_q <= left_d;
      err_q  <= err_q | ea_q | eb_q | (|left_q);
    end
  end
  assign missed_o = missed_q;
  assign error_o  = err_q;


`ifndef SYNTHESIS
`ifndef TOTEX_NO_ASSERTIONS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!err_overrun) else $error("totex_tdm_tile: m_axis_tvalid while m_axis_tready is low (receive overrun)");
      assert (!err_early) else $error("totex_tdm_tile: run_i high before the slot pipeline is primed");
      assert (!(|left_d)) else $error("totex_tdm_tile: a flit left on an input link (in_valid_i %b)", in_valid_i);
      assert (!err_lost) else $error("totex_tdm_tile: table write while a decided injection is pending");
      assert (!err_dup) else $error("totex_tdm_tile: table entry with two injecting outputs");
    end
  end
`endif
`endif

endmodule
