#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The wired build skips the clock edges of quiet tiles (sim/direct_wired_main.cpp; the skip
# condition is proved in tests/formal, the rows "quiet ... tile"). This runs the same network
# with the skip (default) and with every tile clocked on every edge (TOTEX_WIRED_SKIP_QUIET=0):
#   wired_skip.sh <totex> <totex sim args...>
# and fails unless both pass with the same cycles, clock edges and delivery-trace digest.
set -euo pipefail
totex=$1; shift
declare -A result
for skip in 1 0; do
  out=$(TOTEX_RTL_BUILD=wired TOTEX_WIRED_SKIP_QUIET=$skip "$totex" sim "$@" --engine rtl --json) ||
    { echo "$out"; echo "FAIL: run with TOTEX_WIRED_SKIP_QUIET=$skip"; exit 1; }
  result[$skip]=$(jq -c '{passed, cycles, simulated_cycles, trace_sha256, errors}' <<<"$out")
  echo "skip=$skip: ${result[$skip]} in $(jq .wall_seconds <<<"$out") s"
  [ "$(jq -r .passed <<<"$out")" = true ] || { echo "FAIL: the run with skip=$skip did not pass"; exit 1; }
done
[ "${result[1]}" = "${result[0]}" ] || { echo "FAIL: skipping quiet tiles changed the run"; exit 1; }
echo "PASS: skipping quiet tiles gives the same cycles, edges and trace"
