#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds and runs the TDM tile module testbench (tb_tdm_tile.cpp) at several node-id widths (one
# and two lookup stages, odd widths) and seeds. Usage: tests/rtl/tdm/run.sh [workdir] [cycles]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rtl="$(cd "$here/../../../rtl" && pwd)"
work="${1:-/tmp/tdm-tb}"; cycles="${2:-20000}"
mkdir -p "$work"
mapfile -t files < <("$rtl/filelist.sh" "$rtl/tdm/tdm.f")
for nw in 2 3 4 6; do
  obj="$work/nw$nw"
  verilator --cc --exe --build -j 1 --assert -Wno-fatal -O1 -Wno-WIDTH --top-module totex_tdm_tile \
    -GNumPorts=1 -GNodeW=$nw -GDepth=8 -GPayloadW=32 -CFLAGS "-DTB_NODEW=$nw -O1" \
    --Mdir "$obj" -o tb_tdm_tile "${files[@]}" "$here/tb_tdm_tile.cpp" >"$work/build_nw$nw.log" 2>&1 \
    || { echo "verilator build failed (NodeW=$nw): $work/build_nw$nw.log" >&2; exit 1; }
  for seed in 1 2 3; do "$obj/tb_tdm_tile" "$cycles" "$seed"; done
done
