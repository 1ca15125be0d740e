// SPDX-License-Identifier: Apache-2.0
/// Formal wrapper (yosys-smtbmc, tests/formal): a d-nary banyan MIN with computed-mode switch state
/// sources (totex_banyan + one totex_switch_state per switch, as in totex_min_top) delivers paper
/// 002's Latin-square schedule collision-free: over the N steps x = 0..N-1 every output terminal
/// receives a message in every step and receives from every source exactly once.
///
/// The environment: reset in the first cycle, then any number of load cycles writing any M^0
/// (every switch's m^0 free, any order, any number of writes), then start_i; from then on the
/// wrapper presents steps 0..N-1 on consecutive cycles, every terminal s sending its own id s, and
/// M^0 stays fixed (no writes during a run). A run is finite (N + n cycles), so a bounded check
/// deeper than the load phase plus the run covers whole runs; tests/formal states the depth.
`default_nettype none

module totex_formal_banyan_latin #(
  parameter int unsigned N      = 32'd4,
  parameter int unsigned D      = 32'd2,
  parameter int unsigned Wiring = totex_pkg::WIRING_OMEGA,
  localparam int unsigned SW        = totex_pkg::idx_width(D),
  localparam int unsigned IW        = totex_pkg::idx_width(N),
  localparam int unsigned NumStages = totex_pkg::num_digits(N, D),
  localparam int unsigned NumSw     = NumStages * (N / D)
) (
  input logic                clk_i,
  input logic                rst_ni,
  /// Load phase: write m^0 of the switches selected here (any subset per cycle).
  input logic [NumSw-1:0]    m0_we_i,
  input logic [NumSw*SW-1:0] m0_data_i,
  /// Start the run (ignored once started).
  input logic                start_i,
  /// The (destination, source) pair checked, sampled in the reset cycle (free: every pair).
  input logic [IW-1:0]       t0_i,
  input logic [IW-1:0]       s0_i
);

  localparam int unsigned SwPerStage = N / D;

  // Reset in the first cycle only.
  logic first = 1'b1;
  always_ff @(posedge clk_i) first <= 1'b0;
  always_comb assume (rst_ni == !first);

  // Run control: steps 0..N-1 enter stage 0 on consecutive cycles once started.
  logic          running_q, started_q;
  logic [IW:0]   x_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      running_q <= 1'b0;
      started_q <= 1'b0;
      x_q       <= '0;
    end else if (!started_q) begin
      running_q <= start_i;
      started_q <= start_i;
    end else if (running_q) begin
      running_q <= 32'(x_q) != N - 32'd1;
      x_q       <= x_q + 1'b1;
    end
  end
  // M^0 is written only before the run; a state must be < D.
  always_comb begin
    if (started_q) assume (m0_we_i == '0);
    for (int unsigned g = 0; g < NumSw; g++) assume (32'(m0_data_i[g*SW +: SW]) < D);
  end

  // Every terminal sends its own id in every step.
  logic [N*IW-1:0] data_in;
  for (genvar s = 0; s < N; s++) begin : gen_src
    assign data_in[s*IW +: IW] = IW'(s);
  end

  logic [NumSw*SW-1:0]        state;
  logic [NumStages-1:0]       stage_step_valid;
  logic [NumStages*IW-1:0]    stage_step;
  logic [N-1:0]               valid_o;
  logic [N*IW-1:0]            data_o;
  logic                       out_step_valid;
  logic [IW-1:0]              out_step;

  totex_banyan #(.N(N), .D(D), .W(IW), .Wiring(Wiring), .MaxSteps(N)) u_banyan (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .state_i            (state),
    .step_valid_i       (running_q),
    .step_i             (x_q[IW-1:0]),
    .valid_i            ({N{running_q}}),
    .data_i             (data_in),
    .stage_step_valid_o (stage_step_valid),
    .stage_step_o       (stage_step),
    .valid_o            (valid_o),
    .data_o             (data_o),
    .out_step_valid_o   (out_step_valid),
    .out_step_o         (out_step)
  );

  for (genvar j = 0; j < NumStages; j++) begin : gen_stage
    for (genvar i = 0; i < SwPerStage; i++) begin : gen_sw
      localparam int unsigned G = j * SwPerStage + i;
      totex_switch_state #(
        .N(N), .MaxSteps(N), .D(D), .NumStages(NumStages), .Stage(j), .Mode(totex_pkg::MODE_COMPUTED)
      ) u_state (
        .clk_i       (clk_i),
        .rst_ni      (rst_ni),
        .cfg_we_i    (m0_we_i[G]),
        .cfg_entry_i ('0),
        .cfg_data_i  (m0_data_i[G*SW +: SW]),
        .step_i      (stage_step[j*IW +: IW]),
        .state_o     (state[G*SW +: SW])
      );
    end
  end

  // Scoreboard for one (destination t0, source s0) pair, chosen freely at reset and then fixed: the
  // solver tries every pair, which is the same as checking all N*N pairs but keeps the state small.
  logic [IW-1:0] t0_q, s0_q;
  logic [IW:0]   hits_q, out_count_q;
  logic [IW-1:0] at_t0;
  assign at_t0 = data_o[32'(t0_q)*IW +: IW];
  always_ff @(posedge clk_i) begin
    if (first) begin
      t0_q <= t0_i;
      s0_q <= s0_i;
    end
  end
  always_comb assume (32'(t0_i) < N && 32'(s0_i) < N);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hits_q      <= '0;
      out_count_q <= '0;
    end else if (out_step_valid) begin
      out_count_q <= out_count_q + 1'b1;
      if (at_t0 == s0_q) hits_q <= hits_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!first && rst_ni) begin
      // Terminals only ever emit inside a step, and then all of them.
      assert (valid_o == {N{out_step_valid}});
      if (out_step_valid) begin
        // Steps leave in order 0..N-1, n cycles after they entered.
        assert (32'(out_step) == 32'(out_count_q));
        assert (32'(at_t0) < N);
        // s0 reaches t0 at most once ...
        assert (!(at_t0 == s0_q && hits_q != '0));
      end
      // ... and exactly once by the end of the run (N steps: each source once at each terminal).
      if (32'(out_count_q) == N) assert (hits_q == (IW+1)'(1));
      assert (32'(out_count_q) <= N);
    end
  end

  // Non-vacuity: a whole run completes (checked with yosys-smtbmc -c).
  always_ff @(posedge clk_i) cover (32'(out_count_q) == N);

  logic unused;
  assign unused = ^stage_step_valid;

endmodule
