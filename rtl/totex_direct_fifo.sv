// SPDX-License-Identifier: Apache-2.0
/// Synchronous FIFO (dynamic-mode router input buffer): push and pop in the same cycle are
/// allowed, the head is visible the cycle after the push (no fall-through). Pushing when full or
/// popping when empty is ignored; both are asserted (Checks) and a push when full is flagged on
/// overflow_o.
`default_nettype none

module totex_direct_fifo #(
  /// Number of entries, >= 1.
  parameter int unsigned Depth = 32'd4,
  /// Entry width.
  parameter int unsigned W = 32'd8,
  /// 1: assert on a push when full and a pop when empty; 0: the user checks (totex_router_dyn
  /// checks all its FIFOs at once, one assertion instead of two per FIFO).
  parameter bit Checks = 1'b1,
  /// Width of the fill level; do not overwrite.
  localparam int unsigned CW = totex_pkg::idx_width(Depth + 32'd1),
  /// Width of an entry index; do not overwrite.
  localparam int unsigned PtrW = totex_pkg::idx_width(Depth)
) (
  /// Clock, rising edge.
  input  logic          clk_i,
  /// Asynchronous active-low reset.
  input  logic          rst_ni,
  /// Synchronous clear (start of a run).
  input  logic          clear_i,
  /// Push data_i.
  input  logic          push_i,
  /// Data pushed.
  input  logic [W-1:0]  data_i,
  /// Pop the head.
  input  logic          pop_i,
  /// The FIFO holds an entry.
  output logic          valid_o,
  /// The head entry (valid when valid_o).
  output logic [W-1:0]  head_o,
  /// Fill level.
  output logic [CW-1:0] count_o,
  /// A push found the FIFO full (this cycle).
  output logic          overflow_o
);

  logic [W-1:0]    mem [Depth];
  logic [PtrW-1:0] rd_q, wr_q;
  logic [CW-1:0]   count_q;
  logic            do_push, do_pop;

  /// p + 1 modulo Depth.
  function automatic logic [PtrW-1:0] next_ptr(input logic [PtrW-1:0] p);
    if (32'(p) == Depth - 32'd1) next_ptr = '0;
    else                         next_ptr = p + PtrW'(1);
  endfunction

  assign do_pop     = pop_i && count_q != '0;
  assign do_push    = push_i && (32'(count_q) < Depth || do_pop);
  assign overflow_o = push_i && !do_push;

  always_ff @(posedge clk_i) begin
    if (do_push && !clear_i) mem[wr_q] <= data_i;
  end

  // The next state is worked out in the clocked block (not in a combinational one beside it): a
  // simulator then computes it once per clock edge, not on every change of push_i or pop_i.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q    <= '0;
      wr_q    <= '0;
      count_q <= '0;
    end else if (clear_i) begin
      rd_q    <= '0;
      wr_q    <= '0;
      count_q <= '0;
    end else if (do_push || do_pop) begin
      if (do_pop)  rd_q <= next_ptr(rd_q);
      if (do_push) wr_q <= next_ptr(wr_q);
      count_q <= count_q + CW'(do_push) - CW'(do_pop);
    end
  end

  assign valid_o = count_q != '0;
  assign head_o  = mem[rd_q];
  assign count_o = count_q;

`ifndef SYNTHESIS
`ifndef TOTEX_NO_ASSERTIONS
  if (Checks) begin : gen_checks
    always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert
      if (rst_ni && !clear_i) begin
        assert (!overflow_o) else $error("totex_direct_fifo: push while full (flit lost)");
        assert (!(pop_i && count_q == '0)) else $error("totex_direct_fifo: pop while empty");
      end
    end
  end
`endif
`endif

endmodule
