#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Synthesis gate of the board tops (seconds; no place and route, that is `make fpga`):
# Yosys synth_ice40 of totex_board_icebreaker and totex_board_hx8k must succeed, map the label and
# send-order memories to block RAM (8 SB_RAM40_4K), and stay within the iCE40UP5K's 5280 LUT4s;
# totex_board_hx8k_min64 (64 x 64, bit-serial) must map to 17 SB_RAM40_4K and stay within the HX8K's 7680.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rtl="$(cd "$here/../../rtl" && pwd)"
yosys="${YOSYS:-yosys}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mapfile -t src < <("$rtl/filelist.sh" "$rtl/board/board.f")
count() { awk -v c="$2" '$1 ~ c {s+=$2} END {print s+0}' "$1"; }
for top in totex_board_icebreaker totex_board_hx8k totex_board_hx8k_min64; do
  if ! "$yosys" -q -l "$work/$top.log" -p "read_verilog -sv ${src[*]}; synth_ice40 -top $top; tee -q -o $work/$top.stat stat" \
       >/dev/null 2>&1; then
    echo "synth FAIL $top"; grep -i -m5 error "$work/$top.log" || tail -5 "$work/$top.log"; exit 1
  fi
  lut=$(count "$work/$top.stat" '^SB_LUT4$'); ff=$(count "$work/$top.stat" '^SB_DFF'); bram=$(count "$work/$top.stat" '^SB_RAM40_4K')
  echo "synth ok  $top: $lut LUT4, $ff FF, $bram SB_RAM40_4K"
  if [ "$top" = totex_board_hx8k_min64 ]; then
    # The 64 x 64 bit-serial self-test: L and O as bit planes (8 each) and the column bitmap (1), and
    # within the HX8K's 7680 LUT4s.
    [ "$bram" -eq 17 ] || { echo "expected 17 SB_RAM40_4K (label and send-order planes, column bitmap), got $bram"; exit 1; }
    [ "$lut" -le 7680 ] || { echo "$lut LUT4 > 7680 (iCE40HX8K)"; exit 1; }
    continue
  fi
  [ "$bram" -eq 8 ] || { echo "expected 8 SB_RAM40_4K (label and send-order memories), got $bram"; exit 1; }
  [ "$lut" -le 5280 ] || { echo "$lut LUT4 > 5280 (iCE40UP5K)"; exit 1; }
done
