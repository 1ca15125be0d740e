// SPDX-License-Identifier: Apache-2.0
/// Reset for a board top: asynchronous assert, synchronous release (so that no flip-flop leaves
/// reset in a different cycle than its neighbours), and a power-on reset.
///
/// Power-on: iCE40 flip-flops are 0 after configuration, so the chain starts asserted and releases
/// Stages cycles after the clock runs. The initial value below says the same to a simulator.
`default_nettype none

module totex_board_reset #(
  /// Cycles from the release of arst_ni (or configuration) to the release of rst_no; >= 2.
  parameter int unsigned Stages = 32'd4
) (
  /// Clock, rising edge.
  input  logic clk_i,
  /// Asynchronous reset request, active low (a push button; tie to 1 for power-on reset only).
  input  logic arst_ni,
  /// Reset for the design, active low, released synchronously to clk_i.
  output logic rst_no
);

  if (Stages < 32'd2) begin : gen_stages_err
    $error("totex_board_reset: Stages must be >= 2");
  end

  logic [Stages-1:0] sync_q = '0;

  always_ff @(posedge clk_i or negedge arst_ni) begin
    if (!arst_ni) sync_q <= '0;
    else          sync_q <= {sync_q[Stages-2:0], 1'b1};
  end

  assign rst_no = sync_q[Stages-1];

endmodule
