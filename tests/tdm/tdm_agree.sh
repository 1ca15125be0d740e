#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Usage: tdm_agree.sh TOTEX TOPO MODEL PERIODS FAULT [SIM ARGS...]
# Runs `totex sim --periods PERIODS [SIM ARGS...]` on the rtl and the systemc TDM tiles with
# TOTEX_TDM_FAULT=FAULT (none: unset; eject: a broken table, both runs fail; pause: one pause, both
# fail; pauses: run low at random, both pass) and fails unless the two runs agree delivery by
# delivery: the same verdict, cycles, deliveries, edges simulated, trace digest and error list (the
# missed counts included; the RTL's port names and assertions named as the model's), so the
# SystemC model is checked against the RTL on runs that fail too.
set -euo pipefail
totex=$1; topo=$2; model=$3; periods=$4; fault=$5; shift 5
[ "$fault" = none ] && fault=
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
for engine in rtl systemc; do
  TOTEX_TDM_FAULT=$fault "$totex" sim --topo "$topo" --model "$model" --engine "$engine" --periods "$periods" \
    "$@" --json > "$dir/$engine.json" 2> "$dir/$engine.err" || true
done
pick='[.passed, .cycles, .deliveries, .simulated_cycles, (.errors | length), .digest]'
errors='.errors | map(gsub("missed_o"; "missed") | gsub("error_o"; "error") | gsub("RTL assertion\\(s\\) fired"; "model check(s) failed"))'
rtl=$(jq -c "$pick" "$dir/rtl.json"); sc=$(jq -c "$pick" "$dir/systemc.json")
if [ "$rtl" != "$sc" ] || [ "$(jq -r '.digest | length' "$dir/rtl.json")" != 64 ]; then
  echo "FAIL: $topo $model $* TOTEX_TDM_FAULT=${fault:-none}: rtl $rtl, systemc $sc"
  jq -c '.errors[0:3]' "$dir/rtl.json" "$dir/systemc.json"; exit 1
fi
if [ "$(jq -c "$errors" "$dir/rtl.json")" != "$(jq -c "$errors" "$dir/systemc.json")" ]; then
  echo "FAIL: $topo $model $* TOTEX_TDM_FAULT=${fault:-none}: the error lists differ"
  diff <(jq -r "$errors | .[]" "$dir/rtl.json") <(jq -r "$errors | .[]" "$dir/systemc.json") | head -20; exit 1
fi
echo "$topo $model $* TOTEX_TDM_FAULT=${fault:-none}: rtl and systemc agree [passed, cycles, deliveries, edges, errors, digest] = $rtl, and on every error"
