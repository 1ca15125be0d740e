// SPDX-License-Identifier: Apache-2.0
/// One AXI4-Lite slave in front of N tile control ports (totex_tdm_axil each): the exported
/// network top's control port (docs/ip.md, "Control port").
///
/// Byte address {bcast, tile, offset}: offset = the tile's own AddrW-bit address (its register map
/// and table window, docs/tdm-tile.md), tile = the next TileW bits, bcast = the top bit: a write to
/// every tile at once (the arm, so that every tile switches at the same boundary; a table write
/// broadcast writes the same entry everywhere). A read with bcast reads tile `tile`.
///
/// One transaction per channel at a time, which keeps the fan-out small: a write is registered at
/// its handshake (AW and W together), offered to the selected tiles in the next cycle (each takes
/// it at once: its B is always taken), and B answers when every selected tile has answered (three
/// cycles per write with bready high). A read likewise (AR registered, offered to its tile, R once
/// the tile's R is in). A tile number >= N answers DECERR (2'b11) and touches nothing.
`default_nettype none

module totex_tdm_axil_fanout #(
  /// Tiles.
  parameter int unsigned N = 32'd4,
  /// Address bits of one tile's port.
  parameter int unsigned AddrW = 32'd8,
  /// Bits of the tile number; do not overwrite.
  localparam int unsigned TileW = totex_pkg::idx_width(N),
  /// Address bits of this port; do not overwrite.
  localparam int unsigned TopAddrW = AddrW + TileW + 32'd1
) (
  /// Clock, rising edge.
  input  logic                clk_i,
  /// Asynchronous active-low reset.
  input  logic                rst_ni,
  /// AXI4-Lite slave (the network's control port).
  input  logic                s_axil_awvalid,
  output logic                s_axil_awready,
  input  logic [TopAddrW-1:0] s_axil_awaddr,
  input  logic [2:0]          s_axil_awprot,
  input  logic                s_axil_wvalid,
  output logic                s_axil_wready,
  input  logic [31:0]         s_axil_wdata,
  input  logic [3:0]          s_axil_wstrb,
  output logic                s_axil_bvalid,
  input  logic                s_axil_bready,
  output logic [1:0]          s_axil_bresp,
  input  logic                s_axil_arvalid,
  output logic                s_axil_arready,
  input  logic [TopAddrW-1:0] s_axil_araddr,
  input  logic [2:0]          s_axil_arprot,
  output logic                s_axil_rvalid,
  input  logic                s_axil_rready,
  output logic [31:0]         s_axil_rdata,
  output logic [1:0]          s_axil_rresp,
  /// Per tile: its AXI4-Lite slave (address and write data shared; valid bits per tile).
  output logic [N-1:0]        m_axil_awvalid,
  input  logic [N-1:0]        m_axil_awready,
  output logic [AddrW-1:0]    m_axil_awaddr,
  output logic [N-1:0]        m_axil_wvalid,
  output logic [31:0]         m_axil_wdata,
  input  logic [N-1:0]        m_axil_bvalid,
  output logic [N-1:0]        m_axil_bready,
  output logic [N-1:0]        m_axil_arvalid,
  input  logic [N-1:0]        m_axil_arready,
  output logic [AddrW-1:0]    m_axil_araddr,
  input  logic [N-1:0]        m_axil_rvalid,
  output logic [N-1:0]        m_axil_rready,
  input  logic [N*32-1:0]     m_axil_rdata
);

  // Waiver: whole-word writes at one privilege level, as the tiles (totex_tdm_axil); a read has no
  // broadcast (it reads the tile named).
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_fanout;
  assign unused_fanout = ^{s_axil_awprot, s_axil_arprot, s_axil_wstrb, s_axil_araddr[TopAddrW-1]};
  /* verilator lint_on UNUSEDSIGNAL */

  // The tile masks of the addresses: one tile, every tile (bcast, writes only), none (no such tile).
  logic [N-1:0] w_mask, r_mask;
  always_comb begin
    for (int unsigned i = 0; i < N; i++) begin
      w_mask[i] = s_axil_awaddr[TopAddrW-1] || s_axil_awaddr[AddrW +: TileW] == TileW'(i);
      r_mask[i] = s_axil_araddr[AddrW +: TileW] == TileW'(i);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Writes: registered at the handshake, offered to the selected tiles, B when all answered.
  // ---------------------------------------------------------------------------------------------
  logic             wbusy_q, bvalid_q, bdec_q, w_take;
  logic [N-1:0]     wsel_q, wwait_q, wsel_d, wwait_d;
  logic [AddrW-1:0] awaddr_q;
  logic [31:0]      wdata_q;
  assign w_take = s_axil_awvalid & s_axil_wvalid & ~wbusy_q & (~bvalid_q | s_axil_bready);
  assign s_axil_awready = w_take;
  assign s_axil_wready  = w_take;
  always_comb begin
    wsel_d  = wsel_q & ~m_axil_awready;
    wwait_d = (wwait_q | (wsel_q & m_axil_awready)) & ~m_axil_bvalid;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wbusy_q  <= 1'b0;
      bvalid_q <= 1'b0;
      bdec_q   <= 1'b0;
      wsel_q   <= '0;
      wwait_q  <= '0;
    end else begin
      if (s_axil_bready) bvalid_q <= 1'b0;
      if (w_take) begin
        wbusy_q <= 1'b1;
        wsel_q  <= w_mask;
        wwait_q <= '0;
        bdec_q  <= w_mask == '0;
      end else if (wbusy_q) begin
        wsel_q  <= wsel_d;
        wwait_q <= wwait_d;
        if (wsel_d == '0 && wwait_d == '0) begin
          wbusy_q  <= 1'b0;
          bvalid_q <= 1'b1;
        end
      end
    end
  end
  // No reset: qualified by wsel_q.
  always_ff @(posedge clk_i) begin
    if (w_take) begin
      awaddr_q <= s_axil_awaddr[AddrW-1:0];
      wdata_q  <= s_axil_wdata;
    end
  end
  assign m_axil_awvalid = wsel_q;
  assign m_axil_wvalid  = wsel_q;
  assign m_axil_awaddr  = awaddr_q;
  assign m_axil_wdata   = wdata_q;
  assign m_axil_bready  = '1;
  assign s_axil_bvalid  = bvalid_q;
  assign s_axil_bresp   = bdec_q ? 2'b11 : 2'b00;

  // ---------------------------------------------------------------------------------------------
  // Reads: registered at the handshake, offered to the tile, R when its R is in.
  // ---------------------------------------------------------------------------------------------
  logic             rbusy_q, rvalid_q, rdec_q, r_take, r_in;
  logic [N-1:0]     rsel_q, rwait_q;
  logic [AddrW-1:0] araddr_q;
  logic [31:0]      rdata_q, r_word;
  assign r_take = s_axil_arvalid & ~rbusy_q & ~rvalid_q;
  assign s_axil_arready = r_take;
  assign r_in = |(rwait_q & m_axil_rvalid);
  always_comb begin
    r_word = '0;
    for (int unsigned i = 0; i < N; i++) r_word = r_word | ({32{rwait_q[i]}} & m_axil_rdata[i*32 +: 32]);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rbusy_q  <= 1'b0;
      rvalid_q <= 1'b0;
      rdec_q   <= 1'b0;
      rsel_q   <= '0;
      rwait_q  <= '0;
    end else begin
      if (s_axil_rready) rvalid_q <= 1'b0;
      if (r_take) begin
        rsel_q  <= r_mask;
        rwait_q <= '0;
        rdec_q  <= r_mask == '0;
        rbusy_q <= r_mask != '0;
        if (r_mask == '0) rvalid_q <= 1'b1;  // no such tile: DECERR at once
      end else if (rbusy_q) begin
        rsel_q  <= rsel_q & ~m_axil_arready;
        rwait_q <= rwait_q | (rsel_q & m_axil_arready);
        if (r_in) begin
          rbusy_q  <= 1'b0;
          rvalid_q <= 1'b1;
          rwait_q  <= '0;
        end
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (r_take) araddr_q <= s_axil_araddr[AddrW-1:0];
    if (r_take) rdata_q <= '0;
    else if (r_in) rdata_q <= r_word;
  end
  assign m_axil_arvalid = rsel_q;
  assign m_axil_araddr  = araddr_q;
  assign m_axil_rready  = '1;
  assign s_axil_rvalid  = rvalid_q;
  assign s_axil_rdata   = rdata_q;
  assign s_axil_rresp   = rdec_q ? 2'b11 : 2'b00;

endmodule
