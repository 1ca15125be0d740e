#!/usr/bin/env bash
# Usage: roundtrip.sh TOTEX DIR
# Every file `totex schedule` writes, in every format and form, is read back by `totex verify`
# (issue 48: every file totex writes, totex reads back). A writer that cannot express a schedule
# must refuse it (exit 2) and leave no file. Prints one line per case; fails on the first miss.
set -u
totex=$1; dir=$2
rm -rf "$dir"; mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }

# write NAME VERIFY-ARGS -- SCHEDULE-ARGS: schedule -o DIR/NAME, then verify it (exit 0, verified).
write() {
  local name=$1; shift
  local vargs=()
  while [ "$1" != "--" ]; do vargs+=("$1"); shift; done
  shift
  "$totex" schedule "$@" -o "$dir/$name" >"$dir/$name.log" 2>&1 || fail "schedule $* -o $name: exit $? ($(tail -1 "$dir/$name.log"))"
  "$totex" verify "${vargs[@]}" --json "$dir/$name" >"$dir/$name.json" 2>"$dir/$name.err" ||
    fail "verify $name: exit $? ($(tail -1 "$dir/$name.err"))"
  [ "$(jq -r .verified "$dir/$name.json")" = true ] || fail "verify $name: not verified"
  echo "ok  $name ($*)"
}

# refuse NAME REGEX -- SCHEDULE-ARGS: schedule -o DIR/NAME exits 2 with REGEX and writes nothing.
refuse() {
  local name=$1 regex=$2; shift 3
  "$totex" schedule "$@" -o "$dir/$name" >"$dir/$name.log" 2>&1; local rc=$?
  [ $rc = 2 ] || fail "schedule $* -o $name: exit $rc, expected 2"
  grep -Eq -- "$regex" "$dir/$name.log" || fail "schedule $* -o $name: no /$regex/ in $(tail -1 "$dir/$name.log")"
  [ ! -e "$dir/$name" ] || fail "schedule $* -o $name: refused but left a file"
  echo "ok  $name refused ($*)"
}

write ring.sched -- --topo ring:6 --model nic
write ring.sched.gz -- --topo ring:6 --model nic
write torus.bin.sched -- --topo torus:3x4 --model all-port --binary
write torus.bin.sched.gz -- --topo torus:3x4 --model all-port --binary
write a2.sched -- --topo torus:3x4 --model single-port
write placed.sched -- --topo torus:5x5@multiple:2 --model nic
write table.tbl -- --topo hypercube:4 --model all-port
write table.tbl.gz -- --topo torus:5x5 --model all-port
write min.cfg -- --topo min:27:3:baseline
write min-table.cfg -- --topo min:16:4:omega --form table
write periodic.sched -- --topo torus:4x4 --model nic --periodic --budget 2
write periodic-allport.sched.gz -- --topo mesh:3x3 --model all-port --periodic
write oneshot.shd --topo torus:4x4 -- --topo torus:4x4 --model nic
write oneshot.shd.gz --topo torus:5x5 -- --topo torus:5x5 --model nic
# A periodic schedule as .shd: started at a slot no route spans; checked modulo its period.
write periodic.shd --topo torus:4x4 --period 18 -- --topo torus:4x4 --model nic --periodic --algo greedy --budget 1
write poseidon.xml -- --topo torus:4x4 --model nic --format poseidon
write poseidon-periodic.xml -- --topo torus:3x3 --model nic --periodic --format poseidon
write poseidon-mesh.xml -- --topo mesh:4x4 --model nic --periodic --format poseidon
refuse wrap.shd "run past the period from every starting slot.*write a totex schedule file" -- --topo torus:3x3 --model nic --periodic
refuse allport.xml "one flit per slot \\(totex's nic model\\)" -- --topo torus:4x4 --model all-port --format poseidon
refuse singleport.xml "one flit per slot \\(totex's nic model\\)" -- --topo torus:4x4 --model single-port --format poseidon
refuse mesh.shd "needs a 2-D torus torus:K1xK2, not mesh:4x4" -- --topo mesh:4x4 --model nic
echo "every written file read back"
