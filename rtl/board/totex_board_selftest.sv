// SPDX-License-Identifier: Apache-2.0
/// Board self-test: a 16 x 16 d = 4 omega MIN (paper 002) that, after reset, loads its built-in
/// schedule, runs the paper's two-phase total exchange, checks every delivery in hardware, and
/// repeats forever. Clock and pins are the board tops' business (totex_board_icebreaker/_hx8k).
///
/// One iteration ("run"), all in hardware, the same algorithm sim/min_rtl_main.cpp drives from
/// software:
///   1. load: write M^0 = 0 (paper 002: all zeros for d > 2) into every switch's computed-mode
///      state source (M^x = M^0 (+)_d digit_{n-1-j}(x)); NumSw cycles.
///   2. labels: N steps, terminal s injects the label {src=s, dst=0, seq=x, payload=s} in step x.
///      The terminals' totex_nic receive checks run; the label arriving at terminal t in step x is
///      written into row x of the label memory (one block-RAM word per step).
///   3. send order: each row x is turned around (the label from s at terminal t means "s sends to t
///      in step x") into row x of the send-order memory, N + 3 cycles per row. A row whose labels
///      are not a permutation of the sources fails the check (so the label matrix is a Latin square:
///      rows here, columns by the NICs' duplicate check).
///   4. load again (with the fault, if fault_state_i), then messages: terminal s injects
///      {src=s, dst=order[x][s], seq=x, payload_of(s, dst, run)} in step x.
/// Checks per phase, at the cycle the last step is ejected: no NIC receive check failed (wrong dst,
/// duplicate source, seq != network step, malformed label), every terminal received exactly N
/// messages, the last step came out in exactly cycle N + n - 1; in the message phase also every
/// payload. Results are sticky in fail_code_o until reset.
///
/// Why not totex_min_top: its send queues and receive bitmaps are flip-flops (N*N*(1+IW+PW) for the
/// queues alone), which does not fit the iCE40UP5K. Here the schedule is computed (no per-step
/// tables), the label and send-order matrices live in block RAM (totex_board_ram), and totex_nic is
/// used for its receive checks only (its queue is never written and is optimized away).
`default_nettype none

module totex_board_selftest #(
  /// Number of terminals N, a power of D.
  parameter int unsigned N = 32'd16,
  /// Switch radix d (> 2 for the all-zero M^0 to be paper 002's schedule; 2 works too).
  parameter int unsigned D = 32'd4,
  /// Payload width in bits (>= idx_width(N)).
  parameter int unsigned PW = 32'd4,
  /// totex_pkg::WIRING_OMEGA, WIRING_BASELINE or WIRING_BUTTERFLY.
  parameter int unsigned Wiring = totex_pkg::WIRING_OMEGA,
  /// Switch whose M^0 entry fault_state_i sets to 1 for the message phase (global index g).
  parameter int unsigned FaultSwitch = 32'd0,
  /// Terminal whose message payloads fault_payload_i corrupts (bit 0 flipped).
  parameter int unsigned FaultTerminal = 32'd0,
  /// Width of the run counter.
  parameter int unsigned RunW = 32'd24,
  /// Width of a terminal id / step; do not overwrite.
  localparam int unsigned IW = totex_pkg::idx_width(N),
  /// Number of stages n = log_d N; do not overwrite.
  localparam int unsigned NumStages = totex_pkg::num_digits(N, D),
  /// Number of switches; do not overwrite.
  localparam int unsigned NumSw = NumStages * (N / D)
) (
  /// Clock, rising edge.
  input  logic            clk_i,
  /// Asynchronous active-low reset (synchronously released by the board top).
  input  logic            rst_ni,
  /// Fault injection: corrupt one switch state (FaultSwitch) during the message phase.
  input  logic            fault_state_i,
  /// Fault injection: flip payload bit 0 of FaultTerminal's messages (only the payload check sees it).
  input  logic            fault_payload_i,
  /// At least one run completed and no check has failed since reset.
  output logic            pass_o,
  /// Some check has failed since reset.
  output logic            fail_o,
  /// Sticky failed checks: [0] label phase (NIC check, count or timing), [1] a step's labels not a
  /// permutation, [2] message phase (NIC check, count or timing), [3] payload mismatch.
  output logic [3:0]      fail_code_o,
  /// Completed runs (label phase + message phase), wraps.
  output logic [RunW-1:0] runs_o,
  /// One-cycle pulse after each completed run.
  output logic            run_done_o
);

  localparam int unsigned SW       = totex_pkg::idx_width(D);
  localparam int unsigned GW       = totex_pkg::idx_width(NumSw);
  localparam int unsigned MW       = 3 * IW + PW;  // {src, dst, seq, payload}, MaxSteps = N
  localparam int unsigned CW       = totex_pkg::idx_width(N + 32'd1);
  // The last step leaves the MIN in cycle N + n - 1 of a run (totex_min_top's timing contract).
  localparam int unsigned Expected = N + NumStages - 32'd1;
  localparam int unsigned Timeout  = Expected + 32'd2;
  localparam int unsigned CycW     = totex_pkg::idx_width(Timeout + 32'd1);

  if (PW < IW) begin : gen_pw_err
    $error("totex_board_selftest: PW must be >= idx_width(N)");
  end
  if (FaultSwitch >= NumSw || FaultTerminal >= N) begin : gen_fault_err
    $error("totex_board_selftest: FaultSwitch / FaultTerminal out of range");
  end

  /// Payload of the message src -> dst in run `run`: injective in src for fixed dst and run, and it
  /// changes from run to run, so a stale or misrouted payload is caught.
  function automatic logic [PW-1:0] payload_of(input logic [IW-1:0] src, input logic [IW-1:0] dst,
                                               input logic [PW-1:0] run);
    payload_of = (PW'(src) + PW'({dst, 1'b0}) + PW'(dst)) ^ run;
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Sequencer state
  // ---------------------------------------------------------------------------------------------
  localparam logic [1:0] StLoad  = 2'd0;  // write M^0 into every switch state source
  localparam logic [1:0] StRun   = 2'd1;  // one phase: inject N steps, wait for the last one out
  localparam logic [1:0] StOrder = 2'd2;  // label matrix -> send order, row by row
  localparam logic [1:0] StCheck = 2'd3;  // the cycle after the last ejection: judge the phase
  localparam logic [1:0] TrRead  = 2'd0;  // StOrder: read label row x (one cycle RAM latency)
  localparam logic [1:0] TrLoad  = 2'd1;  // StOrder: label row x into the shift register
  localparam logic [1:0] TrScan  = 2'd2;  // StOrder: terminal t of row x, one per cycle
  localparam logic [1:0] TrWrite = 2'd3;  // StOrder: write send-order row x

  logic [1:0]      st_q, st_d;
  logic            phase_q, phase_d;     // 0 labels, 1 messages
  logic [GW-1:0]   g_q, g_d;             // switch being loaded
  logic            inject_q, inject_d;
  logic [IW-1:0]   step_q, step_d;       // step entering stage 0
  logic [CycW-1:0] cyc_q, cyc_d;         // cycle of the current phase
  logic [1:0]      tr_q, tr_d;
  logic [IW-1:0]   tx_q, tx_d;           // row (step) being turned around
  logic [IW-1:0]   tt_q, tt_d;           // terminal being scanned
  logic [N*IW-1:0] lrow_q, lrow_d;       // label row x, shifted right by one terminal per scan
  logic [N*IW-1:0] row_q, row_d;         // send-order row under construction: dst of source s
  logic [N-1:0]    hit_q, hit_d;         // sources seen in this row
  logic            pay_err_q, pay_err_d;
  logic            timing_ok_q, timing_ok_d;  // the last step came out in cycle N + n - 1
  logic            nic_err_q;                 // some NIC check failed, as of the last cycle
  logic            counts_ok_q;               // every terminal had N messages, as of the last cycle
  logic [3:0]      fail_q, fail_d;
  logic [RunW-1:0] runs_q, runs_d;
  logic            ran_q, ran_d;
  logic            run_done_q, run_done_d;

  // ---------------------------------------------------------------------------------------------
  // Datapath: switch states, NICs (receive checks), MIN, label and send-order memories
  // ---------------------------------------------------------------------------------------------
  logic [NumSw*SW-1:0]      state;
  logic [NumStages-1:0]     stage_step_valid;
  logic [NumStages*IW-1:0]  stage_step;
  logic [N-1:0]             inj_valid, ej_valid;
  logic [N*MW-1:0]          inj_data, ej_data;
  logic                     out_step_valid;
  logic [IW-1:0]            out_step;
  logic [N-1:0]             nic_err;
  logic [N*CW-1:0]          recv_count;
  logic [N*IW-1:0]          ej_src;          // source of each terminal's ejected message
  logic [N*IW-1:0]          label_row;       // label memory read data: row tx_q
  logic [N*IW-1:0]          order_row;       // send-order memory read data: row step_q
  logic                     m0_we, nic_clear, order_we, label_we;
  logic [SW-1:0]            m0_data;
  logic [N-1:0]             pay_bad;

  // Every run reloads M^0 = 0, so a fault injected in one run is gone in the next.
  assign m0_we     = st_q == StLoad;
  assign m0_data   = (phase_q && fault_state_i && g_q == GW'(FaultSwitch)) ? SW'(1) : '0;
  assign nic_clear = st_q == StLoad && g_q == GW'(NumSw - 32'd1);

  for (genvar j = 0; j < NumStages; j++) begin : gen_state_stage
    for (genvar i = 0; i < N / D; i++) begin : gen_state_switch
      localparam int unsigned G = j * (N / D) + i;
      totex_switch_state #(
        .N         (N),
        .MaxSteps  (N),
        .D         (D),
        .NumStages (NumStages),
        .Stage     (j),
        .Mode      (totex_pkg::MODE_COMPUTED)
      ) u_state (
        .clk_i       (clk_i),
        .rst_ni      (rst_ni),
        .cfg_we_i    (m0_we && g_q == GW'(G)),
        .cfg_entry_i ('0),
        .cfg_data_i  (m0_data),
        .step_i      (stage_step[j*IW +: IW]),
        .state_o     (state[G*SW +: SW])
      );
    end
  end

  // totex_nic's send queue is not used (injection below reads the block-RAM send order), so its
  // injection outputs are left dangling on purpose.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [N-1:0]    unused_inj_valid;
  logic [N*MW-1:0] unused_inj_data;
  logic            unused_step_valid;
  /* verilator lint_on UNUSEDSIGNAL */
  assign unused_step_valid = &stage_step_valid;

  for (genvar t = 0; t < N; t++) begin : gen_term
    logic [IW-1:0] dst;
    logic [PW-1:0] payload;

    // Send side: label in phase 0, the message for order[x][t] in phase 1.
    assign dst     = order_row[t*IW +: IW];
    assign payload = payload_of(IW'(t), dst, PW'(runs_q))
                   ^ PW'((fault_payload_i && t == FaultTerminal) ? 1 : 0);
    assign inj_valid[t]         = inject_q;
    assign inj_data[t*MW +: MW] = phase_q ? {IW'(t), dst, step_q, payload}
                                          : {IW'(t), IW'(0), step_q, PW'(t)};

    // Receive side: totex_nic's checks plus the payload check it does not do.
    assign ej_src[t*IW +: IW] = ej_data[t*MW + MW - 1 -: IW];
    assign pay_bad[t] = ej_valid[t] && phase_q
                     && ej_data[t*MW +: PW] != payload_of(ej_src[t*IW +: IW], IW'(t), PW'(runs_q));

    totex_nic #(
      .N        (N),
      .MaxSteps (N),
      .PW       (PW)
    ) u_nic (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .id_i         (IW'(t)),
      .q_we_i       (1'b0),
      .q_slot_i     ('0),
      .q_data_i     ('0),
      .clear_i      (nic_clear),
      .phase_i      (phase_q),
      .unique_i     (1'b1),
      .inject_i     (1'b0),
      .step_i       (step_q),
      .inj_valid_o  (unused_inj_valid[t]),
      .inj_data_o   (unused_inj_data[t*MW +: MW]),
      .ej_valid_i   (ej_valid[t]),
      .ej_data_i    (ej_data[t*MW +: MW]),
      .ej_step_i    (out_step),
      .recv_count_o (recv_count[t*CW +: CW]),
      .error_o      (nic_err[t])
    );
  end

  totex_banyan #(
    .N        (N),
    .D        (D),
    .W        (MW),
    .Wiring   (Wiring),
    .MaxSteps (N)
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
    .valid_o            (ej_valid),
    .data_o             (ej_data),
    .out_step_valid_o   (out_step_valid),
    .out_step_o         (out_step)
  );

  // Label matrix: row x = the source of the label each terminal received in step x.
  assign label_we = st_q == StRun && !phase_q && out_step_valid;
  totex_board_ram #(.Depth(N), .Width(N * IW)) u_labels (
    .clk_i   (clk_i),
    .we_i    (label_we),
    .waddr_i (out_step),
    .wdata_i (ej_src),
    .raddr_i (tx_q),
    .rdata_o (label_row)
  );

  // Send order: row x = the destination of each source in step x. Read one cycle ahead (step_d)
  // so that row x is on order_row in the cycle step x is injected.
  totex_board_ram #(.Depth(N), .Width(N * IW)) u_order (
    .clk_i   (clk_i),
    .we_i    (order_we),
    .waddr_i (tx_q),
    .wdata_i (row_q),
    .raddr_i (step_d),
    .rdata_o (order_row)
  );

  // ---------------------------------------------------------------------------------------------
  // Checks at the end of a phase
  // ---------------------------------------------------------------------------------------------
  // The phase is judged one cycle after its last ejection, from registered copies of the NICs'
  // outputs, so that the N-way count compare and the sticky-flag update are not behind the NICs'
  // own combinational checks in the same path.
  logic done, run_end, counts_ok, run_bad;

  assign done    = out_step_valid && out_step == IW'(N - 32'd1);
  assign run_end = st_q == StRun && (done || cyc_q == CycW'(Timeout));
  always_comb begin
    counts_ok = 1'b1;
    for (int unsigned t = 0; t < N; t++) begin
      if (recv_count[t*CW +: CW] != CW'(N)) counts_ok = 1'b0;
    end
  end
  assign run_bad = nic_err_q || !counts_ok_q || !timing_ok_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      nic_err_q   <= 1'b0;
      counts_ok_q <= 1'b0;
    end else begin
      nic_err_q   <= |nic_err;
      counts_ok_q <= counts_ok;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Sequencer
  // ---------------------------------------------------------------------------------------------
  always_comb begin
    st_d       = st_q;
    phase_d    = phase_q;
    g_d        = g_q;
    inject_d   = inject_q;
    step_d     = step_q;
    cyc_d      = cyc_q;
    tr_d       = tr_q;
    tx_d       = tx_q;
    tt_d       = tt_q;
    lrow_d     = lrow_q;
    row_d      = row_q;
    hit_d      = hit_q;
    pay_err_d  = pay_err_q;
    timing_ok_d = timing_ok_q;
    fail_d     = fail_q;
    runs_d     = runs_q;
    ran_d      = ran_q;
    run_done_d = 1'b0;
    order_we   = 1'b0;
    case (st_q)
      StLoad: begin
        g_d = g_q + GW'(1);
        if (nic_clear) begin  // last switch written: the phase starts at the next edge
          g_d       = '0;
          st_d      = StRun;
          inject_d  = 1'b1;
          step_d    = '0;
          cyc_d     = '0;
          pay_err_d = 1'b0;
        end
      end
      StRun: begin
        cyc_d = cyc_q + CycW'(1);
        if (inject_q) begin
          if (step_q == IW'(N - 32'd1)) inject_d = 1'b0;
          else                          step_d   = step_q + IW'(1);
        end
        pay_err_d = pay_err_q | (|pay_bad);
        if (run_end) begin
          inject_d    = 1'b0;
          timing_ok_d = done && cyc_q == CycW'(Expected);
          st_d        = StCheck;
        end
      end
      StCheck: begin
        if (!phase_q) begin
          fail_d[0] = fail_q[0] | run_bad;
          st_d      = StOrder;
          tr_d      = TrRead;
          tx_d      = '0;
        end else begin
          fail_d[2]  = fail_q[2] | run_bad;
          fail_d[3]  = fail_q[3] | pay_err_q;
          runs_d     = runs_q + RunW'(1);
          ran_d      = 1'b1;
          run_done_d = 1'b1;
          phase_d    = 1'b0;
          st_d       = StLoad;
        end
      end
      default: begin  // StOrder
        case (tr_q)
          TrRead: tr_d = TrLoad;
          TrLoad: begin
            // A shift register instead of a 16:1 multiplexer indexed by t: that multiplexer in
            // front of the row decoder was the critical path (33 MHz).
            lrow_d = label_row;
            tr_d   = TrScan;
            tt_d   = '0;
          end
          TrScan: begin
            lrow_d = lrow_q >> IW;
            for (int unsigned s = 0; s < N; s++) begin
              if (lrow_q[IW-1:0] == IW'(s)) begin
                row_d[s*IW +: IW] = tt_q;
                hit_d[s]          = 1'b1;
              end
            end
            if (tt_q == IW'(N - 32'd1)) tr_d = TrWrite;
            else                        tt_d = tt_q + IW'(1);
          end
          default: begin  // TrWrite
            order_we  = 1'b1;
            fail_d[1] = fail_q[1] | ~&hit_q;
            hit_d     = '0;
            if (tx_q == IW'(N - 32'd1)) begin
              st_d    = StLoad;
              phase_d = 1'b1;
            end else begin
              tx_d = tx_q + IW'(1);
              tr_d = TrRead;
            end
          end
        endcase
      end
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q       <= StLoad;
      phase_q    <= 1'b0;
      g_q        <= '0;
      inject_q   <= 1'b0;
      step_q     <= '0;
      cyc_q      <= '0;
      tr_q       <= TrRead;
      tx_q       <= '0;
      tt_q       <= '0;
      lrow_q     <= '0;
      row_q      <= '0;
      hit_q      <= '0;
      pay_err_q  <= 1'b0;
      timing_ok_q <= 1'b0;
      fail_q     <= '0;
      runs_q     <= '0;
      ran_q      <= 1'b0;
      run_done_q <= 1'b0;
    end else begin
      st_q       <= st_d;
      phase_q    <= phase_d;
      g_q        <= g_d;
      inject_q   <= inject_d;
      step_q     <= step_d;
      cyc_q      <= cyc_d;
      tr_q       <= tr_d;
      tx_q       <= tx_d;
      tt_q       <= tt_d;
      lrow_q     <= lrow_d;
      row_q      <= row_d;
      hit_q      <= hit_d;
      pay_err_q  <= pay_err_d;
      timing_ok_q <= timing_ok_d;
      fail_q     <= fail_d;
      runs_q     <= runs_d;
      ran_q      <= ran_d;
      run_done_q <= run_done_d;
    end
  end

  assign pass_o      = ran_q && fail_q == '0;
  assign fail_o      = |fail_q;
  assign fail_code_o = fail_q;
  assign runs_o      = runs_q;
  assign run_done_o  = run_done_q;

endmodule
