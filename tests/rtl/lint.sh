#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Lint gate: `verilator --lint-only -Wall` on every module of the MIN and direct file lists
# (rtl/min.f, rtl/direct.f) as its own top (with the whole lists so submodules resolve), at its default parameters and at a few extra
# parameter sets (non-power-of-two radix, every wiring and mode). Fails on any warning.
# Waivers live in tests/rtl/lint_waivers.vlt, one comment per waiver.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rtl="$(cd "$here/../../rtl" && pwd)"
waivers="$here/lint_waivers.vlt"
verilator="${VERILATOR:-verilator}"

mapfile -t files < <("$rtl/filelist.sh" "$rtl/min.f" "$rtl/direct.f")

fail=0
run() {  # run <top> [-Gparam=value ...]
  local top="$1"; shift
  local log
  if log=$("$verilator" --lint-only -Wall --top-module "$top" "$@" "$waivers" "${files[@]}" 2>&1); then
    echo "lint ok   $top $*"
  else
    echo "lint FAIL $top $*"; echo "$log"; fail=1
  fi
}

for f in "${files[@]}"; do
  case "$f" in *_pkg.sv) continue ;; esac  # packages are not modules
  run "$(basename "$f" .sv)"
done

# Extra parameter sets for the parameterized modules.
for d in 2 3 5 8; do
  run totex_shift_switch -GD=$d -GW=4
  run totex_crossbar     -GD=$d -GW=4
done
for m in 0 1; do
  run totex_switch_state -GN=27 -GD=3 -GNumStages=3 -GStage=1 -GMode=$m
  for w in 0 1 2; do
    run totex_banyan  -GN=27 -GD=3 -GWiring=$w
    run totex_min_top -GN=8  -GD=2 -GWiring=$w -GMode=$m
    run totex_min_top -GN=9  -GD=3 -GWiring=$w -GMode=$m
  done
done
run totex_min_top -GN=4 -GD=4 -GPW=2
run totex_nic -GN=27 -GPW=5
run totex_nic -GN=8 -GMaxSteps=20
for m in 0 1; do run totex_min_top -GN=9 -GD=3 -GMaxSteps=40 -GMode=$m; done

if [ "$fail" -ne 0 ]; then echo "lint: FAILED"; exit 1; fi
echo "lint: all clean"
