// SPDX-License-Identifier: Apache-2.0
/// Verilator test wrapper: the direct family's storage modules side by side in one model, each on
/// its own ports (prefix fifo_, table_, nic_): totex_direct_fifo (3 entries: the pointers wrap at a
/// non-power of two), totex_direct_table (72-bit entries: three load words, the last one partial)
/// and totex_direct_nic (4 nodes, 2 ports, 2 lanes, a 2-entry relay buffer), and a second NIC
/// (prefix nicf_) for multi-flit traffic: 3 nodes (slots {flit, dst} leave a gap at d = 3), Flits 2,
/// one port, one lane, a 1-entry relay buffer (at slot own_slots(3, 2) = 7).
`default_nettype none

module tb_direct_units_wrap #(
  /// FIFO entries.
  parameter int unsigned FifoDepth = 32'd3,
  /// FIFO entry width.
  parameter int unsigned FifoW = 32'd8,
  /// Table entries.
  parameter int unsigned TableDepth = 32'd8,
  /// Table entry width.
  parameter int unsigned TableEW = 32'd72,
  /// NIC: nodes.
  parameter int unsigned N = 32'd4,
  /// NIC: payload width.
  parameter int unsigned PW = 32'd8,
  /// NIC: neighbour ports.
  parameter int unsigned NumPorts = 32'd2,
  /// NIC: inject lanes.
  parameter int unsigned NumLanes = 32'd2,
  /// NIC: relay buffer entries.
  parameter int unsigned BufSlots = 32'd2,
  /// Derived widths; do not overwrite.
  localparam int unsigned FifoCW = totex_pkg::idx_width(FifoDepth + 32'd1),
  localparam int unsigned StepW = totex_direct_pkg::step_width(TableDepth),
  localparam int unsigned WordW = totex_direct_pkg::word_width(TableEW),
  localparam int unsigned DW = totex_direct_pkg::LOAD_DATA_W,
  localparam int unsigned IW = totex_direct_pkg::node_width(N),
  localparam int unsigned MW = totex_direct_pkg::msg_width(N, PW),
  localparam int unsigned SlotW = totex_direct_pkg::slot_width(N, BufSlots, 32'd1),
  localparam int unsigned BW = totex_direct_pkg::buffer_width(BufSlots),
  localparam int unsigned NicCW = totex_pkg::idx_width(N + 32'd1),
  /// The multi-flit NIC's parameters and widths; do not overwrite.
  localparam int unsigned FN = 32'd3,
  localparam int unsigned FFlits = 32'd2,
  localparam int unsigned FIW = totex_direct_pkg::node_width(FN),
  localparam int unsigned FMW = totex_direct_pkg::msg_width(FN, PW),
  localparam int unsigned FOSW = totex_pkg::idx_width(totex_direct_pkg::own_slots(FN, FFlits)),
  localparam int unsigned FSlotW = totex_direct_pkg::slot_width(FN, 32'd1, FFlits),
  localparam int unsigned FCW = totex_pkg::idx_width(FN + 32'd1)
) (
  /// Clock.
  input  logic                      clk_i,
  /// Asynchronous active-low reset.
  input  logic                      rst_ni,
  /// FIFO ports (see totex_direct_fifo).
  input  logic                      fifo_clear_i,
  input  logic                      fifo_push_i,
  input  logic [FifoW-1:0]          fifo_data_i,
  input  logic                      fifo_pop_i,
  output logic                      fifo_valid_o,
  output logic [FifoW-1:0]          fifo_head_o,
  output logic [FifoCW-1:0]         fifo_count_o,
  output logic                      fifo_overflow_o,
  /// Table ports (see totex_direct_table).
  input  logic                      table_we_i,
  input  logic [StepW-1:0]          table_wr_step_i,
  input  logic [WordW-1:0]          table_wr_word_i,
  input  logic [DW-1:0]             table_wr_data_i,
  input  logic [StepW-1:0]          table_rd_step_i,
  output logic [TableEW-1:0]        table_entry_o,
  /// NIC ports (see totex_direct_nic).
  input  logic [IW-1:0]             nic_node_id_i,
  input  logic                      nic_msg_we_i,
  input  logic [IW-1:0]             nic_msg_slot_i,
  input  logic [PW-1:0]             nic_msg_payload_i,
  input  logic                      nic_clear_i,
  input  logic [NumLanes-1:0]       nic_lane_valid_i,
  input  logic [NumLanes*SlotW-1:0] nic_lane_slot_i,
  output logic [NumLanes*MW-1:0]    nic_lane_data_o,
  input  logic                      nic_store_valid_i,
  input  logic [BW-1:0]             nic_store_entry_i,
  input  logic [MW-1:0]             nic_store_data_i,
  input  logic [NumPorts-1:0]       nic_eject_valid_i,
  input  logic [NumPorts*MW-1:0]    nic_eject_data_i,
  output logic [NicCW-1:0]          nic_recv_count_o,
  output logic                      nic_error_o,
  /// Multi-flit NIC ports (see totex_direct_nic).
  input  logic [FIW-1:0]            nicf_node_id_i,
  input  logic                      nicf_msg_we_i,
  input  logic [FOSW-1:0]           nicf_msg_slot_i,
  input  logic [PW-1:0]             nicf_msg_payload_i,
  input  logic                      nicf_clear_i,
  input  logic                      nicf_lane_valid_i,
  input  logic [FSlotW-1:0]         nicf_lane_slot_i,
  output logic [FMW-1:0]            nicf_lane_data_o,
  input  logic                      nicf_store_valid_i,
  input  logic [FMW-1:0]            nicf_store_data_i,
  output logic                      nicf_error_o
);

  totex_direct_fifo #(.Depth(FifoDepth), .W(FifoW)) u_fifo (
    .clk_i, .rst_ni,
    .clear_i    (fifo_clear_i),
    .push_i     (fifo_push_i),
    .data_i     (fifo_data_i),
    .pop_i      (fifo_pop_i),
    .valid_o    (fifo_valid_o),
    .head_o     (fifo_head_o),
    .count_o    (fifo_count_o),
    .overflow_o (fifo_overflow_o)
  );

  totex_direct_table #(.Depth(TableDepth), .EW(TableEW)) u_table (
    .clk_i,
    .we_i      (table_we_i),
    .wr_step_i (table_wr_step_i),
    .wr_word_i (table_wr_word_i),
    .wr_data_i (table_wr_data_i),
    .rd_step_i (table_rd_step_i),
    .entry_o   (table_entry_o)
  );

  totex_direct_nic #(.N(N), .PW(PW), .NumPorts(NumPorts), .NumLanes(NumLanes), .BufSlots(BufSlots)) u_nic (
    .clk_i, .rst_ni,
    .node_id_i     (nic_node_id_i),
    .msg_we_i      (nic_msg_we_i),
    .msg_slot_i    (nic_msg_slot_i),
    .msg_payload_i (nic_msg_payload_i),
    .clear_i       (nic_clear_i),
    .lane_valid_i  (nic_lane_valid_i),
    .lane_slot_i   (nic_lane_slot_i),
    .lane_data_o   (nic_lane_data_o),
    .store_valid_i (nic_store_valid_i),
    .store_entry_i (nic_store_entry_i),
    .store_data_i  (nic_store_data_i),
    .eject_valid_i (nic_eject_valid_i),
    .eject_data_i  (nic_eject_data_i),
    .recv_count_o  (nic_recv_count_o),
    .error_o       (nic_error_o)
  );

  logic [FCW-1:0] nicf_recv_count;
  logic           unused_nicf;
  assign unused_nicf = ^nicf_recv_count;
  totex_direct_nic #(.N(FN), .PW(PW), .NumPorts(32'd1), .NumLanes(32'd1), .BufSlots(32'd1), .Flits(FFlits)) u_nicf (
    .clk_i, .rst_ni,
    .node_id_i     (nicf_node_id_i),
    .msg_we_i      (nicf_msg_we_i),
    .msg_slot_i    (nicf_msg_slot_i),
    .msg_payload_i (nicf_msg_payload_i),
    .clear_i       (nicf_clear_i),
    .lane_valid_i  (nicf_lane_valid_i),
    .lane_slot_i   (nicf_lane_slot_i),
    .lane_data_o   (nicf_lane_data_o),
    .store_valid_i (nicf_store_valid_i),
    .store_entry_i (1'b0),
    .store_data_i  (nicf_store_data_i),
    .eject_valid_i (1'b0),
    .eject_data_i  ('0),
    .recv_count_o  (nicf_recv_count),
    .error_o       (nicf_error_o)
  );

endmodule
