// SPDX-License-Identifier: Apache-2.0
/// Formal wrapper (yosys-smtbmc, tests/formal): the AXI4-Lite handshakes of the exported network's
/// control port (totex_tdm_axil_fanout) in front of N production tile ports (totex_tdm_axil).
///
/// The master is free within the AXI rules (assumed): a valid stays high, with its address or data
/// stable, until its ready, and low during reset; bready and rready are free; the tiles' own inputs
/// are free. Checked every cycle:
///   1. awready == wready; writes outstanding <= 1, bvalid only with one (none duplicated) and within
///      three cycles of it (none lost); reads outstanding <= 1, rvalid only with one and within five;
///   2. bvalid held (bresp stable) until bready; rvalid held (rdata, rresp stable) until rready;
///   3. B and R answer DECERR exactly for a tile number >= N;
///   4. every table-window write reaches exactly the tiles it names, once: while no write is
///      outstanding, each tile has made as many shadow writes as table-window writes named it
///      (its number, or bcast), counted modulo 4.
`default_nettype none

module totex_formal_axil_fanout #(
  parameter int unsigned N = 32'd3,
  parameter int unsigned SlotW = 32'd2,
  localparam int unsigned AddrW = ((SlotW > 32'd5) ? SlotW : 32'd5) + 32'd3,
  localparam int unsigned TileW = totex_pkg::idx_width(N),
  localparam int unsigned TopW = AddrW + TileW + 32'd1
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             awvalid,
  input logic [TopW-1:0]  awaddr,
  input logic             wvalid,
  input logic [31:0]      wdata,
  input logic             bready,
  input logic             arvalid,
  input logic [TopW-1:0]  araddr,
  input logic             rready,
  input logic [N-1:0]     error_i,
  input logic [N*2-1:0]   missed_i,
  input logic [N-1:0]     link_err_i,
  input logic [N-1:0]     bank_i,
  input logic [N-1:0]     armed_i,
  input logic [N-1:0]     late_i,
  input logic [N*2-1:0]   period_i
);

  logic              awready, wready, bvalid, arready, rvalid;
  logic [1:0]        bresp, rresp;
  logic [31:0]       rdata;
  logic [N-1:0]      c_awvalid, c_awready, c_wvalid, c_bvalid, c_bready, c_arvalid, c_arready, c_rvalid, c_rready;
  logic [AddrW-1:0]  c_awaddr, c_araddr;
  logic [31:0]       c_wdata;
  logic [N*32-1:0]   c_rdata;
  logic [N-1:0]      sh_we;
  // Waiver: the tiles' wready (= awready), responses (OKAY), shadow data and pulses are not checked here.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [N-1:0]      c_wready, swap_now, arm;
  logic [N*2-1:0]    c_bresp, c_rresp;
  logic [N*SlotW-1:0] sh_addr;
  logic [N*8-1:0]    sh_data;
  logic [N*2-1:0]    arm_per;
  /* verilator lint_on UNUSEDSIGNAL */

  totex_tdm_axil_fanout #(.N(N), .AddrW(AddrW)) u_dut (
    .clk_i, .rst_ni,
    .s_axil_awvalid(awvalid), .s_axil_awready(awready), .s_axil_awaddr(awaddr), .s_axil_awprot(3'b000),
    .s_axil_wvalid(wvalid), .s_axil_wready(wready), .s_axil_wdata(wdata), .s_axil_wstrb(4'hf),
    .s_axil_bvalid(bvalid), .s_axil_bready(bready), .s_axil_bresp(bresp),
    .s_axil_arvalid(arvalid), .s_axil_arready(arready), .s_axil_araddr(araddr), .s_axil_arprot(3'b000),
    .s_axil_rvalid(rvalid), .s_axil_rready(rready), .s_axil_rdata(rdata), .s_axil_rresp(rresp),
    .m_axil_awvalid(c_awvalid), .m_axil_awready(c_awready), .m_axil_awaddr(c_awaddr),
    .m_axil_wvalid(c_wvalid), .m_axil_wdata(c_wdata), .m_axil_bvalid(c_bvalid), .m_axil_bready(c_bready),
    .m_axil_arvalid(c_arvalid), .m_axil_arready(c_arready), .m_axil_araddr(c_araddr),
    .m_axil_rvalid(c_rvalid), .m_axil_rready(c_rready), .m_axil_rdata(c_rdata)
  );
  for (genvar i = 0; i < N; i++) begin : gen_tile
    totex_tdm_axil #(.NumPorts(1), .SlotW(SlotW), .EntryW(8), .MissW(2), .PerW(2), .CntW(2)) u_tile (
      .clk_i, .rst_ni,
      .s_axil_awvalid(c_awvalid[i]), .s_axil_awready(c_awready[i]), .s_axil_awaddr(c_awaddr),
      .s_axil_awprot(3'b000), .s_axil_wvalid(c_wvalid[i]), .s_axil_wready(c_wready[i]),
      .s_axil_wdata(c_wdata), .s_axil_wstrb(4'hf), .s_axil_bvalid(c_bvalid[i]), .s_axil_bready(c_bready[i]),
      .s_axil_bresp(c_bresp[i*2 +: 2]), .s_axil_arvalid(c_arvalid[i]), .s_axil_arready(c_arready[i]),
      .s_axil_araddr(c_araddr), .s_axil_arprot(3'b000), .s_axil_rvalid(c_rvalid[i]),
      .s_axil_rready(c_rready[i]), .s_axil_rdata(c_rdata[i*32 +: 32]), .s_axil_rresp(c_rresp[i*2 +: 2]),
      .error_i(error_i[i]), .missed_i(missed_i[i*2 +: 2]), .link_err_i(link_err_i[i]), .bank_i(bank_i[i]),
      .armed_i(armed_i[i]), .late_i(late_i[i]), .period_i(period_i[i*2 +: 2]),
      .sh_we_o(sh_we[i]), .sh_addr_o(sh_addr[i*SlotW +: SlotW]), .sh_data_o(sh_data[i*8 +: 8]),
      .swap_now_o(swap_now[i]), .arm_o(arm[i]), .arm_per_o(arm_per[i*2 +: 2])
    );
  end

  logic first = 1'b1;
  always_ff @(posedge clk_i) first <= 1'b0;
  always_comb assume (rst_ni == !first);

  logic aw_hs, b_hs, ar_hs, r_hs;
  assign aw_hs = awvalid & awready;
  assign b_hs  = bvalid & bready;
  assign ar_hs = arvalid & arready;
  assign r_hs  = rvalid & rready;

  // The master's rules.
  logic            p_awvalid, p_awready, p_wvalid, p_wready, p_arvalid, p_arready, p_bvalid, p_bready;
  logic            p_rvalid, p_rready;
  logic [TopW-1:0] p_awaddr, p_araddr;
  logic [31:0]     p_wdata, p_rdata;
  logic [1:0]      p_bresp, p_rresp;
  always_ff @(posedge clk_i) begin
    p_awvalid <= awvalid; p_awready <= awready; p_awaddr <= awaddr;
    p_wvalid  <= wvalid;  p_wready  <= wready;  p_wdata  <= wdata;
    p_arvalid <= arvalid; p_arready <= arready; p_araddr <= araddr;
    p_bvalid  <= bvalid;  p_bready  <= bready;  p_bresp  <= bresp;
    p_rvalid  <= rvalid;  p_rready  <= rready;  p_rdata  <= rdata;  p_rresp <= rresp;
  end
  always_comb if (!rst_ni) assume (!awvalid && !wvalid && !arvalid);
  always_ff @(posedge clk_i) begin
    if (!first && rst_ni) begin
      if (p_awvalid && !p_awready) assume (awvalid && awaddr == p_awaddr);
      if (p_wvalid && !p_wready) assume (wvalid && wdata == p_wdata);
      if (p_arvalid && !p_arready) assume (arvalid && araddr == p_araddr);
    end
  end

  // Outstanding transactions, the decode error each expects, and the table writes per tile.
  logic [1:0]   wr_out = 2'd0, rd_out = 2'd0;
  logic         w_dec = 1'b0, r_dec = 1'b0;
  logic [2:0]   w_age = 3'd0, r_age = 3'd0;   // cycles since the outstanding write / read was taken
  logic [1:0]   named [N];
  logic [1:0]   made [N];
  logic         bad_w, bad_r;
  assign bad_w = !awaddr[TopW-1] && 32'(awaddr[AddrW +: TileW]) >= N;
  assign bad_r = 32'(araddr[AddrW +: TileW]) >= N;
  always_ff @(posedge clk_i) begin
    if (first) begin
      wr_out <= '0;
      rd_out <= '0;
      for (int unsigned i = 0; i < N; i++) begin
        named[i] <= '0;
        made[i]  <= '0;
      end
    end else begin
      wr_out <= wr_out + 2'(aw_hs) - 2'(b_hs);
      rd_out <= rd_out + 2'(ar_hs) - 2'(r_hs);
      if (aw_hs) w_dec <= bad_w;
      if (ar_hs) r_dec <= bad_r;
      w_age <= aw_hs ? 3'd1 : (w_age == 3'd7 ? w_age : w_age + 3'd1);
      r_age <= ar_hs ? 3'd1 : (r_age == 3'd7 ? r_age : r_age + 3'd1);
      for (int unsigned i = 0; i < N; i++) begin
        if (aw_hs && awaddr[AddrW-1] && (awaddr[TopW-1] || 32'(awaddr[AddrW +: TileW]) == i)) named[i] <= named[i] + 2'd1;
        if (sh_we[i]) made[i] <= made[i] + 2'd1;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!first) begin
      assert (awready == wready);
      assert (wr_out <= 2'd1);
      if (wr_out == 2'd1 && !bvalid) assert (w_age < 3'd3);   // B within three cycles of the write
      if (rd_out == 2'd1 && !rvalid) assert (r_age < 3'd5);   // R within five cycles of the read
      if (bvalid) assert (wr_out == 2'd1);
      assert (rd_out <= 2'd1);
      if (rvalid) assert (rd_out == 2'd1);
      if (p_bvalid && !p_bready) assert (bvalid && bresp == p_bresp);
      if (p_rvalid && !p_rready) assert (rvalid && rdata == p_rdata && rresp == p_rresp);
      if (bvalid) assert (bresp == (w_dec ? 2'b11 : 2'b00));
      if (rvalid) assert (rresp == (r_dec ? 2'b11 : 2'b00));
      if (bvalid || wr_out == 2'd0)
        for (int unsigned i = 0; i < N; i++) assert (made[i] == named[i]);
    end
  end

endmodule
