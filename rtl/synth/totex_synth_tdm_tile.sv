// SPDX-License-Identifier: Apache-2.0
// Pin-light synthesis wrapper of the TDM tile for rtl/synth/tdm_synth.sh (docs/tdm-tile.md).
// Yosys 0.23 portable subset.
//
// The tile's link ports are looped back (output link o drives input link o), as a neighbour's
// registered outputs would drive them in a network: no wrapper logic on the links, and every link
// path starts and ends at a tile register. The local and control inputs (s_axis, m_axis_tready,
// the table write port, run_i, period_last_i) come from a serial-in shift register (one
// flip-flop per bit), and the local outputs (m_axis, s_axis_tready, missed_o, error_o) are
// parallel-loaded (load_i) into a serial-out shift register. So every path starts and ends at a
// flip-flop, nothing is constant (the table is loaded at run time) and the design fits the 39 IO
// of the iCE40UP5K-SG48. Not a functional top: for resources and timing.

/// totex_tdm_tile with looped-back links and serialised local/control IO.
module totex_synth_tdm_tile #(
  parameter int unsigned NumPorts = 32'd4,
  parameter int unsigned PayloadW = 32'd32,
  parameter int unsigned NodeW = 32'd6,
  parameter int unsigned Depth = 32'd128,
  parameter TableFile = "",
  parameter bit BitsInFlops = 1'b0,
  localparam int unsigned MissW = 32'd16,
  localparam int unsigned EntryW = totex_tdm_pkg::entry_width(NumPorts, NodeW),
  localparam int unsigned SlotW = totex_pkg::idx_width(Depth),
  localparam int unsigned InW = 32'd1 + PayloadW + NodeW + 32'd1 + 32'd1 + SlotW + EntryW + 32'd1 + SlotW,
  localparam int unsigned OutW = 32'd1 + PayloadW + NodeW + 32'd1 + MissW + 32'd1
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic sin_i,
  input  logic load_i,
  output logic sout_o
);
  localparam int unsigned W = PayloadW;
  localparam int unsigned OffTbl = 32'd1 + W + NodeW + 32'd1;
  localparam int unsigned OffRun = OffTbl + 32'd1 + SlotW + EntryW;
  logic [InW-1:0]           in_q;
  logic [OutW-1:0]          out_d;
  logic [NumPorts-1:0]      link_valid;
  logic [NumPorts*W-1:0]    link_data;
  totex_synth_sipo #(.Width(InW)) u_in (.clk_i, .rst_ni, .sin_i, .q_o(in_q));
  totex_tdm_tile #(.NumPorts(NumPorts), .PayloadW(W), .NodeW(NodeW), .Depth(Depth),
                   .TableFile(TableFile), .MissW(MissW), .BitsInFlops(BitsInFlops)) u_dut (
    .clk_i, .rst_ni,
    .in_valid_i   (link_valid),
    .in_data_i    (link_data),
    .out_valid_o  (link_valid),
    .out_data_o   (link_data),
    .tbl_we_i     (in_q[OffTbl]),
    .tbl_addr_i   (in_q[OffTbl + 1 +: SlotW]),
    .tbl_data_i   (in_q[OffTbl + 1 + SlotW +: EntryW]),
    .run_i        (in_q[OffRun]),
    .period_last_i(in_q[OffRun + 1 +: SlotW]),
    .s_axis_tvalid(in_q[0]),
    .s_axis_tready(out_d[W + NodeW + 1]),
    .s_axis_tdata (in_q[1 +: W]),
    .s_axis_tdest (in_q[1 + W +: NodeW]),
    .m_axis_tvalid(out_d[0]),
    .m_axis_tready(in_q[1 + W + NodeW]),
    .m_axis_tdata (out_d[1 +: W]),
    .m_axis_tid   (out_d[1 + W +: NodeW]),
    .missed_o     (out_d[W + NodeW + 2 +: MissW]),
    .error_o      (out_d[W + NodeW + 2 + MissW])
  );
  totex_synth_piso #(.Width(OutW)) u_out (.clk_i, .rst_ni, .load_i, .d_i(out_d), .sout_o);
endmodule
