// SPDX-License-Identifier: Apache-2.0
/// iCEBreaker (iCE40UP5K-SG48) top of the MIN self-test (totex_board_selftest), pins in
/// rtl/board/icebreaker.pcf. Port names follow the board's silkscreen and the icestorm example pcf.
///
/// LEDs while every check has passed: green (LEDG_N) blinks with run-counter bit LedShift, LED1..LED5
/// on the PMOD2 break-off show run-counter bits LedShift .. LedShift+4 (LED1 the lowest).
/// After a failure: red (LEDR_N) on, green off, LED1..LED4 show the failed checks (fail_code_o:
/// LED1 label phase, LED2 labels not a permutation, LED3 message phase, LED4 payload), LED5 off.
/// Buttons: BTN_N resets (and clears the failure); while BTN1 is held every message phase runs with
/// one corrupted switch state, while BTN2 is held one terminal's payloads have a bit flipped.
`default_nettype none

module totex_board_icebreaker #(
  /// Run-counter bit shown by LED1 / the green blink; one run is ~350 cycles, so 15 gives about
  /// one toggle per second at 12 MHz.
  parameter int unsigned LedShift = 32'd15
) (
  /// 12 MHz oscillator.
  input  logic CLK,
  /// User button, low while pressed (board pull-up): reset.
  input  logic BTN_N,
  /// PMOD2 button 1, high while pressed: corrupt one switch state.
  input  logic BTN1,
  /// PMOD2 button 2, high while pressed: corrupt one terminal's payloads.
  input  logic BTN2,
  /// Red LED, low = on: a check failed.
  output logic LEDR_N,
  /// Green LED, low = on: blinks while every check passes.
  output logic LEDG_N,
  /// PMOD2 LEDs, high = on: run counter, or the failed checks.
  output logic LED1,
  output logic LED2,
  output logic LED3,
  output logic LED4,
  output logic LED5
);

  localparam int unsigned RunW = LedShift + 32'd5;

  logic            rst_n, fault_state, fault_payload, pass, fail, run_done;
  logic [3:0]      fail_code;
  logic [RunW-1:0] runs;

  totex_board_reset u_reset (.clk_i(CLK), .arst_ni(BTN_N), .rst_no(rst_n));
  totex_board_sync u_sync_btn1 (.clk_i(CLK), .rst_ni(rst_n), .d_i(BTN1), .q_o(fault_state));
  totex_board_sync u_sync_btn2 (.clk_i(CLK), .rst_ni(rst_n), .d_i(BTN2), .q_o(fault_payload));

  totex_board_selftest #(.RunW(RunW)) u_selftest (
    .clk_i           (CLK),
    .rst_ni          (rst_n),
    .fault_state_i   (fault_state),
    .fault_payload_i (fault_payload),
    .pass_o          (pass),
    .fail_o          (fail),
    .fail_code_o     (fail_code),
    .runs_o          (runs),
    .run_done_o      (run_done)
  );

  // The run-done pulse is for simulation and the hx8k top's needs; nothing to show here.
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_run_done;
  /* verilator lint_on UNUSEDSIGNAL */
  assign unused_run_done = run_done;

  // Registered outputs: no glitches on the pins, and pin timing is one flip-flop to the pad.
  logic [6:0] led_q;
  always_ff @(posedge CLK or negedge rst_n) begin
    if (!rst_n) led_q <= '0;
    else led_q <= {fail, pass && runs[LedShift],
                   fail ? {1'b0, fail_code} : runs[RunW-1 -: 5]};
  end

  assign LEDR_N = !led_q[6];
  assign LEDG_N = !led_q[5];
  assign {LED5, LED4, LED3, LED2, LED1} = led_q[4:0];

endmodule
