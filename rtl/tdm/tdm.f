// The TDM tiles (nic, all-port and single-port) and their parts (docs/tdm-tile.md), in dependency order.
-F ../common.f
totex_tdm_pkg.sv
totex_tdm_ram.sv
totex_tdm_bits.sv
totex_tdm_slot_counter.sv
totex_tdm_slot_pipe.sv
totex_tdm_nic.sv
totex_tdm_nic_queue.sv
totex_tdm_status.sv
totex_tdm_shell.sv
totex_tdm_router.sv
totex_tdm_nic_route.sv
totex_tdm_tile.sv
totex_tdm_allport_tile.sv
totex_tdm_single_tile.sv
totex_tdm_xbar.sv
totex_tdm_axil.sv
totex_tdm_ctl_tile.sv
totex_tdm_axil_fanout.sv
