// SPDX-License-Identifier: Apache-2.0
/// One-bit-wide memory of the TDM tile's NIC (docs/tdm-tile.md): one write port, two registered
/// read ports with read enables, one clock. Holds one side's toggle bits (S: commits, R:
/// injections), one bit per destination, readable by both sides. Two block RAMs (totex_tdm_ram,
/// one per read port, written together), or with InFlops flip-flops with two read multiplexers
/// (for many small tiles sharing a device, where a block RAM per bit column is too many; the
/// multiplexers are 2-3 LUT levels behind the read address: the torus:4x4 tile measured 55.4 /
/// 144.6 MHz on iCE40UP5K / HX8K with them, 92.2 / 182.4 MHz in block RAM, same RTL otherwise;
/// docs/tdm-tile.md).
///
/// rdata_*_o shows mem[raddr_*_i] as sampled at the last edge with re_*_i high. A read of the
/// address written at the same edge returns the old word in simulation and either the old or the
/// new bit on the device (one bit: never anything else); the tile relies on no more than that.
/// No reset: the tile clears every word after reset (docs/tdm-tile.md, "Reset").
`default_nettype none

module totex_tdm_bits #(
  /// Number of bits.
  parameter int unsigned Depth = 32'd64,
  /// 1: flip-flops instead of block RAM.
  parameter bit InFlops = 1'b0,
  /// Address width; do not overwrite.
  localparam int unsigned AW = totex_pkg::idx_width(Depth)
) (
  /// Clock, rising edge.
  input  logic          clk_i,
  /// Write enable.
  input  logic          we_i,
  /// Write address.
  input  logic [AW-1:0] waddr_i,
  /// Write data.
  input  logic          wdata_i,
  /// Read port a: enable, address, data.
  input  logic          re_a_i,
  input  logic [AW-1:0] raddr_a_i,
  output logic          rdata_a_o,
  /// Read port b: enable, address, data.
  input  logic          re_b_i,
  input  logic [AW-1:0] raddr_b_i,
  output logic          rdata_b_o
);

  if (!InFlops) begin : gen_bram
    totex_tdm_ram #(.Depth(Depth), .Width(32'd1)) u_a (
      .clk_i, .we_i, .waddr_i, .wdata_i,
      .re_i(re_a_i), .raddr_i(raddr_a_i), .rdata_o(rdata_a_o)
    );
    totex_tdm_ram #(.Depth(Depth), .Width(32'd1)) u_b (
      .clk_i, .we_i, .waddr_i, .wdata_i,
      .re_i(re_b_i), .raddr_i(raddr_b_i), .rdata_o(rdata_b_o)
    );
  end else begin : gen_ff
    logic [Depth-1:0] mem_q;
    always_ff @(posedge clk_i) begin
      for (int unsigned k = 0; k < Depth; k++) begin
        if (we_i && waddr_i == AW'(k)) mem_q[k] <= wdata_i;
      end
      if (re_a_i) rdata_a_o <= mem_q[raddr_a_i];
      if (re_b_i) rdata_b_o <= mem_q[raddr_b_i];
    end
  end

endmodule
