// SPDX-License-Identifier: Apache-2.0
/// Exposes rtl/totex_direct_pkg.sv to tests/rtl/test_direct_pkg.cpp: every constant on an output, and
/// every width function evaluated at run time on the parameters driven on the inputs, so that one
/// Verilated model checks the C++ layout (totex::DirectLayout) for any number of parameter sets.
`default_nettype none

module tb_direct_pkg_wrap (
  input  logic [31:0] nodes_i,
  input  logic [31:0] ports_i,
  input  logic [31:0] model_i,
  input  logic [31:0] buf_slots_i,
  input  logic [31:0] flits_i,
  input  logic [31:0] depth_i,
  input  logic [31:0] payload_w_i,
  input  logic        dynamic_i,
  // Constants.
  output logic [31:0] region_w_o,
  output logic [31:0] load_data_w_o,
  output logic [31:0] region_table_o,
  output logic [31:0] region_messages_o,
  output logic [31:0] region_control_o,
  output logic [31:0] control_last_o,
  output logic [31:0] control_send_count_o,
  output logic [31:0] control_recv_count_o,
  output logic [31:0] act_none_o,
  output logic [31:0] act_eject_o,
  output logic [31:0] act_store_o,
  output logic [31:0] act_forward_o,
  output logic [31:0] route_idle_o,
  output logic [31:0] route_port0_o,
  output logic [31:0] topo_link_w_o,
  output logic [31:0] topo_port_w_o,
  output logic [31:0] model_single_port_o,
  output logic [31:0] model_all_port_o,
  output logic [31:0] model_nic_o,
  // Widths for the parameters on the inputs.
  output logic [31:0] node_w_o,
  output logic [31:0] msg_w_o,
  output logic [31:0] lanes_o,
  output logic [31:0] act_w_o,
  output logic [31:0] route_w_o,
  output logic [31:0] own_slots_o,
  output logic [31:0] slot_w_o,
  output logic [31:0] buffer_w_o,
  output logic [31:0] entry_w_o,
  output logic [31:0] entry_words_o,
  output logic [31:0] word_w_o,
  output logic [31:0] step_w_o,
  output logic [31:0] index_w_o,
  output logic [31:0] addr_w_o
);
  assign region_w_o           = totex_direct_pkg::REGION_W;
  assign load_data_w_o        = totex_direct_pkg::LOAD_DATA_W;
  assign region_table_o       = totex_direct_pkg::REGION_TABLE;
  assign region_messages_o    = totex_direct_pkg::REGION_MESSAGES;
  assign region_control_o     = totex_direct_pkg::REGION_CONTROL;
  assign control_last_o       = totex_direct_pkg::CONTROL_LAST;
  assign control_send_count_o = totex_direct_pkg::CONTROL_SEND_COUNT;
  assign control_recv_count_o = totex_direct_pkg::CONTROL_RECV_COUNT;
  assign act_none_o           = totex_direct_pkg::ACT_NONE;
  assign act_eject_o          = totex_direct_pkg::ACT_EJECT;
  assign act_store_o          = totex_direct_pkg::ACT_STORE;
  assign act_forward_o        = totex_direct_pkg::ACT_FORWARD;
  assign route_idle_o         = totex_direct_pkg::ROUTE_IDLE;
  assign route_port0_o        = totex_direct_pkg::ROUTE_PORT0;
  assign topo_link_w_o        = totex_direct_pkg::TOPO_LINK_W;
  assign topo_port_w_o        = totex_direct_pkg::TOPO_PORT_W;
  assign model_single_port_o  = totex_direct_pkg::MODEL_SINGLE_PORT;
  assign model_all_port_o     = totex_direct_pkg::MODEL_ALL_PORT;
  assign model_nic_o          = totex_direct_pkg::MODEL_NIC;

  // Dynamic mode has no inject lanes in its (unused) entries: the layout counts one.
  logic [31:0] entry_model;
  assign entry_model    = dynamic_i ? totex_direct_pkg::MODEL_NIC : model_i;
  assign node_w_o       = totex_direct_pkg::node_width(nodes_i);
  assign msg_w_o        = totex_direct_pkg::msg_width(nodes_i, payload_w_i);
  assign lanes_o        = totex_direct_pkg::num_lanes(entry_model, ports_i);
  assign act_w_o        = totex_direct_pkg::act_width(ports_i);
  assign route_w_o      = totex_direct_pkg::route_width(ports_i);
  assign own_slots_o    = totex_direct_pkg::own_slots(nodes_i, flits_i);
  assign slot_w_o       = totex_direct_pkg::slot_width(nodes_i, buf_slots_i, flits_i);
  assign buffer_w_o     = totex_direct_pkg::buffer_width(buf_slots_i);
  assign entry_w_o      = totex_direct_pkg::entry_width(nodes_i, ports_i, entry_model, buf_slots_i, flits_i);
  assign entry_words_o  = totex_direct_pkg::entry_words(entry_w_o);
  assign word_w_o       = totex_direct_pkg::word_width(entry_w_o);
  assign step_w_o       = totex_direct_pkg::step_width(depth_i);
  assign index_w_o      = totex_direct_pkg::index_width(nodes_i, ports_i, model_i, buf_slots_i, flits_i, depth_i,
                                                        dynamic_i);
  assign addr_w_o       = totex_direct_pkg::addr_width(nodes_i, index_w_o);
endmodule
