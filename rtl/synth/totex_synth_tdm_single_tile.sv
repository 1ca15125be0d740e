// SPDX-License-Identifier: Apache-2.0
// Pin-light synthesis wrapper of the single-port TDM tile for rtl/synth/tdm_synth.sh --top single
// (docs/tdm-tile.md). Yosys 0.23 portable subset. As totex_synth_tdm_tile: links looped back
// (output link o drives input link o), the local and control inputs from a serial-in shift
// register, the local outputs parallel-loaded into a serial-out shift register. Not a functional
// top: for resources and timing.

/// totex_tdm_single_tile with looped-back links and serialised local/control IO.
module totex_synth_tdm_single_tile #(
  parameter int unsigned NumPorts = 32'd4,
  parameter int unsigned PayloadW = 32'd32,
  parameter int unsigned NodeW = 32'd6,
  parameter int unsigned Depth = 32'd256,
  parameter int unsigned BufDepth = 32'd64,
  parameter TableFile = "",
  parameter bit BitsInFlops = 1'b0,
  localparam int unsigned MissW = 32'd16,
  localparam int unsigned BufW = totex_pkg::idx_width(BufDepth),
  localparam int unsigned EntryW = totex_tdm_pkg::single_entry_width(NumPorts, NodeW, BufW),
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
  totex_tdm_single_tile #(.NumPorts(NumPorts), .PayloadW(W), .NodeW(NodeW), .Depth(Depth),
                          .BufDepth(BufDepth), .TableFile(TableFile), .MissW(MissW), .BitsInFlops(BitsInFlops)) u_dut (
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
