// SPDX-License-Identifier: Apache-2.0
/// Simple dual-port RAM of the TDM tile (one write port, one read port with read enable, one
/// clock, registered read): the form Yosys 0.23 maps to iCE40 SB_RAM40_4K (several side by side
/// when Width > 16). Holds the slot table and the NIC's send buffer.
///
/// rdata_o shows mem[raddr_i] as sampled at the last edge with re_i high, and holds otherwise.
/// A read of the address written at the same edge returns an undefined word (no_rw_check: no
/// bypass logic around the block RAM); the tile never uses such a word (docs/tdm-tile.md). Not reset (block RAM
/// cannot be). InitFile != "": initial contents from $readmemh (one hex word per line).
///
/// SpareHalf = 1: the memory is 2 * Depth words and written at every edge; a write with we_i low
/// lands in the lower half, which is never read (the words are the upper half). Why: iCE40 block
/// RAM's write mask is active low, so Yosys feeds a write enable through one inverting LUT to all
/// 16 mask pins of each SB_RAM40_4K; with a constant enable that LUT and its fanout leave the write
/// path, and we_i drives the top address bit straight from its flip-flop (the torus:8x8 tile's
/// UP5K critical path, 2026-11-26). It costs no block RAM where 2 * Depth words fit the block RAMs
/// that Depth words take (up to 256 words at 16 bits wide).
`default_nettype none

module totex_tdm_ram #(
  /// Number of words.
  parameter int unsigned Depth = 32'd256,
  /// Word width in bits.
  parameter int unsigned Width = 32'd16,
  /// $readmemh image of the initial contents; "" = none.
  parameter InitFile = "",
  /// Write at every edge, into a spare half when we_i is low (above); not with InitFile.
  parameter bit SpareHalf = 1'b0,
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
  /// Read enable: rdata_o is updated at this edge.
  input  logic             re_i,
  /// Read address, sampled at the rising edge.
  input  logic [AW-1:0]    raddr_i,
  /// Read data: the word at the address sampled at the last edge with re_i high.
  output logic [Width-1:0] rdata_o
);

  if (SpareHalf) begin : gen_spare
    (* ram_style = "block", no_rw_check *) logic [Width-1:0] mem_q [2 * Depth];
    always_ff @(posedge clk_i) begin
      mem_q[{we_i, waddr_i}] <= wdata_i;
      if (re_i) rdata_o <= mem_q[{1'b1, raddr_i}];
    end
  end else begin : gen_plain
    (* ram_style = "block", no_rw_check *) logic [Width-1:0] mem_q [Depth];
    if (InitFile != "") begin : gen_init
      initial $readmemh(InitFile, mem_q);
    end
    always_ff @(posedge clk_i) begin
      if (we_i) mem_q[waddr_i] <= wdata_i;
      if (re_i) rdata_o <= mem_q[raddr_i];
    end
  end

endmodule
