// SPDX-License-Identifier: Apache-2.0
/// Slot counter of the TDM tile and of its reference crossbar (docs/tdm-tile.md): the table
/// address read next, 0 .. period_last_i, then 0 again.
///
/// Why not `slot == period_last_i`: a comparison with the period (or the borrow of a down-counter)
/// sits between the count and every count bit's input, one carry chain and a high-fanout net in
/// series. Here the wrap is a flip-flop, last_q == (left_q == 0), computed one step ahead from
/// left_q == 1 (a comparison with a constant: two LUT levels, nothing behind it), so each count bit
/// is one carry-chain LUT after flip-flops.
///
/// load_i (takes precedence): slot 0 next, the period from period_last_i. step_i: one slot on.
/// period_last_i is sampled only at a load and at each wrap; it must not change while counting,
/// nor in the cycle before a load (its zero test is registered).
`default_nettype none

module totex_tdm_slot_counter #(
  /// Bits of a slot number.
  parameter int unsigned SlotW = 32'd7
) (
  /// Clock, rising edge.
  input  logic             clk_i,
  /// Restart at slot 0.
  input  logic             load_i,
  /// Advance one slot.
  input  logic             step_i,
  /// Period minus one.
  input  logic [SlotW-1:0] period_last_i,
  /// The slot read next.
  output logic [SlotW-1:0] slot_o,
  /// slot_o is the period's last (a flip-flop): the next step wraps to slot 0.
  output logic             last_o
);

  logic [SlotW-1:0] slot_q, left_q;   // left_q: slots after slot_q in this period
  logic             last_q;           // left_q == 0: slot_q is the period's last
  logic             plz_q;            // period_last_i == 0, registered (an input's comparison)
  // last_q's next value is one LUT of three kept one-LUT parts (the wrap, and left_q == 1 as a low
  // and a high piece; up to 7 bits), so that it is two LUTs deep rather than three.
  localparam int unsigned LoW = (SlotW > 32'd4) ? 32'd4 : SlotW;
  (* keep *) logic wrap, one_lo, zero_hi;
  assign wrap   = load_i | last_q;
  assign one_lo = (left_q[LoW-1:0] == LoW'(1));
  if (SlotW > LoW) begin : gen_hi
    assign zero_hi = (left_q[SlotW-1:LoW] == '0);
  end else begin : gen_no_hi
    assign zero_hi = 1'b1;
  end
  always_ff @(posedge clk_i) begin
    plz_q <= (period_last_i == '0);
    // step_i only as the enable (off the data path; in the tile it is the run input's fan-out).
    if (load_i || step_i) begin
      if (wrap) begin
        slot_q <= '0;
        left_q <= period_last_i;
      end else begin
        slot_q <= slot_q + SlotW'(1);
        left_q <= left_q - SlotW'(1);
      end
      last_q <= wrap ? plz_q : (one_lo & zero_hi);
    end
  end
  assign slot_o = slot_q;
  assign last_o = last_q;

endmodule
