// SPDX-License-Identifier: Apache-2.0
/// Two-flip-flop synchronizer for a slow asynchronous input (a push button): the first flip-flop
/// may go metastable, the second gives it a full cycle to settle.
`default_nettype none

module totex_board_sync (
  /// Clock, rising edge.
  input  logic clk_i,
  /// Reset, active low (output 0).
  input  logic rst_ni,
  /// Asynchronous input.
  input  logic d_i,
  /// d_i, two cycles later, synchronous to clk_i.
  output logic q_o
);

  logic [1:0] sync_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sync_q <= '0;
    else         sync_q <= {sync_q[0], d_i};
  end

  assign q_o = sync_q[1];

endmodule
