// SPDX-License-Identifier: Apache-2.0
/// Verilator test wrapper: 36 totex_min_top instances in one model, so one verilated target covers
/// wiring {omega, baseline, butterfly} x d {2, 3, 4} x N {d^2, d^3} x mode {table, computed}
/// (PW = 16). Instance k: Mode = k % 2, N = d^(2 + (k/2) % 2), d = 2 + (k/4) % 3, Wiring = k / 12.
/// sel_i picks the instance that gets clock edges, cfg_we_i and start_i and whose outputs are shown;
/// the others are frozen (their clock is gated off, a test-only speed-up).
/// Output buses keep the selected instance's packing (terminal t's message at eject_data_o[t*MW +: MW],
/// its counter at recv_count_o[t*CW +: CW]), zero-extended; the load port uses the low AW / DW bits
/// of cfg_addr_i / cfg_data_i.
`default_nettype none

module tb_min_wrap #(
  /// Payload width of every instance.
  parameter int unsigned PW = 32'd16,
  /// Number of instances; do not overwrite.
  localparam int unsigned NumInst = 32'd36,
  /// Largest N (4^3); do not overwrite.
  localparam int unsigned NMax = 32'd64
) (
  /// Clock.
  input  logic               clk_i,
  /// Asynchronous active-low reset.
  input  logic               rst_ni,
  /// Selected instance k.
  input  logic [5:0]         sel_i,
  /// Load port write enable (to instance sel_i).
  input  logic               cfg_we_i,
  /// Load port address (low AW bits used).
  input  logic [15:0]        cfg_addr_i,
  /// Load port data (low DW bits used).
  input  logic [31:0]        cfg_data_i,
  /// Start (to instance sel_i).
  input  logic               start_i,
  /// Phase (to all instances; sampled only at start).
  input  logic               phase_i,
  /// busy_o of instance sel_i.
  output logic               busy_o,
  /// done_o of instance sel_i.
  output logic               done_o,
  /// error_o of instance sel_i.
  output logic               error_o,
  /// step_o of instance sel_i, zero-extended.
  output logic [7:0]         step_o,
  /// eject_valid_o of instance sel_i, zero-extended.
  output logic [NMax-1:0]    eject_valid_o,
  /// Ejected messages of instance sel_i, terminal t at [t*MW +: MW] (MW of that instance).
  output logic [NMax*(3*6+PW)-1:0] eject_data_o,
  /// Receive counters of instance sel_i, terminal t at [t*CW +: CW] (CW of that instance).
  output logic [NMax*7-1:0]  recv_count_o
);

  // Outputs of the selected instance, collected by an OR chain over the instances (instance k
  // contributes only when selected). Buses keep the instance's own packing, zero-extended.
  localparam int unsigned MWMax = 32'd3 * 32'd6 + PW;
  localparam int unsigned EDW   = NMax * MWMax;
  localparam int unsigned RCW   = NMax * 32'd7;

  // split_var: each chain is one vector in the source but separate per-link variables in the
  // simulator, which otherwise reports the chain as circular logic (UNOPTFLAT).
  logic [(NumInst+1)-1:0]      busy_c /* verilator split_var */;
  logic [(NumInst+1)-1:0]      done_c /* verilator split_var */;
  logic [(NumInst+1)-1:0]      err_c  /* verilator split_var */;
  logic [(NumInst+1)*8-1:0]    step_c /* verilator split_var */;
  logic [(NumInst+1)*NMax-1:0] ev_c   /* verilator split_var */;
  logic [(NumInst+1)*EDW-1:0]  ed_c   /* verilator split_var */;
  logic [(NumInst+1)*RCW-1:0]  rc_c   /* verilator split_var */;

  assign busy_c[0]        = 1'b0;
  assign done_c[0]        = 1'b0;
  assign err_c[0]         = 1'b0;
  assign step_c[0 +: 8]   = '0;
  assign ev_c[0 +: NMax]  = '0;
  assign ed_c[0 +: EDW]   = '0;
  assign rc_c[0 +: RCW]   = '0;

  for (genvar k = 0; k < NumInst; k++) begin : gen_inst
    localparam int unsigned Mode   = k % 2;
    localparam int unsigned D      = 32'd2 + (k / 4) % 3;
    localparam int unsigned N      = totex_pkg::ipow(D, 32'd2 + (k / 2) % 2);
    localparam int unsigned Wiring = k / 12;
    localparam int unsigned IW     = totex_pkg::idx_width(N);
    localparam int unsigned MW     = 3 * IW + PW;
    localparam int unsigned NS     = totex_pkg::num_digits(N, D);
    localparam int unsigned NumSw  = NS * (N / D);
    localparam int unsigned XW     = totex_pkg::idx_width((NumSw > N) ? NumSw : N);
    localparam int unsigned AW     = 32'd2 + XW + IW;
    localparam int unsigned DW     = IW + PW;
    localparam int unsigned CW     = totex_pkg::idx_width(N + 32'd1);

    logic [N-1:0]    i_ev;
    logic [N*MW-1:0] i_ed;
    logic [N*CW-1:0] i_rc;
    logic [IW-1:0]   i_step;
    logic            i_sel;

    assign i_sel = (sel_i == 6'(k));
    // Test-only clock gate: only the selected instance sees clock edges, so Verilator evaluates the
    // sequential logic of one instance per edge instead of 36 (sel_i changes only while clk_i is
    // low). Not a design pattern for the RTL itself.
    logic i_clk;
    assign i_clk = clk_i & i_sel;

    totex_min_top #(
      .N      (N),
      .D      (D),
      .PW     (PW),
      .Wiring (Wiring),
      .Mode   (Mode)
    ) u_dut (
      .clk_i         (i_clk),
      .rst_ni        (rst_ni),
      .cfg_we_i      (cfg_we_i && i_sel),
      .cfg_addr_i    (cfg_addr_i[AW-1:0]),
      .cfg_data_i    (cfg_data_i[DW-1:0]),
      .start_i       (start_i && i_sel),
      .phase_i       (phase_i),
      .busy_o        (i_busy),
      .done_o        (i_done),
      .step_o        (i_step),
      .eject_valid_o (i_ev),
      .eject_data_o  (i_ed),
      .recv_count_o  (i_rc),
      .error_o       (i_err)
    );

    logic i_busy, i_done, i_err;
    assign busy_c[k+1]                = busy_c[k] | (i_sel & i_busy);
    assign done_c[k+1]                = done_c[k] | (i_sel & i_done);
    assign err_c[k+1]                 = err_c[k]  | (i_sel & i_err);
    assign step_c[(k+1)*8 +: 8]       = step_c[k*8 +: 8] | (i_sel ? 8'(i_step) : 8'd0);
    assign ev_c[(k+1)*NMax +: NMax]   = ev_c[k*NMax +: NMax] | (i_sel ? NMax'(i_ev) : '0);
    assign ed_c[(k+1)*EDW +: EDW]     = ed_c[k*EDW +: EDW]   | (i_sel ? EDW'(i_ed)  : '0);
    assign rc_c[(k+1)*RCW +: RCW]     = rc_c[k*RCW +: RCW]   | (i_sel ? RCW'(i_rc)  : '0);
  end

  assign busy_o        = busy_c[NumInst];
  assign done_o        = done_c[NumInst];
  assign error_o       = err_c[NumInst];
  assign step_o        = step_c[NumInst*8 +: 8];
  assign eject_valid_o = ev_c[NumInst*NMax +: NMax];
  assign eject_data_o  = ed_c[NumInst*EDW +: EDW];
  assign recv_count_o  = rc_c[NumInst*RCW +: RCW];

  // Address / data bits above an instance's AW / DW are deliberately not connected.
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_inputs;
  assign unused_inputs = ^{cfg_addr_i, cfg_data_i};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule
