// The FPGA board self-test: the MIN family plus the board modules and the MIN board tops (the
// 16 x 16 word-parallel engine on both boards, the 64 x 64 bit-serial one on the HX8K).
-F ../min.f
totex_board_ram.sv
totex_board_bitram.sv
totex_board_reset.sv
totex_board_leds.sv
totex_board_sync.sv
totex_board_selftest.sv
totex_board_serial_selftest.sv
totex_board_icebreaker.sv
totex_board_hx8k.sv
totex_board_hx8k_min64.sv
