// SPDX-License-Identifier: Apache-2.0
/// The hardware interface of the direct-network family (rtl/totex_direct_*.sv, rtl/totex_router*.sv)
/// in one place: the load-port address map, the region, control, action and model codes, and the
/// field widths of the load port and of a schedule-table entry. docs/load-port.md describes the
/// contract; every RTL module of the family takes its codes and widths from here.
///
/// The C++ side follows this file, it does not copy it:
///   * every `localparam ... = <number>;` below is turned into a C++ constant at build time
///     (cmake/gen_rtl_constants.cmake writes <build>/generated/totex/rtl_constants.hpp, namespace
///     totex::rtl::direct_pkg) and sw/hw/include/totex/direct_controller.hpp uses those;
///   * the width functions are evaluated for many parameter sets by the Verilated test
///     tests/rtl/test_direct_pkg.cpp (ctest -R rtl.direct_pkg), which compares each with
///     totex::DirectLayout and fails on the first difference.
/// Keep every localparam on one line in the form `localparam <type> NAME = <number>;` (the
/// generator reads only that form and fails the build on any other localparam).
///
/// Reference everything package-qualified (`totex_direct_pkg::NAME`): Yosys 0.23 rejects
/// `import pkg::*`. Functions assign to their own name (no `return`, Yosys 0.23 subset).
`default_nettype none

package totex_direct_pkg;

  // ---------------------------------------------------------------------------------------------
  // Load port: cfg_addr = {region[REGION_W-1:0], node[idx_width(N)-1:0], index[XW-1:0]},
  // cfg_data is LOAD_DATA_W bits.
  // ---------------------------------------------------------------------------------------------
  /// Width of the region field at the top of a load-port address.
  localparam int unsigned REGION_W = 32'd2;
  /// Width of the load port's data word, and of one word of a table entry.
  localparam int unsigned LOAD_DATA_W = 32'd32;
  /// Region: schedule table of a node; index = {step, word}, word in the low word_width() bits.
  localparam int unsigned REGION_TABLE = 32'd0;
  /// Region: scheduled mode, index = {flit f, destination d} (f << node_width | d; d for one-flit
  /// exchanges), data = payload of flit f of (node, d); dynamic mode, index = send-queue slot,
  /// data = {dst, payload}.
  localparam int unsigned REGION_MESSAGES = 32'd1;
  /// Region: control registers (index = one of CONTROL_*).
  localparam int unsigned REGION_CONTROL = 32'd2;
  /// Control: last table entry of a scheduled run (= schedule steps T); any node field.
  localparam int unsigned CONTROL_LAST = 32'd0;
  /// Control, dynamic mode, per node: messages in the node's send queue.
  localparam int unsigned CONTROL_SEND_COUNT = 32'd1;
  /// Control, dynamic mode, per node: messages the node must receive before it is done.
  localparam int unsigned CONTROL_RECV_COUNT = 32'd2;

  // ---------------------------------------------------------------------------------------------
  // Table entry (scheduled mode), LSB first:
  //   [0 +: P*act_width(P)]             act[i], what input i does with the message on it;
  //   [P*ActW + l*LaneW +: LaneW]        lane l = {slot[SlotW], route[RouteW]}: route ROUTE_IDLE,
  //                                      or ROUTE_PORT0 + o: inject NIC slot `slot` on output o;
  //   [P*ActW + L*LaneW +: BufW]         the relay-buffer entry an ACT_STORE input is written to.
  // An entry spans entry_words() LOAD_DATA_W-bit words, word 0 holding the lowest bits.
  // ---------------------------------------------------------------------------------------------
  /// Input action: nothing (the input must be empty).
  localparam int unsigned ACT_NONE = 32'd0;
  /// Input action: deliver the message to the NIC.
  localparam int unsigned ACT_EJECT = 32'd1;
  /// Input action: hand the message to the NIC's relay buffer (single-port only).
  localparam int unsigned ACT_STORE = 32'd2;
  /// Input action: ACT_FORWARD + o forwards the message on output port o.
  localparam int unsigned ACT_FORWARD = 32'd3;
  /// Lane route: the lane injects nothing.
  localparam int unsigned ROUTE_IDLE = 32'd0;
  /// Lane route: ROUTE_PORT0 + o injects on output port o.
  localparam int unsigned ROUTE_PORT0 = 32'd1;

  // ---------------------------------------------------------------------------------------------
  // Topology tables of totex_direct_top (the generated totex_direct_params.svh): field widths.
  // ---------------------------------------------------------------------------------------------
  /// Width of a link id in InLink/OutLink.
  localparam int unsigned TOPO_LINK_W = 32'd32;
  /// Width of a port number (RouteTable) or a dimension (PortDim, the dynamic router's port_dim_i).
  localparam int unsigned TOPO_PORT_W = 32'd8;

  // ---------------------------------------------------------------------------------------------
  // Communication models (parameter `Model`; the order of totex::Model in sw/include/totex/model.hpp).
  // ---------------------------------------------------------------------------------------------
  localparam int unsigned MODEL_SINGLE_PORT = 32'd0;
  localparam int unsigned MODEL_ALL_PORT = 32'd1;
  localparam int unsigned MODEL_NIC = 32'd2;

  // ---------------------------------------------------------------------------------------------
  // Widths (elaboration time; tests/rtl/test_direct_pkg.cpp also calls them at run time).
  // ---------------------------------------------------------------------------------------------

  /// Width of an index into n things; 1 when n <= 1 (the same as totex_pkg::idx_width).
  function automatic int unsigned idx_width(input int unsigned n);
    if (n <= 32'd1) idx_width = 32'd1;
    else            idx_width = $clog2(n);
  endfunction

  /// Width of a node id.
  function automatic int unsigned node_width(input int unsigned nodes);
    node_width = idx_width(nodes);
  endfunction

  /// Width of a message {src, dst, payload}.
  function automatic int unsigned msg_width(input int unsigned nodes, input int unsigned payload_w);
    msg_width = 32'd2 * node_width(nodes) + payload_w;
  endfunction

  /// NIC inject lanes: one per port under all-port, else one.
  function automatic int unsigned num_lanes(input int unsigned model, input int unsigned ports);
    num_lanes = (model == MODEL_ALL_PORT) ? ports : 32'd1;
  endfunction

  /// Width of one input action (codes up to ACT_FORWARD + ports - 1).
  function automatic int unsigned act_width(input int unsigned ports);
    act_width = idx_width(ACT_FORWARD + ports);
  endfunction

  /// Width of a lane's route (codes up to ROUTE_PORT0 + ports - 1).
  function automatic int unsigned route_width(input int unsigned ports);
    route_width = idx_width(ROUTE_PORT0 + ports);
  endfunction

  /// NIC slots of the node's own flits: flit f for destination d is slot {f, d} = f << node_width | d,
  /// so with `flits` flits per pair (1 for `all`) they span (flits - 1) * 2^node_width + nodes slots.
  function automatic int unsigned own_slots(input int unsigned nodes, input int unsigned flits);
    own_slots = (flits - 32'd1) * (32'd1 << node_width(nodes)) + nodes;
  endfunction

  /// Width of a NIC slot: the own flits' slots then the relay buffer's entries.
  function automatic int unsigned slot_width(input int unsigned nodes, input int unsigned buf_slots,
                                             input int unsigned flits);
    slot_width = idx_width(own_slots(nodes, flits) + buf_slots);
  endfunction

  /// Width of a relay-buffer entry number.
  function automatic int unsigned buffer_width(input int unsigned buf_slots);
    buffer_width = idx_width(buf_slots);
  endfunction

  /// Width of one lane {slot, route}.
  function automatic int unsigned lane_width(input int unsigned nodes, input int unsigned ports,
                                             input int unsigned buf_slots, input int unsigned flits);
    lane_width = route_width(ports) + slot_width(nodes, buf_slots, flits);
  endfunction

  /// Width of a table entry.
  function automatic int unsigned entry_width(input int unsigned nodes, input int unsigned ports,
                                              input int unsigned model, input int unsigned buf_slots,
                                              input int unsigned flits);
    entry_width = ports * act_width(ports) + num_lanes(model, ports) * lane_width(nodes, ports, buf_slots, flits)
                + buffer_width(buf_slots);
  endfunction

  /// LOAD_DATA_W-bit words per table entry.
  function automatic int unsigned entry_words(input int unsigned entry_w);
    entry_words = (entry_w + LOAD_DATA_W - 32'd1) / LOAD_DATA_W;
  endfunction

  /// Width of the word number within an entry (the low bits of a table index).
  function automatic int unsigned word_width(input int unsigned entry_w);
    word_width = idx_width(entry_words(entry_w));
  endfunction

  /// Width of a step (table entry) number.
  function automatic int unsigned step_width(input int unsigned depth);
    step_width = idx_width(depth);
  endfunction

  /// Width of the load-port index: wide enough for {step, word}, a destination, an own flit's slot
  /// {flit, dst} and a send-queue slot count (N - 1 + 1 values), and at least 2 (the control registers).
  function automatic int unsigned index_width(input int unsigned nodes, input int unsigned ports,
                                              input int unsigned model, input int unsigned buf_slots,
                                              input int unsigned flits, input int unsigned depth,
                                              input bit dynamic);
    int unsigned lanes_model;
    // Dynamic mode has no inject lanes in its entries; the layout still counts one lane.
    lanes_model = dynamic ? MODEL_NIC : model;
    index_width = step_width(depth) + word_width(entry_width(nodes, ports, lanes_model, buf_slots, flits));
    if (node_width(nodes) > index_width) index_width = node_width(nodes);
    if (idx_width(own_slots(nodes, flits)) > index_width) index_width = idx_width(own_slots(nodes, flits));
    if (32'd2 > index_width) index_width = 32'd2;
  endfunction

  /// Width of a load-port address.
  function automatic int unsigned addr_width(input int unsigned nodes, input int unsigned index_w);
    addr_width = REGION_W + node_width(nodes) + index_w;
  endfunction

endpackage
