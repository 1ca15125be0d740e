// SPDX-License-Identifier: Apache-2.0
/// Receive FIFO of an exported TDM network's node (`totex rtl`, docs/ip.md): turns a TDM tile's
/// m_axis, which never stalls (a one-cycle pulse per ejected flit that must be taken), into an
/// AXI4-Stream master that honours tready. The network top pauses every tile (run_i low) while any
/// node's FIFO holds more than Depth - 3 words (hold_o), which is the room for the three flits that
/// can still arrive after the decision: the one on the tile's m_axis now, the one ejected by the
/// slot executing now, and the one of the slot the decision itself lets run. So a sink that keeps
/// tready low stalls the whole network (the TDM schedule is global) and never loses a flit.
///
/// Cycle contract: a flit pushed at the end of cycle c is on m_axis_* from cycle c + 1 (one cycle
/// of latency); m_axis_tvalid, tdata and tid hold until tready. The memory is flip-flops with no
/// reset (the datapath); pointers and count are reset.
`default_nettype none

module totex_tdm_rx_fifo #(
  /// Words held, a power of two >= 4 (4 keeps the network at full rate while tready stays high).
  parameter int unsigned Depth = 32'd4,
  /// Bits of a word (the tile's payload and source id side by side).
  parameter int unsigned Width = 32'd8,
  /// Bits of a pointer; do not overwrite.
  localparam int unsigned AW = totex_pkg::idx_width(Depth)
) (
  /// Clock, rising edge.
  input  logic             clk_i,
  /// Asynchronous active-low reset of the pointers and the count.
  input  logic             rst_ni,
  /// A word to store (the tile's m_axis_tvalid; it cannot wait).
  input  logic             push_i,
  /// The word.
  input  logic [Width-1:0] push_data_i,
  /// More than Depth - 3 words held: the network must pause.
  output logic             hold_o,
  /// A push found the FIFO full (sticky until reset; cannot happen under the top's hold rule).
  output logic             overflow_o,
  /// The oldest word is on pop_data_o.
  output logic             pop_valid_o,
  /// The sink takes it at this edge when pop_valid_o is high.
  input  logic             pop_ready_i,
  /// The oldest word.
  output logic [Width-1:0] pop_data_o
);

  if (Depth < 32'd4 || (Depth & (Depth - 32'd1)) != 32'd0) begin : gen_param_err
    $error("totex_tdm_rx_fifo: Depth must be a power of two >= 4");
  end

  logic [Width-1:0] mem_q [Depth];
  logic [AW-1:0]    wr_q, rd_q;
  logic [AW:0]      count_q;
  logic             overflow_q, pop, full;

  assign full = count_q == (AW + 1)'(Depth);
  assign pop  = pop_valid_o & pop_ready_i;

  always_ff @(posedge clk_i) begin
    if (push_i && !full) mem_q[wr_q] <= push_data_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_q       <= '0;
      rd_q       <= '0;
      count_q    <= '0;
      overflow_q <= 1'b0;
    end else begin
      if (push_i && !full) wr_q <= wr_q + AW'(1);
      if (pop) rd_q <= rd_q + AW'(1);
      count_q    <= count_q + (AW + 1)'(push_i && !full) - (AW + 1)'(pop);
      overflow_q <= overflow_q | (push_i & full);
    end
  end

  assign hold_o      = count_q > (AW + 1)'(Depth - 32'd3);
  assign overflow_o  = overflow_q;
  assign pop_valid_o = count_q != '0;
  assign pop_data_o  = mem_q[rd_q];

`ifndef SYNTHESIS
`ifndef TOTEX_NO_ASSERTIONS
  always_ff @(posedge clk_i) begin
    if (rst_ni) assert (!(push_i && full)) else $error("totex_tdm_rx_fifo: push while full (the network did not pause)");
  end
`endif
`endif

endmodule
