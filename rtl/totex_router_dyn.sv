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
  parameter logic [NumPorts-1:0] ConnectedMask = {NumPorts{1'b1}}
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
  output logic                        error_o,
  /// No FIFO holds a flit (a function of state only): with no flit arriving, no credit
  /// returning and nothing injected, a clock edge then changes nothing (totex_direct_tile's
  /// quiet_o, proved in tests/formal).
  output logic                        empty_o
);

  localparam int unsigned NumIn  = NumPorts + 32'd1;      // neighbour inputs + inject
  localparam int unsigned NumOut = NumPorts + 32'd1;      // neighbour outputs + eject
  localparam int unsigned NumReq = NumIn * NumVcs;        // one requester per (input, VC)
  localparam int unsigned ReqW   = totex_pkg::idx_width(NumReq);
  localparam int unsigned CntW   = totex_pkg::idx_width(Depth + 32'd1);
  localparam int unsigned Local  = NumPorts;               // index of the local port
  localparam int unsigned EscVcs = NumVcs - AdaptiveVcs;   // escape (dimension-order) VCs
  localparam int unsigned KeyW   = CntW + 32'd1;           // adaptive selection key {dor, credits}
  // Route-table entries are RW bits: arrays indexed by one have all 2^RW entries (entries above
  // P read as absent ports), so no index needs a range check.
  localparam int unsigned NumRoutes = 32'd1 << RW;

  if (AdaptiveVcs >= NumVcs || EscVcs > 32'd2) begin : gen_vc_err
    $error("totex_router_dyn: NumVcs - AdaptiveVcs (escape VCs) must be 1 or 2");
  end

  // Written so that a cycle costs the simulator in proportion to the flits present: the route
  // of a requester is only worked out when its FIFO holds a flit, an output is only arbitrated
  // when it has requests, and what every requester shares (each output's best adaptive VC) is
  // found once. In hardware these are the same gates: the guards are the muxes that select the
  // idle values (zero). Arrays are flat vectors (x[i*W +: W]), as Yosys 0.23 does not read packed
  // multidimensional arrays.

  // ---------------------------------------------------------------------------------------------
  // Input FIFOs, one per (input, VC); requester r = i*NumVcs + v. The inject input has VC 0 only.
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
        assign head_valid[R]         = 1'b0;
        assign head_data[R*MW +: MW] = '0;
        assign overflow[R]           = 1'b0;
      end else begin : gen_fifo
        logic            push;
        logic [MW-1:0]   data;
        logic [CntW-1:0] count;
        if (i == Local) begin : gen_local
          assign push      = inj_valid_i && inj_ready_o;
          assign data      = inj_data_i;
          assign inj_count = count;
        end else begin : gen_link
          assign push = in_valid_i[i] && in_vc_i[i*VW +: VW] == VW'(v);
          assign data = in_data_i[i*MW +: MW];
          logic unused_count;
          assign unused_count = ^count;
        end
        totex_direct_fifo #(
          .Depth  (Depth),
          .W      (MW),
          .Checks (1'b0)   // checked below, over all FIFOs at once
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
  assign empty_o     = head_valid == '0;

  // ---------------------------------------------------------------------------------------------
  // Port properties indexed by a route-table entry (entries >= P read as 0).
  // ---------------------------------------------------------------------------------------------
  localparam int unsigned PortDimW = totex_direct_pkg::TOPO_PORT_W;
  logic [NumPorts-1:0]           connected;
  logic [NumRoutes-1:0]          connected_ext, dateline_ext;
  logic [NumRoutes*PortDimW-1:0] port_dim_ext;
  assign connected     = ConnectedMask & connected_i;
  assign connected_ext = NumRoutes'(connected);
  assign dateline_ext  = NumRoutes'(dateline_i);
  assign port_dim_ext  = (NumRoutes*PortDimW)'(port_dim_i);

  // ---------------------------------------------------------------------------------------------
  // Credits per (output, VC) c = o*NumVcs + v, and per output the adaptive VC with the most
  // credits (the first of equals): the choice every adaptive requester makes among its VCs.
  // ---------------------------------------------------------------------------------------------
  logic [NumPorts*NumVcs*CntW-1:0] credit_q;
  logic [NumPorts*CntW-1:0]        adaptive_credit;
  logic [NumPorts*VW-1:0]          adaptive_vc;
  logic [NumPorts-1:0]             adaptive_open;   // connected, and that VC has a credit

  if (AdaptiveVcs != 32'd0) begin : gen_adaptive_best
    always_comb begin
      for (int unsigned p = 0; p < NumPorts; p++) begin
        adaptive_credit[p*CntW +: CntW] = credit_q[(p*NumVcs + EscVcs)*CntW +: CntW];
        adaptive_vc[p*VW +: VW]         = VW'(EscVcs);
        for (int unsigned a = EscVcs + 32'd1; a < NumVcs; a++) begin
          if (credit_q[(p*NumVcs + a)*CntW +: CntW] > adaptive_credit[p*CntW +: CntW]) begin
            adaptive_credit[p*CntW +: CntW] = credit_q[(p*NumVcs + a)*CntW +: CntW];
            adaptive_vc[p*VW +: VW]         = VW'(a);
          end
        end
        adaptive_open[p] = connected[p] && adaptive_credit[p*CntW +: CntW] != '0;
      end
    end
  end else begin : gen_no_adaptive
    assign adaptive_credit = '0;
    assign adaptive_vc     = '0;
    assign adaptive_open   = '0;
    logic unused_minimal;
    assign unused_minimal = ^minimal_i;
  end

  // ---------------------------------------------------------------------------------------------
  // Route computation and VC selection per requester (its FIFO's head).
  // ---------------------------------------------------------------------------------------------
  logic [NumReq*RW-1:0] req_out;
  logic [NumReq*VW-1:0] req_vc;
  logic [NumReq-1:0]    req;
  logic [NumReq-1:0]    route_bad;

  for (genvar r = 0; r < NumReq; r++) begin : gen_route
    localparam int unsigned I = r / NumVcs;
    localparam int unsigned V = r % NumVcs;
    // The inject FIFO and the adaptive VCs may route adaptively; the escape VCs may not.
    localparam bit OnEscape = I != Local && V < EscVcs;
    logic [RW-1:0] outp;
    logic [VW-1:0] nvc;
    logic          want_out, bad;
    assign req_out[r*RW +: RW] = outp;
    assign req_vc[r*VW +: VW]  = nvc;
    assign req[r]              = want_out;
    assign route_bad[r]        = bad;
    if (I == Local && V != 32'd0) begin : gen_tie_off
      logic unused_tie_off;
      assign unused_tie_off = head_valid[r] ^ ^head_data[r*MW +: MW];
      assign outp     = '0;
      assign nvc      = '0;
      assign want_out = 1'b0;
      assign bad      = 1'b0;
    end else begin : gen_requester
      logic [IW-1:0]       dst;
      logic [RW-1:0]       dor;      // dimension-order output
      logic [NumPorts-1:0] closer;   // outputs on a shortest path
      logic [KeyW-1:0]     best_key, key;
      always_comb begin
        outp     = '0;
        nvc      = '0;
        want_out = 1'b0;
        bad      = 1'b0;
        dst      = '0;
        dor      = '0;
        closer   = '0;
        key      = '0;
        best_key = '0;
        if (head_valid[r]) begin
          dst      = head_data[r*MW + PW +: IW];
          dor      = (32'(dst) < N) ? route_table_i[32'(dst)*RW +: RW] : RW'(Local);
          want_out = 1'b1;
          // A route-table entry above P is malformed; for P = 1 the comparison is constant.
          /* verilator lint_off CMPCONST */
          bad = 32'(dst) >= N || 32'(dor) > NumPorts || (32'(dor) < NumPorts && !connected_ext[dor]);
          /* verilator lint_on CMPCONST */
          outp = dor;
          if (32'(dor) < NumPorts) begin
            // Adaptive candidates: {dimension-order output, credits}, the first maximum wins.
            if (AdaptiveVcs != 32'd0 && !OnEscape) begin
              closer = (32'(dst) < N) ? minimal_i[32'(dst)*NumPorts +: NumPorts] : '0;
              for (int unsigned p = 0; p < NumPorts; p++) begin
                key = {RW'(p) == dor, adaptive_credit[p*CntW +: CntW]};
                if (closer[p] && adaptive_open[p] && key > best_key) begin
                  best_key = key;
                  outp     = RW'(p);
                  nvc      = adaptive_vc[p*VW +: VW];
                end
              end
            end
            // No adaptive candidate: the escape VC of the dimension-order output.
            if (best_key == '0) begin
              if (OnEscape && port_dim_ext[I*PortDimW +: PortDimW] == port_dim_ext[dor*PortDimW +: PortDimW])
                nvc = VW'(V);
              if (EscVcs > 32'd1 && dateline_ext[dor]) nvc = VW'(EscVcs - 32'd1);
              want_out = connected_ext[dor] && credit_q[(32'(dor) * NumVcs + 32'(nvc))*CntW +: CntW] != '0;
            end
          end else if (32'(dor) != Local) begin
            want_out = 1'b0;
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Round-robin arbiter per output (o = P is the eject port): the grant goes to the first
  // requester at or after the pointer, else to the first one; outputs without requests skip the
  // search. (A popcount form of the priority encoder, $countones(~x & (x - 1)), simulated no
  // faster, and Yosys 0.23 reads it wrongly: the formal proof of the router pair failed.)
  // ---------------------------------------------------------------------------------------------
  logic [NumRoutes*NumReq-1:0] want;   // requesters per output o at [o*NumReq +: NumReq]
  logic [NumOut-1:0]           gnt_valid;
  logic [NumOut*ReqW-1:0]      gnt_idx, ptr_q, ptr_d;

  function automatic logic [ReqW-1:0] lowest_set(input logic [NumReq-1:0] x);
    lowest_set = '0;
    for (int k = NumReq - 1; k >= 0; k--) if (x[k]) lowest_set = ReqW'(k);
  endfunction

  always_comb begin
    want = '0;
    for (int unsigned r = 0; r < NumReq; r++) begin
      if (req[r]) want[32'(req_out[r*RW +: RW])*NumReq + r] = 1'b1;
    end
  end

  logic [NumReq-1:0] requests, at_or_after;   // of the output being arbitrated
  logic [ReqW-1:0]   g;
  always_comb begin
    pop         = '0;
    requests    = '0;
    at_or_after = '0;
    g           = '0;
    for (int unsigned o = 0; o < NumOut; o++) begin
      requests     = want[o*NumReq +: NumReq];
      at_or_after  = requests & ({NumReq{1'b1}} << ptr_q[o*ReqW +: ReqW]);
      gnt_valid[o] = requests != '0;
      g            = '0;
      ptr_d[o*ReqW +: ReqW] = ptr_q[o*ReqW +: ReqW];
      if (gnt_valid[o]) begin
        g      = lowest_set(at_or_after != '0 ? at_or_after : requests);
        pop[g] = 1'b1;
        ptr_d[o*ReqW +: ReqW] = (32'(g) == NumReq - 32'd1) ? '0 : g + ReqW'(1);
      end
      gnt_idx[o*ReqW +: ReqW] = g;
    end
  end

  // Outputs: the granted head, zero on an idle link; and the credit each sent flit uses.
  logic [NumPorts*NumVcs-1:0] credit_used;   // a flit sent on (output, VC) this cycle
  always_comb begin
    out_valid_o = gnt_valid[NumPorts-1:0];
    out_data_o  = '0;
    out_vc_o    = '0;
    credit_used = '0;
    for (int unsigned o = 0; o < NumPorts; o++) begin
      if (gnt_valid[o]) begin
        out_data_o[o*MW +: MW] = head_data[32'(gnt_idx[o*ReqW +: ReqW])*MW +: MW];
        out_vc_o[o*VW +: VW]   = req_vc[32'(gnt_idx[o*ReqW +: ReqW])*VW +: VW];
        credit_used[o*NumVcs + 32'(out_vc_o[o*VW +: VW])] = 1'b1;
      end
    end
  end
  assign ej_valid_o = gnt_valid[Local];
  assign ej_data_o  = gnt_valid[Local] ? head_data[32'(gnt_idx[Local*ReqW +: ReqW])*MW +: MW] : '0;

  // Credits returned upstream: one per pop of a neighbour input's VC FIFO.
  assign in_credit_o = pop[NumPorts*NumVcs-1:0];

  // ---------------------------------------------------------------------------------------------
  // Credit counters per (output, VC) and the arbiter pointers. The next states are worked out in
  // the clocked blocks: a simulator computes them once per clock edge, not on every change of an
  // input (out_credit_i, clear_i); with clear_i there, the arbiter depends on state only.
  // ---------------------------------------------------------------------------------------------
  logic error_q;

  for (genvar c = 0; c < NumPorts * NumVcs; c++) begin : gen_credit
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni)      credit_q[c*CntW +: CntW] <= CntW'(Depth);
      else if (clear_i) credit_q[c*CntW +: CntW] <= CntW'(Depth);
      else credit_q[c*CntW +: CntW] <= credit_q[c*CntW +: CntW] - CntW'(credit_used[c]) + CntW'(out_credit_i[c]);
    end
  end

  for (genvar o = 0; o < NumOut; o++) begin : gen_ptr
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni)      ptr_q[o*ReqW +: ReqW] <= '0;
      else if (clear_i) ptr_q[o*ReqW +: ReqW] <= '0;
      else              ptr_q[o*ReqW +: ReqW] <= ptr_d[o*ReqW +: ReqW];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)      error_q <= 1'b0;
    else if (clear_i) error_q <= 1'b0;
    else              error_q <= error_q | |overflow | |route_bad;
  end
  assign error_o = error_q;

`ifndef SYNTHESIS
`ifndef TOTEX_NO_ASSERTIONS
  // One check per property over all FIFOs and counters (vectors), not one assertion each.
  function automatic logic any_credit_above_depth();
    logic above;
    above = 1'b0;
    // Constant when Depth + 1 is a power of two (the counter cannot exceed Depth).
    /* verilator lint_off CMPCONST */
    for (int unsigned c = 0; c < NumPorts * NumVcs; c++) above = above || 32'(credit_q[c*CntW +: CntW]) > Depth;
    /* verilator lint_on CMPCONST */
    any_credit_above_depth = above;
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_assert
    if (rst_ni && !clear_i) begin
      assert (!(|route_bad))
      else $error("totex_router_dyn: node %0d: no route (requesters %b)", node_id_i, route_bad);
      assert (!(|overflow))
      else $error("totex_router_dyn: node %0d: push into a full FIFO, flit lost (requesters %b)", node_id_i,
                  overflow);
      assert (!(|(pop & ~head_valid)))
      else $error("totex_router_dyn: node %0d: pop of an empty FIFO (requesters %b)", node_id_i, pop & ~head_valid);
      assert (!any_credit_above_depth())
      else $error("totex_router_dyn: node %0d: a credit counter above Depth", node_id_i);
    end
  end
`endif
`endif

endmodule
