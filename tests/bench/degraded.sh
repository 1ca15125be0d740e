#!/usr/bin/env bash
# Issue 49's degraded-network target: tori with one or two failed links, `all` traffic, nic and
# all-port, one-shot and periodic, each at the default budget. Per case: totex's steps or period,
# the degraded network's lower bound, the gap (the target is 5 %), whether proven optimal (and
# how), the generator and the wall seconds. Prints a Markdown table; exits 1 when a run fails or
# is not verified (a gap above 5 % is reported, not failed: it is a target, docs/networks.md).
#
# Usage: degraded.sh TOTEX_BINARY [CASES_FILTER]   (a grep -E filter on "topo model mode")
set -euo pipefail
totex=${1:?usage: degraded.sh TOTEX_BINARY [FILTER]}
filter=${2:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| network | model | mode | totex | bound | gap | proven | generator | seconds |"
echo "|---|---|---|---:|---:|---:|---|---|---:|"
bad=0
# One failed link, two in different cuts, a dimension-1 link; 36 to 256 nodes.
for topo in torus:6x6~fail:0-1 torus:8x8~fail:0-1 torus:8x8~fail:0-8 torus:8x8~fail:0-1,2-10 torus:16x16~fail:0-1 \
    torus:16x16~fail:0-1,2-18; do
  for model in nic all-port; do
    for mode in one-shot periodic; do
      grep -qE -- "$filter" <<<"$topo $model $mode" || continue
      flag=()
      [ "$mode" = periodic ] && flag=(--periodic)
      start=$(date +%s.%N)
      if ! "$totex" schedule --topo "$topo" --model "$model" "${flag[@]}" --json >"$tmp/out.json" 2>"$tmp/err"; then
        echo "| $topo | $model | $mode | failed: $(head -c 200 "$tmp/err" | tr '\n|' '  ') | | | | | |"
        bad=1
        continue
      fi
      secs=$(printf %.1f "$(echo "$(date +%s.%N) - $start" | bc)")
      j=$(cat "$tmp/out.json")
      got=$(jq -r 'if .periodic then .period else .steps end' <<<"$j")
      bound=$(jq -r 'if .periodic then .period_bound else .lower_bound end' <<<"$j")
      [ "$(jq -r .verified <<<"$j")" = true ] || bad=1
      gap=$(echo "scale=1; 100 * ($got - $bound) / $bound" | bc)
      proven=$(jq -r 'if .proven_optimal then (if (.proof | test("minimal routes")) then "yes (minimal routes)" elif (.proof | test("infeasible|UNSAT")) then "yes (exact)" else "yes (bound)" end) else "no" end' <<<"$j")
      echo "| $topo | $model | $mode | $got | $bound | $gap % | $proven | $(jq -r .algorithm <<<"$j") | $secs |"
    done
  done
done
exit $bad
