#!/usr/bin/env bash
# Usage: same_digest.sh <totex> <sim args...> -- <engine> <engine> ...
# Runs `totex sim <args> --engine E --json` for every engine (an engine may be written
# cosim:rtl-nics for `--engine cosim --cosim-split rtl-nics`); fails unless every run passes and all
# delivery-trace digests are identical.
set -u
totex=$1; shift
args=()
while [ "$1" != "--" ]; do args+=("$1"); shift; done
shift
first=""
for spec in "$@"; do
  engine=${spec%%:*}
  extra=()
  [ "$spec" != "$engine" ] && extra=(--cosim-split "${spec#*:}")
  out=$("$totex" sim "${args[@]}" --engine "$engine" "${extra[@]}" --json) || { echo "$spec: run failed"; echo "$out"; exit 1; }
  digest=$(jq -r .trace_sha256 <<<"$out")
  echo "$spec: $digest passed=$(jq .passed <<<"$out") cycles=$(jq .cycles <<<"$out")"
  [ "$(jq .passed <<<"$out")" = true ] || exit 1
  if [ -z "$first" ]; then first=$digest; elif [ "$digest" != "$first" ]; then echo "digests differ"; exit 1; fi
done
