// SPDX-License-Identifier: Apache-2.0
// Pin-light synthesis wrappers for the FPGA report (rtl/synth/fpga_report.sh).
//
// Every wrapper has four pins besides the clock: rst_ni, sin_i, load_i, sout_o. The inputs of
// the design under test come from a serial-in shift register (one flip-flop per input bit), and
// its outputs are parallel-loaded (load_i) into a serial-out shift register. So every path of the
// design under test starts and ends at a flip-flop and nextpnr reports a meaningful Fmax, while
// the design fits the 39 IO of the iCE40UP5K-SG48. Not a functional top: for resources and timing.
// Written in the Yosys 0.23 portable subset (flat packed ports, no packed multi-dim arrays).

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
    .connected_i  ('1),
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
