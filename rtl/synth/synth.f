// The synthesis report's designs (rtl/synth/fpga_report.sh): the MIN and direct families and the
// pin-light wrappers around them.
-F ../min.f
-F ../direct.f
// Pin-light wrappers: serial-in / parallel-load serial-out registers around each design.
totex_synth_sipo.sv
totex_synth_piso.sv
totex_synth_switch.sv
totex_synth_min.sv
totex_synth_node.sv
