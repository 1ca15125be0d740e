// SPDX-License-Identifier: Apache-2.0
/// Simple dual-port RAM (one write port, one read port, one clock) with a registered read, the
/// form Yosys maps to iCE40 SB_RAM40_4K block RAM: the board self-test keeps its label matrix and
/// send order here instead of in flip-flops, which is what lets the 16 x 16 MIN fit an iCE40UP5K.
///
/// rdata_o shows mem[raddr_i] of the previous edge (one cycle read latency). A read of the address
/// written at the same edge returns the old word. The memory is not reset (block RAM cannot be);
/// write before reading.
`default_nettype none

module totex_board_ram #(
  /// Number of words.
  parameter int unsigned Depth = 32'd16,
  /// Word width in bits.
  parameter int unsigned Width = 32'd64,
  /// Address width; do not overwrite.
  localparam int unsigned AW = totex_pkg::idx_width(Depth)
) (
  /// Clock, rising edge.
  input  logic             clk_i,
  /// Write enable.
  input  logic             we_i,
  /// Write address.
  input  logic [AW-1:0]    waddr_i,
  /// Write data.
  input  logic [Width-1:0] wdata_i,
  /// Read address, sampled at the rising edge.
  input  logic [AW-1:0]    raddr_i,
  /// Read data: the word at the address sampled at the last edge.
  output logic [Width-1:0] rdata_o
);

  // ram_style: a 16-word memory is small enough that Yosys would otherwise build it from
  // flip-flops, which is exactly what does not fit.
  (* ram_style = "block" *) logic [Width-1:0] mem_q [Depth];

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
    rdata_o <= mem_q[raddr_i];
  end

endmodule
