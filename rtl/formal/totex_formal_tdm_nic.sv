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
///   * from cycle 1 on (also during the reset sweep, loading and priming), solver-chosen offers on
///     s_axis obeying AXI4-Stream (tvalid stays high with the same tdata/tdest until accepted),
///     only to destinations that have an inject slot in the period (a message to any other
///     destination can never leave and blocks the NIC). Every inject slot counts: the toggle-bit
///     tile (e50dca4) lets a slot miss only when one of the two slots decided before it sent to
///     the same destination, so no slot is unusable (the first tile's K-predecessor rule, which
///     starved periods <= K, is gone: this environment is the old UsableOnly = 0);
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
/// Latencies. totex_tdm_pkg gives prime_cycles(NodeW) (2^NodeW + 4: the reset sweep and priming),
/// used as is. It has no function for the NIC's own latencies, so the bounds below are derived
/// from the cycle contract of docs/tdm-tile.md ("Cycle contract", "Interface changes"), whose
/// numbers are the constants of this wrapper:
///   * an offer accepted at the end of cycle a is placed in a + 1 (HeadLag = 1): committed at the
///     end of a + 1 if its entry is free, else parked (tready low from a + 2); a parked offer
///     commits at the end of the first cycle whose read (taken at the edge before) shows the entry
///     free; tready is high again two cycles after the commit cycle when an offer waits behind the
///     parked one (ParkExit = 2);
///   * a message committed at the end of c goes out in the first slot of its destination that
///     executes at E >= c + 3 (InjLag = 3), unless one of the two slots decided before it sent to
///     the same destination (Shadow = 2); R[d] flips at the end of E (the cycle after the
///     decision), a parked offer reads it at the end of E + 1 and commits at the end of E + 2;
///   * missed_o counts a decision MissLag = 1 cycle after it is made (docs, "Interface changes"
///     1; 005bd6c, e50dca4 had 2): the slot executing in E is decided at the end of E - 1 or
///     earlier, the next slot at the end of E or later, so missed_o in cycle E + MissLag counts
///     exactly the slots executed up to E (the check is written for any MissLag >= 1).
///
/// Asserted (every cycle after reset):
///   1. every injected flit carries {d, inj[d]} with out[d] > 0: a message accepted for d and not
///      yet injected, the oldest one (acceptance order per destination); so no message is
///      invented, duplicated, sent to the wrong destination or overtaken;
///   2. out[d] <= MaxOut = 4: one message decided for a slot that has not executed yet (the R flip
///      comes the cycle after the decision, also in a pause, and frees the entry), one committed,
///      one parked, one at the head (accepted in the cycle the parked one was placed);
///   3. no loss, as bounded responses in executed cycles (T = period_last_i + 1):
///      a. s_axis_tready is low for at most T + 5 executed cycles in a row. An offer parks (placed
///         in p = a + 1, tready low from a + 2) behind d's committed message, committed at the end
///         of c <= a (by the previous head at the latest); that message goes out at E <= c + 2 + T
///         (InjLag, then at most T - 1 slots to d's next; the Shadow rule cannot delay it: the
///         message before it flipped R at least 5 cycles before E), R flips at the end of E, the
///         park commits at the end of E + 2 and tready is high from E + 5 (ParkExit with an offer
///         behind): low a + 2 .. E + 4, at most T + 5 cycles;
///      b. while out[d] > 0, an injection for d follows within T + 3 executed cycles with
///         s_axis_tready high, counted from the later of the acceptance and the last injection
///         for d (seen at E + 1): the next message commits by the end of E + 2 (parked: read at
///         E + 1) or, at the head, in the cycle it is placed (tready high from then, cycles with
///         tready low not counted), goes out at the first slot of d at >= c + 3 (the two slots
///         after E do not matter there), within T - 1 more slots: E' <= E + 4 + T, counted
///         cycles E + 2 .. E' (at the head behind another destination's park: placed at x + 3,
///         E' <= x + 5 + T, counted x + 3 .. E'). a and b together: while out[d] > 0, an
///         injection for d follows within (T + 4)(T + 6) executed cycles, so every message is
///         injected within MaxOut times that (oldest first): nothing accepted is lost;
///   4. forwarded flits, idle outputs, ejections (m_axis tvalid/tdata/tid) exactly as the entry
///      says, out_* holding during pauses, m_axis_tvalid low except after an executing cycle;
///   5. the low half of missed_o counts exactly the inject slots that sent nothing (checked
///      MissLag cycles after each executing cycle);
///   6. error_o stays low.
/// cover(): an injection, tready low (an offer parked), a missed inject slot, two messages to one
/// destination accepted back to back and both injected, out[d] = MaxOut, an injection after a
/// pause.
///
/// Mode: BMC from reset (tests/formal/run.sh), not k-induction: the induction step starts from any
/// state that satisfies the assertions for k cycles, and only invariants tying the reference
/// counts to the NIC's toggle bits, head and park would exclude the unreachable ones; a
/// black-box wrapper cannot state them, and 3a/3b would need k beyond the response bounds. The
/// depths are in tests/formal/run.sh and docs/tdm-tile.md ("Formal proof").
`default_nettype none

module totex_formal_tdm_nic #(
  parameter int unsigned NumPorts = 32'd1,
  parameter int unsigned NodeW    = 32'd2,
  /// Sequence bits of the payload: 2^SeqW >= 2 MaxOut, so neither a later outstanding message
  /// nor one of the last 2^SeqW - 1 sent ones looks like the one expected.
  parameter int unsigned SeqW     = 32'd3,
  parameter int unsigned Depth    = 32'd4,
  parameter int unsigned MissW    = 32'd4,
  /// 1: the solver may pause run_i after priming.
  parameter bit          Pauses   = 1'b1,
  /// 1: flits on the input links (forwarded, ejected); 0: links idle (a smaller problem).
  parameter bit          Links    = 1'b1,
  /// The tile's BitsInFlops: 0 toggle bits in block RAM (the default), 1 in flip-flops (the board).
  parameter bit          BitsInFlops = 1'b0,
  localparam int unsigned P        = NumPorts,
  localparam int unsigned W        = NodeW + SeqW,
  localparam int unsigned Nodes    = 32'd1 << NodeW,
  localparam int unsigned SelW     = totex_tdm_pkg::sel_width(NumPorts),
  localparam int unsigned EntryW   = totex_tdm_pkg::entry_width(NumPorts, NodeW),
  localparam int unsigned SlotW    = totex_pkg::idx_width(Depth),
  localparam int unsigned Prime    = totex_tdm_pkg::prime_cycles(NodeW),
  // The NIC's latencies from the cycle contract (header): the bounds of checks 2, 3a, 3b, 5.
  localparam int unsigned HeadLag  = 32'd1,   // accepted at the end of a, placed in a + 1
  localparam int unsigned InjLag   = 32'd3,   // committed at the end of c, injected at E >= c + 3
  localparam int unsigned ParkExit = 32'd2,   // tready high 2 cycles after the park's commit cycle
  localparam int unsigned MissLag  = 32'd1,   // missed_o counts a decision 1 cycle after it
  /// Decided (slot not executed yet), committed, parked, head.
  localparam int unsigned MaxOut   = 32'd3 + HeadLag,
  /// 3b: T + 3 (E' <= E + 4 + T, counted from E + 2).
  localparam int unsigned StallAdd = InjLag,
  /// 3a: T + 5 (low a + 2 .. E + 4 with E <= a + 2 + T).
  localparam int unsigned ParkAdd  = InjLag + ParkExit,
  localparam int unsigned CntW     = totex_pkg::idx_width(MaxOut + 32'd2),
  localparam int unsigned RunStart = Depth + Prime + 32'd1,   // first cycle run_i may be high
  localparam int unsigned PhW      = totex_pkg::idx_width(RunStart + 32'd1),
  localparam int unsigned StallW   = totex_pkg::idx_width(Depth + ParkAdd + 32'd2),
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
  // Legal table; which destinations have an inject slot in the period (any such slot can send:
  // header).
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
          if (SlotW'(s) <= plast_c) begin
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
  // Waiver: one message per destination (QueueDepth 1): m_axis_tlast is constant high.
  /* verilator lint_off UNUSEDSIGNAL */
  logic              m_tlast;
  /* verilator lint_on UNUSEDSIGNAL */
  assign tbl_addr = SlotW'(ph_q - PhW'(1));
  assign tbl_data = entry(tbl_c, tbl_addr);
  totex_tdm_tile #(
    .NumPorts (NumPorts), .PayloadW (W), .NodeW (NodeW), .Depth (Depth), .TableFile (""),
    .MissW (MissW), .BitsInFlops (BitsInFlops)
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
    .m_axis_tlast  (m_tlast),
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
  assign stall_max = StallW'(32'(plast_c) + 32'd1 + StallAdd);
  assign park_max  = StallW'(32'(plast_c) + 32'd1 + ParkAdd);
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

  // Check 5's expectation: cnt_now = inject slots executed up to the last cycle that sent nothing
  // (the slot observed in this cycle included); delayed MissLag - 1 cycles, with the flag "the
  // cycle MissLag ago executed a slot".
  logic [MissLoW-1:0]         cnt_now, mexp;
  logic                       mchk;
  assign cnt_now = miss_q + MissLoW'(inj_slot && !inj);
  if (MissLag > 32'd1) begin : gen_mlag
    logic [(MissLag-1)*MissLoW-1:0] mh_q;
    logic [MissLag-2:0]             mf_q;
    always_ff @(posedge clk_i) begin
      mh_q[0 +: MissLoW] <= cnt_now;
      mf_q[0]            <= !first && obs_q;
      for (int unsigned k = 1; k < MissLag - 1; k++) begin
        mh_q[k*MissLoW +: MissLoW] <= mh_q[(k-1)*MissLoW +: MissLoW];
        mf_q[k]                    <= !first && mf_q[k-1];
      end
    end
    assign mexp = mh_q[(MissLag-2)*MissLoW +: MissLoW];
    assign mchk = mf_q[MissLag-2];
  end else begin : gen_mnow
    assign mexp = cnt_now;
    assign mchk = obs_q;
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
      end else begin
        assert (!m_tvalid);
        if (prev_ok_q) assert (out_valid == prev_ov_q && out_data == prev_od_q);
      end
      // 5. Missed slots: MissLag cycles after a slot executed, missed_o counts every slot executed
      // up to it (the low half is exact here; the high half takes its carry later).
      if (mchk) assert (missed[MissLoW-1:0] == mexp);
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
