#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Lint gate of the board tops: `verilator --lint-only -Wall` on every rtl/board/*.sv module as its
# own top (with rtl/*.sv so that submodules resolve), plus the self-test engine at other MIN sizes,
# radices and wirings. Fails on any warning. Waivers: tests/rtl/lint_waivers.vlt (the shared one).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rtl="$(cd "$here/../../rtl" && pwd)"
verilator="${VERILATOR:-verilator}"
waivers="$here/../rtl/lint_waivers.vlt"

mapfile -t files < <("$rtl/filelist.sh" "$rtl/board/board.f")
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
run totex_board_icebreaker -GLedShift=0
run totex_board_hx8k -GFaultState=1 -GFaultPayload=1
if [ "$fail" -ne 0 ]; then echo "board lint: FAILED"; exit 1; fi
echo "board lint: all clean"
