// SPDX-License-Identifier: Apache-2.0
/// Table-driven direct-network router (scheduled mode): NumPorts neighbour links plus a local port
/// of NumLanes inject lanes from the NIC; one message per directed link per cycle.
///
/// Every cycle of a run executes one schedule-table entry (decoded by totex_direct_node):
///   * act_i[i*ActW +: ActW] says what happens to the message visible on input link i this cycle
///     (it crossed the link in the previous step; codes from rtl/totex_direct_pkg.sv):
///       ACT_NONE  (0)      nothing: the input must be empty (else the message is dropped),
///       ACT_EJECT (1)      deliver it to the NIC (eject_valid_o[i]; the data is in_data_i),
///       ACT_STORE (2)      hand it to the NIC buffer (single-port only; one store per cycle),
///       ACT_FWD + o (3+o)  forward it on output link o;
///   * lane l with lane_valid_i[l] injects lane_data_i on output lane_port_i[l].
/// Output links are registered (out_valid_o/out_data_o): a message forwarded or injected in
/// step s is on the link, i.e. visible at the neighbour's input, during cycle s+1. One register
/// per hop: under all-port / nic a relayed message leaves the cycle after it arrives.
///
/// Checks (sticky error_o, plus immediate assertions unless SYNTHESIS / TOTEX_NO_ASSERTIONS):
///   all models   an output link driven by two sources in one cycle ("link driven twice");
///                an illegal entry (action or lane port out of range or to an unconnected port,
///                an action on an empty input, a message left with ACT_NONE, a second store);
///   single-port  a node sends more than one message (forwards + lanes) or receives more than one
///                message (valid inputs) in a step; relaying through the NIC buffer is allowed;
///   all-port,nic ACT_STORE (no intermediate buffering);
///   nic          more than one ejection (and, structurally, one inject lane) per step.
`default_nettype none

module totex_router #(
  /// Number of neighbour ports P (inputs and outputs), >= 1.
  parameter int unsigned NumPorts = 32'd4,
  /// Number of NIC inject lanes L (P for all-port, 1 for single-port and nic), >= 1.
  parameter int unsigned NumLanes = 32'd1,
  /// Message width {src, dst, payload}.
  parameter int unsigned MW = 32'd28,
  /// Communication model checked: totex_direct_pkg::MODEL_*.
  parameter int unsigned Model = 32'd1,
  /// Ports that may have a link (bit p set); ANDed with connected_i.
  parameter logic [NumPorts-1:0] ConnectedMask = {NumPorts{1'b1}},
  /// Width of the node id (assertion messages only).
  parameter int unsigned IdW = 32'd8,
  /// Width of the step index, for assertion messages only.
  parameter int unsigned StepW = 32'd8,
  /// Width of one input action; do not overwrite.
  localparam int unsigned ActW = totex_direct_pkg::act_width(NumPorts),
  /// Width of a port index; do not overwrite.
  localparam int unsigned PortW = totex_pkg::idx_width(NumPorts)
) (
  /// Clock, rising edge.
  input  logic                     clk_i,
  /// Asynchronous active-low reset.
  input  logic                     rst_ni,
  /// Start of a run: clears the link registers and the sticky error.
  input  logic                     clear_i,
  /// A table entry executes this cycle (the run is busy).
  input  logic                     active_i,
  /// This node's id (assertion messages only).
  input  logic [IdW-1:0]           node_id_i,
  /// Ports that have a link (a constant of the instance, like node_id_i, so one compiled router
  /// serves nodes with different ports), ANDed with ConnectedMask; the rest are tied off and must
  /// stay unused.
  input  logic [NumPorts-1:0]      connected_i,
  /// The step being executed (assertion messages only).
  input  logic [StepW-1:0]         step_i,
  /// Input link valid, one bit per port.
  input  logic [NumPorts-1:0]      in_valid_i,
  /// Input link data, port i at in_data_i[i*MW +: MW].
  input  logic [NumPorts*MW-1:0]   in_data_i,
  /// Per-input action of this step's entry, input i at act_i[i*ActW +: ActW].
  input  logic [NumPorts*ActW-1:0] act_i,
  /// Inject lane l is used this step.
  input  logic [NumLanes-1:0]      lane_valid_i,
  /// Output port of inject lane l at lane_port_i[l*PortW +: PortW].
  input  logic [NumLanes*PortW-1:0] lane_port_i,
  /// Message of inject lane l at lane_data_i[l*MW +: MW] (from the NIC).
  input  logic [NumLanes*MW-1:0]   lane_data_i,
  /// Output link valid (registered).
  output logic [NumPorts-1:0]      out_valid_o,
  /// Output link data (registered), port o at out_data_o[o*MW +: MW].
  output logic [NumPorts*MW-1:0]   out_data_o,
  /// Input i is ejected to the NIC this cycle (its data is in_data_i).
  output logic [NumPorts-1:0]      eject_o,
  /// A message goes to the NIC buffer this cycle.
  output logic                     store_valid_o,
  /// The message stored.
  output logic [MW-1:0]            store_data_o,
  /// Sticky: a check above failed since the run started.
  output logic                     error_o
);

  /// Input actions at the width of act_i (the codes are totex_direct_pkg's).
  localparam logic [ActW-1:0] ACT_NONE  = ActW'(totex_direct_pkg::ACT_NONE);
  localparam logic [ActW-1:0] ACT_EJECT = ActW'(totex_direct_pkg::ACT_EJECT);
  localparam logic [ActW-1:0] ACT_STORE = ActW'(totex_direct_pkg::ACT_STORE);
  localparam logic [ActW-1:0] ACT_FWD   = ActW'(totex_direct_pkg::ACT_FORWARD);
  localparam int unsigned MODEL_SINGLE_PORT = totex_direct_pkg::MODEL_SINGLE_PORT;
  localparam int unsigned MODEL_ALL_PORT    = totex_direct_pkg::MODEL_ALL_PORT;
  localparam int unsigned MODEL_NIC         = totex_direct_pkg::MODEL_NIC;

  if (Model > MODEL_NIC) begin : gen_model_err
    $error("totex_router: unknown Model");
  end
  if (Model != MODEL_ALL_PORT && NumLanes != 32'd1) begin : gen_lanes_err
    $error("totex_router: single-port and nic NICs have one inject lane");
  end

  /// True when at most one bit of x is set.
  function automatic logic at_most_one(input logic [NumPorts+NumLanes-1:0] x);
    at_most_one = (x & (x - 1'b1)) == '0;
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Decode: per input, forward port / eject / store; per output, its sources.
  // ---------------------------------------------------------------------------------------------
  logic [NumPorts-1:0] fwd;         // input i is forwarded
  logic [NumPorts-1:0] store;       // input i is stored
  logic [NumPorts-1:0] act_bad;     // illegal action code or target port
  logic [NumPorts-1:0] act_empty;   // an action on an empty input
  logic [NumPorts-1:0] dropped;     // a valid input with ACT_NONE
  logic [NumPorts*PortW-1:0] fwd_port;
  logic [NumLanes-1:0] lane_bad;

  logic [NumPorts-1:0] connected;   // ports with a link
  assign connected = ConnectedMask & connected_i;

  for (genvar i = 0; i < NumPorts; i++) begin : gen_in
    logic [ActW-1:0] act;
    logic [ActW-1:0] target;
    assign act    = active_i ? act_i[i*ActW +: ActW] : ACT_NONE;
    assign target = act - ACT_FWD;
    assign fwd[i]       = act >= ACT_FWD && 32'(target) < NumPorts && connected[PortW'(target)];
    assign store[i]     = act == ACT_STORE;
    assign eject_o[i]   = act == ACT_EJECT && in_valid_i[i];
    assign fwd_port[i*PortW +: PortW] = PortW'(target);
    assign act_bad[i]   = act >= ACT_FWD && !fwd[i];
    assign act_empty[i] = act != ACT_NONE && !in_valid_i[i];
    assign dropped[i]   = act == ACT_NONE && in_valid_i[i];
  end

  for (genvar l = 0; l < NumLanes; l++) begin : gen_lane
    logic [PortW-1:0] port;
    assign port        = lane_port_i[l*PortW +: PortW];
    assign lane_bad[l] = active_i && lane_valid_i[l]
                      && !(32'(port) < NumPorts && connected[port]);
  end

  // Per output: OR of the sources that select it, and whether two do.
  logic [NumPorts-1:0]    out_valid_d;
  logic [NumPorts*MW-1:0] out_data_d;
  logic [NumPorts-1:0]    collision;

  for (genvar o = 0; o < NumPorts; o++) begin : gen_out
    logic [NumPorts+NumLanes-1:0] src;  // inputs 0..P-1, then lanes
    logic [MW-1:0]                data;
    always_comb begin
      data = '0;
      for (int unsigned i = 0; i < NumPorts; i++) begin
        src[i] = fwd[i] && fwd_port[i*PortW +: PortW] == PortW'(o);
        if (src[i]) data = data | in_data_i[i*MW +: MW];
      end
      for (int unsigned l = 0; l < NumLanes; l++) begin
        src[NumPorts+l] = active_i && lane_valid_i[l] && !lane_bad[l]
                       && lane_port_i[l*PortW +: PortW] == PortW'(o);
        if (src[NumPorts+l]) data = data | lane_data_i[l*MW +: MW];
      end
    end
    assign out_valid_d[o]            = !clear_i && |src;
    assign out_data_d[o*MW +: MW]    = data;
    assign collision[o]              = !at_most_one(src);
  end

  // Store port: the (single) input with ACT_STORE.
  always_comb begin
    store_data_o = '0;
    for (int unsigned i = 0; i < NumPorts; i++) begin
      if (store[i]) store_data_o = store_data_o | in_data_i[i*MW +: MW];
    end
  end
  assign store_valid_o = |(store & in_valid_i);

  // ---------------------------------------------------------------------------------------------
  // Model checks
  // ---------------------------------------------------------------------------------------------
  logic [NumPorts+NumLanes-1:0] sends;
  logic [NumPorts+NumLanes-1:0] receives;
  logic [NumPorts+NumLanes-1:0] ejects;
  logic [NumPorts+NumLanes-1:0] stores;
  assign sends    = {lane_valid_i & {NumLanes{active_i}}, fwd};
  assign receives = {{NumLanes{1'b0}}, in_valid_i};
  assign ejects   = {{NumLanes{1'b0}}, eject_o};
  assign stores   = {{NumLanes{1'b0}}, store};

  logic sp_send_err, sp_recv_err, buf_err, nic_eject_err, store_err, entry_err, link_err;
  assign sp_send_err   = Model == MODEL_SINGLE_PORT && !at_most_one(sends);
  assign sp_recv_err   = Model == MODEL_SINGLE_PORT && !at_most_one(receives);
  assign buf_err       = Model != MODEL_SINGLE_PORT && |store;
  assign nic_eject_err = Model == MODEL_NIC && !at_most_one(ejects);
  assign store_err     = !at_most_one(stores);
  assign entry_err     = |act_bad || |lane_bad || |act_empty || |dropped;
  assign link_err      = |collision;

  // ---------------------------------------------------------------------------------------------
  // Registers: the output links and the sticky error.
  // ---------------------------------------------------------------------------------------------
  logic                   error_d, error_q;
  logic [NumPorts-1:0]    out_valid_q;
  logic [NumPorts*MW-1:0] out_data_q;

  assign error_d = clear_i ? 1'b0
                 : error_q | sp_send_err | sp_recv_err | buf_err | nic_eject_err | store_err
                           | entry_err | link_err;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      out_valid_q <= '0;
      out_data_q  <= '0;
      error_q     <= 1'b0;
    end else begin
      out_valid_q <= out_valid_d;
      out_data_q  <= out_data_d;
      error_q     <= error_d;
    end
  end

  assign out_valid_o = out_valid_q;
  assign out_data_o  = out_data_q;
  assign error_o     = error_q;

`ifndef SYNTHESIS
`ifndef TOTEX_NO_ASSERTIONS
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert
    if (rst_ni && !clear_i) begin
      assert (!link_err)
      else $error("totex_router: node %0d step %0d: link driven twice (outputs %b)", node_id_i,
                  step_i, collision);
      assert (!sp_send_err)
      else $error("totex_router: single-port: node %0d sends more than one message in step %0d",
                  node_id_i, step_i);
      assert (!sp_recv_err)
      else $error({"totex_router: single-port: node %0d receives more than one message in ",
                   "step %0d"}, node_id_i, step_i - 1'b1);
      assert (!nic_eject_err)
      else $error("totex_router: nic: node %0d ejects more than one message in step %0d",
                  node_id_i, step_i - 1'b1);
      assert (!buf_err)
      else $error("totex_router: node %0d step %0d: store without a NIC buffer (model %0d)",
                  node_id_i, step_i, Model);
      assert (!store_err)
      else $error("totex_router: node %0d step %0d: more than one store", node_id_i, step_i);
      assert (!(|act_bad || |lane_bad))
      else $error("totex_router: node %0d step %0d: illegal table entry (inputs %b, lanes %b)",
                  node_id_i, step_i, act_bad, lane_bad);
      assert (!(|act_empty))
      else $error("totex_router: node %0d step %0d: action on an empty input (%b)", node_id_i,
                  step_i, act_empty);
      assert (!(|dropped))
      else $error("totex_router: node %0d step %0d: message dropped on input (%b)", node_id_i,
                  step_i, dropped);
    end
  end
`endif
`endif

endmodule
