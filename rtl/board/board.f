// The FPGA board self-test: the MIN family plus the board modules and the two board tops.
-F ../min.f
totex_board_ram.sv
totex_board_reset.sv
totex_board_leds.sv
totex_board_sync.sv
totex_board_selftest.sv
totex_board_icebreaker.sv
totex_board_hx8k.sv
