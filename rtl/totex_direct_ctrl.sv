// SPDX-License-Identifier: Apache-2.0
/// Run controller of the direct networks: start/busy/done and the step (cycle) counter.
///
/// Timing contract (both modes). Edge 0 is the rising edge that samples start_i = 1 while
/// busy_o = 0; cycle c is the period between edge c and edge c+1; step_o = c during the run.
///   Scheduled (Dynamic = 0): the run executes table entries 0..last, one per cycle, where `last`
///     is the control register written through the load port (region 2, index 0) = the number of
///     schedule steps T (entry T only ejects the last step's arrivals). busy_o is high in cycles
///     0..T (T + 1 cycles: the schedule's T steps plus one cycle of pipeline latency: the link
///     register); done_o is high in cycle T.
///   Dynamic (Dynamic = 1): busy_o is high from cycle 0 until the cycle in which all_done_i is
///     high (every NIC sent and received everything); done_o is high in that cycle. step_o
///     saturates at its maximum.
/// clear_o pulses in the cycle before edge 0 (it is start_i && !busy_o) and clears the nodes.
`default_nettype none

module totex_direct_ctrl #(
  /// Width of the step counter.
  parameter int unsigned StepW = 32'd8,
  /// 0: scheduled (run length from the control register), 1: dynamic (run until all_done_i).
  parameter int unsigned Dynamic = 32'd0
) (
  /// Clock, rising edge.
  input  logic             clk_i,
  /// Asynchronous active-low reset.
  input  logic             rst_ni,
  /// Write the control register `last` (scheduled mode); ignored while busy.
  input  logic             last_we_i,
  /// The value written: last table entry of the run (= schedule steps).
  input  logic [StepW-1:0] last_i,
  /// Start a run (ignored while busy).
  input  logic             start_i,
  /// Dynamic mode: every NIC is done.
  input  logic             all_done_i,
  /// Start accepted this cycle: clear the nodes.
  output logic             clear_o,
  /// A run is in progress.
  output logic             busy_o,
  /// Last cycle of the run.
  output logic             done_o,
  /// Step (cycle) of the run.
  output logic [StepW-1:0] step_o
);

  logic             busy_d, busy_q;
  logic [StepW-1:0] step_d, step_q;
  logic [StepW-1:0] last_d, last_q;
  logic             done;

  assign clear_o = start_i && !busy_q;
  assign done    = busy_q && ((Dynamic != 32'd0) ? all_done_i : step_q == last_q);

  always_comb begin
    busy_d = busy_q;
    step_d = step_q;
    last_d = last_q;
    if (last_we_i && !busy_q) last_d = last_i;
    if (clear_o) begin
      busy_d = 1'b1;
      step_d = '0;
    end else if (busy_q) begin
      if (done) busy_d = 1'b0;
      else if (step_q != '1) step_d = step_q + StepW'(1);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      step_q <= '0;
      last_q <= '0;
    end else begin
      busy_q <= busy_d;
      step_q <= step_d;
      last_q <= last_d;
    end
  end

  assign busy_o = busy_q;
  assign done_o = done;
  assign step_o = step_q;

`ifndef SYNTHESIS
`ifndef TOTEX_NO_ASSERTIONS
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert
    if (rst_ni) begin
      assert (!(start_i && busy_q))
      else $error("totex_direct_ctrl: start_i while busy (ignored)");
      assert (!(last_we_i && busy_q))
      else $error("totex_direct_ctrl: load-port write while busy (ignored)");
    end
  end
`endif
`endif

endmodule
