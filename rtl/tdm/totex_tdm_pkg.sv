// SPDX-License-Identifier: Apache-2.0
/// Widths of the TDM tiles (rtl/tdm/totex_tdm_tile.sv, totex_tdm_allport_tile.sv,
/// totex_tdm_single_tile.sv, all three built on totex_tdm_shell.sv; docs/tdm-tile.md): the tile
/// kinds, the slot-table entry layouts, the priming time and the I/O layout of the pin-light
/// synthesis wrapper (rtl/synth/totex_synth_tdm.sv). Elaboration-time functions only (Yosys 0.23
/// subset: functions assign to their own name).
`default_nettype none

package totex_tdm_pkg;

  /// Enable loads per copy of the slot pipeline's advance enable (totex_tdm_slot_pipe adv_o):
  /// nextpnr promotes an enable net of more than 15 loads to a global buffer.
  localparam int unsigned ADV_LOADS = 32'd14;

  /// Tile kinds: the nic, all-port and single-port tiles, and the reference crossbar
  /// (totex_tdm_xbar; the synthesis wrapper's Kind only).
  localparam int unsigned KIND_NIC     = 32'd0;
  localparam int unsigned KIND_ALLPORT = 32'd1;
  localparam int unsigned KIND_SINGLE  = 32'd2;
  localparam int unsigned KIND_XBAR    = 32'd3;

  /// What a single-port entry's send takes (send source field) and does with the received flit
  /// (receive action field; 0: forwarded by this slot's send, or nothing received).
  localparam logic [1:0] SRC_INJECT = 2'd0;
  localparam logic [1:0] SRC_RECEIVED = 2'd1;
  localparam logic [1:0] SRC_BUFFER = 2'd2;
  localparam logic [1:0] ACT_EJECT = 2'd1;
  localparam logic [1:0] ACT_STORE = 2'd2;

  /// NIC lanes of a tile kind, each with its own s_axis and m_axis stream (the all-port tile: one
  /// per link; the crossbar: its one local link).
  function automatic int unsigned lanes(input int unsigned kind, input int unsigned num_ports);
    lanes = (kind == KIND_ALLPORT) ? num_ports : 32'd1;
  endfunction

  /// Bits of one select field: 0 idle, 1+i input link i (i < P), P+1 local inject.
  function automatic int unsigned sel_width(input int unsigned num_ports);
    sel_width = totex_pkg::idx_width(num_ports + 32'd2);
  endfunction

  /// The advance enable's copies of totex_tdm_router's registers (ADV_LOADS enables each): the
  /// P+1 one-hot selects of an output share a copy (they drive the same output's data LUTs), as
  /// many whole outputs per copy as fit; the P eject flags fill the last one, then copies of their
  /// own. router_sel_copy: output o's copy; router_ej_copy: eject flag i's; router_copies: how many.
  function automatic int unsigned router_outs_per_copy(input int unsigned num_ports);
    router_outs_per_copy = (ADV_LOADS >= num_ports + 32'd1) ? ADV_LOADS / (num_ports + 32'd1)
                                                            : 32'd1;
  endfunction
  function automatic int unsigned router_sel_copy(input int unsigned num_ports,
                                                  input int unsigned o);
    router_sel_copy = o / router_outs_per_copy(num_ports);
  endfunction
  function automatic int unsigned router_ej_copy(input int unsigned num_ports,
                                                 input int unsigned i);
    int unsigned last, room;
    last = router_sel_copy(num_ports, num_ports - 32'd1);
    room = ADV_LOADS - (num_ports - last * router_outs_per_copy(num_ports)) * (num_ports + 32'd1);
    if (room > ADV_LOADS) room = 32'd0;   // one output's selects exceed a copy (P >= 14)
    router_ej_copy = (i < room) ? last : last + 32'd1 + (i - room) / ADV_LOADS;
  endfunction
  function automatic int unsigned router_copies(input int unsigned num_ports);
    router_copies = router_ej_copy(num_ports, num_ports - 32'd1) + 32'd1;
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

  /// Bits a tile's entry adds at its top with a NIC queue (QueueDepth > 1, multi-flit traffic):
  /// the ejects' last-flit flags (m_axis_tlast), one per m_axis lane (the all-port tile's P, one
  /// on the nic and single-port tiles; none on the crossbar). 0 otherwise: the entry is unchanged.
  function automatic int unsigned last_width(input int unsigned kind,
                                             input int unsigned num_ports,
                                             input int unsigned queue_depth);
    if (queue_depth <= 32'd1 || kind == KIND_XBAR) last_width = 32'd0;
    else last_width = (kind == KIND_ALLPORT) ? num_ports : 32'd1;
  endfunction

  /// Bits of one entry of a tile kind (buf_w: bits of a relay buffer word number, single-port only;
  /// the crossbar's entry: P output selects and the local output's select).
  function automatic int unsigned kind_entry_width(input int unsigned kind,
                                                   input int unsigned num_ports,
                                                   input int unsigned node_w,
                                                   input int unsigned buf_w);
    case (kind)
      KIND_ALLPORT: kind_entry_width = allport_entry_width(num_ports, node_w);
      KIND_SINGLE:  kind_entry_width = single_entry_width(num_ports, node_w, buf_w);
      KIND_XBAR:    kind_entry_width = (num_ports + 32'd1) * sel_width(num_ports);
      default:      kind_entry_width = entry_width(num_ports, node_w);
    endcase
  endfunction

  /// Lowest bit of lane 0's inject destination in an entry of a tile kind (lane l's at + l*node_w):
  /// after the selects (nic), after the selects and the eject mask (all-port), after the send
  /// port, send source and send buffer word (single-port).
  function automatic int unsigned inj_dst_lsb(input int unsigned kind,
                                              input int unsigned num_ports,
                                              input int unsigned buf_w);
    case (kind)
      KIND_ALLPORT: inj_dst_lsb = num_ports * sel_width(num_ports) + num_ports;
      KIND_SINGLE:  inj_dst_lsb = sel_width(num_ports) + 32'd2 + buf_w;
      default:      inj_dst_lsb = (num_ports + 32'd1) * sel_width(num_ports);
    endcase
  endfunction

  /// Lowest bit of lane 0's eject source (lane l's at + l*node_w): the last field of every entry.
  function automatic int unsigned ej_src_lsb(input int unsigned kind,
                                             input int unsigned num_ports,
                                             input int unsigned node_w,
                                             input int unsigned buf_w);
    ej_src_lsb = kind_entry_width(kind, num_ports, node_w, buf_w) - lanes(kind, num_ports) * node_w;
  endfunction

  /// The pin-light synthesis wrapper's serial I/O (rtl/synth/totex_synth_tdm.sv), from bit 0 up.
  /// In: per lane {s_axis_tdest, s_axis_tdata, s_axis_tvalid} (the crossbar: its local input link
  /// {data, valid}), per lane m_axis_tready (not the crossbar), the table write port {tbl_data_i,
  /// tbl_addr_i, tbl_we_i}, {period_last_i, run_i}. Out: per lane {m_axis_tid, m_axis_tdata,
  /// m_axis_tvalid} (the crossbar: its local output link {data, valid}), per lane s_axis_tready,
  /// missed_o, error_o (not the crossbar).
  /// Bits of one lane's stream in either direction: valid, payload, node id (not the crossbar).
  function automatic int unsigned io_lane_width(input int unsigned kind,
                                                input int unsigned payload_w,
                                                input int unsigned node_w);
    io_lane_width = 32'd1 + payload_w + ((kind == KIND_XBAR) ? 32'd0 : node_w);
  endfunction

  /// Lowest bit of the per-lane ready bits (m_axis_tready in, s_axis_tready out).
  function automatic int unsigned io_ready_lsb(input int unsigned kind,
                                               input int unsigned num_ports,
                                               input int unsigned payload_w,
                                               input int unsigned node_w);
    io_ready_lsb = lanes(kind, num_ports) * io_lane_width(kind, payload_w, node_w);
  endfunction

  /// Lowest bit of the table write port in the serial input (after the ready bits).
  function automatic int unsigned io_table_lsb(input int unsigned kind,
                                               input int unsigned num_ports,
                                               input int unsigned payload_w,
                                               input int unsigned node_w);
    io_table_lsb = io_ready_lsb(kind, num_ports, payload_w, node_w)
                 + ((kind == KIND_XBAR) ? 32'd0 : lanes(kind, num_ports));
  endfunction

  /// Lowest bit of run_i in the serial input (after the table write port; period_last_i above).
  function automatic int unsigned io_run_lsb(input int unsigned kind,
                                             input int unsigned num_ports,
                                             input int unsigned payload_w,
                                             input int unsigned node_w,
                                             input int unsigned slot_w,
                                             input int unsigned entry_w);
    io_run_lsb = io_table_lsb(kind, num_ports, payload_w, node_w) + 32'd1 + slot_w + entry_w;
  endfunction

  /// Bits of the serial input.
  function automatic int unsigned io_in_width(input int unsigned kind,
                                              input int unsigned num_ports,
                                              input int unsigned payload_w,
                                              input int unsigned node_w,
                                              input int unsigned slot_w,
                                              input int unsigned entry_w);
    io_in_width = io_run_lsb(kind, num_ports, payload_w, node_w, slot_w, entry_w) + 32'd1 + slot_w;
  endfunction

  /// Bits of the serial output.
  function automatic int unsigned io_out_width(input int unsigned kind,
                                               input int unsigned num_ports,
                                               input int unsigned payload_w,
                                               input int unsigned node_w,
                                               input int unsigned miss_w);
    io_out_width = io_table_lsb(kind, num_ports, payload_w, node_w)
                 + ((kind == KIND_XBAR) ? 32'd0 : miss_w + 32'd1);
  endfunction

  /// Cycles run_i must stay low after reset release or a table write: 2**NodeW load cycles
  /// (after reset they overlap the sweep that clears the NIC's toggle bits in block RAM, one per
  /// cycle), then four priming advances: the table read, the pre-entry register, the entry
  /// register (with the toggle-bit reads) and the decision (execute) register.
  function automatic int unsigned prime_cycles(input int unsigned node_w);
    prime_cycles = (32'd1 << node_w) + 32'd4;
  endfunction

endpackage
