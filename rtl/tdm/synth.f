// The TDM tiles and their reference crossbar with the pin-light wrapper of rtl/synth/tdm_synth.sh.
-F tdm.f
../synth/totex_synth_sipo.sv
../synth/totex_synth_piso.sv
../synth/totex_synth_tdm.sv
