#!/usr/bin/env bash
# Issue 49's permutation target: perm:transpose, bitrev and shift (one flit and several) on tori
# of 16 to 256 nodes, nic model, one-shot and periodic, each at the default budget. Per case:
# totex's steps or period, the lower bound, the gap, whether proven optimal (and how), the
# generator and the wall seconds. Prints a Markdown table; exits 1 when a run fails or is not
# verified (a gap is reported, not failed).
#
# Usage: permutations.sh TOTEX_BINARY [CASES_FILTER]   (a grep -E filter on "topo traffic mode")
set -euo pipefail
totex=${1:?usage: permutations.sh TOTEX_BINARY [FILTER]}
filter=${2:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| network | traffic | mode | totex | bound | gap | proven | generator | seconds |"
echo "|---|---|---|---:|---:|---:|---|---|---:|"
bad=0
for topo in torus:4x4 torus:6x6 torus:8x8 torus:16x16; do
  for traffic in perm:transpose perm:transpose:4 perm:transpose:8 perm:bitrev perm:bitrev:4 perm:shift:1 perm:shift:3 \
      perm:shift:3:4 perm:shift:5:2; do
    for mode in one-shot periodic; do
      grep -qE -- "$filter" <<<"$topo $traffic $mode" || continue
      # bitrev needs a power-of-two number of nodes.
      [ "$topo" = torus:6x6 ] && [ "${traffic#perm:bitrev}" != "$traffic" ] && continue
      flag=()
      [ "$mode" = periodic ] && flag=(--periodic)
      start=$(date +%s.%N)
      if ! "$totex" schedule --topo "$topo" --model nic --traffic "$traffic" "${flag[@]}" --json >"$tmp/out.json" 2>"$tmp/err"; then
        echo "| $topo | $traffic | $mode | failed: $(head -c 200 "$tmp/err" | tr '\n|' '  ') | | | | | |"
        bad=1
        continue
      fi
      secs=$(printf %.1f "$(echo "$(date +%s.%N) - $start" | bc)")
      j=$(cat "$tmp/out.json")
      got=$(jq -r 'if .periodic then .period else .steps end' <<<"$j")
      bound=$(jq -r 'if .periodic then .period_bound else .lower_bound end' <<<"$j")
      [ "$(jq -r .verified <<<"$j")" = true ] || bad=1
      gap=$(echo "scale=1; 100 * ($got - $bound) / $bound" | bc)
      proven=$(jq -r 'if .proven_optimal then (if (.proof | test("infeasible")) then "yes (exact)" else "yes (bound)" end) else "no" end' <<<"$j")
      echo "| $topo | $traffic | $mode | $got | $bound | $gap % | $proven | $(jq -r .algorithm <<<"$j") | $secs |"
    done
  done
done
exit $bad
