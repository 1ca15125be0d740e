// SPDX-License-Identifier: Apache-2.0
// Testbench of a bitstream turned back into Verilog (tests/fpga/bitstream_sim.sh): icebox_vlog's
// netlist of the HX8K board top (module `chip`, ports CLK and LED[7:0] from rtl/board/hx8k.pcf),
// driven with the 12 MHz board clock from configuration (every flip-flop 0, as the iCE40 powers
// up) for +cycles=N cycles. Prints every change of LED with its cycle, then one summary line:
//   BITSIM cycles=N led=BBBBBBBB led7_on=K led6_toggles=T led_low_changes=C
// (led7_on: cycles with LED7 on; led_low_changes: changes of LED[5:0]). The script decides.
`timescale 1ns / 1ps
`default_nettype none
module tb_bitstream;
  reg        CLK = 1'b0;
  wire [7:0] LED;
  integer    cycles, c, led7_on, led6_toggles, low_changes;
  reg  [7:0] last;

  chip dut (.CLK(CLK), .LED(LED));

  always #41.667 CLK = ~CLK;  // 12 MHz

  initial begin
    if (!$value$plusargs("cycles=%d", cycles)) cycles = 1000;
    led7_on = 0;
    led6_toggles = 0;
    low_changes = 0;
    last = 8'h00;
    for (c = 0; c < cycles; c = c + 1) begin
      @(posedge CLK);
      #1;
      if (LED !== last) begin
        $display("cycle %0d: LED %b", c, LED);
        if (LED[6] !== last[6]) led6_toggles = led6_toggles + 1;
        if (LED[5:0] !== last[5:0]) low_changes = low_changes + 1;
        last = LED;
      end
      if (LED[7] === 1'b1) led7_on = led7_on + 1;
    end
    $display("BITSIM cycles=%0d led=%b led7_on=%0d led6_toggles=%0d led_low_changes=%0d", cycles, LED, led7_on,
             led6_toggles, low_changes);
    $finish;
  end
endmodule
