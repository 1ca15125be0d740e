#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `totex fpga --tables-out DIR` replaces DIR as a whole (issue 48 item 10):
#   1. a write that fails part-way (node5.hex cannot be replaced: it is a directory) leaves the old
#      set exactly as it was (before the fix: node0-4 new, node5-8 and tables.json old; the second
#      run's --period 12 changes every table);
#   2. a write that succeeds leaves exactly the new set, every file new, nothing staged beside DIR.
# Usage: tables_out_atomic.sh <totex> <work-dir>
set -euo pipefail
totex=$1 work=$2
rm -rf "$work"; mkdir -p "$work"; umask 022
dir=$work/tables
fail() { echo "FAIL: $*"; exit 1; }

"$totex" fpga --topo torus:3x3 --model nic --payload 8 --tables-out "$dir" >/dev/null
[ "$(ls "$dir" | wc -l)" = 10 ] || fail "the first set has $(ls "$dir" | wc -l) files, expected 9 tables and tables.json"
rm "$dir/node5.hex"; mkdir "$dir/node5.hex"  # a file the second run cannot write
( cd "$dir" && find . -type f | sort | xargs sha256sum ) >"$work/old.sum"

set +e
out=$("$totex" fpga --topo torus:3x3 --model nic --payload 16 --period 12 --tables-out "$dir" 2>&1); rc=$?
set -e
[ "$rc" != 0 ] || fail "the write into a directory holding a directory node5.hex succeeded"
echo "refused as expected (exit $rc): $out"
( cd "$dir" && find . -type f | sort | xargs sha256sum ) | diff - "$work/old.sum" ||
  fail "the failed write changed the old set (a mixed set)"
[ -z "$(ls -A "$work" | grep -v -e '^tables$' -e '^old.sum$')" ] || fail "left-overs beside DIR: $(ls -A "$work")"

rmdir "$dir/node5.hex"
"$totex" fpga --topo torus:3x3 --model nic --payload 8 --tables-out "$dir" >/dev/null
cp -rp "$dir" "$work/first"
"$totex" fpga --topo torus:3x3 --model nic --payload 16 --period 12 --tables-out "$dir" --json >"$work/new.json"
jq -e '.payload == 16 and .period == 12 and (.tables | length) == 9' "$work/new.json" >/dev/null || fail "new.json: $(cat "$work/new.json")"
jq -e '.payload == 16 and .period == 12' "$dir/tables.json" >/dev/null || fail "tables.json is not the new one"
[ "$(stat -c %a "$dir")" = "$(stat -c %a "$work/first")" ] || fail "DIR's mode changed: $(stat -c %a "$dir")"
for v in 0 1 2 3 4 5 6 7 8; do
  cmp -s "$dir/node$v.hex" "$work/first/node$v.hex" && fail "node$v.hex is the old one"
done
[ -z "$(ls -A "$work" | grep -v -e '^tables$' -e '^old.sum$' -e '^first$' -e '^new.json$')" ] ||
  fail "left-overs beside DIR: $(ls -A "$work")"
echo "PASS: a failed --tables-out left the old set; a good one wrote the whole new set"
