// SPDX-License-Identifier: Apache-2.0
/// Board self-test with a bit-serial wire: the N x N d-nary omega MIN of totex_board_selftest, the
/// same paper 002 two-phase total exchange run forever in hardware, but every line of the MIN is
/// one bit wide, so a 64 x 64 MIN of 4 x 4 switches fits the iCE40HX8K (docs/fpga.md, "The 64 x 64
/// MIN on the HX8K"). The word-parallel engine carries {src, dst, seq, payload} (24 bits at N = 64)
/// on every line and keeps a whole label / send-order row (N ids) per block-RAM word; at N = 64 that
/// is about three HX8K's worth of LUTs and 48 block RAMs.
///
/// The wire. Destination and step need not travel: the step follows from the cycle (every step is
/// WL = 2*IW cycles, the switches' computed states follow it through the stages) and the
/// destination is the terminal the word arrives at. A word is the source id s and an IW-bit payload,
/// LSB first and interleaved, cycle 2c = s[c], cycle 2c+1 = p[c], with
///     p = ((s + d) mod 2^IW) xor x xor run        (d = the destination, 0 in the label phase),
/// an addition a sender and a receiver can each do one bit per cycle (one carry flip-flop). p is
/// injective in d for a fixed s (a word delivered to the wrong terminal fails), and changes with the
/// step x and every run (a stale word fails).
///
/// The matrices, as bit planes. Plane c of row x of a matrix is one N-bit block-RAM word (bit t =
/// bit c of entry t), address {x, c}: what the label phase writes in one cycle (bit c of the source
/// arriving at every terminal) and what the message phase reads in one cycle (bit c of every
/// sender's destination, or of every receiver's expected source). Labels L[x][t] and the send order
/// O[x][s] are two such arrays (totex_board_bitram, 8 SB_RAM40_4K each at N = 64): the message phase
/// reads both, O at the senders and L at the receivers. Every read is issued in the cycle before its
/// data is needed (the source bit's cycle, for the payload bit's).
///
/// One run:
///   1. load M^0 = 0 into every switch's computed-mode state source (NumSw cycles);
///   2. labels: terminal s sends word {s, p(s, 0)} in every step x; the receivers check the payload,
///      the valid bits and the step tag every cycle, and write bit c of the sources into plane c of
///      row x of L;
///   3. clear the column bitmap (one 16-bit word per cycle);
///   4. turn around: for every row x and terminal t (IW cycles each, pipelined), read entry
///      s = L[x][t] one plane per cycle, then write O[x][s] = t one plane per cycle through the
///      per-bit write enable. The row's entries must be distinct (a flip-flop per source) and so must
///      each column's (the column bitmap, a block RAM, read-modify-write): L is a Latin square, so
///      every source reaches every destination exactly once;
///   5. load again (with the fault, if fault_state_i), then messages: terminal s sends
///      {s, p(s, O[x][s])} in step x; at terminal t the source must be L[x][t] (the label that came
///      to t in step x) and the payload p(src, t); valid bits and step tags as in the label phase.
/// Results are sticky in fail_code_o until reset.
`default_nettype none

module totex_board_serial_selftest #(
  /// Number of terminals N, a power of D.
  parameter int unsigned N = 32'd64,
  /// Switch radix d (> 2 for the all-zero M^0 to be paper 002's schedule; 2 works too).
  parameter int unsigned D = 32'd4,
  /// totex_pkg::WIRING_OMEGA, WIRING_BASELINE or WIRING_BUTTERFLY.
  parameter int unsigned Wiring = totex_pkg::WIRING_OMEGA,
  /// Switch whose M^0 entry fault_state_i sets to 1 for the message phase (global index g).
  parameter int unsigned FaultSwitch = 32'd0,
  /// Terminal whose message payloads fault_payload_i corrupts (bit 0 flipped).
  parameter int unsigned FaultTerminal = 32'd0,
  /// Width of the run counter.
  parameter int unsigned RunW = 32'd24,
  /// Width of a terminal id / step / payload; do not overwrite.
  localparam int unsigned IW = totex_pkg::idx_width(N),
  /// Number of stages n = log_d N; do not overwrite.
  localparam int unsigned NumStages = totex_pkg::num_digits(N, D),
  /// Number of switches; do not overwrite.
  localparam int unsigned NumSw = NumStages * (N / D)
) (
  /// Clock, rising edge.
  input  logic            clk_i,
  /// Asynchronous active-low reset (synchronously released by the board top).
  input  logic            rst_ni,
  /// Fault injection: corrupt one switch state (FaultSwitch) during the message phase.
  input  logic            fault_state_i,
  /// Fault injection: flip payload bit 0 of FaultTerminal's messages (only the payload check sees it).
  input  logic            fault_payload_i,
  /// At least one run completed and no check has failed since reset.
  output logic            pass_o,
  /// Some check has failed since reset.
  output logic            fail_o,
  /// Sticky failed checks: [0] label phase (payload, valid or step tag), [1] the labels are not a
  /// Latin square (a row or a column repeats a source), [2] message phase (source, valid or step tag),
  /// [3] message payload.
  output logic [3:0]      fail_code_o,
  /// Completed runs (label phase + message phase), wraps.
  output logic [RunW-1:0] runs_o,
  /// One-cycle pulse after each completed run.
  output logic            run_done_o
);

  localparam int unsigned SW   = totex_pkg::idx_width(D);
  localparam int unsigned GW   = totex_pkg::idx_width(NumSw);
  localparam int unsigned WL   = 32'd2 * IW;                    // cycles per word (step)
  localparam int unsigned KW   = totex_pkg::idx_width(WL);
  localparam int unsigned CBW  = totex_pkg::idx_width(IW);      // plane index
  localparam int unsigned MAW  = IW + CBW;                      // matrix address {x, c}
  localparam int unsigned SGW  = (IW > 32'd4) ? IW - 32'd4 : 32'd1;  // 16-bit bitmap words per column
  localparam int unsigned BAW  = IW + SGW;                      // bitmap address {t, s >> 4}
  localparam int unsigned BWW  = 32'd16;                        // bitmap word: one SB_RAM40_4K port

  if (IW < 32'd2) begin : gen_size_err
    $error("totex_board_serial_selftest: N must be >= 3");
  end
  if (FaultSwitch >= NumSw || FaultTerminal >= N) begin : gen_fault_err
    $error("totex_board_serial_selftest: FaultSwitch / FaultTerminal out of range");
  end

  // ---------------------------------------------------------------------------------------------
  // Sequencer state
  // ---------------------------------------------------------------------------------------------
  localparam logic [1:0] StLoad  = 2'd0;  // write M^0 into every switch state source
  localparam logic [1:0] StRun   = 2'd1;  // one phase: N words sent, received and checked
  localparam logic [1:0] StClear = 2'd2;  // zero the column bitmap
  localparam logic [1:0] StOrder = 2'd3;  // L -> O, one entry per IW cycles

  logic [1:0]      st_q;
  logic            phase_q;                // 0 labels, 1 messages
  logic [GW-1:0]   g_q;                    // switch being loaded
  logic            tx_q;                   // words are being injected
  logic [IW-1:0]   tx_x_q;                 // step of the word being injected
  logic [KW-1:0]   tx_k_q;                 // cycle within that word
  logic [BAW-1:0]  clr_q;                  // bitmap word being cleared
  logic            rd_q;                   // turnaround: L entries are being read
  logic [IW-1:0]   rd_x_q, rd_t_q;         // entry being read
  logic [CBW-1:0]  rd_c_q;                 // plane being read
  logic [3:0]      fail_q;
  logic [RunW-1:0] runs_q;
  logic            ran_q, run_done_q;

  // ---------------------------------------------------------------------------------------------
  // Switch states and the MIN (one data bit per line)
  // ---------------------------------------------------------------------------------------------
  logic [NumSw*SW-1:0]     state;
  logic [NumStages-1:0]    stage_step_valid;
  logic [NumStages*IW-1:0] stage_step;
  logic [N-1:0]            inj_bit, ej_valid, ej_bit;
  logic                    out_step_valid;
  logic [IW-1:0]           out_step;
  logic                    m0_we, load_last;
  logic [SW-1:0]           m0_data;

  // Every run reloads M^0 = 0, so a fault injected in one run is gone in the next.
  assign m0_we     = st_q == StLoad;
  assign m0_data   = (phase_q && fault_state_i && g_q == GW'(FaultSwitch)) ? SW'(1) : '0;
  assign load_last = st_q == StLoad && g_q == GW'(NumSw - 32'd1);

  for (genvar j = 0; j < NumStages; j++) begin : gen_state_stage
    for (genvar i = 0; i < N / D; i++) begin : gen_state_switch
      localparam int unsigned G = j * (N / D) + i;
      totex_switch_state #(
        .N         (N),
        .MaxSteps  (N),
        .D         (D),
        .NumStages (NumStages),
        .Stage     (j),
        .Mode      (totex_pkg::MODE_COMPUTED)
      ) u_state (
        .clk_i       (clk_i),
        .rst_ni      (rst_ni),
        .cfg_we_i    (m0_we && g_q == GW'(G)),
        .cfg_entry_i ('0),
        .cfg_data_i  (m0_data),
        .step_i      (stage_step[j*IW +: IW]),
        .state_o     (state[G*SW +: SW])
      );
    end
  end

  // The stage step tags drive the state sources; only the one at the outputs is checked.
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_stage_valid;
  /* verilator lint_on UNUSEDSIGNAL */
  assign unused_stage_valid = &stage_step_valid;

  // The step stays on step_i for the WL cycles of its word, so each stage's state holds for the
  // word's WL bits as they pass (stage j sees them j cycles later, with the step tag).
  totex_banyan #(
    .N        (N),
    .D        (D),
    .W        (32'd1),
    .Wiring   (Wiring),
    .MaxSteps (N)
  ) u_banyan (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .state_i            (state),
    .step_valid_i       (tx_q),
    .step_i             (tx_x_q),
    .valid_i            ({N{tx_q}}),
    .data_i             (inj_bit),
    .stage_step_valid_o (stage_step_valid),
    .stage_step_o       (stage_step),
    .valid_o            (ej_valid),
    .data_o             (ej_bit),
    .out_step_valid_o   (out_step_valid),
    .out_step_o         (out_step)
  );

  // ---------------------------------------------------------------------------------------------
  // Receive-side position: the send position delayed by the MIN's NumStages registers
  // ---------------------------------------------------------------------------------------------
  logic [NumStages-1:0]    dl_act_q;
  logic [NumStages*IW-1:0] dl_x_q;
  logic [NumStages*KW-1:0] dl_k_q;
  logic                    rx;
  logic [IW-1:0]           rx_x;
  logic [KW-1:0]           rx_k;
  logic [CBW-1:0]          rx_c, tx_c;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dl_act_q <= '0;
      dl_x_q   <= '0;
      dl_k_q   <= '0;
    end else begin
      dl_act_q <= NumStages'({dl_act_q, tx_q});
      dl_x_q   <= (NumStages*IW)'({dl_x_q, tx_x_q});
      dl_k_q   <= (NumStages*KW)'({dl_k_q, tx_k_q});
    end
  end
  assign rx   = dl_act_q[NumStages-1];
  assign rx_x = dl_x_q[(NumStages-1)*IW +: IW];
  assign rx_k = dl_k_q[(NumStages-1)*KW +: KW];
  assign rx_c = CBW'(rx_k >> 1);
  assign tx_c = CBW'(tx_k_q >> 1);

  // ---------------------------------------------------------------------------------------------
  // Label matrix L and send order O, as bit planes (address {x, c}, bit t)
  // ---------------------------------------------------------------------------------------------
  logic [N-1:0]   lab_rdata, ord_rdata, ord_we, ord_wdata, h_q;
  logic [MAW-1:0] lab_raddr, ord_waddr;
  logic           lab_we;
  logic [IW-1:0]  key_tx, key_rx;

  // The payload's x xor run term, per side; the run counter changes only between runs.
  assign key_tx = tx_x_q ^ IW'(runs_q);
  assign key_rx = rx_x ^ IW'(runs_q);

  // Label phase: plane c of row x is the source bits c the receivers held in the word's src cycle.
  assign lab_we    = st_q == StRun && !phase_q && rx && rx_k[0];
  assign lab_raddr = (st_q == StOrder) ? {rd_x_q, rd_c_q} : {rx_x, rx_c};
  totex_board_bitram #(.Depth(32'd1 << MAW), .Width(N)) u_labels (
    .clk_i   (clk_i),
    .we_i    ({N{lab_we}}),
    .waddr_i ({rx_x, rx_c}),
    .wdata_i (h_q),
    .raddr_i (lab_raddr),
    .rdata_o (lab_rdata)
  );

  // Send order: read at {x, c} in the word's src cycle 2c, used in its payload cycle 2c+1.
  totex_board_bitram #(.Depth(32'd1 << MAW), .Width(N)) u_order (
    .clk_i   (clk_i),
    .we_i    (ord_we),
    .waddr_i (ord_waddr),
    .wdata_i (ord_wdata),
    .raddr_i ({tx_x_q, tx_c}),
    .rdata_o (ord_rdata)
  );

  // ---------------------------------------------------------------------------------------------
  // Terminals: bit-serial sender and receiver
  // ---------------------------------------------------------------------------------------------
  logic [N-1:0] tx_cy_q, rx_cy_q, src_bad, pay_bad, vld_bad;

  for (genvar t = 0; t < N; t++) begin : gen_term
    localparam logic [IW-1:0] Id = IW'(t);
    logic s_bit, d_tx, cin_tx, r_id, d_rx, cin_rx, exp_p, flip;

    // Sender s = t. Its own id bit in the src cycle; in the payload cycle the serial sum s + d
    // (d = O[x][s] from the plane read one cycle ago) xor the key.
    assign s_bit  = Id[tx_c];
    assign d_tx   = phase_q && ord_rdata[t];
    assign cin_tx = (tx_c != '0) && tx_cy_q[t];
    assign flip   = phase_q && fault_payload_i && t == FaultTerminal && tx_c == '0;
    assign inj_bit[t] = tx_k_q[0] ? (s_bit ^ d_tx ^ cin_tx ^ key_tx[tx_c] ^ flip) : s_bit;

    // Receiver t. h_q holds the src bit of the cycle before; the payload bit must be the serial
    // sum h + d (d = t's own id bit in the message phase) xor the key, and in the message phase
    // the src bit must be the label's (L[x][t] plane c, read in the src cycle).
    assign r_id   = Id[rx_c];
    assign d_rx   = phase_q && r_id;
    assign cin_rx = (rx_c != '0) && rx_cy_q[t];
    assign exp_p  = h_q[t] ^ d_rx ^ cin_rx ^ key_rx[rx_c];
    assign pay_bad[t] = rx && rx_k[0] && ej_bit[t] != exp_p;
    assign src_bad[t] = rx && rx_k[0] && phase_q && h_q[t] != lab_rdata[t];
    // Count and timing: every terminal receives a bit in every cycle of the receive window, and none outside it.
    assign vld_bad[t] = ej_valid[t] != rx;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        tx_cy_q[t] <= 1'b0;
        rx_cy_q[t] <= 1'b0;
        h_q[t]     <= 1'b0;
      end else begin
        if (tx_k_q[0]) tx_cy_q[t] <= (s_bit & d_tx) | (s_bit & cin_tx) | (d_tx & cin_tx);
        if (rx_k[0])   rx_cy_q[t] <= (h_q[t] & d_rx) | (h_q[t] & cin_rx) | (d_rx & cin_rx);
        else           h_q[t]     <= ej_bit[t];
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Turnaround: L row x -> O row x, and the Latin-square checks
  // ---------------------------------------------------------------------------------------------
  logic            p1_q;              // a plane read was issued last cycle
  logic [IW-1:0]   p1_x_q, p1_t_q;
  logic [CBW-1:0]  p1_c_q;
  logic [IW-2:0]   sacc_q;            // the entry's bits so far, shifted in from the top
  logic [IW-1:0]   s_new;
  logic            got;               // entry (p1_x, p1_t) complete this cycle
  logic            e_q;               // an entry is being written to O
  logic [IW-1:0]   e_x_q, e_t_q, e_s_q;
  logic [CBW-1:0]  wc_q;              // plane of O being written
  logic [N-1:0]    hit_q;             // sources seen in the current row
  logic            row_bad, col_bad, order_done;
  logic [BWW-1:0]  bm_rdata, bm_wdata, bm_bit;
  logic [BAW-1:0]  bm_waddr, bm_raddr, e_bmaddr;
  logic            bm_we;

  assign s_new = {lab_rdata[p1_t_q], sacc_q};
  assign got   = p1_q && p1_c_q == CBW'(IW - 32'd1);

  // A row repeats a source (or names one >= N): the row's hit flags, cleared at its first entry.
  assign row_bad = got && (32'(s_new) >= N || (p1_t_q != '0 && hit_q[s_new]));

  // O[x][s] = t: plane wc of row x, bit s only.
  assign ord_we    = e_q ? (N'(1) << e_s_q) : '0;
  assign ord_waddr = {e_x_q, wc_q};
  assign ord_wdata = {N{e_t_q[wc_q]}};

  // Column bitmap, bit s of column t at word {t, s >> 4}, bit s mod 16: read when the entry is
  // latched (wc 0), checked and written back with the bit set a cycle later (wc 1). StClear zeroes it.
  localparam int unsigned SLo = (IW < 32'd4) ? IW : 32'd4;  // bits of s within a bitmap word
  assign e_bmaddr = {e_t_q, SGW'(e_s_q >> 4)};
  assign bm_bit   = BWW'(1) << e_s_q[SLo-1:0];
  assign bm_raddr = e_bmaddr;
  assign bm_we    = st_q == StClear || (e_q && wc_q == CBW'(1));
  assign bm_waddr = (st_q == StClear) ? clr_q : e_bmaddr;
  assign bm_wdata = (st_q == StClear) ? '0 : (bm_rdata | bm_bit);
  assign col_bad  = e_q && wc_q == CBW'(1) && (bm_rdata & bm_bit) != '0;

  totex_board_bitram #(.Depth(32'd1 << BAW), .Width(BWW)) u_bitmap (
    .clk_i   (clk_i),
    .we_i    ({BWW{bm_we}}),
    .waddr_i (bm_waddr),
    .wdata_i (bm_wdata),
    .raddr_i (bm_raddr),
    .rdata_o (bm_rdata)
  );

  assign order_done = st_q == StOrder && !rd_q && !p1_q && !e_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p1_q   <= 1'b0;
      p1_x_q <= '0;
      p1_t_q <= '0;
      p1_c_q <= '0;
      sacc_q <= '0;
      e_q    <= 1'b0;
      e_x_q  <= '0;
      e_t_q  <= '0;
      e_s_q  <= '0;
      wc_q   <= '0;
      hit_q  <= '0;
    end else begin
      p1_q   <= rd_q;
      p1_x_q <= rd_x_q;
      p1_t_q <= rd_t_q;
      p1_c_q <= rd_c_q;
      if (p1_q) sacc_q <= s_new[IW-1:1];
      if (got) begin
        e_q   <= 1'b1;
        e_x_q <= p1_x_q;
        e_t_q <= p1_t_q;
        e_s_q <= s_new;
        wc_q  <= '0;
        hit_q <= ((p1_t_q == '0) ? '0 : hit_q) | (N'(1) << s_new);
      end else if (e_q) begin
        wc_q <= wc_q + CBW'(1);
        if (wc_q == CBW'(IW - 32'd1)) e_q <= 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Checks, registered one cycle (so the N-input ORs are not in series with the sticky flags)
  // ---------------------------------------------------------------------------------------------
  logic chk_lab_q, chk_order_q, chk_msg_q, chk_pay_q;
  logic run_chk, msg_bad;

  assign run_chk = st_q == StRun;
  // The step tag at the outputs must be the receive position's (the MIN's latency and order).
  assign msg_bad = (|vld_bad) || out_step_valid != rx || (rx && out_step != rx_x);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      chk_lab_q   <= 1'b0;
      chk_order_q <= 1'b0;
      chk_msg_q   <= 1'b0;
      chk_pay_q   <= 1'b0;
    end else begin
      chk_lab_q   <= run_chk && !phase_q && (msg_bad || (|pay_bad));
      chk_order_q <= row_bad || col_bad;
      chk_msg_q   <= run_chk && phase_q && (msg_bad || (|src_bad));
      chk_pay_q   <= run_chk && phase_q && (|pay_bad);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Sequencer
  // ---------------------------------------------------------------------------------------------
  logic tx_last, rx_last, rd_last;

  assign tx_last = tx_x_q == IW'(N - 32'd1) && tx_k_q == KW'(WL - 32'd1);
  assign rx_last = rx && rx_x == IW'(N - 32'd1) && rx_k == KW'(WL - 32'd1);
  assign rd_last = rd_x_q == IW'(N - 32'd1) && rd_t_q == IW'(N - 32'd1) && rd_c_q == CBW'(IW - 32'd1);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q       <= StLoad;
      phase_q    <= 1'b0;
      g_q        <= '0;
      tx_q       <= 1'b0;
      tx_x_q     <= '0;
      tx_k_q     <= '0;
      clr_q      <= '0;
      rd_q       <= 1'b0;
      rd_x_q     <= '0;
      rd_t_q     <= '0;
      rd_c_q     <= '0;
      fail_q     <= '0;
      runs_q     <= '0;
      ran_q      <= 1'b0;
      run_done_q <= 1'b0;
    end else begin
      run_done_q <= 1'b0;
      fail_q     <= fail_q | {chk_pay_q, chk_msg_q, chk_order_q, chk_lab_q};
      case (st_q)
        StLoad: begin
          g_q <= g_q + GW'(1);
          if (load_last) begin  // last switch written: the phase starts at the next edge
            g_q    <= '0;
            st_q   <= StRun;
            tx_q   <= 1'b1;
            tx_x_q <= '0;
            tx_k_q <= '0;
          end
        end
        StRun: begin
          if (tx_q) begin
            if (tx_k_q == KW'(WL - 32'd1)) begin
              tx_k_q <= '0;
              tx_x_q <= tx_x_q + IW'(1);
            end else begin
              tx_k_q <= tx_k_q + KW'(1);
            end
            if (tx_last) tx_q <= 1'b0;
          end
          if (rx_last) begin  // the last bit of the last word is in: the phase is over
            if (!phase_q) begin
              st_q  <= StClear;
              clr_q <= '0;
            end else begin
              st_q       <= StLoad;
              phase_q    <= 1'b0;
              runs_q     <= runs_q + RunW'(1);
              ran_q      <= 1'b1;
              run_done_q <= 1'b1;
            end
          end
        end
        StClear: begin
          clr_q <= clr_q + BAW'(1);
          if (clr_q == '1) begin
            st_q   <= StOrder;
            rd_q   <= 1'b1;
            rd_x_q <= '0;
            rd_t_q <= '0;
            rd_c_q <= '0;
          end
        end
        default: begin  // StOrder
          if (rd_q) begin
            if (rd_c_q == CBW'(IW - 32'd1)) begin
              rd_c_q <= '0;
              if (rd_t_q == IW'(N - 32'd1)) begin
                rd_t_q <= '0;
                rd_x_q <= rd_x_q + IW'(1);
              end else begin
                rd_t_q <= rd_t_q + IW'(1);
              end
            end else begin
              rd_c_q <= rd_c_q + CBW'(1);
            end
            if (rd_last) rd_q <= 1'b0;
          end
          if (order_done) begin
            st_q    <= StLoad;
            phase_q <= 1'b1;
          end
        end
      endcase
    end
  end

  assign pass_o      = ran_q && fail_q == '0;
  assign fail_o      = |fail_q;
  assign fail_code_o = fail_q;
  assign runs_o      = runs_q;
  assign run_done_o  = run_done_q;

endmodule
