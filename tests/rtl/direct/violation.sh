#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Proves that an RTL check catches a model violation. `totex sim` refuses unverified schedules, so
# this drives the harness binary directly (it loads files without verifying them; its arguments are
# schema::DirectHarnessArgs, totex/hw_schema.hpp):
#   violation.sh <totex> <cache-dir> <topo> <model> <broken-schedule> <regex>
# For each RTL build (the top Verilated flat, and the wired tiles: TOTEX_RTL_BUILD):
# 1. builds the model for <topo>/<model> by running a valid schedule through `totex sim`;
# 2. runs the cached harness on the broken file: it must exit 1, and an RTL assertion whose text
#    matches <regex> must fire.
set -euo pipefail
totex=$1 cache=$2 topo=$3 model=$4 broken=$5 regex=$6
export TOTEX_CACHE_DIR=$cache
key=$(sed 's/[^A-Za-z0-9]/_/g' <<<"$topo")
tag=${model//-/_}  # cache keys write a value's '-' as '_'

nodes=$("$totex" bound --topo "$topo" --model nic --json | jq -r .processors)
for build in flat wired; do
  TOTEX_RTL_BUILD=$build "$totex" sim --topo "$topo" --model "$model" --engine rtl --json >/dev/null
  if [ "$build" = flat ]; then
    harness=$(ls -d "$cache"/direct_${key}_scheduled_*_${tag}_d16_b0_*_flat | head -1)/harness
  else
    harness=$(ls -d "$cache"/tile_scheduled_n${nodes}_p*_${tag}_d16_b0_* | head -1)/harness
  fi
  [ -x "$harness" ] || { echo "FAIL: no $build harness at $harness"; exit 1; }
  set +e
  out=$("$harness" direct --topo "$topo" --mode scheduled --model "$model" --depth 16 --buffer 0 --fifo-depth 4 \
        --schedule "$broken" 2>&1)
  rc=$?
  set -e
  echo "$out" | head -20
  [ "$rc" = 1 ] || { echo "FAIL: $build: exit code $rc, expected 1"; exit 1; }
  grep -Eq -- "$regex" <<<"$out" || { echo "FAIL: $build: no RTL assertion matching /$regex/"; exit 1; }
  grep -q 'RTL assertion(s) fired' <<<"$out" || { echo "FAIL: $build: the result does not count the assertion"; exit 1; }
  echo "PASS: $build build: the $model check caught it"
done
