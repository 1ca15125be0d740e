#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# First-use model build time and simulation speed of the Verilated engines (issue 16), run by
# `make bench` (tests/bench/run.sh). Per case:
#   cold  = `totex sim` wall time with an empty model cache and an empty ccache (its own CCACHE_DIR),
#           so every Verilator and C++ step runs; it includes the schedule and the (short) run;
#   warm  = the same with the cache the cold run left, for a different topology with the same node
#           parameters (the `then` column): only the topology changed;
#   cycles, cycles/s and the trace digest of the cold run (`totex sim --json`); load = 1-min load
#           average when the case started (the machine may be shared: read the times with it).
# Usage: rtl_build_time.sh [BUILD_DIR] [OUT.md]   (default build, BUILD_DIR/bench/rtl_build_time.md)
# RTL_BENCH_CASES overrides the case list (lines "topo engine then extra-args...", then "-" for none);
# RTL_BENCH_TIMEOUT (s, default 1800) stops one build; a stopped case is reported as "> N".
set -euo pipefail
build=${1:-build}
totex="$(cd "$(dirname "$build/bin/totex")" && pwd)/totex"
out=${2:-$build/bench/rtl_build_time.md}
mkdir -p "$(dirname "$out")"
limit=${RTL_BENCH_TIMEOUT:-1800}
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cases=${RTL_BENCH_CASES:-"torus:4x4 rtl - --model nic --mode dynamic
torus:4x4 rtl - --model nic
torus:8x8 rtl torus:4x16 --model nic --mode dynamic
torus:8x8 rtl torus:4x16 --model nic
torus:16x16 rtl torus:8x32 --model nic --mode dynamic
torus:16x16 rtl torus:8x32 --model nic
torus:8x8 cosim torus:4x16 --model nic --mode dynamic
torus:16x16 cosim torus:8x32 --model nic --mode dynamic
min:16:4:omega rtl min:16:4:baseline
min:64:4:omega rtl min:64:4:baseline
min:256:4:omega rtl min:256:4:baseline
min:64:4:omega cosim min:64:4:baseline
min:256:4:omega cosim min:256:4:baseline"}

# run_case CACHE CCACHE TOPO ENGINE ARGS...: prints "seconds json" (json empty when it failed).
run_case() {
  local cache=$1 cc=$2 topo=$3 engine=$4; shift 4
  local t0 j rc=0
  t0=$(date +%s.%N)
  j=$(TOTEX_CACHE_DIR=$cache CCACHE_DIR=$cc timeout "$limit" nice -n 10 \
      "$totex" sim --topo "$topo" --engine "$engine" "$@" --json 2>"$work/err") || rc=$?
  local secs; secs=$(echo "$(date +%s.%N) - $t0" | bc)
  if [ "$rc" = 124 ]; then echo ">$limit"; return; fi
  printf '%.0f %s\n' "$secs" "$(jq -c . <<<"$j" 2>/dev/null || true)"
}
field() { jq -r "$1" <<<"$2" 2>/dev/null || echo "?"; }

{
  echo "| network | engine | mode | cold build+run s | then | warm build+run s | cycles | cycles/s | trace sha256 | load |"
  echo "|---|---|---|---:|---|---:|---:|---:|---|---:|"
} >"$out"
failed=0
while read -r topo engine then extra; do
  [ -z "$topo" ] && continue
  # shellcheck disable=SC2206  # extra holds flags
  args=($extra)
  mode=scheduled; [[ " $extra " == *" --mode dynamic "* ]] && mode=dynamic
  [[ "$topo" == min:* ]] && mode=table
  load=$(cut -d' ' -f1 /proc/loadavg)
  cache="$work/cache_$RANDOM"; cc="$work/ccache_$RANDOM"
  mkdir -p "$cache" "$cc"
  r=$(run_case "$cache" "$cc" "$topo" "$engine" "${args[@]}")
  cold=${r%% *}; j=${r#* }
  [ "$(field .passed "$j")" = true ] || { failed=1; echo "rtl_build_time: $topo $engine $extra failed" >&2; }
  warm="-"
  if [ "$then" != "-" ] && [[ "$cold" != ">"* ]]; then
    w=$(run_case "$cache" "$cc" "$then" "$engine" "${args[@]}")
    warm=${w%% *}
    [ "$(field .passed "${w#* }")" = true ] || { failed=1; echo "rtl_build_time: $then $engine $extra failed" >&2; }
  fi
  printf '| %s | %s | %s | %s | %s | %s | %s | %.0f | %s | %s |\n' "$topo" "$engine" "$mode" "$cold" "$then" "$warm" \
    "$(field .cycles "$j")" "$(field .cycles_per_second "$j" | sed 's/^?$/0/;s/^null$/0/')" \
    "$(field .trace_sha256 "$j" | cut -c1-12)" "$load" >>"$out"
  rm -rf "$cache" "$cc"
done <<<"$cases"
cat "$out"
exit "$failed"
