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
/// NIC: one waiting message per destination (send buffer in block RAM, indexed by destination;
/// valid bits in flip-flops). An offer on s_axis is accepted unless the NIC is still resolving an
/// earlier offer whose destination is occupied (head of line); accepted messages are committed to
/// the send buffer in order, each as soon as its destination's entry is free. The slot of d
/// injects d's message if one is committed, else nothing is sent and missed_o counts the slot.
/// Receive: m_axis is a registered one-cycle pulse per ejected flit; the core must take it
/// (m_axis_tready high whenever m_axis_tvalid is high), else error_o.
///
/// Cycle contract (PrimeCycles = ceil(NodeW/2) + 3):
///   * After reset release and after every table write (tbl_we_i), the tile reads the first
///     PrimeCycles slots of the table ahead by itself ("priming"); run_i must stay low for at least
///     PrimeCycles cycles after reset release and after the last table write (else error_o).
///   * The first cycle with run_i high executes slot 0; each later cycle with run_i high executes
///     the next slot (period_last_i wraps to 0). A cycle with run_i low is a pause: no slot
///     executes, out_* and the NIC's decisions hold, m_axis_tvalid is low.
///   * A flit selected in the cycle executing slot s is on out_* from the next cycle until the next
///     cycle after a slot executes; an ejected flit is on m_axis (tvalid high one cycle) in the next
///     cycle.
///   * The inject decision for a slot is made in the cycle before it executes (the cycle in which
///     the previous slot executes, or the last priming cycle for the first slot 0): a message
///     accepted on s_axis in cycle a with its entry free is committed in cycle a + ceil(NodeW/2)
///     and injected by the first slot for its destination whose decision is in a later cycle.
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
  /// Bits of missed_o.
  parameter int unsigned MissW = 32'd16,
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
  localparam int unsigned Prime = totex_tdm_pkg::prime_cycles(NodeW);
  localparam int unsigned PcW = totex_pkg::idx_width(Prime + 32'd1);
  localparam int unsigned SelsW = (P + 32'd1) * SelW;       // output and eject selects
  localparam int unsigned TagW = SelsW + NodeW + 32'd2;     // {eject_src, selects, dupinj, inj}
  localparam logic [SelW-1:0] SEL_INJ = SelW'(P + 32'd1);

  // ---------------------------------------------------------------------------------------------
  // Slot pipeline control: priming, fetch counter.
  // ---------------------------------------------------------------------------------------------
  logic [PcW-1:0]   pc_d, pc_q;
  logic [SlotW-1:0] f_d, f_q;
  logic             primed, adv, exec, flush;
  logic             rdv_d, rdv_q, entv_d, entv_q;
  assign primed = (pc_q == PcW'(Prime));
  assign adv    = primed ? run_i : 1'b1;   // the slot pipeline moves
  assign exec   = primed & run_i;          // a slot executes this cycle
  assign flush  = tbl_we_i;

  always_comb begin
    pc_d   = pc_q;
    f_d    = f_q;
    rdv_d  = rdv_q;
    entv_d = entv_q;
    if (adv) begin
      if (!primed) pc_d = pc_q + PcW'(1);
      f_d    = (f_q == period_last_i) ? '0 : f_q + SlotW'(1);
      rdv_d  = 1'b1;
      entv_d = rdv_q;
    end
    if (flush) begin
      pc_d   = '0;
      f_d    = '0;
      rdv_d  = 1'b0;
      entv_d = 1'b0;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pc_q   <= '0;
      f_q    <= '0;
      rdv_q  <= 1'b0;
      entv_q <= 1'b0;
    end else begin
      pc_q   <= pc_d;
      f_q    <= f_d;
      rdv_q  <= rdv_d;
      entv_q <= entv_d;
    end
  end

  // Slot table: block RAM, registered read at every advance, then an entry register.
  logic [EntryW-1:0] tbl_rdata, ent_q;
  totex_tdm_ram #(.Depth(Depth), .Width(EntryW), .InitFile(TableFile)) u_table (
    .clk_i,
    .we_i   (tbl_we_i),
    .waddr_i(tbl_addr_i),
    .wdata_i(tbl_data_i),
    .re_i   (adv),
    .raddr_i(f_q),
    .rdata_o(tbl_rdata)
  );
  always_ff @(posedge clk_i) begin
    if (adv) ent_q <= tbl_rdata;
  end

  // Entry fields, and the two summary bits computed before the lookup.
  logic [NodeW-1:0] ent_dst, ent_src;
  logic [SelsW-1:0] ent_sels;
  logic             ent_inj, ent_dupinj;
  assign ent_sels = ent_q[SelsW-1:0];
  assign ent_dst  = ent_q[SelsW +: NodeW];
  assign ent_src  = ent_q[SelsW + NodeW +: NodeW];
  always_comb begin
    ent_inj    = 1'b0;
    ent_dupinj = 1'b0;
    for (int unsigned o = 0; o < P; o++) begin
      if (ent_sels[o*SelW +: SelW] == SEL_INJ) begin
        ent_dupinj = ent_dupinj | ent_inj;
        ent_inj    = 1'b1;
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // NIC valid bits and the two lookups (inject side: the slot stream; send side: s_axis).
  // ---------------------------------------------------------------------------------------------
  logic [Nodes-1:0] v_d, v_q;
  logic             set_en, clr_en;
  logic [NodeW-1:0] set_d, clr_d;

  logic             il_valid, il_busy;
  logic [NodeW-1:0] il_d;
  logic [TagW-1:0]  il_tag;
  totex_tdm_lookup #(.NodeW(NodeW), .TagW(TagW)) u_inject_lookup (
    .clk_i, .rst_ni,
    .flush_i    (flush),
    .adv_i      (adv),
    .in_valid_i (entv_q),
    .in_d_i     (ent_dst),
    .in_tag_i   ({ent_src, ent_sels, ent_dupinj, ent_inj}),
    .v_i        (v_q),
    .set_en_i   (set_en),
    .set_d_i    (set_d),
    .clr_en_i   (clr_en),
    .clr_d_i    (clr_d),
    .out_valid_o(il_valid),
    .out_d_o    (il_d),
    .out_tag_o  (il_tag),
    .out_busy_o (il_busy)
  );

  logic             sl_valid, sl_busy, sl_adv;
  logic [NodeW-1:0] sl_d;
  logic [W-1:0]     sl_data;
  assign sl_adv = ~(sl_valid & sl_busy);
  totex_tdm_lookup #(.NodeW(NodeW), .TagW(W)) u_send_lookup (
    .clk_i, .rst_ni,
    .flush_i    (1'b0),
    .adv_i      (sl_adv),
    .in_valid_i (s_axis_tvalid),
    .in_d_i     (s_axis_tdest),
    .in_tag_i   (s_axis_tdata),
    .v_i        (v_q),
    .set_en_i   (set_en),
    .set_d_i    (set_d),
    .clr_en_i   (clr_en),
    .clr_d_i    (clr_d),
    .out_valid_o(sl_valid),
    .out_d_o    (sl_d),
    .out_tag_o  (sl_data),
    .out_busy_o (sl_busy)
  );
  assign s_axis_tready = sl_adv;

  // Commit: the head offer's entry is free.
  assign set_en = sl_valid & ~sl_busy;
  assign set_d  = sl_d;
  // Decision: the slot leaving the lookup injects (clears the entry) at this advance.
  logic dec, dec_inj, dec_has;
  assign dec     = adv & il_valid;
  assign dec_inj = dec & il_tag[0];
  assign dec_has = dec_inj & il_busy;
  assign clr_en  = dec_inj;
  assign clr_d   = il_d;

  always_comb begin
    v_d = v_q;
    if (clr_en) v_d[clr_d] = 1'b0;
    if (set_en) v_d[set_d] = 1'b1;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v_q <= '0;
    else         v_q <= v_d;
  end

  // Send buffer: written at the commit, read at the decision (read ahead of the executing slot).
  logic [W-1:0] sb_rdata;
  totex_tdm_ram #(.Depth(Nodes), .Width(W)) u_sendbuf (
    .clk_i,
    .we_i   (set_en),
    .waddr_i(set_d),
    .wdata_i(sl_data),
    .re_i   (dec_inj),
    .raddr_i(il_d),
    .rdata_o(sb_rdata)
  );

  // ---------------------------------------------------------------------------------------------
  // Execute registers: one-hot selects of the slot executing next, decoded from the lookup's tag.
  // ---------------------------------------------------------------------------------------------
  logic [P*(P+1)-1:0] sel_d, sel_q;    // sel[o*(P+1) + i]: i < P forward input i, i == P inject
  logic [P-1:0]       ej_d, ej_q, used_d, used_q;
  logic [NodeW-1:0]   ejsrc_q;
  logic               has_q, dupinj_d;
  logic [SelsW-1:0]   dsels;
  assign dsels = il_tag[2 +: SelsW];
  always_comb begin
    sel_d  = '0;
    ej_d   = '0;
    used_d = '0;
    for (int unsigned o = 0; o < P; o++) begin
      for (int unsigned i = 0; i < P + 1; i++) begin
        sel_d[o*(P+1) + i] = il_valid && (dsels[o*SelW +: SelW] == SelW'(i + 32'd1));
      end
    end
    for (int unsigned i = 0; i < P; i++) begin
      ej_d[i] = il_valid && (dsels[P*SelW +: SelW] == SelW'(i + 32'd1));
      used_d[i] = ej_d[i];
      for (int unsigned o = 0; o < P; o++) used_d[i] = used_d[i] | sel_d[o*(P+1) + i];
    end
    dupinj_d = dec & il_tag[1];
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sel_q  <= '0;
      ej_q   <= '0;
      used_q <= '0;
      has_q  <= 1'b0;
    end else if (flush) begin
      sel_q  <= '0;
      ej_q   <= '0;
      used_q <= '0;
      has_q  <= 1'b0;
    end else if (adv) begin
      sel_q  <= sel_d;
      ej_q   <= ej_d;
      used_q <= used_d;
      has_q  <= dec_has;
    end
  end
  always_ff @(posedge clk_i) begin
    if (adv) ejsrc_q <= il_tag[2 + SelsW +: NodeW];
  end

  // ---------------------------------------------------------------------------------------------
  // Datapath: registered crossbar (AND-OR of one-hot selects), ejection register.
  // ---------------------------------------------------------------------------------------------
  logic [P-1:0]   out_valid_d, out_valid_q;
  logic [P*W-1:0] out_data_d, out_data_q;
  logic           m_valid_d, m_valid_q;
  logic [W-1:0]   m_data_d, m_data_q;
  always_comb begin
    out_valid_d = out_valid_q;
    m_valid_d   = 1'b0;
    m_data_d    = '0;
    for (int unsigned o = 0; o < P; o++) begin
      logic         v;
      logic [W-1:0] d;
      v = sel_q[o*(P+1) + P] & has_q;
      d = {W{sel_q[o*(P+1) + P]}} & sb_rdata;
      for (int unsigned i = 0; i < P; i++) begin
        v = v | (sel_q[o*(P+1) + i] & in_valid_i[i]);
        d = d | ({W{sel_q[o*(P+1) + i]}} & in_data_i[i*W +: W]);
      end
      out_data_d[o*W +: W] = d;
      if (exec) out_valid_d[o] = v;
    end
    for (int unsigned i = 0; i < P; i++) begin
      m_valid_d = m_valid_d | (exec & ej_q[i] & in_valid_i[i]);
      m_data_d  = m_data_d | ({W{ej_q[i]}} & in_data_i[i*W +: W]);
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_q <= '0;
      m_valid_q   <= 1'b0;
    end else if (flush) begin
      out_valid_q <= '0;
      m_valid_q   <= 1'b0;
    end else begin
      out_valid_q <= out_valid_d;
      m_valid_q   <= m_valid_d;
    end
  end
  always_ff @(posedge clk_i) begin
    if (exec) begin
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
  // Counters and checks.
  // ---------------------------------------------------------------------------------------------
  logic [MissW-1:0] missed_q;
  logic             err_q, err_now, err_overrun, err_early, err_left, err_lost;
  assign err_overrun = m_valid_q & ~m_axis_tready;
  assign err_early   = run_i & ~primed;
  assign err_left    = exec & |(in_valid_i & ~used_q);
  assign err_lost    = tbl_we_i & has_q;
  assign err_now     = err_overrun | err_early | err_left | err_lost | dupinj_d;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      missed_q <= '0;
      err_q    <= 1'b0;
    end else begin
      if (dec_inj & ~il_busy) missed_q <= missed_q + MissW'(1);
      err_q <= err_q | err_now;
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
      assert (!err_left) else $error("totex_tdm_tile: a flit left on an input link (in_valid_i %b)", in_valid_i);
      assert (!err_lost) else $error("totex_tdm_tile: table write while a decided injection is pending");
      assert (!dupinj_d) else $error("totex_tdm_tile: table entry with two injecting outputs");
    end
  end
`endif
`endif

endmodule
