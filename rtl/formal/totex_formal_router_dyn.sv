// SPDX-License-Identifier: Apache-2.0
/// Formal wrapper (yosys-smtbmc, tests/formal): two dynamic routers (totex_router_dyn) joined by a
/// link in each direction (path:2, one neighbour port each), with credits wired as in the
/// generated top; both NICs inject freely (any valid pattern, any destination, any payload).
///
/// Checked every cycle:
///   * FIFO/credit invariant per link and VC: flits sent minus credits returned (the downstream
///     VC FIFO's occupancy as the sender sees it) stays within 0..Depth, so a flit is only sent
///     with a free slot; neither router ever raises error_o (no FIFO overflow, no bad route);
///   * each link carries at most one flit per cycle (structural: one valid bit) and the VC named
///     exists (< NumVcs);
///   * no message created or lost: ejected <= injected, and in flight (injected - ejected) never
///     exceeds what the buffers hold; after Quiet cycles without an injection everything
///     injected has been ejected (no drop, no deadlock within that bound);
///   * empty_o (both routers) holds exactly when nothing injected is still in the network;
///   * one tagged message (payload bit PW-1; the environment tags at most one injection) is
///     ejected at most once, only at its destination, with its source and payload intact.
`default_nettype none

module totex_formal_router_dyn #(
  parameter int unsigned NumVcs      = 32'd2,
  parameter int unsigned AdaptiveVcs = 32'd1,
  parameter int unsigned Depth       = 32'd2,
  /// Cycles without injection after which the network must be empty.
  parameter int unsigned Quiet       = 32'd12,
  localparam int unsigned N  = 32'd2,
  localparam int unsigned PW = 32'd2,
  localparam int unsigned P  = 32'd1,
  localparam int unsigned IW = 32'd1,
  localparam int unsigned MW = 2 * IW + PW,
  localparam int unsigned VW = totex_pkg::idx_width(NumVcs),
  localparam int unsigned RW = totex_pkg::idx_width(P + 32'd1)
) (
  input logic          clk_i,
  input logic          rst_ni,
  input logic [1:0]    inj_valid_i,
  input logic [1:0]    inj_dst_i,
  input logic [2*PW-1:0] inj_payload_i
);

  logic first = 1'b1;
  always_ff @(posedge clk_i) first <= 1'b0;
  always_comb assume (rst_ni == !first);

  logic [1:0]        out_valid;
  logic [2*VW-1:0]   out_vc;
  logic [2*MW-1:0]   out_data;
  logic [2*NumVcs-1:0] in_credit;
  logic [1:0]        inj_ready, ej_valid, error, empty;
  logic [2*MW-1:0]   ej_data, inj_data;

  for (genvar n = 0; n < 2; n++) begin : gen_node
    localparam int unsigned M = 1 - n;   // the other node
    // Dimension-order route: own id -> eject (P), the other node -> port 0.
    logic [N*RW-1:0] route;
    assign route[n*RW +: RW] = RW'(P);
    assign route[M*RW +: RW] = RW'(0);
    logic [N*P-1:0] minimal;
    assign minimal = N'(1) << M;
    assign inj_data[n*MW +: MW] = {IW'(n), inj_dst_i[n], inj_payload_i[n*PW +: PW]};
    totex_router_dyn #(
      .NumPorts(P), .N(N), .PW(PW), .NumVcs(NumVcs), .AdaptiveVcs(AdaptiveVcs), .Depth(Depth)
    ) u_router (
      .clk_i, .rst_ni,
      .node_id_i     (IW'(n)),
      .connected_i   ('1),
      .route_table_i (route),
      .minimal_i     (minimal),
      .port_dim_i    ('0),
      .dateline_i    ('0),
      .clear_i       (1'b0),
      .in_valid_i    (out_valid[M]),
      .in_vc_i       (out_vc[M*VW +: VW]),
      .in_data_i     (out_data[M*MW +: MW]),
      .in_credit_o   (in_credit[n*NumVcs +: NumVcs]),
      .out_valid_o   (out_valid[n]),
      .out_vc_o      (out_vc[n*VW +: VW]),
      .out_data_o    (out_data[n*MW +: MW]),
      .out_credit_i  (in_credit[M*NumVcs +: NumVcs]),
      .inj_valid_i   (inj_valid_i[n]),
      .inj_data_i    (inj_data[n*MW +: MW]),
      .inj_ready_o   (inj_ready[n]),
      .ej_valid_o    (ej_valid[n]),
      .ej_data_o     (ej_data[n*MW +: MW]),
      .error_o       (error[n]),
      .empty_o       (empty[n])
    );
  end

  // Shadow state kept from the interfaces only.
  logic [7:0] occ_q [2*NumVcs];          // sender's view of the downstream VC FIFO, link n VC v
  logic [7:0] injected_q, ejected_q, quiet_q;
  logic       tag_in_q, tag_out_q;
  logic [MW-1:0] tag_msg_q;
  logic [1:0] inj_fire;
  assign inj_fire = inj_valid_i & inj_ready;

  // At most one tagged injection in a trace.
  always_comb begin
    for (int unsigned n = 0; n < 2; n++) begin
      if (inj_fire[n] && inj_payload_i[n*PW + PW - 1]) assume (!tag_in_q && !(n == 1 && inj_fire[0] && inj_payload_i[PW - 1]));
    end
  end

  always_ff @(posedge clk_i) begin
    if (first) begin
      for (int unsigned c = 0; c < 2 * NumVcs; c++) occ_q[c] <= '0;
      injected_q <= '0;
      ejected_q  <= '0;
      quiet_q    <= '0;
      tag_in_q   <= 1'b0;
      tag_out_q  <= 1'b0;
    end else begin
      for (int unsigned n = 0; n < 2; n++) begin
        for (int unsigned v = 0; v < NumVcs; v++) begin
          // Link n's downstream is node 1-n; its credits come back on in_credit of node 1-n.
          occ_q[n*NumVcs + v] <= occ_q[n*NumVcs + v]
                               + 8'(out_valid[n] && 32'(out_vc[n*VW +: VW]) == v)
                               - 8'(in_credit[(1-n)*NumVcs + v]);
        end
        if (inj_fire[n] && inj_payload_i[n*PW + PW - 1]) begin
          tag_in_q  <= 1'b1;
          tag_msg_q <= inj_data[n*MW +: MW];
        end
        if (ej_valid[n] && ej_data[n*MW + PW - 1]) tag_out_q <= 1'b1;
      end
      injected_q <= injected_q + 8'(inj_fire[0]) + 8'(inj_fire[1]);
      ejected_q  <= ejected_q + 8'(ej_valid[0]) + 8'(ej_valid[1]);
      quiet_q    <= (inj_fire != '0) ? '0 : (quiet_q == 8'hff ? quiet_q : quiet_q + 1'b1);
    end
  end

  always_ff @(posedge clk_i) begin
    if (!first) begin
      assert (error == '0);
      for (int unsigned c = 0; c < 2 * NumVcs; c++) assert (32'(occ_q[c]) <= Depth);
      for (int unsigned n = 0; n < 2; n++) begin
        if (out_valid[n]) begin
          assert (32'(out_vc[n*VW +: VW]) < NumVcs);
          // A flit goes out only with a credit: the downstream FIFO has a free slot.
          assert (32'(occ_q[n*NumVcs + 32'(out_vc[n*VW +: VW])]) < Depth);
        end
        if (ej_valid[n]) begin
          assert (32'(ej_data[n*MW + PW +: IW]) == n);       // delivered at its destination
          if (ej_data[n*MW + PW - 1]) begin                  // the tagged message
            assert (tag_in_q && !tag_out_q);                  // injected before, ejected once
            assert (ej_data[n*MW +: MW] == tag_msg_q);        // source and payload intact
          end
        end
      end
      assert (ejected_q <= injected_q);
      // Buffers: 2 inject FIFOs + 2 links x NumVcs VC FIFOs, Depth each.
      assert (32'(8'(injected_q - ejected_q)) <= (2 + 2 * NumVcs) * Depth);
      if (32'(quiet_q) >= Quiet) assert (injected_q == ejected_q);
      // empty_o: no FIFO holds a flit exactly when every message injected before this cycle has
      // been ejected (a flit on a link is still its upstream FIFO's head).
      assert ((empty == 2'b11) == (injected_q == ejected_q));
    end
  end

  // Non-vacuity: a tagged message makes it through (yosys-smtbmc -c).
  always_ff @(posedge clk_i) cover (tag_out_q && quiet_q >= 8'(Quiet));

endmodule
