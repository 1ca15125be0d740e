// SPDX-License-Identifier: Apache-2.0
// Pin-light synthesis wrapper of the all-port TDM tile for rtl/synth/tdm_synth.sh --top allport
// (docs/tdm-tile.md). Yosys 0.23 portable subset. As totex_synth_tdm_tile: links looped back
// (output link o drives input link o), the local and control inputs (the P s_axis lanes, the P
// m_axis_tready bits, the table write port, run_i, period_last_i) from a serial-in shift register,
// the local outputs (the P m_axis lanes, the P s_axis_tready bits, missed_o, error_o)
// parallel-loaded into a serial-out shift register. Not a functional top: for resources and timing.

/// totex_tdm_allport_tile with looped-back links and serialised local/control IO.
module totex_synth_tdm_allport_tile #(
  parameter int unsigned NumPorts = 32'd4,
  parameter int unsigned PayloadW = 32'd32,
  parameter int unsigned NodeW = 32'd6,
  parameter int unsigned Depth = 32'd64,
  parameter TableFile = "",
  parameter bit BitsInFlops = 1'b0,
  localparam int unsigned MissW = 32'd16,
  localparam int unsigned EntryW = totex_tdm_pkg::allport_entry_width(NumPorts, NodeW),
  localparam int unsigned SlotW = totex_pkg::idx_width(Depth),
  localparam int unsigned LaneW = 32'd1 + PayloadW + NodeW,   // one s_axis or m_axis lane
  localparam int unsigned InW = NumPorts * LaneW + NumPorts + 32'd1 + SlotW + EntryW + 32'd1 + SlotW,
  localparam int unsigned OutW = NumPorts * LaneW + NumPorts + MissW + 32'd1
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic sin_i,
  input  logic load_i,
  output logic sout_o
);
  localparam int unsigned P = NumPorts;
  localparam int unsigned W = PayloadW;
  localparam int unsigned OffRdy = P * LaneW;          // m_axis_tready (in), s_axis_tready (out)
  localparam int unsigned OffTbl = OffRdy + P;
  localparam int unsigned OffRun = OffTbl + 32'd1 + SlotW + EntryW;
  localparam int unsigned OffMiss = OffRdy + P;
  logic [InW-1:0]     in_q;
  logic [OutW-1:0]    out_d;
  logic [P-1:0]       link_valid, s_valid, m_valid;
  logic [P*W-1:0]     link_data, s_data, m_data;
  logic [P*NodeW-1:0] s_dest, m_id;
  for (genvar l = 0; l < P; l++) begin : gen_lane_io
    assign s_valid[l]                 = in_q[l*LaneW];
    assign s_data[l*W +: W]           = in_q[l*LaneW + 1 +: W];
    assign s_dest[l*NodeW +: NodeW]   = in_q[l*LaneW + 1 + W +: NodeW];
    assign out_d[l*LaneW]             = m_valid[l];
    assign out_d[l*LaneW + 1 +: W]    = m_data[l*W +: W];
    assign out_d[l*LaneW + 1 + W +: NodeW] = m_id[l*NodeW +: NodeW];
  end
  totex_synth_sipo #(.Width(InW)) u_in (.clk_i, .rst_ni, .sin_i, .q_o(in_q));
  totex_tdm_allport_tile #(.NumPorts(P), .PayloadW(W), .NodeW(NodeW), .Depth(Depth),
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
    .s_axis_tvalid(s_valid),
    .s_axis_tready(out_d[OffRdy +: P]),
    .s_axis_tdata (s_data),
    .s_axis_tdest (s_dest),
    .m_axis_tvalid(m_valid),
    .m_axis_tready(in_q[OffRdy +: P]),
    .m_axis_tdata (m_data),
    .m_axis_tid   (m_id),
    .missed_o     (out_d[OffMiss +: MissW]),
    .error_o      (out_d[OffMiss + MissW])
  );
  totex_synth_piso #(.Width(OutW)) u_out (.clk_i, .rst_ni, .load_i, .d_i(out_d), .sout_o);
endmodule
