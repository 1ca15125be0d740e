// SPDX-License-Identifier: Apache-2.0
/// A direct network (ring, torus, hypercube, GHC, metacube, placed torus): N nodes of P ports each,
/// wired by flat topology tables, a controller and one load port. Scheduled mode: a
/// totex_direct_node (schedule table, NIC, totex_router) per node; dynamic mode: a
/// totex_direct_dyn_node (send queue, totex_router_dyn with route tables) per node.
///
/// The topology and every parameter come from `totex_direct_params.svh` (found on the include
/// path), which `totex` writes per topology and parameter set (sw/hw/src/direct_controller.cpp,
/// direct_params_svh()): only numbers and tables, no logic. Its parameters:
///   N, NumPorts (P, the maximum degree), NumLinks, Dynamic (0/1), Model (totex_direct_pkg::MODEL_*),
///   PW (payload bits), Depth (schedule entries), BufSlots (relay buffer entries), FifoDepth,
///   NumVcs, AdaptiveVcs (dynamic router), Signature (DirectLayout::signature());
///   InLink[(v*P + i)*LinkW +: LinkW]   the directed link that ends at input port i of node v
///                                      (the link from neighbor(v, i) back to v), NumLinks if
///                                      node v has no port i;
///   OutLink[(v*P + i)*LinkW +: LinkW]  the directed link that leaves port i of node v
///                                      (Topology::link_id(v, i)), NumLinks if none;
///   dynamic mode only (scheduled: one zero field each):
///   RouteTable[(v*N + d)*PortW +: PortW]  the dimension-order output of v towards d (P = eject);
///   Minimal[(v*N + d)*P + p]              port p of v is on a shortest path to d (adaptive);
///   PortDim[(v*P + p)*PortW +: PortW]     the dimension port p of v moves in;
///   Dateline[v*P + p]                     output p of v is a ring's wrap-around link.
/// LinkW and PortW are totex_direct_pkg::TOPO_LINK_W and TOPO_PORT_W.
///
/// Ports: the load port cfg_* (address map of rtl/totex_direct_pkg.sv, docs/load-port.md);
/// start_i/busy_o/done_o/step_o (totex_direct_ctrl); eject_valid_o[v*EjectLanes + i] and
/// eject_data_o[(v*EjectLanes + i)*MW +: MW]: scheduled, input i of node v is delivered (its
/// data is the input link's); dynamic, the message node v ejects; link_valid_o[l]: link l
/// carries a message this cycle; error_o: sticky, any node; signature_o: Signature.
`default_nettype none

module totex_direct_top #(
`include "totex_direct_params.svh"
  /// Width of a node id; do not overwrite.
  localparam int unsigned IW = totex_direct_pkg::node_width(N),
  /// Message width {src, dst, payload}; do not overwrite.
  localparam int unsigned MW = totex_direct_pkg::msg_width(N, PW),
  /// Width of the load-port index; do not overwrite.
  localparam int unsigned XW = totex_direct_pkg::index_width(N, NumPorts, Model, BufSlots, Depth,
                                                             Dynamic != 32'd0),
  /// Load-port address width; do not overwrite.
  localparam int unsigned AW = totex_direct_pkg::addr_width(N, XW),
  /// Width of the step counter; do not overwrite.
  localparam int unsigned StepW = totex_direct_pkg::step_width(Depth),
  /// Ejections per node on the eject bus; do not overwrite.
  localparam int unsigned EjectLanes = (Dynamic != 32'd0) ? 32'd1 : NumPorts
) (
  /// Clock, rising edge.
  input  logic                           clk_i,
  /// Asynchronous active-low reset.
  input  logic                           rst_ni,
  /// Load port: write enable (ignored while a run is busy).
  input  logic                           cfg_we_i,
  /// Load port: address {region, node, index}.
  input  logic [AW-1:0]                  cfg_addr_i,
  /// Load port: data.
  input  logic [totex_direct_pkg::LOAD_DATA_W-1:0] cfg_data_i,
  /// Start a run.
  input  logic                           start_i,
  /// A run is in progress.
  output logic                           busy_o,
  /// Last cycle of the run.
  output logic                           done_o,
  /// The step (table entry) executing.
  output logic [StepW-1:0]               step_o,
  /// Ejections (see the header).
  output logic [N*EjectLanes-1:0]        eject_valid_o,
  /// Ejected messages.
  output logic [N*EjectLanes*MW-1:0]     eject_data_o,
  /// Link l carries a message this cycle.
  output logic [NumLinks-1:0]            link_valid_o,
  /// Sticky error of any node since the run started.
  output logic                           error_o,
  /// Signature of the parameter set (the harness refuses a model built for other parameters).
  output logic [31:0]                    signature_o
);

  localparam int unsigned P      = NumPorts;
  localparam int unsigned LinkW  = totex_direct_pkg::TOPO_LINK_W;
  localparam int unsigned PortW  = totex_direct_pkg::TOPO_PORT_W;
  localparam int unsigned VW     = totex_pkg::idx_width(NumVcs);
  localparam int unsigned RouteW = totex_pkg::idx_width(NumPorts + 32'd1);  // totex_direct_dyn_node's RW
  localparam int unsigned RegionW = totex_direct_pkg::REGION_W;

  /// The link at input (Out = 0) or output (Out = 1) port i of node v; NumLinks when absent.
  function automatic int unsigned link_at(input int unsigned v, input int unsigned i, input bit out);
    if (out) link_at = 32'(OutLink[(v*P + i)*LinkW +: LinkW]);
    else     link_at = 32'(InLink[(v*P + i)*LinkW +: LinkW]);
  endfunction

  /// Ports of node v that have a link.
  function automatic logic [P-1:0] connected_mask(input int unsigned v);
    for (int unsigned i = 0; i < P; i++) connected_mask[i] = link_at(v, i, 1'b1) < NumLinks;
  endfunction

  // One spare link (index NumLinks) absorbs the outputs of absent ports and reads as zero.
  logic [NumLinks:0]        link_valid;
  logic [(NumLinks+1)*MW-1:0] link_data;
  logic [(NumLinks+1)*VW-1:0] link_vc;
  logic [(NumLinks+1)*NumVcs-1:0] link_credit;
  logic [N-1:0] node_error;
  logic [N-1:0] node_done;
  logic         clear, busy, cfg_we;
  assign cfg_we = cfg_we_i && !busy;

  // ---------------------------------------------------------------------------------------------
  // Controller: REGION_CONTROL / CONTROL_LAST of any node field sets the last entry of a run.
  // ---------------------------------------------------------------------------------------------
  logic [RegionW-1:0] cfg_region;
  logic [XW-1:0]      cfg_index;
  assign cfg_region = cfg_addr_i[AW-1 -: RegionW];
  assign cfg_index  = cfg_addr_i[XW-1:0];

  totex_direct_ctrl #(
    .StepW   (StepW),
    .Dynamic (Dynamic)
  ) u_ctrl (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .last_we_i  (cfg_we && cfg_region == RegionW'(totex_direct_pkg::REGION_CONTROL)
                 && cfg_index == XW'(totex_direct_pkg::CONTROL_LAST)),
    .last_i     (cfg_data_i[StepW-1:0]),
    .start_i    (start_i),
    .all_done_i ((Dynamic != 32'd0) ? &node_done : 1'b1),
    .clear_o    (clear),
    .busy_o     (busy),
    .done_o     (done_o),
    .step_o     (step_o)
  );
  assign busy_o = busy;

  // ---------------------------------------------------------------------------------------------
  // Nodes
  // ---------------------------------------------------------------------------------------------
  for (genvar v = 0; v < N; v++) begin : gen_node
    // Per port: the links at its input and output, gathered into the node's buses.
    logic [P-1:0]        in_valid;
    logic [P*MW-1:0]     in_data;
    logic [P*VW-1:0]     in_vc;
    logic [P*NumVcs-1:0] out_credit;
    logic [P-1:0]        out_valid;
    logic [P*MW-1:0]     out_data;
    logic [P*VW-1:0]     out_vc;
    logic [P*NumVcs-1:0] in_credit;
    for (genvar i = 0; i < P; i++) begin : gen_port
      localparam int unsigned In  = link_at(v, i, 1'b0);
      localparam int unsigned Out = link_at(v, i, 1'b1);
      assign in_valid[i]                    = link_valid[In];
      assign in_data[i*MW +: MW]            = link_data[In*MW +: MW];
      assign in_vc[i*VW +: VW]              = link_vc[In*VW +: VW];
      assign out_credit[i*NumVcs +: NumVcs] = link_credit[Out*NumVcs +: NumVcs];
      if (Out < NumLinks) begin : gen_link
        assign link_valid[Out]                    = out_valid[i];
        assign link_data[Out*MW +: MW]            = out_data[i*MW +: MW];
        assign link_vc[Out*VW +: VW]              = out_vc[i*VW +: VW];
        assign link_credit[In*NumVcs +: NumVcs]   = in_credit[i*NumVcs +: NumVcs];
      end else begin : gen_absent
        // An absent port: its outputs stay open (the router leaves them idle).
        logic unused_port;
        assign unused_port = ^{out_valid[i], out_data[i*MW +: MW], out_vc[i*VW +: VW],
                               in_credit[i*NumVcs +: NumVcs]};
      end
    end

    if (Dynamic == 32'd0) begin : gen_scheduled
      totex_direct_node #(
        .N             (N),
        .NumPorts      (P),
        .Model         (Model),
        .PW            (PW),
        .Depth         (Depth),
        .BufSlots      (BufSlots),
        .XW            (XW)
      ) u_node (
        .clk_i         (clk_i),
        .rst_ni        (rst_ni),
        .node_id_i     (IW'(v)),
        .connected_i   (connected_mask(v)),
        .cfg_we_i      (cfg_we),
        .cfg_addr_i    (cfg_addr_i),
        .cfg_data_i    (cfg_data_i),
        .clear_i       (clear),
        .active_i      (busy),
        .step_i        (step_o),
        .in_valid_i    (in_valid),
        .in_data_i     (in_data),
        .out_valid_o   (out_valid),
        .out_data_o    (out_data),
        .eject_valid_o (eject_valid_o[v*P +: P]),
        .error_o       (node_error[v])
      );
      assign eject_data_o[v*P*MW +: P*MW] = in_data;
      assign out_vc         = '0;
      assign in_credit      = '0;
      assign node_done[v]   = 1'b1;
      logic unused_dynamic;
      assign unused_dynamic = ^{in_vc, out_credit};
    end else begin : gen_dynamic
      // This node's route table at the router's entry width.
      logic [N*RouteW-1:0] route_table;
      for (genvar d = 0; d < N; d++) begin : gen_route
        assign route_table[d*RouteW +: RouteW] = RouteW'(RouteTable[(v*N + d)*PortW +: PortW]);
      end
      // The top clocks every node on every edge; only the wired build skips quiet tiles.
      logic node_idle, unused_idle;
      assign unused_idle = node_idle;
      totex_direct_dyn_node #(
        .N             (N),
        .NumPorts      (P),
        .PW            (PW),
        .NumVcs        (NumVcs),
        .AdaptiveVcs   (AdaptiveVcs),
        .Depth         (FifoDepth),
        .XW            (XW)
      ) u_node (
        .clk_i         (clk_i),
        .rst_ni        (rst_ni),
        .node_id_i     (IW'(v)),
        .connected_i   (connected_mask(v)),
        .route_table_i (route_table),
        .minimal_i     (Minimal[v*N*P +: N*P]),
        .port_dim_i    (PortDim[v*P*PortW +: P*PortW]),
        .dateline_i    (Dateline[v*P +: P]),
        .cfg_we_i      (cfg_we),
        .cfg_addr_i    (cfg_addr_i),
        .cfg_data_i    (cfg_data_i),
        .clear_i       (clear),
        .active_i      (busy),
        .in_valid_i    (in_valid),
        .in_vc_i       (in_vc),
        .in_data_i     (in_data),
        .in_credit_o   (in_credit),
        .out_valid_o   (out_valid),
        .out_vc_o      (out_vc),
        .out_data_o    (out_data),
        .out_credit_i  (out_credit),
        .eject_valid_o (eject_valid_o[v]),
        .eject_data_o  (eject_data_o[v*MW +: MW]),
        .done_o        (node_done[v]),
        .error_o       (node_error[v]),
        .idle_o        (node_idle)
      );
    end
  end

  // The spare link reads as idle, and returns no credits.
  assign link_valid[NumLinks]                        = 1'b0;
  assign link_data[NumLinks*MW +: MW]                = '0;
  assign link_vc[NumLinks*VW +: VW]                  = '0;
  assign link_credit[NumLinks*NumVcs +: NumVcs]      = '0;
  // Read only at absent ports (none on a network whose nodes all have P ports).
  logic unused_spare;
  assign unused_spare = ^{link_valid[NumLinks], link_data[NumLinks*MW +: MW], link_vc[NumLinks*VW +: VW],
                          link_credit[NumLinks*NumVcs +: NumVcs]};

  assign link_valid_o = link_valid[NumLinks-1:0];
  assign error_o      = |node_error;
  assign signature_o  = Signature;

endmodule
