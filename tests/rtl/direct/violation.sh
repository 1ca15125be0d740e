#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Proves that an RTL check catches a model violation. `totex sim` refuses unverified schedules, so
# this drives the harness binary directly (it loads files without verifying them):
#   violation.sh <totex> <cache-dir> <topo> <model> <broken-schedule> <regex>
# 1. builds the model for <topo>/<model> by running a valid schedule through `totex sim`;
# 2. runs the cached harness on the broken file: it must exit 1, and an RTL assertion whose text
#    matches <regex> must fire.
set -euo pipefail
totex=$1 cache=$2 topo=$3 model=$4 broken=$5 regex=$6
export TOTEX_CACHE_DIR=$cache
"$totex" sim --topo "$topo" --model "$model" --engine rtl --json >/dev/null
key=$(sed 's/[^A-Za-z0-9]/_/g' <<<"$topo")
harness="$cache/direct_${key}_scheduled_${model}_d16_b0/harness"
[ -x "$harness" ] || { echo "FAIL: no harness at $harness"; exit 1; }
set +e
out=$("$harness" --topo "$topo" --mode scheduled --model "$model" --depth 16 --buffer 0 --fifo-depth 4 \
      --schedule "$broken" 2>&1)
rc=$?
set -e
echo "$out" | head -20
[ "$rc" = 1 ] || { echo "FAIL: exit code $rc, expected 1"; exit 1; }
grep -Eq -- "$regex" <<<"$out" || { echo "FAIL: no RTL assertion matching /$regex/"; exit 1; }
grep -q 'RTL assertion(s) fired' <<<"$out" || { echo "FAIL: the result does not count the assertion"; exit 1; }
echo "PASS: the $model check caught it"
