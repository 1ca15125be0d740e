// SPDX-License-Identifier: Apache-2.0
/// The slot pipeline of a TDM tile (docs/tdm-tile.md): slot counter, slot table in block RAM read
/// one slot ahead, and the two entry registers behind it, with the load and priming control: part
/// of the shell (totex_tdm_shell) of all three tiles (nic, all-port, single-port).
///
/// After reset and after a table write: 2**NodeW load cycles (the slot counter takes
/// period_last_i), then four priming advances (table read, pre_o, ent_o, the tile's decision
/// register), so that the first slot's decision is made PrimeCycles = 2**NodeW + 4 cycles after
/// reset or the last table write. Then the pipeline advances exactly in the cycles with run_i high.
/// pre_o is the entry of the slot after the one in ent_o; ent_o is the entry decided in this cycle
/// (the slot that executes next).
`default_nettype none

module totex_tdm_slot_pipe #(
  /// Bits of a node id: the load lasts 2**NodeW cycles (the NIC's clearing sweep after reset).
  parameter int unsigned NodeW = 32'd6,
  /// Slots the table holds.
  parameter int unsigned Depth = 32'd128,
  /// Bits of a table entry.
  parameter int unsigned EntryW = 32'd27,
  /// $readmemh image of the slot table; "" = none.
  parameter TableFile = "",
  /// Copies of the advance enable for the tile's registers (adv_o), each for at most AdvLoads.
  parameter int unsigned AdvCopies = 32'd1,
  /// 1: a shadow bank and the swap (above).
  parameter bit Shadow = 1'b0,
  /// Bits of a period number (Shadow): periods are numbered modulo 2**PerW, and an arm names one
  /// of the next 2**(PerW-1) - 1 periods.
  parameter int unsigned PerW = 32'd8,
  /// Enable loads per copy of adv (totex_tdm_pkg::ADV_LOADS); do not overwrite.
  localparam int unsigned AdvLoads = totex_tdm_pkg::ADV_LOADS,
  /// Bits of a slot number; do not overwrite.
  localparam int unsigned SlotW = totex_pkg::idx_width(Depth)
) (
  /// Clock, rising edge.
  input  logic              clk_i,
  /// Asynchronous active-low reset.
  input  logic              rst_ni,
  /// Slots execute while high.
  input  logic              run_i,
  /// Period minus one.
  input  logic [SlotW-1:0]  period_last_i,
  /// Table write enable (restarts the load and priming; Shadow: swap the banks now, no write).
  input  logic              tbl_we_i,
  /// Table write address.
  input  logic [SlotW-1:0]  tbl_addr_i,
  /// Table write data.
  input  logic [EntryW-1:0] tbl_data_i,
  /// Shadow: write of the shadow bank (any time), slot and entry.
  input  logic              sh_we_i,
  input  logic [SlotW-1:0]  sh_addr_i,
  input  logic [EntryW-1:0] sh_data_i,
  /// Shadow: arm the swap into period arm_per_i.
  input  logic              arm_i,
  input  logic [PerW-1:0]   arm_per_i,
  /// Shadow: the active bank, a swap armed, the armed period passed without a swap, and the
  /// number of the period whose slot 0 the next wrap fetches (0 without Shadow).
  output logic              bank_o,
  output logic              armed_o,
  output logic              late_o,
  output logic [PerW-1:0]   next_per_o,
  /// The pipeline moves at this edge: AdvCopies equal copies, each an enable only (one LUT).
  output logic [AdvCopies-1:0] adv_o,
  /// Priming has ended (run_i may rise).
  output logic              primed_o,
  /// run_i | ~primed_o: the tile reads the next slot's NIC state (else it rereads ent_o's).
  output logic              look_next_o,
  /// The table's block-RAM output: the entry pre_o takes at the next advance.
  output logic [EntryW-1:0] rd_o,
  /// Entry of the slot after ent_o's (registered block-RAM output).
  output logic [EntryW-1:0] pre_o,
  /// pre_o holds a table entry (ent_o will at the next advance).
  output logic              prev_o,
  /// Entry decided in this cycle.
  output logic [EntryW-1:0] ent_o,
  /// ent_o holds a table entry (set by the priming advances, cleared by a table write).
  output logic              entv_o
);

  localparam int unsigned Prime = 32'd5;    // priming advances + 1 (table read, pre, entry, decision)
  localparam int unsigned PcW = totex_pkg::idx_width(Prime + 32'd1);
  // Copies of adv for the pipeline's own enables: the table's read enable, then pre_q and ent_q
  // bit by bit, AdvLoads per copy.
  localparam int unsigned OwnCopies = 32'd1 + (32'd2 * EntryW + AdvLoads - 32'd1) / AdvLoads;
  localparam int unsigned Copies = OwnCopies + AdvCopies;

  logic             flush, init_q, primed_q, prm_q, primes;
  logic [PcW-1:0]   pc_q;
  // The load count (1 .. 2**NodeW - 1, then done): load_done_q is a flip-flop of its own, set as
  // the count wraps (a compare of flip-flops, not the end of the count's carry chain, which was
  // the UP5K's critical path in some placements).
  logic [NodeW-1:0] load_cnt_q;
  logic             load_done_q, load_full;
  if (Shadow) begin : gen_full_q
    // The ctl tile: "the count is all ones" a flip-flop, set a cycle ahead from the compare with
    // all ones but one, so that tbl_we_i (swap now, a route across the tile from the control port)
    // meets load_done_q's LUT only and the count's compare is off that LUT: as a kept net of the
    // count (since 921e699) the compare's two LUT levels and load_done_q's were the UP5K's critical
    // path (b95c39e, heap 2: 88.1 MHz). The count moves exactly when !load_done_q and no flush.
    localparam logic [NodeW-1:0] Pen = ~NodeW'(1);   // all ones but bit 0: the count before all ones
    localparam bit FullAtReset = NodeW == 32'd1;      // the count starts at 1 = all ones
    logic full_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) full_q <= FullAtReset;
      else if (flush) full_q <= FullAtReset;
      else if (!load_done_q) full_q <= load_cnt_q == Pen;
    end
    assign load_full = full_q;
  end else begin : gen_full
    assign load_full = load_cnt_q == '1;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      load_cnt_q  <= NodeW'(1);
      load_done_q <= 1'b0;
    end else if (flush) begin
      load_cnt_q  <= NodeW'(1);
      load_done_q <= 1'b0;
    end else if (!load_done_q) begin
      load_cnt_q  <= load_cnt_q + NodeW'(1);
      load_done_q <= load_full;
    end
  end
  logic [SlotW-1:0] f_q;            // slot fetched next
  logic             f_last;         // f_q is the period's last: the next step wraps
  assign flush = tbl_we_i;
  assign primes = pc_q == PcW'(Prime - 32'd2);   // the last priming advance

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
      init_q <= ~load_done_q;   // one cycle longer than the count
      prm_q  <= load_done_q & ~primed_q & ~(!init_q && primes);
      if (!init_q && !primed_q) begin
        pc_q     <= pc_q + PcW'(1);
        primed_q <= primes;
      end
    end
  end

  // The slot pipeline moves at this edge: (run_i | ~primed_q) & ~init_q & ~flush, written with
  // prm_q = ~primed_q & ~init_q (primed_q implies ~init_q) so that it is one LUT. adv is only ever
  // an enable, never logic (the decision flags that need it use a flip-flop of adv, one cycle
  // later). A slot executes in a cycle with run_i & primed_q; the tiles' datapaths take run_i
  // alone for that (the same under the contract: run_i high before priming ends is an error), so
  // that no other logic shares adv's AND.
  // adv comes in copies of at most AdvLoads enables each: nextpnr promotes an enable net of more
  // than 15 loads to a global buffer, and the route to the buffer plus the buffer (UP5K about
  // 3.0 + 1.6 ns, HX8K 1.9-2.9 + 0.6 ns) were the tile's critical path. Each copy has its own
  // flip-flop copy of primed_q (kept: Yosys merges equal flip-flops, then equal LUTs).
  logic [Copies-1:0] adv, primed_c;
  for (genvar c = 0; c < Copies; c++) begin : g_adv
    (* keep *) always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) primed_c[c] <= 1'b0;
      else if (flush) primed_c[c] <= 1'b0;
      else if (!init_q && !primed_q) primed_c[c] <= primes;
    end
    assign adv[c] = ((run_i & primed_c[c]) | prm_q) & ~flush;
  end

  // The counter's step is run_i | ~primed_q (one LUT from an input and a flip-flop, as in the
  // crossbar): it also steps in a flush cycle, harmless as init_q reloads it next.
  totex_tdm_slot_counter #(.SlotW(SlotW)) u_slot (
    .clk_i,
    .load_i       (init_q),
    .step_i       (run_i | ~primed_q),
    .period_last_i,
    .slot_o       (f_q),
    .last_o       (f_last)
  );

  // Slot table: block RAM read at every advance, then two entry registers: pre_q (so that no
  // block-RAM output drives another block RAM's address through a LUT: the NIC's toggle bits are
  // read at pre_q's inject destination) and ent_q.
  logic [EntryW-1:0] tbl_rdata, pre_q, ent_q;
  logic              rdv_q, prev_q, entv_q;
  if (Shadow) begin : gen_shadow
    // Two banks of 2**SlotW words: bank_q is the top address bit of every read, its complement
    // of every write. The swap: at a wrap of the fetch counter (a step at its last slot, f_last a
    // flip-flop of the counter) with hit_q, or at tbl_we_i. hit_q is registered (armed, primed,
    // not loading, and the period starting at the next wrap is the armed one): nxt_q and arm_q
    // change at most every other cycle. So bank_q's enable is one LUT of flip-flops and inputs
    // (tbl_we_i, hit_q, f_last, run_i: after priming a step is run_i); armed_q clears one cycle
    // after the swap (swap_q). nxt_q moves one cycle after a wrap, eq_q one cycle after that and
    // hit_q one more, in time for the next wrap with periods of 4 slots or more.
    localparam int unsigned Words = 32'd2 << SlotW;
    logic            bank_q, armed_q, hit_q, late_q, behind_q, arm_d_q, arm_dd_q, swap_q, wrap_q, eq_q;
    // bank_q's enable as one kept LUT of its own, the armed swap (swap_q) derived from it, so that
    // no other LUT shares hit_q & f_last & run_i (Yosys then fed the enable from that shared LUT:
    // two levels from run_i, the critical path of UP5K and HX8K placements).
    (* keep *) logic bank_en;
    assign bank_en = flush | (hit_q & f_last & run_i);
    logic [PerW-1:0] nxt_q, arm_q, ahead, nxt_s_q, arm_s_q;
    // The late flag's subtraction from copies of its operands, so that its carry chain starts at
    // flip-flops of its own (placed beside it): from nxt_q itself a 3.6 ns route came in front of
    // the 8-bit chain, the UP5K's critical path (7fbe4c3, heap 1: 87.8 MHz).
    assign ahead = arm_s_q - nxt_s_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        bank_q   <= 1'b0;
        armed_q  <= 1'b0;
        hit_q    <= 1'b0;
        eq_q     <= 1'b0;
        late_q   <= 1'b0;
        behind_q <= 1'b0;
        arm_d_q  <= 1'b0;
        arm_dd_q <= 1'b0;
        swap_q   <= 1'b0;
        wrap_q   <= 1'b0;
        nxt_q    <= PerW'(1);
        arm_q    <= '0;
      end else begin
        if (bank_en) bank_q <= ~bank_q;
        swap_q <= bank_en & ~flush;
        // The period count moves one cycle after the wrap (wrap_q), off run_i's paths.
        wrap_q <= f_last & (run_i | ~primed_q) & ~init_q;
        if (init_q) nxt_q <= PerW'(1);
        else if (wrap_q) nxt_q <= nxt_q + PerW'(1);
        if (arm_i) begin
          armed_q <= 1'b1;
          arm_q   <= arm_per_i;
        end else if (flush || swap_q) begin
          armed_q <= 1'b0;
        end
        // The period compare registered on its own (eq_q, two LUT levels), then hit_q from it and
        // the flags (two more): hit_q from the compare directly was three levels after nxt_q's
        // route, the UP5K's critical path (86.7 MHz heap 1). hit_q is new two cycles after nxt_q
        // or arm_q changes (arm_d_q masks the cycle in which eq_q is still the old arm's): in time
        // for the next wrap with periods of 4 slots or more.
        eq_q  <= nxt_q == arm_q;
        hit_q <= armed_q & ~arm_i & ~arm_d_q & ~flush & ~init_q & primed_q & eq_q;
        // Late: the armed period is behind the next one (modulo 2**PerW, half the range ahead
        // counts as ahead); the operands copied, then the difference's sign registered (its
        // carry chain alone), so it is the new arm's from the third cycle after arm_i (arm_dd_q).
        behind_q <= ahead[PerW-1];
        arm_d_q  <= arm_i;
        arm_dd_q <= arm_d_q;
        late_q   <= armed_q & ~arm_i & ~arm_d_q & ~arm_dd_q & behind_q;
      end
    end
    always_ff @(posedge clk_i) begin
      nxt_s_q <= nxt_q;
      arm_s_q <= arm_q;
    end
    totex_tdm_ram #(.Depth(Words), .Width(EntryW), .InitFile(TableFile)) u_table (
      .clk_i,
      .we_i   (sh_we_i),
      .waddr_i({~bank_q, sh_addr_i}),
      .wdata_i(sh_data_i),
      .re_i   (adv[0]),
      .raddr_i({bank_q, f_q}),
      .rdata_o(tbl_rdata)
    );
    assign bank_o     = bank_q;
    assign armed_o    = armed_q;
    assign late_o     = late_q;
    assign next_per_o = nxt_q;
    // Waiver: with Shadow, tbl_we_i only swaps; its address and data are not used.
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_tbl;
    assign unused_tbl = ^{tbl_addr_i, tbl_data_i};
    /* verilator lint_on UNUSEDSIGNAL */
  end else begin : gen_single_bank
    totex_tdm_ram #(.Depth(Depth), .Width(EntryW), .InitFile(TableFile)) u_table (
      .clk_i,
      .we_i   (tbl_we_i),
      .waddr_i(tbl_addr_i),
      .wdata_i(tbl_data_i),
      .re_i   (adv[0]),
      .raddr_i(f_q),
      .rdata_o(tbl_rdata)
    );
    assign bank_o     = 1'b0;
    assign armed_o    = 1'b0;
    // Waiver: without Shadow nothing uses the last-slot flag.
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_last;
    assign unused_last = f_last;
    /* verilator lint_on UNUSEDSIGNAL */
    assign late_o     = 1'b0;
    assign next_per_o = '0;
    // Waiver: without Shadow there is no shadow bank and no armed swap.
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_shadow;
    assign unused_shadow = ^{sh_we_i, sh_addr_i, sh_data_i, arm_i, arm_per_i};
    /* verilator lint_on UNUSEDSIGNAL */
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
  for (genvar b = 0; b < EntryW; b++) begin : g_ent
    always_ff @(posedge clk_i) begin
      if (adv[32'd1 + b / AdvLoads]) pre_q[b] <= tbl_rdata[b];
      if (adv[32'd1 + (EntryW + b) / AdvLoads]) ent_q[b] <= pre_q[b];
    end
  end

  assign adv_o       = adv[Copies-1:OwnCopies];
  assign primed_o    = primed_q;
  assign look_next_o = run_i | ~primed_q;
  assign rd_o        = tbl_rdata;
  assign pre_o       = pre_q;
  assign prev_o      = prev_q;
  assign ent_o       = ent_q;
  assign entv_o      = entv_q;

endmodule
