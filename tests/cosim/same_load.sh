#!/usr/bin/env bash
# Usage: [ENGINE=rtl|systemc] same_load.sh <totex> <sim args...>
# Runs `totex sim <args> --engine $ENGINE --json` (default rtl) with --load port and with --load backdoor (one model
# serves both); fails unless both pass with the same delivery-trace digest and cycle count, and
# the backdoor run spends fewer clock edges (its memory writes take none). The port run reports the
# wall time of its load writes (load_seconds).
set -u
totex=$1; shift
engine=${ENGINE:-rtl}
declare -A digest cycles edges
for load in port backdoor; do
  out=$("$totex" sim "$@" --engine "$engine" --load "$load" --json) || { echo "--load $load: run failed"; echo "$out"; exit 1; }
  [ "$(jq .passed <<<"$out")" = true ] || { echo "--load $load: not passed"; echo "$out"; exit 1; }
  digest[$load]=$(jq -r .trace_sha256 <<<"$out")
  cycles[$load]=$(jq .cycles <<<"$out")
  edges[$load]=$(jq .simulated_cycles <<<"$out")
  echo "--load $load: digest ${digest[$load]} cycles ${cycles[$load]} edges ${edges[$load]} wall $(jq .wall_seconds <<<"$out") s, load writes $(jq .load_seconds <<<"$out") s"
  [ "$load" = backdoor ] || [ "$(jq '.load_seconds > 0' <<<"$out")" = true ] || { echo "--load port: no load_seconds"; exit 1; }
done
[ "${digest[port]}" = "${digest[backdoor]}" ] || { echo "digests differ"; exit 1; }
[ "${cycles[port]}" = "${cycles[backdoor]}" ] || { echo "cycle counts differ"; exit 1; }
[ "${edges[backdoor]}" -lt "${edges[port]}" ] || { echo "the backdoor load saved no clock edges"; exit 1; }
echo "same digest and cycles; the backdoor saved $((edges[port] - edges[backdoor])) edges"
