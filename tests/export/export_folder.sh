#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CTest export.torus4x4_folder (tests/export/CMakeLists.txt): the exported folder works on its own.
# Usage: export_folder.sh TOTEX SOURCE_DIR BINARY_DIR
set -euo pipefail
totex="$1"
src="$(cd "$2" && pwd)"
bin="$(cd "$3" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/totex-export.XXXXXX")"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect_exit() {  # expect_exit CODE WHAT -- command...
  local want="$1" what="$2"; shift 3
  local got=0 out
  out="$("$@" 2>&1)" || got=$?
  [[ "$got" == "$want" ]] || fail "$what: exit $got, expected $want: $out"
  echo "ok: $what (exit $got: ${out:0:140})"
}

# The CLI's refusals.
expect_exit 2 "all-port is refused" -- "$totex" rtl --topo torus:4x4 --model all-port -o "$work/x"
expect_exit 2 "a MIN is refused" -- "$totex" rtl --topo min:16:4 -o "$work/x"
expect_exit 2 "no -o" -- "$totex" rtl --topo torus:4x4 --model nic
mkdir -p "$work/full" && touch "$work/full/keep"
expect_exit 2 "a non-empty folder is refused" -- "$totex" rtl --topo torus:4x4 --model nic -o "$work/full"
[[ -f "$work/full/keep" && $(ls -A "$work/full" | wc -l) == 1 ]] || fail "the non-empty folder was changed"
[[ ! -e "$work/x" ]] || fail "a refused export left $work/x"

# --json: one object with the folder's facts.
"$totex" rtl --topo torus:3x3 --model nic --payload 8 -o "$work/j33" --json > "$work/j33.json"
jq -e '.topology == "torus:3x3" and .model == "nic" and .nodes == 9 and .period >= 9 and .payload == 8 and
       .top == "totex_net" and (.files | index("files.f")) and (.files | index("tables/node8.hex"))' "$work/j33.json" \
  > /dev/null || { cat "$work/j33.json"; fail "totex rtl --json: keys or values not as documented"; }
echo "ok: --json (topology model nodes period payload top files)"

# Export, then move the folder elsewhere: the copy is all there is.
"$totex" rtl --topo torus:4x4 --model nic --payload 16 -o "$work/export"
cp -r "$work/export" "$work/copy"
rm -rf "$work/export"
cd "$work/copy"
# No path back into the tree or the build.
if grep -rIl -e "$src" -e "$bin" -e "/work/" . ; then fail "the folder names a path of the tree (files above)"; fi
echo "ok: no path of the tree ($src, $bin, /work/) in the folder"

# Only the folder, a clean environment: make (the testbench), make lint, make synth.
clean_env=(env -i "PATH=/usr/local/bin:/usr/bin:/bin" "HOME=$work" "TMPDIR=$work")
# ccache (when installed) only speeds the testbench's C++ up; its cache stays the caller's.
# (Paths under the folder hash relative: another checkout's run finds the objects.)
command -v ccache >/dev/null && clean_env+=("OBJCACHE=ccache" "CCACHE_DIR=$(ccache -k cache_dir 2>/dev/null || echo "$HOME/.cache/ccache")" "CCACHE_BASEDIR=$PWD")
log="$work/make.log"
"${clean_env[@]}" make JOBS=2 >"$log" 2>&1 || { tail -30 "$log"; fail "make (the testbench) failed"; }
grep -q '^PASS$' "$log" || { tail -30 "$log"; fail "the testbench did not print PASS"; }
grep -E '^torus:4x4' "$log"
echo "ok: make (Verilator testbench PASS)"
"${clean_env[@]}" make lint >"$log" 2>&1 || { cat "$log"; fail "make lint failed"; }
grep -q '%Warning' "$log" && { cat "$log"; fail "make lint printed a warning"; }
echo "ok: make lint (verilator --lint-only -Wall, clean)"
"${clean_env[@]}" make synth >"$log" 2>&1 || { tail -30 "$log"; fail "make synth failed"; }
grep -E '^synth:' "$log"
lut="$(awk '$1 == "SB_LUT4" {print $2}' synth/stat.txt | tail -1)"
[[ -n "$lut" && "$lut" -gt 1000 ]] || fail "synth_ice40 gave no plausible netlist (SB_LUT4: ${lut:-none})"
[[ -s synth/totex_net.json ]] || fail "no netlist synth/totex_net.json"
echo "ok: make synth (Yosys synth_ice40)"

# The testbench is not vacuous: one corrupted table entry (node 0's first non-zero entry, its
# lowest bit: a select of output 0) must make it FAIL.
python3 - <<'PY'
path = 'tables/node0.hex'
lines = open(path).read().split('\n')
for i, l in enumerate(lines):
    if l.strip() and int(l, 16) != 0:
        lines[i] = l[:-1] + '%x' % (int(l[-1], 16) ^ 1)
        print('corrupted tables/node0.hex line %d: %s -> %s' % (i + 1, l, lines[i]))
        break
open(path, 'w').write('\n'.join(lines))
PY
got=0
"${clean_env[@]}" make sim >"$log" 2>&1 || got=$?
[[ "$got" != 0 ]] || { tail -20 "$log"; fail "the testbench passed with a corrupted table"; }
grep -q '^FAIL' "$log" || { tail -20 "$log"; fail "the testbench exited $got without printing FAIL"; }
grep -E '^FAIL|never arrived|payload|error_o' "$log" | head -5
echo "ok: a corrupted table entry makes the testbench FAIL (exit $got)"
echo "PASS"
