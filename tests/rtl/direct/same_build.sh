#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The wired build (one Verilated tile, N instances wired in C++: sim/direct_wired_main.cpp) and
# the top's build (rtl/totex_direct_top.sv Verilated whole) run the same network cycle for cycle:
#   same_build.sh <totex> <totex sim args...>
# runs `totex sim <args> --engine rtl --json` with TOTEX_RTL_BUILD=wired and =flat, and fails
# unless both pass with the same cycles, clock edges and delivery-trace digest.
set -euo pipefail
totex=$1; shift
declare -A result
for build in wired flat; do
  out=$(TOTEX_RTL_BUILD=$build "$totex" sim "$@" --engine rtl --json) || { echo "$out"; echo "FAIL: $build run"; exit 1; }
  result[$build]=$(jq -c '{passed, cycles, simulated_cycles, trace_sha256, errors}' <<<"$out")
  echo "$build: ${result[$build]}"
  [ "$(jq -r .passed <<<"$out")" = true ] || { echo "FAIL: $build run did not pass"; exit 1; }
done
[ "${result[wired]}" = "${result[flat]}" ] || { echo "FAIL: the builds differ"; exit 1; }
echo "PASS: wired and flat builds give the same cycles, edges and trace"
