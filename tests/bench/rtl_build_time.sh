#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# First-use model build time and simulation speed of the Verilated engines (issue 16), run by
# `make bench` (tests/bench/run.sh). Per case:
#   cold  = `totex sim` wall time with an empty model cache and an empty ccache (its own CCACHE_DIR),
#           so every Verilator and C++ step runs; it includes the schedule and the (short) run;
#   warm  = the same with the cache the cold run left, for a different topology with the same node
#           parameters (the `then` column): only the topology changed;
#   build  = TOTEX_RTL_BUILD for direct networks (RTL_BENCH_BUILDS lists the builds to measure,
#           default "wired top": the wired tiles, and the generated top as it was built before
#           them, flat below 32 nodes and hierarchical from 32; "default" = the engine's choice);
#   model  = the seconds of the Verilator build itself, from totex's "built ... in N s" line
#           (total minus model = schedule, run and start-up);
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

# run_case CACHE CCACHE BUILD TOPO ENGINE ARGS...: prints "seconds model-seconds json" (json empty
# when it failed).
run_case() {
  local cache=$1 cc=$2 build=$3 topo=$4 engine=$5; shift 5
  local t0 j rc=0
  [ "$build" = default ] && build=
  t0=$(date +%s.%N)
  j=$(TOTEX_RTL_BUILD=$build TOTEX_CACHE_DIR=$cache CCACHE_DIR=$cc timeout "$limit" nice -n 10 \
      "$totex" sim --topo "$topo" --engine "$engine" "$@" --json 2>"$work/err") || rc=$?
  local secs; secs=$(echo "$(date +%s.%N) - $t0" | bc)
  if [ "$rc" = 124 ]; then echo ">$limit >$limit"; return; fi
  local model; model=$(awk '/^totex: built .* in [0-9]+ s/ {for (i = 1; i < NF; i++) if ($i == "in") s += $(i + 1)} END {print s + 0}' "$work/err")
  printf '%.0f %s %s\n' "$secs" "$model" "$(jq -c . <<<"$j" 2>/dev/null || true)"
}
field() { jq -r "$1" <<<"$2" 2>/dev/null || echo "?"; }

{
  echo "| network | engine | mode | build | cold total s | cold model s | then | warm total s | warm model s | cycles | cycles/s | trace sha256 | load |"
  echo "|---|---|---|---|---:|---:|---|---:|---:|---:|---:|---|---:|"
} >"$out"
failed=0
while read -r topo engine then extra; do
  [ -z "$topo" ] && continue
  # shellcheck disable=SC2206  # extra holds flags
  args=($extra)
  mode=scheduled; [[ " $extra " == *" --mode dynamic "* ]] && mode=dynamic
  [[ "$topo" == min:* ]] && mode=table
  for build in ${RTL_BENCH_BUILDS:-wired top}; do
    if [[ "$topo" == min:* ]] || [ "$engine" != rtl ]; then  # the MIN and cosim have one build each
      [ "$build" = "${RTL_BENCH_BUILDS:-wired top}" ] || [ "$build" = "$(cut -d' ' -f1 <<<"${RTL_BENCH_BUILDS:-wired top}")" ] || continue
      build=default
    elif [ "$build" = top ]; then
      nodes=$("$totex" bound --topo "$topo" --model nic --json | jq -r .processors)
      build=$([ "$nodes" -ge 32 ] && echo hier || echo flat)
    fi
    load=$(cut -d' ' -f1 /proc/loadavg)
    cache="$work/cache_$RANDOM"; cc="$work/ccache_$RANDOM"
    mkdir -p "$cache" "$cc"
    r=$(run_case "$cache" "$cc" "$build" "$topo" "$engine" "${args[@]}")
    read -r cold cold_model j <<<"$r"
    [ "$(field .passed "$j")" = true ] || { failed=1; echo "rtl_build_time: $topo $engine $build $extra failed" >&2; }
    warm="-" warm_model="-"
    if [ "$then" != "-" ] && [[ "$cold" != ">"* ]]; then
      w=$(run_case "$cache" "$cc" "$build" "$then" "$engine" "${args[@]}")
      read -r warm warm_model wj <<<"$w"
      [ "$(field .passed "$wj")" = true ] || { failed=1; echo "rtl_build_time: $then $engine $build $extra failed" >&2; }
    fi
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.0f | %s | %s |\n' "$topo" "$engine" "$mode" \
      "$([ "$build" = default ] && echo - || echo "$build")" "$cold" "$cold_model" "$then" "$warm" "$warm_model" \
      "$(field .cycles "$j")" "$(field .cycles_per_second "$j" | sed 's/^?$/0/;s/^null$/0/')" \
      "$(field .trace_sha256 "$j" | cut -c1-12)" "$load" >>"$out"
    rm -rf "$cache" "$cc"
  done
done <<<"$cases"
cat "$out"
exit "$failed"
