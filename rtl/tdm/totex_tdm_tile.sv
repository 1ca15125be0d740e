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
  /// Bits of missed_o (>= 2).
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
  localparam int unsigned K = totex_tdm_pkg::lookup_stages(NodeW);
  localparam int unsigned Prime = totex_tdm_pkg::prime_cycles(NodeW);
  localparam int unsigned PcW = totex_pkg::idx_width(Prime + 32'd1);
  localparam int unsigned SelsW = (P + 32'd1) * SelW;       // output and eject selects
  localparam int unsigned ITagW = NodeW + SelsW + 32'd1;    // {eject_src, selects, dupinj}
  localparam logic [SelW-1:0] SEL_INJ = SelW'(P + 32'd1);
  // Destination ids split in two halves, each decoded to one-hot for the valid-bit updates.
  localparam int unsigned LoW = (NodeW + 32'd1) / 32'd2;
  localparam int unsigned HiW = NodeW - LoW;
  localparam int unsigned LoN = 32'd1 << LoW;
  localparam int unsigned HiN = 32'd1 << HiW;

  // ---------------------------------------------------------------------------------------------
  // Slot pipeline control. After reset or a table write: one load cycle (init_q: the slot
  // counters take period_last_i), then Prime - 1 priming advances; then the slot pipeline
  // advances exactly in the cycles with run_i high.
  // ---------------------------------------------------------------------------------------------
  logic             flush, init_q, primed_q, adv, exec;
  logic [PcW-1:0]   pc_q;
  logic [SlotW-1:0] f_q, r_q;       // slot fetched next; slots left after it in the period
  logic [SlotW:0]   r_dec;
  logic             wrap;
  assign flush = tbl_we_i;
  assign adv   = (run_i | ~primed_q) & ~init_q & ~flush;  // the slot pipeline moves at this edge
  assign exec  = run_i & primed_q;                // a slot executes in this cycle
  assign r_dec = {1'b0, r_q} - {{SlotW{1'b0}}, 1'b1};
  assign wrap  = r_dec[SlotW];                    // r_q == 0: f_q is the last slot

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      init_q   <= 1'b1;
      primed_q <= 1'b0;
      pc_q     <= '0;
    end else if (flush) begin
      init_q   <= 1'b1;
      primed_q <= 1'b0;
      pc_q     <= '0;
    end else begin
      init_q <= 1'b0;
      if (!init_q && !primed_q) begin
        pc_q     <= pc_q + PcW'(1);
        primed_q <= (pc_q == PcW'(Prime - 32'd2));
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (init_q) begin
      f_q <= '0;
      r_q <= period_last_i;
    end else if (adv) begin
      f_q <= wrap ? '0 : f_q + SlotW'(1);
      r_q <= wrap ? period_last_i : r_dec[SlotW-1:0];
    end
  end

  // Slot table: block RAM read at every advance, then an entry register.
  logic [EntryW-1:0] tbl_rdata, ent_q;
  logic              rdv_q, entv_q, ent_inj_q, ent_dup_q, rd_inj, rd_dup;
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
      if (tbl_rdata[o*SelW +: SelW] == SEL_INJ) begin
        rd_dup = rd_dup | rd_inj;
        rd_inj = 1'b1;
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rdv_q  <= 1'b0;
      entv_q <= 1'b0;
    end else if (flush || init_q) begin
      rdv_q  <= 1'b0;
      entv_q <= 1'b0;
    end else if (adv) begin
      rdv_q  <= 1'b1;
      entv_q <= rdv_q;
    end
  end
  always_ff @(posedge clk_i) begin
    if (adv) begin
      ent_q     <= tbl_rdata;
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
  // NIC. v_q[d]: a message for d is committed (in the send buffer) and not yet injected. Set by
  // the send side (commit), cleared by the inject side (a slot sends it); both decide in one
  // cycle and update v_q at the end of the next (set_*_q, clr_*_q). Each side reads v_q through
  // a pipelined lookup, a view some cycles old: safe because the other side only moves the bit
  // one way (a stale view makes the inject side miss, the send side wait), and the changes of its
  // own side since the view was taken are flagged by comparing ids on entry (conflict: the inject
  // side then misses the slot, the send side looks up again).
  // ---------------------------------------------------------------------------------------------
  logic [Nodes-1:0] v_q;
  logic             set_en_q, clr_en_q;
  logic [NodeW-1:0] set_d_q, clr_d_q;
  logic [HiN-1:0]   set_hi_q, clr_hi_q;
  logic [LoN-1:0]   set_lo_q, clr_lo_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v_q <= '0;
    else begin
      for (int unsigned k = 0; k < Nodes; k++) begin
        v_q[k] <= (v_q[k] & ~(clr_hi_q[k >> LoW] & clr_lo_q[k % LoN]))
                | (set_hi_q[k >> LoW] & set_lo_q[k % LoN]);
      end
    end
  end

  // Inject side: lookup of every slot's inject_dst, decided when the slot enters the execute
  // registers.
  logic [K-1:0]       il_svalid, il_skey;
  logic [K*NodeW-1:0] il_sd;
  logic [K:0]         il_flags;
  logic               il_valid, il_view, il_conf;
  logic [NodeW-1:0]   il_d;
  logic [ITagW-1:0]   il_tag;
  for (genvar s = 0; s < K; s++) begin : gen_il_flag
    assign il_flags[s] = il_skey[s] && (il_sd[s*NodeW +: NodeW] == ent_dst);
  end
  assign il_flags[K] = clr_en_q && (clr_d_q == ent_dst);
  totex_tdm_lookup #(.NodeW(NodeW), .TagW(ITagW), .FlagN(K + 32'd1)) u_inject_lookup (
    .clk_i, .rst_ni,
    .flush_i      (flush | init_q),
    .adv_i        (adv),
    .in_valid_i   (entv_q),
    .in_key_i     (ent_inj_q),
    .in_d_i       (ent_dst),
    .in_tag_i     ({ent_src, ent_sels, ent_dup_q}),
    .in_flags_i   (il_flags),
    .v_i          (v_q),
    .stage_valid_o(il_svalid),
    .stage_key_o  (il_skey),
    .stage_d_o    (il_sd),
    .out_valid_o  (il_valid),
    .out_d_o      (il_d),
    .out_tag_o    (il_tag),
    .out_view_o   (il_view),
    .out_conf_o   (il_conf)
  );
  logic dec_has, dec_miss;
  assign dec_has  = il_skey[K-1] & il_view & ~il_conf;    // inject d's message in this slot
  assign dec_miss = il_skey[K-1] & ~(il_view & ~il_conf); // an inject slot without a message
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      clr_en_q <= 1'b0;
      clr_hi_q <= '0;
    end else begin
      clr_en_q <= adv & dec_has;
      for (int unsigned i = 0; i < HiN; i++) begin
        clr_hi_q[i] <= adv & dec_has & ((il_d >> LoW) == NodeW'(i));
      end
    end
  end
  always_ff @(posedge clk_i) begin
    clr_d_q <= il_d;
    for (int unsigned i = 0; i < LoN; i++) clr_lo_q[i] <= (il_d[LoW-1:0] == LoW'(i));
  end

  // Send side: every accepted offer enters a lookup of its destination (the pipeline moves in
  // every cycle in which the park is empty). At the head, an offer whose view says free and that
  // conflicts with nothing commits; any other offer moves into the park, which stops the pipeline
  // and drops s_axis_tready from the next cycle on (both are the registered free_q, so no
  // decision drives a wide enable or the handshake). The parked offer looks its destination up
  // again (u_relookup, views taken after it was parked) and commits as soon as one says free.
  logic [K-1:0]       sl_svalid, sl_skey;
  logic [K*NodeW-1:0] sl_sd;
  logic [K+1:0]       sl_flags;
  logic               sl_valid, sl_view, sl_conf, rl_view;
  logic [NodeW-1:0]   sl_d;
  logic [W-1:0]       sl_data;
  logic               park_v, head_commit, park_commit;
  logic [NodeW-1:0]   park_d_q;
  logic [HiN-1:0]     park_hi_q;    // one-hot of park_d_q's high half
  logic [W-1:0]       park_data_q;
  logic [K-1:0]       park_age_q;   // park_age_q[j]: parked for more than j cycles
  for (genvar s = 0; s < K; s++) begin : gen_sl_flag
    assign sl_flags[s] = sl_svalid[s] && (sl_sd[s*NodeW +: NodeW] == s_axis_tdest);
  end
  assign sl_flags[K]     = park_v && (park_d_q == s_axis_tdest);
  assign sl_flags[K + 1] = set_en_q && (set_d_q == s_axis_tdest);
  totex_tdm_lookup #(.NodeW(NodeW), .TagW(W), .FlagN(K + 32'd2)) u_send_lookup (
    .clk_i, .rst_ni,
    .flush_i      (1'b0),
    .adv_i        (free_q),
    .in_valid_i   (s_axis_tvalid),
    .in_key_i     (1'b1),
    .in_d_i       (s_axis_tdest),
    .in_tag_i     (s_axis_tdata),
    .in_flags_i   (sl_flags),
    .v_i          (v_q),
    .stage_valid_o(sl_svalid),
    .stage_key_o  (sl_skey),
    .stage_d_o    (sl_sd),
    .out_valid_o  (sl_valid),
    .out_d_o      (sl_d),
    .out_tag_o    (sl_data),
    .out_view_o   (sl_view),
    .out_conf_o   (sl_conf)
  );
  // Outputs of the re-lookup other than the view are not needed (tied into unused_stage).
  logic [K-1:0]       rl_unused_sv, rl_unused_sk;
  logic [K*NodeW-1:0] rl_unused_sd;
  logic [NodeW-1:0]   rl_unused_d;
  logic               rl_unused_v, rl_unused_t, rl_unused_c;
  totex_tdm_lookup #(.NodeW(NodeW), .TagW(32'd1), .FlagN(32'd1)) u_relookup (
    .clk_i, .rst_ni,
    .flush_i      (1'b0),
    .adv_i        (1'b1),
    .in_valid_i   (1'b1),
    .in_key_i     (1'b0),
    .in_d_i       (park_d_q),
    .in_tag_i     (1'b0),
    .in_flags_i   (1'b0),
    .v_i          (v_q),
    .stage_valid_o(rl_unused_sv),
    .stage_key_o  (rl_unused_sk),
    .stage_d_o    (rl_unused_sd),
    .out_valid_o  (rl_unused_v),
    .out_d_o      (rl_unused_d),
    .out_tag_o    (rl_unused_t),
    .out_view_o   (rl_view),
    .out_conf_o   (rl_unused_c)
  );
  logic head_ok;
  assign head_ok     = sl_valid & ~sl_view & ~sl_conf;
  assign head_commit = ~park_v & head_ok;
  assign park_commit = park_v & park_age_q[K-1] & ~rl_view;
  assign s_axis_tready = free_q;
  // Kept as its complement (free_q) so that the pipeline's enable and s_axis_tready are a
  // flip-flop output with no inverter in front of the global buffer.
  logic free_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) free_q <= 1'b1;
    else         free_q <= free_q ? ~(sl_valid & (sl_view | sl_conf)) : (park_age_q[K-1] & ~rl_view);
  end
  assign park_v = ~free_q;
  // The park follows the head while it is free (enable free_q, the pipeline's own enable: no
  // further wide enable net) and freezes when it takes the head.
  always_ff @(posedge clk_i) begin
    if (free_q) begin
      park_d_q    <= sl_d;
      park_data_q <= sl_data;
      for (int unsigned i = 0; i < HiN; i++) park_hi_q[i] <= ((sl_d >> LoW) == NodeW'(i));
      park_age_q  <= '0;
    end else begin
      for (int unsigned j = 0; j < K; j++) park_age_q[j] <= (j == 0) ? 1'b1 : park_age_q[j - 1];
    end
  end

  // Commit (registered): the valid bit is set and the send buffer written at the end of the
  // next cycle.
  logic             sb_we_q;
  logic [NodeW-1:0] sb_waddr_q;
  logic [W-1:0]     sb_wdata_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      set_en_q <= 1'b0;
      set_hi_q <= '0;
      sb_we_q  <= 1'b0;
    end else begin
      set_en_q <= head_commit | park_commit;
      sb_we_q  <= head_commit | park_commit;
      for (int unsigned i = 0; i < HiN; i++) begin
        set_hi_q[i] <= park_v ? (park_age_q[K-1] & ~rl_view & park_hi_q[i])
                              : (head_ok & ((sl_d >> LoW) == NodeW'(i)));
      end
    end
  end
  always_ff @(posedge clk_i) begin
    set_d_q    <= park_v ? park_d_q : sl_d;
    sb_waddr_q <= park_v ? park_d_q : sl_d;
    sb_wdata_q <= park_v ? park_data_q : sl_data;
    for (int unsigned i = 0; i < LoN; i++) begin
      set_lo_q[i] <= park_v ? (park_d_q[LoW-1:0] == LoW'(i)) : (sl_d[LoW-1:0] == LoW'(i));
    end
  end

  // Send buffer: written after the commit, read at the decision (ahead of the executing slot).
  logic [W-1:0] sb_rdata;
  totex_tdm_ram #(.Depth(Nodes), .Width(W)) u_sendbuf (
    .clk_i,
    .we_i   (sb_we_q),
    .waddr_i(sb_waddr_q),
    .wdata_i(sb_wdata_q),
    .re_i   (adv),
    .raddr_i(il_d),
    .rdata_o(sb_rdata)
  );

  // ---------------------------------------------------------------------------------------------
  // Execute registers: one-hot selects of the slot executing next, decoded from the lookup's tag.
  // ---------------------------------------------------------------------------------------------
  logic [P*(P+1)-1:0] sel_d, sel_q;    // sel[o*(P+1) + i]: i < P forward input i, i == P inject
  logic [P-1:0]       ej_d, ej_q;
  logic [NodeW-1:0]   ejsrc_q;
  logic               has_q;
  logic [SelsW-1:0]   dsels;
  assign dsels = il_tag[1 +: SelsW];
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      for (int unsigned i = 0; i < P + 1; i++) begin
        sel_d[o*(P+1) + i] = il_valid && (dsels[o*SelW +: SelW] == SelW'(i + 32'd1));
      end
    end
    for (int unsigned i = 0; i < P; i++) begin
      ej_d[i] = il_valid && (dsels[P*SelW +: SelW] == SelW'(i + 32'd1));
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
    if (adv) ejsrc_q <= il_tag[1 + SelsW +: NodeW];
  end

  // ---------------------------------------------------------------------------------------------
  // Datapath: registered crossbar (AND-OR of one-hot selects), ejection register.
  // ---------------------------------------------------------------------------------------------
  logic [P-1:0]   out_valid_d, out_valid_q;
  logic [P*W-1:0] out_data_d, out_data_q;
  logic           m_valid_d, m_valid_q;
  logic [W-1:0]   m_data_d, m_data_q;
  logic [P-1:0]   left_d;
  // AND-OR selects written as a two-level tree (pairs of sources, then one OR), which is what
  // LUT4 mapping needs to stay at two levels; a sequential OR chain maps one level deeper.
  localparam int unsigned G = (P + 32'd2) / 32'd2;  // pairs of the P+1 sources of an output
  localparam int unsigned GE = (P + 32'd1) / 32'd2; // pairs of the P eject sources
  logic [P*G-1:0]  ov_t;
  logic [P*G*W-1:0] od_t;
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
          end else if (k == P) begin
            ov_t[o*G + g]          = ov_t[o*G + g] | (sel_q[o*(P+1) + P] & has_q);
            od_t[(o*G + g)*W +: W] = od_t[(o*G + g)*W +: W] | ({W{sel_q[o*(P+1) + P]}} & sb_rdata);
          end
        end
      end
      out_valid_d[o]       = |ov_t[o*G +: G];
      out_data_d[o*W +: W] = '0;
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
    m_valid_d = exec & (|mv_t);
    m_data_d  = '0;
    for (int unsigned g = 0; g < GE; g++) m_data_d = m_data_d | md_t[g*W +: W];
    for (int unsigned i = 0; i < P; i++) begin
      logic used;
      used = ej_q[i];
      for (int unsigned o = 0; o < P; o++) used = used | sel_q[o*(P+1) + i];
      left_d[i] = exec & in_valid_i[i] & ~used;
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
  logic             err_q, ea_q, eb_q, miss_q, miss_c_q;
  logic [P-1:0]     left_q;
  logic             err_overrun, err_early, err_lost, err_dup;
  assign err_overrun = m_valid_q & ~m_axis_tready;
  assign err_early   = run_i & ~primed_q;
  assign err_lost    = tbl_we_i & has_q;
  assign err_dup     = adv & il_valid & il_tag[0];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      missed_q <= '0;
      miss_q   <= 1'b0;
      miss_c_q <= 1'b0;
      err_q    <= 1'b0;
      ea_q     <= 1'b0;
      eb_q     <= 1'b0;
      left_q   <= '0;
    end else begin
      miss_q   <= adv & dec_miss;                       // registered: no wide enable
      // Two halves, the high one counting the low one's registered carry: short carry chains.
      // missed_o lags by one cycle after the low half wraps.
      {miss_c_q, missed_q[MissLoW-1:0]} <= {1'b0, missed_q[MissLoW-1:0]} + {{MissLoW{1'b0}}, miss_q};
      missed_q[MissW-1:MissLoW] <= missed_q[MissW-1:MissLoW] + {{(MissW - MissLoW - 32'd1){1'b0}}, miss_c_q};
      ea_q   <= err_overrun | err_early;
      eb_q   <= err_lost | err_dup;
      left_q <= left_d;
      err_q  <= err_q | ea_q | eb_q | (|left_q);
    end
  end
  assign missed_o = missed_q;
  assign error_o  = err_q;

  logic unused_stage;
  assign unused_stage = ^{il_svalid, sl_skey, rl_unused_sv, rl_unused_sk, rl_unused_sd, rl_unused_v,
                         rl_unused_d, rl_unused_t, rl_unused_c};

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
