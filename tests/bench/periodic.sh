#!/usr/bin/env bash
# Periodic (TDM) schedules sweep (docs/periodic.md): per network the period bound and the terms
# that set it, totex's period (schedule --periodic, verified modulo the period), the ratio, whether
# it is proven optimal and where the proof holds (general: equals the bound; minimal routes: slot
# sums; model searched: SAT UNSAT for the routes offered), the longest latency, the seconds taken.
# Usage: periodic.sh BUILD_DIR [BUDGET] [NETWORKS...]   (default networks: the sweep below)
set -euo pipefail
build=${1:-build}
budget=${2:-4}
shift $(( $# >= 2 ? 2 : $# ))
totex="$build/bin/totex"
nets=("$@")
if [ ${#nets[@]} -eq 0 ]; then
  for k in 4 5 6 7 8 9 10 11 12 13 14 15 16; do nets+=("torus:${k}x${k}"); done
  for n in 4 5 6 7 8 9 10; do nets+=("hypercube:$n"); done
  for k in 4 5 6 7 8 9 10 11 12 13 14 15 16; do nets+=("mesh:${k}x${k}"); done
fi
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(git -C "$(dirname "$0")" rev-parse --short HEAD), budget $budget"
# Issue 28's targets: the bound on tori and hypercubes, within 2 % of it on meshes.
target() {
  case "$1" in
    mesh:*) echo "<= 1.02 x bound" ;;
    *) echo "= bound" ;;
  esac
}
met() {  # NETWORK PERIOD BOUND
  case "$1" in
    mesh:*) [ $(( $2 * 100 )) -le $(( $3 * 102 )) ] ;;
    *) [ "$2" -eq "$3" ] ;;
  esac
}
missed=()
echo "| network | period bound (terms) | totex period | period / bound | proven | latency max | seconds | target |"
echo "|---|---|---|---|---|---|---|---|"
for net in "${nets[@]}"; do
  start=$(date +%s.%N)
  s=$("$totex" schedule --topo "$net" --model nic --periodic --budget "$budget" --json) || {
    echo "$net: schedule --periodic failed" >&2; exit 1; }
  secs=$(printf %.1f "$(echo "$(date +%s.%N) - $start" | bc)")
  [ "$(jq .verified <<<"$s")" = true ] || { echo "$net: not verified" >&2; exit 1; }
  pb=$(jq .period_bound <<<"$s")
  p=$(jq .period <<<"$s")
  terms=$(jq -r --argjson pb "$pb" '[.period_bound_terms[] | select(.value == $pb) | .name] | join(", ")' <<<"$s")
  proven="no"
  if [ "$(jq .proven_optimal <<<"$s")" = true ]; then proven=$(jq -r .proof_scope <<<"$s"); fi
  ratio=$(printf %.3f "$(echo "$p / $pb" | bc -l)")
  if met "$net" "$p" "$pb"; then status="met ($(target "$net"))"; else status="MISSED ($(target "$net"))"; missed+=("$net"); fi
  echo "| \`$net\` | $pb ($terms) | $p ($(jq -r .algorithm <<<"$s")) | $ratio | $proven | $(jq .latency_max <<<"$s") | $secs | $status |"
done
echo
if [ ${#missed[@]} -eq 0 ]; then echo "Every target met."; else echo "Targets missed: ${missed[*]}."; fi
