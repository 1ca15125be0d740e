// SPDX-License-Identifier: Apache-2.0
/// The nic tile's datapath around its shell (docs/tdm-tile.md, "Structure"): the router
/// (totex_tdm_router, every output's inject source the one NIC lane) driven by the decided entry's
/// output selects and eject select, and the eject mux in front of m_axis. One copy for the two nic
/// tiles: totex_tdm_tile and totex_tdm_ctl_tile (the nic tile with its control port).
`default_nettype none

module totex_tdm_nic_route #(
  /// Neighbour links P (inputs and outputs), >= 1.
  parameter int unsigned NumPorts = 32'd4,
  /// Payload bits W of a flit.
  parameter int unsigned PayloadW = 32'd32,
  /// 1 (the ctl tile): the eject mux's pair terms are kept nets, so that the mux is two LUT levels
  /// for every bit (ABC otherwise chains half the bits through three; a ctl tile UP5K critical
  /// path). 0 (the nic tile): ABC's mapping as measured in the nic tile's rounds.
  parameter bit KeepTerms = 1'b0,
  /// Bits of a select field; do not overwrite.
  localparam int unsigned SelW = totex_tdm_pkg::sel_width(NumPorts),
  /// Copies of the advance enable (totex_tdm_pkg::router_copies); do not overwrite.
  localparam int unsigned Copies = totex_tdm_pkg::router_copies(NumPorts)
) (
  /// Clock, rising edge.
  input  logic                         clk_i,
  /// Asynchronous active-low reset.
  input  logic                         rst_ni,
  /// The shell's advance enables and run input.
  input  logic [Copies-1:0]            adv_i,
  input  logic                         run_i,
  /// The decided entry's P output selects and its eject select (the entry's low (P+1)*SelW
  /// bits), and whether it is valid.
  input  logic [(NumPorts+1)*SelW-1:0] ent_sel_i,
  input  logic                         entv_i,
  /// The input links.
  input  logic [NumPorts-1:0]          in_valid_i,
  input  logic [NumPorts*PayloadW-1:0] in_data_i,
  /// The NIC lane's message goes out in the executing slot, and its payload.
  input  logic                         inj_valid_i,
  input  logic [PayloadW-1:0]          inj_data_i,
  /// Next values of the output links.
  output logic [NumPorts-1:0]          out_valid_d_o,
  output logic [NumPorts*PayloadW-1:0] out_data_d_o,
  /// Next value of m_axis: the ejected flit.
  output logic                         m_valid_d_o,
  output logic [PayloadW-1:0]          m_data_d_o,
  /// Per input link: a flit on it that nothing takes.
  output logic [NumPorts-1:0]          left_o
);

  localparam int unsigned P = NumPorts;
  localparam int unsigned W = PayloadW;
  localparam int unsigned EjLsb = P * SelW;   // the eject select, after the output selects

  // The router: every output's inject source is the one lane.
  logic [P-1:0] ent_ej, ej_q;
  always_comb begin
    for (int unsigned i = 0; i < P; i++) ent_ej[i] = ent_sel_i[EjLsb +: SelW] == SelW'(i + 32'd1);
  end
  totex_tdm_router #(.NumPorts(P), .PayloadW(W)) u_router (
    .clk_i, .rst_ni, .adv_i, .run_i, .ent_sel_i(ent_sel_i[EjLsb-1:0]), .entv_i,
    .ent_ej_i(ent_ej), .in_valid_i, .in_data_i, .inj_valid_i({P{inj_valid_i}}),
    .inj_data_i({P{inj_data_i}}), .ej_q_o(ej_q), .out_valid_d_o, .out_data_d_o, .left_o
  );

  // Eject mux in front of m_axis: the one-hot eject flags AND-OR the input links, in pairs then
  // one OR (two LUT levels, as the crossbar).
  localparam int unsigned G = (P + 32'd1) / 32'd2;
  logic [G-1:0]   ej_pair_valid;
  logic [G*W-1:0] ej_pair_data;
  always_comb begin
    for (int unsigned g = 0; g < G; g++) begin
      ej_pair_valid[g]        = 1'b0;
      ej_pair_data[g*W +: W]  = '0;
      for (int unsigned k = 2 * g; k < 2 * g + 2; k++) begin
        if (k < P) begin
          ej_pair_valid[g]       = ej_pair_valid[g] | (ej_q[k] & in_valid_i[k]);
          ej_pair_data[g*W +: W] = ej_pair_data[g*W +: W] | ({W{ej_q[k]}} & in_data_i[k*W +: W]);
        end
      end
    end
  end
  if (KeepTerms) begin : gen_kept_pairs
    (* keep *) logic [G-1:0]   kept_valid;
    (* keep *) logic [G*W-1:0] kept_data;
    assign kept_valid = ej_pair_valid;
    assign kept_data  = ej_pair_data;
    always_comb begin
      m_valid_d_o = |kept_valid;
      m_data_d_o  = '0;
      for (int unsigned g = 0; g < G; g++) m_data_d_o = m_data_d_o | kept_data[g*W +: W];
    end
  end else begin : gen_free_pairs
    always_comb begin
      m_valid_d_o = |ej_pair_valid;
      m_data_d_o  = '0;
      for (int unsigned g = 0; g < G; g++) m_data_d_o = m_data_d_o | ej_pair_data[g*W +: W];
    end
  end

endmodule
