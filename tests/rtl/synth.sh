#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Synthesis gate (Yosys 0.23):
#   1. generic `synth` of totex_shift_switch and of totex_min_top at small parameters; any Yosys
#      error fails the script;
#   2. LUT comparison: `synth_ice40` SB_LUT4 / SB_DFF* counts of totex_shift_switch vs the generic
#      totex_crossbar at D = 2, 4, 8 and W = 8, 32, printed as a table.
# Usage: synth.sh [--no-luts]   (--no-luts skips part 2)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rtl="$(cd "$here/../../rtl" && pwd)"
yosys="${YOSYS:-yosys}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mapfile -t src < <("$rtl/filelist.sh" "$rtl/min.f")

# synth_one <top> <chparam args> <synth command> -> prints the stat file path
synth_one() {
  local top="$1" params="$2" cmd="$3" tag="$4"
  local stat="$work/$tag.stat"
  if ! "$yosys" -q -l "$work/$tag.log" -p "read_verilog -sv ${src[*]}; chparam $params $top; $cmd -top $top; tee -q -o $stat stat" \
       >/dev/null 2>&1; then
    echo "synth FAIL $top $params ($cmd)"; grep -i -m5 error "$work/$tag.log" || tail -5 "$work/$tag.log"
    exit 1
  fi
  echo "$stat"
}

total_cells() { awk '/Number of cells:/ {n=$4} END {print n}' "$1"; }
count_cell()  { awk -v c="$2" '$1 ~ c {s+=$2} END {print s+0}' "$1"; }

echo "== generic synth =="
for cfg in \
  "totex_shift_switch|-set D 4 -set W 8" \
  "totex_shift_switch|-set D 3 -set W 8" \
  "totex_min_top|-set N 8 -set D 2 -set PW 8 -set Wiring 0 -set Mode 0" \
  "totex_min_top|-set N 9 -set D 3 -set PW 8 -set Wiring 1 -set Mode 1" \
  "totex_min_top|-set N 4 -set D 4 -set PW 8 -set Wiring 2 -set Mode 1"; do
  top="${cfg%%|*}"; params="${cfg#*|}"
  t0=$(date +%s.%N)
  stat=$(synth_one "$top" "$params" synth "g$RANDOM")
  t1=$(date +%s.%N)
  printf 'synth ok  %-20s %-50s %7s cells  %5.1fs\n' "$top" "$params" "$(total_cells "$stat")" \
    "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')"
done

if [ "${1:-}" = "--no-luts" ]; then exit 0; fi

echo
echo "== synth_ice40: shift switch vs crossbar (SB_LUT4 / flip-flops) =="
printf '| D | W | shift switch LUT4 | crossbar LUT4 | shift switch FF | crossbar FF |\n'
printf '|---|---|---|---|---|---|\n'
for w in 8 32; do
  for d in 2 4 8; do
    s=$(synth_one totex_shift_switch "-set D $d -set W $w" synth_ice40 "s$d-$w")
    x=$(synth_one totex_crossbar     "-set D $d -set W $w" synth_ice40 "x$d-$w")
    printf '| %d | %d | %d | %d | %d | %d |\n' "$d" "$w" \
      "$(count_cell "$s" SB_LUT4)" "$(count_cell "$x" SB_LUT4)" \
      "$(count_cell "$s" '^SB_DFF')" "$(count_cell "$x" '^SB_DFF')"
  done
done
