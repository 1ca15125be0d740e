// SPDX-License-Identifier: Apache-2.0
/// TDM tile with its control port (docs/tdm-tile.md, "Control port and table swap"): the nic tile
/// (totex_tdm_tile: same router, NIC, links, streams and cycle contract) with the slot table in two
/// banks (totex_tdm_slot_pipe Shadow) and an AXI4-Lite slave (totex_tdm_axil) in place of the
/// table write port: status, missed and error counters, per-input-link error counters, writes of
/// the shadow bank (also while running), swap now (stopped: the same priming as a table write) and
/// swap armed at a period boundary (running: every tile armed with the same period switches at the
/// same boundary; what waits in the NIC goes out in the new table's slots).
///
/// Initial table: TableFile (bank 0), or shadow writes then swap now, then PrimeCycles before
/// run_i. An armed swap needs the new table complete in the shadow bank and period_last_i the same
/// before and after (the table of the new schedule fits the old period, idle slots padded).
`default_nettype none

module totex_tdm_ctl_tile #(
  /// Neighbour links P (inputs and outputs), >= 1.
  parameter int unsigned NumPorts = 32'd4,
  /// Payload bits W of a flit.
  parameter int unsigned PayloadW = 32'd32,
  /// Bits of a node id (the send buffer has 2**NodeW entries).
  parameter int unsigned NodeW = 32'd6,
  /// Slots the table holds (the period is at most Depth); two banks of 2**SlotW words.
  parameter int unsigned Depth = 32'd128,
  /// $readmemh image of bank 0 (block-RAM initial contents); "" = none.
  parameter TableFile = "",
  /// Bits of missed_o (>= 2, <= 32).
  parameter int unsigned MissW = 32'd16,
  /// 1: the NIC's toggle bits in flip-flops rather than block RAM.
  parameter bit BitsInFlops = 1'b0,
  /// Bits of a period number (<= 16).
  parameter int unsigned PerW = 32'd8,
  /// Bits of a per-link error counter (<= 32).
  parameter int unsigned CntW = 32'd16,
  /// Bits of a select field; do not overwrite.
  localparam int unsigned SelW = totex_tdm_pkg::sel_width(NumPorts),
  /// Bits of a table entry; do not overwrite.
  localparam int unsigned EntryW = totex_tdm_pkg::entry_width(NumPorts, NodeW),
  /// Bits of a slot number; do not overwrite.
  localparam int unsigned SlotW = totex_pkg::idx_width(Depth),
  /// AXI4-Lite address bits (totex_tdm_axil); do not overwrite.
  localparam int unsigned AddrW = ((SlotW > 32'd5) ? SlotW : 32'd5) + 32'd3
) (
  /// Clock, rising edge.
  input  logic                         clk_i,
  /// Asynchronous active-low reset of the control state (no reset on the datapath).
  input  logic                         rst_ni,
  /// Input links (as totex_tdm_tile).
  input  logic [NumPorts-1:0]          in_valid_i,
  input  logic [NumPorts*PayloadW-1:0] in_data_i,
  /// Output links (registered).
  output logic [NumPorts-1:0]          out_valid_o,
  output logic [NumPorts*PayloadW-1:0] out_data_o,
  /// Slots execute while high.
  input  logic                         run_i,
  /// Period minus one: the slot after period_last_i is slot 0.
  input  logic [SlotW-1:0]             period_last_i,
  /// Send and receive streams (as totex_tdm_tile).
  input  logic                         s_axis_tvalid,
  output logic                         s_axis_tready,
  input  logic [PayloadW-1:0]          s_axis_tdata,
  input  logic [NodeW-1:0]             s_axis_tdest,
  output logic                         m_axis_tvalid,
  input  logic                         m_axis_tready,
  output logic [PayloadW-1:0]          m_axis_tdata,
  output logic [NodeW-1:0]             m_axis_tid,
  /// Slots of a destination that found no committed message (wraps); sticky error.
  output logic [MissW-1:0]             missed_o,
  output logic                         error_o,
  /// AXI4-Lite control port (totex_tdm_axil).
  input  logic                         s_axil_awvalid,
  output logic                         s_axil_awready,
  input  logic [AddrW-1:0]             s_axil_awaddr,
  input  logic [2:0]                   s_axil_awprot,
  input  logic                         s_axil_wvalid,
  output logic                         s_axil_wready,
  input  logic [31:0]                  s_axil_wdata,
  input  logic [3:0]                   s_axil_wstrb,
  output logic                         s_axil_bvalid,
  input  logic                         s_axil_bready,
  output logic [1:0]                   s_axil_bresp,
  input  logic                         s_axil_arvalid,
  output logic                         s_axil_arready,
  input  logic [AddrW-1:0]             s_axil_araddr,
  input  logic [2:0]                   s_axil_arprot,
  output logic                         s_axil_rvalid,
  input  logic                         s_axil_rready,
  output logic [31:0]                  s_axil_rdata,
  output logic [1:0]                   s_axil_rresp
);

  localparam int unsigned P = NumPorts;
  localparam int unsigned W = PayloadW;
  localparam int unsigned EjLsb = P * SelW;   // the eject select, after the output selects
  localparam int unsigned Copies = totex_tdm_pkg::router_copies(NumPorts);

  // The control port: shadow writes, swap now (the shell's tbl_we_i under Shadow), arm.
  logic              sh_we, swap_now, arm;
  logic [SlotW-1:0]  sh_addr;
  logic [EntryW-1:0] sh_data;
  logic [PerW-1:0]   arm_per, arm_per_q;
  logic              swap_now_q, arm_q;
  logic [PerW+2:0]   swap;
  logic [P-1:0]      left, left_q, link_err_q;
  // The link counters count the left flags through two registers, so that the route from the
  // router to the port ends in a flip-flop at both ends: left_q, with the same reset as the
  // status's register of the same flags (totex_tdm_status), so that Yosys merges the two (the
  // path into it is the nic tile's own), then link_err_q next to the counters, their enable. One
  // register without reset (not merged) had its own copy of that path beside the port: run_i's
  // route and two LUT levels (85.3 MHz UP5K heap 1); the router's flags without run_i, registered,
  // and copies of run_i registered still left a route from the router in front of two or three
  // LUTs (85.3-86.1 MHz, four runs). The counts are one cycle later than a count of left_q.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) left_q <= '0;
    else left_q <= left;
  end
  // No reset: a reset net on these would be a global buffer's load (docs/tdm-tile.md: keep resets
  // off the datapath); left_q is low in reset and in the cycle after it.
  always_ff @(posedge clk_i) link_err_q <= left_q;
  totex_tdm_axil #(.NumPorts(P), .SlotW(SlotW), .EntryW(EntryW), .MissW(MissW), .PerW(PerW),
                   .CntW(CntW)) u_axil (
    .clk_i, .rst_ni,
    .s_axil_awvalid, .s_axil_awready, .s_axil_awaddr, .s_axil_awprot,
    .s_axil_wvalid, .s_axil_wready, .s_axil_wdata, .s_axil_wstrb,
    .s_axil_bvalid, .s_axil_bready, .s_axil_bresp,
    .s_axil_arvalid, .s_axil_arready, .s_axil_araddr, .s_axil_arprot,
    .s_axil_rvalid, .s_axil_rready, .s_axil_rdata, .s_axil_rresp,
    .error_i   (error_o),
    .missed_i  (missed_o),
    .link_err_i(link_err_q),
    .bank_i    (swap[0]),
    .armed_i   (swap[1]),
    .late_i    (swap[2]),
    .period_i  (swap[3 +: PerW]),
    .sh_we_o   (sh_we),
    .sh_addr_o (sh_addr),
    .sh_data_o (sh_data),
    .swap_now_o(swap_now),
    .arm_o     (arm),
    .arm_per_o (arm_per)
  );

  // The swap-now and arm pulses (one LUT of the port's flip-flops) and the arm's period registered
  // here, next to the slot pipeline: two cycles after the write's handshake, as the port's own
  // flip-flops gave them before. With those flip-flops in the port, the route across the tile came
  // in front of three LUT levels (the hit flag; swap now into the load count): the UP5K's critical
  // paths (82.4, 85.9 MHz heap 1).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      swap_now_q <= 1'b0;
      arm_q      <= 1'b0;
    end else begin
      swap_now_q <= swap_now;
      arm_q      <= arm;
    end
  end
  always_ff @(posedge clk_i) arm_per_q <= arm_per;

  // The shell with the shadow bank.
  logic              inj_valid, entv, m_valid_d;
  logic [W-1:0]      inj_data, m_data_d;
  logic [P-1:0]      out_valid_d;
  logic [P*W-1:0]    out_data_d;
  logic [Copies-1:0] adv;
  logic [EntryW-1:0] unused_pre;
  // Waiver: of the decided entry only the selects and the eject select are the router's.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [EntryW-1:0] ent;
  /* verilator lint_on UNUSEDSIGNAL */
  totex_tdm_shell #(.Kind(totex_tdm_pkg::KIND_NIC), .NumPorts(P), .PayloadW(W), .NodeW(NodeW),
                    .Depth(Depth), .TableFile(TableFile), .MissW(MissW), .BitsInFlops(BitsInFlops),
                    .TileCopies(Copies), .Shadow(1'b1), .PerW(PerW)) u_shell (
    .clk_i, .rst_ni,
    .tbl_we_i     (swap_now_q),
    .tbl_addr_i   ('0),
    .tbl_data_i   ('0),
    .run_i, .period_last_i,
    .sh_we_i      (sh_we),
    .sh_addr_i    (sh_addr),
    .sh_data_i    (sh_data),
    .arm_i        (arm_q),
    .arm_per_i    (arm_per_q),
    .swap_o       (swap),
    .s_axis_tvalid, .s_axis_tready, .s_axis_tdata, .s_axis_tdest,
    .m_axis_tvalid, .m_axis_tready, .m_axis_tdata, .m_axis_tid,
    .missed_o, .error_o, .out_valid_o, .out_data_o,
    .adv_o(adv), .pre_o(unused_pre), .ent_o(ent), .entv_o(entv), .inj_valid_o(inj_valid),
    .inj_data_o(inj_data), .out_valid_d_i(out_valid_d), .out_data_d_i(out_data_d),
    .m_valid_d_i(m_valid_d), .m_data_d_i(m_data_d), .left_i(left)
  );

  // The router and the eject mux (shared with the other nic tile).
  totex_tdm_nic_route #(.NumPorts(P), .PayloadW(W), .KeepTerms(1'b1)) u_route (
    .clk_i, .rst_ni, .adv_i(adv), .run_i, .ent_sel_i(ent[EjLsb+SelW-1:0]), .entv_i(entv),
    .in_valid_i, .in_data_i, .inj_valid_i(inj_valid), .inj_data_i(inj_data),
    .out_valid_d_o(out_valid_d), .out_data_d_o(out_data_d), .m_valid_d_o(m_valid_d), .m_data_d_o(m_data_d),
    .left_o(left)
  );

endmodule
