// The synthesis report's designs (rtl/synth/fpga_report.sh): the MIN and direct families and the
// pin-light wrappers around them.
-F ../min.f
-F ../direct.f
totex_synth_wrap.sv
