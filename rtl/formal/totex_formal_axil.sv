// SPDX-License-Identifier: Apache-2.0
/// Formal wrapper (yosys-smtbmc, tests/formal): the AXI4-Lite handshakes of the TDM control port
/// (totex_tdm_axil).
///
/// The master is free within the AXI rules (assumed): a valid stays high, with its address or data
/// stable, until its ready, and low during reset; bready and rready are free; every tile-side input is free. The wrapper
/// counts the handshakes (writes taken minus B responses taken, reads taken minus R responses
/// taken) and checks every cycle:
///   1. awready == wready (AW and W are taken together: no data without its address);
///   2. writes outstanding <= 1 and bvalid == (one outstanding): no response lost (a taken write
///      has bvalid until its B handshake), none duplicated (no bvalid without a write), at most
///      one outstanding; reads outstanding <= 1, rvalid only with one outstanding, and an
///      outstanding read without rvalid has it in the next cycle (R two cycles after AR);
///   3. bvalid held (bresp stable) until bready; rvalid held, rdata and rresp stable, until rready;
///   4. each write taken to the table window makes exactly one shadow-write pulse in the next
///      cycle with its slot and data (the bits from wdata); each write of CTRL bit 0 / bit 1 exactly
///      one swap / arm pulse in the next cycle (the tile registers it), the arm with bits 31:16.
/// Proved by BMC from reset plus k-induction (tests/formal/run.sh).
`default_nettype none

module totex_formal_axil #(
  parameter int unsigned NumPorts = 32'd2,
  parameter int unsigned SlotW = 32'd3,
  parameter int unsigned EntryW = 32'd35,
  parameter int unsigned MissW = 32'd4,
  parameter int unsigned PerW = 32'd4,
  parameter int unsigned CntW = 32'd3,
  localparam int unsigned AddrW = ((SlotW > 32'd5) ? SlotW : 32'd5) + 32'd3,
  localparam int unsigned LoW = (EntryW < 32'd32) ? EntryW : 32'd32
) (
  input logic                clk_i,
  input logic                rst_ni,
  input logic                awvalid,
  input logic [AddrW-1:0]    awaddr,
  input logic [2:0]          awprot,
  input logic                wvalid,
  input logic [31:0]         wdata,
  input logic [3:0]          wstrb,
  input logic                bready,
  input logic                arvalid,
  input logic [AddrW-1:0]    araddr,
  input logic [2:0]          arprot,
  input logic                rready,
  input logic                error_i,
  input logic [MissW-1:0]    missed_i,
  input logic [NumPorts-1:0] link_err_i,
  input logic                bank_i,
  input logic                armed_i,
  input logic                late_i,
  input logic [PerW-1:0]     period_i
);

  logic              awready, wready, bvalid, arready, rvalid;
  logic [1:0]        bresp, rresp;
  logic [31:0]       rdata;
  logic              sh_we, swap_now, arm;
  logic [SlotW-1:0]  sh_addr;
  // Waiver: of the shadow write's data only the bits from wdata are checked (TBL_HI is a plain
  // register).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [EntryW-1:0] sh_data;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [PerW-1:0]   arm_per;

  totex_tdm_axil #(.NumPorts(NumPorts), .SlotW(SlotW), .EntryW(EntryW), .MissW(MissW),
                   .PerW(PerW), .CntW(CntW)) u_dut (
    .clk_i, .rst_ni,
    .s_axil_awvalid(awvalid), .s_axil_awready(awready), .s_axil_awaddr(awaddr),
    .s_axil_awprot(awprot), .s_axil_wvalid(wvalid), .s_axil_wready(wready),
    .s_axil_wdata(wdata), .s_axil_wstrb(wstrb), .s_axil_bvalid(bvalid), .s_axil_bready(bready),
    .s_axil_bresp(bresp), .s_axil_arvalid(arvalid), .s_axil_arready(arready),
    .s_axil_araddr(araddr), .s_axil_arprot(arprot), .s_axil_rvalid(rvalid),
    .s_axil_rready(rready), .s_axil_rdata(rdata), .s_axil_rresp(rresp),
    .error_i, .missed_i, .link_err_i, .bank_i, .armed_i, .late_i, .period_i,
    .sh_we_o(sh_we), .sh_addr_o(sh_addr), .sh_data_o(sh_data), .swap_now_o(swap_now),
    .arm_o(arm), .arm_per_o(arm_per)
  );

  logic first = 1'b1;
  always_ff @(posedge clk_i) first <= 1'b0;
  always_comb assume (rst_ni == !first);

  logic aw_hs, w_hs, b_hs, ar_hs, r_hs;
  assign aw_hs = awvalid & awready;
  assign w_hs  = wvalid & wready;
  assign b_hs  = bvalid & bready;
  assign ar_hs = arvalid & arready;
  assign r_hs  = rvalid & rready;

  // The last cycle's handshake state, for the "held until ready" rules on both sides.
  logic             p_awvalid, p_awready, p_wvalid, p_wready, p_arvalid, p_arready;
  logic             p_bvalid, p_bready, p_rvalid, p_rready;
  logic [AddrW-1:0] p_awaddr, p_araddr;
  logic [31:0]      p_wdata, p_rdata;
  logic [1:0]       p_bresp, p_rresp;
  logic             p_win, p_ctrl = 1'b0, p_rd_pend = 1'b0;
  always_ff @(posedge clk_i) begin
    p_awvalid <= awvalid; p_awready <= awready; p_awaddr <= awaddr;
    p_wvalid  <= wvalid;  p_wready  <= wready;  p_wdata  <= wdata;
    p_arvalid <= arvalid; p_arready <= arready; p_araddr <= araddr;
    p_bvalid  <= bvalid;  p_bready  <= bready;  p_bresp  <= bresp;
    p_rvalid  <= rvalid;  p_rready  <= rready;  p_rdata  <= rdata;  p_rresp <= rresp;
    p_win  <= aw_hs & awaddr[AddrW-1];
    p_ctrl <= aw_hs & ~awaddr[AddrW-1] & (awaddr[AddrW-1:2] == (AddrW - 2)'(2));
    p_rd_pend <= (rd_out == 2'd1) & ~rvalid;
  end

  // The master's rules: no valid during reset (AXI: valids low while ARESETn is low), then each
  // valid held, with its payload, until its ready.
  always_comb if (!rst_ni) assume (!awvalid && !wvalid && !arvalid);
  always_ff @(posedge clk_i) begin
    if (!first && rst_ni) begin
      if (p_awvalid && !p_awready) assume (awvalid && awaddr == p_awaddr);
      if (p_wvalid && !p_wready) assume (wvalid && wdata == p_wdata);
      if (p_arvalid && !p_arready) assume (arvalid && araddr == p_araddr);
    end
  end

  // Outstanding responses.
  logic [1:0] wr_out = 2'd0, rd_out = 2'd0;
  always_ff @(posedge clk_i) begin
    if (first) begin
      wr_out <= '0;
      rd_out <= '0;
    end else begin
      wr_out <= wr_out + 2'(aw_hs) - 2'(b_hs);
      rd_out <= rd_out + 2'(ar_hs) - 2'(r_hs);
    end
  end

  always_ff @(posedge clk_i) begin
    if (!first) begin
      assert (awready == wready);
      assert (aw_hs == w_hs);
      assert (wr_out <= 2'd1);
      assert (bvalid == (wr_out == 2'd1));
      assert (rd_out <= 2'd1);
      if (rvalid) assert (rd_out == 2'd1);
      if (p_rd_pend) assert (rvalid);   // R follows AR within two cycles
      assert (bresp == 2'b00 && rresp == 2'b00);
      if (p_bvalid && !p_bready) assert (bvalid && bresp == p_bresp);
      if (p_rvalid && !p_rready) assert (rvalid && rdata == p_rdata && rresp == p_rresp);
      // Exactly one shadow write / swap / arm pulse per write taken.
      assert (sh_we == p_win);
      if (p_win) assert (sh_addr == p_awaddr[2 +: SlotW] && sh_data[LoW-1:0] == p_wdata[LoW-1:0]);
      assert (swap_now == (p_ctrl & p_wdata[0]));
      assert (arm == (p_ctrl & p_wdata[1]));
      if (arm) assert (arm_per == p_wdata[16 +: PerW]);
    end
  end

endmodule
