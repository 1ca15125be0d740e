#!/usr/bin/env bash
# Sourced by the benches that compare schedules with their bounds (permutations.sh, degraded.sh).
# schedule_row COLUMN1 COLUMN2 MODE TOTEX_ARGS...: runs `$totex schedule TOTEX_ARGS... --json`
# (--periodic when MODE is periodic) and prints one Markdown row: the two columns, the mode,
# totex's steps or period, the lower bound, the gap, whether proven optimal (and how), the
# generator and the wall seconds. Sets bad=1 when the run fails or is not verified.
# Needs $totex and $tmp (a scratch directory).
# shellcheck disable=SC2154,SC2034  # totex and tmp are the caller's; bad is the caller's result
schedule_row() {
  local c1=$1 c2=$2 mode=$3
  shift 3
  local flag=() start secs j got bound gap proven
  [ "$mode" = periodic ] && flag=(--periodic)
  start=$(date +%s.%N)
  if ! "$totex" schedule "$@" "${flag[@]}" --json >"$tmp/out.json" 2>"$tmp/err"; then
    echo "| $c1 | $c2 | $mode | failed: $(head -c 200 "$tmp/err" | tr '\n|' '  ') | | | | | |"
    bad=1
    return
  fi
  secs=$(printf %.1f "$(echo "$(date +%s.%N) - $start" | bc)")
  j=$(cat "$tmp/out.json")
  got=$(jq -r 'if .periodic then .period else .steps end' <<<"$j")
  bound=$(jq -r 'if .periodic then .period_bound else .lower_bound end' <<<"$j")
  [ "$(jq -r .verified <<<"$j")" = true ] || bad=1
  gap=$(echo "scale=1; 100 * ($got - $bound) / $bound" | bc)
  proven=$(jq -r 'if .proven_optimal then (if (.proof | test("minimal routes")) then "yes (minimal routes)"
    elif (.proof | test("infeasible|UNSAT")) then "yes (exact)" else "yes (bound)" end) else "no" end' <<<"$j")
  echo "| $c1 | $c2 | $mode | $got | $bound | $gap % | $proven | $(jq -r .algorithm <<<"$j") | $secs |"
}
