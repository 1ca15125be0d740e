// The MIN family: shift switches, banyan, NICs, totex_min_top.
-F common.f
totex_shift_switch.sv
totex_crossbar.sv
totex_switch_state.sv
totex_nic.sv
totex_banyan.sv
totex_min_top.sv
