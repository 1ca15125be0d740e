// SPDX-License-Identifier: Apache-2.0
/// Formal wrapper (yosys-smtbmc, tests/formal): totex_shift_switch is a permutation in every state.
///
/// Inputs, state and reset are free. Properties, checked every cycle after the first:
///   * lane u entering in state k leaves on lane (u + k) mod D one cycle later, valid and data:
///     a map u -> (u + k) mod D, which is a bijection for every k < D;
///   * the number of valid lanes is preserved (no message dropped or duplicated);
///   * during and right after reset the outputs are empty.
/// States k >= D do not exist (the switch asserts on them); they are assumed away.
`default_nettype none

module totex_formal_shift_switch #(
  /// Switch radix (the proof runs at 2, 3, 4 and 5: powers of two and not).
  parameter int unsigned D = 32'd4,
  /// Lane width; 2 bits suffice to tell lanes apart in a counterexample, the mapping is per bit.
  parameter int unsigned W = 32'd2,
  localparam int unsigned SW = totex_pkg::idx_width(D)
) (
  input logic           clk_i,
  input logic           rst_ni,
  input logic [SW-1:0]  state_i,
  input logic [D-1:0]   valid_i,
  input logic [D*W-1:0] data_i
);

  logic [D-1:0]   valid_o;
  logic [D*W-1:0] data_o;

  totex_shift_switch #(.D(D), .W(W)) u_dut (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .state_i (state_i),
    .valid_i (valid_i),
    .data_i  (data_i),
    .valid_o (valid_o),
    .data_o  (data_o)
  );

  /// Number of set bits.
  function automatic int unsigned popcount(input logic [D-1:0] x);
    popcount = 0;
    for (int unsigned i = 0; i < D; i++) popcount = popcount + 32'(x[i]);
  endfunction

  // First cycle of the trace: $past is not defined there.
  logic past_ok = 1'b0;
  always_ff @(posedge clk_i) past_ok <= 1'b1;

  always_comb assume (32'(state_i) < D);

  always_ff @(posedge clk_i) begin
    if (past_ok) begin
      if (!$past(rst_ni) || !rst_ni) begin
        assert (valid_o == '0);
      end else begin
        for (int unsigned u = 0; u < D; u++) begin
          assert (valid_o[(u + 32'($past(state_i))) % D] == $past(valid_i[u]));
          assert (data_o[((u + 32'($past(state_i))) % D)*W +: W] == $past(data_i[u*W +: W]));
        end
        assert (popcount(valid_o) == popcount($past(valid_i)));
      end
    end
  end

endmodule
