// The direct network top. It includes totex_direct_params.svh (written by totex per topology),
// which must be on the include path (-I / +incdir+).
-F direct.f
totex_direct_top.sv
