// SPDX-License-Identifier: Apache-2.0
/// Single-port TDM tile: the scheduled router with a relay buffer, the NIC, the slot counter and the
/// slot table of one node of a time-division-multiplexed all-to-all exchange under the
/// `single-port` model (docs/models.md, docs/tdm-tile.md "The single-port tile"): in one slot a
/// node sends at most one flit, on one of its links, and receives at most one; a relayed flit may
/// wait at the relay (the relay buffer) for any number of slots.
///
/// Built from the tiles' shell (totex_tdm_shell: slot pipeline, NIC lane, inject key, output
/// registers, status); this module adds the send and receive selects and the relay buffer.
/// A slot's entry (block RAM, read ahead) names the send port and what it
/// sends (the NIC's message for inject_dst, the flit received in this slot, or relay buffer word
/// send_buf), and the receive port and what happens to its flit (forwarded by this slot's send,
/// ejected to m_axis with source eject_src, or stored in relay buffer word recv_buf). One data
/// register drives every output link (one send per slot); only the send port's valid bit is set.
/// The relay buffer is block RAM with a registered write (one cycle after the receive) and a read
/// one slot ahead; a word read in the same cycle it is written, or the one cycle before, comes
/// from the bypass registers. A word is busy from the slot that stores a flit up to the slot that
/// sends it: the table may store into it again from that send's slot on (the table builder
/// allocates the words so).
///
/// Multi-flit traffic (QueueDepth >= 2; docs/tdm-tile.md, "Traffic"): the NIC lane is a queue
/// (totex_tdm_nic_queue, QueueDepth messages per destination, as on the nic tile), and the entry
/// gets a last bit at its top that marks the eject of a pair's last flit in the period
/// (m_axis_tlast). With QueueDepth 1 the tile is unchanged and m_axis_tlast is constant high.
///
/// Cycle contract: the nic tile's (docs/tdm-tile.md, "Cycle contract"; PrimeCycles =
/// totex_tdm_pkg::prime_cycles(NodeW)): s_axis, m_axis, missed_o, the table port, run_i and
/// period_last_i behave the same.
/// error_o (sticky until reset): an m_axis overrun; run_i high before priming ended; a flit on an
/// input that the slot does not receive; a table write while a decided injection is pending.
`default_nettype none

module totex_tdm_single_tile #(
  /// Neighbour links P, >= 1.
  parameter int unsigned NumPorts = 32'd4,
  /// Payload bits W of a flit.
  parameter int unsigned PayloadW = 32'd32,
  /// Bits of a node id.
  parameter int unsigned NodeW = 32'd6,
  /// Slots the table holds (the period is at most Depth).
  parameter int unsigned Depth = 32'd256,
  /// Words of the relay buffer (the most flits the node holds at once, rounded up).
  parameter int unsigned BufDepth = 32'd64,
  /// $readmemh image of the slot table; "" = none.
  parameter TableFile = "",
  /// Bits of missed_o (>= 2).
  parameter int unsigned MissW = 32'd16,
  /// 1: the NIC's toggle bits in flip-flops rather than block RAM.
  parameter bit BitsInFlops = 1'b0,
  /// Waiting messages per destination in the NIC: 1 (the default) one (totex_tdm_nic); a power of
  /// two >= 2: a queue per destination (totex_tdm_nic_queue, multi-flit traffic), and the entry
  /// gets a last bit at its top (m_axis_tlast). `totex fpga` sizes it from the schedule
  /// (docs/tdm-tile.md, "Traffic").
  parameter int unsigned QueueDepth = 32'd1,
  /// Bits of a select field; do not overwrite.
  localparam int unsigned SelW = totex_tdm_pkg::sel_width(NumPorts),
  /// Bits of a relay buffer address; do not overwrite.
  localparam int unsigned BufW = totex_pkg::idx_width(BufDepth),
  /// Bits of a table entry; do not overwrite.
  localparam int unsigned EntryW = totex_tdm_pkg::single_entry_width(NumPorts, NodeW, BufW)
                                   + totex_tdm_pkg::last_width(totex_tdm_pkg::KIND_SINGLE,
                                                               NumPorts, QueueDepth),
  /// Bits of a slot number; do not overwrite.
  localparam int unsigned SlotW = totex_pkg::idx_width(Depth)
) (
  /// Clock, rising edge.
  input  logic                         clk_i,
  /// Asynchronous active-low reset of the control state (no reset on the datapath).
  input  logic                         rst_ni,
  /// Input link valid, port i.
  input  logic [NumPorts-1:0]          in_valid_i,
  /// Input link data, port i at in_data_i[i*PayloadW +: PayloadW].
  input  logic [NumPorts*PayloadW-1:0] in_data_i,
  /// Output link valid (registered).
  output logic [NumPorts-1:0]          out_valid_o,
  /// Output link data (registered), port o at out_data_o[o*PayloadW +: PayloadW].
  output logic [NumPorts*PayloadW-1:0] out_data_o,
  /// Table write enable (while run_i is low).
  input  logic                         tbl_we_i,
  /// Table write address (slot).
  input  logic [SlotW-1:0]             tbl_addr_i,
  /// Table write data (one entry, layout in docs/tdm-tile.md).
  input  logic [EntryW-1:0]            tbl_data_i,
  /// Slots execute while high.
  input  logic                         run_i,
  /// Period minus one: the slot after period_last_i is slot 0.
  input  logic [SlotW-1:0]             period_last_i,
  /// Send offer from the core.
  input  logic                         s_axis_tvalid,
  /// Offer accepted (a flip-flop).
  output logic                         s_axis_tready,
  /// Payload.
  input  logic [PayloadW-1:0]          s_axis_tdata,
  /// Destination node.
  input  logic [NodeW-1:0]             s_axis_tdest,
  /// Received flit (one-cycle pulse).
  output logic                         m_axis_tvalid,
  /// Must be high whenever m_axis_tvalid is.
  input  logic                         m_axis_tready,
  /// Payload.
  output logic [PayloadW-1:0]          m_axis_tdata,
  /// Source node (eject_src of the slot's entry).
  output logic [NodeW-1:0]             m_axis_tid,
  /// The flit is the last of its pair's message in the period (the entry's last bit; constant
  /// high with QueueDepth 1, where every message is one flit).
  output logic                         m_axis_tlast,
  /// Slots that found no committed message (wraps).
  output logic [MissW-1:0]             missed_o,
  /// Sticky error.
  output logic                         error_o
);

  localparam int unsigned P = NumPorts;
  localparam int unsigned W = PayloadW;
  // Entry fields, from bit 0 up: send port, send source, send buffer word, inject_dst (the
  // shell's), receive port, receive action, receive buffer word, eject_src (the shell's).
  localparam int unsigned SendSrcLsb  = SelW;
  localparam int unsigned SendBufLsb  = SendSrcLsb + 32'd2;
  localparam int unsigned RecvPortLsb = totex_tdm_pkg::inj_dst_lsb(totex_tdm_pkg::KIND_SINGLE, P,
                                                                   BufW) + NodeW;
  localparam int unsigned RecvActLsb  = RecvPortLsb + SelW;
  localparam int unsigned RecvBufLsb  = RecvActLsb + 32'd2;

  // The shell's advance enables for this tile: 0 the execute selects, 1 the relay buffer's read,
  // then (from BypBase) bit by bit the bypass's three flags, the bypass word and the receive
  // buffer word.
  localparam int unsigned AdvLoads  = totex_tdm_pkg::ADV_LOADS;
  localparam int unsigned BypBase   = 32'd2;
  localparam int unsigned BypLoads  = 32'd3 + W + 32'd1 + BufW;
  localparam int unsigned Copies    = BypBase + (BypLoads + AdvLoads - 32'd1) / AdvLoads;
  // With a queue, one more copy (index Copies) for the entry's last bit.
  localparam bit          HasLast   = QueueDepth > 32'd1;
  localparam int unsigned TileCopies = Copies + (HasLast ? 32'd1 : 32'd0);
  logic [TileCopies-1:0] adv;
  logic [EntryW-1:0] ent;
  // Waiver: of the read-ahead entry only the send buffer word is used here (the bypass's address
  // matches, one advance early).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [EntryW-1:0] pre;
  /* verilator lint_on UNUSEDSIGNAL */
  logic              entv, nic_valid, m_valid_d;
  logic [W-1:0]      nic_data, send_d, rcv_d;
  // Waiver: no shadow bank in this tile (totex_tdm_ctl_tile has one): its status is unused.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [10:0] unused_swap;   // {next period (8 bits), late, armed, bank}
  /* verilator lint_on UNUSEDSIGNAL */
  logic [P-1:0]      out_valid_d, left;
  totex_tdm_shell #(.Kind(totex_tdm_pkg::KIND_SINGLE), .NumPorts(P), .PayloadW(W), .NodeW(NodeW),
                    .Depth(Depth), .BufW(BufW), .TableFile(TableFile), .MissW(MissW),
                    .BitsInFlops(BitsInFlops), .QueueDepth(QueueDepth),
                    .TileCopies(TileCopies)) u_shell (
    .*, .sh_we_i(1'b0), .sh_addr_i('0), .sh_data_i('0), .arm_i(1'b0), .arm_per_i('0),
    .swap_o(unused_swap), .adv_o(adv), .pre_o(pre), .ent_o(ent), .entv_o(entv), .inj_valid_o(nic_valid),
    .inj_data_o(nic_data), .out_valid_d_i(out_valid_d), .out_data_d_i(send_d),
    .m_valid_d_i(m_valid_d), .m_data_d_i(rcv_d), .left_i(left)
  );

  // ---------------------------------------------------------------------------------------------
  // Execute registers of the slot executing next, decoded from the entry register.
  // ---------------------------------------------------------------------------------------------
  logic [P-1:0]     send_port_q, recv_port_q;             // one-hot
  logic             send_inj_q, send_rcv_q, send_buf_q;   // what the send takes (one-hot)
  logic             recv_ej_q, recv_st_q;                 // the received flit is ejected / stored
  logic [SelW-1:0]  ent_sport, ent_rport;
  logic [1:0]       ent_ssrc, ent_ract;
  assign ent_sport = ent[0 +: SelW];
  assign ent_ssrc  = ent[SendSrcLsb +: 2];
  assign ent_rport = ent[RecvPortLsb +: SelW];
  assign ent_ract  = ent[RecvActLsb +: 2];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      send_port_q <= '0;
      recv_port_q <= '0;
      send_inj_q  <= 1'b0;
      send_rcv_q  <= 1'b0;
      send_buf_q  <= 1'b0;
      recv_ej_q   <= 1'b0;
      recv_st_q   <= 1'b0;
    end else if (adv[0]) begin
      for (int unsigned o = 0; o < P; o++) begin
        send_port_q[o] <= entv && (ent_sport == SelW'(o + 32'd1));
        recv_port_q[o] <= entv && (ent_rport == SelW'(o + 32'd1));
      end
      send_inj_q <= entv && (ent_ssrc == totex_tdm_pkg::SRC_INJECT);
      send_rcv_q <= entv && (ent_ssrc == totex_tdm_pkg::SRC_RECEIVED);
      send_buf_q <= entv && (ent_ssrc == totex_tdm_pkg::SRC_BUFFER);
      recv_ej_q  <= entv && (ent_ract == totex_tdm_pkg::ACT_EJECT);
      recv_st_q  <= entv && (ent_ract == totex_tdm_pkg::ACT_STORE);
    end
  end

  // Receive: the selected input link (AND-OR of the one-hot select); the eject register is the
  // shell's.
  logic rcv_v;
  always_comb begin
    rcv_v = 1'b0;
    rcv_d = '0;
    for (int unsigned i = 0; i < P; i++) begin
      rcv_v   = rcv_v | (recv_port_q[i] & in_valid_i[i]);
      rcv_d   = rcv_d | ({W{recv_port_q[i]}} & in_data_i[i*W +: W]);
      left[i] = run_i & in_valid_i[i] & ~recv_port_q[i];
    end
  end
  assign m_valid_d = recv_ej_q & rcv_v;

  // ---------------------------------------------------------------------------------------------
  // Relay buffer: {valid, payload} words. The received flit is registered (recv_q) and written one
  // cycle later (buf_we_q, at buf_waddr_q). The send's word is read when the slot pipeline moves,
  // at the entry's send_buf; a write at that edge or a flit captured at that edge for the next
  // write is taken from the bypass register instead of the block RAM, which would return the old
  // word.
  // ---------------------------------------------------------------------------------------------
  logic [W:0]      recv_q, byp_q, buf_rdata, buf_word;
  logic            buf_we_q, byp_use_q, byp_wr_q, byp_rcv_q;
  logic [BufW-1:0] recv_buf_q, buf_waddr_q, ent_sbuf, pre_sbuf;
  assign ent_sbuf = ent[SendBufLsb +: BufW];
  assign pre_sbuf = pre[SendBufLsb +: BufW];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) buf_we_q <= 1'b0;
    else         buf_we_q <= run_i & recv_st_q;
  end
  // At the edge that reads slot s's word: the word may be written at that edge (recv_q, stored by
  // slot s-2: buf_we_q & byp_wr_q) or stored next by slot s-1, whose flit is captured at that edge
  // (byp_rcv_q; newer: it wins). Both address matches are registered one advance earlier (slot s's
  // send_buf is pre's then), and the bypass word is chosen at the read, so that the block RAM's
  // output passes one 2:1 mux. With pauses the write of slot s-2's flit may come before the read
  // edge: buf_we_q is low at it then, and the block RAM has the word.
  always_ff @(posedge clk_i) begin
    if (run_i) recv_q <= {rcv_v, rcv_d};
    buf_waddr_q <= recv_buf_q;
    if (adv[BypBase]) begin
      byp_rcv_q <= entv && (ent_ract == totex_tdm_pkg::ACT_STORE)
                && (ent[RecvBufLsb +: BufW] == pre_sbuf);
      byp_wr_q  <= recv_st_q & (recv_buf_q == pre_sbuf);
      byp_use_q <= byp_rcv_q | (buf_we_q & byp_wr_q);
    end
  end
  logic [W:0] byp_d;
  assign byp_d = byp_rcv_q ? {rcv_v, rcv_d} : recv_q;
  for (genvar b = 0; b <= W; b++) begin : gen_byp
    always_ff @(posedge clk_i) begin
      if (adv[BypBase + (32'd3 + b) / AdvLoads]) byp_q[b] <= byp_d[b];
    end
  end
  for (genvar b = 0; b < BufW; b++) begin : gen_rbuf
    always_ff @(posedge clk_i) begin
      if (adv[BypBase + (32'd4 + W + b) / AdvLoads]) recv_buf_q[b] <= ent[RecvBufLsb + b];
    end
  end
  totex_tdm_ram #(.Depth(32'd1 << BufW), .Width(W + 32'd1)) u_relay (
    .clk_i,
    .we_i   (buf_we_q),
    .waddr_i(buf_waddr_q),
    .wdata_i(recv_q),
    .re_i   (adv[1]),
    .raddr_i(ent_sbuf),
    .rdata_o(buf_rdata)
  );
  assign buf_word = byp_use_q ? byp_q : buf_rdata;

  // Send: one data register for every output link (the shell's), the valid bit on the send port
  // only.
  logic send_v;
  assign send_v = (send_inj_q & nic_valid) | (send_rcv_q & rcv_v) | (send_buf_q & buf_word[W]);
  assign send_d = ({W{send_inj_q}} & nic_data) | ({W{send_rcv_q}} & rcv_d)
                | ({W{send_buf_q}} & buf_word[W-1:0]);
  assign out_valid_d = send_port_q & {P{send_v}};

  // m_axis_tlast: the decided entry's last bit, held and loaded as the shell holds and loads
  // m_axis_tid (at the advance, then with run_i).
  if (HasLast) begin : gen_last
    logic dec_last_q, last_q;
    always_ff @(posedge clk_i) begin
      if (adv[Copies]) dec_last_q <= ent[EntryW-1];
      if (run_i) last_q <= dec_last_q;
    end
    assign m_axis_tlast = last_q;
  end else begin : gen_one_flit
    assign m_axis_tlast = 1'b1;
  end

endmodule
