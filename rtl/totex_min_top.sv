// SPDX-License-Identifier: Apache-2.0
/// All-to-all personalized exchange on an N x N d-nary banyan MIN (paper 002's algorithm):
/// per-switch state sources (table or computed M^x), the pipelined MIN, one NIC per terminal, a
/// load port and a run controller.
///
/// Message layout on inj/eject buses (MW = 2*IW + SXW + PW bits, IW = idx_width(N),
/// SXW = idx_width(MaxSteps)), MSB first:
///   [MW-1        -: IW ] src     sending terminal
///   [IW+SXW+PW-1 -: IW ] dst     destination (0 in a label)
///   [SXW+PW-1    -: SXW] seq     step x the message was injected in
///   [PW-1        :  0  ] payload (a label carries src here)
/// Terminal t's ejected message is eject_data_o[t*MW +: MW].
///
/// Load port (only while idle; cfg_we_i while busy is ignored and asserted):
///   cfg_addr_i = {region[1:0], index[XW-1:0], entry[SXW-1:0]}, XW = idx_width(max(NumSw, N)),
///   cfg_data_i[IW+PW:0]:
///   region 0 REGION_SWITCH_TABLE (MODE_TABLE only):  index = global switch g = j*(N/d) + i,
///            entry = step x, data[SW-1:0] = state m^x_{i,j} (< d, upper data bits zero).
///   region 1 REGION_M0 (MODE_COMPUTED only): index = global switch g, entry ignored,
///            data[SW-1:0] = m^0_{i,j}.
///   region 2 REGION_SEND_QUEUE: index = terminal s, entry = slot x,
///            data = {idle, dst[IW], payload[PW]}; idle = 1: s sends nothing in step x.
///   region 3 REGION_CONTROL: index 0 = CONTROL_LAST_STEP, data = steps of a run - 1 (< MaxSteps;
///            resets to N - 1; computed mode runs exactly N steps); index 1 = CONTROL_REPEAT,
///            data[0] = 1: a source may reach a terminal more than once in a run (the NICs'
///            received-from check off; resets to 0).
///   Writes to the region of the other mode, or out of range, are ignored and asserted.
///
/// Timing contract. Edge 0 is the rising edge that samples start_i = 1 while busy_o = 0 (phase_i is
/// sampled at the same edge); cycle k is the clock period between edge k and edge k+1. With
/// n = log_d N stages, S = CONTROL_LAST_STEP + 1 steps (N for paper 002's schedule) and C = 0:
///   * step x (x = 0..S-1) enters stage 0 in cycle x + C, i.e. all N terminals inject their step-x
///     message and the stage-0 switches take their step-x states in that cycle; step_o = x then;
///   * step x enters stage j in cycle x + C + j, and passes the last stage in cycle x + C + n - 1
///     (it is latched into the last stage = eject register at the end of that cycle);
///   * eject_valid_o / eject_data_o therefore show step x during cycle x + C + n (all N terminals);
///   * busy_o is high in cycles 0 .. S + n - 2: S + n - 1 cycles, the paper's N configurations plus
///     log_d N - 1 pipeline cycles;
///   * done_o is high for one cycle, cycle S + n - 1, while the last step is on eject_*; busy_o is
///     already low then, so start_i may be high in that cycle (the next run's edge 0 is edge S + n).
///   recv_count_o / error_o include the message on eject_* in the same cycle, so in the done_o
///   cycle recv_count_o is the number of messages each terminal received and error_o covers the run.
`default_nettype none

module totex_min_top #(
  /// Number of terminals N, a power of D.
  parameter int unsigned N = 32'd16,
  /// Switch radix d >= 2.
  parameter int unsigned D = 32'd4,
  /// Payload width in bits (>= idx_width(N)).
  parameter int unsigned PW = 32'd16,
  /// totex_pkg::WIRING_OMEGA, WIRING_BASELINE or WIRING_BUTTERFLY.
  parameter int unsigned Wiring = totex_pkg::WIRING_OMEGA,
  /// totex_pkg::MODE_TABLE or totex_pkg::MODE_COMPUTED.
  parameter int unsigned Mode = totex_pkg::MODE_TABLE,
  /// Steps of the longest run (switch tables and send queues have this many entries), >= N.
  parameter int unsigned MaxSteps = N,
  /// Width of a terminal id; do not overwrite.
  localparam int unsigned IW = totex_pkg::idx_width(N),
  /// Width of a step / slot / table entry; do not overwrite.
  localparam int unsigned SXW = totex_pkg::idx_width(MaxSteps),
  /// Message width {src, dst, seq, payload}; do not overwrite.
  localparam int unsigned MW = 2 * IW + SXW + PW,
  /// Number of stages n = log_d N; do not overwrite.
  localparam int unsigned NumStages = totex_pkg::num_digits(N, D),
  /// Number of switches n * N/d; do not overwrite.
  localparam int unsigned NumSw = NumStages * (N / D),
  /// Width of the load-port index field; do not overwrite.
  localparam int unsigned XW = totex_pkg::idx_width((NumSw > N) ? NumSw : N),
  /// Load-port address width {region, index, entry}; do not overwrite.
  localparam int unsigned AW = 32'd2 + XW + SXW,
  /// Load-port data width {idle, dst, payload}; do not overwrite.
  localparam int unsigned DW = 1 + IW + PW,
  /// Width of a per-terminal receive counter (0..MaxSteps: one message per step); do not overwrite.
  localparam int unsigned CW = totex_pkg::idx_width(MaxSteps + 32'd1)
) (
  /// Clock, rising edge.
  input  logic            clk_i,
  /// Asynchronous active-low reset (all state, tables and queues cleared).
  input  logic            rst_ni,
  /// Load port: write enable (only while idle).
  input  logic            cfg_we_i,
  /// Load port: address {region[1:0], index[XW-1:0], entry[SXW-1:0]}.
  input  logic [AW-1:0]   cfg_addr_i,
  /// Load port: data (state or last step in the low bits, or {idle, dst, payload}).
  input  logic [DW-1:0]   cfg_data_i,
  /// Start a run (sampled when busy_o is low; a start while busy is ignored and asserted).
  input  logic            start_i,
  /// Phase of the run, sampled with start_i: 0 labels, 1 messages.
  input  logic            phase_i,
  /// A run is in progress (cycles 0 .. N+n-2 of the run).
  output logic            busy_o,
  /// One-cycle pulse while the last step (S-1) is on the eject bus (cycle S+n-1).
  output logic            done_o,
  /// The step entering stage 0 (being injected) while injecting; holds N-1 afterwards.
  output logic [SXW-1:0]  step_o,
  /// Per-terminal eject valid.
  output logic [N-1:0]    eject_valid_o,
  /// Per-terminal ejected message, terminal t at eject_data_o[t*MW +: MW].
  output logic [N*MW-1:0] eject_data_o,
  /// Per-terminal received messages in this run, terminal t at recv_count_o[t*CW +: CW].
  output logic [N*CW-1:0] recv_count_o,
  /// A NIC receive check failed in this run (misdelivered, duplicate source, seq mismatch).
  output logic            error_o
);

  localparam int unsigned SW = totex_pkg::idx_width(D);
  localparam int unsigned SwPerStage = N / D;

  if (Mode != totex_pkg::MODE_TABLE && Mode != totex_pkg::MODE_COMPUTED) begin : gen_mode_err
    $error("totex_min_top: unknown Mode");
  end

  // ---------------------------------------------------------------------------------------------
  // Load-port decode
  // ---------------------------------------------------------------------------------------------
  logic [1:0]    cfg_region;
  logic [XW-1:0] cfg_index;
  logic [SXW-1:0] cfg_entry;
  logic          cfg_we;         // write accepted (idle)
  logic          cfg_state_we;   // switch-state region of this Mode
  logic          cfg_queue_we;
  logic          cfg_control_we;
  logic          cfg_repeat_we;

  assign {cfg_region, cfg_index, cfg_entry} = cfg_addr_i;
  assign cfg_we       = cfg_we_i && !busy_o;
  assign cfg_state_we = cfg_we && (cfg_region == ((Mode == totex_pkg::MODE_TABLE)
                                                  ? totex_pkg::REGION_SWITCH_TABLE
                                                  : totex_pkg::REGION_M0));
  assign cfg_queue_we = cfg_we && (cfg_region == totex_pkg::REGION_SEND_QUEUE);
  assign cfg_control_we = cfg_we && (cfg_region == totex_pkg::REGION_CONTROL)
                       && cfg_index == XW'(totex_pkg::CONTROL_LAST_STEP);
  assign cfg_repeat_we = cfg_we && (cfg_region == totex_pkg::REGION_CONTROL)
                       && cfg_index == XW'(totex_pkg::CONTROL_REPEAT);

  // Last step of a run: N - 1 for paper 002's schedule, more for longer (baseline) tables.
  logic [SXW-1:0] last_step_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)             last_step_q <= SXW'(N - 32'd1);
    else if (cfg_control_we) last_step_q <= cfg_data_i[SXW-1:0];
  end

  // Pairs may repeat (a traffic's configurations): no NIC expects each source once.
  logic repeat_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)            repeat_q <= 1'b0;
    else if (cfg_repeat_we) repeat_q <= cfg_data_i[0];
  end

  // ---------------------------------------------------------------------------------------------
  // Run controller
  // ---------------------------------------------------------------------------------------------
  logic                      start;
  logic                      busy_d, busy_q;
  logic                      inject_d, inject_q;
  logic [SXW-1:0]            step_d, step_q;
  logic                      phase_d, phase_q;
  logic [NumStages-1:0]      stage_step_valid;
  logic [NumStages*SXW-1:0]  stage_step;
  logic                      out_step_valid;
  logic [SXW-1:0]            out_step;
  logic                      last_enters_last_stage;

  assign start = start_i && !busy_q;
  assign last_enters_last_stage = stage_step_valid[NumStages-1]
                               && stage_step[(NumStages-1)*SXW +: SXW] == last_step_q;

  always_comb begin
    busy_d   = busy_q;
    inject_d = inject_q;
    step_d   = step_q;
    phase_d  = phase_q;
    if (start) begin
      busy_d   = 1'b1;
      inject_d = 1'b1;
      step_d   = '0;
      phase_d  = phase_i;
    end else begin
      if (inject_q) begin
        if (step_q == last_step_q) inject_d = 1'b0;
        else                        step_d   = step_q + SXW'(1);
      end
      if (last_enters_last_stage) busy_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q   <= 1'b0;
      inject_q <= 1'b0;
      step_q   <= '0;
      phase_q  <= 1'b0;
    end else begin
      busy_q   <= busy_d;
      inject_q <= inject_d;
      step_q   <= step_d;
      phase_q  <= phase_d;
    end
  end

  assign busy_o = busy_q;
  assign step_o = step_q;
  assign done_o = out_step_valid && out_step == last_step_q;

  // ---------------------------------------------------------------------------------------------
  // Switch state sources, one per switch, indexed by the step entering its stage
  // ---------------------------------------------------------------------------------------------
  logic [NumSw*SW-1:0] state;

  for (genvar j = 0; j < NumStages; j++) begin : gen_state_stage
    for (genvar i = 0; i < SwPerStage; i++) begin : gen_state_switch
      localparam int unsigned G = j * SwPerStage + i;
      totex_switch_state #(
        .N         (N),
        .MaxSteps  (MaxSteps),
        .D         (D),
        .NumStages (NumStages),
        .Stage     (j),
        .Mode      (Mode)
      ) u_state (
        .clk_i       (clk_i),
        .rst_ni      (rst_ni),
        .cfg_we_i    (cfg_state_we && cfg_index == XW'(G)),
        .cfg_entry_i (cfg_entry),
        .cfg_data_i  (cfg_data_i[SW-1:0]),
        .step_i      (stage_step[j*SXW +: SXW]),
        .state_o     (state[G*SW +: SW])
      );
    end
  end

  // ---------------------------------------------------------------------------------------------
  // NICs and the MIN
  // ---------------------------------------------------------------------------------------------
  logic [N-1:0]    inj_valid;
  logic [N*MW-1:0] inj_data;
  logic [N-1:0]    nic_error;

  for (genvar t = 0; t < N; t++) begin : gen_nic
    totex_nic #(
      .N        (N),
      .MaxSteps (MaxSteps),
      .PW       (PW)
    ) u_nic (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .id_i         (IW'(t)),
      .q_we_i       (cfg_queue_we && cfg_index == XW'(t)),
      .q_slot_i     (cfg_entry),
      .q_data_i     (cfg_data_i),
      .clear_i      (start),
      .phase_i      (phase_q),
      .unique_i     (!repeat_q && (phase_q || last_step_q == SXW'(N - 32'd1))),
      .inject_i     (inject_q),
      .step_i       (step_q),
      .inj_valid_o  (inj_valid[t]),
      .inj_data_o   (inj_data[t*MW +: MW]),
      .ej_valid_i   (eject_valid_o[t]),
      .ej_data_i    (eject_data_o[t*MW +: MW]),
      .ej_step_i    (out_step),
      .recv_count_o (recv_count_o[t*CW +: CW]),
      .error_o      (nic_error[t])
    );
  end

  assign error_o = |nic_error;

  totex_banyan #(
    .N      (N),
    .D      (D),
    .W        (MW),
    .Wiring   (Wiring),
    .MaxSteps (MaxSteps)
  ) u_banyan (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .state_i            (state),
    .step_valid_i       (inject_q),
    .step_i             (step_q),
    .valid_i            (inj_valid),
    .data_i             (inj_data),
    .stage_step_valid_o (stage_step_valid),
    .stage_step_o       (stage_step),
    .valid_o            (eject_valid_o),
    .data_o             (eject_data_o),
    .out_step_valid_o   (out_step_valid),
    .out_step_o         (out_step)
  );

`ifndef SYNTHESIS
`ifndef TOTEX_NO_ASSERTIONS
  // Overlapping use and illegal load-port accesses.
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert_use
    if (rst_ni) begin
      assert (!(start_i && busy_q))
      else $error("totex_min_top: start_i while busy (ignored)");
      assert (!(cfg_we_i && busy_q))
      else $error("totex_min_top: cfg_we_i while busy (ignored)");
      if (cfg_we) begin
        assert (cfg_region != totex_pkg::REGION_CONTROL
                || (cfg_index == XW'(totex_pkg::CONTROL_LAST_STEP)
                    && 32'(cfg_data_i[SXW-1:0]) < MaxSteps
                    && (Mode == totex_pkg::MODE_TABLE || 32'(cfg_data_i[SXW-1:0]) == N - 32'd1))
                || (cfg_index == XW'(totex_pkg::CONTROL_REPEAT) && 32'(cfg_data_i) <= 32'd1))
        else $error("totex_min_top: control write %0d to register %0d is not allowed", cfg_data_i,
                    cfg_index);
        assert (!(Mode == totex_pkg::MODE_TABLE && cfg_region == totex_pkg::REGION_M0))
        else $error("totex_min_top: region 1 (M^0) written in MODE_TABLE");
        assert (!(Mode == totex_pkg::MODE_COMPUTED
                  && cfg_region == totex_pkg::REGION_SWITCH_TABLE))
        else $error("totex_min_top: region 0 (switch table) written in MODE_COMPUTED");
        assert (!cfg_state_we || (32'(cfg_index) < NumSw
                                  && 32'(cfg_data_i) < D))
        else $error("totex_min_top: switch %0d / state %0d out of range", cfg_index,
                    cfg_data_i);
        assert (!cfg_queue_we || 32'(cfg_index) < N)
        else $error("totex_min_top: send queue of terminal %0d >= N", cfg_index);
      end
    end
  end
`endif
`endif

endmodule
