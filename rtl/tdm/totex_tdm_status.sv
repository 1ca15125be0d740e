// SPDX-License-Identifier: Apache-2.0
/// missed_o and error_o of a TDM tile (docs/tdm-tile.md): the count of inject slots that found no
/// committed message, and the sticky error, from the sources the tiles' shell (totex_tdm_shell)
/// computes: part of all three tiles (nic, all-port, single-port).
///
/// The count is two halves, the high one adding the low one's registered carry (short carry
/// chains; missed_o lags one cycle more when the low half wraps). One lane (Lanes = 1): the
/// pulse is the low half's enable, so the carry chain starts at flip-flops. More lanes: the
/// pulses are registered, their count registered, then added: three cycles behind the one-lane
/// count. The error sources are registered, then ORed into the sticky bit.
`default_nettype none

module totex_tdm_status #(
  /// Miss pulses per cycle (the tile's inject lanes), >= 1.
  parameter int unsigned Lanes = 32'd1,
  /// Input links (left-flit flags), >= 1.
  parameter int unsigned Ports = 32'd4,
  /// Bits of missed_o (>= 2).
  parameter int unsigned MissW = 32'd16
) (
  /// Clock, rising edge.
  input  logic             clk_i,
  /// Asynchronous active-low reset.
  input  logic             rst_ni,
  /// One pulse per lane whose decision missed (one cycle after the decision).
  input  logic [Lanes-1:0] miss_i,
  /// Error sources, any cycle (ORed by the shell into two groups to keep this register small).
  input  logic             err_a_i,
  input  logic             err_b_i,
  /// Per input link: a flit left on it (valid, used by nothing) in an executing cycle.
  input  logic [Ports-1:0] left_i,
  /// Missed inject slots (wraps).
  output logic [MissW-1:0] missed_o,
  /// Sticky error.
  output logic             error_o
);

  localparam int unsigned MissLoW = MissW / 32'd2;
  // Bits of a cycle's count of pulses, and of the carry into the high half.
  localparam int unsigned CntW = totex_pkg::idx_width(Lanes + 32'd1);
  localparam int unsigned CarryW = (Lanes == 32'd1) ? 32'd1 : CntW;
  logic [MissLoW-1:0]       lo_q;
  logic [MissW-MissLoW-1:0] hi_q;
  logic [CarryW-1:0]        miss_c_q;
  if (Lanes == 32'd1) begin : gen_one
    // lo_full_q = &lo_q, kept one count ahead (lo_q is about to wrap), so that the carry is one
    // LUT of the pulse and flip-flops.
    localparam logic [MissLoW-1:0] LoFullM1 = MissLoW'((64'd1 << MissLoW) - 64'd2);
    logic lo_full_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        lo_q      <= '0;
        lo_full_q <= 1'b0;
        miss_c_q  <= '0;
      end else begin
        // The carry as an AND, not out of the end of the carry chain; the pulse as the low half's
        // enable, so the carry chain starts at flip-flops.
        if (miss_i[0]) begin
          lo_q      <= lo_q + MissLoW'(1);
          lo_full_q <= (lo_q == LoFullM1);
        end
        miss_c_q <= CarryW'(miss_i[0] & lo_full_q);
      end
    end
  end else begin : gen_lanes
    logic [Lanes-1:0]        miss_q;
    logic [CntW-1:0]         miss_n, miss_n_q;
    logic [MissLoW+CntW-1:0] lo_sum;   // wide enough for the carry of any count into any low half
    always_comb begin
      miss_n = '0;
      for (int unsigned l = 0; l < Lanes; l++) miss_n = miss_n + CntW'(miss_q[l]);
    end
    assign lo_sum = (MissLoW + CntW)'(lo_q) + (MissLoW + CntW)'(miss_n_q);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        miss_q   <= '0;
        miss_n_q <= '0;
        lo_q     <= '0;
        miss_c_q <= '0;
      end else begin
        miss_q   <= miss_i;
        miss_n_q <= miss_n;
        lo_q     <= lo_sum[MissLoW-1:0];
        miss_c_q <= lo_sum[MissLoW +: CntW];
      end
    end
  end

  logic             err_q, ea_q, eb_q;
  logic [Ports-1:0] left_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hi_q   <= '0;
      err_q  <= 1'b0;
      ea_q   <= 1'b0;
      eb_q   <= 1'b0;
      left_q <= '0;
    end else begin
      // One lane: the carry as the high half's enable (its carry chain starts at flip-flops).
      if (Lanes == 32'd1) begin
        if (miss_c_q[0]) hi_q <= hi_q + (MissW - MissLoW)'(1);
      end else begin
        hi_q <= hi_q + (MissW - MissLoW)'(miss_c_q);
      end
      ea_q   <= err_a_i;
      eb_q   <= err_b_i;
      left_q <= left_i;
      err_q  <= err_q | ea_q | eb_q | (|left_q);
    end
  end
  assign missed_o = {hi_q, lo_q};
  assign error_o  = err_q;

endmodule
