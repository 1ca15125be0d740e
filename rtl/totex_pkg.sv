// SPDX-License-Identifier: Apache-2.0
/// Shared constants and elaboration-time helper functions of the totex RTL.
///
/// Reference everything package-qualified (`totex_pkg::NAME`): Yosys 0.23 rejects `import pkg::*`.
/// All functions assign to their own name (no `return`, Yosys 0.23 subset) and are meant for
/// constant (elaboration-time) use: widths, stage counts and the wiring permutations of the MIN.
`default_nettype none

package totex_pkg;

  // ---------------------------------------------------------------------------------------------
  // Inter-stage wiring of the d-nary banyan MIN (parameter `Wiring` of totex_banyan/totex_min_top).
  // ---------------------------------------------------------------------------------------------
  /// Omega: a perfect d-shuffle (rotate the n base-d digits left) before every stage.
  localparam int unsigned WIRING_OMEGA     = 32'd0;
  /// Baseline: after stage j, rotate the lowest n-j digits right (inverse shuffle in sub-blocks).
  localparam int unsigned WIRING_BASELINE  = 32'd1;
  /// Butterfly: after stage j, swap digit 0 with digit n-1-j.
  localparam int unsigned WIRING_BUTTERFLY = 32'd2;

  // ---------------------------------------------------------------------------------------------
  // Where the per-switch states come from (parameter `Mode` of totex_switch_state/totex_min_top).
  // ---------------------------------------------------------------------------------------------
  /// Table mode: every switch stores its state for each of the N steps (loaded through region 0).
  localparam int unsigned MODE_TABLE    = 32'd0;
  /// Computed mode: every switch stores only M^0 (region 1); M^x = M^0 (+)_d x_{n-1-j}.
  localparam int unsigned MODE_COMPUTED = 32'd1;

  // ---------------------------------------------------------------------------------------------
  // Load-port regions: cfg_addr_i = {region[1:0], index, entry} (see totex_min_top).
  // ---------------------------------------------------------------------------------------------
  /// Switch configuration table (table mode): index = global switch, entry = step x, data = state.
  localparam logic [1:0] REGION_SWITCH_TABLE = 2'd0;
  /// M^0 (computed mode): index = global switch, entry ignored (write 0), data = state.
  localparam logic [1:0] REGION_M0           = 2'd1;
  /// NIC send queue: index = terminal, entry = slot x, data = {idle, dst, payload}.
  localparam logic [1:0] REGION_SEND_QUEUE   = 2'd2;
  /// Control registers: index CONTROL_LAST_STEP = number of steps of a run minus one,
  /// CONTROL_REPEAT = pairs may repeat in a run.
  localparam logic [1:0] REGION_CONTROL      = 2'd3;
  /// Control register: last step of a run (steps - 1, < MaxSteps); resets to MaxSteps - 1.
  localparam int unsigned CONTROL_LAST_STEP  = 32'd0;
  /// Control register: 1 when a source may reach a terminal more than once in a run (a traffic's
  /// configurations, several flits per pair): the NICs' received-from check is off; resets to 0.
  localparam int unsigned CONTROL_REPEAT     = 32'd1;

  // ---------------------------------------------------------------------------------------------
  // Helper functions (elaboration time).
  // ---------------------------------------------------------------------------------------------

  /// Width of an index into n things; 1 when n <= 1 so that no vector has zero width.
  function automatic int unsigned idx_width(input int unsigned n);
    if (n <= 32'd1) idx_width = 32'd1;
    else            idx_width = $clog2(n);
  endfunction

  /// b to the power e.
  function automatic int unsigned ipow(input int unsigned b, input int unsigned e);
    ipow = 32'd1;
    for (int unsigned i = 0; i < e; i++) ipow = ipow * b;
  endfunction

  /// Number of base-d digits needed for n values: the smallest e with d^e >= n (0 for n <= 1).
  function automatic int unsigned num_digits(input int unsigned n, input int unsigned d);
    int unsigned p;
    p          = 32'd1;
    num_digits = 32'd0;
    for (int unsigned i = 0; i < 32; i++) begin
      if (p < n) begin
        p          = p * d;
        num_digits = num_digits + 32'd1;
      end
    end
  endfunction

  /// Base-d digit i of value v (digit 0 least significant).
  function automatic int unsigned digit(input int unsigned v, input int unsigned d,
                                        input int unsigned i);
    digit = (v / ipow(d, i)) % d;
  endfunction

  /// Perfect d-shuffle of an n-digit line number a (N = d^n lines): rotate the digits left.
  function automatic int unsigned shuffle(input int unsigned a, input int unsigned n_lines,
                                          input int unsigned d);
    shuffle = ((a * d) % n_lines) + a / (n_lines / d);
  endfunction

  /// rho_m: rotate the lowest m base-d digits of b right by one digit.
  function automatic int unsigned rho(input int unsigned b, input int unsigned m,
                                      input int unsigned d);
    int unsigned low;
    low = b % ipow(d, m);
    rho = (b - low) + low / d + (low % d) * ipow(d, m - 32'd1);
  endfunction

  /// beta_i: swap base-d digit 0 and digit i of b.
  function automatic int unsigned beta(input int unsigned b, input int unsigned i,
                                       input int unsigned d);
    int unsigned d0;
    int unsigned di;
    d0   = digit(b, d, 32'd0);
    di   = digit(b, d, i);
    beta = b - d0 - di * ipow(d, i) + di + d0 * ipow(d, i);
  endfunction

  /// The input line of stage `j` that is fed by line `b` of the boundary in front of it
  /// (terminal b when j == 0, output line b of stage j-1 otherwise), for an N x N d-nary MIN with
  /// `stages` = log_d N stages.
  function automatic int unsigned feed_line(input int unsigned wiring, input int unsigned n_lines,
                                            input int unsigned d, input int unsigned stages,
                                            input int unsigned j, input int unsigned b);
    if (wiring == WIRING_OMEGA)       feed_line = shuffle(b, n_lines, d);
    else if (j == 32'd0)              feed_line = b;
    else if (wiring == WIRING_BASELINE) feed_line = rho(b, stages - j + 32'd1, d);
    else                              feed_line = beta(b, stages - j, d);
  endfunction

endpackage
