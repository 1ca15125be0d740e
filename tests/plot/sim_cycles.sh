#!/usr/bin/env bash
# Usage: sim_cycles.sh TOTEX OUTDIR
# `totex sim --plot`: the cycle-level view parses (xmllint) and carries a curve for the engine that
# ran (here the SystemC model, whose scoreboard reports deliveries per cycle) beside the reference
# model's; sim's JSON names the plot and keeps its documented keys.
set -u
totex=$1; out=$2
rm -rf "$out"; mkdir -p "$out"
fail=0
for engine in ref systemc; do
  for topo in "--topo torus:4x4 --model nic --algo pattern" "--topo min:16:4"; do
    f="$out/$engine-$(echo "$topo" | tr -c 'a-z0-9' _).svg"
    # shellcheck disable=SC2086
    json=$("$totex" sim $topo --engine $engine --budget 0.2 --plot "$f" --json) || { echo "FAIL sim $topo on $engine"; fail=1; continue; }
    xmllint --noout "$f" || { echo "FAIL $f does not parse"; fail=1; }
    [ "$(jq '.plot != null and (has("deliveries_per_cycle") | not) and .passed' <<<"$json")" = true ] ||
      { echo "FAIL $engine $topo: JSON $json"; fail=1; }
    grep -q ">ref: in flight<" "$f" || { echo "FAIL $f: no reference curve"; fail=1; }
    if [ "$engine" != ref ]; then
      grep -q ">$engine (PASS): in flight" "$f" || { echo "FAIL $f: no $engine curve"; fail=1; }
    fi
    echo "ok $engine $topo"
  done
done
exit $fail
