// The TDM tile and its reference crossbar with the pin-light wrappers of rtl/synth/tdm_synth.sh.
-F tdm.f
../synth/totex_synth_sipo.sv
../synth/totex_synth_piso.sv
../synth/totex_synth_tdm_tile.sv
../synth/totex_synth_tdm_allport_tile.sv
../synth/totex_synth_tdm_single_tile.sv
../synth/totex_synth_tdm_xbar.sv
