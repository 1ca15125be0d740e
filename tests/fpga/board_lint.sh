#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Lint gate of the board tops: `verilator --lint-only -Wall` on every rtl/board/*.sv module as its
# own top (with rtl/*.sv so that submodules resolve), plus the self-test engines at other MIN sizes,
# radices and wirings, and the torus self-test (torus.f) at other sizes and with each fault. Fails
# on any warning. Waivers: tests/rtl/lint_waivers.vlt (the shared one).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rtl="$(cd "$here/../../rtl" && pwd)"
verilator="${VERILATOR:-verilator}"
waivers="$here/../rtl/lint_waivers.vlt"

mapfile -t files < <("$rtl/filelist.sh" "$rtl/board/board.f")
mapfile -t torus_files < <("$rtl/filelist.sh" "$rtl/board/torus.f")
fail=0
run() {  # run <top> [-Gparam=value ...]
  local top="$1"; shift
  local log
  if log=$("$verilator" --lint-only -Wall --top-module "$top" "$@" "$waivers" "${files[@]}" 2>&1); then
    echo "lint ok   $top $*"
  else
    echo "lint FAIL $top $*"; echo "$log"; fail=1
  fi
}
for f in "${files[@]}"; do [[ "$f" == */board/* ]] && run "$(basename "$f" .sv)"; done
for w in 0 1 2; do
  run totex_board_selftest -GN=8 -GD=2 -GPW=3 -GWiring=$w
  run totex_board_selftest -GN=27 -GD=3 -GPW=5 -GWiring=$w -GFaultSwitch=17 -GFaultTerminal=26
done
# The bit-serial engine (64 x 64 on the board) at other sizes, radices and wirings.
for w in 0 1 2; do
  run totex_board_serial_selftest -GN=8 -GD=2 -GWiring=$w
  run totex_board_serial_selftest -GN=16 -GD=4 -GWiring=$w -GRunW=4
  run totex_board_serial_selftest -GN=27 -GD=3 -GWiring=$w -GFaultSwitch=17 -GFaultTerminal=26
done
run totex_board_icebreaker -GLedShift=0
run totex_board_hx8k_min64 -GFaultState=1 -GFaultPayload=1 -GLedShift=0
run totex_board_hx8k -GFaultState=1 -GFaultPayload=1
# The torus self-test (its own file list). The node is linted with a table file name: with the
# default "" its ROM has no contents (UNDRIVEN), which only a standalone node can have.
files=("${torus_files[@]}")
run totex_board_tdm_node -GTableFile='"node0.hex"'
run totex_board_tdm_node -GTableFile='"node3.hex"' -GNode=3 -GN=16 -GPayloadW=12 -GDepth=32 -GFaultNode=15 -GFaultDst=0
run totex_board_tdm_torus
run totex_board_tdm_torus -GX=4 -GY=4 -GPeriod=17 -GDepth=32 -GFaultNode=15 -GRunW=4
run totex_board_tdm_torus -GX=3 -GY=5 -GPayloadW=4 -GPeriod=15 -GDepth=16
run totex_board_tdm_hx8k
for f in 1 2 3; do run totex_board_tdm_hx8k -GFault=$f -GFaultNode=8 -GLedShift=0; done
if [ "$fail" -ne 0 ]; then echo "board lint: FAILED"; exit 1; fi
echo "board lint: all clean"
