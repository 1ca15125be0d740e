// SPDX-License-Identifier: Apache-2.0
/// One node of the dynamic (baseline) direct network: a dimension-order or minimal adaptive router
/// with input FIFOs (totex_router_dyn) and a NIC that injects its send queue as fast as the router
/// accepts.
///
/// Load port (shared by all nodes; address map and codes of rtl/totex_direct_pkg.sv):
///   REGION_MESSAGES (send queue): index = slot, data[IW+PW-1:0] = {dst, payload};
///   REGION_CONTROL: index CONTROL_SEND_COUNT = number of messages to send, CONTROL_RECV_COUNT =
///   number to receive.
`default_nettype none

module totex_direct_dyn_node #(
  /// Number of nodes N.
  parameter int unsigned N = 32'd8,
  /// Number of neighbour ports P.
  parameter int unsigned NumPorts = 32'd2,
  /// Payload width.
  parameter int unsigned PW = 32'd16,
  /// Virtual channels per input: escape (2: dateline) + adaptive.
  parameter int unsigned NumVcs = 32'd2,
  /// Adaptive VCs among them (0: dimension-order routing).
  parameter int unsigned AdaptiveVcs = 32'd0,
  /// FIFO entries per input VC.
  parameter int unsigned Depth = 32'd4,
  /// Width of the load-port index field.
  parameter int unsigned XW = 32'd8,
  /// The most flits one pair sends (1: one message per pair, the total exchange). The send queue
  /// holds (N - 1) * Flits entries: no row of a traffic whose heaviest pair has Flits flits is longer.
  parameter int unsigned Flits = 32'd1,
  /// Width of a node id; do not overwrite.
  localparam int unsigned IW = totex_direct_pkg::node_width(N),
  /// Message width; do not overwrite.
  localparam int unsigned MW = totex_direct_pkg::msg_width(N, PW),
  /// Route-table entry width; do not overwrite.
  localparam int unsigned RW = totex_pkg::idx_width(NumPorts + 32'd1),
  /// VC index width; do not overwrite.
  localparam int unsigned VW = totex_pkg::idx_width(NumVcs),
  /// Load-port address width; do not overwrite.
  localparam int unsigned AW = totex_direct_pkg::addr_width(N, XW),
  /// Ports that may have a link (ANDed with connected_i).
  parameter logic [NumPorts-1:0] ConnectedMask = {NumPorts{1'b1}}
) (
  /// Clock, rising edge.
  input  logic                       clk_i,
  /// Asynchronous active-low reset.
  input  logic                       rst_ni,
  /// This node's number (a constant of the instance).
  input  logic [IW-1:0]              node_id_i,
  /// Ports that have a link (a constant of the instance).
  input  logic [NumPorts-1:0]        connected_i,
  /// Dimension-order output per destination, P = eject (a constant of the instance; see
  /// totex_router_dyn).
  input  logic [N*RW-1:0]            route_table_i,
  /// Shortest-path outputs per destination (a constant of the instance; see totex_router_dyn).
  input  logic [N*NumPorts-1:0]      minimal_i,
  /// Dimension of each port, totex_direct_pkg::TOPO_PORT_W bits per port (a constant of the instance).
  input  logic [NumPorts*totex_direct_pkg::TOPO_PORT_W-1:0] port_dim_i,
  /// Outputs that cross a dateline (a constant of the instance).
  input  logic [NumPorts-1:0]        dateline_i,
  /// Load port: write enable (the top only passes it while idle).
  input  logic                       cfg_we_i,
  /// Load port: address {region, node, index}.
  input  logic [AW-1:0]              cfg_addr_i,
  /// Load port: data.
  input  logic [totex_direct_pkg::LOAD_DATA_W-1:0] cfg_data_i,
  /// Start of a run.
  input  logic                       clear_i,
  /// The run is busy.
  input  logic                       active_i,
  /// Input links: valid, VC, data.
  input  logic [NumPorts-1:0]        in_valid_i,
  /// Input link VC.
  input  logic [NumPorts*VW-1:0]     in_vc_i,
  /// Input link data.
  input  logic [NumPorts*MW-1:0]     in_data_i,
  /// Credits returned to the upstream routers.
  output logic [NumPorts*NumVcs-1:0] in_credit_o,
  /// Output links: valid, VC, data.
  output logic [NumPorts-1:0]        out_valid_o,
  /// Output link VC.
  output logic [NumPorts*VW-1:0]     out_vc_o,
  /// Output link data.
  output logic [NumPorts*MW-1:0]     out_data_o,
  /// Credits from the downstream routers.
  input  logic [NumPorts*NumVcs-1:0] out_credit_i,
  /// A message is delivered to this node this cycle.
  output logic                       eject_valid_o,
  /// The message delivered.
  output logic [MW-1:0]              eject_data_o,
  /// This NIC has sent and received everything.
  output logic                       done_o,
  /// Sticky error of router or NIC.
  output logic                       error_o,
  /// No flit in the router (a function of state only; see totex_direct_tile's quiet_o).
  output logic                       idle_o
);

  // One hierarchical block (totex builds the network with verilator --hierarchical): all N
  // instances share its parameters (the node id and tables are ports), so the node is
  // Verilated and compiled once per parameter set, not once per instance (issue 16).
  /*verilator hier_block*/
  /*verilator no_inline_module*/
  localparam int unsigned QDepth = ((N > 32'd1) ? N - 32'd1 : 32'd1) * Flits;
  localparam int unsigned QW     = totex_pkg::idx_width(QDepth + 32'd1);
  localparam int unsigned RegionW = totex_direct_pkg::REGION_W;

  if (QW > XW || IW + PW > totex_direct_pkg::LOAD_DATA_W) begin : gen_width_err
    $error("totex_direct_dyn_node: load-port fields too narrow");
  end

  // The instance constants: node id and tables. In a hierarchical Verilator build (totex defines
  // TOTEX_HIER_SIM) the node is a protect-lib block that re-runs all logic fed by its inputs on
  // every call; a copy in flip-flops makes the routing logic depend on state only (torus:8x8:
  // 993 against 715 cycles/s, same trace). The inputs never change, so the copy equals them from
  // the first clock edge on, and reset holds several edges. Lint and synthesis see plain wires.
  logic [IW-1:0]                  node_id;
  logic [N*RW-1:0]                route_table;
  logic [N*NumPorts-1:0]          minimal;
  logic [NumPorts*totex_direct_pkg::TOPO_PORT_W-1:0] port_dim;
  logic [NumPorts-1:0]            dateline;
  logic [NumPorts-1:0]            connected;
`ifdef TOTEX_HIER_SIM
  always_ff @(posedge clk_i) begin
    node_id     <= node_id_i;
    connected   <= connected_i;
    route_table <= route_table_i;
    minimal     <= minimal_i;
    port_dim    <= port_dim_i;
    dateline    <= dateline_i;
  end
