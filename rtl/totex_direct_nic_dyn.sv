// SPDX-License-Identifier: Apache-2.0
/// Dynamic-mode network interface: a send queue injected in order as fast as the router accepts
/// (one message per cycle at most), and a receiver that counts and checks what is ejected.
///
/// The queue holds `send_count` entries {dst[IW], payload[PW]} (slot order = injection order),
/// written through the load port before the run; the NIC is done when it has injected all of them
/// and received `recv_count` messages (both loaded through the control region).
`default_nettype none

module totex_direct_nic_dyn #(
  /// Number of nodes N.
  parameter int unsigned N = 32'd8,
  /// Payload width.
  parameter int unsigned PW = 32'd16,
  /// Send queue entries (N - 1 for a total exchange; (N - 1) x the heaviest pair's flits for
  /// another traffic, see totex_direct_dyn_node).
  parameter int unsigned QDepth = 32'd7,
  /// Width of a node id; do not overwrite.
  localparam int unsigned IW = totex_direct_pkg::node_width(N),
  /// Message width; do not overwrite.
  localparam int unsigned MW = totex_direct_pkg::msg_width(N, PW),
  /// Width of a queue index / count; do not overwrite.
  localparam int unsigned QW = totex_pkg::idx_width(QDepth + 32'd1)
) (
  /// Clock, rising edge.
  input  logic               clk_i,
  /// Asynchronous active-low reset (the queue memory is not reset).
  input  logic               rst_ni,
  /// This node's number (a constant of the instance).
  input  logic [IW-1:0]      node_id_i,
  /// Load port: write queue slot q_slot_i.
  input  logic               q_we_i,
  /// Load port: slot written.
  input  logic [QW-1:0]      q_slot_i,
  /// Load port: {dst, payload}.
  input  logic [IW+PW-1:0]   q_data_i,
  /// Load port: write the number of messages to send.
  input  logic               send_count_we_i,
  /// Load port: write the number of messages to receive.
  input  logic               recv_count_we_i,
  /// Load port: the count written.
  input  logic [QW-1:0]      count_i,
  /// Start of a run.
  input  logic               clear_i,
  /// The run is busy (inject only then).
  input  logic               active_i,
  /// Inject valid.
  output logic               inj_valid_o,
  /// Injected message {src, dst, payload}.
  output logic [MW-1:0]      inj_data_o,
  /// The router takes the message.
  input  logic               inj_ready_i,
  /// Ejected message valid.
  input  logic               ej_valid_i,
  /// Ejected message.
  input  logic [MW-1:0]      ej_data_i,
  /// All sent and all received.
  output logic               done_o,
  /// Sticky: a message for another node was ejected here.
  output logic               error_o
);

  logic [IW+PW-1:0] queue [QDepth];
  always_ff @(posedge clk_i) begin
    if (q_we_i && 32'(q_slot_i) < QDepth) queue[q_slot_i] <= q_data_i;
  end

  logic [QW-1:0]    send_d, send_q, recv_target_d, recv_target_q, sent_d, sent_q, recv_d, recv_q;
  logic             error_d, error_q;
  logic             wrong;
  logic [IW+PW-1:0] head;

  assign head        = queue[sent_q];
  assign inj_valid_o = active_i && sent_q != send_q;
  assign inj_data_o  = {node_id_i, head};
  assign wrong       = ej_valid_i && ej_data_i[PW +: IW] != node_id_i;
  assign done_o      = sent_q == send_q && recv_q == recv_target_q;
  assign error_o     = error_q;

  always_comb begin
    send_d        = send_count_we_i ? count_i : send_q;
    recv_target_d = recv_count_we_i ? count_i : recv_target_q;
    sent_d        = sent_q;
    recv_d        = recv_q;
    error_d       = error_q;
    if (clear_i) begin
      sent_d  = '0;
      recv_d  = '0;
      error_d = 1'b0;
    end else begin
      if (inj_valid_o && inj_ready_i) sent_d = sent_q + QW'(1);
      if (ej_valid_i) recv_d = recv_q + QW'(1);
      if (wrong) error_d = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      send_q        <= '0;
      recv_target_q <= '0;
      sent_q        <= '0;
      recv_q        <= '0;
      error_q       <= 1'b0;
    end else begin
      send_q        <= send_d;
      recv_target_q <= recv_target_d;
      sent_q        <= sent_d;
      recv_q        <= recv_d;
      error_q       <= error_d;
    end
  end

  // Source and payload of ejected messages are checked by the harness's scoreboard, not here.
  logic unused_ej;
  assign unused_ej = ^ej_data_i;

`ifndef SYNTHESIS
`ifndef TOTEX_NO_ASSERTIONS
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert
    if (rst_ni && !clear_i) begin
      assert (!wrong)
      else $error("totex_direct_nic_dyn: node %0d: ejected a message for node %0d", node_id_i,
                  ej_data_i[PW +: IW]);
      assert (!(ej_valid_i && recv_q == recv_target_q))
      else $error("totex_direct_nic_dyn: node %0d: more messages than expected", node_id_i);
    end
  end
`endif
`endif

endmodule
