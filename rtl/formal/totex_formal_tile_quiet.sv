// SPDX-License-Identifier: Apache-2.0
/// Formal wrapper (tests/formal/run.sh, mode `fixpoint`): one totex_direct_tile and the condition
/// under which the wired harness (sim/direct_wired_main.cpp) skips the tile's clock edge.
///
/// may_skip_o: the tile says it is quiet (quiet_o), start_i is low, no flit arrives, no credit
/// returns, and the load port writes nothing for this tile: no write, or a write whose node field
/// names another node and which is not the broadcast REGION_CONTROL / CONTROL_LAST register.
///
/// The proof (Yosys: every flip-flop and memory word turned into a pair of ports, its current
/// value q and next value d, then `sat -prove`): with rst_ni high and may_skip_o, d == q for every
/// flip-flop of the tile, from ANY state, reachable or not. So skipping such an edge (not
/// evaluating the tile, not handing it the write) leaves it exactly where clocking it would.
/// tests/formal/fixpoint.sh also checks that no output here but may_skip_o depends on cfg_*:
/// a skipped tile's outputs stay right although the load port changed.
/// Run without TOTEX_HIER_SIM: under it the node also copies its constant inputs into flops on
/// each edge, which equal those inputs from the reset edges on (the harness never skips those).
`default_nettype none

module totex_formal_tile_quiet #(
  parameter int unsigned N           = 32'd4,
  parameter int unsigned NumPorts    = 32'd2,
  parameter int unsigned Dynamic     = 32'd1,
  parameter int unsigned Model       = 32'd1,
  parameter int unsigned Depth       = 32'd4,
  parameter int unsigned BufSlots    = 32'd0,
  parameter int unsigned FifoDepth   = 32'd2,
  parameter int unsigned NumVcs      = 32'd2,
  parameter int unsigned AdaptiveVcs = 32'd1,
  localparam int unsigned PW      = 32'd2,
  localparam int unsigned IW      = totex_direct_pkg::node_width(N),
  localparam int unsigned MW      = totex_direct_pkg::msg_width(N, PW),
  localparam int unsigned XW      = totex_direct_pkg::index_width(N, NumPorts, Model, BufSlots, 32'd1, Depth,
                                                                   Dynamic != 32'd0),
  localparam int unsigned AW      = totex_direct_pkg::addr_width(N, XW),
  localparam int unsigned StepW   = totex_direct_pkg::step_width(Depth),
  localparam int unsigned Lanes   = (Dynamic != 32'd0) ? 32'd1 : NumPorts,
  localparam int unsigned VW      = totex_pkg::idx_width(NumVcs),
  localparam int unsigned RouteW  = totex_pkg::idx_width(NumPorts + 32'd1),
  localparam int unsigned PortW   = totex_direct_pkg::TOPO_PORT_W,
  localparam int unsigned RegionW = totex_direct_pkg::REGION_W
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic [IW-1:0]              node_id_i,
  input  logic [NumPorts-1:0]        connected_i,
  input  logic [N*RouteW-1:0]        route_table_i,
  input  logic [N*NumPorts-1:0]      minimal_i,
  input  logic [NumPorts*PortW-1:0]  port_dim_i,
  input  logic [NumPorts-1:0]        dateline_i,
  input  logic                       cfg_we_i,
  input  logic [AW-1:0]              cfg_addr_i,
  input  logic [totex_direct_pkg::LOAD_DATA_W-1:0] cfg_data_i,
  input  logic                       start_i,
  input  logic                       all_done_i,
  input  logic [NumPorts-1:0]        in_valid_i,
  input  logic [NumPorts*MW-1:0]     in_data_i,
  input  logic [NumPorts*VW-1:0]     in_vc_i,
  input  logic [NumPorts*NumVcs-1:0] out_credit_i,
  output logic                       busy_o,
  output logic                       done_o,
  output logic [StepW-1:0]           step_o,
  output logic [NumPorts-1:0]        out_valid_o,
  output logic [NumPorts*MW-1:0]     out_data_o,
  output logic [NumPorts*VW-1:0]     out_vc_o,
  output logic [NumPorts*NumVcs-1:0] in_credit_o,
  output logic [Lanes-1:0]           eject_valid_o,
  output logic [Lanes*MW-1:0]        eject_data_o,
  output logic                       node_done_o,
  output logic                       error_o,
  output logic                       may_skip_o
);

  logic        quiet;
  logic [31:0] signature;

  totex_direct_tile #(
    .N (N), .NumPorts (NumPorts), .Dynamic (Dynamic), .Model (Model), .PW (PW), .Depth (Depth),
    .BufSlots (BufSlots), .FifoDepth (FifoDepth), .NumVcs (NumVcs), .AdaptiveVcs (AdaptiveVcs)
  ) u_tile (
    .clk_i, .rst_ni, .node_id_i, .connected_i, .route_table_i, .minimal_i, .port_dim_i, .dateline_i,
    .cfg_we_i, .cfg_addr_i, .cfg_data_i, .start_i, .all_done_i, .busy_o, .done_o, .step_o,
    .in_valid_i, .in_data_i, .in_vc_i, .out_credit_i, .out_valid_o, .out_data_o, .out_vc_o,
    .in_credit_o, .eject_valid_o, .eject_data_o, .node_done_o, .error_o,
    .quiet_o     (quiet),
    .signature_o (signature)
  );

  // The load-port address map of rtl/totex_direct_pkg.sv, as the harness decodes it.
  logic [RegionW-1:0] region;
  logic [IW-1:0]      node;
  logic [XW-1:0]      index;
  logic               for_this_tile;
  assign {region, node, index} = cfg_addr_i;
  assign for_this_tile = node == node_id_i || (region == RegionW'(totex_direct_pkg::REGION_CONTROL)
                                               && index == XW'(totex_direct_pkg::CONTROL_LAST));
  assign may_skip_o = quiet && !start_i && in_valid_i == '0 && out_credit_i == '0
                      && !(cfg_we_i && for_this_tile);

  logic unused_signature;
  assign unused_signature = ^signature;

endmodule
