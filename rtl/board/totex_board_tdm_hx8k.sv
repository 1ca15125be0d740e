// SPDX-License-Identifier: Apache-2.0
/// iCE40-HX8K breakout board (iCE40HX8K-CT256) top of the torus self-test (totex_board_tdm_torus):
/// a 3 x 3 torus of TDM tiles running totex's default nic schedule for torus:3x3 forever, pins in
/// rtl/board/hx8k.pcf. Power-on reset only (the board has no user button); the fault is a
/// parameter (build a faulty bitstream to see the failure). Built by
/// `rtl/synth/board_build.sh <outdir> torus_hx8k`, which writes the tables first
/// (docs/fpga.md, "A torus on the HX8K").
///
/// LEDs (LED[0] .. LED[7] on pins B5 B4 A2 A1 C5 C4 B3 C3), as the MIN self-test's top: while
/// every check has passed LED[6] blinks with period-counter bit LedShift and LED[5:0] show
/// period-counter bits LedShift .. LedShift+5 (one period is Period cycles: 9 at 12 MHz, so
/// LedShift 20 toggles LED[6] about every 0.8 s). After a failure LED[7] is on, LED[6] off and
/// LED[3:0] show the failed checks (LED[0] payload, LED[1] count: a message missing, duplicated
/// or from a bad source, LED[2] a tile's error_o, LED[3] a slot without its message).
`default_nettype none

module totex_board_tdm_hx8k #(
  /// Period-counter bit shown by LED[0] and the LED[6] blink.
  parameter int unsigned LedShift = 32'd20,
  /// Fault injection (totex_board_tdm_torus): 0 none, 1 a payload bit flipped at node FaultNode,
  /// 2 a data bit of FaultNode's link 0 stuck at 1, 3 one message of FaultNode never offered.
  parameter int unsigned Fault = 32'd0,
  /// The node the fault is injected at.
  parameter int unsigned FaultNode = 32'd0,
  /// Torus size (the tables must be for torus:XxY).
  parameter int unsigned X = 32'd3,
  parameter int unsigned Y = 32'd3,
  /// Payload bits.
  parameter int unsigned PayloadW = 32'd8,
  /// Slots per period and of the tables (tables.json "period" and "depth").
  parameter int unsigned Period = 32'd9,
  parameter int unsigned Depth = 32'd16,
  /// Directory of the tables node<v>.hex.
  parameter TableDir = "torus_tables"
) (
  /// 12 MHz oscillator.
  input  logic       CLK,
  /// LEDs, high = on.
  output logic [7:0] LED
);

  localparam int unsigned RunW = LedShift + 32'd6;

  logic            rst_n, pass, fail, period_done;
  logic [3:0]      fail_code;
  logic [RunW-1:0] runs;

  totex_board_reset u_reset (.clk_i(CLK), .arst_ni(1'b1), .rst_no(rst_n));

  totex_board_tdm_torus #(
    .X        (X),
    .Y        (Y),
    .PayloadW (PayloadW),
    .Period   (Period),
    .Depth    (Depth),
    .TableDir (TableDir),
    .RunW     (RunW),
    .FaultNode(FaultNode)
  ) u_torus (
    .clk_i        (CLK),
    .rst_ni       (rst_n),
    .fault_i      (2'(Fault)),
    .pass_o       (pass),
    .fail_o       (fail),
    .fail_code_o  (fail_code),
    .runs_o       (runs),
    .period_done_o(period_done)
  );

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_period_done;
  /* verilator lint_on UNUSEDSIGNAL */
  assign unused_period_done = period_done;

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
