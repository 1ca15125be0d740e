#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make fuzz: builds the libFuzzer targets of tests/fuzz in a separate clang++ configure
# (TOTEX_FUZZ=ON, ASan + UBSan) and runs each one, starting from the committed seeds.
#   tests/fuzz/run.sh [BUILD_DIR]       (default build-fuzz)
# Environment: FUZZ_SECONDS (default 60 per target), FUZZ_RUNS (if set: -runs=N instead of a time
# limit), FUZZ_TARGETS (default: all eight), JOBS (default 2).
# New inputs go to BUILD_DIR/corpus/<target>/, crashes to BUILD_DIR/artifacts/; a crash fails the
# run: copy the input to tests/fuzz/regressions/<target>/, fix, and CTest replays it from then on.
# Prints, per target, executions, exec/s, coverage (libFuzzer's cov: and ft:) and the corpus size.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build-fuzz}
seconds=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-spec load_schedule load_config load_table load_verify load_shd load_poseidon traffic}
jobs=${JOBS:-2}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -DTOTEX_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "${launcher[@]}" >/dev/null
cmake --build "$build" -j "$jobs" --target $(for t in $targets; do printf 'fuzz_%s ' "$t"; done)
mkdir -p "$build/artifacts"
limit=(-max_total_time="$seconds")
[ -n "${FUZZ_RUNS:-}" ] && limit=(-runs="$FUZZ_RUNS")
summary="$build/fuzz-summary.txt"
printf '%-14s %12s %9s %7s %8s %7s %s\n' target executions exec/s cov ft corpus result | tee "$summary"
status=0
for t in $targets; do
  dict="$here/files.dict"
  [ "$t" = spec ] && dict="$here/spec.dict"
  [ "$t" = traffic ] && dict="$here/traffic.dict"
  mkdir -p "$build/corpus/$t" "$here/regressions/$t"
  log="$build/fuzz-$t.log"
  set +e
  "$build/bin/fuzz_$t" "${limit[@]}" -max_len=4096 -rss_limit_mb=4096 -timeout=30 -print_final_stats=1 \
    -dict="$dict" -artifact_prefix="$build/artifacts/$t-" \
    "$build/corpus/$t" "$here/corpus/$t" "$here/regressions/$t" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  corpus=$(find "$build/corpus/$t" "$here/corpus/$t" "$here/regressions/$t" -type f | wc -l)
  result=ok
  if [ "$rc" != 0 ]; then result="FAILED (exit $rc; see $log)"; status=1; fi
  printf '%-14s %12s %9s %7s %8s %7s %s\n' "$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "$result" |
    tee -a "$summary"
done
exit $status
