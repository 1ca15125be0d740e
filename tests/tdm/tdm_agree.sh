#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: tdm_agree.sh TOTEX TOPO MODEL PERIODS FAULT
# Runs `totex sim --periods PERIODS` on the rtl and the systemc TDM tiles with TOTEX_TDM_FAULT=FAULT
# (eject: a broken table, both runs fail; pauses: run low at random, both pass) and fails unless the
# two runs agree delivery by delivery: the same verdict, cycles, deliveries, number of errors and
# trace digest (the SystemC model is checked against the RTL on runs that fail too).
set -euo pipefail
totex=$1; topo=$2; model=$3; periods=$4; fault=$5
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
for engine in rtl systemc; do
  TOTEX_TDM_FAULT=$fault "$totex" sim --topo "$topo" --model "$model" --engine "$engine" --periods "$periods" \
    --json > "$dir/$engine.json" 2> "$dir/$engine.err" || true
done
pick='[.passed, .cycles, .deliveries, (.errors | length), .digest]'
rtl=$(jq -c "$pick" "$dir/rtl.json"); sc=$(jq -c "$pick" "$dir/systemc.json")
if [ "$rtl" != "$sc" ] || [ "$(jq -r '.digest | length' "$dir/rtl.json")" != 64 ]; then
  echo "FAIL: $topo $model TOTEX_TDM_FAULT=$fault: rtl $rtl, systemc $sc"
  jq -c '.errors[0:3]' "$dir/rtl.json" "$dir/systemc.json"; exit 1
fi
echo "$topo $model TOTEX_TDM_FAULT=$fault: rtl and systemc agree [passed, cycles, deliveries, errors, digest] = $rtl"
