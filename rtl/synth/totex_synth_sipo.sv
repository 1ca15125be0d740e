// SPDX-License-Identifier: Apache-2.0
// Part of the pin-light synthesis wrappers of the FPGA report (rtl/synth/fpga_report.sh; the
// scheme is described in totex_synth_switch.sv). Yosys 0.23 portable subset.

/// Serial-in, parallel-out shift register of Width bits (Width >= 1).
module totex_synth_sipo #(
  parameter int unsigned Width = 32'd8
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             sin_i,
  output logic [Width-1:0] q_o
);
  logic [Width-1:0] q_d, q_q;
  if (Width == 32'd1) begin : gen_one
    assign q_d = sin_i;
  end else begin : gen_shift
    assign q_d = {q_q[Width-2:0], sin_i};
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) q_q <= '0;
    else         q_q <= q_d;
  end
  assign q_o = q_q;
endmodule
