// SPDX-License-Identifier: Apache-2.0
/// N x N d-nary banyan MIN (omega, baseline or butterfly) of n = log_d N stages of d x d shift
/// switches, pipelined with one register per stage (each switch's output register).
///
/// Lines and digits: line numbers are written in base d with n digits, digit 0 least significant.
/// Switch i of a stage takes that stage's input lines i*d .. i*d+d-1 (port u = line mod d) and, in
/// state k, drives the stage's output line i*d + ((u+k) mod d). The wiring in front of stage j is
/// totex_pkg::feed_line():
///   omega:     before every stage (stage 0 too) a perfect d-shuffle, line a feeds
///              sigma(a) = (a*d mod N) + a div (N/d) (rotate the n digits left).
///   baseline:  terminal s feeds stage-0 line s; output line b of stage j feeds input line
///              rho_{n-j}(b) of stage j+1 (rotate the lowest n-j digits right).
///   butterfly: terminal s feeds stage-0 line s; output line b of stage j feeds input line
///              beta_{n-1-j}(b) of stage j+1 (swap digit 0 and digit n-1-j).
/// In all three, output line t of stage n-1 is output terminal t.
///
/// Switch states: state_i holds one idx_width(d)-bit field per switch, global switch index
/// g = j*(N/d) + i (stage j, switch i in the stage), at state_i[g*SW +: SW]. It must be the state for
/// the step that is entering stage j in this cycle, which stage_step_o reports: step_i is carried
/// through the pipeline next to the data, so a state source can index its memory by it
/// (totex_min_top instantiates one totex_switch_state per switch for this).
///
/// Timing: a step presented at the inputs (with its states) in cycle c enters stage j in cycle
/// c+j and is at valid_o/data_o/out_step_o in cycle c+n (n register stages).
`default_nettype none

module totex_banyan #(
  /// Number of terminals N, must be a power of D.
  parameter int unsigned N = 32'd16,
  /// Switch radix d >= 2.
  parameter int unsigned D = 32'd4,
  /// Data width of one line in bits.
  parameter int unsigned W = 32'd8,
  /// totex_pkg::WIRING_OMEGA, WIRING_BASELINE or WIRING_BUTTERFLY.
  parameter int unsigned Wiring = totex_pkg::WIRING_OMEGA,
  /// Steps of the longest run; sizes the step tag carried in the pipeline.
  parameter int unsigned MaxSteps = N,
  /// Width of a switch state; do not overwrite.
  localparam int unsigned SW = totex_pkg::idx_width(D),
  /// Width of a step index; do not overwrite.
  localparam int unsigned IW = totex_pkg::idx_width(MaxSteps),
  /// Number of stages n = log_d N; do not overwrite.
  localparam int unsigned NumStages = totex_pkg::num_digits(N, D),
  /// Number of switches, n * N/d; do not overwrite.
  localparam int unsigned NumSw = NumStages * (N / D)
) (
  /// Clock, rising edge.
  input  logic                   clk_i,
  /// Asynchronous active-low reset (clears all pipeline registers).
  input  logic                   rst_ni,
  /// Per-switch state for the step entering its stage; switch g at state_i[g*SW +: SW].
  input  logic [NumSw*SW-1:0]    state_i,
  /// A step is entering stage 0 in this cycle (tags the step carried in the pipeline).
  input  logic                   step_valid_i,
  /// The step x entering stage 0 in this cycle.
  input  logic [IW-1:0]          step_i,
  /// Per-input-terminal valid.
  input  logic [N-1:0]           valid_i,
  /// Per-input-terminal data, terminal s at data_i[s*W +: W].
  input  logic [N*W-1:0]         data_i,
  /// Per stage j: a step is entering stage j in this cycle.
  output logic [NumStages-1:0]   stage_step_valid_o,
  /// Per stage j: the step entering stage j in this cycle, at stage_step_o[j*IW +: IW].
  output logic [NumStages*IW-1:0] stage_step_o,
  /// Per-output-terminal valid (register of the last stage).
  output logic [N-1:0]           valid_o,
  /// Per-output-terminal data, terminal t at data_o[t*W +: W].
  output logic [N*W-1:0]         data_o,
  /// The step at the outputs is valid.
  output logic                   out_step_valid_o,
  /// The step at the outputs.
  output logic [IW-1:0]          out_step_o
);

  localparam int unsigned SwPerStage = N / D;

  if (D < 32'd2) begin : gen_radix_err
    $error("totex_banyan: D must be >= 2");
  end
  if (N < D || totex_pkg::ipow(D, NumStages) != N) begin : gen_size_err
    $error("totex_banyan: N must be a power of D (N = D^n, n >= 1)");
  end
  if (Wiring > totex_pkg::WIRING_BUTTERFLY) begin : gen_wiring_err
    $error("totex_banyan: unknown Wiring");
  end

  // Stage inputs and outputs, stage j line l at [(j*N + l)] (valid) / [(j*N + l)*W +: W] (data).
  // split_var: Verilator keeps every line its own variable; merged, the permuted slice
  // assignments become one concatenation chain per stage that copies the whole N*W-bit bus
  // once per line (O(N^2) words per evaluation; a third of the 256 x 256 MIN's run time).
  logic [NumStages*N-1:0]   in_valid  /*verilator split_var*/, out_valid /*verilator split_var*/;
  logic [NumStages*N*W-1:0] in_data   /*verilator split_var*/, out_data  /*verilator split_var*/;
  // Step pipeline: step_q[j] / step_valid_q[j] is the step held in stage j's output register.
  logic [NumStages*IW-1:0]  step_d,       step_q;
  logic [NumStages-1:0]     step_valid_d, step_valid_q;

  for (genvar j = 0; j < NumStages; j++) begin : gen_stage
    // Wiring in front of stage j.
    for (genvar b = 0; b < N; b++) begin : gen_wire
      localparam int unsigned Dst = totex_pkg::feed_line(Wiring, N, D, NumStages, j, b);
      if (j == 0) begin : gen_from_terminal
        assign in_valid[j*N + Dst]         = valid_i[b];
        assign in_data[(j*N + Dst)*W +: W] = data_i[b*W +: W];
      end else begin : gen_from_stage
        assign in_valid[j*N + Dst]         = out_valid[(j-1)*N + b];
        assign in_data[(j*N + Dst)*W +: W] = out_data[((j-1)*N + b)*W +: W];
      end
    end

    // Switches of stage j.
    for (genvar i = 0; i < SwPerStage; i++) begin : gen_switch
      totex_shift_switch #(
        .D (D),
        .W (W)
      ) u_switch (
        .clk_i   (clk_i),
        .rst_ni  (rst_ni),
        .state_i (state_i[(j*SwPerStage + i)*SW +: SW]),
        .valid_i (in_valid[j*N + i*D +: D]),
        .data_i  (in_data[(j*N + i*D)*W +: D*W]),
        .valid_o (out_valid[j*N + i*D +: D]),
        .data_o  (out_data[(j*N + i*D)*W +: D*W])
      );
    end

    // Step entering stage j: step_i for stage 0, else the step held by stage j-1.
    if (j == 0) begin : gen_step_in
      assign stage_step_valid_o[j]     = step_valid_i;
      assign stage_step_o[j*IW +: IW]  = step_i;
    end else begin : gen_step_pipe
      assign stage_step_valid_o[j]     = step_valid_q[j-1];
      assign stage_step_o[j*IW +: IW]  = step_q[(j-1)*IW +: IW];
    end
  end

  assign step_valid_d = stage_step_valid_o;
  assign step_d       = stage_step_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      step_valid_q <= '0;
      step_q       <= '0;
    end else begin
      step_valid_q <= step_valid_d;
      step_q       <= step_d;
    end
  end

  // Output line t of the last stage is output terminal t.
  assign valid_o          = out_valid[(NumStages-1)*N +: N];
  assign data_o           = out_data[(NumStages-1)*N*W +: N*W];
  assign out_step_valid_o = step_valid_q[NumStages-1];
  assign out_step_o       = step_q[(NumStages-1)*IW +: IW];

endmodule
