// SPDX-License-Identifier: Apache-2.0
/// Per-node schedule memory of the scheduled direct network: Depth entries of EW bits, written
/// one load-port word (DW = totex_direct_pkg::LOAD_DATA_W bits) at a time and read asynchronously
/// at the current step.
///
/// Entry s is stored as NumWords = entry_words(EW) words, word w holding entry bits
/// [DW*w +: DW] (the last word only its EW - DW*(NumWords-1) low bits). Each word is its own
/// memory, so the write needs no byte enables.
`default_nettype none

module totex_direct_table #(
  /// Number of entries (steps + 1 of the longest schedule the network runs).
  parameter int unsigned Depth = 32'd16,
  /// Entry width in bits.
  parameter int unsigned EW = 32'd40,
  /// Width of an entry index; do not overwrite.
  localparam int unsigned StepW = totex_direct_pkg::step_width(Depth),
  /// Width of a load-port word; do not overwrite.
  localparam int unsigned DW = totex_direct_pkg::LOAD_DATA_W,
  /// Number of words per entry; do not overwrite.
  localparam int unsigned NumWords = totex_direct_pkg::entry_words(EW),
  /// Width of a word index; do not overwrite.
  localparam int unsigned WordW = totex_direct_pkg::word_width(EW)
) (
  /// Clock, rising edge (writes only).
  input  logic             clk_i,
  /// Write enable.
  input  logic             we_i,
  /// Entry written.
  input  logic [StepW-1:0] wr_step_i,
  /// Word of the entry written.
  input  logic [WordW-1:0] wr_word_i,
  /// Data written (the last word uses its low bits).
  input  logic [DW-1:0]    wr_data_i,
  /// Entry read.
  input  logic [StepW-1:0] rd_step_i,
  /// The entry at rd_step_i.
  output logic [EW-1:0]    entry_o
);

  for (genvar w = 0; w < NumWords; w++) begin : gen_word
    localparam int unsigned Bits = (w == NumWords - 1) ? EW - DW * (NumWords - 1) : DW;
    logic [Bits-1:0] mem [Depth];
    always_ff @(posedge clk_i) begin
      if (we_i && wr_word_i == WordW'(w) && 32'(wr_step_i) < Depth) mem[wr_step_i] <= wr_data_i[Bits-1:0];
    end
    assign entry_o[DW*w +: Bits] = mem[rd_step_i];
  end

  // The unused high bits of a partial last word.
  if (EW % DW != 0) begin : gen_unused
    logic unused_data;
    assign unused_data = ^wr_data_i[DW-1:EW % DW];
  end

endmodule
