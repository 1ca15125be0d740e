// SPDX-License-Identifier: Apache-2.0
/// AXI4-Lite control port of a TDM tile (docs/tdm-tile.md, "Control port and table swap"): status,
/// the missed and error counters, per-input-link error counters, table writes into the shadow bank
/// and the swap command. One slave, 32-bit data, byte addresses of AddrW bits.
///
/// Register map (word offsets; addr[AddrW-1] = 0):
///   0x00 STATUS  (ro) [0] error_i (sticky), [1] active bank, [2] swap armed, [3] armed period
///                     already passed (late: the swap will not happen), [31:16] the number of the
///                     period whose slot 0 is fetched next (PerW bits; totex_tdm_slot_pipe)
///   0x04 MISSED  (ro) missed_i (zero-extended)
///   0x08 CTRL    (wo) [0] swap now (flip the bank and restart priming; only while run_i is low),
///                     [1] arm: swap at the boundary into period [16 +: PerW] (every tile armed with the
///                     same number switches at the same boundary)
///                (ro) [2] armed, [31:16] the last armed period
///   0x0C TBL_HI  (rw) entry bits 32 and up of the next table-window write (EntryW > 32 only)
///   0x10 INFO    (ro) [7:0] NumPorts, [15:8] EntryW, [23:16] SlotW
///   0x20 + 4 i   (ro) error counter of input link i (CntW bits, wraps): a flit on the link that
///                     the executing slot does not take (its valid bit set where the table has none)
/// Table window (addr[AddrW-1] = 1): a write to byte address 4 * s writes {TBL_HI, wdata} into
/// slot s of the shadow bank (one write per slot; reads return 0).
///
/// Handshakes: AW and W are taken together (awready = wready, high when both are valid and no
/// response waits or it is taken in this cycle), so one write per cycle at most and one B
/// response outstanding at most (bvalid in the next cycle); the shadow write is made in the next
/// cycle, a register's update one cycle later; the swap / arm pulse is a LUT of flip-flops in the
/// next cycle (the tile registers it). AR is taken when no read is outstanding (arready a
/// flip-flop, high exactly then, before arvalid), R comes two
/// cycles later (one read per three cycles at most) with the tile's status inputs as of the AR
/// cycle and the port's own registers as of the next. bvalid/rvalid stay
/// high, and rdata stable, until taken. BRESP and RRESP are OKAY; WSTRB and the PROT fields are ignored
/// (whole-word writes). Proved in rtl/formal/totex_formal_axil.sv.
`default_nettype none

module totex_tdm_axil #(
  /// Input links of the tile.
  parameter int unsigned NumPorts = 32'd4,
  /// Bits of a slot number.
  parameter int unsigned SlotW = 32'd7,
  /// Bits of a table entry (up to 64).
  parameter int unsigned EntryW = 32'd27,
  /// Bits of missed_i (up to 32).
  parameter int unsigned MissW = 32'd16,
  /// Bits of the period numbers (up to 16).
  parameter int unsigned PerW = 32'd16,
  /// Bits of a link error counter (up to 32).
  parameter int unsigned CntW = 32'd16,
  /// Address bits; do not overwrite.
  localparam int unsigned AddrW = ((SlotW > 32'd5) ? SlotW : 32'd5) + 32'd3
) (
  /// Clock, rising edge.
  input  logic                clk_i,
  /// Asynchronous active-low reset.
  input  logic                rst_ni,
  /// AXI4-Lite slave: write address.
  input  logic                s_axil_awvalid,
  output logic                s_axil_awready,
  input  logic [AddrW-1:0]    s_axil_awaddr,
  input  logic [2:0]          s_axil_awprot,
  /// Write data.
  input  logic                s_axil_wvalid,
  output logic                s_axil_wready,
  input  logic [31:0]         s_axil_wdata,
  input  logic [3:0]          s_axil_wstrb,
  /// Write response.
  output logic                s_axil_bvalid,
  input  logic                s_axil_bready,
  output logic [1:0]          s_axil_bresp,
  /// Read address.
  input  logic                s_axil_arvalid,
  output logic                s_axil_arready,
  input  logic [AddrW-1:0]    s_axil_araddr,
  input  logic [2:0]          s_axil_arprot,
  /// Read data.
  output logic                s_axil_rvalid,
  input  logic                s_axil_rready,
  output logic [31:0]         s_axil_rdata,
  output logic [1:0]          s_axil_rresp,
  /// The tile's sticky error and missed count.
  input  logic                error_i,
  input  logic [MissW-1:0]    missed_i,
  /// Per input link: a flit on it that nothing takes, this cycle.
  input  logic [NumPorts-1:0] link_err_i,
  /// The slot pipeline's swap state: active bank, armed, late, the period being fetched.
  input  logic                bank_i,
  input  logic                armed_i,
  input  logic                late_i,
  input  logic [PerW-1:0]     period_i,
  /// Shadow-bank write (one cycle after the AXI write was taken).
  output logic                sh_we_o,
  output logic [SlotW-1:0]    sh_addr_o,
  output logic [EntryW-1:0]   sh_data_o,
  /// Swap now (a pulse) and arm (a pulse, with the period), one cycle after the AXI write was
  /// taken, each one LUT of the port's flip-flops (register them at the consumer).
  output logic                swap_now_o,
  output logic                arm_o,
  output logic [PerW-1:0]     arm_per_o
);

  localparam int unsigned P = NumPorts;
  localparam int unsigned HiW = (EntryW > 32'd32) ? EntryW - 32'd32 : 32'd1;
  localparam logic [AddrW-3:0] REG_STATUS = (AddrW - 2)'(0);
  localparam logic [AddrW-3:0] REG_MISSED = (AddrW - 2)'(1);
  localparam logic [AddrW-3:0] REG_CTRL   = (AddrW - 2)'(2);
  localparam logic [AddrW-3:0] REG_TBL_HI = (AddrW - 2)'(3);
  localparam logic [AddrW-3:0] REG_INFO   = (AddrW - 2)'(4);
  localparam int unsigned      REG_LINK   = 32'd8;

  // Waiver: protection and strobes are not used (whole-word writes, one privilege level), nor
  // the address bits below the word.
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_axil;
  assign unused_axil = ^{s_axil_awprot, s_axil_arprot, s_axil_wstrb, s_axil_awaddr[1:0],
                         s_axil_araddr[1:0]};
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------------------------------------
  // Write channel: AW and W together; the response is bvalid_q, held until bready.
  // ---------------------------------------------------------------------------------------------
  logic bvalid_q, bvalid_d, wr_take;
  assign wr_take        = s_axil_awvalid & s_axil_wvalid & (~bvalid_q | s_axil_bready);
  assign s_axil_awready = wr_take;
  assign s_axil_wready  = wr_take;
  // As a sum of products, not an if chain: Yosys makes an if chain's hold case a flip-flop enable
  // (bready | wr_take, a second LUT after wr_take's); this is one LUT of four inputs.
  assign bvalid_d = wr_take | (bvalid_q & ~s_axil_bready);

  // Stage 1, at the handshake: the write's slot, data and decoded register (from the address
  // inputs, two LUT levels), and the shadow write's enable; stage 2 (registers' updates) from
  // stage 1's flip-flops, one LUT each. The swap and arm pulses are that stage's LUTs, not
  // flip-flops: the tile registers them next to its slot pipeline (totex_tdm_ctl_tile), so that
  // the long route from the port to the pipeline ends in a flip-flop.
  logic              wr_q, is_ctrl_q, is_hi_q, sh_we_q;
  logic [SlotW-1:0]  slot_q;
  logic [31:0]       wdata_q;
  logic [HiW-1:0]    tbl_hi_q;
  logic [PerW-1:0]   arm_per_q;
  // Waiver: the entry is the low EntryW bits of {TBL_HI, wdata}.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [63:0]       entry_wide;
  /* verilator lint_on UNUSEDSIGNAL */
  assign entry_wide = {{(32 - HiW){1'b0}}, tbl_hi_q, wdata_q};
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bvalid_q   <= 1'b0;
      wr_q       <= 1'b0;
      sh_we_q    <= 1'b0;
      tbl_hi_q   <= '0;
      arm_per_q  <= '0;
    end else begin
      bvalid_q   <= bvalid_d;
      wr_q       <= wr_take;
      sh_we_q    <= wr_take & s_axil_awaddr[AddrW-1];
      if (wr_q && is_ctrl_q && wdata_q[1]) arm_per_q <= wdata_q[16 +: PerW];
      if (wr_q && is_hi_q) tbl_hi_q <= wdata_q[HiW-1:0];
    end
  end
  // No reset and no enable: loaded every cycle, read only in the cycle after a handshake (wr_q
  // and sh_we_q qualify them). An enable of wr_take would be a 36-load net that nextpnr promotes
  // to a global buffer (UP5K about 4.6 ns of buffer and route after wr_take's LUT).
  always_ff @(posedge clk_i) begin
    slot_q    <= s_axil_awaddr[2 +: SlotW];
    wdata_q   <= s_axil_wdata;
    is_ctrl_q <= s_axil_awaddr[AddrW-1:2] == {1'b0, REG_CTRL[AddrW-4:0]};
    is_hi_q   <= s_axil_awaddr[AddrW-1:2] == {1'b0, REG_TBL_HI[AddrW-4:0]};
  end
  assign s_axil_bvalid = bvalid_q;
  assign s_axil_bresp  = 2'b00;
  assign sh_we_o       = sh_we_q;
  assign sh_addr_o     = slot_q;
  assign sh_data_o     = entry_wide[EntryW-1:0];
  assign swap_now_o    = wr_q & is_ctrl_q & wdata_q[0];
  assign arm_o         = wr_q & is_ctrl_q & wdata_q[1];
  assign arm_per_o     = wdata_q[16 +: PerW];

  // ---------------------------------------------------------------------------------------------
  // Per-input-link error counters.
  // ---------------------------------------------------------------------------------------------
  // The error bit is an enable, not the adder's input (as the input it led the whole carry chain
  // after its route: 86.2 MHz UP5K sa 2). Each count in two halves (CntW >= 2) with no LUT level
  // between them: the low half counts the errors with its carry chain's carry-out registered
  // (lo_co_q, the wrap to zero), and the high half adds that flip-flop, an enable, one cycle later;
  // the count read is {hi_q, lo_d_q}, the low half one cycle late with it, so that the word is
  // exact (the count of the cycle before; one cycle later than a single counter). No chain is
  // longer than half, and nothing but the chains' own bits stands in front of them: the 16-bit
  // chain entered through nextpnr's feed-in cell 3 ns from the count's first bit was the UP5K's
  // critical path (ff104a8, 72b1c39: 90.5-91.3 MHz heap 1-3); a flag "low half all ones" set from
  // the low half's next value (e2c5f46, 7fbe4c3, 2e51ec8) put its compare's two LUT levels and a
  // select after a 3 ns route (85.6-87.9 MHz).
  localparam int unsigned CntLoW = (CntW >= 32'd2) ? CntW / 32'd2 : CntW;
  logic [P*CntW-1:0] link_cnt_q;
  for (genvar i = 0; i < P; i++) begin : gen_link
    if (CntW >= 32'd2) begin : gen_halves
      logic [CntLoW-1:0]      lo_q, lo_d_q;
      logic [CntW-CntLoW-1:0] hi_q;
      logic                   lo_co_q;
      logic [CntLoW:0]        lo_sum;
      assign lo_sum = {1'b0, lo_q} + (CntLoW + 32'd1)'(1);
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          lo_q    <= '0;
          lo_d_q  <= '0;
          hi_q    <= '0;
          lo_co_q <= 1'b0;
        end else begin
          if (link_err_i[i]) lo_q <= lo_sum[CntLoW-1:0];
          lo_co_q <= link_err_i[i] & lo_sum[CntLoW];
          lo_d_q  <= lo_q;
          if (lo_co_q) hi_q <= hi_q + (CntW - CntLoW)'(1);
        end
      end
      assign link_cnt_q[i*CntW +: CntW] = {hi_q, lo_d_q};
    end else begin : gen_one
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) link_cnt_q[i*CntW +: CntW] <= '0;
        else if (link_err_i[i]) link_cnt_q[i*CntW +: CntW] <= link_cnt_q[i*CntW +: CntW] + CntW'(1);
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Read channel: AR taken when no read is outstanding; its register one-hot (decoded from the
  // address inputs) at the handshake, the word an AND-OR of the sources in the next cycle, then
  // rvalid_q held until rready. One read per three cycles at most.
  // ---------------------------------------------------------------------------------------------
  // Sources: the registers at their word offsets (0 .. 4), then the links.
  localparam int unsigned Srcs = 32'd5 + P;
  logic              rvalid_q, ar_pend_q, rd_take, arready_q;
  logic [Srcs-1:0]   rsel_q, rsel;
  logic [31:0]       rdata_q, rword;
  logic [Srcs*32-1:0] src;
  // arready is a flip-flop, high exactly while idle (no read pending, no R waiting): the same
  // handshakes as arvalid & idle, without a LUT between the master's arvalid and arready (that LUT
  // also fed ar_pend_q, and sat between the two: the UP5K's critical path at 88.8 MHz heap 1).
  assign rd_take        = s_axil_arvalid & arready_q;
  assign s_axil_arready = arready_q;
  // The one-hot select in two LUT levels from the address inputs: "the bits above the low four
  // are zero" and each source's low-four compare are kept nets (P <= 8: every word index below
  // 16), ANDed in the flip-flop's LUT. ABC had shared terms across the compares: three levels and
  // a 3.5 ns route from the address inputs, the UP5K's critical path (b95c39e, heap 3: 87.8 MHz).
  if (P <= 32'd8) begin : gen_rsel_split
    (* keep *) logic            ra_hi_zero;
    (* keep *) logic [Srcs-1:0] ra_lo_eq;
    assign ra_hi_zero = s_axil_araddr[AddrW-1:6] == '0;
    for (genvar k = 0; k < Srcs; k++) begin : g_rsel
      localparam int unsigned Idx = (k < 32'd5) ? k : REG_LINK + k - 32'd5;
      assign ra_lo_eq[k] = s_axil_araddr[5:2] == 4'(Idx);
      assign rsel[k] = ra_hi_zero & ra_lo_eq[k];
    end
  end else begin : gen_rsel
    always_comb begin
      for (int unsigned k = 0; k < Srcs; k++) begin
        rsel[k] = !s_axil_araddr[AddrW-1] &&
                  32'(s_axil_araddr[AddrW-2:2]) == ((k < 32'd5) ? k : REG_LINK + k - 32'd5);
      end
    end
  end
  // The tile's status inputs sampled into the port's own flip-flops every cycle (the word then
  // holds them as of the AR handshake's cycle rather than the next): they come from across the
  // tile, and a 3.5 ns route in front of the read mux's LUT levels was the UP5K's critical path.
  logic             error_s_q, bank_s_q, armed_s_q, late_s_q;
  logic [PerW-1:0]  period_s_q;
  logic [MissW-1:0] missed_s_q;
  always_ff @(posedge clk_i) begin
    {late_s_q, armed_s_q, bank_s_q, error_s_q} <= {late_i, armed_i, bank_i, error_i};
    period_s_q <= period_i;
    missed_s_q <= missed_i;
  end
  always_comb begin
    src = '0;
    src[32'(REG_STATUS)*32 + 16 +: 16] = 16'(period_s_q);
    src[32'(REG_STATUS)*32 +: 4]       = {late_s_q, armed_s_q, bank_s_q, error_s_q};
    src[32'(REG_MISSED)*32 +: 32]      = 32'(missed_s_q);
    src[32'(REG_CTRL)*32 + 16 +: 16] = 16'(arm_per_q);
    src[32'(REG_CTRL)*32 + 2]        = armed_s_q;
    src[32'(REG_TBL_HI)*32 +: 32]      = 32'(tbl_hi_q);
    src[32'(REG_INFO)*32 +: 32]      = {8'd0, 8'(SlotW), 8'(EntryW), 8'(P)};
    for (int unsigned i = 0; i < P; i++) src[(5 + i)*32 +: 32] = 32'(link_cnt_q[i*CntW +: CntW]);
  end
  // The AND-OR in kept terms, so that it is two LUT levels at P <= 4 (ABC chained some bits through
  // three, the UP5K's critical path at 84.9 MHz heap 1): STATUS with MISSED, the port's registers
  // (CTRL, TBL_HI, INFO: few non-constant bits each), and the links in pairs; then one OR.
  localparam int unsigned LinkPairs = (P + 32'd1) / 32'd2;
  (* keep *) logic [31:0]             rd_stat, rd_regs;
  (* keep *) logic [LinkPairs*32-1:0] rd_links;
  always_comb begin
    rd_stat = ({32{rsel_q[32'(REG_STATUS)]}} & src[32'(REG_STATUS)*32 +: 32])
            | ({32{rsel_q[32'(REG_MISSED)]}} & src[32'(REG_MISSED)*32 +: 32]);
    rd_regs = ({32{rsel_q[32'(REG_CTRL)]}} & src[32'(REG_CTRL)*32 +: 32])
            | ({32{rsel_q[32'(REG_TBL_HI)]}} & src[32'(REG_TBL_HI)*32 +: 32])
            | ({32{rsel_q[32'(REG_INFO)]}} & src[32'(REG_INFO)*32 +: 32]);
    rd_links = '0;
    for (int unsigned i = 0; i < P; i++) begin
      rd_links[(i / 2)*32 +: 32] = rd_links[(i / 2)*32 +: 32] | ({32{rsel_q[5 + i]}} & src[(5 + i)*32 +: 32]);
    end
    rword = rd_stat | rd_regs;
    for (int unsigned g = 0; g < LinkPairs; g++) rword = rword | rd_links[g*32 +: 32];
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ar_pend_q <= 1'b0;
      rvalid_q  <= 1'b0;
      arready_q <= 1'b1;
    end else begin
      ar_pend_q <= rd_take;
      if (ar_pend_q) rvalid_q <= 1'b1;
      else if (s_axil_rready) rvalid_q <= 1'b0;
      // Idle next: no read taken now, none pending, and no R waiting after this cycle.
      arready_q <= ~rd_take & ~ar_pend_q & ~(rvalid_q & ~s_axil_rready);
    end
  end
  always_ff @(posedge clk_i) begin
    if (arready_q) rsel_q <= rsel;   // while idle
    if (ar_pend_q) rdata_q <= rword;
  end
  assign s_axil_rvalid = rvalid_q;
  assign s_axil_rdata  = rdata_q;
  assign s_axil_rresp  = 2'b00;

`ifndef SYNTHESIS
  initial begin
    if (EntryW > 32'd64 || MissW > 32'd32 || PerW > 32'd16 || CntW > 32'd32 || P > 32'd24) begin
      $error("totex_tdm_axil: EntryW <= 64, MissW <= 32, PerW <= 16, CntW <= 32, NumPorts <= 24");
    end
  end
`endif

endmodule
