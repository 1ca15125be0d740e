// SPDX-License-Identifier: Apache-2.0
// Part of the pin-light synthesis wrappers of the FPGA report (rtl/synth/fpga_report.sh; the
// scheme is described in totex_synth_switch.sv). Yosys 0.23 portable subset.

/// Parallel-load (load_i), serial-out shift register of Width bits (Width >= 2).
module totex_synth_piso #(
  parameter int unsigned Width = 32'd8
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             load_i,
  input  logic [Width-1:0] d_i,
  output logic             sout_o
);
  logic [Width-1:0] q_d, q_q;
  assign q_d = load_i ? d_i : {q_q[Width-2:0], 1'b0};
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) q_q <= '0;
    else         q_q <= q_d;
  end
  assign sout_o = q_q[Width-1];
endmodule
