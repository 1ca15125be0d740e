#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Lint gate for the direct-network RTL: `verilator --lint-only -Wall` on every direct-network module
# as its own top at several parameter sets, then rtl/totex_direct_top.sv with the parameters of every
# network in the RTL model cache (the totex_direct_params.svh of each network the simulation tests
# built). Fails on any warning.
# Usage: lint.sh [<rtl-cache-dir>]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rtl="$(cd "$here/../../../rtl" && pwd)"
waivers="$here/../lint_waivers.vlt"
cache="${1:-}"
verilator="${VERILATOR:-verilator}"
mapfile -t files < <("$rtl/filelist.sh" "$rtl/direct.f")
top_file="$rtl/totex_direct_top.sv"

fail=0
run() {  # run <top> [extra files or -G...]
  local top="$1"; shift
  local log
  if log=$("$verilator" --lint-only -Wall --top-module "$top" "$waivers" "${files[@]}" "$@" 2>&1); then
    echo "lint ok   $top ${*##*/}"
  else
    echo "lint FAIL $top $*"; echo "$log"; fail=1
  fi
}

for m in totex_router totex_router_dyn totex_direct_nic totex_direct_nic_dyn totex_direct_table \
         totex_direct_node totex_direct_dyn_node totex_direct_ctrl totex_direct_fifo totex_direct_tile; do
  run "$m"
done
for p in 1 2 4 6 9; do
  for model in 0 1 2; do run totex_router -GNumPorts=$p -GModel=$model -GNumLanes=$([ $model = 1 ] && echo $p || echo 1); done
  run totex_router_dyn -GNumPorts=$p -GN=27 -GNumVcs=2 -GDepth=3
  run totex_router_dyn -GNumPorts=$p -GN=2 -GNumVcs=1 -GDepth=1
  run totex_router_dyn -GNumPorts=$p -GN=27 -GNumVcs=4 -GAdaptiveVcs=2 -GDepth=3
  run totex_router_dyn -GNumPorts=$p -GN=16 -GNumVcs=3 -GAdaptiveVcs=2 -GDepth=1
done
run totex_direct_node -GN=27 -GNumPorts=3 -GModel=0 -GBufSlots=5 -GDepth=64 -GXW=9
run totex_direct_dyn_node -GN=64 -GNumPorts=4 -GNumVcs=4 -GAdaptiveVcs=2 -GDepth=4 -GXW=7
# As totex builds it hierarchically (issue 16): the node holds its constant inputs in flops.
run totex_direct_dyn_node -GN=64 -GNumPorts=4 -GNumVcs=4 -GAdaptiveVcs=2 -GDepth=4 -GXW=7 +define+TOTEX_HIER_SIM
# The wired build's tile (rtl/totex_direct_tile.sv) in both modes, every model, relay buffers.
run totex_direct_tile
for model in 0 1 2; do run totex_direct_tile -GN=16 -GNumPorts=4 -GModel=$model -GDepth=32; done
run totex_direct_tile -GN=27 -GNumPorts=3 -GModel=0 -GBufSlots=8 -GDepth=64
run totex_direct_tile -GN=64 -GNumPorts=4 -GDynamic=1 -GNumVcs=2 -GFifoDepth=4
run totex_direct_tile -GN=256 -GNumPorts=4 -GDynamic=1 -GNumVcs=4 -GAdaptiveVcs=2 -GFifoDepth=4 +define+TOTEX_HIER_SIM
run totex_direct_node -GN=64 -GNumPorts=6 -GModel=1 -GDepth=32 -GXW=8
run totex_direct_node -GN=2 -GNumPorts=1 -GModel=2 -GDepth=16 -GXW=5
run totex_direct_nic -GN=9 -GNumPorts=4 -GNumLanes=4 -GBufSlots=3
# Multi-flit traffic: own flits in slots {flit, dst} (Flits > 1), with and without relay buffers.
run totex_direct_nic -GN=16 -GNumPorts=4 -GNumLanes=4 -GFlits=2
run totex_direct_nic -GN=9 -GNumPorts=4 -GNumLanes=1 -GBufSlots=3 -GFlits=3
for model in 0 1 2; do run totex_direct_tile -GN=16 -GNumPorts=4 -GModel=$model -GDepth=32 -GFlits=8; done
run totex_direct_tile -GN=27 -GNumPorts=3 -GModel=0 -GBufSlots=8 -GDepth=64 -GFlits=3
# Dynamic mode with multi-flit traffic: the send queue holds (N - 1) * Flits entries.
run totex_direct_dyn_node -GN=64 -GNumPorts=4 -GNumVcs=4 -GAdaptiveVcs=2 -GDepth=4 -GXW=9 -GFlits=8
run totex_direct_tile -GN=16 -GNumPorts=4 -GDynamic=1 -GNumVcs=4 -GAdaptiveVcs=2 -GFifoDepth=4 -GFlits=3
run totex_direct_table -GDepth=32 -GEW=64
run totex_direct_table -GDepth=4 -GEW=7
run totex_direct_ctrl -GDynamic=1
run totex_direct_fifo -GDepth=1 -GW=3

if [ -n "$cache" ] && [ -d "$cache" ]; then
  for params in "$cache"/direct_*/totex_direct_params.svh; do
    # A dynamic network's tables grow as N^2 bits (torus:16x16: 524288), past the default 64K limit.
    [ -f "$params" ] && run totex_direct_top -I"$(dirname "$params")" --max-num-width 16777216 "$top_file"
  done
fi

if [ "$fail" -ne 0 ]; then echo "lint: FAILED"; exit 1; fi
echo "lint: all clean"
