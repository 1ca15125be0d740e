// The FPGA board torus self-test: the TDM tile, the board reset, the torus with its generators and
// checkers, and its board top (docs/fpga.md, "A torus on the HX8K").
-F ../tdm/tdm.f
totex_board_reset.sv
totex_board_leds.sv
totex_board_tdm_node.sv
totex_board_tdm_torus.sv
totex_board_tdm_hx8k.sv
