#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: [TDM_ENGINE=rtl|systemc] [TDM_MODEL=nic|all-port|single-port] tdm_check.sh TOTEX TOPO PERIODS "SIM_ARGS" [schedule args...]
# Makes a schedule for TOPO (`totex schedule --model TDM_MODEL [schedule args]`, default nic; all-port
# runs on the all-port tile), runs its TDM slot
# tables PERIODS periods on the reference engine and on the TDM tile network of TDM_ENGINE (default
# rtl: the Verilated tiles; systemc: the SystemC tiles) (`totex sim --periods`, extra SIM_ARGS such
# as "--period 18") and fails unless both pass, deliver PERIODS x N x (N-1) messages, the tiles take
# exactly the predicted cycles (ref's + 1: one register per hop), both use the same period and the
# two trace digests are equal.
set -euo pipefail
totex=$1; topo=$2; periods=$3; sim_args=$4; shift 4
engine=${TDM_ENGINE:-rtl}
model=${TDM_MODEL:-nic}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
"$totex" schedule --topo "$topo" --model "$model" "$@" -o "$dir/s.sched" > "$dir/schedule.txt"
# shellcheck disable=SC2086 # SIM_ARGS is a word list on purpose
"$totex" sim --schedule "$dir/s.sched" --engine ref --periods "$periods" $sim_args --json > "$dir/ref.json"
# shellcheck disable=SC2086
"$totex" sim --schedule "$dir/s.sched" --engine "$engine" --periods "$periods" $sim_args --json > "$dir/hw.json" || true
n=$(jq -n --slurpfile r "$dir/ref.json" '$r[0].expected_delivered / '"$periods")
jq -e --slurpfile ref "$dir/ref.json" --argjson k "$periods" --arg engine "$engine" '
  ($ref[0]) as $r |
  .passed and $r.passed and .engine == $engine and $r.engine == "ref"
  and .periods == $k and $r.periods == $k and .period == $r.period
  and .deliveries == .expected_delivered and $r.deliveries == .deliveries
  and .cycles == .expected_cycles and .cycles == $r.cycles + 1
  and (.errors | length) == 0 and .digest == $r.digest and (.digest | length) == 64' "$dir/hw.json" > /dev/null || {
  echo "FAIL: $topo, $periods periods"; echo "--- schedule:"; cat "$dir/schedule.txt"
  echo "--- ref:"; jq -c 'del(.deliveries_per_cycle)' "$dir/ref.json"; echo "--- $engine:"; jq -c 'del(.deliveries_per_cycle)' "$dir/hw.json"; exit 1; }
jq -r --slurpfile ref "$dir/ref.json" '"\(.topology): \(.periods) periods of \(.period) slots, \(.deliveries) deliveries (\($ref[0].expected_delivered / .periods) per period), \(.engine) \(.cycles) cycles = ref \($ref[0].cycles) + 1, digest \(.digest) on both"' "$dir/hw.json"
