// SPDX-License-Identifier: Apache-2.0
/// Formal wrapper (yosys-smtbmc, tests/formal): the scheduled router (totex_router) never drops or
/// duplicates a message and uses each output link at most once per cycle, unless it raises its
/// sticky error_o for that step.
///
/// Everything is free: links, table entries (actions, lanes), clear, active. Checked one cycle
/// after every step that left error_o low:
///   * each message on an input link was ejected, stored, or is on exactly the output its action
///     named, with its data unchanged;
///   * each inject lane's message is on the output its port named, unchanged;
///   * the number of messages on the output links equals forwards + injections (nothing else
///     appears: no duplicate, no message mixed from two sources, i.e. one message per link).
/// Conversely, two sources selecting one output in a step always raise error_o.
`default_nettype none

module totex_formal_router #(
  parameter int unsigned NumPorts = 32'd3,
  parameter int unsigned NumLanes = 32'd1,
  parameter int unsigned Model    = 32'd2,
  parameter logic [NumPorts-1:0] ConnectedMask = {NumPorts{1'b1}},
  parameter int unsigned MW = 32'd2,
  localparam int unsigned ActW  = totex_pkg::idx_width(NumPorts + 32'd3),
  localparam int unsigned PortW = totex_pkg::idx_width(NumPorts)
) (
  input logic                      clk_i,
  input logic                      rst_ni,
  input logic                      clear_i,
  input logic                      active_i,
  input logic [NumPorts-1:0]       in_valid_i,
  input logic [NumPorts*MW-1:0]    in_data_i,
  input logic [NumPorts*ActW-1:0]  act_i,
  input logic [NumLanes-1:0]       lane_valid_i,
  input logic [NumLanes*PortW-1:0] lane_port_i,
  input logic [NumLanes*MW-1:0]    lane_data_i
);

  logic [NumPorts-1:0]    out_valid;
  logic [NumPorts*MW-1:0] out_data;
  logic [NumPorts-1:0]    eject;
  logic                   store_valid;
  logic [MW-1:0]          store_data;
  logic                   error;

  totex_router #(
    .NumPorts(NumPorts), .NumLanes(NumLanes), .MW(MW), .Model(Model), .ConnectedMask(ConnectedMask),
    .IdW(32'd1), .StepW(32'd1)
  ) u_dut (
    .clk_i, .rst_ni, .clear_i, .active_i,
    .node_id_i ('0), .connected_i ('1), .step_i ('0),
    .in_valid_i, .in_data_i, .act_i, .lane_valid_i, .lane_port_i, .lane_data_i,
    .out_valid_o (out_valid), .out_data_o (out_data), .eject_o (eject),
    .store_valid_o (store_valid), .store_data_o (store_data), .error_o (error)
  );

  // Reset in the first cycle only; $past is defined from the second.
  logic first = 1'b1;
  always_ff @(posedge clk_i) first <= 1'b0;
  always_comb assume (rst_ni == !first);

  // What this step's entry asks for, decoded independently of the router.
  logic [NumPorts-1:0] fwd_valid;     // input i is forwarded (a message is there)
  int unsigned         expected;      // messages that must be on the links next cycle
  logic                two_sources;   // two sources name one connected output
  always_comb begin
    int unsigned users [NumPorts];
    expected    = 0;
    two_sources = 1'b0;
    for (int unsigned o = 0; o < NumPorts; o++) users[o] = 0;
    for (int unsigned i = 0; i < NumPorts; i++) begin
      fwd_valid[i] = 1'b0;
      if (active_i && 32'(act_i[i*ActW +: ActW]) >= 3 && 32'(act_i[i*ActW +: ActW]) - 3 < NumPorts) begin
        if (ConnectedMask[32'(act_i[i*ActW +: ActW]) - 3]) begin
          users[32'(act_i[i*ActW +: ActW]) - 3]++;
          fwd_valid[i] = in_valid_i[i];
          expected++;
        end
      end
    end
    for (int unsigned l = 0; l < NumLanes; l++) begin
      if (active_i && lane_valid_i[l] && 32'(lane_port_i[l*PortW +: PortW]) < NumPorts) begin
        if (ConnectedMask[lane_port_i[l*PortW +: PortW]]) begin
          users[32'(lane_port_i[l*PortW +: PortW])]++;
          expected++;
        end
      end
    end
    for (int unsigned o = 0; o < NumPorts; o++) if (users[o] > 1) two_sources = 1'b1;
  end

  function automatic int unsigned popcount(input logic [NumPorts-1:0] x);
    popcount = 0;
    for (int unsigned i = 0; i < NumPorts; i++) popcount = popcount + 32'(x[i]);
  endfunction

  always_ff @(posedge clk_i) begin
    if (!first && !$past(first) && !$past(clear_i)) begin
      // A link used twice in a step is always reported.
      if ($past(two_sources)) assert (error);
      if (!error && $past(active_i)) begin
        for (int unsigned i = 0; i < NumPorts; i++) begin
          if ($past(in_valid_i[i])) begin
            if ($past(fwd_valid[i])) begin
              assert (out_valid[32'($past(act_i[i*ActW +: ActW])) - 3]);
              assert (out_data[(32'($past(act_i[i*ActW +: ActW])) - 3)*MW +: MW] == $past(in_data_i[i*MW +: MW]));
            end else begin
              // Not forwarded: ejected or stored in that step, nothing else.
              assert ($past(eject[i]) || ($past(store_valid) && $past(store_data) == $past(in_data_i[i*MW +: MW])));
            end
          end
        end
        for (int unsigned l = 0; l < NumLanes; l++) begin
          if ($past(lane_valid_i[l])) begin
            assert (out_valid[$past(lane_port_i[l*PortW +: PortW])]);
            assert (out_data[32'($past(lane_port_i[l*PortW +: PortW]))*MW +: MW] == $past(lane_data_i[l*MW +: MW]));
          end
        end
        assert (popcount(out_valid) == $past(expected));
      end
    end
  end

endmodule
