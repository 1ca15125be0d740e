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
/// The slot counter, the table and its read-ahead are totex_tdm_slot_pipe; the NIC is
/// totex_tdm_nic: one waiting message per destination (send buffer in block RAM, two words per
/// destination; the pending state as toggle bits in block RAM, one per side: S flips on a commit,
/// R on an injection). An offer on s_axis is accepted unless an earlier offer whose destination is
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
  localparam int unsigned SelsW = (P + 32'd1) * SelW;       // output and eject selects
  localparam logic [SelW-1:0] SEL_INJ = SelW'(P + 32'd1);

  // Slot pipeline (totex_tdm_slot_pipe): load and priming after reset and table writes, the slot
  // counter, the table read ahead into pre_q and ent_q. adv is the pipeline's enable, in five
  // copies of at most 14 loads (no global buffer, see totex_tdm_slot_pipe): 0 and 1 the selects,
  // 2 the entry's flags and source, 3 the NIC, 4 the send buffer's read.
  logic              primed_q, look_next, prev_q, entv_q;
  logic [4:0]        adv;
  logic [EntryW-1:0] ent_q;
  // Waiver: of the table's output only the selects are used (decoded beside pre_q), of pre_q only
  // the inject destination (the NIC's read ahead).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [EntryW-1:0] tbl_rd, pre_q;
  /* verilator lint_on UNUSEDSIGNAL */
  totex_tdm_slot_pipe #(.NodeW(NodeW), .Depth(Depth), .EntryW(EntryW), .TableFile(TableFile),
                        .AdvCopies(32'd5)) u_pipe (
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
  // Whether an entry injects (and injects twice: an error): each output's select compared with
  // SEL_INJ as the table's block RAM delivers it (pinj_q, beside pre_q), then combined one advance
  // later, so that neither takes more than two LUTs. ent_inj_q is the decision's key: the entry
  // injects and is valid (entv_q is set at the advance that loads a valid pre_q, prev_q, and
  // cleared by a table write), one flip-flop.
  logic [P-1:0] pinj_q;
  logic         ent_inj_q, ent_dup_q, rd_inj, rd_dup;
  always_ff @(posedge clk_i) begin
    if (adv[2]) begin
      for (int unsigned o = 0; o < P; o++) pinj_q[o] <= (tbl_rd[o*SelW +: SelW] == SEL_INJ);
    end
  end
  always_comb begin
    rd_inj = 1'b0;
    rd_dup = 1'b0;
    for (int unsigned o = 0; o < P; o++) begin
      if (pinj_q[o]) begin
        rd_dup = rd_dup | rd_inj;
        rd_inj = 1'b1;
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ent_inj_q <= 1'b0;
    else if (tbl_we_i) ent_inj_q <= 1'b0;
    else if (adv[2]) ent_inj_q <= rd_inj & prev_q;
  end
  always_ff @(posedge clk_i) begin
    if (adv[2]) ent_dup_q <= rd_dup;
  end
  logic [NodeW-1:0] ent_src;
  logic [SelsW-1:0] ent_sels;
  assign ent_sels = ent_q[SelsW-1:0];
  assign ent_src  = ent_q[SelsW + NodeW +: NodeW];

  // NIC (totex_tdm_nic): one inject lane; has_q = the executing slot sends sb_rdata.
  logic         has_q, miss_p;
  logic [W-1:0] sb_rdata;
  totex_tdm_nic #(.PayloadW(PayloadW), .NodeW(NodeW), .BitsInFlops(BitsInFlops)) u_nic (
    .clk_i,
    .rst_ni,
    .adv_i        (adv[3]),
    .adv_buf_i    (adv[4]),
    .look_next_i  (look_next),
    .pre_dst_i    (pre_q[SelsW +: NodeW]),
    .ent_dst_i    (ent_q[SelsW +: NodeW]),
    .key_i        (ent_inj_q),
    .s_axis_tvalid,
    .s_axis_tready,
    .s_axis_tdata,
    .s_axis_tdest,
    .has_o        (has_q),
    .data_o       (sb_rdata),
    .miss_o       (miss_p)
  );

  // ---------------------------------------------------------------------------------------------
  // Execute registers: one-hot selects of the slot executing next, decoded from the entry register.
  // ---------------------------------------------------------------------------------------------
  logic [P*(P+1)-1:0] sel_d, sel_q;    // sel[o*(P+1) + i]: i < P forward input i, i == P inject
  logic [P-1:0]       ej_d, ej_q;
  logic [NodeW-1:0]   ejsrc_q;
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      for (int unsigned i = 0; i < P + 1; i++) begin
        sel_d[o*(P+1) + i] = entv_q && (ent_sels[o*SelW +: SelW] == SelW'(i + 32'd1));
      end
    end
    for (int unsigned i = 0; i < P; i++) begin
      ej_d[i] = entv_q && (ent_sels[P*SelW +: SelW] == SelW'(i + 32'd1));
    end
  end
  localparam int unsigned SelHalf = P * (P + 32'd1) / 32'd2;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sel_q <= '0;
      ej_q  <= '0;
    end else begin
      if (adv[0]) sel_q[SelHalf-1:0] <= sel_d[SelHalf-1:0];
      if (adv[1]) begin
        sel_q[P*(P+1)-1:SelHalf] <= sel_d[P*(P+1)-1:SelHalf];
        ej_q <= ej_d;
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (adv[2]) ejsrc_q <= ent_src;
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
  // Counters and checks: the error sources, counted and made sticky by totex_tdm_status.
  // ---------------------------------------------------------------------------------------------
  logic             dec_q, dup_h_q;
  logic             err_overrun, err_early, err_lost, err_dup;
  assign err_overrun = m_valid_q & ~m_axis_tready;
  assign err_early   = run_i & ~primed_q;
  assign err_lost    = tbl_we_i & has_q;
  assign err_dup     = dec_q & dup_h_q;   // one cycle after the decision
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dec_q   <= 1'b0;
      dup_h_q <= 1'b0;
    end else begin
      dec_q <= adv[2];   // a decision was made at the last edge
      if (adv[2]) dup_h_q <= entv_q & ent_dup_q;
    end
  end
  totex_tdm_status #(.Lanes(32'd1), .Ports(P), .MissW(MissW)) u_status (
    .clk_i,
    .rst_ni,
    .miss_i  (miss_p),
    .err_a_i (err_overrun | err_early),
    .err_b_i (err_lost | err_dup),
    .left_i  (left_d),
    .missed_o,
    .error_o
  );


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
