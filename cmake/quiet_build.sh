#!/usr/bin/env bash
# Usage: quiet_build.sh BUILD_DIR JOBS [TARGET...]  (`make build`; `make run` names its targets)
# Runs the CMake build and prints one line per target as its compilation starts, CMake's own
# custom-command lines (code generation, Verilator), and every line of warnings and errors; make's
# "Entering directory" chatter and the per-file, per-link and "Built target" lines are dropped.
# The full output is kept in BUILD_DIR/build.log. Exit status: the build's.
set -o pipefail
build=$1; jobs=$2; shift 2
targets=(); for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build" -j "$jobs" "${targets[@]}" 2>&1 | tee "$build/build.log" | awk '
  /(Entering|Leaving) directory/ || /Built target / || /Consolidate compiler generated/ || /Scanning dependencies/ { next }
  /^(\[ *[0-9]+%\] )?Linking / { next }
  /^(\[ *[0-9]+%\] )?(Building|Generating) / {
    if (match($0, /CMakeFiles\/[^\/]+\.dir/)) {
      target = substr($0, RSTART + 11, RLENGTH - 15)
      if (!(target in seen)) { seen[target] = 1; pct = $0 ~ /^\[/ ? substr($0, 1, index($0, "]")) " " : ""; print pct "building " target; fflush() }
      next
    }
  }
  { print; fflush() }'
