#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 29: one schedule of at least 1,024 nodes on the RTL. The torus:32x32 rotation schedule
# (nic) runs on the reference engine and on the wired RTL build (backdoor load); fails unless
# both pass, the RTL takes the schedule's T + 1 cycles and the two trace digests are equal.
# Usage: rtl_1024.sh BUILD_DIR      Prints one Markdown row.
set -euo pipefail
totex="${1:-build}/bin/totex"
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
"$totex" schedule --topo torus:32x32 --model nic --algo rotation -o "$dir/s.sched" >/dev/null
"$totex" sim --schedule "$dir/s.sched" --engine ref --json >"$dir/ref.json"
start=$(date +%s.%N)
"$totex" sim --schedule "$dir/s.sched" --engine rtl --load backdoor --json >"$dir/rtl.json"
secs=$(echo "$(date +%s.%N) - $start" | bc)
jq -e --slurpfile r "$dir/ref.json" '.passed and $r[0].passed and .cycles == $r[0].cycles + 1
  and .trace_sha256 == $r[0].trace_sha256' "$dir/rtl.json" >/dev/null || {
  echo "FAIL: torus:32x32 rotation on rtl"; jq -c '{passed, cycles, trace_sha256}' "$dir/ref.json" "$dir/rtl.json"; exit 1; }
jq -r --arg s "$(printf %.1f "$secs")" '"| torus:32x32 (1024 nodes) | nic | rotation | \(.cycles) | \(.delivered) | \(.trace_sha256[0:16]) = ref | \($s) |"' "$dir/rtl.json"
