// SPDX-License-Identifier: Apache-2.0
/// Formal wrapper (yosys-smtbmc, tests/formal): totex_direct_fifo against a reference queue.
///
/// Push, pop, data and clear are free. A reference queue (an array and a count written here, in
/// the obvious way) runs beside the FIFO; checked every cycle: the fill level matches and never
/// exceeds Depth, valid_o means not empty, the head is the oldest entry not popped, overflow_o is
/// exactly a push into a full FIFO that does not pop in the same cycle (the flit that would be lost).
/// Depth >= 2 (Yosys 0.23's SMT-LIB backend fails on the one-entry FIFO's 1-bit pointer arithmetic).
`default_nettype none

module totex_formal_fifo #(
  parameter int unsigned Depth = 32'd3,
  parameter int unsigned W     = 32'd2,
  /// 1: also compare the head with the reference (bounded check: the reference's stale entries
  /// make the head compare non-inductive); 0: fill level and overflow only (proved by induction).
  parameter bit CheckData = 1'b1,
  localparam int unsigned CW = totex_pkg::idx_width(Depth + 32'd1)
) (
  input logic         clk_i,
  input logic         rst_ni,
  input logic         clear_i,
  input logic         push_i,
  input logic [W-1:0] data_i,
  input logic         pop_i
);

  logic          valid;
  logic [W-1:0]  head;
  logic [CW-1:0] count;
  logic          overflow;

  totex_direct_fifo #(.Depth(Depth), .W(W)) u_dut (
    .clk_i, .rst_ni, .clear_i, .push_i, .data_i, .pop_i,
    .valid_o (valid), .head_o (head), .count_o (count), .overflow_o (overflow)
  );

  logic first = 1'b1;
  always_ff @(posedge clk_i) first <= 1'b0;
  always_comb assume (rst_ni == !first);

  // Reference queue: ref_q[0] is the head.
  logic [W-1:0] ref_q [Depth];
  int unsigned  ref_n;
  logic         ref_pop, ref_push;
  assign ref_pop  = pop_i && ref_n != 0;
  assign ref_push = push_i && (ref_n < Depth || ref_pop);
  always_ff @(posedge clk_i) begin
    if (first || clear_i) begin
      ref_n <= 0;
    end else begin
      for (int unsigned k = 0; k < Depth; k++) begin
        // Shift out the popped head, append the pushed entry behind the rest.
        if (ref_pop) ref_q[k] <= (k + 1 < Depth) ? ref_q[k + 1] : ref_q[k];
        if (ref_push && k == ref_n - 32'(ref_pop)) ref_q[k] <= data_i;
      end
      ref_n <= ref_n + 32'(ref_push) - 32'(ref_pop);
    end
  end

  always_ff @(posedge clk_i) begin
    if (!first) begin
      assert (32'(count) == ref_n);
      assert (ref_n <= Depth);
      assert (valid == (ref_n != 0));
      if (CheckData && valid) assert (head == ref_q[0]);
      if (!clear_i) assert (overflow == (push_i && ref_n == Depth && !pop_i));
    end
  end

endmodule
