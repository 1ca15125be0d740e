// SPDX-License-Identifier: Apache-2.0
/// Single-port NIC of one MIN terminal: injects one message per step, checks what is ejected.
///
/// Message layout (MW = 2*IW + SXW + PW bits, IW = idx_width(N), SXW = idx_width(MaxSteps)), MSB first:
///   msg[MW-1         -: IW ] src     sending terminal
///   msg[IW+SXW+PW-1  -: IW ] dst     destination terminal (0 for a label)
///   msg[SXW+PW-1     -: SXW] seq     step x in which the message was injected
///   msg[PW-1         :  0  ] payload
///
/// Send side: a queue of MaxSteps slots {idle, dst, payload}, written through the load port. In
/// every cycle with inject_i high the NIC injects the message of step step_i: in phase 0 (labels)
/// the label {src=id_i, dst=0, seq=x, payload=id_i} (the queue is not used), in phase 1 (messages)
/// {src=id_i, dst, seq=x, payload} from slot x of the queue, unless the slot is marked idle (a
/// schedule in which this terminal sends nothing in step x).
///
/// Receive side: at most one ejected message per cycle. Checks: no source is received twice in a
/// run (received-from bitmap; when unique_i), seq equals the step tag carried by the network, src < N, and in
/// phase 1 dst == Id (in phase 0: dst == 0 and payload == src). A failed check raises error_o
/// (sticky until the next clear_i) and, in simulation, an immediate assertion.
/// recv_count_o and error_o already include the message on ej_* in the current cycle, so right
/// when the last step is at the eject port they show the complete run.
`default_nettype none

module totex_nic #(
  /// Number of terminals N.
  parameter int unsigned N = 32'd16,
  /// Queue slots: the longest run (steps) this NIC takes part in; >= N.
  parameter int unsigned MaxSteps = N,
  /// Payload width in bits, >= idx_width(N) (a label carries the terminal id as payload).
  parameter int unsigned PW = 32'd16,
  /// Width of a terminal id; do not overwrite.
  localparam int unsigned IW = totex_pkg::idx_width(N),
  /// Width of a step / queue slot; do not overwrite.
  localparam int unsigned SXW = totex_pkg::idx_width(MaxSteps),
  /// Message width; do not overwrite.
  localparam int unsigned MW = 2 * IW + SXW + PW,
  /// Width of the receive counter (0..MaxSteps: one message per step); do not overwrite.
  localparam int unsigned CW = totex_pkg::idx_width(MaxSteps + 32'd1)
) (
  /// Clock, rising edge.
  input  logic             clk_i,
  /// Asynchronous active-low reset (bitmap, counter and error cleared; the queue is not reset).
  input  logic             rst_ni,
  /// This terminal's id (< N); tie to a constant. A port rather than a parameter so that all NICs
  /// of a MIN share one module (one Verilator class, one Yosys module).
  input  logic [IW-1:0]    id_i,
  /// Queue write enable (load port, region 2, this terminal).
  input  logic             q_we_i,
  /// Queue slot x to write.
  input  logic [SXW-1:0]   q_slot_i,
  /// Queue entry {idle, dst, payload}: idle at [IW+PW], dst at [IW+PW-1 -: IW], payload at [PW-1:0].
  input  logic [IW+PW:0]   q_data_i,
  /// Start of a run: clears the receive bitmap, counter and error (this cycle's ejection ignored).
  input  logic             clear_i,
  /// Phase of the current run: 0 labels, 1 messages.
  input  logic             phase_i,
  /// Each source reaches this terminal at most once in this run (always in phase 1; in phase 0
  /// only when the run has N steps: a longer table sends labels in slots that will stay idle).
  input  logic             unique_i,
  /// Inject the message of step step_i in this cycle.
  input  logic             inject_i,
  /// Step x being injected. A run's steps are 0, 1, 2, ... in consecutive cycles with inject_i
  /// high, from the cycle after clear_i (the queue is read one cycle ahead on that assumption).
  input  logic [SXW-1:0]   step_i,
  /// Injected message valid (inject_i, unless the queue slot is idle in phase 1).
  output logic             inj_valid_o,
  /// Injected message.
  output logic [MW-1:0]    inj_data_o,
  /// A message is ejected at this terminal in this cycle.
  input  logic             ej_valid_i,
  /// The ejected message.
  input  logic [MW-1:0]    ej_data_i,
  /// Step tag of the ejected message, as carried by the network pipeline.
  input  logic [SXW-1:0]   ej_step_i,
  /// Messages received in this run, including the one on ej_* now.
  output logic [CW-1:0]    recv_count_o,
  /// A receive check failed in this run (including the message on ej_* now).
  output logic             error_o
);

  if (PW < IW) begin : gen_pw_err
    $error("totex_nic: PW must be >= idx_width(N)");
  end
  if (MaxSteps < N) begin : gen_steps_err
    $error("totex_nic: MaxSteps must be >= N");
  end
  // For Verilator simulation: one C++ class shared by the N NICs instead of N inlined copies. Ignored by Yosys.
  /* verilator no_inline_module */

  localparam int unsigned QW = 1 + IW + PW;  // {idle, dst, payload}
  logic [IW-1:0] own_id;
  assign own_id = id_i;

  // ---------------------------------------------------------------------------------------------
  // Send side
  // ---------------------------------------------------------------------------------------------
  // Send queue: a memory with a registered read (block RAM on iCE40: the table-mode 16 x 16 MIN
  // did not place with the queues in flip-flops), read one cycle ahead of its step. A run steps
  // 0, 1, 2, ... while inject_i is high and starts at step 0 in the cycle after clear_i (the
  // controllers of totex_min_top and of the SystemC model do), so the slot of the next cycle is
  // step 0 after clear_i, step_i + 1 while injecting, else step_i. A write in the cycle of the
  // read is passed through, so in every cycle with inject_i high `slot` is queue[step_i], as the
  // combinational read had it (between runs it may be another slot: inj_valid_o is low then).
  (* ram_style = "block" *) logic [QW-1:0] queue_q [MaxSteps];
  logic [QW-1:0] slot, slot_q;
  logic [SXW-1:0] slot_next;

  assign slot_next = clear_i ? '0 : inject_i ? step_i + SXW'(1) : step_i;
  always_ff @(posedge clk_i) begin
    if (q_we_i) queue_q[q_slot_i] <= q_data_i;
    slot_q <= (q_we_i && q_slot_i == slot_next) ? q_data_i : queue_q[slot_next];
  end

  assign slot        = slot_q;
  // The destination the injected message is addressed to: named for waveform views.
  logic [IW-1:0] inj_dst;
  assign inj_dst     = phase_i ? slot[QW-2 -: IW] : '0;
  assign inj_valid_o = inject_i && !(phase_i && slot[QW-1]);
  assign inj_data_o  = phase_i ? {own_id, inj_dst, step_i, slot[PW-1:0]}
                               : {own_id, {IW{1'b0}}, step_i, PW'(own_id)};

  // ---------------------------------------------------------------------------------------------
  // Receive side
  // ---------------------------------------------------------------------------------------------
  logic [IW-1:0]   ej_src, ej_dst;
  logic [SXW-1:0]  ej_seq;
  logic [PW-1:0]   ej_payload;
  logic            src_ok, dup, seq_ok, dst_ok, bad_now;
  logic [N-1:0]    seen_d, seen_q;
  logic [CW-1:0]   count_d, count_q;
  logic            error_d, error_q;

  assign {ej_src, ej_dst, ej_seq, ej_payload} = ej_data_i;

  assign src_ok  = 32'(ej_src) < N;
  assign dup     = unique_i && src_ok && seen_q[ej_src];
  assign seq_ok  = ej_seq == ej_step_i;
  assign dst_ok  = phase_i ? (ej_dst == own_id)
                           : (ej_dst == '0 && ej_payload == PW'(ej_src));
  assign bad_now = ej_valid_i && !clear_i && (!src_ok || dup || !seq_ok || !dst_ok);

  always_comb begin
    seen_d  = seen_q;
    count_d = count_q;
    error_d = error_q | bad_now;
    if (clear_i) begin
      seen_d  = '0;
      count_d = '0;
      error_d = 1'b0;
    end else if (ej_valid_i) begin
      if (src_ok) seen_d[ej_src] = 1'b1;
      count_d = count_q + CW'(1);
    end
  end

  assign recv_count_o = (ej_valid_i && !clear_i) ? count_q + CW'(1) : count_q;
  assign error_o      = error_q | bad_now;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      seen_q  <= '0;
      count_q <= '0;
      error_q <= 1'b0;
    end else begin
      seen_q  <= seen_d;
      count_q <= count_d;
      error_q <= error_d;
    end
  end

`ifndef SYNTHESIS
`ifndef TOTEX_NO_ASSERTIONS
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert_rx
    if (rst_ni && ej_valid_i && !clear_i) begin
      assert (src_ok)
      else $error("totex_nic[%0d]: received src %0d >= N", own_id, ej_src);
      assert (!dup)
      else $error("totex_nic[%0d]: source %0d received twice in one run", own_id, ej_src);
      assert (seq_ok)
      else $error("totex_nic[%0d]: seq %0d but network step %0d", own_id, ej_seq, ej_step_i);
      assert (!phase_i || ej_dst == own_id)
      else $error("totex_nic[%0d]: message for %0d delivered here", own_id, ej_dst);
      assert (phase_i || (ej_dst == '0 && ej_payload == PW'(ej_src)))
      else $error("totex_nic[%0d]: malformed label from %0d", own_id, ej_src);
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert_q
    if (rst_ni && q_we_i) begin
      assert (32'(q_slot_i) < MaxSteps)
      else $error("totex_nic[%0d]: queue slot %0d >= MaxSteps", own_id, q_slot_i);
      assert (32'(q_data_i[QW-2 -: IW]) < N)
      else $error("totex_nic[%0d]: queued dst %0d >= N", own_id, q_data_i[QW-2 -: IW]);
    end
  end
`endif
`endif

endmodule
