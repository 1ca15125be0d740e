// SPDX-License-Identifier: Apache-2.0
/// A direct network (ring, torus, hypercube, GHC, metacube, placed torus): N tiles of P ports each
/// (totex_direct_tile: a node with its own copy of the run controller, the same unit the wired
/// build instantiates N times in C++), wired by flat topology tables, one broadcast load port.
/// Scheduled mode: the tile's node is a totex_direct_node (schedule table, NIC, totex_router);
/// dynamic mode: a totex_direct_dyn_node (send queue, totex_router_dyn with route tables).
///
/// The topology and every parameter come from `totex_direct_params.svh` (found on the include
/// path), which `totex` writes per topology and parameter set (sw/hw/src/direct_controller.cpp,
/// direct_params_svh()): only numbers and tables, no logic. Its parameters:
///   N, NumPorts (P, the maximum degree), NumLinks, Dynamic (0/1), Model (totex_direct_pkg::MODEL_*),
///   PW (payload bits), Depth (schedule entries), BufSlots (relay buffer entries), Flits (own
///   flits per pair, multi-flit traffic), FifoDepth,
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
  localparam int unsigned XW = totex_direct_pkg::index_width(N, NumPorts, Model, BufSlots, Flits, Depth,
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
  localparam int unsigned RouteW = totex_pkg::idx_width(NumPorts + 32'd1);  // totex_direct_tile's RouteW

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
  logic [N-1:0] tile_busy, tile_done;
  logic [N*StepW-1:0] tile_step;

  // ---------------------------------------------------------------------------------------------
  // Tiles: a node with its own copy of the run controller (totex_direct_tile, the unit the wired
  // build instantiates N times in C++). Every copy sees the same broadcast inputs (load port,
  // start_i, the AND of the nodes' done), so all hold the same state in every cycle: tile 0's
  // busy/done/step are the network's. No step index fans out from one controller to every node.
  // ---------------------------------------------------------------------------------------------
  for (genvar v = 0; v < N; v++) begin : gen_node
    // Per port: the links at its input and output, gathered into the tile's buses.
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

    // Dynamic: this node's route tables (the route table at the router's entry width). Scheduled:
    // the parameters hold one zero field each, and the tile ignores these inputs.
    logic [N*RouteW-1:0]  route_table;
    logic [N*P-1:0]       minimal;
    logic [P*PortW-1:0]   port_dim;
    logic [P-1:0]         dateline;
    if (Dynamic != 32'd0) begin : gen_tables
      for (genvar d = 0; d < N; d++) begin : gen_route
        assign route_table[d*RouteW +: RouteW] = RouteW'(RouteTable[(v*N + d)*PortW +: PortW]);
      end
      assign minimal  = Minimal[v*N*P +: N*P];
      assign port_dim = PortDim[v*P*PortW +: P*PortW];
      assign dateline = Dateline[v*P +: P];
    end else begin : gen_no_tables
      assign route_table = '0;
      assign minimal     = '0;
      assign port_dim    = '0;
      assign dateline    = '0;
    end
    // The top clocks every tile on every edge (only the wired build skips quiet ones), and its
    // own Signature is the network's.
    logic        tile_quiet;
    logic [31:0] tile_signature;
    logic        unused_tile;
    assign unused_tile = ^{tile_quiet, tile_signature};

    totex_direct_tile #(
      .N           (N),
      .NumPorts    (P),
      .Dynamic     (Dynamic),
      .Model       (Model),
      .PW          (PW),
      .Depth       (Depth),
      .BufSlots    (BufSlots),
      .Flits       (Flits),
      .FifoDepth   (FifoDepth),
      .NumVcs      (NumVcs),
      .AdaptiveVcs (AdaptiveVcs)
    ) u_tile (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .node_id_i     (IW'(v)),
      .connected_i   (connected_mask(v)),
      .route_table_i (route_table),
      .minimal_i     (minimal),
      .port_dim_i    (port_dim),
      .dateline_i    (dateline),
      .cfg_we_i      (cfg_we_i),
      .cfg_addr_i    (cfg_addr_i),
      .cfg_data_i    (cfg_data_i),
      .start_i       (start_i),
      .all_done_i    (&node_done),
      .busy_o        (tile_busy[v]),
      .done_o        (tile_done[v]),
      .step_o        (tile_step[v*StepW +: StepW]),
      .in_valid_i    (in_valid),
      .in_data_i     (in_data),
      .in_vc_i       (in_vc),
      .out_credit_i  (out_credit),
      .out_valid_o   (out_valid),
      .out_data_o    (out_data),
      .out_vc_o      (out_vc),
      .in_credit_o   (in_credit),
      .eject_valid_o (eject_valid_o[v*EjectLanes +: EjectLanes]),
      .eject_data_o  (eject_data_o[v*EjectLanes*MW +: EjectLanes*MW]),
      .node_done_o   (node_done[v]),
      .error_o       (node_error[v]),
      .quiet_o       (tile_quiet),
      .signature_o   (tile_signature)
    );
  end

  // Every tile's controller copy is in the same state: tile 0 speaks for the network.
  assign busy_o = tile_busy[0];
  assign done_o = tile_done[0];
  assign step_o = tile_step[StepW-1:0];
  logic unused_copies;
  assign unused_copies = ^{tile_busy, tile_done, tile_step};

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
