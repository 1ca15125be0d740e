#!/usr/bin/env bash
# The README's results table: for each network and model, the lower bound and the term that set
# it, the proven optimum where the exact solver has one, totex's default (auto) schedule, and a
# published figure of another system for the same exchange where one exists (their sources are
# in the README). Usage: schedules_table.sh BUILD_DIR [BUDGET] [EXACT_BUDGET_SECONDS]
# BUDGET: --budget of the auto runs; "default" (the default) runs auto as a user would, without one.
set -euo pipefail
build=${1:-build}
budget=${2:-default}
exact_budget=${3:-120}
totex="$build/bin/totex"

echo "| topology | model | bound (term) | proven optimum | totex steps (algorithm) | steps / bound | seconds | other systems |"
echo "|---|---|---|---|---|---|---|---|"
while IFS='|' read -r topo model exact other; do
  [ -z "$topo" ] && continue
  b=$("$totex" bound --topo "$topo" --model "$model" --json)
  lb=$(jq .lower_bound <<<"$b")
  term=$(jq -r --argjson lb "$lb" '[.bounds[] | select(.value == $lb) | .name] | join(", ")' <<<"$b")
  start=$(date +%s.%N)
  budget_flag=()
  [ "$budget" != default ] && budget_flag=(--budget "$budget")
  s=$("$totex" schedule --topo "$topo" --model "$model" "${budget_flag[@]}" --json)
  secs=$(printf %.1f "$(echo "$(date +%s.%N) - $start" | bc)")
  steps=$(jq .steps <<<"$s")
  algo=$(jq -r .algorithm <<<"$s")
  [ "$(jq .verified <<<"$s")" = true ] || { echo "$topo $model: not verified" >&2; exit 1; }
  opt="—"
  if [ "$(jq .proven_optimal <<<"$s")" = true ]; then
    opt="$steps"
  elif [ "$exact" = yes ]; then
    e=$("$totex" schedule --topo "$topo" --model "$model" --algo exact --budget "$exact_budget" --json || true)
    [ "$(jq -r '.proven_optimal // false' <<<"$e")" = true ] && opt="$(jq .steps <<<"$e") (exact)"
  fi
  ratio=$(printf %.3f "$(echo "$steps / $lb" | bc -l)")
  echo "| \`$topo\` | $model | $lb ($term) | $opt | $steps ($algo) | $ratio | $secs | ${other:-} |"
done <<'CASES'
ring:4|nic|yes|
ring:8|nic|yes|
ring:16|nic|yes|
torus:3x3|nic|yes|
torus:2x4|nic|yes|
torus:4x4|nic|yes|
hypercube:3|nic|yes|
hypercube:4|nic|yes|
torus:4x8|nic|no|
torus:8x8|nic|no|S4NoC TDM 86 (period 87); Poseidon 85; BookSim2 157 default, 93 best adaptive
torus:10x10|nic|no|S4NoC TDM 156 (period 157); Poseidon 151
torus:16x16|nic|no|BookSim2 1015 default, 579 best adaptive
hypercube:6|nic|no|
hypercube:7|nic|no|
hypercube:8|nic|no|
path:8*path:8|nic|no|
path:4*path:4|nic|yes|
ring:4|all-port|yes|
ring:8|all-port|yes|
torus:3x3|all-port|yes|
torus:2x4|all-port|yes|
torus:4x4|all-port|yes|
hypercube:3|all-port|yes|
hypercube:4|all-port|yes|
hypercube:7|all-port|no|
hypercube:8|all-port|no|
hypercube:9|all-port|no|
hypercube:10|all-port|no|
torus:4x8|all-port|no|
torus:4x6|all-port|no|
ghc:4x4|all-port|no|
path:8*path:8|all-port|no|
CASES
