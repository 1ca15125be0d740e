#!/usr/bin/env bash
# totex against T-CREST Poseidon on custom traffic, side by side in one run (issue 49's target):
# every Poseidon data set (its data/ and test/ XML files) and custom patterns on torus:8x8 (bitorus)
# and mesh:6x6. Per case: totex's TDM period (`schedule --periodic --model nic --traffic ...` at its
# default budget), its lower bound, whether proven; Poseidon's GREEDY, GRASP and ALNS run here, and
# its best period P converted to a TDM period: P - (2 routerDepth + linkDepth).
#
# Usage: poseidon.sh TOTEX_BINARY OUT_DIR        writes OUT_DIR/poseidon.md and OUT_DIR/poseidon.json
# Environment:
#   POSEIDON_SRC      a checkout of github.com/t-crest/poseidon (not part of totex; nothing of it is
#                     committed). Without it the Poseidon column and its data sets are skipped and the
#                     custom patterns run on totex alone (exit 0). Get one with
#                       git clone https://github.com/t-crest/poseidon /tmp/poseidon-src
#                     Built here with g++ into OUT_DIR/poseidon-bin (Debian: libpugixml-dev,
#                     libboost-program-options-dev).
#   POSEIDON_SECONDS  -t of GRASP and ALNS (default 60). Every Poseidon run is stopped with SIGINT
#                     (Poseidon then ends its search and prints its best) at 2 x this + 5 s, and killed
#                     30 s later: a run that never prints a period shows "-"; when GREEDY shows "-",
#                     GRASP and ALNS (which start from a greedy construction) are not run.
#   POSEIDON_BETA     GRASP's -b (default 0.1).  POSEIDON_CASES: a grep -E filter on case names.
# Poseidon is run with -v 2 so that bandwidths are taken as written (docs/traffic.md#poseidon).
# Exit 1 when a totex run fails, is not verified, or reads another matrix than Poseidon is given.
set -euo pipefail
totex=${1:?usage: poseidon.sh TOTEX_BINARY OUT_DIR}
out=${2:?usage: poseidon.sh TOTEX_BINARY OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
helper="$here/poseidon_traffic.py"
secs=${POSEIDON_SECONDS:-60}
beta=${POSEIDON_BETA:-0.1}
filter=${POSEIDON_CASES:-.}
mkdir -p "$out"
work="$out/poseidon-work"
rm -rf "$work"
mkdir -p "$work"
# One binary for the whole run, even if the build it came from is rebuilt meanwhile.
cp "$totex" "$work/totex"
totex_given=$totex
totex="$work/totex"
totex_sha=$(sha256sum "$totex" | cut -d' ' -f1)
md="$out/poseidon.md"
json="$out/poseidon.json"
rows="$work/rows.jsonl"
: >"$rows"

pos=""
src=${POSEIDON_SRC:-}
if [ -n "$src" ]; then
  [ -d "$src/src" ] || { echo "POSEIDON_SRC=$src has no src/: not a Poseidon checkout" >&2; exit 2; }
  pos="$out/poseidon-bin/poseidon"
  mkdir -p "$out/poseidon-bin"
  # As Poseidon's CMake Release build does (-O3 -DNDEBUG; with assertions on, its GRASP and ALNS
  # stop on an assertion in destroy()), against Debian's pugixml instead of its downloaded copy.
  if [ ! -x "$pos" ] || [ -n "$(find "$src/src" -newer "$pos" -name '*.[ch]*' | head -1)" ]; then
    echo "building Poseidon from $src into $pos" >&2
    g++ -O3 -DNDEBUG -std=c++11 -w -o "$pos" "$src"/src/*.cpp -lpugixml -lboost_program_options
  fi
  poscommit=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo "unknown commit")
else
  echo "POSEIDON_SRC is not set: Poseidon's data sets and column are skipped. To compare, run" >&2
  echo "  git clone https://github.com/t-crest/poseidon /tmp/poseidon-src" >&2
  echo "  POSEIDON_SRC=/tmp/poseidon-src $0 $totex_given $out" >&2
fi

# One Poseidon run: prints its period P (or nothing). ARGS: FILE METHOD-ARGS...
poseidon_run() {
  local f=$1 log=$2
  shift 2
  timeout -s INT -k 30 $((2 * secs + 5)) "$pos" -p "$f" -v 2 "$@" >"$log" 2>&1 || true
  tr '\r' '\n' <"$log" | grep -a -o 'Best schedule period: [0-9]*' | tail -1 | grep -o '[0-9]*$' || true
}

# Custom platforms need --topo graph:FILE (issue 49 item 2); an older binary says "unknown kind".
probe=$("$totex" bound --topo graph:/dev/null --model nic --json 2>&1 || true)
graph_ok=yes
if grep -q "unknown kind 'graph'" <<<"$probe"; then graph_ok=no; fi

failed=()
# One case. NAME TOPO TOTEX_TRAFFIC POSEIDON_FILE ROUTER_DEPTH LINK_DEPTH
run_case() {
  local name=$1 topo=$2 spec=$3 pfile=$4 rd=$5 ld=$6
  grep -qE -- "$filter" <<<"$name" || return 0
  local id
  id=$(tr -c 'A-Za-z0-9._-' '_' <<<"$name")
  local tj="null" bj="null" flits="null" tsecs="null" note="" sha_t="" sha_p=""
  local tlog="$work/$id.totex.log"
  local topo_arg=$topo
  if [ "$topo" = custom ]; then
    if [ "$graph_ok" = yes ]; then topo_arg="graph:${pfile}"; else note="totex not run: custom platform (no --topo graph: in this binary)"; fi
  fi
  if [ -z "$note" ]; then
    local start
    start=$(date +%s.%N)
    if tj=$("$totex" schedule --topo "$topo_arg" --model nic --periodic --traffic "$spec" --json 2>"$tlog"); then
      tsecs=$(printf %.2f "$(echo "$(date +%s.%N) - $start" | bc)")
      [ "$(jq .verified <<<"$tj")" = true ] || { note="totex: not verified"; failed+=("$name: not verified"); }
    else
      rc=$?
      note="totex failed (exit $rc): $(grep -m1 . "$tlog" | cut -c1-220 | tr "|" "/")"
      failed+=("$name: totex failed")
      tj="null"
    fi
    # The traffic as totex reads it (flits, canonical digest; `schedule` leaves out a traffic that
    # is uniform all-to-all), and the matrix Poseidon is given must be that one: same digest.
    bj=$("$totex" bound --topo "$topo_arg" --model nic --periodic --traffic "$spec" --json 2>>"$tlog") || bj=null
    flits=$(jq '.traffic.flits // null' <<<"$bj")
    if [ -n "$pfile" ] && [ "$spec" != "poseidon:$pfile" ]; then
      sha_t=$(jq -r '.traffic.sha256 // "none"' <<<"$bj")
      sha_p=$("$totex" bound --topo "$topo_arg" --model nic --periodic --traffic "poseidon:$pfile" --json 2>>"$tlog" | jq -r '.traffic.sha256 // "none"')
      if [ "$sha_t" != "$sha_p" ] || [ "$sha_t" = none ]; then note="traffic digests differ: totex $sha_t, Poseidon file $sha_p"; failed+=("$name: traffic mismatch"); fi
    fi
  fi
  local g="" gr="" al=""
  if [ -n "$pos" ] && [ -n "$pfile" ]; then
    g=$(poseidon_run "$pfile" "$work/$id.greedy.log" -m GREEDY)
    # GRASP and ALNS start from a greedy construction: when GREEDY alone did not end within the
    # stop, they are not run (their runs would end the same way).
    if [ -n "$g" ]; then
      gr=$(poseidon_run "$pfile" "$work/$id.grasp.log" -m GRASP -b "$beta" -t "$secs")
      al=$(poseidon_run "$pfile" "$work/$id.alns.log" -m ALNS -i GREEDY -t "$secs")
    fi
  fi
  jq -cn --arg name "$name" --arg topo "$topo" --arg spec "$spec" --argjson t "$tj" --argjson flits "$flits" --argjson secs "$tsecs" \
    --arg note "$note" --arg g "$g" --arg gr "$gr" --arg al "$al" --argjson off $((2 * rd + ld)) \
    --argjson ran "$([ -n "$pos" ] && [ -n "$pfile" ] && echo true || echo false)" '
    def per(p): if p == "" then null else (p | tonumber) - $off end;
    {name: $name, network: $topo, traffic: $spec,
     flits: $flits,
     totex_period: (if $t == null then null else $t.period end),
     totex_bound: (if $t == null then null else $t.period_bound end),
     proven: (if $t == null then null else $t.proven_optimal end),
     proof_scope: (if $t == null then null else ($t.proof_scope // null) end),
     verified: (if $t == null then null else $t.verified end),
     algorithm: (if $t == null then null else $t.algorithm end),
     totex_seconds: $secs,
     poseidon_run: $ran, poseidon_offset: $off,
     poseidon: {GREEDY: per($g), GRASP: per($gr), ALNS: per($al)},
     poseidon_printed: {GREEDY: $g, GRASP: $gr, ALNS: $al},
     note: $note}
    | .poseidon_best = ([.poseidon | to_entries[] | select(.value != null)] | min_by(.value) // null)
    | .at_or_below = (if .totex_period == null or .poseidon_best == null then null
                      else .totex_period <= .poseidon_best.value end)' >>"$rows"
  echo "done: $name" >&2
}

# Poseidon's data sets (with POSEIDON_SRC): every XML file of data/ and test/, totex reading the
# original, Poseidon its current-format copy when the file is in its first format.
if [ -n "$src" ]; then
  for f in "$src"/data/*.xml "$src"/test/*.xml; do
    name="${f#"$src"/}"
    read -r topo _w _h rd ld fmt <<<"$(python3 "$helper" info "$f")"
    pf=$f
    if [ "$fmt" = first ]; then
      pf="$work/$(tr -c 'A-Za-z0-9._-' '_' <<<"$name" | sed 's/_$//')"
      python3 "$helper" convert "$f" "$pf"
    fi
    run_case "$name" "$topo" "poseidon:$f" "$pf" "$rd" "$ld"
  done
fi

# Custom patterns: totex's own generator where it has one (the Poseidon file written from the same
# definition, digests compared), else the generated Poseidon file for both.
custom() {  # NAME W H TYPE PATTERN NATIVE|-
  local name=$1 w=$2 h=$3 type=$4 pat=$5 native=$6 topo
  grep -qE -- "$filter" <<<"$name" || return 0
  topo=$([ "$type" = bitorus ] && echo "torus:${w}x${h}" || echo "mesh:${w}x${h}")
  local pf
  pf="$work/custom_$(tr -c 'A-Za-z0-9._-' '_' <<<"$name" | sed 's/_$//').xml"
  python3 "$helper" gen "$pat" "$w" "$h" "$type" "$pf"
  run_case "$name" "$topo" "$([ "$native" = - ] && echo "poseidon:$pf" || echo "$native")" "$pf" 1 0
}
for net in "8 8 bitorus" "6 6 mesh"; do
  read -r w h type <<<"$net"
  tag="${type}${w}x${h}"
  custom "custom/$tag rows" "$w" "$h" "$type" groups:0 groups:0
  custom "custom/$tag columns" "$w" "$h" "$type" groups:1 groups:1
  custom "custom/$tag transpose x8" "$w" "$h" "$type" perm:transpose:8 perm:transpose:8
  custom "custom/$tag random 0.25 1-4" "$w" "$h" "$type" random:1:0.25:4 random:1:0.25:4
  custom "custom/$tag random 0.1 1-8" "$w" "$h" "$type" random:2:0.1:8 random:2:0.1:8
  custom "custom/$tag hot spot" "$w" "$h" "$type" "hotspot:3:$(( (h / 2) * w + w / 2 )):2" -
  custom "custom/$tag 3 phits, random 0.2 1-2" "$w" "$h" "$type" phits:4:0.2:2:3 -
  custom "custom/$tag all-to-all 2 phits" "$w" "$h" "$type" all:2 all:2
done

# The tables.
jq -s . "$rows" >"$json"
{
  echo "## totex against Poseidon (\`tests/bench/poseidon.sh\`)"
  echo
  echo "$(date -u +%Y-%m-%dT%H:%MZ), repository at $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo "?"), totex binary a copy of $totex_given (sha256 ${totex_sha:0:12}...);"
  if [ -n "$pos" ]; then
    echo "Poseidon ${poscommit} built from \`$src\`: GREEDY, GRASP (-b $beta -t $secs), ALNS (-i GREEDY -t $secs), all -v 2,"
    echo "each stopped at $((2 * secs + 5)) s. Poseidon's TDM period = its printed P - (2 routerDepth + linkDepth)."
  else
    echo "Poseidon not run (POSEIDON_SRC unset)."
  fi
  echo "totex: \`schedule --topo NET --model nic --periodic --traffic T --json\` at its default budget."
  echo
  echo "| data set | network | flits | totex period | totex bound | proven | Poseidon best (scheduler) | Poseidon G / GRASP / ALNS | totex s | totex <= Poseidon |"
  echo "|---|---|---:|---:|---:|---|---|---|---:|---|"
  jq -r '.[] |
    def v(x): if x == null then "-" else (x | tostring) end;
    "| \(.name) | \(.network) | \(v(.flits)) | \(v(.totex_period))\(if .totex_period != null and .totex_bound != null and .totex_period > .totex_bound then " (+\(((.totex_period - .totex_bound) * 1000 / .totex_bound | round) / 10) %)" else "" end) | \(v(.totex_bound)) | \(if .proven == true then (if .proof_scope != null and .proof_scope != "general" then "yes, among \(.proof_scope)" else "yes" end) elif .proven == false then "no" else "-" end) | \(if .poseidon_best == null then (if .poseidon_run then "no result" else "not run" end) else "\(.poseidon_best.value) (\(.poseidon_best.key))" end) | \(v(.poseidon.GREEDY)) / \(v(.poseidon.GRASP)) / \(v(.poseidon.ALNS)) | \(v(.totex_seconds)) | \(if .at_or_below == true then "yes" elif .at_or_below == false then "**NO** (+\(.totex_period - .poseidon_best.value))" else "-" end)\(if .note != "" then " \(.note)" else "" end) |"' "$json"
  echo
  jq -r '
    "Cases: \(length); totex at or below Poseidon: \([.[] | select(.at_or_below == true)] | length) of \([.[] | select(.at_or_below != null)] | length) compared; totex above Poseidon: \([.[] | select(.at_or_below == false) | .name] | if length == 0 then "none" else join(", ") end); totex at its bound: \([.[] | select(.totex_period != null and .totex_period == .totex_bound)] | length) of \([.[] | select(.totex_period != null)] | length); more than 5 % above its bound: \([.[] | select(.totex_period != null and .totex_period * 100 > .totex_bound * 105) | .name] | if length == 0 then "none" else join(", ") end)."' "$json"
} >"$md"
cat "$md"
if [ ${#failed[@]} -gt 0 ]; then
  printf 'poseidon.sh: %s\n' "${failed[@]}" >&2
  exit 1
fi
