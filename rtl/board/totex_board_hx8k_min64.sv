// SPDX-License-Identifier: Apache-2.0
/// iCE40-HX8K breakout board (iCE40HX8K-CT256) top of the 64 x 64 d = 4 MIN self-test with the
/// bit-serial wire (totex_board_serial_selftest), pins in rtl/board/hx8k.pcf. The LEDs mean what
/// they mean on totex_board_hx8k (the 16 x 16 self-test); only the run is longer (26,478 cycles),
/// hence LedShift 9: one LED6 toggle per 512 runs, 1.13 s at 12 MHz. Reset is power-on only and the
/// faults are parameters, as there.
///
/// LEDs (LED[0] .. LED[7] on pins B5 B4 A2 A1 C5 C4 B3 C3): while every check has passed LED[6]
/// blinks with run-counter bit LedShift and LED[5:0] show run-counter bits LedShift .. LedShift+5.
/// After a failure LED[7] is on, LED[6] off and LED[3:0] show the failed checks (fail_code_o:
/// LED[0] label phase, LED[1] labels not a Latin square, LED[2] message phase, LED[3] payload).
`default_nettype none

module totex_board_hx8k_min64 #(
  /// Run-counter bit shown by LED[0] and the LED[6] blink (~1 toggle per second at 12 MHz).
  parameter int unsigned LedShift = 32'd9,
  /// 1: every message phase runs with one corrupted switch state.
  parameter int unsigned FaultState = 32'd0,
  /// 1: one terminal's payloads have a bit flipped.
  parameter int unsigned FaultPayload = 32'd0
) (
  /// 12 MHz oscillator.
  input  logic       CLK,
  /// LEDs, high = on.
  output logic [7:0] LED
);

  localparam int unsigned RunW = LedShift + 32'd6;

  logic            rst_n, pass, fail, run_done;
  logic [3:0]      fail_code;
  logic [RunW-1:0] runs;

  totex_board_reset u_reset (.clk_i(CLK), .arst_ni(1'b1), .rst_no(rst_n));

  totex_board_serial_selftest #(.N(32'd64), .D(32'd4), .RunW(RunW)) u_selftest (
    .clk_i           (CLK),
    .rst_ni          (rst_n),
    .fault_state_i   (FaultState != 32'd0),
    .fault_payload_i (FaultPayload != 32'd0),
    .pass_o          (pass),
    .fail_o          (fail),
    .fail_code_o     (fail_code),
    .runs_o          (runs),
    .run_done_o      (run_done)
  );

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_run_done;
  /* verilator lint_on UNUSEDSIGNAL */
  assign unused_run_done = run_done;

  totex_board_leds #(.RunW(RunW), .LedShift(LedShift)) u_leds (
    .clk_i      (CLK),
    .rst_ni     (rst_n),
    .pass_i     (pass),
    .fail_i     (fail),
    .fail_code_i(fail_code),
    .runs_i     (runs),
    .led_o      (LED)
  );

endmodule
