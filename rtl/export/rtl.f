// What `totex rtl` copies into an exported network folder (docs/ip.md): the nic TDM tile and its
// parts, and the receive FIFO of each node, in dependency order. The generated top comes last.
../totex_pkg.sv
../tdm/totex_tdm_pkg.sv
../tdm/totex_tdm_ram.sv
../tdm/totex_tdm_bits.sv
../tdm/totex_tdm_slot_counter.sv
../tdm/totex_tdm_slot_pipe.sv
../tdm/totex_tdm_nic.sv
../tdm/totex_tdm_nic_queue.sv
../tdm/totex_tdm_status.sv
../tdm/totex_tdm_shell.sv
../tdm/totex_tdm_router.sv
../tdm/totex_tdm_nic_route.sv
../tdm/totex_tdm_axil.sv
../tdm/totex_tdm_ctl_tile.sv
../tdm/totex_tdm_axil_fanout.sv
../tdm/totex_tdm_rx_fifo.sv
