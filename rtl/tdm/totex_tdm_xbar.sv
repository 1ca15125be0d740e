// SPDX-License-Identifier: Apache-2.0
/// Reference floor of the TDM tile (docs/tdm-tile.md): a bare registered (NumPorts+1)-port
/// crossbar of (PayloadW+1)-bit ports (valid + payload) driven by a Depth-slot table in block RAM.
/// The table is read one slot ahead (the block-RAM read register), its select fields are decoded
/// to one-hot selects into registers, and the outputs are registered: what the tile's router does,
/// without the NIC, the lookups and the checks. Not a functional node: for resources and timing.
///
/// Entry (one per slot): for each output o = 0..NumPorts, SelW bits: 0 idle, 1+i forward input i.
/// Slots advance while run_i is high and wrap after period_last_i (slot counter as in the tile);
/// the first cycle after reset loads the counter (the slot alignment is not part of this timing
/// reference's contract).
`default_nettype none

module totex_tdm_xbar #(
  /// Neighbour links P; the crossbar has P+1 ports (the last is the local port).
  parameter int unsigned NumPorts = 32'd4,
  /// Payload bits W of a flit (ports are W+1 bits wide with the valid bit).
  parameter int unsigned PayloadW = 32'd32,
  /// Slots the table holds.
  parameter int unsigned Depth = 32'd128,
  /// Bits of a select field; do not overwrite.
  localparam int unsigned SelW = totex_tdm_pkg::sel_width(NumPorts),
  /// Bits of a table entry; do not overwrite.
  localparam int unsigned EntryW = (NumPorts + 32'd1) * SelW,
  /// Bits of a slot number; do not overwrite.
  localparam int unsigned SlotW = totex_pkg::idx_width(Depth)
) (
  /// Clock, rising edge.
  input  logic                                 clk_i,
  /// Asynchronous active-low reset (control state only).
  input  logic                                 rst_ni,
  /// Input port valid, port i (i == NumPorts: local).
  input  logic [NumPorts:0]                    in_valid_i,
  /// Input port data, port i at in_data_i[i*PayloadW +: PayloadW].
  input  logic [(NumPorts+1)*PayloadW-1:0]     in_data_i,
  /// Output port valid (registered).
  output logic [NumPorts:0]                    out_valid_o,
  /// Output port data (registered).
  output logic [(NumPorts+1)*PayloadW-1:0]     out_data_o,
  /// Table write enable.
  input  logic                                 tbl_we_i,
  /// Table write address.
  input  logic [SlotW-1:0]                     tbl_addr_i,
  /// Table write data.
  input  logic [EntryW-1:0]                    tbl_data_i,
  /// Slots execute while high.
  input  logic                                 run_i,
  /// Period minus one.
  input  logic [SlotW-1:0]                     period_last_i
);

  localparam int unsigned Q = NumPorts + 32'd1;
  localparam int unsigned W = PayloadW;

  // The tile's slot counter: f_q the slot read next.
  logic [SlotW-1:0]  f_q;
  logic [EntryW-1:0] rdata;
  logic              rd_en, started_q;
  assign rd_en = run_i | ~started_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) started_q <= 1'b0;
    else         started_q <= 1'b1;
  end
  // Waiver: the crossbar has no shadow bank; the last-slot flag is not used.
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_last;
  /* verilator lint_on UNUSEDSIGNAL */
  totex_tdm_slot_counter #(.SlotW(SlotW)) u_slot (
    .clk_i,
    .load_i       (~started_q),
    .step_i       (rd_en),
    .period_last_i,
    .slot_o       (f_q),
    .last_o       (unused_last)
  );

  totex_tdm_ram #(.Depth(Depth), .Width(EntryW)) u_table (
    .clk_i,
    .we_i   (tbl_we_i),
    .waddr_i(tbl_addr_i),
    .wdata_i(tbl_data_i),
    .re_i   (rd_en),
    .raddr_i(f_q),
    .rdata_o(rdata)
  );

  // One-hot selects decoded from the block-RAM output into registers.
  logic [Q*Q-1:0] sel_d, sel_q;
  always_comb begin
    for (int unsigned o = 0; o < Q; o++) begin
      for (int unsigned i = 0; i < Q; i++) begin
        sel_d[o*Q + i] = (rdata[o*SelW +: SelW] == SelW'(i + 32'd1));
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)    sel_q <= '0;
    else if (run_i) sel_q <= sel_d;
  end

  // AND-OR selects as a two-level tree (pairs of sources, then one OR), as in the tile.
  localparam int unsigned G = (Q + 32'd1) / 32'd2;
  logic [Q-1:0]     ov_d, ov_q;
  logic [Q*W-1:0]   od_d, od_q;
  logic [Q*G-1:0]   ov_t;
  logic [Q*G*W-1:0] od_t;
  always_comb begin
    for (int unsigned o = 0; o < Q; o++) begin
      for (int unsigned g = 0; g < G; g++) begin
        ov_t[o*G + g]          = 1'b0;
        od_t[(o*G + g)*W +: W] = '0;
        for (int unsigned k = 2 * g; k < 2 * g + 2; k++) begin
          if (k < Q) begin
            ov_t[o*G + g]          = ov_t[o*G + g] | (sel_q[o*Q + k] & in_valid_i[k]);
            od_t[(o*G + g)*W +: W] = od_t[(o*G + g)*W +: W] | ({W{sel_q[o*Q + k]}} & in_data_i[k*W +: W]);
          end
        end
      end
      ov_d[o]        = |ov_t[o*G +: G];
      od_d[o*W +: W] = '0;
      for (int unsigned g = 0; g < G; g++) od_d[o*W +: W] = od_d[o*W +: W] | od_t[(o*G + g)*W +: W];
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)    ov_q <= '0;
    else if (run_i) ov_q <= ov_d;
  end
  always_ff @(posedge clk_i) begin
    if (run_i) od_q <= od_d;
  end
  assign out_valid_o = ov_q;
  assign out_data_o  = od_q;

endmodule
