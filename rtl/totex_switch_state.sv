// SPDX-License-Identifier: Apache-2.0
/// State source of one d x d shift switch of the MIN: the shift amount for the step entering it.
///
/// Mode MODE_TABLE: a configuration memory of MaxSteps entries, entry x = state of this switch for step x
///   (row i, column j of M^x), written through the load port, read with the step that is entering
///   this switch's stage in the current cycle.
/// Mode MODE_COMPUTED: only m^0 (the entry of M^0) is stored; the state for step x is
///   m^0 (+)_d x_{n-1-j}, the paper's phase logic M^x = M^0 (+)_d digit_{n-1-j}(x), where x_i is
///   base-d digit i of x (digit 0 least significant) and (+)_d is addition modulo d.
///
/// The read is combinational (step_i -> state_o), so the state is ready in the same cycle the step
/// enters the stage; the switch's output register closes the path. Writes take effect at the next
/// edge. The table memory is not reset (load it before use, region 0); m^0 resets to 0.
`default_nettype none

module totex_switch_state #(
  /// Number of terminals of the MIN (= steps of paper 002's schedule).
  parameter int unsigned N = 32'd16,
  /// Table entries: the longest schedule table mode can run (>= N; longer for baseline schedules).
  parameter int unsigned MaxSteps = N,
  /// Switch radix d.
  parameter int unsigned D = 32'd4,
  /// Number of stages n = log_d N of the MIN.
  parameter int unsigned NumStages = 32'd2,
  /// Stage j of this switch (0 = leftmost); selects the digit x_{n-1-j} in computed mode.
  parameter int unsigned Stage = 32'd0,
  /// totex_pkg::MODE_TABLE or totex_pkg::MODE_COMPUTED.
  parameter int unsigned Mode = totex_pkg::MODE_TABLE,
  /// Width of a state; do not overwrite.
  localparam int unsigned SW = totex_pkg::idx_width(D),
  /// Width of a step / table entry index; do not overwrite.
  localparam int unsigned IW = totex_pkg::idx_width(MaxSteps)
) (
  /// Clock, rising edge.
  input  logic          clk_i,
  /// Asynchronous active-low reset (m^0 becomes 0; the table memory is not reset).
  input  logic          rst_ni,
  /// Write enable, already decoded for this switch (region 0 in table mode, region 1 in computed).
  input  logic          cfg_we_i,
  /// Table entry (step x) to write; ignored in computed mode.
  input  logic [IW-1:0] cfg_entry_i,
  /// State to write, must be < D.
  input  logic [SW-1:0] cfg_data_i,
  /// Step x entering this switch's stage in this cycle.
  input  logic [IW-1:0] step_i,
  /// State (shift amount) of this switch for step_i.
  output logic [SW-1:0] state_o
);

  if (Mode == totex_pkg::MODE_TABLE) begin : gen_table
    // Configuration memory: a plain memory (no reset, so it can map to RAM); load it before a run.
    logic [SW-1:0] table_q [MaxSteps];

    always_ff @(posedge clk_i) begin
      if (cfg_we_i) table_q[cfg_entry_i] <= cfg_data_i;
    end

    assign state_o = table_q[step_i];

  end else if (Mode == totex_pkg::MODE_COMPUTED) begin : gen_computed
    // Arithmetic width: holds N-1, D and D^(n-1-j) (all <= N).
    localparam int unsigned XW  = IW + 32'd1;
    localparam int unsigned Div = totex_pkg::ipow(D, NumStages - 32'd1 - Stage);

    logic [SW-1:0] m0_d, m0_q;
    logic [XW-1:0] digit, sum;

    assign m0_d = cfg_we_i ? cfg_data_i : m0_q;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) m0_q <= '0;
      else         m0_q <= m0_d;
    end

    // digit x_{n-1-j} of the step; constant divisor (a plain bit slice when D is a power of two).
    assign digit   = ({1'b0, step_i} / XW'(Div)) % XW'(D);
    assign sum     = XW'(m0_q) + digit;
    assign state_o = SW'((sum >= XW'(D)) ? (sum - XW'(D)) : sum);

    // The entry index only addresses the table of MODE_TABLE.
    /* verilator lint_off UNUSEDSIGNAL */
    logic [IW-1:0] unused_entry;
    assign unused_entry = cfg_entry_i;
    /* verilator lint_on UNUSEDSIGNAL */

  end else begin : gen_param_err
    $error("totex_switch_state: Mode must be MODE_TABLE or MODE_COMPUTED");
  end

  if (MaxSteps < N) begin : gen_steps_err
    $error("totex_switch_state: MaxSteps must be >= N");
  end

  if (Stage >= NumStages) begin : gen_stage_err
    $error("totex_switch_state: Stage must be < NumStages");
  end

`ifndef SYNTHESIS
`ifndef TOTEX_NO_ASSERTIONS
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert_cfg
    if (rst_ni && cfg_we_i) begin
      assert (32'(cfg_data_i) < D)
      else $error("totex_switch_state: written state %0d >= D=%0d", cfg_data_i, D);
      assert (Mode != totex_pkg::MODE_TABLE || 32'(cfg_entry_i) < MaxSteps)
      else $error("totex_switch_state: table entry %0d >= MaxSteps=%0d", cfg_entry_i, MaxSteps);
    end
  end
`endif
`endif

endmodule
