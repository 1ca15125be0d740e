// SPDX-License-Identifier: Apache-2.0
/// One node of the torus self-test (totex_board_tdm_torus): the payload generator in front of a TDM
/// tile's s_axis and the checker behind its m_axis (docs/fpga.md, "A torus on the HX8K").
///
/// Payload of the message from src to dst of period k: payload(src, dst, k) = k + {src, dst}, cut
/// to PayloadW bits (successive periods differ; within 2^PayloadW periods every period of a pair
/// has its own; the checker recomputes it).
///
/// Generator. It reads its own copy of the node's slot table (TableFile, a ROM in logic) to know
/// which destination each slot injects for. While load_i is high (before the run) it offers
/// period 0's message to every other node, in node order. While running, in the cycle that
/// executes slot s (slot_i) of period k (period_i), if the slot injects for d it offers d's message
/// of period k + 1 from the next cycle: d's entry in the NIC was just freed, so the offer commits at
/// once and is in the NIC long before d's slot of the next period (docs/tdm-runs.md, "Short
/// periods"). One offer register: an inject while the previous offer is still waiting is an
/// overrun (fail_code_o[3]); it does not happen with the tile's contract (s_axis_tready stays high).
///
/// Checker. Deliveries are counted in windows of one period, the run cycles of the board's period
/// counter (period_i, window_end_i = the cycle executing the last slot). A source's messages arrive
/// at a fixed slot of the period, in the same window as they were sent or, when the last hop wraps
/// past the period, in the next one (assumed: t_last + 2 < 2 * period, true for the default
/// schedules the board uses); which of the two is learnt in window 0 (late_q: not seen in window 0).
/// Every beat: source in range and not this node, not seen before in this window (else
/// fail_code_o[1]), payload == payload(src, Node, period_i - late_q[src]) (else fail_code_o[0]).
/// At the end of every window after window 0: every other node seen exactly once (else
/// fail_code_o[1]). fail_code_o[2]: the tile's error_o; fail_code_o[3]: the tile's missed_o moved
/// (a slot found no message) or a generator overrun. All sticky until reset.
///
/// Fault modes (fault_i, 2 bits, only at node FaultNode; the board's fault-injection parameter):
/// 1 = the payloads of the messages to node FaultDst have bit 0 flipped (fail_code_o[0] at
/// FaultDst); 3 = the message to FaultDst of period 4 is never offered (its slot misses: fail_code_o
/// [3] here, [1] at FaultDst). Mode 2 (a stuck link bit) is in totex_board_tdm_torus.
`default_nettype none

module totex_board_tdm_node #(
  /// This node's id.
  parameter int unsigned Node = 32'd0,
  /// Nodes of the network.
  parameter int unsigned N = 32'd9,
  /// Bits of a node id.
  parameter int unsigned NodeW = 32'd4,
  /// Neighbour ports of the tile.
  parameter int unsigned NumPorts = 32'd4,
  /// Payload bits of a flit.
  parameter int unsigned PayloadW = 32'd8,
  /// Slots of the table.
  parameter int unsigned Depth = 32'd16,
  /// The node's slot table ($readmemh image, the tile's TableFile).
  parameter TableFile = "",
  /// Node whose generator the fault modes 1 and 3 affect.
  parameter int unsigned FaultNode = 32'd0,
  /// Destination whose messages the fault modes 1 and 3 affect.
  parameter int unsigned FaultDst = 32'd1,
  /// Bits of a table entry; do not overwrite.
  localparam int unsigned EntryW = totex_tdm_pkg::entry_width(NumPorts, NodeW),
  /// Bits of a slot number; do not overwrite.
  localparam int unsigned SlotW = totex_pkg::idx_width(Depth)
) (
  /// Clock, rising edge.
  input  logic                clk_i,
  /// Asynchronous reset, active low.
  input  logic                rst_ni,
  /// Before the run: offer period 0's messages.
  input  logic                load_i,
  /// A slot executes in this cycle (the tiles' run_i).
  input  logic                run_i,
  /// The slot executing in this cycle.
  input  logic [SlotW-1:0]    slot_i,
  /// The period (window) of this cycle, modulo 2^PayloadW.
  input  logic [PayloadW-1:0] period_i,
  /// This cycle ends a window (run_i and the last slot of the period).
  input  logic                window_end_i,
  /// Fault mode (see above); 0 = none.
  input  logic [1:0]          fault_i,
  /// Slot table entry 0 (the value the board writes back to restart the tile's priming).
  output logic [EntryW-1:0]   entry0_o,
  /// Every period-0 message has been offered and taken.
  output logic                init_done_o,
  /// The tile's s_axis.
  output logic                s_tvalid_o,
  input  logic                s_tready_i,
  output logic [PayloadW-1:0] s_tdata_o,
  output logic [NodeW-1:0]    s_tdest_o,
  /// The tile's m_axis (m_axis_tready is tied high by the board).
  input  logic                m_tvalid_i,
  input  logic [PayloadW-1:0] m_tdata_i,
  input  logic [NodeW-1:0]    m_tid_i,
  /// The tile's missed_o and error_o.
  input  logic [1:0]          missed_i,
  input  logic                error_i,
  /// Sticky failures: [0] payload, [1] count (missing, duplicate, bad source), [2] tile error_o,
  /// [3] tile missed a slot or generator overrun.
  output logic [3:0]          fail_code_o
);

  localparam int unsigned P = NumPorts;
  localparam int unsigned SelW = totex_tdm_pkg::sel_width(NumPorts);
  localparam int unsigned SelsW = (P + 32'd1) * SelW;

  if (N > (32'd1 << NodeW) || Node >= N || FaultDst >= N || FaultDst == FaultNode) begin : gen_param_err
    $error("totex_board_tdm_node: need N <= 2**NodeW, Node < N, FaultDst < N, FaultDst != FaultNode");
  end

  function automatic logic [PayloadW-1:0] payload(input logic [NodeW-1:0] src,
                                                  input logic [NodeW-1:0] dst,
                                                  input logic [PayloadW-1:0] k);
    payload = k + PayloadW'({src, dst});
  endfunction

  // The slot table as a ROM in logic (a few dozen LUTs: only the inject fields are used).
  (* ram_style = "logic", rom_style = "logic" *) logic [EntryW-1:0] rom [Depth];
  if (TableFile != "") begin : gen_rom
    initial $readmemh(TableFile, rom);
  end
  logic [EntryW-1:0] ent;
  logic              ent_inj;
  logic [NodeW-1:0]  ent_dst;
  assign ent = rom[slot_i];
  always_comb begin
    ent_inj = 1'b0;
    for (int unsigned o = 0; o < P; o++) ent_inj = ent_inj | (ent[o*SelW +: SelW] == SelW'(P + 32'd1));
  end
  assign ent_dst  = ent[SelsW +: NodeW];
  assign entry0_o = rom[0];

  // ---------------------------------------------------------------------------------------------
  // Generator
  // ---------------------------------------------------------------------------------------------
  localparam logic [NodeW-1:0] Self = NodeW'(Node);
  localparam logic [NodeW-1:0] Last = NodeW'(N - 32'd1);
  localparam logic [NodeW-1:0] LastDst = NodeW'((Node == N - 32'd1) ? N - 32'd2 : N - 32'd1);
  localparam logic [NodeW-1:0] FDst = NodeW'(FaultDst);
  logic             ofr_v_q, init_done_q, overrun_q;
  logic [NodeW-1:0] ofr_d_q, init_d_q;
  logic [PayloadW-1:0] ofr_k_q;
  logic             fire, skip, first_q;
  logic [NodeW-1:0] next_init;
  assign fire = run_i && ent_inj;
  assign skip = (Node == FaultNode) && fault_i == 2'd3 && ent_dst == FDst
             && (period_i + PayloadW'(1)) == PayloadW'(4);
  // The first init offer is node 0 (node 1 for node 0); later ones skip this node.
  assign next_init = (init_d_q + NodeW'(1) == Self) ? init_d_q + NodeW'(2) : init_d_q + NodeW'(1);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ofr_v_q     <= 1'b0;
      ofr_d_q     <= '0;
      ofr_k_q     <= '0;
      init_d_q    <= (Node == 32'd0) ? NodeW'(1) : '0;
      init_done_q <= 1'b0;
      first_q     <= 1'b1;
      overrun_q   <= 1'b0;
    end else begin
      if (ofr_v_q && s_tready_i) ofr_v_q <= 1'b0;
      if (load_i && !init_done_q && (first_q || (ofr_v_q && s_tready_i))) begin
        // Period 0: every other node in order, one offer after the other.
        first_q  <= 1'b0;
        ofr_v_q  <= 1'b1;
        ofr_d_q  <= init_d_q;
        ofr_k_q  <= '0;
        init_d_q <= next_init;
        if (init_d_q == LastDst) init_done_q <= 1'b1;
      end else if (fire && !skip) begin
        // d's entry was freed by this slot: offer d's message of the next period.
        if (ofr_v_q && !s_tready_i) overrun_q <= 1'b1;
        ofr_v_q <= 1'b1;
        ofr_d_q <= ent_dst;
        ofr_k_q <= period_i + PayloadW'(1);
      end
      if (run_i && !init_done_q) overrun_q <= 1'b1;  // period 0 not offered in time
    end
  end
  logic [PayloadW-1:0] flip;
  assign flip = (Node == FaultNode && fault_i == 2'd1 && ofr_d_q == FDst) ? PayloadW'(1) : '0;
  assign init_done_o = init_done_q & ~ofr_v_q;
  assign s_tvalid_o = ofr_v_q;
  assign s_tdest_o  = ofr_d_q;
  assign s_tdata_o  = payload(Self, ofr_d_q, ofr_k_q) ^ flip;

  // ---------------------------------------------------------------------------------------------
  // Checker
  // ---------------------------------------------------------------------------------------------
  logic [N-1:0] seen_q, late_q, beat, seen_now, others;
  logic         win0_q, bad_src, dup, pay_bad, count_bad;
  logic         f_pay_q, f_cnt_q, f_err_q, f_miss_q;
  logic [PayloadW-1:0] exp_k;
  always_comb begin
    for (int unsigned s = 0; s < N; s++) begin
      beat[s]   = m_tvalid_i && m_tid_i == NodeW'(s);
      others[s] = (s != Node);
    end
  end
  assign seen_now  = seen_q | beat;
  logic tid_range;  // m_tid_i names no node (only possible when N < 2**NodeW)
  if (N < (32'd1 << NodeW)) begin : gen_tid_range
    assign tid_range = m_tid_i > Last;
  end else begin : gen_tid_full
    assign tid_range = 1'b0;
  end
  assign bad_src   = m_tvalid_i && (tid_range || m_tid_i == Self);
  assign dup       = |(seen_q & beat);
  assign exp_k     = period_i - PayloadW'(late_q[m_tid_i]);
  assign pay_bad   = m_tvalid_i && !bad_src && m_tdata_i != payload(m_tid_i, Self, exp_k);
  assign count_bad = window_end_i && !win0_q && seen_now != others;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      seen_q   <= '0;
      late_q   <= '0;
      win0_q   <= 1'b1;
      f_pay_q  <= 1'b0;
      f_cnt_q  <= 1'b0;
      f_err_q  <= 1'b0;
      f_miss_q <= 1'b0;
    end else begin
      if (window_end_i) begin
        seen_q <= '0;
        win0_q <= 1'b0;
        if (win0_q) late_q <= others & ~seen_now;
      end else begin
        seen_q <= seen_now;
      end
      f_pay_q  <= f_pay_q | pay_bad;
      f_cnt_q  <= f_cnt_q | bad_src | dup | count_bad;
      f_err_q  <= f_err_q | error_i;
      f_miss_q <= f_miss_q | (missed_i != 2'b00) | overrun_q;
    end
  end
  assign fail_code_o = {f_miss_q, f_err_q, f_cnt_q, f_pay_q};

endmodule
