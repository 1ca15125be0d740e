#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README table: measured RTL cycles of the scheduled exchange vs the dynamic dimension-order
# baseline vs the lower bounds, for the sizes the tests run (and a few larger ones).
# Usage: cycles_table.sh <totex> [<topo>:<model>:<algo> ...]
# Columns: scheduled cycles = schedule steps + 1 (pipeline latency), measured on the RTL; dynamic
# cycles = start to last delivery, measured; bounds from `totex bound` (steps; add 1 cycle of
# latency to compare with the RTL columns).
set -euo pipefail
totex=$1; shift
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  cases=(ring:8:all-port:table ring:8:single-port:a2 hypercube:4:all-port:table hypercube:4:single-port:a2
         torus:4x4:all-port:table torus:4x4:single-port:a2 torus:4x4:nic:pairwise torus:8x8:all-port:table
         torus:3x5:single-port:a2 ghc:3x4:single-port:a2 metacube:1,2:nic:metacube-firstfit
         metacube:2,1:nic:metacube-firstfit torus:6x6@linear:nic:odr torus:6x6@linear:all-port:udr
         torus:8x8@linear:nic:odr torus:5x5@multiple:2:nic:odr torus:5x5@multiple:2:all-port:udr
         torus:3x3x3@linear:nic:odr torus:4x4x4@linear:nic:odr)
fi
printf '| topology | N | model | algorithm | schedule steps | model lower bound | scheduled RTL cycles | dynamic RTL cycles | nic lower bound | sim cycles/s (sched / dyn) |\n'
printf '|---|---|---|---|---|---|---|---|---|---|\n'
for c in "${cases[@]}"; do
  # topo:model:algo, where topo has one ':' (torus:8x8) or, placed, two (torus:5x5@multiple:2)
  algo=${c##*:}; rest=${c%:*}; model=${rest##*:}; topo=${rest%:*}
  s=$("$totex" sim --topo "$topo" --model "$model" --algo "$algo" --engine rtl --json)
  steps=$("$totex" schedule --topo "$topo" --model "$model" --algo "$algo" --json | jq -r .steps)
  lb=$("$totex" bound --topo "$topo" --model "$model" --json | jq -r .lower_bound)
  nic=$("$totex" bound --topo "$topo" --model nic --json)
  dyn="n/a" dcps="n/a"
  if d=$("$totex" sim --topo "$topo" --model nic --algo pairwise --mode dynamic --engine rtl --json 2>/dev/null); then
    dyn=$(jq -r 'if .passed then .cycles else "FAIL" end' <<<"$d"); dcps=$(jq -r '.cycles_per_second | floor' <<<"$d")
  fi
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s |\n' "$topo" \
    "$(jq -r 'if .processors == .nodes then .nodes else "\(.nodes) (\(.processors) processors)" end' <<<"$nic")" "$model" \
    "$(jq -r .algorithm <<<"$s")" "$steps" "$lb" "$(jq -r 'if .passed then .cycles else "FAIL" end' <<<"$s")" \
    "$dyn" "$(jq -r .lower_bound <<<"$nic")" "$(jq -r '.cycles_per_second | floor' <<<"$s")" "$dcps"
done
