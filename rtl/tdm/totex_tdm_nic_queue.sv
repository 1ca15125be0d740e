// SPDX-License-Identifier: Apache-2.0
/// The NIC lane of a TDM tile with a queue of QueueDepth waiting messages per destination (issue
/// 49: multi-flit traffic; docs/tdm-tile.md, "Traffic"). The shell (totex_tdm_shell) takes it in
/// place of totex_tdm_nic when its QueueDepth is above 1; QueueDepth 1 is totex_tdm_nic, unchanged.
/// Same ports and the same meaning of them as totex_tdm_nic, plus rd_dst_i (the table's output).
///
/// Why a second module rather than a wider toggle pair in totex_tdm_nic: that NIC reads the other
/// side's bit a few cycles stale and makes a slot within two slots after one of its destination's
/// that sent miss. A queue must let back-to-back slots to one destination all send, so here the
/// inject side's state is exact at every decision.
///
///   * State in block RAM, as toggle pairs widened to counts modulo 2 * QueueDepth, one writer each:
///     W[d] messages committed (the send side), R[d] injected (the inject side); d has W - R
///     (0 .. QueueDepth) waiting, the oldest in send-buffer word {R mod 2Q, d}, the next one at
///     {W mod 2Q, d}. Each count has three copies (one read port each: the inject side's, the send
///     side's two). After reset a sweep writes every count to 0 (2**NodeW cycles, s_axis_tready
///     low), within the tile's priming.
///   * Inject side: the decided slot's counts are registers, read from block RAM two edges ahead
///     (see below); the slot decided at an advance sends iff W != R and writes R + 1 at that edge;
///     a message committed at the end of cycle c goes out in the first slot for d executing in
///     cycle c + 2 or later; its payload is read at the decision (data_o).
///   * Send side: s_axis_tready is a flip-flop, high unless two accepted offers wait in the skid
///     FIFO (or the sweep runs). The skid's oldest entry moves to the head register when it is
///     free or commits, with its counts as registers; the head commits (W + 1) from the cycle after
///     its move in any cycle its queue has room as the send side sees it (injections one edge
///     late), head of line otherwise: an offer accepted at edge a commits at a + 2 or later, and
///     offers go in at one per cycle while queues have room.
/// Why registers everywhere (the timing pass of 2026-11-29): the block-RAM reads used to feed the
/// decision and the commit in one cycle, four LUTs before a block RAM's write or read enable, about
/// half the one-flit tile's clock.
/// Messages to one destination leave in the order they were offered (one FIFO per destination).
`default_nettype none

module totex_tdm_nic_queue #(
  /// Payload bits W of a message.
  parameter int unsigned PayloadW = 32'd32,
  /// Bits of a node id.
  parameter int unsigned NodeW = 32'd6,
  /// Waiting messages per destination, a power of two >= 2 (the send buffer has QueueDepth *
  /// 2**NodeW words).
  parameter int unsigned QueueDepth = 32'd2,
  /// Read ports of the send side's counts: 2 (the oldest skid entry and the next one, chosen in the
  /// next cycle, so no read address waits for the move: about 7 % of the clock on the torus:8x8
  /// nic tile) or 1 (two block RAMs fewer: the shell's choice for the all-port tile's P lanes).
  parameter int unsigned HeadReads = 32'd2
) (
  // Ports as totex_tdm_nic's.
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                adv_i,
  input  logic                adv_buf_i,
  input  logic                look_next_i,
  /// Inject destination of the slot after pre_dst_i's (the table's block-RAM output, which
  /// pre_dst_i takes at the next advance); the queue reads counts two edges ahead.
  input  logic [NodeW-1:0]    rd_dst_i,
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
  // A count plus one as XORs of its bits (no carry chain after a block-RAM output).
  function automatic logic [CW-1:0] inc(input logic [CW-1:0] a);
    logic c;
    c = 1'b1;
    for (int unsigned b = 0; b < CW; b++) begin
      inc[b] = a[b] ^ c;
      c      = c & a[b];
    end
  endfunction
  function automatic logic [CW-1:0] dec(input logic [CW-1:0] a);
    logic c;
    c = 1'b1;
    for (int unsigned b = 0; b < CW; b++) begin
      dec[b] = a[b] ^ c;
      c      = c & ~a[b];
    end
  endfunction

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
  // Inject side (timing pass, 2026-11-29): the decided destination's counts are registers, so the
  // decision is two LUTs of flip-flops and no block-RAM output reaches the R write. The counts
  // are read two edges ahead of the decision they serve: at every edge, those of the destination
  // that the slot pipeline puts into pre_dst_i at that edge (rd_dst_i, the table's output, when it
  // moves; pre_dst_i again when it does not), and at the next edge, when pre moves into the
  // decided entry (adv_i and a destination other than the decided one's), loaded into registers,
  // corrected for the writes at the read's edge (wa_q, ra_q). Otherwise (no advance, or the next
  // slot has the decided slot's destination: eqpe_q) the registers follow their own destination
  // (im_q, ii_q). adv_i, not look_next_i, chooses: the registers are exact in every state (load,
  // priming, flush), not only while running. In the cycle of a decision:
  //   iw_q       W with the commits up to two edges before; im_q: a commit at the last edge (it
  //              leaves the destination non-empty: it had room, and an injection at that edge took
  //              at most what was there), cav_q the W it wrote;
  //   ir_q       R with the injections up to two edges before; ii_q: an injection at the last edge
  //              (back-to-back slots), so R is ir_q + ii_q (irp1_q, irp2_q: ir_q + 1, + 2).
  // ---------------------------------------------------------------------------------------------
  logic [NodeW-1:0] ra_addr;
  logic [CW-1:0]    w_i, r_i, iw_q, iwm1_q, ir_q, irp1_q, irp2_q, rcur, r_new, cavm1_q;
  logic             im_q, ii_q, wa_q, ra_q, eqpe_q, sw1_q, clr, dec_has, inject;
  logic             fwd;
  assign ra_addr = adv_i ? rd_dst_i : pre_dst_i;
  assign rcur    = ii_q ? irp1_q : ir_q;
  assign r_new   = ii_q ? irp2_q : irp1_q;
  // The compare in kept pieces (one LUT per bit of four registers, then one OR with im_q), so that
  // the R write enable is three LUTs deep. W != R + ii_q as W - ii_q != R (iwm1_q = iw_q - 1): a
  // mux of the R registers is also the send buffer's address, and ABC built the compare on it.
  (* keep *) logic [CW-1:0] dif;
  (* keep *) logic          ne;
  for (genvar b = 0; b < CW; b++) begin : gen_dif
    assign dif[b] = (ii_q ? iwm1_q[b] : iw_q[b]) ^ ir_q[b];
  end
  assign ne      = im_q | (|dif);
  assign dec_has = key_i & ne;
  // The R write enable as one AND of two kept nets (ne is forced high while the counts are
  // cleared, im_q set then), so that ABC cannot build it on top of inject: its unit-delay view
  // takes kept nets as inputs and chained LUTs behind ne (three after it, 2026-11-29).
  (* keep *) logic ak;
  assign ak      = (adv_i & key_i) | sweep_q;
  // inject kept too: the registers it feeds are one LUT after it.
  (* keep *) logic injk;
  assign injk    = adv_i & key_i & ne;
  assign inject  = injk;
  assign fwd     = ~adv_i | eqpe_q;
  // The registers' enables: a load (~fwd), the sweep's clear, or a fold of the last edge's
  // commit (W: im_q) or injection (R: ii_q) into them.
  (* keep *) logic  ce_w, ce_r;
  assign ce_w    = clr | (adv_i & ~eqpe_q) | im_q;
  assign ce_r    = clr | (adv_i & ~eqpe_q) | ii_q;
  assign clr     = sweep_q | sw1_q;   // the sweep, and its last write's edge (an undefined read)
  // Waiver: look_next_i stays in the port list (the shell drives both NICs alike); the reads here
  // follow adv_i, which also covers the load and flush cycles where the two differ.
  logic unused_look;
  assign unused_look = look_next_i;

  // ---------------------------------------------------------------------------------------------
  // Send side (timing pass, 2026-11-29): every path into a commit starts at flip-flops. Accepted
  // offers wait in a two-entry skid FIFO (ed_q/edata_q, written at wp_q, oldest at rp_q; skne_q:
  // one or more, two_q: both, s_axis_tready low) and move to the head register (hv_q, hd_q,
  // hdata_q) when it is free or commits. The counts of the skid's oldest entry are read at every
  // edge (the oldest after that edge: gen_reads2, gen_reads1), so a move loads the head's W and W ^ R as
  // registers (hw_q, xb_q), corrected for the writes at the read's edge and the move's; the head
  // commits
  // from the cycle after the move (an offer accepted at edge a commits at a + 2 or later), where
  // the block-RAM reads used to feed the commit, the FIFO and a block-RAM write enable in one cycle.
  // The send side sees injections one edge late (through inj_q, the decision registered): its R is
  // that of the edge before, so a queue full at the head frees one cycle after the injection.
  // Full: W - R = QueueDepth (equal below the top bit, unequal at it). In the head's first cycle
  // (first_q) it is one LUT of xb_q; after that the head stays only while full, and
  // full only falls on an injection to hd_q (hfull_q), as W does not move while it waits.
  // ---------------------------------------------------------------------------------------------
  logic                hv_q, first_q, hfull_q, skne_q, two_q, rdy_q, wp_q, rp_q, inj_q;
  logic [NodeW-1:0]    ed_q [2];
  logic [PayloadW-1:0] edata_q [2];
  logic [NodeW-1:0]    hd_q;
  logic [NodeW-1:0]    tail_q;   // the last accepted offer's destination: the newest entry's
  logic [PayloadW-1:0] hdata_q;
  logic [CW-1:0]       w_h, r_h, hw_q, rwd_q, cav_q, hw_d, hr_d, w_new;
  // samep_q[k]: skid entry k has the destination of the entry ahead of it when it was accepted (the
  // last accepted before it, tail_q), which is the head whenever k is the oldest and there is one
  // (no compare with a head that a move changes); eqd_q[k], eqdh_q: the destination decided at
  // the last edge (its injection is inj_q) is skid entry k's, the head's; cak_q[k]: the last edge
  // committed to skid entry k's destination (cav_q the W it wrote).
  logic [1:0]          samep_q, eqd_q, cak_q;
  logic                eqdh_q, ca_q;
  logic                full, commit, accept, move, two_d, c1, lis, lih;
  // Kept pieces (see ak): fullc, the first cycle's compare; a2, a waiting head that has room, or
  // the sweep: commit is then also W's write enable (one LUT after fullc; with the sweep apart,
  // ABC rebuilt the enable on top of commit). A sweep's commit writes a send-buffer word that
  // nothing reads and changes no other state (no head, no skid; the flags it sets are cleared or
  // rewritten before a move or a decision uses them).
  (* keep *) logic     fullc, a2, hfr;
  // fullc from xb_q, W ^ R registered at the move (one LUT, not two after the registers).
  logic [CW-1:0]       xb_q;
  assign fullc  = ~(|xb_q[QW-1:0]) & xb_q[QW];
  assign a2     = (hv_q & ~first_q & ~hfull_q) | sweep_q;
  assign full   = first_q ? fullc : hfull_q;
  assign commit = a2 | (first_q & ~fullc);   // first_q implies hv_q
  // hfr: no head or a waiting one with room (kept: the move is one LUT after fullc).
  assign hfr    = ~hv_q | (~first_q & ~hfull_q);
  assign w_new  = inc(hw_q);
  assign accept = s_axis_tvalid & rdy_q;
  assign move   = skne_q & (hfr | (first_q & ~fullc));
  assign two_d  = skne_q & ~move & (two_q | accept);
  // The counts of the oldest skid entry after this edge: the oldest now (or the offer), or if it
  // moves the other one (or the offer). HeadReads 2: both read (ports p and q), mv_q picks one in
  // the next cycle; 1: one read at the address the move selects (the move two LUTs deep).
  // The moving entry's counts: W read at the last edge, or what the commit at that edge (ca_q) or
  // at this one (c1, the head before it had its destination) wrote; R read at the last edge, or
  // what the injection at that edge wrote (lis). A head with the entry's destination commits
  // whenever the entry moves, so c1 needs no commit.
  assign c1     = hv_q & samep_q[rp_q];
  assign ca_q   = cak_q[rp_q];
  assign lis    = inj_q & eqd_q[rp_q];
  assign lih    = inj_q & eqdh_q;
  logic [CW-1:0] altv;
  assign altv   = c1 ? w_new : cav_q;
  assign hw_d   = (c1 | ca_q) ? altv : w_h;
  assign hr_d   = lis ? rwd_q : r_h;

  // The counts: W by commits, R by injections (both by the sweep); 3 copies (HeadReads 1: 2).
  logic             w_we, r_we;
  logic [NodeW-1:0] w_wa, r_wa;
  logic [CW-1:0]    w_wd, r_wd;
  assign w_we = commit;
  assign w_wa = sweep_q ? sweep_cnt_q : hd_q;
  assign w_wd = sweep_q ? '0 : w_new;
  assign r_we = ak & ne;
  assign r_wa = sweep_q ? sweep_cnt_q : ent_dst_i;
  assign r_wd = sweep_q ? '0 : r_new;
  totex_tdm_ram #(.Depth(Nodes), .Width(CW)) u_w_i (
    .clk_i, .we_i(w_we), .waddr_i(w_wa), .wdata_i(w_wd), .re_i(1'b1), .raddr_i(ra_addr), .rdata_o(w_i)
  );
  totex_tdm_ram #(.Depth(Nodes), .Width(CW)) u_r_i (
    .clk_i, .we_i(r_we), .waddr_i(r_wa), .wdata_i(r_wd), .re_i(1'b1), .raddr_i(ra_addr), .rdata_o(r_i)
  );
  if (HeadReads > 32'd1) begin : gen_reads2
    logic [NodeW-1:0] tgt_p, tgt_q;
    logic [CW-1:0]    w_hp, r_hp, w_hq, r_hq;
    logic             mv_q;
    assign tgt_p = skne_q ? ed_q[rp_q] : s_axis_tdest;
    assign tgt_q = two_q ? ed_q[~rp_q] : s_axis_tdest;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) mv_q <= 1'b0;
      else         mv_q <= move;
    end
    assign w_h = mv_q ? w_hq : w_hp;
    assign r_h = mv_q ? r_hq : r_hp;
    totex_tdm_ram #(.Depth(Nodes), .Width(CW)) u_w_hp (
      .clk_i, .we_i(w_we), .waddr_i(w_wa), .wdata_i(w_wd), .re_i(1'b1), .raddr_i(tgt_p), .rdata_o(w_hp)
    );
    totex_tdm_ram #(.Depth(Nodes), .Width(CW)) u_r_hp (
      .clk_i, .we_i(r_we), .waddr_i(r_wa), .wdata_i(r_wd), .re_i(1'b1), .raddr_i(tgt_p), .rdata_o(r_hp)
    );
    totex_tdm_ram #(.Depth(Nodes), .Width(CW)) u_w_hq (
      .clk_i, .we_i(w_we), .waddr_i(w_wa), .wdata_i(w_wd), .re_i(1'b1), .raddr_i(tgt_q), .rdata_o(w_hq)
    );
    totex_tdm_ram #(.Depth(Nodes), .Width(CW)) u_r_hq (
      .clk_i, .we_i(r_we), .waddr_i(r_wa), .wdata_i(r_wd), .re_i(1'b1), .raddr_i(tgt_q), .rdata_o(r_hq)
    );
  end else begin : gen_reads1
    logic [NodeW-1:0] tgt;
    assign tgt = move ? (two_q ? ed_q[~rp_q] : s_axis_tdest) : (skne_q ? ed_q[rp_q] : s_axis_tdest);
    totex_tdm_ram #(.Depth(Nodes), .Width(CW)) u_w_h (
      .clk_i, .we_i(w_we), .waddr_i(w_wa), .wdata_i(w_wd), .re_i(1'b1), .raddr_i(tgt), .rdata_o(w_h)
    );
    totex_tdm_ram #(.Depth(Nodes), .Width(CW)) u_r_h (
      .clk_i, .we_i(r_we), .waddr_i(r_wa), .wdata_i(r_wd), .re_i(1'b1), .raddr_i(tgt), .rdata_o(r_h)
    );
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sw1_q   <= 1'b1;
      eqpe_q  <= 1'b0;
      hv_q    <= 1'b0;
      first_q <= 1'b0;
      skne_q  <= 1'b0;
      two_q   <= 1'b0;
      rdy_q   <= 1'b0;
      wp_q    <= 1'b0;
      rp_q    <= 1'b0;
      inj_q   <= 1'b0;
    end else begin
      sw1_q   <= sweep_q;
      if (adv_i) eqpe_q <= rd_dst_i == pre_dst_i;
      if (accept) wp_q <= ~wp_q;
      if (move) rp_q <= ~rp_q;
      hv_q    <= move | (hv_q & ~commit);
      first_q <= move;
      skne_q  <= two_q | accept | (skne_q & ~move);
      two_q   <= two_d;
      // No offer during the sweep (its last cycle: sweep_cnt_q all ones).
      rdy_q   <= ~two_d & ~(sweep_q & (sweep_cnt_q != '1));
      inj_q   <= inject;
    end
  end
  always_ff @(posedge clk_i) begin
    rwd_q   <= r_new;
    cav_q   <= w_new;
    cavm1_q <= hw_q;
    hfull_q <= full & ~lih;
    if (mv_c[0]) begin
      hd_q <= ed_q[rp_q];
      hw_q <= hw_d;
      xb_q <= hw_d ^ hr_d;
    end
    if (accept) begin
      ed_q[wp_q]    <= s_axis_tdest;
      edata_q[wp_q] <= s_axis_tdata;
      samep_q[wp_q] <= s_axis_tdest == tail_q;
      tail_q        <= s_axis_tdest;
    end
    for (int unsigned k = 0; k < 2; k++) begin
      eqd_q[k] <= (accept && wp_q == k[0]) ? (ent_dst_i == s_axis_tdest) : (ent_dst_i == ed_q[k]);
      cak_q[k] <= commit & ((accept && wp_q == k[0]) ? (hd_q == s_axis_tdest) : (hd_q == ed_q[k]));
    end
    eqdh_q <= move ? (ent_dst_i == ed_q[rp_q]) : (ent_dst_i == hd_q);
  end
  assign s_axis_tready = rdy_q;

  // The move as an enable in copies of at most ADV_LOADS loads each (the head's payload bits split
  // among copies 1..), each from its own flip-flop copy of skne_q: one net of move to every
  // head register was promoted to a global buffer, whose route and buffer were the critical path.
  localparam int unsigned MvLoads = totex_tdm_pkg::ADV_LOADS;
  localparam int unsigned MvCopies = 32'd1 + (PayloadW + MvLoads - 32'd1) / MvLoads;
  // Each copy from flip-flop copies of skne_q and first_q of its own and a kept hfr of its own, so
  // that it is one LUT after fullc (ABC otherwise shared the OR of the copies, two LUTs and a
  // long route).
  logic [MvCopies-1:0] skne_c, first_c, mv_c;
  (* keep *) logic [MvCopies-1:0] hfr_c;
  for (genvar c = 0; c < MvCopies; c++) begin : gen_mv
    (* keep *) always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        skne_c[c]  <= 1'b0;
        first_c[c] <= 1'b0;
      end else begin
        skne_c[c]  <= two_q | accept | (skne_q & ~move);
        first_c[c] <= move;
      end
    end
    assign hfr_c[c] = ~hv_q | (~first_c[c] & ~hfull_q);
    assign mv_c[c]  = skne_c[c] & (hfr_c[c] | (first_c[c] & ~fullc));
  end
  for (genvar b = 0; b < PayloadW; b++) begin : gen_hdata
    always_ff @(posedge clk_i) begin
      if (mv_c[32'd1 + b / MvLoads]) hdata_q[b] <= edata_q[rp_q][b];
    end
  end

  // Inject-side registers (above): the destination decided next after this edge is pre_dst_i's
  // (loaded from the read, ~fwd) or the same as now (fwd).
  always_ff @(posedge clk_i) begin
    wa_q <= commit & (adv_i ? (hd_q == rd_dst_i) : (hd_q == pre_dst_i));
    ra_q <= inject & (ent_dst_i == rd_dst_i);
    // Explicit enables, each one kept LUT of adv_i and flip-flops (Yosys's own, shared through
    // fwd, were two LUTs after adv_i and a long route).
    if (ce_w) begin
      iw_q   <= clr ? '0 : (fwd ? cav_q : (wa_q ? cav_q : w_i));
      iwm1_q <= clr ? '1 : (fwd ? cavm1_q : (wa_q ? cavm1_q : dec(w_i)));
    end
    if (ce_r) begin
      ir_q   <= clr ? '0 : (fwd ? irp1_q : (ra_q ? rwd_q : r_i));
      irp1_q <= clr ? CW'(1) : (fwd ? irp2_q : (ra_q ? inc(rwd_q) : inc(r_i)));
      irp2_q <= clr ? CW'(2) : (fwd ? inc(irp2_q) : (ra_q ? inc(inc(rwd_q)) : inc(inc(r_i))));
    end
    if (clr) begin
      im_q <= 1'b1;   // ne high for the sweep's R writes (ak)
      ii_q <= 1'b0;
    end else begin
      im_q <= commit & (adv_i ? (hd_q == pre_dst_i) : (hd_q == ent_dst_i));
      // An injection implies adv_i: it is to the next decided slot's destination iff eqpe_q.
      ii_q <= inject & eqpe_q;
    end
  end

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

  // Send buffer: 2 * QueueDepth words per destination, word {count mod 2Q, d}. The head's payload
  // is written at the end of its first cycle (first_q, all flip-flops: the commit's enable no
  // longer drives a block RAM's write enable across the tile), whether it commits then or later:
  // its word {W, d} is free (at most Q of the 2Q words, R .. W - 1, are waiting), and the
  // decision that reads it comes after the commit, so at least one edge after the write.
  totex_tdm_ram #(.Depth(32'd2 * QueueDepth * Nodes), .Width(PayloadW)) u_sendbuf (
    .clk_i,
    .we_i   (first_q),
    .waddr_i({hw_q, hd_q}),
    .wdata_i(hdata_q),
    .re_i   (adv_buf_i),
    .raddr_i({rcur, ent_dst_i}),
    .rdata_o(data_o)
  );

endmodule
