// SPDX-License-Identifier: Apache-2.0
/// Widths of the TDM tiles (rtl/tdm/totex_tdm_tile.sv, totex_tdm_allport_tile.sv,
/// totex_tdm_single_tile.sv; docs/tdm-tile.md): the slot-table entry
/// layout and the priming time. Elaboration-time functions only
/// (Yosys 0.23 subset: functions assign to their own name).
`default_nettype none

package totex_tdm_pkg;

  /// Enable loads per copy of the slot pipeline's advance enable (totex_tdm_slot_pipe adv_o):
  /// nextpnr promotes an enable net of more than 15 loads to a global buffer.
  localparam int unsigned ADV_LOADS = 32'd14;

  /// Bits of one select field: 0 idle, 1+i input link i (i < P), P+1 local inject.
  function automatic int unsigned sel_width(input int unsigned num_ports);
    sel_width = totex_pkg::idx_width(num_ports + 32'd2);
  endfunction

  /// Bits of one table entry: P output selects, the eject select, inject_dst, eject_src.
  function automatic int unsigned entry_width(input int unsigned num_ports,
                                              input int unsigned node_w);
    entry_width = (num_ports + 32'd1) * sel_width(num_ports) + 32'd2 * node_w;
  endfunction

  /// Bits of one all-port table entry (totex_tdm_allport_tile): P output selects, the P-bit eject
  /// mask, P inject destinations (one per output link), P eject sources (one per input link).
  function automatic int unsigned allport_entry_width(input int unsigned num_ports,
                                                      input int unsigned node_w);
    allport_entry_width = num_ports * sel_width(num_ports) + num_ports + 32'd2 * num_ports * node_w;
  endfunction

  /// Bits of one single-port table entry (totex_tdm_single_tile): send port, send source (2),
  /// send buffer word, inject_dst, receive port, receive action (2), receive buffer word,
  /// eject_src.
  function automatic int unsigned single_entry_width(input int unsigned num_ports,
                                                     input int unsigned node_w,
                                                     input int unsigned buf_w);
    single_entry_width = 32'd2 * sel_width(num_ports) + 32'd4 + 32'd2 * buf_w + 32'd2 * node_w;
  endfunction

  /// Register stages of the valid-bit lookups of the first tile version (before 2026-11-25 21 UTC:
  /// ceil(NodeW/2)); the tile no longer has them. Kept for users that size margins with it.
  function automatic int unsigned lookup_stages(input int unsigned node_w);
    lookup_stages = (node_w + 32'd1) / 32'd2;
  endfunction

  /// Cycles run_i must stay low after reset release or a table write: 2**NodeW load cycles
  /// (after reset they overlap the sweep that clears the NIC's toggle bits in block RAM, one per
  /// cycle), then four priming advances: the table read, the pre-entry register, the entry
  /// register (with the toggle-bit reads) and the decision (execute) register.
  function automatic int unsigned prime_cycles(input int unsigned node_w);
    prime_cycles = (32'd1 << node_w) + 32'd4;
  endfunction

endpackage
