#!/usr/bin/env bash
# Usage: svgs.sh TOTEX OUTDIR
# Draws every kind that applies (`totex plot --kind all`) for every topology family and every
# model, from --topo and from a schedule file, and checks that every SVG is well-formed XML
# (xmllint) and that the network drawing has one element per directed link.
set -u
totex=$1; out=$2
rm -rf "$out"; mkdir -p "$out"
command -v xmllint >/dev/null || { echo "xmllint missing (Debian libxml2-utils; make deps installs it)"; exit 1; }
fail=0
check() {  # name, then the plot arguments
  local name=$1; shift
  local json
  if ! json=$("$totex" plot "$@" --budget 0.2 --json -o "$out/$name" 2>"$out/$name.err"); then
    echo "FAIL $name: totex plot $*"; cat "$out/$name.err"; fail=1; return
  fi
  for f in $(jq -r '.files[]' <<<"$json"); do
    case $f in *.svg) xmllint --noout "$f" || { echo "FAIL $name: $f does not parse"; fail=1; } ;; esac
  done
  if [ -f "$out/$name/network.svg" ] && [ "$(jq 'has("links")' <<<"$json")" = true ]; then
    local want drawn
    want=$(jq .links <<<"$json")
    drawn=$(xmllint --xpath 'count(//*[local-name()="g"][@id="links"]/*)' "$out/$name/network.svg")
    [ "$drawn" = "$want" ] || { echo "FAIL $name: $drawn link elements drawn, $want directed links"; fail=1; }
  fi
  echo "ok $name: $(jq -r '[.files[]|split("/")|last]|join(" ")' <<<"$json")"
}
check ring8-nic        --topo ring:8 --model nic --kind all
check path6-sp         --topo path:6 --model single-port --kind all
check complete5-ap     --topo complete:5 --model all-port --kind all
check torus4x4-nic     --topo torus:4x4 --model nic --kind all
check torus3x3x3-ap    --topo torus:3x3x3 --model all-port --kind all
check mesh4x4-nic      --topo mesh:4x4 --model nic --kind all
check hypercube4-sp    --topo hypercube:4 --model single-port --kind all
check ghc3x4-sp        --topo ghc:3x4 --model single-port --kind all
check product-sp       --topo 'ring:5*complete:3' --model single-port --kind all
check metacube12-nic   --topo metacube:1,2 --model nic --kind all
check placed-nic       --topo torus:6x6@linear --model nic --kind all
check placed3d-ap      --topo torus:3x3x3@linear --model all-port --kind all
check min16-omega      --topo min:16:4 --kind all
check min27-baseline   --topo min:27:3:baseline --kind all
check min8-butterfly   --topo min:8:2:butterfly --kind all
# From files: a step schedule, a configuration matrix, an exchange table.
"$totex" schedule --topo torus:3x4 --model single-port -o "$out/t34.sched" >/dev/null &&
"$totex" schedule --topo min:16:2 --form table -o "$out/m16.cfg" >/dev/null &&
"$totex" schedule --topo torus:5x5 --model all-port -o "$out/t5.tbl" >/dev/null || { echo "FAIL: schedule -o"; fail=1; }
check file-sched "$out/t34.sched" --kind all
check file-cfg   "$out/m16.cfg" --kind all
check file-table "$out/t5.tbl" --kind all
# One step, and a MIN configuration.
for a in "--topo torus:4x4 --model nic --step 5" "--topo min:16:4 --step 3" "--topo min:16:4 --kind latin --step 3"; do
  f="$out/step-$(echo "$a" | tr -c 'a-z0-9' _).svg"
  # shellcheck disable=SC2086
  "$totex" plot $a --budget 0.2 -o "$f" >/dev/null && xmllint --noout "$f" && echo "ok $a" || { echo "FAIL $a"; fail=1; }
done
exit $fail
