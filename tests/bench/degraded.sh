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
# shellcheck source=tests/bench/schedule_row.sh
. "$(dirname "$0")/schedule_row.sh"
echo "| network | model | mode | totex | bound | gap | proven | generator | seconds |"
echo "|---|---|---|---:|---:|---:|---|---|---:|"
bad=0
# One failed link, two in different cuts, a dimension-1 link; 36 to 256 nodes.
for topo in torus:6x6~fail:0-1 torus:8x8~fail:0-1 torus:8x8~fail:0-8 torus:8x8~fail:0-1,2-10 torus:16x16~fail:0-1 \
    torus:16x16~fail:0-1,2-18; do
  for model in nic all-port; do
    for mode in one-shot periodic; do
      grep -qE -- "$filter" <<<"$topo $model $mode" || continue
      schedule_row "$topo" "$model" "$mode" --topo "$topo" --model "$model"
    done
  done
done
exit $bad
