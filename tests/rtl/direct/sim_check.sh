#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs one direct-network exchange on the Verilated RTL and checks it against the schedule and the
# reference engine.
#   sim_check.sh <totex> scheduled <topo> <model> [<algo>]
#       the schedule verifies; the RTL run passes (every message once, right payload, in the
#       predicted cycle, no assertion); cycles == schedule steps + 1 (pipeline latency); the
#       delivery-trace digest equals the reference engine's.
#   sim_check.sh <totex> dynamic <topo> [<routing> [<cycles>]]
#       the dynamic baseline (--dynamic <routing>: adaptive (default) | dor) delivers all N(N-1)
#       messages exactly once (|P|(|P|-1) on a placed torus, whose empty nodes only forward), no
#       assertion; prints its cycles next to the nic lower bound (cycles must be >= the bound) and,
#       when <cycles> is given, requires exactly that many (the measured count: the run is
#       deterministic, and the SystemC model must take the same).
set -euo pipefail
totex=$1 mode=$2 topo=$3
if [ "$mode" = scheduled ]; then
  model=${4:-nic} algo=${5:-}
else
  model=nic algo="" routing=${4:-adaptive} want=${5:-}
fi
args=(--topo "$topo" --model "$model")
[ -n "$algo" ] && args+=(--algo "$algo")
fail() { echo "FAIL: $*"; exit 1; }

if [ "$mode" = scheduled ]; then
  sched=$("$totex" schedule "${args[@]}" --json)
  steps=$(jq -r .steps <<<"$sched")
  [ "$(jq -r .verified <<<"$sched")" = true ] || fail "schedule does not verify"
  ref=$("$totex" sim "${args[@]}" --engine ref --json)
  rtl=$("$totex" sim "${args[@]}" --engine rtl --json) || { echo "$rtl"; fail "rtl run failed"; }
  echo "$rtl" | jq -c '{topology, algorithm, mode, cycles, expected_cycles, delivered, expected_delivered, simulated_cycles, cycles_per_second, errors: .errors[0:5]}'
  jq -e '.passed == true and (.errors | length) == 0 and .cycles == .expected_cycles
         and .delivered == .expected_delivered' <<<"$rtl" >/dev/null || fail "rtl result"
  [ "$(jq -r .cycles <<<"$rtl")" = $((steps + 1)) ] || fail "cycles != steps + 1 = $((steps + 1))"
  [ "$(jq -r .trace_sha256 <<<"$rtl")" = "$(jq -r .trace_sha256 <<<"$ref")" ] || fail "trace differs from ref"
  echo "PASS $topo $model $(jq -r .algorithm <<<"$rtl"): $steps steps, $((steps + 1)) cycles, trace = ref"
else
  n=$("$totex" bound --topo "$topo" --model nic --json | jq -r .processors)  # = nodes unless placed (paper 004)
  bound=$("$totex" bound --topo "$topo" --model nic --json | jq -r .lower_bound)
  rtl=$("$totex" sim "${args[@]}" --mode dynamic --dynamic "$routing" --engine rtl --json) || { echo "$rtl"; fail "rtl run failed"; }
  echo "$rtl" | jq -c '{topology, mode, dynamic, cycles, delivered, expected_delivered, simulated_cycles, cycles_per_second, errors: .errors[0:5]}'
  jq -e --argjson m $((n * (n - 1))) --arg r "$routing" '.passed == true and (.errors | length) == 0 and .mode == "dynamic"
         and .dynamic == $r and .delivered == $m and .expected_delivered == $m' <<<"$rtl" >/dev/null || fail "dynamic result"
  cycles=$(jq -r .cycles <<<"$rtl")
  [ "$cycles" -ge "$bound" ] || fail "cycles $cycles below the nic lower bound $bound?"
  [ -z "$want" ] || [ "$cycles" = "$want" ] || fail "$cycles cycles, measured $want before"
  echo "PASS $topo dynamic $routing: $((n * (n - 1))) messages in $cycles cycles (nic lower bound $bound)"
fi
