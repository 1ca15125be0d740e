// SPDX-License-Identifier: Apache-2.0
/// Dynamic-mode direct-network router (the baseline): input-queued, one FIFO per input port and
/// virtual channel, table-driven routing (dimension order, optionally minimal adaptive with the
/// dimension-order VCs as escape), dateline virtual channels on rings, credit-based
/// backpressure, a round-robin arbiter per output; one flit (= one message) per directed link per
/// cycle.
///
/// Ports 0..P-1 are neighbour links (port p's input comes from the neighbour its output leads to);
/// port P is the local port: inject from the NIC (one FIFO, VC 0) and eject to the NIC (always
/// accepted, one message per cycle: a single-port NIC).
///
/// Routing: route_table_i[dst*RW +: RW] is the dimension-order output for destination dst
/// (P = eject); minimal_i[dst*P + p] says that output p is on a shortest path to dst. totex
/// generates both per node from the topology (sw/hw/src/direct_controller.cpp).
///
/// Virtual channels: VCs 0 .. E-1 (E = NumVcs - AdaptiveVcs, 1 or 2) are the escape VCs, routed
/// in dimension order: a message entering a dimension (from the NIC, another dimension or an
/// adaptive VC) starts on VC 0; crossing an output in dateline_i (the ring's wrap-around link,
/// each direction) moves it to VC 1 for the rest of that dimension. With dimension order this
/// breaks every cycle of the escape channels' dependency graph (Dally & Seitz). VCs E ..
/// NumVcs-1 are adaptive: a message that is not on an escape VC (the inject FIFO, an adaptive
/// VC) takes, among the adaptive (output, VC) pairs on a shortest path with a credit, the
/// dimension-order output first, then the one with the most credits, then the lowest output,
/// then the lowest VC; with none it falls back to its escape VC on the dimension-order output.
/// A message on an escape VC stays on the escape VCs. Every message is one flit and can always
/// wait for an escape VC, so by Duato's theorem the network is deadlock-free. AdaptiveVcs = 0 is
/// the plain dimension-order router (minimal_i unused).
///
/// Flow control: the upstream output keeps one credit counter per VC (Depth at reset); a flit is
/// sent only with a credit; the receiving router returns a credit (in_credit_o, combinational with
/// the pop) when it dequeues. Round trip 2 cycles, so Depth >= 2 sustains one flit per cycle.
/// A hop takes one cycle: a flit granted in cycle c is in the next router's FIFO at the end of
/// cycle c and can be granted there in cycle c+1. Each VC FIFO has its own crossbar input.
`default_nettype none

module totex_router_dyn #(
  /// Number of neighbour ports P, >= 1.
  parameter int unsigned NumPorts = 32'd4,
  /// Number of nodes N (destination range).
  parameter int unsigned N = 32'd16,
  /// Payload width.
  parameter int unsigned PW = 32'd16,
  /// Virtual channels per neighbour input: the escape VCs (2 for dateline routing, 1 without
  /// rings) plus AdaptiveVcs.
  parameter int unsigned NumVcs = 32'd2,
  /// Adaptive VCs among them (the highest-numbered); 0: dimension-order routing only.
  parameter int unsigned AdaptiveVcs = 32'd0,
  /// FIFO entries per input VC, >= 1 (2 sustain full link rate).
  parameter int unsigned Depth = 32'd4,
  /// Width of a node id; do not overwrite.
  localparam int unsigned IW = totex_direct_pkg::node_width(N),
  /// Message width {src, dst, payload}; do not overwrite.
  localparam int unsigned MW = totex_direct_pkg::msg_width(N, PW),
  /// Width of a route-table entry (0..P); do not overwrite.
  localparam int unsigned RW = totex_pkg::idx_width(NumPorts + 32'd1),
  /// Width of a VC index; do not overwrite.
  localparam int unsigned VW = totex_pkg::idx_width(NumVcs),
  /// Ports that may have a link; ANDed with connected_i.
  parameter logic [NumPorts-1:0] ConnectedMask = '1
) (
  /// Clock, rising edge.
  input  logic                        clk_i,
  /// Asynchronous active-low reset.
  input  logic                        rst_ni,
  /// This node's number (assertion messages only).
  input  logic [IW-1:0]               node_id_i,
  /// Ports that have a link (a constant of the instance, so one compiled router serves nodes
  /// with different ports), ANDed with ConnectedMask.
  input  logic [NumPorts-1:0]         connected_i,
  /// Route table (a constant of the instance): dimension-order output per destination dst at
  /// route_table_i[dst*RW +: RW] (P = eject).
  input  logic [N*RW-1:0]             route_table_i,
  /// Shortest-path outputs (a constant of the instance): output p leads closer to dst when
  /// minimal_i[dst*NumPorts + p] (adaptive routing only).
  input  logic [N*NumPorts-1:0]       minimal_i,
  /// Dimension of each port, totex_direct_pkg::TOPO_PORT_W bits per port (a constant of the instance).
  input  logic [NumPorts*totex_direct_pkg::TOPO_PORT_W-1:0] port_dim_i,
  /// Outputs that cross a dateline, ring wrap-around (a constant of the instance).
  input  logic [NumPorts-1:0]         dateline_i,
  /// Start of a run: empties the FIFOs, restores the credits and the sticky error.
  input  logic                        clear_i,
  /// Input link valid.
  input  logic [NumPorts-1:0]         in_valid_i,
  /// Input link VC, port i at in_vc_i[i*VW +: VW].
  input  logic [NumPorts*VW-1:0]      in_vc_i,
  /// Input link data, port i at in_data_i[i*MW +: MW].
  input  logic [NumPorts*MW-1:0]      in_data_i,
  /// Credit returned upstream for input i, VC v at in_credit_o[i*NumVcs + v].
  output logic [NumPorts*NumVcs-1:0]  in_credit_o,
  /// Output link valid.
  output logic [NumPorts-1:0]         out_valid_o,
  /// Output link VC.
  output logic [NumPorts*VW-1:0]      out_vc_o,
  /// Output link data.
  output logic [NumPorts*MW-1:0]      out_data_o,
  /// Credits returned by the downstream router of output o, VC v at [o*NumVcs + v].
  input  logic [NumPorts*NumVcs-1:0]  out_credit_i,
  /// NIC inject valid.
  input  logic                        inj_valid_i,
  /// NIC inject message.
  input  logic [MW-1:0]               inj_data_i,
  /// The inject FIFO accepts (inject happens when valid and ready).
  output logic                        inj_ready_o,
  /// Eject valid (one message per cycle to the NIC).
  output logic                        ej_valid_o,
  /// Ejected message.
  output logic [MW-1:0]               ej_data_o,
  /// Sticky: FIFO overflow (credit protocol broken) or a route to a missing port.
  output logic                        error_o
);

  localparam int unsigned NumIn  = NumPorts + 32'd1;      // neighbour inputs + inject
  localparam int unsigned NumOut = NumPorts + 32'd1;      // neighbour outputs + eject
  localparam int unsigned NumReq = NumIn * NumVcs;        // one requester per (input, VC)
  localparam int unsigned ReqW   = totex_pkg::idx_width(NumReq);
  localparam int unsigned CntW   = totex_pkg::idx_width(Depth + 32'd1);
  localparam int unsigned Local  = NumPorts;               // index of the local port
  localparam int unsigned EscVcs = NumVcs - AdaptiveVcs;   // escape (dimension-order) VCs
  localparam int unsigned KeyW   = CntW + 32'd1;           // adaptive selection key {dor, credits}

  if (AdaptiveVcs >= NumVcs || EscVcs > 32'd2) begin : gen_vc_err
    $error("totex_router_dyn: NumVcs - AdaptiveVcs (escape VCs) must be 1 or 2");
  end

  // ---------------------------------------------------------------------------------------------
  // Input FIFOs, one per (input, VC); requester r = i*NumVcs + v.
  // ---------------------------------------------------------------------------------------------
  logic [NumReq-1:0]    head_valid;
  logic [NumReq*MW-1:0] head_data;
  logic [NumReq-1:0]    pop;
  logic [NumReq-1:0]    overflow;
  logic [CntW-1:0]      inj_count;

  for (genvar i = 0; i < NumIn; i++) begin : gen_in
    for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
      localparam int unsigned R = i * NumVcs + v;
      if (i == Local && v != 0) begin : gen_tie_off
        assign head_valid[R]           = 1'b0;
        assign head_data[R*MW +: MW]   = '0;
        assign overflow[R]             = 1'b0;
      end else begin : gen_fifo
        logic          push;
        logic [MW-1:0] data;
        logic [CntW-1:0] count;
        if (i == Local) begin : gen_local
          assign push = inj_valid_i && inj_ready_o;
          assign data = inj_data_i;
          assign inj_count = count;
        end else begin : gen_link
          assign push = in_valid_i[i] && in_vc_i[i*VW +: VW] == VW'(v);
          assign data = in_data_i[i*MW +: MW];
          logic unused_count;
          assign unused_count = ^count;
        end
        totex_direct_fifo #(
          .Depth (Depth),
          .W     (MW)
        ) u_fifo (
          .clk_i      (clk_i),
          .rst_ni     (rst_ni),
          .clear_i    (clear_i),
          .push_i     (push),
          .data_i     (data),
          .pop_i      (pop[R]),
          .valid_o    (head_valid[R]),
          .head_o     (head_data[R*MW +: MW]),
          .count_o    (count),
          .overflow_o (overflow[R])
        );
      end
    end
  end

  assign inj_ready_o = 32'(inj_count) < Depth;

  // ---------------------------------------------------------------------------------------------
  // Route computation and VC selection per requester.
  // ---------------------------------------------------------------------------------------------
  logic [CntW-1:0] credit_q [NumPorts*NumVcs];
  logic [NumReq*RW-1:0] req_out;
  logic [NumReq*VW-1:0] req_vc;
  logic [NumReq-1:0]    req;
  logic [NumReq-1:0]    route_bad;

  // Port properties indexed by a route-table entry (RW bits; entries >= P read as 0).
  localparam int unsigned NumRoutes = 32'd1 << RW;
  logic [NumPorts-1:0]    connected;
  logic [NumRoutes-1:0]   connected_ext;
  assign connected     = ConnectedMask & connected_i;
  assign connected_ext = NumRoutes'(connected);
  logic [NumRoutes-1:0]   dateline_ext;
  localparam int unsigned PortDimW = totex_direct_pkg::TOPO_PORT_W;
  logic [NumRoutes*PortDimW-1:0] port_dim_ext;
  assign dateline_ext = NumRoutes'(dateline_i);
  assign port_dim_ext  = (NumRoutes*PortDimW)'(port_dim_i);

  for (genvar r = 0; r < NumReq; r++) begin : gen_route
    localparam int unsigned I = r / NumVcs;
    localparam int unsigned V = r % NumVcs;
    // The inject FIFO and the adaptive VCs may route adaptively; the escape VCs may not.
    localparam bit OnEscape = I != Local && V < EscVcs;
    logic [IW-1:0]       dst;
    logic [RW-1:0]       dor;      // dimension-order output
    logic [NumPorts-1:0] closer;   // outputs on a shortest path
    logic [RW-1:0]       outp;
    logic [VW-1:0]       nvc;
    logic                ok;
    logic [KeyW-1:0]     best_key, key;
    assign dst    = head_data[r*MW + PW +: IW];
    assign dor    = (32'(dst) < N) ? route_table_i[32'(dst)*RW +: RW] : RW'(Local);
    assign closer = (32'(dst) < N) ? minimal_i[32'(dst)*NumPorts +: NumPorts] : '0;
    always_comb begin
      outp     = dor;
      key      = '0;
      nvc      = '0;
      ok       = 1'b1;
      best_key = '0;
      if (32'(dor) < NumPorts) begin
        // Adaptive candidates: {dimension-order output, credits}, the first maximum wins.
        if (AdaptiveVcs != 32'd0 && !OnEscape) begin
          for (int unsigned p = 0; p < NumPorts; p++) begin
            for (int unsigned a = EscVcs; a < NumVcs; a++) begin
              key = {RW'(p) == dor, credit_q[p*NumVcs + a]};
              if (closer[p] && connected_ext[p] && credit_q[p*NumVcs + a] != '0 && key > best_key) begin
                best_key = key;
                outp     = RW'(p);
                nvc      = VW'(a);
              end
            end
          end
        end
        // No adaptive candidate: the escape VC of the dimension-order output.
        if (best_key == '0) begin
          outp = dor;
          if (OnEscape && port_dim_ext[I*PortDimW +: PortDimW] == port_dim_ext[dor*PortDimW +: PortDimW]) nvc = VW'(V);
          if (EscVcs > 32'd1 && dateline_ext[dor]) nvc = VW'(EscVcs - 32'd1);
          ok = connected_ext[dor] && credit_q[32'(dor) * NumVcs + 32'(nvc)] != '0;
        end
      end else if (32'(dor) != Local) begin
        ok = 1'b0;
      end
    end
    assign req_out[r*RW +: RW] = outp;
    assign req_vc[r*VW +: VW]  = nvc;
    assign req[r]              = head_valid[r] && ok;
    // A route-table entry above P is malformed; for P = 1 the comparison is constant.
    /* verilator lint_off CMPCONST */
    assign route_bad[r]        = head_valid[r]
                              && (32'(dst) >= N || 32'(dor) > NumPorts
                                  || (32'(dor) < NumPorts && !connected_ext[dor]));
    /* verilator lint_on CMPCONST */
  end

  if (AdaptiveVcs == 32'd0) begin : gen_no_adaptive
    logic unused_minimal;
    assign unused_minimal = ^minimal_i;
  end

  // ---------------------------------------------------------------------------------------------
  // Round-robin arbiter per output (o = P is the eject port).
  // ---------------------------------------------------------------------------------------------
  logic [NumOut-1:0]      gnt_valid;
  logic [NumOut*ReqW-1:0] gnt_idx;
  logic [ReqW-1:0]        ptr_q [NumOut];
  logic [ReqW-1:0]        ptr_d [NumOut];

  // The grant goes to the first requester at or after the pointer, else to the first one: two
  // priority encoders over the request vector (no rotation by a variable amount).
  for (genvar o = 0; o < NumOut; o++) begin : gen_arb
    logic [NumReq-1:0] want;       // requesters for this output
    logic [NumReq-1:0] want_hi;    // ... at or after the pointer
    logic              found, found_hi;
    logic [ReqW-1:0]   pick, pick_lo, pick_hi;
    for (genvar k = 0; k < NumReq; k++) begin : gen_want
      assign want[k] = req[k] && req_out[k*RW +: RW] == RW'(o);
    end
    always_comb begin
      for (int unsigned k = 0; k < NumReq; k++) want_hi[k] = want[k] && k >= 32'(ptr_q[o]);
    end
    always_comb begin
      found    = 1'b0;
      found_hi = 1'b0;
      pick_lo  = '0;
      pick_hi  = '0;
      for (int unsigned k = 0; k < NumReq; k++) begin
        if (!found && want[k]) begin
          found   = 1'b1;
          pick_lo = ReqW'(k);
        end
        if (!found_hi && want_hi[k]) begin
          found_hi = 1'b1;
          pick_hi  = ReqW'(k);
        end
      end
      pick = found_hi ? pick_hi : pick_lo;
    end
    assign gnt_valid[o]              = found;
    assign gnt_idx[o*ReqW +: ReqW]   = pick;
    assign ptr_d[o] = clear_i ? '0
                    : !found ? ptr_q[o]
                    : (32'(pick) == NumReq - 32'd1) ? '0 : pick + ReqW'(1);
  end

  always_comb begin
    pop = '0;
    for (int unsigned o = 0; o < NumOut; o++) begin
      if (gnt_valid[o]) pop[gnt_idx[o*ReqW +: ReqW]] = 1'b1;
    end
  end

  // Outputs.
  for (genvar o = 0; o < NumPorts; o++) begin : gen_out
    logic [ReqW-1:0] g;
    assign g                       = gnt_idx[o*ReqW +: ReqW];
    assign out_valid_o[o]          = gnt_valid[o];
    assign out_data_o[o*MW +: MW]  = head_data[32'(g)*MW +: MW];
    assign out_vc_o[o*VW +: VW]    = req_vc[32'(g)*VW +: VW];
  end
  assign ej_valid_o = gnt_valid[Local];
  assign ej_data_o  = head_data[32'(gnt_idx[Local*ReqW +: ReqW])*MW +: MW];

  // Credits returned upstream: one per pop of a neighbour input's VC FIFO.
  assign in_credit_o = pop[NumPorts*NumVcs-1:0];

  // ---------------------------------------------------------------------------------------------
  // Credit counters per (output, VC) and the arbiter pointers.
  // ---------------------------------------------------------------------------------------------
  logic error_d, error_q;
  assign error_d = clear_i ? 1'b0 : error_q | |overflow | |route_bad;

  for (genvar o = 0; o < NumPorts; o++) begin : gen_credit
    for (genvar v = 0; v < NumVcs; v++) begin : gen_vc
      localparam int unsigned C = o * NumVcs + v;
      logic            used;
      logic [CntW-1:0] credit_d;
      assign used     = gnt_valid[o] && req_vc[32'(gnt_idx[o*ReqW +: ReqW])*VW +: VW] == VW'(v);
      assign credit_d = clear_i ? CntW'(Depth) : credit_q[C] - CntW'(used) + CntW'(out_credit_i[C]);
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) credit_q[C] <= CntW'(Depth);
        else         credit_q[C] <= credit_d;
      end
    end
  end

  for (genvar o = 0; o < NumOut; o++) begin : gen_ptr
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) ptr_q[o] <= '0;
      else         ptr_q[o] <= ptr_d[o];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) error_q <= 1'b0;
    else         error_q <= error_d;
  end
  assign error_o = error_q;

`ifndef SYNTHESIS
`ifndef TOTEX_NO_ASSERTIONS
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert
    if (rst_ni && !clear_i) begin
      assert (!(|route_bad))
      else $error("totex_router_dyn: node %0d: no route (requesters %b)", node_id_i, route_bad);
      for (int unsigned c = 0; c < NumPorts * NumVcs; c++) begin
        assert (32'(credit_q[c]) <= Depth)
        else $error("totex_router_dyn: node %0d: credit counter %0d above Depth", node_id_i, c);
      end
    end
  end
`endif
`endif

endmodule
