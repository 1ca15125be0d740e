// SPDX-License-Identifier: Apache-2.0
/// Generic D x D crossbar with registered outputs: every output selects any input.
///
/// Reference point for the LUT comparison in tests/rtl/synth.sh only: the MIN uses
/// totex_shift_switch, whose d shift states are all the paper's algorithm needs. Same lane format
/// and latency (one cycle) as totex_shift_switch, but D select fields instead of one shift amount.
`default_nettype none

module totex_crossbar #(
  /// Radix (number of inputs and outputs), >= 2.
  parameter int unsigned D = 32'd4,
  /// Payload width of one lane in bits.
  parameter int unsigned W = 32'd8,
  /// Width of one select field; do not overwrite.
  localparam int unsigned SW = totex_pkg::idx_width(D)
) (
  /// Clock, rising edge.
  input  logic            clk_i,
  /// Asynchronous active-low reset (clears valid_o and data_o).
  input  logic            rst_ni,
  /// Per-output select: output v takes input sel_i[v*SW +: SW] (must be < D).
  input  logic [D*SW-1:0] sel_i,
  /// Per-input valid.
  input  logic [D-1:0]    valid_i,
  /// Per-input data, lane u at data_i[u*W +: W].
  input  logic [D*W-1:0]  data_i,
  /// Registered per-output valid (valid of the selected input).
  output logic [D-1:0]    valid_o,
  /// Registered per-output data, lane v at data_o[v*W +: W].
  output logic [D*W-1:0]  data_o
);

  if (D < 32'd2) begin : gen_param_err
    $error("totex_crossbar: D must be >= 2");
  end

  logic [D-1:0]   valid_d;
  logic [D*W-1:0] data_d;

  // One D:1 mux per output; an out-of-range select yields an invalid, all-zero lane.
  always_comb begin
    valid_d = '0;
    data_d  = '0;
    for (int unsigned v = 0; v < D; v++) begin
      for (int unsigned u = 0; u < D; u++) begin
        if (32'(sel_i[v*SW +: SW]) == u) begin
          valid_d[v]       = valid_i[u];
          data_d[v*W +: W] = data_i[u*W +: W];
        end
      end
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
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert_sel
    if (rst_ni) begin
      for (int unsigned v = 0; v < D; v++) begin
        assert (32'(sel_i[v*SW +: SW]) < D)
        else $error("totex_crossbar: select of output %0d is %0d >= D=%0d", v, sel_i[v*SW +: SW], D);
      end
    end
  end
`endif
`endif

endmodule
