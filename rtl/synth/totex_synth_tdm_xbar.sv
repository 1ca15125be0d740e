// SPDX-License-Identifier: Apache-2.0
// Pin-light synthesis wrapper of the TDM reference crossbar (totex_tdm_xbar) for
// rtl/synth/tdm_synth.sh, built exactly like totex_synth_tdm_tile.sv: the NumPorts link ports
// are looped back (output o drives input o), the local port's input and the control inputs (table
// write port, run_i, period_last_i) come from a serial-in shift register, the local output is
// parallel-loaded into a serial-out shift register. Not a functional top: for resources and timing.

/// totex_tdm_xbar with looped-back links and serialised local/control IO.
module totex_synth_tdm_xbar #(
  parameter int unsigned NumPorts = 32'd4,
  parameter int unsigned PayloadW = 32'd32,
  parameter int unsigned Depth = 32'd128,
  localparam int unsigned EntryW = (NumPorts + 32'd1) * totex_tdm_pkg::sel_width(NumPorts),
  localparam int unsigned SlotW = totex_pkg::idx_width(Depth),
  localparam int unsigned InW = 32'd1 + PayloadW + 32'd1 + SlotW + EntryW + 32'd1 + SlotW,
  localparam int unsigned OutW = 32'd1 + PayloadW
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic sin_i,
  input  logic load_i,
  output logic sout_o
);
  localparam int unsigned W = PayloadW;
  localparam int unsigned P = NumPorts;
  localparam int unsigned OffTbl = 32'd1 + W;
  localparam int unsigned OffRun = OffTbl + 32'd1 + SlotW + EntryW;
  logic [InW-1:0]     in_q;
  logic [P:0]         iv, ov;
  logic [(P+1)*W-1:0] id, od;
  totex_synth_sipo #(.Width(InW)) u_in (.clk_i, .rst_ni, .sin_i, .q_o(in_q));
  assign iv = {in_q[0], ov[P-1:0]};
  assign id = {in_q[1 +: W], od[P*W-1:0]};
  totex_tdm_xbar #(.NumPorts(P), .PayloadW(W), .Depth(Depth)) u_dut (
    .clk_i, .rst_ni,
    .in_valid_i   (iv),
    .in_data_i    (id),
    .out_valid_o  (ov),
    .out_data_o   (od),
    .tbl_we_i     (in_q[OffTbl]),
    .tbl_addr_i   (in_q[OffTbl + 1 +: SlotW]),
    .tbl_data_i   (in_q[OffTbl + 1 + SlotW +: EntryW]),
    .run_i        (in_q[OffRun]),
    .period_last_i(in_q[OffRun + 1 +: SlotW])
  );
  totex_synth_piso #(.Width(OutW)) u_out (.clk_i, .rst_ni, .load_i, .d_i({ov[P], od[P*W +: W]}), .sout_o);
endmodule
