// SPDX-License-Identifier: Apache-2.0
/// Scheduled-mode network interface of one node: the node's own personalized messages, the relay
/// buffer (single-port model), the inject lanes and the receive checks.
///
/// Message store, addressed by slot (SlotW = slot_width(N, BufSlots, Flits) bits; S = OwnSlots =
/// totex_direct_pkg::own_slots(N, Flits), N when Flits = 1):
///   slot {f, d} < S      the node's own flit f (f < Flits) for destination d (d < N): {src =
///                        node_id_i, dst = d, payload}; only the payload is stored (loaded
///                        through msg_we_i at the same slot); with one flit per pair, slot d;
///   slot S + j, j < B    relay buffer entry j (a full message), written by the store port.
/// The flit number travels in the payload (the controller loads a distinct payload per flit), so
/// the message format is the same for one and for several flits per pair.
/// Lane l reads slot lane_slot_i[l] combinationally; a buffer entry is freed when it is read.
/// Checks (sticky error_o + assertions): injecting an own flit twice, to itself or to a
/// destination >= N, reading an empty or out-of-range buffer entry, overwriting a full entry,
/// storing without a buffer, ejecting a message whose dst is not this node.
`default_nettype none

module totex_direct_nic #(
  /// Number of nodes N.
  parameter int unsigned N = 32'd8,
  /// Payload width.
  parameter int unsigned PW = 32'd16,
  /// Number of neighbour ports (eject inputs).
  parameter int unsigned NumPorts = 32'd2,
  /// Number of inject lanes.
  parameter int unsigned NumLanes = 32'd1,
  /// Relay buffer entries B (0 = no buffer: all-port and nic models).
  parameter int unsigned BufSlots = 32'd0,
  /// Own flits per destination (1: one message per ordered pair).
  parameter int unsigned Flits = 32'd1,
  /// Width of a node id; do not overwrite.
  localparam int unsigned IW = totex_direct_pkg::node_width(N),
  /// Message width {src, dst, payload}; do not overwrite.
  localparam int unsigned MW = totex_direct_pkg::msg_width(N, PW),
  /// Width of a message-store slot; do not overwrite.
  localparam int unsigned SlotW = totex_direct_pkg::slot_width(N, BufSlots, Flits),
  /// Own-flit slots {flit, dst}; do not overwrite.
  localparam int unsigned OwnSlots = totex_direct_pkg::own_slots(N, Flits),
  /// Width of an own-flit slot (the load index); do not overwrite.
  localparam int unsigned OSW = totex_pkg::idx_width(OwnSlots),
  /// Width of a buffer entry index; do not overwrite.
  localparam int unsigned BW = totex_direct_pkg::buffer_width(BufSlots),
  /// Width of the receive counter; do not overwrite.
  localparam int unsigned CW = totex_pkg::idx_width(N + 32'd1)
) (
  /// Clock, rising edge.
  input  logic                      clk_i,
  /// Asynchronous active-low reset (flags and counters; the payload memory is not reset).
  input  logic                      rst_ni,
  /// This node's number (a constant of the instance).
  input  logic [IW-1:0]             node_id_i,
  /// Load port: write the payload of the own flit in slot msg_slot_i.
  input  logic                      msg_we_i,
  /// Load port: slot {flit, destination} of the payload written.
  input  logic [OSW-1:0]            msg_slot_i,
  /// Load port: payload.
  input  logic [PW-1:0]             msg_payload_i,
  /// Start of a run: clears the sent flags, the buffer, the counter and the error.
  input  logic                      clear_i,
  /// Lane l reads a slot this cycle.
  input  logic [NumLanes-1:0]       lane_valid_i,
  /// Slot read by lane l at lane_slot_i[l*SlotW +: SlotW].
  input  logic [NumLanes*SlotW-1:0] lane_slot_i,
  /// Message of lane l.
  output logic [NumLanes*MW-1:0]    lane_data_o,
  /// Store a message into buffer entry store_entry_i.
  input  logic                      store_valid_i,
  /// Buffer entry written by the store.
  input  logic [BW-1:0]             store_entry_i,
  /// Message stored.
  input  logic [MW-1:0]             store_data_i,
  /// Messages ejected this cycle, one bit per neighbour port.
  input  logic [NumPorts-1:0]       eject_valid_i,
  /// Ejected messages (the router's input links).
  input  logic [NumPorts*MW-1:0]    eject_data_i,
  /// Messages received since the run started.
  output logic [CW-1:0]             recv_count_o,
  /// Sticky: a check above failed since the run started.
  output logic                      error_o
);

  localparam int unsigned NumBuf = (BufSlots > 32'd0) ? BufSlots : 32'd1;

  // Own payloads (a RAM: no reset; the controller loads every entry a run injects before it).
  logic [PW-1:0] payload_mem [OwnSlots];
  always_ff @(posedge clk_i) begin
    if (msg_we_i && 32'(msg_slot_i) < OwnSlots) payload_mem[msg_slot_i] <= msg_payload_i;
  end

  // Relay buffer.
  logic [MW-1:0]     buf_mem [NumBuf];
  logic [NumBuf-1:0] full_d, full_q;
  logic [OwnSlots-1:0] sent_d, sent_q;

  logic [NumLanes-1:0] lane_err;
  logic [NumBuf-1:0]   read_mask;
  logic [OwnSlots-1:0] sent_mask;
  logic [NumLanes-1:0] twice_err;

  for (genvar l = 0; l < NumLanes; l++) begin : gen_lane
    logic [SlotW-1:0] slot;
    logic             own;
    logic [BW-1:0]    entry;
    assign slot  = lane_slot_i[l*SlotW +: SlotW];
    assign own   = 32'(slot) < OwnSlots;
    assign entry = BW'(32'(slot) - OwnSlots);
    logic [MW-1:0] data;
    logic          err;
    always_comb begin
      data = '0;
      err  = 1'b0;
      if (lane_valid_i[l]) begin
        if (own) begin
          // The destination is the slot's low IW bits (the flit its high bits).
          data = {node_id_i, IW'(slot), payload_mem[OSW'(slot)]};
          err  = IW'(slot) == node_id_i || 32'(IW'(slot)) >= N || sent_q[OSW'(slot)];
        end else if (BufSlots > 32'd0 && 32'(slot) - OwnSlots < BufSlots) begin
          data = buf_mem[entry];
          err  = !full_q[entry];
        end else begin
          err = 1'b1;
        end
      end
    end
    assign lane_data_o[l*MW +: MW] = data;
    assign lane_err[l]             = err;
  end

  // Flags: own messages sent once; buffer entries full from store to read.
  always_comb begin
    read_mask = '0;
    sent_mask = '0;
    twice_err = '0;
    for (int unsigned l = 0; l < NumLanes; l++) begin
      if (lane_valid_i[l]) begin
        if (32'(lane_slot_i[l*SlotW +: SlotW]) < OwnSlots) begin
          if (sent_mask[OSW'(lane_slot_i[l*SlotW +: SlotW])]) twice_err[l] = 1'b1;
          sent_mask[OSW'(lane_slot_i[l*SlotW +: SlotW])] = 1'b1;
        end else if (32'(lane_slot_i[l*SlotW +: SlotW]) - OwnSlots < NumBuf) begin
          read_mask[BW'(32'(lane_slot_i[l*SlotW +: SlotW]) - OwnSlots)] = 1'b1;
        end
      end
    end
  end

  logic store_err;
  always_comb begin
    full_d    = full_q & ~read_mask;
    store_err = 1'b0;
    if (store_valid_i) begin
      if (BufSlots == 32'd0 || 32'(store_entry_i) >= BufSlots) store_err = 1'b1;
      else begin
        store_err                = full_d[store_entry_i];
        full_d[store_entry_i]    = 1'b1;
      end
    end
    if (clear_i) full_d = '0;  // after the store check: a store in the clearing cycle is still checked
  end
  assign sent_d = clear_i ? '0 : sent_q | sent_mask;

  if (BufSlots > 32'd0) begin : gen_buf
    always_ff @(posedge clk_i) begin
      if (store_valid_i && 32'(store_entry_i) < BufSlots) buf_mem[store_entry_i] <= store_data_i;
    end
  end else begin : gen_no_buf
    assign buf_mem[0] = '0;
    logic unused_store;
    assign unused_store = ^store_data_i;
  end

  // Receive checks.
  logic [NumPorts-1:0] wrong_dst;
  logic [CW-1:0]       recv_inc;
  always_comb begin
    recv_inc  = '0;
    wrong_dst = '0;
    for (int unsigned i = 0; i < NumPorts; i++) begin
      if (eject_valid_i[i]) begin
        recv_inc     = recv_inc + CW'(1);
        wrong_dst[i] = eject_data_i[i*MW + PW +: IW] != node_id_i;
      end
    end
  end

  logic          error_d, error_q;
  logic [CW-1:0] recv_d, recv_q;
  logic          any_err;
  assign any_err = |lane_err || |twice_err || store_err || |wrong_dst;
  assign error_d = clear_i ? 1'b0 : error_q | any_err;
  assign recv_d  = clear_i ? '0 : recv_q + recv_inc;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      full_q  <= '0;
      sent_q  <= '0;
      recv_q  <= '0;
      error_q <= 1'b0;
    end else begin
      full_q  <= full_d;
      sent_q  <= sent_d;
      recv_q  <= recv_d;
      error_q <= error_d;
    end
  end

  assign recv_count_o = recv_q;
  assign error_o      = error_q;

`ifndef SYNTHESIS
`ifndef TOTEX_NO_ASSERTIONS
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert
    if (rst_ni && !clear_i) begin
      assert (!(|lane_err || |twice_err))
      // One string literal: Verilator prints a concatenated format string as a number.
      else $error("totex_direct_nic: node %0d: illegal lane read (own flit to itself, to no node or sent twice, empty or missing buffer entry), lanes %b",
                  node_id_i, lane_err | twice_err);
      assert (!store_err)
      else $error("totex_direct_nic: node %0d: store into a full or missing buffer entry %0d",
                  node_id_i, store_entry_i);
      assert (!(|wrong_dst))
      else $error("totex_direct_nic: node %0d: ejected a message for another node (inputs %b)",
                  node_id_i, wrong_dst);
    end
  end
`endif
`endif

endmodule
