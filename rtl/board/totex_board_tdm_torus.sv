// SPDX-License-Identifier: Apache-2.0
/// A whole X x Y torus of TDM tiles (rtl/tdm/totex_tdm_tile.sv) running the periodic all-to-all
/// exchange of totex's default nic schedule forever, with a payload generator and a checker per
/// node (totex_board_tdm_node): the board self-test of issue 27 (docs/fpga.md, "A torus on the
/// HX8K").
///
/// Tables: node v's slot table is the block-RAM initial contents of its tile, TableDir/node<v>.hex
/// as written by `totex fpga --topo torus:XxY --model nic --payload PayloadW --tables-out TableDir`
/// (which also writes tables.json with Period, Depth and NodeW: pass them here).
///
/// Wiring (as the table builder numbers ports, sw/hw/src/tdm_tables.cpp, and as
/// sim/tdm_wired_main.cpp wires tiles): node v = x + X*y; port 0 goes to x+1, port 1 to x-1,
/// port 2 to y+1, port 3 to y-1 (modulo X, Y). Input link i of v comes from u = neighbour(v, i),
/// over u's port towards v, which is port i^1 (X, Y >= 3).
///
/// Sequence after reset: tbl_we_i high on every tile (each rewrites its slot 0 with its own value,
/// which only restarts the tile's priming) while the generators offer period 0's messages, until
/// every one has been taken and LoadTail more cycles have passed (the offers commit); then run_i
/// low for PrimeCycles + 4 cycles (priming, totex_tdm_pkg::prime_cycles); then run_i high forever:
/// in run cycle c every tile executes slot c mod Period. runs_o counts completed periods;
/// period_done_o pulses at the end of each. pass_o: at least two periods checked, no failure.
/// fail_code_o is the OR of the nodes' codes (totex_board_tdm_node): [0] payload, [1] count
/// (missing, duplicate or bad source), [2] a tile's error_o, [3] a slot without its message or a
/// generator overrun.
///
/// Fault injection (fault_i): 0 none; 1 node FaultNode's payloads to node (FaultNode + 1) mod N
/// have bit 0 flipped; 2 data bit 0 of node FaultNode's output link 0 (to x+1) is stuck at 1;
/// 3 node FaultNode never offers its period-4 message to node (FaultNode + 1) mod N.
`default_nettype none

module totex_board_tdm_torus #(
  /// Torus columns (dimension 0), >= 3.
  parameter int unsigned X = 32'd3,
  /// Torus rows (dimension 1), >= 3.
  parameter int unsigned Y = 32'd3,
  /// Payload bits of a flit (>= 2 * NodeW keeps every pair's payload distinct).
  parameter int unsigned PayloadW = 32'd8,
  /// Slots per period (tables.json "period").
  parameter int unsigned Period = 32'd9,
  /// Slots of the tables (tables.json "depth").
  parameter int unsigned Depth = 32'd16,
  /// Directory of the tables node<v>.hex (relative paths: to the simulator's / Yosys' cwd).
  parameter TableDir = "torus_tables",
  /// Bits of the period counter runs_o.
  parameter int unsigned RunW = 32'd16,
  /// The node the faults are injected at.
  parameter int unsigned FaultNode = 32'd0,
  /// Nodes; do not overwrite.
  localparam int unsigned N = X * Y,
  /// Bits of a node id; do not overwrite.
  localparam int unsigned NodeW = totex_pkg::idx_width(N)
) (
  /// Clock, rising edge.
  input  logic            clk_i,
  /// Asynchronous reset, active low (synchronously released).
  input  logic            rst_ni,
  /// Fault mode (see above), 0 = none.
  input  logic [1:0]      fault_i,
  /// Two or more periods checked, all passed.
  output logic            pass_o,
  /// A check failed (sticky until reset).
  output logic            fail_o,
  /// Which checks failed (see above).
  output logic [3:0]      fail_code_o,
  /// Periods completed (wraps).
  output logic [RunW-1:0] runs_o,
  /// One-cycle pulse at the end of every period.
  output logic            period_done_o
);

  localparam int unsigned P = 32'd4;
  localparam int unsigned W = PayloadW;
  localparam int unsigned SlotW = totex_pkg::idx_width(Depth);
  localparam int unsigned EntryW = totex_tdm_pkg::entry_width(P, NodeW);
  localparam int unsigned LoadTail = 32'd16;  // cycles after the last period-0 offer was taken
  localparam int unsigned Start = totex_tdm_pkg::prime_cycles(NodeW) + 32'd4;  // run_i low after the load
  localparam int unsigned StW = totex_pkg::idx_width((Start > LoadTail ? Start : LoadTail) + 32'd1);

  if (X < 32'd3 || Y < 32'd3 || Period < 32'd2 || Period > Depth || FaultNode >= N) begin : gen_param_err
    $error("totex_board_tdm_torus: need X, Y >= 3, 2 <= Period <= Depth, FaultNode < X*Y");
  end

  // ---------------------------------------------------------------------------------------------
  // Control: load, prime, run; the slot and period counters every node shares.
  // ---------------------------------------------------------------------------------------------
  logic [StW-1:0]   st_q;
  logic             load_q, run_q, pass_q, end_q;
  logic [SlotW-1:0] slot_q;
  logic [W-1:0]     period_q;
  logic [RunW-1:0]  runs_q;
  logic             window_end, all_init;
  logic [N-1:0]     init_done;
  assign all_init   = &init_done;
  assign window_end = run_q && slot_q == SlotW'(Period - 32'd1);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q     <= '0;
      load_q   <= 1'b1;
      run_q    <= 1'b0;
      slot_q   <= '0;
      period_q <= '0;
      runs_q   <= '0;
      end_q    <= 1'b0;
      pass_q   <= 1'b0;
    end else begin
      // Load: st_q counts the cycles since every period-0 offer was taken; then it restarts and
      // counts the priming cycles.
      if (load_q) begin
        if (all_init) st_q <= st_q + StW'(1);
        if (all_init && st_q == StW'(LoadTail - 32'd1)) begin
          load_q <= 1'b0;
          st_q   <= '0;
        end
      end else if (!run_q) begin
        st_q <= st_q + StW'(1);
        if (st_q == StW'(Start - 32'd1)) run_q <= 1'b1;
      end
      if (run_q) slot_q <= window_end ? '0 : slot_q + SlotW'(1);
      if (window_end) begin
        period_q <= period_q + W'(1);
        runs_q   <= runs_q + RunW'(1);
      end
      end_q <= window_end;
      // Window 0 is checked for payloads only; window 1 is the first whose count is checked.
      if (window_end && period_q != '0) pass_q <= 1'b1;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Tiles, nodes, links.
  // ---------------------------------------------------------------------------------------------
  logic [N*P-1:0]   out_valid, in_valid;
  logic [N*P*W-1:0] out_data, in_data;
  logic [N*4-1:0]   codes;

  for (genvar v = 0; v < N; v++) begin : gen_node
    localparam int unsigned Xc = v % X;
    localparam int unsigned Yc = v / X;
    // neighbour(v, i), i = 0..3: x+1, x-1, y+1, y-1.
    localparam int unsigned Nb0 = (Xc + 32'd1) % X + X * Yc;
    localparam int unsigned Nb1 = (Xc + X - 32'd1) % X + X * Yc;
    localparam int unsigned Nb2 = Xc + X * ((Yc + 32'd1) % Y);
    localparam int unsigned Nb3 = Xc + X * ((Yc + Y - 32'd1) % Y);
    // TableDir/node<v>.hex (one or two digits; a leading NUL byte, which a file name ignores,
    // keeps both forms the same width).
    localparam logic [7:0] D1 = 8'd48 + 8'(v % 10);
    localparam logic [7:0] D10 = 8'd48 + 8'(v / 10);
    localparam TableFile = (v < 10) ? {8'h00, TableDir, "/node", D1, ".hex"}
                                    : {TableDir, "/node", D10, D1, ".hex"};

    // Input link i of v: u = neighbour(v, i), u's port i^1 (back towards v).
    assign in_valid[v*P +: P] = {out_valid[Nb3*P + 2], out_valid[Nb2*P + 3],
                                 out_valid[Nb1*P + 0], out_valid[Nb0*P + 1]};
    assign in_data[v*P*W +: P*W] = {out_data[(Nb3*P + 2)*W +: W], out_data[(Nb2*P + 3)*W +: W],
                                    out_data[(Nb1*P + 0)*W +: W], out_data[(Nb0*P + 1)*W +: W]};

    logic              s_tvalid, s_tready, m_tvalid, error;
    logic [W-1:0]      s_tdata, m_tdata, link0;
    logic [NodeW-1:0]  s_tdest, m_tid;
    logic [1:0]        missed;
    logic [EntryW-1:0] entry0;
    logic [P*W-1:0]    tile_out;
    // Waiver: one message per destination (QueueDepth 1): m_axis_tlast is constant high.
    /* verilator lint_off UNUSEDSIGNAL */
    logic              m_tlast;
    /* verilator lint_on UNUSEDSIGNAL */

    totex_tdm_tile #(
      .NumPorts (P),
      .PayloadW (W),
      .NodeW    (NodeW),
      .Depth    (Depth),
      .TableFile(TableFile),
      .MissW    (32'd2),
      .BitsInFlops(1'b1)   // 9 tiles x 4 more block RAMs would not fit the HX8K's 32
    ) u_tile (
      .clk_i,
      .rst_ni,
      .in_valid_i   (in_valid[v*P +: P]),
      .in_data_i    (in_data[v*P*W +: P*W]),
      .out_valid_o  (out_valid[v*P +: P]),
      .out_data_o   (tile_out),
      .tbl_we_i     (load_q),
      .tbl_addr_i   ('0),
      .tbl_data_i   (entry0),
      .run_i        (run_q),
      .period_last_i(SlotW'(Period - 32'd1)),
      .s_axis_tvalid(s_tvalid),
      .s_axis_tready(s_tready),
      .s_axis_tdata (s_tdata),
      .s_axis_tdest (s_tdest),
      .m_axis_tvalid(m_tvalid),
      .m_axis_tready(1'b1),
      .m_axis_tdata (m_tdata),
      .m_axis_tid   (m_tid),
      .m_axis_tlast (m_tlast),
      .missed_o     (missed),
      .error_o      (error)
    );
    // Fault 2: data bit 0 of output link 0 stuck at 1.
    assign link0 = tile_out[W-1:0] | W'((v == FaultNode && fault_i == 2'd2) ? 1 : 0);
    assign out_data[v*P*W +: P*W] = {tile_out[P*W-1:W], link0};

    totex_board_tdm_node #(
      .Node     (v),
      .N        (N),
      .NodeW    (NodeW),
      .NumPorts (P),
      .PayloadW (W),
      .Depth    (Depth),
      .TableFile(TableFile),
      .FaultNode(FaultNode),
      .FaultDst ((FaultNode + 32'd1) % N)
    ) u_node (
      .clk_i,
      .rst_ni,
      .load_i      (load_q),
      .run_i       (run_q),
      .slot_i      (slot_q),
      .period_i    (period_q),
      .window_end_i(window_end),
      .fault_i,
      .entry0_o    (entry0),
      .init_done_o (init_done[v]),
      .s_tvalid_o  (s_tvalid),
      .s_tready_i  (s_tready),
      .s_tdata_o   (s_tdata),
      .s_tdest_o   (s_tdest),
      .m_tvalid_i  (m_tvalid),
      .m_tdata_i   (m_tdata),
      .m_tid_i     (m_tid),
      .missed_i    (missed),
      .error_i     (error),
      .fail_code_o (codes[v*4 +: 4])
    );
  end

  // Fail code: OR over the nodes, registered.
  logic [3:0] code_q, code_any;
  always_comb begin
    code_any = '0;
    for (int unsigned v = 0; v < N; v++) code_any = code_any | codes[v*4 +: 4];
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) code_q <= '0;
    else         code_q <= code_q | code_any;
  end

  assign fail_code_o   = code_q;
  assign fail_o        = |code_q;
  assign pass_o        = pass_q & ~(|code_q);
  assign runs_o        = runs_q;
  assign period_done_o = end_q;

endmodule
