// SPDX-License-Identifier: Apache-2.0
// Pin-light synthesis wrappers for the FPGA report (rtl/synth/fpga_report.sh).
//
// Every wrapper has four pins besides the clock: rst_ni, sin_i, load_i, sout_o. The inputs of
// the design under test come from a serial-in shift register (one flip-flop per input bit), and
// its outputs are parallel-loaded (load_i) into a serial-out shift register. So every path of the
// design under test starts and ends at a flip-flop and nextpnr reports a meaningful Fmax, while
// the design fits the 39 IO of the iCE40UP5K-SG48. Not a functional top: for resources and timing.
// Written in the Yosys 0.23 portable subset (flat packed ports, no packed multi-dim arrays).

/// totex_shift_switch (Xbar = 0) or totex_crossbar (Xbar = 1), D x D lanes of W bits.
module totex_synth_switch #(
  parameter int unsigned D = 32'd4,
  parameter int unsigned W = 32'd8,
  parameter int unsigned Xbar = 32'd0,
  localparam int unsigned SW = totex_pkg::idx_width(D),
  localparam int unsigned CtlW = (Xbar != 0) ? D * SW : SW,
  localparam int unsigned InW = CtlW + D + D * W,
  localparam int unsigned OutW = D + D * W
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic sin_i,
  input  logic load_i,
  output logic sout_o
);
  logic [InW-1:0]  in_q;
  logic [OutW-1:0] out_d;
  totex_synth_sipo #(.Width(InW)) u_in (.clk_i, .rst_ni, .sin_i, .q_o(in_q));
  if (Xbar != 0) begin : g_xbar
    totex_crossbar #(.D(D), .W(W)) u_dut (
      .clk_i, .rst_ni,
      .sel_i  (in_q[CtlW-1:0]),
      .valid_i(in_q[CtlW +: D]),
      .data_i (in_q[CtlW + D +: D * W]),
      .valid_o(out_d[D * W +: D]),
      .data_o (out_d[D * W - 1:0])
    );
  end else begin : g_shift
    totex_shift_switch #(.D(D), .W(W)) u_dut (
      .clk_i, .rst_ni,
      .state_i(in_q[CtlW-1:0]),
      .valid_i(in_q[CtlW +: D]),
      .data_i (in_q[CtlW + D +: D * W]),
      .valid_o(out_d[D * W +: D]),
      .data_o (out_d[D * W - 1:0])
    );
  end
  totex_synth_piso #(.Width(OutW)) u_out (.clk_i, .rst_ni, .load_i, .d_i(out_d), .sout_o);
endmodule
