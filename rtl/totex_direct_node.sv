// SPDX-License-Identifier: Apache-2.0
/// One node of the scheduled direct network: schedule memory, NIC and router.
///
/// The table-entry layout, the load-port address map and every width are those of
/// rtl/totex_direct_pkg.sv (docs/load-port.md). This node decodes two regions (the top decodes
/// REGION_CONTROL itself):
///   REGION_TABLE:    index = {step, word}, word in the low WordW bits: entry word;
///   REGION_MESSAGES: index = {flit f, destination d}: data[PW-1:0] = payload of flit f of
///                    (node_id_i, d) (index = d when Flits = 1).
`default_nettype none

module totex_direct_node #(
  /// Number of nodes N.
  parameter int unsigned N = 32'd8,
  /// Number of neighbour ports P (the network's maximum degree).
  parameter int unsigned NumPorts = 32'd2,
  /// Ports that may have a link (ANDed with connected_i).
  parameter logic [NumPorts-1:0] ConnectedMask = {NumPorts{1'b1}},
  /// Communication model: totex_direct_pkg::MODEL_*.
  parameter int unsigned Model = 32'd1,
  /// Payload width.
  parameter int unsigned PW = 32'd16,
  /// Schedule memory entries (>= steps + 1).
  parameter int unsigned Depth = 32'd16,
  /// Relay buffer entries (single-port; 0 otherwise).
  parameter int unsigned BufSlots = 32'd0,
  /// Own flits per (node, destination) pair the NIC holds (1: one message per pair).
  parameter int unsigned Flits = 32'd1,
  /// Width of the load-port index field (>= every region's index).
  parameter int unsigned XW = 32'd8,
  /// Width of a node id; do not overwrite.
  localparam int unsigned IW = totex_direct_pkg::node_width(N),
  /// Message width; do not overwrite.
  localparam int unsigned MW = totex_direct_pkg::msg_width(N, PW),
  /// Load-port address width; do not overwrite.
  localparam int unsigned AW = totex_direct_pkg::addr_width(N, XW),
  /// Step index width; do not overwrite.
  localparam int unsigned StepW = totex_direct_pkg::step_width(Depth)
) (
  /// Clock, rising edge.
  input  logic                   clk_i,
  /// Asynchronous active-low reset.
  input  logic                   rst_ni,
  /// This node's number (a constant of the instance; a port, not a parameter, so that every
  /// node shares one Verilated module and one synthesized netlist shape).
  input  logic [IW-1:0]          node_id_i,
  /// Ports that have a link (a constant of the instance, a port for the same reason).
  input  logic [NumPorts-1:0]    connected_i,
  /// Load port: write enable (the top only passes it while idle).
  input  logic                   cfg_we_i,
  /// Load port: address {region, node, index}.
  input  logic [AW-1:0]          cfg_addr_i,
  /// Load port: data.
  input  logic [totex_direct_pkg::LOAD_DATA_W-1:0] cfg_data_i,
  /// Start of a run.
  input  logic                   clear_i,
  /// The run is busy: entry step_i executes.
  input  logic                   active_i,
  /// The step (table entry) executing.
  input  logic [StepW-1:0]       step_i,
  /// Input links.
  input  logic [NumPorts-1:0]    in_valid_i,
  /// Input link data, port i at in_data_i[i*MW +: MW].
  input  logic [NumPorts*MW-1:0] in_data_i,
  /// Output links (registered).
  output logic [NumPorts-1:0]    out_valid_o,
  /// Output link data.
  output logic [NumPorts*MW-1:0] out_data_o,
  /// Input i is delivered to this node this cycle (data on in_data_i).
  output logic [NumPorts-1:0]    eject_valid_o,
  /// Sticky error of router or NIC since the run started.
  output logic                   error_o
);

  // One hierarchical block (totex builds the network with verilator --hierarchical): all N
  // instances share its parameters (the node id and tables are ports), so the node is
  // Verilated and compiled once per parameter set, not once per instance (issue 16).
  /*verilator hier_block*/
  /*verilator no_inline_module*/
  localparam int unsigned NumLanes = totex_direct_pkg::num_lanes(Model, NumPorts);
  localparam int unsigned ActW     = totex_direct_pkg::act_width(NumPorts);
  localparam int unsigned RouteW   = totex_direct_pkg::route_width(NumPorts);
  localparam int unsigned PortW    = totex_pkg::idx_width(NumPorts);
  localparam int unsigned SlotW    = totex_direct_pkg::slot_width(N, BufSlots, Flits);
  localparam int unsigned OSW      = totex_pkg::idx_width(totex_direct_pkg::own_slots(N, Flits));
  localparam int unsigned BW       = totex_direct_pkg::buffer_width(BufSlots);
  localparam int unsigned LW       = totex_direct_pkg::lane_width(N, NumPorts, BufSlots, Flits);
  localparam int unsigned EW       = totex_direct_pkg::entry_width(N, NumPorts, Model, BufSlots, Flits);
  localparam int unsigned WordW    = totex_direct_pkg::word_width(EW);
  localparam int unsigned RegionW  = totex_direct_pkg::REGION_W;

  if (StepW + WordW > XW || IW > XW || OSW > XW) begin : gen_xw_err
    $error("totex_direct_node: XW too small for the table or message index");
  end

  // Load-port decode.
  logic [RegionW-1:0] region;
  logic [IW-1:0] node;
  logic [XW-1:0] index;
  logic          mine;
  assign {region, node, index} = cfg_addr_i;
  assign mine = cfg_we_i && node == node_id_i;

  // Schedule memory.
  logic [EW-1:0] entry;
  totex_direct_table #(
    .Depth (Depth),
    .EW    (EW)
  ) u_table (
    .clk_i     (clk_i),
    .we_i      (mine && region == RegionW'(totex_direct_pkg::REGION_TABLE)),
    .wr_step_i (index[WordW +: StepW]),
    .wr_word_i (index[WordW-1:0]),
    .wr_data_i (cfg_data_i),
    .rd_step_i (step_i),
    .entry_o   (entry)
  );

  // Entry fields.
  logic [NumPorts*ActW-1:0]  act;
  logic [NumLanes-1:0]       lane_valid;
  logic [NumLanes*PortW-1:0] lane_port;
  logic [NumLanes*SlotW-1:0] lane_slot;
  logic [BW-1:0]             store_entry;
  assign act         = entry[0 +: NumPorts*ActW];
  assign store_entry = entry[NumPorts*ActW + NumLanes*LW +: BW];
  for (genvar l = 0; l < NumLanes; l++) begin : gen_lane
    logic [RouteW-1:0] route;
    assign route      = entry[NumPorts*ActW + l*LW +: RouteW];
    assign lane_valid[l] = active_i && route != RouteW'(totex_direct_pkg::ROUTE_IDLE);
    assign lane_port[l*PortW +: PortW] = PortW'(route - RouteW'(totex_direct_pkg::ROUTE_PORT0));
    assign lane_slot[l*SlotW +: SlotW] = entry[NumPorts*ActW + l*LW + RouteW +: SlotW];
  end

  // NIC and router.
  logic [NumLanes*MW-1:0] lane_data;
  logic                   store_valid;
  logic [MW-1:0]          store_data;
  logic                   nic_error, router_error;
  logic [totex_pkg::idx_width(N + 32'd1)-1:0] unused_recv;  // informational only

  totex_direct_nic #(
    .N        (N),
    .PW       (PW),
    .NumPorts (NumPorts),
    .NumLanes (NumLanes),
    .BufSlots (BufSlots),
    .Flits    (Flits)
  ) u_nic (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .node_id_i     (node_id_i),
    .msg_we_i      (mine && region == RegionW'(totex_direct_pkg::REGION_MESSAGES)),
    .msg_slot_i    (index[OSW-1:0]),
    .msg_payload_i (cfg_data_i[PW-1:0]),
    .clear_i       (clear_i),
    .lane_valid_i  (lane_valid),
    .lane_slot_i   (lane_slot),
    .lane_data_o   (lane_data),
    .store_valid_i (store_valid),
    .store_entry_i (store_entry),
    .store_data_i  (store_data),
    .eject_valid_i (eject_valid_o),
    .eject_data_i  (in_data_i),
    .recv_count_o  (unused_recv),
    .error_o       (nic_error)
  );

  totex_router #(
    .NumPorts      (NumPorts),
    .NumLanes      (NumLanes),
    .MW            (MW),
    .Model         (Model),
    .ConnectedMask (ConnectedMask),
    .IdW           (IW),
    .StepW         (StepW)
  ) u_router (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .clear_i       (clear_i),
    .active_i      (active_i),
    .node_id_i     (node_id_i),
    .connected_i   (connected_i),
    .step_i        (step_i),
    .in_valid_i    (in_valid_i),
    .in_data_i     (in_data_i),
    .act_i         (act),
    .lane_valid_i  (lane_valid),
    .lane_port_i   (lane_port),
    .lane_data_i   (lane_data),
    .out_valid_o   (out_valid_o),
    .out_data_o    (out_data_o),
    .eject_o       (eject_valid_o),
    .store_valid_o (store_valid),
    .store_data_o  (store_data),
    .error_o       (router_error)
  );

  assign error_o = nic_error | router_error;

  // Index bits above what this node's regions use.
  logic unused_index;
  assign unused_index = ^index;

endmodule
