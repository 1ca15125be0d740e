// SPDX-License-Identifier: Apache-2.0
/// D x D k-shift switch with registered outputs: in state k, input u drives output (u + k) mod D.
///
/// The switch only has the d "k-shift" states of the paper (S = {0-shift, ..., (d-1)-shift}), so it
/// is a rotator, not a crossbar. It is built as a log2(D)-deep barrel rotator: stage b rotates the
/// D lanes (data plus valid) by (2^b mod D) when bit b of k is set. Rotations compose modulo D, so
/// stage outputs always sit in lanes 0..D-1 and the circuit is correct for any D >= 2, including
/// non-powers of two (k = sum_b k_b 2^b, and sum_b k_b (2^b mod D) = k mod D). Each stage is one
/// 2:1 mux per lane, i.e. D * (W+1) * idx_width(D) two-input muxes in all.
///
/// Latency: one cycle (data_o/valid_o are the only registers).
`default_nettype none

module totex_shift_switch #(
  /// Switch radix d (number of inputs and outputs), >= 2.
  parameter int unsigned D = 32'd4,
  /// Payload width of one lane in bits.
  parameter int unsigned W = 32'd8,
  /// Width of the state (shift amount) field; do not overwrite.
  localparam int unsigned SW = totex_pkg::idx_width(D)
) (
  /// Clock, rising edge.
  input  logic           clk_i,
  /// Asynchronous active-low reset (clears valid_o and data_o).
  input  logic           rst_ni,
  /// Shift amount k in [0, D) for the data entering in this cycle.
  input  logic [SW-1:0]  state_i,
  /// Per-input valid.
  input  logic [D-1:0]   valid_i,
  /// Per-input data, lane u at data_i[u*W +: W].
  input  logic [D*W-1:0] data_i,
  /// Registered per-output valid: valid_o[(u+k) mod D] = valid_i[u].
  output logic [D-1:0]   valid_o,
  /// Registered per-output data, lane v at data_o[v*W +: W] = data_i lane (v-k) mod D.
  output logic [D*W-1:0] data_o
);

  // For Verilator simulation: keep one C++ class per (D, W) instead of inlining every switch of a MIN (the
  // unrolled rotator over wide lanes makes inlined copies very large). Ignored by Yosys.
  /* verilator no_inline_module */

  if (D < 32'd2) begin : gen_param_err
    $error("totex_shift_switch: D must be >= 2");
  end

  // Lane = {valid, data}. One always_comb walks the rotator stages; `cur` holds the lanes after
  // the stages done so far (a procedural chain, so there is no self-referencing net).
  localparam int unsigned LW = W + 32'd1;

  logic [D*LW-1:0] cur;
  logic [D*LW-1:0] nxt;
  logic [D-1:0]    valid_d;
  logic [D*W-1:0]  data_d;

  always_comb begin
    for (int unsigned u = 0; u < D; u++) begin
      cur[u*LW +: LW] = {valid_i[u], data_i[u*W +: W]};
    end
    nxt = cur;
    for (int unsigned b = 0; b < SW; b++) begin
      // Stage b rotates by s = 2^b mod D: lane u moves to (u + s) mod D, so output lane v reads
      // lane (v + D - s) mod D.
      for (int unsigned v = 0; v < D; v++) begin
        nxt[v*LW +: LW] = state_i[b] ? cur[((v + D - ((32'd1 << b) % D)) % D)*LW +: LW]
                                     : cur[v*LW +: LW];
      end
      cur = nxt;
    end
    for (int unsigned v = 0; v < D; v++) begin
      valid_d[v]       = cur[v*LW + W];
      data_d[v*W +: W] = cur[v*LW +: W];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_o <= '0;
      data_o  <= '0;
    end else begin
      valid_o <= valid_d;
      data_o  <= data_d;
    end
  end

`ifndef SYNTHESIS
`ifndef TOTEX_NO_ASSERTIONS
  // Only states 0..D-1 exist; for non-power-of-two D a larger k would silently act as k mod D.
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert_state
    if (rst_ni && (|valid_i)) begin
      assert (32'(state_i) < D)
      else $error("totex_shift_switch: state %0d >= D=%0d", state_i, D);
    end
  end
`endif
`endif

endmodule
