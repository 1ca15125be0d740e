#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Synthesis gate for the direct-network RTL (Yosys 0.23, generic `synth`): the scheduled router
# (totex_router) for every model, the dynamic router (totex_router_dyn, dimension order), the
# scheduled node, the dynamic node (totex_direct_dyn_node, whose router is adaptive with 2 adaptive
# VCs; also with Flits 2, a multi-flit traffic's send queue), the wired build's tile (node and controller), and the network top rtl/totex_direct_top.sv with the parameters of ring:7 all-port from the
# RTL model cache. SYNTH_FULL=1 (make bench) adds the torus:4x4 dynamic adaptive top:
# 16 flattened dynamic nodes, over 250 s of Yosys, too long for make test. Any Yosys error fails;
# the table prints cells and flip-flops per configuration.
# Usage: [SYNTH_FULL=1] synth.sh [<rtl-cache-dir>]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rtl="$(cd "$here/../../../rtl" && pwd)"
yosys="${YOSYS:-yosys}"
cache="${1:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mapfile -t src < <("$rtl/filelist.sh" "$rtl/direct.f")

synth_one() {  # synth_one <top> <chparam args> <tag> [a Yosys command reading more sources]
  local top="$1" params="$2" tag="$3"; shift 3
  local stat="$work/$tag.stat" chp=""
  [ -n "$params" ] && chp="chparam $params $top;"
  local t0; t0=$(date +%s.%N)
  if ! "$yosys" -q -l "$work/$tag.log" \
       -p "read_verilog -sv ${src[*]}; ${*:+$*;} $chp synth -flatten -top $top; tee -q -o $stat stat" >/dev/null 2>&1; then
    echo "synth FAIL $top $params"; grep -i -m5 error "$work/$tag.log" || tail -5 "$work/$tag.log"
    exit 1
  fi
  printf '| %-22s | %-52s | %7s | %5s | %5.1f s |\n' "$top" "${params:-defaults}" \
    "$(awk '/Number of cells:/ {n=$4} END {print n}' "$stat")" \
    "$(awk '$1 ~ /DFF/ {s+=$2} END {print s+0}' "$stat")" \
    "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {print b - a}')"
}

printf '| %-22s | %-52s | %7s | %5s | %7s |\n' top parameters cells FF time
printf '|%s|%s|%s|%s|%s|\n' "------------------------" "------------------------------------------------------" "---------" "-------" "---------"
synth_one totex_router "-set NumPorts 4 -set NumLanes 4 -set MW 28 -set Model 1" r_ap4
synth_one totex_router "-set NumPorts 4 -set NumLanes 1 -set MW 28 -set Model 2" r_nic4
synth_one totex_router "-set NumPorts 2 -set NumLanes 1 -set MW 24 -set Model 0" r_sp2
synth_one totex_router "-set NumPorts 6 -set NumLanes 6 -set MW 28 -set Model 1" r_ap6
synth_one totex_router_dyn "-set NumPorts 4 -set N 16 -set NumVcs 2 -set Depth 4" d4
synth_one totex_direct_node "-set N 16 -set NumPorts 4 -set Model 1 -set Depth 32 -set XW 8" n_ap
synth_one totex_direct_node "-set N 16 -set NumPorts 4 -set Model 0 -set Depth 64 -set BufSlots 8 -set XW 8" n_sp
synth_one totex_direct_dyn_node "-set N 16 -set NumPorts 4 -set NumVcs 4 -set AdaptiveVcs 2 -set Depth 4 -set XW 8" n_dyn
# A traffic whose heaviest pair sends 2 flits: the send queue holds (N - 1) x 2 entries.
# On a node with 2 VCs (one adaptive): 14 s of Yosys, where the 4-VC node (34 s) would only repeat
# the 4-VC router that n_dyn has just synthesized.
synth_one totex_direct_dyn_node "-set N 16 -set NumPorts 4 -set NumVcs 2 -set AdaptiveVcs 1 -set Depth 4 -set XW 8 -set Flits 2" n_dyn_fl2
synth_one totex_direct_tile "-set N 16 -set NumPorts 4 -set Model 2 -set Depth 32" tile_nic
# Multi-flit traffic: the NIC holds Flits own flits per destination (slots {flit, dst}).
synth_one totex_direct_tile "-set N 16 -set NumPorts 4 -set Model 2 -set Depth 32 -set Flits 2" tile_nic_fl2
# The flat builds of rtl.direct.same_build_* (the wired build writes no top parameters), found by
# the cache key's pattern (schema::cache_key: the topology, the mode, then the tile parameters).
# A top that is not in the cache is named, not skipped in silence; under SYNTH_FULL it fails.
patterns=("direct_ring_7_scheduled_*_all_port_*_flat")
[ "${SYNTH_FULL:-0}" = 1 ] && patterns+=("direct_torus_4x4_dynamic_*_flat")
if [ -n "$cache" ] && [ -d "$cache" ]; then
  for pattern in "${patterns[@]}"; do
    found=0
    for dir in "$cache"/$pattern; do
      [ -f "$dir/totex_direct_params.svh" ] || continue
      found=1
      synth_one totex_direct_top "" "$(basename "$dir")" "read_verilog -sv -I$dir $rtl/totex_direct_top.sv"
    done
    if [ "$found" = 0 ]; then
      echo "synth: no top $pattern in $cache (built by rtl.direct.same_build_*; not synthesized)"
      [ "${SYNTH_FULL:-0}" = 1 ] && exit 1
    fi
  done
fi
echo "synth: all ok"
