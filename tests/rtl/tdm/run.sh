#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds and runs the TDM tile module testbench (tb_tdm_tile.cpp) at several node-id widths (one
# and two lookup stages, odd widths) and seeds. Usage: tests/rtl/tdm/run.sh [workdir] [cycles] [quick]
# quick (what `make test` runs): four of the tile's seven parameter sets and three of the queue's
# seven, one Verilator build each; `make bench` runs every set.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rtl="$(cd "$here/../../../rtl" && pwd)"
work="${1:-/tmp/tdm-tb}"; cycles="${2:-20000}"; quick="${3:-}"
mkdir -p "$work"
# The Verilator runtime and the testbenches compile the same way in every build: share them.
command -v ccache >/dev/null && export OBJCACHE=ccache
tiles=("2 4" "3 4" "4 4" "6 4" "2 16" "6 16" "8 16")
queues=("1 2 2" "2 2 2" "3 4 2" "2 8 2" "1 2 1" "3 4 1" "2 8 1")
if [ "$quick" = quick ]; then
  tiles=("3 4" "6 4" "2 16" "8 16")     # odd and even widths, half and full rate, the widest
  queues=("1 2 2" "2 8 2" "3 4 1")      # both read-port counts, the smallest and deepest queues
fi
# Built from the tree's root with every source named relative to it: Verilator writes the names
# it is given into the model, and relative ones are the same in every checkout (ccache finds them).
work="$(cd "$work" && pwd)"
cd "$rtl/.."
mapfile -t files < <(realpath --relative-to=. $("$rtl/filelist.sh" "$rtl/tdm/tdm.f"))
tb="$PWD/tests/rtl/tdm"  # C++ sources by full name: make compiles them in --Mdir
# NodeW period: the 4-slot period is shorter than the NIC's round trip (half rate, the exactness
# checks are the point); the 16-slot one (slots 4..15 idle) checks the full rate too.
for cfg in "${tiles[@]}"; do
  read -r nw period <<< "$cfg"
  obj="$work/nw${nw}_p$period"
  verilator --cc --exe --build -j 1 --assert -Wno-fatal -O1 -Wno-WIDTH --top-module totex_tdm_tile \
    -GNumPorts=1 -GNodeW=$nw -GDepth=16 -GPayloadW=32 -CFLAGS "-DTB_NODEW=$nw -DTB_PERIOD=$period -O1" \
    --Mdir "$obj" -o tb_tdm_tile "${files[@]}" "$tb/tb_tdm_tile.cpp" >"$obj.log" 2>&1 \
    || { echo "verilator build failed (NodeW=$nw, period $period): $obj.log" >&2; exit 1; }
  for seed in 1 2 3; do "$obj/tb_tdm_tile" "$cycles" "$seed"; done
done
# The control port's table swap (tb_tdm_swap.cpp): a ring of three totex_tdm_ctl_tile swapping
# between two schedules through AXI4-Lite while running, every delivery checked.
obj="$work/swap"
verilator --cc --exe --build -j 1 --assert -Wno-fatal -O1 -Wno-WIDTH --top-module totex_tdm_ctl_tile \
  -GNumPorts=1 -GNodeW=2 -GDepth=4 -GPayloadW=32 -CFLAGS "-O1" \
  --Mdir "$obj" -o tb_tdm_swap "${files[@]}" "$tb/tb_tdm_swap.cpp" >"$obj.log" 2>&1 \
  || { echo "verilator build failed (swap): $obj.log" >&2; exit 1; }
for seed in 1 2 3; do "$obj/tb_tdm_swap" "$cycles" "$seed"; done
# The NIC queue of multi-flit traffic (tb_tdm_nic_queue.cpp): the RTL against its model
# (sim/systemc/tdm_nic_queue_lane.cpp) and a per-destination FIFO scoreboard, random offers and
# slots, at several node-id widths and depths, with the send side's counts on two read ports (the
# nic and single-port tiles) and on one (HeadReads 1: the all-port tile).
sim="$PWD/sim/systemc"
for cfg in "${queues[@]}"; do
  read -r nw qd hr <<< "$cfg"
  obj="$work/queue_nw${nw}_q${qd}_r$hr"
  verilator --cc --exe --build -j 1 --assert -Wno-fatal -O1 -Wno-WIDTH --top-module totex_tdm_nic_queue \
    -GNodeW=$nw -GQueueDepth=$qd -GHeadReads=$hr -GPayloadW=32 -CFLAGS "-DTB_NODEW=$nw -DTB_DEPTH=$qd -O1 -std=c++17 -I$sim" \
    --Mdir "$obj" -o tb_tdm_nic_queue "${files[@]}" "$tb/tb_tdm_nic_queue.cpp" "$sim/tdm_nic_queue_lane.cpp" \
    >"$obj.log" 2>&1 || { echo "verilator build failed (queue NodeW=$nw, depth $qd, HeadReads $hr): $obj.log" >&2; exit 1; }
  for seed in 1 2 3; do "$obj/tb_tdm_nic_queue" "$cycles" "$seed"; done
done
