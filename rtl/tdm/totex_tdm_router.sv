// SPDX-License-Identifier: Apache-2.0
/// The router of the nic and all-port TDM tiles (totex_tdm_tile, totex_tdm_allport_tile;
/// docs/tdm-tile.md): the one-hot selects of the slot executing next, registered from the decided
/// entry (ent_i), and the next values of the registered crossbar that the tile's shell
/// (totex_tdm_shell) loads: output link o forwards input link i or injects lane o's message
/// (inj_*_i: the nic tile gives its one lane to every output), and which input links hold a flit
/// that nothing takes. The ejection is the tile's (an m_axis mux on the nic tile, a lane per link
/// on the all-port tile): ej_q_o is its one-hot eject flags, registered here with the selects.
`default_nettype none

module totex_tdm_router #(
  /// Neighbour links P, >= 1.
  parameter int unsigned NumPorts = 32'd4,
  /// Payload bits W of a flit.
  parameter int unsigned PayloadW = 32'd32,
  /// Copies of the advance enable for the select registers (totex_tdm_pkg::ADV_LOADS each);
  /// do not overwrite.
  localparam int unsigned Copies = totex_tdm_pkg::router_copies(NumPorts),
  /// Bits of a select field; do not overwrite.
  localparam int unsigned SelW = totex_tdm_pkg::sel_width(NumPorts)
) (
  /// Clock, rising edge.
  input  logic                         clk_i,
  /// Asynchronous active-low reset.
  input  logic                         rst_ni,
  /// The slot pipeline moves at this edge (copies of totex_tdm_slot_pipe adv_o).
  input  logic [Copies-1:0]            adv_i,
  /// Slots execute while high.
  input  logic                         run_i,
  /// The decided entry's output selects (0 idle, 1+i input link i, P+1 inject), output o at
  /// ent_sel_i[o*SelW +: SelW], and whether the entry register holds an entry.
  input  logic [NumPorts*SelW-1:0]     ent_sel_i,
  input  logic                         entv_i,
  /// The decided entry's eject flags, one-hot per input link (decoded by the tile).
  input  logic [NumPorts-1:0]          ent_ej_i,
  /// The input links.
  input  logic [NumPorts-1:0]          in_valid_i,
  input  logic [NumPorts*PayloadW-1:0] in_data_i,
  /// The message of output o's inject lane goes out in the executing slot, and its payload.
  input  logic [NumPorts-1:0]          inj_valid_i,
  input  logic [NumPorts*PayloadW-1:0] inj_data_i,
  /// The executing slot's eject flags (registered).
  output logic [NumPorts-1:0]          ej_q_o,
  /// Next values of the output links.
  output logic [NumPorts-1:0]          out_valid_d_o,
  output logic [NumPorts*PayloadW-1:0] out_data_d_o,
  /// Per input link: a flit on it that no output and no ejection takes (with run_i).
  output logic [NumPorts-1:0]          left_o
);

  localparam int unsigned P = NumPorts;
  localparam int unsigned W = PayloadW;

  // Execute registers: sel_q[o*(P+1) + i] (i < P forward input i, i == P inject), an output's on
  // one copy of the advance enable, and the eject flags (totex_tdm_pkg::router_*_copy).
  logic [P*(P+1)-1:0] sel_d, sel_q;
  logic [P-1:0]       ej_d, ej_q;
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      for (int unsigned i = 0; i < P + 1; i++) begin
        sel_d[o*(P+1) + i] = entv_i && (ent_sel_i[o*SelW +: SelW] == SelW'(i + 32'd1));
      end
    end
    ej_d = {P{entv_i}} & ent_ej_i;
  end
  for (genvar o = 0; o < P; o++) begin : gen_sel
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) sel_q[o*(P+1) +: P+1] <= '0;
      else if (adv_i[totex_tdm_pkg::router_sel_copy(P, o)]) begin
        sel_q[o*(P+1) +: P+1] <= sel_d[o*(P+1) +: P+1];
      end
    end
  end
  for (genvar i = 0; i < P; i++) begin : gen_ej
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) ej_q[i] <= 1'b0;
      else if (adv_i[totex_tdm_pkg::router_ej_copy(P, i)]) ej_q[i] <= ej_d[i];
    end
  end
  assign ej_q_o = ej_q;

  // Crossbar: AND-OR of the one-hot selects written as a two-level tree (pairs of forwarded
  // inputs, then one OR with the injected payload), which is what LUT4 mapping needs to stay at
  // two levels; a sequential OR chain maps one level deeper. The pairs are kept (keep: LUT outputs
  // of their own) so that the send buffer's block-RAM output, late, passes one LUT only (P <= 4:
  // two pairs + select + data).
  localparam int unsigned G = (P + 32'd1) / 32'd2;  // pairs of the P forwarded inputs of an output
  (* keep *) logic [P*G-1:0]   pair_valid;
  (* keep *) logic [P*G*W-1:0] pair_data;
  always_comb begin
    for (int unsigned o = 0; o < P; o++) begin
      for (int unsigned g = 0; g < G; g++) begin
        pair_valid[o*G + g]         = 1'b0;
        pair_data[(o*G + g)*W +: W] = '0;
        for (int unsigned k = 2 * g; k < 2 * g + 2; k++) begin
          if (k < P) begin
            pair_valid[o*G + g]         = pair_valid[o*G + g]
                                        | (sel_q[o*(P+1) + k] & in_valid_i[k]);
            pair_data[(o*G + g)*W +: W] = pair_data[(o*G + g)*W +: W]
                                        | ({W{sel_q[o*(P+1) + k]}} & in_data_i[k*W +: W]);
          end
        end
      end
      out_valid_d_o[o]       = (|pair_valid[o*G +: G]) | (sel_q[o*(P+1) + P] & inj_valid_i[o]);
      out_data_d_o[o*W +: W] = {W{sel_q[o*(P+1) + P]}} & inj_data_i[o*W +: W];
      for (int unsigned g = 0; g < G; g++) begin
        out_data_d_o[o*W +: W] = out_data_d_o[o*W +: W] | pair_data[(o*G + g)*W +: W];
      end
    end
    for (int unsigned i = 0; i < P; i++) begin
      logic used;
      used = ej_q[i];
      for (int unsigned o = 0; o < P; o++) used = used | sel_q[o*(P+1) + i];
      left_o[i] = run_i & in_valid_i[i] & ~used;
    end
  end

endmodule
