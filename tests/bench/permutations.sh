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
# shellcheck source=tests/bench/schedule_row.sh
. "$(dirname "$0")/schedule_row.sh"
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
      schedule_row "$topo" "$traffic" "$mode" --topo "$topo" --model nic --traffic "$traffic"
    done
  done
done
exit $bad
