// SPDX-License-Identifier: Apache-2.0
/// Simple dual-port RAM with a write enable per bit and a registered read: the form Yosys maps to
/// iCE40 SB_RAM40_4K in its 256 x 16 mode, whose MASK input is that per-bit enable. The bit-serial
/// self-test (totex_board_serial_selftest) scatters one send-order entry into a row with it: bit s of
/// a 64-bit word is written without reading the other 63 first.
///
/// rdata_o shows mem[raddr_i] of the previous edge (one cycle read latency). A read of the address
/// written at the same edge is undefined on the FPGA (no_rw_check below; the old word in simulation):
/// do not use its data. Not reset (block RAM cannot be): write before reading.
`default_nettype none

module totex_board_bitram #(
  /// Number of words.
  parameter int unsigned Depth = 32'd512,
  /// Word width in bits.
  parameter int unsigned Width = 32'd64,
  /// Address width; do not overwrite.
  localparam int unsigned AW = totex_pkg::idx_width(Depth)
) (
  /// Clock, rising edge.
  input  logic             clk_i,
  /// Write enable per bit (all ones writes the whole word).
  input  logic [Width-1:0] we_i,
  /// Write address.
  input  logic [AW-1:0]    waddr_i,
  /// Write data (bits whose we_i is 0 are ignored).
  input  logic [Width-1:0] wdata_i,
  /// Read address, sampled at the rising edge.
  input  logic [AW-1:0]    raddr_i,
  /// Read data: the word at the address sampled at the last edge.
  output logic [Width-1:0] rdata_o
);

  // ram_style: keep even the small instances (the lint sizes) in block RAM, as on the board.
  // no_rw_check: the self-test never uses the data of a read whose address is written at the same
  // edge, so Yosys need not emulate read-first around the block RAM (at N = 64 that emulation was
  // 320 flip-flops and about 210 LUT4 over the three memories).
  (* ram_style = "block", no_rw_check *) logic [Width-1:0] mem_q [Depth];

  always_ff @(posedge clk_i) begin
    for (int unsigned b = 0; b < Width; b++) begin
      if (we_i[b]) mem_q[waddr_i][b] <= wdata_i[b];
    end
    rdata_o <= mem_q[raddr_i];
  end

endmodule
