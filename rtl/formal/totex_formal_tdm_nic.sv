// SPDX-License-Identifier: Apache-2.0
/// Formal wrapper (yosys-smtbmc, tests/formal): the TDM tile's NIC (rtl/tdm/totex_tdm_tile.sv,
/// docs/tdm-tile.md) neither drops, duplicates, invents nor reorders a message.
///
/// Black box: only the tile's ports are used (no hierarchical reference), so a rewrite of the NIC
/// inside the tile keeps this wrapper valid; every latency comes from totex_tdm_pkg.
///
/// The environment, as the contract allows it:
///   * reset in the first cycle; then the table is written through the tile's own write port,
///     slot 0 .. Depth-1 in cycles 1 .. Depth, from solver-chosen constants (anyconst: every legal
///     table at once). Loading through the port rather than an anyconst RAM: the table RAM's
///     contents are only reachable from outside through that port (the $readmemh image is fixed at
///     elaboration, and Yosys leaves a RAM without one free in the first state but unknown to this
///     wrapper). A legal entry: every select <= P+1, eject <= P, at most one injecting output.
///     period_last_i is another constant < Depth;
///   * run_i low for prime_cycles(NodeW) cycles after the last write, then run_i high, or low for
///     solver-chosen pauses (Pauses = 1);
///   * from cycle 1 on (also while loading and priming), solver-chosen offers on s_axis obeying
///     AXI4-Stream (tvalid stays high with the same tdata/tdest until accepted), only to
///     destinations that have a usable inject slot in the period (a message to any other
///     destination can never leave and blocks the NIC; "usable" below);
///   * tdata = {tdest, n}: n is the wrapper's count of messages accepted for tdest so far (mod
///     2^SeqW), so every outstanding message is distinguishable. The NIC does not look at the
///     payload (it only stores and moves it), so tying it to the sequence number loses nothing;
///   * input links: any flit, in any cycle, that the executing slot's entry forwards or ejects (a
///     flit nobody takes is a contract violation, error_o); m_axis_tready high.
///
/// The reference model: per destination d, acc[d] and inj[d] (messages accepted / injected, mod
/// 2^SeqW) and out[d] (accepted, not yet injected). The wrapper tracks the executing slot, so in
/// the first cycle after a cycle executing slot s it knows what each output must show: for the
/// output whose select is inject (P+1), a flit there is the injection of one message for the
/// entry's inject_dst, no flit a missed slot.
///
/// Asserted (every cycle after reset):
///   1. every injected flit carries {d, inj[d]} with out[d] > 0: a message accepted for d and not
///      yet injected, the oldest one (acceptance order per destination); so no message is
///      invented, duplicated, sent to the wrong destination or overtaken;
///   2. out[d] <= K + 3: one message decided for a slot that has not executed yet (run_i paused;
///      the first slot 0 is decided at the end of priming), one committed, one parked offer, K
///      offers in the lookup (K = lookup_stages(NodeW));
///   3. no loss, as bounded responses in executed cycles (T = period_last_i + 1; derivation in
///      docs/tdm-tile.md, "Formal proof"):
///      a. s_axis_tready is low for at most T + 2K + 4 executed cycles in a row (a parked offer
///         commits once its destination's slot has sent the committed message);
///      b. while out[d] > 0, an injection for d follows within T + 2K + 3 executed cycles with
///         s_axis_tready high, counted from the later of the acceptance and the last injection
///         for d. a and b together: while out[d] > 0, an injection for d follows within
///         (T + 2K + 5)^2 executed cycles, so every message is injected within
///         K + 3 times that (out[d] <= K + 3, oldest first): nothing accepted is lost;
///   4. forwarded flits, idle outputs, ejections (m_axis tvalid/tdata/tid) exactly as the entry
///      says, out_* holding during pauses, m_axis_tvalid low except after an executing cycle;
///   5. the low half of missed_o counts exactly the inject slots that sent nothing;
///   6. error_o stays low.
/// cover(): an injection, tready low (an offer parked), a missed inject slot, two messages to one
/// destination accepted back to back and both injected, out[d] = K + 3, an injection after a pause.
///
/// Mode: BMC from reset (tests/formal/run.sh), not k-induction: the induction step starts from any
/// state that satisfies the assertions for k cycles, and only invariants tying the reference
/// counts to the NIC's valid bits, lookup stages and park would exclude the unreachable ones; a
/// black-box wrapper cannot state them, and 3a/3b would need k beyond the response bounds (z3
/// already takes minutes per step past depth 16 here). The depths (14 to 24) cover reset, load,
/// priming and then two periods of the largest table (Depth 4) or several of the smaller one, and
/// let 3a/3b fail at T <= 2 in the deeper rows (docs/tdm-tile.md).
`default_nettype none

module totex_formal_tdm_nic #(
  parameter int unsigned NumPorts = 32'd1,
  parameter int unsigned NodeW    = 32'd2,
  /// Sequence bits of the payload: 2^SeqW >= 2 (K + 3), so neither a later outstanding message
  /// nor one of the last 2^SeqW - 1 sent ones looks like the one expected.
  parameter int unsigned SeqW     = 32'd3,
  parameter int unsigned Depth    = 32'd4,
  parameter int unsigned MissW    = 32'd4,
  /// 1: the solver may pause run_i after priming.
  parameter bit          Pauses   = 1'b1,
  /// 1: flits on the input links (forwarded, ejected); 0: links idle (a smaller problem).
  parameter bit          Links    = 1'b1,
  /// 1: offers only to destinations with a usable inject slot (below); 0: with any inject slot
  /// (fails: shows the unusable slots).
  parameter bit          UsableOnly = 1'b1,
  localparam int unsigned P        = NumPorts,
  localparam int unsigned W        = NodeW + SeqW,
  localparam int unsigned Nodes    = 32'd1 << NodeW,
  localparam int unsigned SelW     = totex_tdm_pkg::sel_width(NumPorts),
  localparam int unsigned EntryW   = totex_tdm_pkg::entry_width(NumPorts, NodeW),
  localparam int unsigned SlotW    = totex_pkg::idx_width(Depth),
  localparam int unsigned K        = totex_tdm_pkg::lookup_stages(NodeW),
  localparam int unsigned Prime    = totex_tdm_pkg::prime_cycles(NodeW),
  localparam int unsigned MaxOut   = K + 32'd3,
  localparam int unsigned CntW     = totex_pkg::idx_width(MaxOut + 32'd2),
  localparam int unsigned RunStart = Depth + Prime + 32'd1,   // first cycle run_i may be high
  localparam int unsigned PhW      = totex_pkg::idx_width(RunStart + 32'd1),
  localparam int unsigned StallW   = totex_pkg::idx_width(Depth + 32'd2 * K + 32'd6),
  localparam int unsigned MissLoW  = MissW / 32'd2
) (
  input logic                clk_i,
  input logic                rst_ni,
  /// run_i after priming when Pauses (else run_i is high from then on).
  input logic                run_req_i,
  /// A new offer (when none is pending) and its destination.
  input logic                offer_i,
  input logic [NodeW-1:0]    offer_dest_i,
  /// Input links.
  input logic [P-1:0]        in_valid_i,
  input logic [P*W-1:0]      in_data_i
);

  // Free constants: the table and the period.
  /* verilator lint_off UNDRIVEN */
  (* anyconst *) logic [Depth*EntryW-1:0] tbl_c;
  (* anyconst *) logic [SlotW-1:0]        plast_c;
  /* verilator lint_on UNDRIVEN */

  logic first = 1'b1;
  always_ff @(posedge clk_i) first <= 1'b0;
  always_comb assume (rst_ni == !first);

  // Entry fields of slot s.
  function automatic logic [EntryW-1:0] entry(input logic [Depth*EntryW-1:0] t,
                                              input logic [SlotW-1:0] s);
    entry = '0;
    for (int unsigned k = 0; k < Depth; k++) if (SlotW'(k) == s) entry = t[k*EntryW +: EntryW];
  endfunction
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [SelW-1:0] sel_of(input logic [EntryW-1:0] e, input int unsigned o);
    sel_of = e[o*SelW +: SelW];
  endfunction
  function automatic logic [NodeW-1:0] idst_of(input logic [EntryW-1:0] e);
    idst_of = e[(P + 32'd1)*SelW +: NodeW];
  endfunction
  function automatic logic [NodeW-1:0] esrc_of(input logic [EntryW-1:0] e);
    esrc_of = e[(P + 32'd1)*SelW + NodeW +: NodeW];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
  localparam logic [SelW-1:0] SEL_INJ = SelW'(P + 32'd1);
  /// Some of the K slots before slot s in the period (cyclically) injects destination d.
  function automatic logic inj_before(input logic [Depth*EntryW-1:0] t, input logic [SlotW-1:0] s,
                                      input logic [NodeW-1:0] d, input logic [SlotW-1:0] last);
    logic [SlotW-1:0]  p;
    logic [EntryW-1:0] e;
    inj_before = 1'b0;
    p          = s;
    for (int unsigned j = 0; j < K; j++) begin
      p = (p == '0) ? last : p - SlotW'(1);
      e = entry(t, p);
      for (int unsigned o = 0; o < P; o++) begin
        if (sel_of(e, o) == SEL_INJ && idst_of(e) == d) inj_before = 1'b1;
      end
    end
  endfunction

  // Legal table; which destinations have a usable inject slot in the period: one whose K
  // predecessors in the period (cyclically) do not inject the same destination. (The tile flags an
  // inject entry that enters its lookup behind an inject entry for the same destination and lets
  // it miss, whether or not the one ahead sends: a slot whose K predecessors include an inject
  // slot of its destination never sends anything, e.g. every slot when the period is at most K
  // slots with one inject slot. See docs/tdm-tile.md, "Formal proof".)
  logic [Nodes-1:0] has_slot;
  always_comb begin
    assume (32'(plast_c) < Depth);
    has_slot = '0;
    for (int unsigned s = 0; s < Depth; s++) begin
      logic [EntryW-1:0] e;
      int unsigned       ninj;
      e    = tbl_c[s*EntryW +: EntryW];
      ninj = 0;
      for (int unsigned o = 0; o < P; o++) begin
        assume (32'(sel_of(e, o)) <= P + 32'd1);
        if (sel_of(e, o) == SEL_INJ) begin
          ninj = ninj + 32'd1;
          if (SlotW'(s) <= plast_c && !(UsableOnly && inj_before(tbl_c, SlotW'(s), idst_of(e), plast_c))) begin
            for (int unsigned d = 0; d < Nodes; d++) if (idst_of(e) == NodeW'(d)) has_slot[d] = 1'b1;
          end
        end
      end
      assume (32'(sel_of(e, P)) <= P);
      assume (ninj <= 32'd1);
    end
  end

  // Phases: reset (cycle 0), load (cycles 1 .. Depth), priming, then running.
  logic [PhW-1:0]   ph_q;
  logic             loading, running, run, exec;
  logic [SlotW-1:0] ws_q;        // the slot the next executing cycle executes
  always_ff @(posedge clk_i) begin
    if (first) ph_q <= PhW'(1);
    else if (32'(ph_q) < RunStart) ph_q <= ph_q + PhW'(1);
  end
  assign loading = !first && 32'(ph_q) >= 32'd1 && 32'(ph_q) <= Depth;
  assign running = !first && 32'(ph_q) >= RunStart;
  assign run     = running && (!Pauses || run_req_i);
  assign exec    = run;
  always_ff @(posedge clk_i) begin
    if (first) ws_q <= '0;
    else if (exec) ws_q <= (ws_q == plast_c) ? '0 : ws_q + SlotW'(1);
  end
  logic [EntryW-1:0] ex_ent;
  assign ex_ent = entry(tbl_c, ws_q);

  // Input links: only flits the executing slot takes.
  always_comb begin
    for (int unsigned i = 0; i < P; i++) begin
      logic used;
      used = 32'(sel_of(ex_ent, P)) == i + 32'd1;
      for (int unsigned o = 0; o < P; o++) used = used || 32'(sel_of(ex_ent, o)) == i + 32'd1;
      if ((exec && !used) || !Links) assume (!in_valid_i[i]);
    end
  end

  // Offers: a pending offer stays until accepted (AXI4-Stream).
  logic             pend_q, tvalid, tready, accept;
  logic [NodeW-1:0] pdest_q, tdest;
  logic [W-1:0]     tdata;
  logic [Nodes*SeqW-1:0] acc_q, inj_q;
  logic [Nodes*CntW-1:0] out_q;
  assign tvalid = !first && (pend_q || offer_i);
  assign tdest  = pend_q ? pdest_q : offer_dest_i;
  always_comb begin
    tdata = '0;
    for (int unsigned d = 0; d < Nodes; d++) if (tdest == NodeW'(d)) tdata = {tdest, acc_q[d*SeqW +: SeqW]};
    if (tvalid) assume (has_slot[tdest]);
  end
  assign accept = tvalid && tready;
  always_ff @(posedge clk_i) begin
    if (first) pend_q <= 1'b0;
    else       pend_q <= tvalid && !tready;
    pdest_q <= tdest;
  end

  // The tile.
  logic [P-1:0]      out_valid;
  logic [P*W-1:0]    out_data;
  logic              m_tvalid;
  logic [W-1:0]      m_tdata;
  logic [NodeW-1:0]  m_tid;
  logic [MissW-1:0]  missed;
  logic              error;
  logic [SlotW-1:0]  tbl_addr;
  logic [EntryW-1:0] tbl_data;
  assign tbl_addr = SlotW'(ph_q - PhW'(1));
  assign tbl_data = entry(tbl_c, tbl_addr);
  totex_tdm_tile #(
    .NumPorts (NumPorts), .PayloadW (W), .NodeW (NodeW), .Depth (Depth), .TableFile (""),
    .MissW (MissW)
  ) u_tile (
    .clk_i, .rst_ni,
    .in_valid_i    (in_valid_i),
    .in_data_i     (in_data_i),
    .out_valid_o   (out_valid),
    .out_data_o    (out_data),
    .tbl_we_i      (loading),
    .tbl_addr_i    (tbl_addr),
    .tbl_data_i    (tbl_data),
    .run_i         (run),
    .period_last_i (plast_c),
    .s_axis_tvalid (tvalid),
    .s_axis_tready (tready),
    .s_axis_tdata  (tdata),
    .s_axis_tdest  (tdest),
    .m_axis_tvalid (m_tvalid),
    .m_axis_tready (1'b1),
    .m_axis_tdata  (m_tdata),
    .m_axis_tid    (m_tid),
    .missed_o      (missed),
    .error_o       (error)
  );

  // What the last cycle executed: checked in this cycle (obs_q).
  logic              obs_q;
  logic [EntryW-1:0] obs_ent_q;
  logic [P-1:0]      obs_inv_q, prev_ov_q;
  logic [P*W-1:0]    obs_ind_q, prev_od_q;
  logic              prev_ok_q;   // the previous cycle is after reset and loading began
  always_ff @(posedge clk_i) begin
    obs_q     <= !first && exec;
    obs_ent_q <= ex_ent;
    obs_inv_q <= in_valid_i;
    obs_ind_q <= in_data_i;
    prev_ov_q <= out_valid;
    prev_od_q <= out_data;
    prev_ok_q <= !first;
  end

  // The injection seen in this cycle, if any.
  logic             inj_slot, inj;
  logic [W-1:0]     inj_data;
  logic [NodeW-1:0] inj_d;
  always_comb begin
    inj_slot = 1'b0;
    inj      = 1'b0;
    inj_data = '0;
    for (int unsigned o = 0; o < P; o++) begin
      if (obs_q && sel_of(obs_ent_q, o) == SEL_INJ) begin
        inj_slot = 1'b1;
        inj      = out_valid[o];
        inj_data = out_data[o*W +: W];
      end
    end
    inj_d = idst_of(obs_ent_q);
  end

  // Reference model.
  logic [Nodes*StallW-1:0] stall_q;   // 3b: executed cycles with tready high since progress
  logic [StallW-1:0]       park_q;    // 3a: executed cycles with tready low in a row
  logic [MissLoW-1:0]      miss_q;
  logic [StallW-1:0]       stall_max, park_max;
  assign stall_max = StallW'(32'(plast_c) + 32'd1 + 32'd2 * K + 32'd3);
  assign park_max  = StallW'(32'(plast_c) + 32'd1 + 32'd2 * K + 32'd4);
  always_ff @(posedge clk_i) begin
    if (first) begin
      acc_q   <= '0;
      inj_q   <= '0;
      out_q   <= '0;
      stall_q <= '0;
      park_q  <= '0;
      miss_q  <= '0;
    end else begin
      for (int unsigned d = 0; d < Nodes; d++) begin
        logic a, j;
        a = accept && tdest == NodeW'(d);
        j = inj && inj_d == NodeW'(d);
        acc_q[d*SeqW +: SeqW] <= acc_q[d*SeqW +: SeqW] + SeqW'(a);
        inj_q[d*SeqW +: SeqW] <= inj_q[d*SeqW +: SeqW] + SeqW'(j);
        out_q[d*CntW +: CntW] <= out_q[d*CntW +: CntW] + CntW'(a) - CntW'(j);
        if (j || out_q[d*CntW +: CntW] == '0) stall_q[d*StallW +: StallW] <= '0;
        else if (exec && tready) stall_q[d*StallW +: StallW] <= stall_q[d*StallW +: StallW] + StallW'(1);
      end
      if (tready) park_q <= '0;
      else if (exec) park_q <= park_q + StallW'(1);
      if (inj_slot && !inj) miss_q <= miss_q + MissLoW'(1);
    end
  end

  // Properties.
  always_comb begin
    if (!first) begin
      assert (!error);
      // 1. Injections: the oldest outstanding message of that destination.
      for (int unsigned d = 0; d < Nodes; d++) begin
        if (inj && inj_d == NodeW'(d)) begin
          assert (out_q[d*CntW +: CntW] != '0);
          assert (inj_data == {NodeW'(d), inj_q[d*SeqW +: SeqW]});
        end
        // 2. Bounded number outstanding.  3. Bounded response.
        assert (32'(out_q[d*CntW +: CntW]) <= MaxOut);
        assert (stall_q[d*StallW +: StallW] <= stall_max);
      end
      assert (park_q <= park_max);
      // 4. Links, ejection, pauses.
      if (obs_q) begin
        for (int unsigned o = 0; o < P; o++) begin
          if (sel_of(obs_ent_q, o) == '0) assert (!out_valid[o]);
          for (int unsigned i = 0; i < P; i++) begin
            if (32'(sel_of(obs_ent_q, o)) == i + 32'd1) begin
              assert (out_valid[o] == obs_inv_q[i]);
              if (obs_inv_q[i]) assert (out_data[o*W +: W] == obs_ind_q[i*W +: W]);
            end
          end
        end
        assert (m_tvalid == (sel_of(obs_ent_q, P) != '0 && |(obs_inv_q & (P'(1) << (sel_of(obs_ent_q, P) - SelW'(1))))));
        for (int unsigned i = 0; i < P; i++) begin
          if (32'(sel_of(obs_ent_q, P)) == i + 32'd1 && obs_inv_q[i]) begin
            assert (m_tdata == obs_ind_q[i*W +: W]);
            assert (m_tid == esrc_of(obs_ent_q));
          end
        end
        // 5. Missed slots, this one included (the low half is exact here; the high half takes its
        // carry later).
        assert (missed[MissLoW-1:0] == miss_q + MissLoW'(inj_slot && !inj));
      end else begin
        assert (!m_tvalid);
        if (prev_ok_q) assert (out_valid == prev_ov_q && out_data == prev_od_q);
      end
    end
  end

  logic unused_missed_hi;
  assign unused_missed_hi = ^missed[MissW-1:MissLoW];

  // Not vacuous.
  logic             acc_prev_q, inj_seen_q, paused_q;
  logic [NodeW-1:0] acc_prev_d_q;
  logic [Nodes-1:0] two_q;   // two messages for d accepted back to back
  always_ff @(posedge clk_i) begin
    acc_prev_q   <= !first && accept;
    acc_prev_d_q <= tdest;
    if (first) begin
      two_q      <= '0;
      inj_seen_q <= 1'b0;
      paused_q   <= 1'b0;
    end else begin
      for (int unsigned d = 0; d < Nodes; d++) begin
        if (accept && acc_prev_q && tdest == NodeW'(d) && acc_prev_d_q == NodeW'(d)) two_q[d] <= 1'b1;
      end
      if (inj) inj_seen_q <= 1'b1;
      if (running && !run && inj_seen_q) paused_q <= 1'b1;
    end
  end
  always_comb begin
    if (!first) begin
      cover (inj);
      cover (running && !tready);
      cover (inj_slot && !inj && acc_q != '0);
      cover (inj && two_q[inj_d] && inj_q[inj_d*SeqW +: SeqW] == SeqW'(1));
      cover (32'(out_q[0 +: CntW]) == MaxOut);
      cover (inj && paused_q);
    end
  end

endmodule
