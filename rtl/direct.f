// The direct-network family: its interface package, scheduled and dynamic routers, NICs, nodes,
// controller (every module but the top; see direct_top.f).
-F common.f
totex_direct_pkg.sv
totex_router.sv
totex_direct_table.sv
totex_direct_nic.sv
totex_direct_node.sv
totex_direct_ctrl.sv
totex_direct_fifo.sv
totex_router_dyn.sv
totex_direct_nic_dyn.sv
totex_direct_dyn_node.sv
totex_direct_tile.sv
