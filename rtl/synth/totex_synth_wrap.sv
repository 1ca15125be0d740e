// SPDX-License-Identifier: Apache-2.0
// Pin-light synthesis wrappers for the FPGA report (rtl/synth/fpga_report.sh).
//
// Every wrapper has four pins besides the clock: rst_ni, sin_i, load_i, sout_o. The inputs of
// the design under test come from a serial-in shift register (one flip-flop per input bit), and
// its outputs are parallel-loaded (load_i) into a serial-out shift register. So every path of the
// design under test starts and ends at a flip-flop and nextpnr reports a meaningful Fmax, while
// the design fits the 39 IO of the iCE40UP5K-SG48. Not a functional top: for resources and timing.
// Written in the Yosys 0.23 portable subset (flat packed ports, no packed multi-dim arrays).

/// Serial-in, parallel-out shift register of Width bits (Width >= 1).
module totex_synth_sipo #(
  parameter int unsigned Width = 32'd8
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             sin_i,
  output logic [Width-1:0] q_o
);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) q_o <= '0;
    else if (Width == 1) q_o <= sin_i;
    else q_o <= {q_o[Width-2:0], sin_i};
  end
endmodule

/// Parallel-load (load_i), serial-out shift register of Width bits (Width >= 2).
module totex_synth_piso #(
  parameter int unsigned Width = 32'd8
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             load_i,
  input  logic [Width-1:0] d_i,
  output logic             sout_o
);
  logic [Width-1:0] q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) q <= '0;
    else if (load_i) q <= d_i;
    else q <= {q[Width-2:0], 1'b0};
  end
  assign sout_o = q[Width-1];
endmodule

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

/// totex_direct_node: the scheduled router (totex_router) with its direct NIC and schedule table.
module totex_synth_node #(
  parameter int unsigned N = 32'd16,
  parameter int unsigned NumPorts = 32'd4,
  parameter int unsigned Model = 32'd1,
  parameter int unsigned PW = 32'd8,
  parameter int unsigned Depth = 32'd16,
  parameter int unsigned XW = 32'd8,
  localparam int unsigned IW = totex_pkg::idx_width(N),
  localparam int unsigned MW = 2 * IW + PW,
  localparam int unsigned AW = 32'd2 + IW + XW,
  localparam int unsigned StepW = totex_pkg::idx_width(Depth),
  localparam int unsigned InW = IW + 1 + AW + 32 + 2 + StepW + NumPorts + NumPorts * MW,
  localparam int unsigned OutW = 2 * NumPorts + NumPorts * MW + 1
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic sin_i,
  input  logic load_i,
  output logic sout_o
);
  localparam int unsigned OffCfg = IW;
  localparam int unsigned OffCtl = OffCfg + 1 + AW + 32;
  localparam int unsigned OffIn  = OffCtl + 2 + StepW;
  logic [InW-1:0]  in_q;
  logic [OutW-1:0] out_d;
  totex_synth_sipo #(.Width(InW)) u_in (.clk_i, .rst_ni, .sin_i, .q_o(in_q));
  totex_direct_node #(.N(N), .NumPorts(NumPorts), .Model(Model), .PW(PW), .Depth(Depth), .XW(XW)) u_dut (
    .clk_i, .rst_ni,
    .node_id_i    (in_q[IW-1:0]),
    .cfg_we_i     (in_q[OffCfg]),
    .cfg_addr_i   (in_q[OffCfg + 1 +: AW]),
    .cfg_data_i   (in_q[OffCfg + 1 + AW +: 32]),
    .clear_i      (in_q[OffCtl]),
    .active_i     (in_q[OffCtl + 1]),
    .step_i       (in_q[OffCtl + 2 +: StepW]),
    .in_valid_i   (in_q[OffIn +: NumPorts]),
    .in_data_i    (in_q[OffIn + NumPorts +: NumPorts * MW]),
    .out_valid_o  (out_d[0 +: NumPorts]),
    .eject_valid_o(out_d[NumPorts +: NumPorts]),
    .error_o      (out_d[2 * NumPorts]),
    .out_data_o   (out_d[2 * NumPorts + 1 +: NumPorts * MW])
  );
  totex_synth_piso #(.Width(OutW)) u_out (.clk_i, .rst_ni, .load_i, .d_i(out_d), .sout_o);
endmodule