`else
  assign node_id     = node_id_i;
  assign connected   = connected_i;
  assign route_table = route_table_i;
  assign minimal     = minimal_i;
  assign port_dim    = port_dim_i;
  assign dateline    = dateline_i;
`endif

  logic [RegionW-1:0] region;
  logic [IW-1:0] node;
  logic [XW-1:0] index;
  logic          mine;
  assign {region, node, index} = cfg_addr_i;
  assign mine = cfg_we_i && node == node_id;

  logic          inj_valid, inj_ready;
  logic [MW-1:0] inj_data;
  logic          nic_error, router_error;

  totex_direct_nic_dyn #(
    .N       (N),
    .PW      (PW),
    .QDepth  (QDepth)
  ) u_nic (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .node_id_i       (node_id),
    .q_we_i          (mine && region == RegionW'(totex_direct_pkg::REGION_MESSAGES)),
    .q_slot_i        (index[QW-1:0]),
    .q_data_i        (cfg_data_i[IW+PW-1:0]),
    .send_count_we_i (mine && region == RegionW'(totex_direct_pkg::REGION_CONTROL)
                      && index == XW'(totex_direct_pkg::CONTROL_SEND_COUNT)),
    .recv_count_we_i (mine && region == RegionW'(totex_direct_pkg::REGION_CONTROL)
                      && index == XW'(totex_direct_pkg::CONTROL_RECV_COUNT)),
    .count_i         (cfg_data_i[QW-1:0]),
    .clear_i         (clear_i),
    .active_i        (active_i),
    .inj_valid_o     (inj_valid),
    .inj_data_o      (inj_data),
    .inj_ready_i     (inj_ready),
    .ej_valid_i      (eject_valid_o),
    .ej_data_i       (eject_data_o),
    .done_o          (done_o),
    .error_o         (nic_error)
  );

  totex_router_dyn #(
    .NumPorts      (NumPorts),
    .N             (N),
    .PW            (PW),
    .NumVcs        (NumVcs),
    .AdaptiveVcs   (AdaptiveVcs),
    .Depth         (Depth),
    .ConnectedMask (ConnectedMask)
  ) u_router (
    .clk_i        (clk_i),
    .rst_ni        (rst_ni),
    .node_id_i     (node_id),
    .connected_i   (connected),
    .route_table_i (route_table),
    .minimal_i     (minimal),
    .port_dim_i    (port_dim),
    .dateline_i    (dateline),
    .clear_i      (clear_i),
    .in_valid_i   (in_valid_i),
    .in_vc_i      (in_vc_i),
    .in_data_i    (in_data_i),
    .in_credit_o  (in_credit_o),
    .out_valid_o  (out_valid_o),
    .out_vc_o     (out_vc_o),
    .out_data_o   (out_data_o),
    .out_credit_i (out_credit_i),
    .inj_valid_i  (inj_valid),
    .inj_data_i   (inj_data),
    .inj_ready_o  (inj_ready),
    .ej_valid_o   (eject_valid_o),
    .ej_data_o    (eject_data_o),
    .error_o      (router_error),
    .empty_o      (idle_o)
  );

  assign error_o = nic_error | router_error;

  logic unused_cfg;
  assign unused_cfg = ^{index, cfg_data_i};

endmodule
