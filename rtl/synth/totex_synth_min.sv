// SPDX-License-Identifier: Apache-2.0
// Pin-light synthesis wrappers for the FPGA report (rtl/synth/fpga_report.sh).
//
// Every wrapper has four pins besides the clock: rst_ni, sin_i, load_i, sout_o. The inputs of
// the design under test come from a serial-in shift register (one flip-flop per input bit), and
// its outputs are parallel-loaded (load_i) into a serial-out shift register. So every path of the
// design under test starts and ends at a flip-flop and nextpnr reports a meaningful Fmax, while
// the design fits the 39 IO of the iCE40UP5K-SG48. Not a functional top: for resources and timing.
// Written in the Yosys 0.23 portable subset (flat packed ports, no packed multi-dim arrays).

/// totex_min_top: N terminals, radix D, PW-bit payload, table (Mode 0) or computed (Mode 1).
module totex_synth_min #(
  parameter int unsigned N = 32'd16,
  parameter int unsigned D = 32'd4,
  parameter int unsigned PW = 32'd4,
  parameter int unsigned Wiring = 32'd0,
  parameter int unsigned Mode = 32'd0,
  localparam int unsigned IW = totex_pkg::idx_width(N),
  localparam int unsigned SXW = totex_pkg::idx_width(N),
  localparam int unsigned MW = 2 * IW + SXW + PW,
  localparam int unsigned NumStages = totex_pkg::num_digits(N, D),
  localparam int unsigned NumSw = NumStages * (N / D),
  localparam int unsigned XW = totex_pkg::idx_width((NumSw > N) ? NumSw : N),
  localparam int unsigned AW = 32'd2 + XW + SXW,
  localparam int unsigned DW = 1 + IW + PW,
  localparam int unsigned CW = totex_pkg::idx_width(N + 32'd1),
  localparam int unsigned InW = 1 + AW + DW + 2,
  localparam int unsigned OutW = 3 + SXW + N + N * MW + N * CW
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
  totex_min_top #(.N(N), .D(D), .PW(PW), .Wiring(Wiring), .Mode(Mode), .MaxSteps(N)) u_dut (
    .clk_i, .rst_ni,
    .cfg_we_i     (in_q[0]),
    .cfg_addr_i   (in_q[1 +: AW]),
    .cfg_data_i   (in_q[1 + AW +: DW]),
    .start_i      (in_q[1 + AW + DW]),
    .phase_i      (in_q[2 + AW + DW]),
    .busy_o       (out_d[0]),
    .done_o       (out_d[1]),
    .error_o      (out_d[2]),
    .step_o       (out_d[3 +: SXW]),
    .eject_valid_o(out_d[3 + SXW +: N]),
    .eject_data_o (out_d[3 + SXW + N +: N * MW]),
    .recv_count_o (out_d[3 + SXW + N + N * MW +: N * CW])
  );
  totex_synth_piso #(.Width(OutW)) u_out (.clk_i, .rst_ni, .load_i, .d_i(out_d), .sout_o);
endmodule
