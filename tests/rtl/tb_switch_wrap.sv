// SPDX-License-Identifier: Apache-2.0
/// Verilator test wrapper: totex_shift_switch and totex_crossbar for every D = 2..8 (W = 8) in one
/// model, so one verilated target covers the whole sweep. Each D has its own slot in every bus:
/// slot s = D - 2; lanes of a slot are packed from bit 0, unused lanes of a slot are zero.
`default_nettype none

module tb_switch_wrap #(
  /// Lane width of every instance.
  parameter int unsigned W = 32'd8,
  /// Smallest radix instantiated.
  parameter int unsigned DMin = 32'd2,
  /// Largest radix instantiated (also the lane count of a slot).
  parameter int unsigned DMax = 32'd8,
  /// Number of instances; do not overwrite.
  localparam int unsigned NumD = DMax - DMin + 32'd1,
  /// State / select field width of a slot (idx_width(DMax)); do not overwrite.
  localparam int unsigned SWMax = totex_pkg::idx_width(DMax)
) (
  /// Clock.
  input  logic                       clk_i,
  /// Asynchronous active-low reset.
  input  logic                       rst_ni,
  /// Shift-switch state of slot s at [s*SWMax +: SWMax].
  input  logic [NumD*SWMax-1:0]      state_i,
  /// Crossbar selects of slot s at [s*DMax*SWMax +: DMax*SWMax], output v at [v*SWMax +: SWMax].
  input  logic [NumD*DMax*SWMax-1:0] sel_i,
  /// Input valids of slot s at [s*DMax +: DMax] (shared by both instances of the slot).
  input  logic [NumD*DMax-1:0]       valid_i,
  /// Input data of slot s at [s*DMax*W +: DMax*W].
  input  logic [NumD*DMax*W-1:0]     data_i,
  /// Shift switch output valids, slot layout as valid_i.
  output logic [NumD*DMax-1:0]       sw_valid_o,
  /// Shift switch output data, slot layout as data_i.
  output logic [NumD*DMax*W-1:0]     sw_data_o,
  /// Crossbar output valids, slot layout as valid_i.
  output logic [NumD*DMax-1:0]       xb_valid_o,
  /// Crossbar output data, slot layout as data_i.
  output logic [NumD*DMax*W-1:0]     xb_data_o
);

  for (genvar s = 0; s < NumD; s++) begin : gen_slot
    localparam int unsigned D  = DMin + s;
    localparam int unsigned SW = totex_pkg::idx_width(D);

    logic [D*SW-1:0] sel;
    for (genvar v = 0; v < D; v++) begin : gen_sel
      assign sel[v*SW +: SW] = sel_i[(s*DMax + v)*SWMax +: SW];
    end

    totex_shift_switch #(.D(D), .W(W)) u_switch (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .state_i (state_i[s*SWMax +: SW]),
      .valid_i (valid_i[s*DMax +: D]),
      .data_i  (data_i[s*DMax*W +: D*W]),
      .valid_o (sw_valid_o[s*DMax +: D]),
      .data_o  (sw_data_o[s*DMax*W +: D*W])
    );

    totex_crossbar #(.D(D), .W(W)) u_crossbar (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .sel_i   (sel),
      .valid_i (valid_i[s*DMax +: D]),
      .data_i  (data_i[s*DMax*W +: D*W]),
      .valid_o (xb_valid_o[s*DMax +: D]),
      .data_o  (xb_data_o[s*DMax*W +: D*W])
    );

    if (D < DMax) begin : gen_tie_off
      assign sw_valid_o[s*DMax + D +: DMax - D]     = '0;
      assign sw_data_o[(s*DMax + D)*W +: (DMax-D)*W] = '0;
      assign xb_valid_o[s*DMax + D +: DMax - D]     = '0;
      assign xb_data_o[(s*DMax + D)*W +: (DMax-D)*W] = '0;
    end
  end

  // Slot bits beyond a slot's D (and select bits beyond its SW) are deliberately not connected.
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_inputs;
  assign unused_inputs = ^{state_i, sel_i, valid_i, data_i};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule
