// SPDX-License-Identifier: Apache-2.0
/// The eight LEDs of an HX8K breakout board top, registered (no glitches on the pins): while every
/// check has passed, led_o[6] blinks with run-counter bit LedShift and led_o[5:0] show run-counter
/// bits RunW-6 .. RunW-1; after a failure led_o[7] is on, led_o[6] off and led_o[3:0] show the
/// failed checks. Shared by the MIN self-test top and the torus top.
`default_nettype none

module totex_board_leds #(
  /// Width of the run counter (>= 6).
  parameter int unsigned RunW = 32'd21,
  /// Run-counter bit that blinks led_o[6].
  parameter int unsigned LedShift = 32'd15
) (
  /// Clock, rising edge.
  input  logic            clk_i,
  /// Asynchronous active-low reset (all LEDs off).
  input  logic            rst_ni,
  /// Every check has passed so far.
  input  logic            pass_i,
  /// A check failed (sticky).
  input  logic            fail_i,
  /// Which checks failed.
  input  logic [3:0]      fail_code_i,
  /// Run (or period) counter.
  input  logic [RunW-1:0] runs_i,
  /// LED[7:0].
  output logic [7:0]      led_o
);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) led_o <= '0;
    else led_o <= {fail_i, pass_i && runs_i[LedShift], fail_i ? {2'b00, fail_code_i} : runs_i[RunW-1 -: 6]};
  end

endmodule
