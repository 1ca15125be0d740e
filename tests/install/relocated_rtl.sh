#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# An installed totex works on its own (docs/install.md):
#   1. `cmake --install <build> --prefix <tmp>/prefix` (<tmp> = <build>/install-test);
#   2. the prefix is moved to <tmp>/moved (so nothing can rely on the install path either);
#   3. from an unrelated directory, with HOME and the cache in <tmp>, `moved/bin/totex --version` and
#      `moved/bin/totex sim --topo torus:4x4 --model all-port --engine rtl` must pass with the same trace
#      as the build tree's reference engine;
#   4. nothing the model build ran or produced names the source or build tree (the stand-in for
#      "the source tree moved away": the build tree's totex would find it, the installed one must not).
# Usage: relocated_rtl.sh <build-dir> <source-dir>
set -euo pipefail
build=$(cd "$1" && pwd) source=$(cd "$2" && pwd)
# Fixed paths under the build directory (not mktemp): the harness compiles with the same command
# lines on every run, so ccache makes reruns fast.
tmp="$build/install-test"
rm -rf "$tmp"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
mv "$tmp/prefix" "$tmp/moved"
mkdir -p "$tmp/elsewhere" "$tmp/home"
cd "$tmp/elsewhere"
export HOME="$tmp/home"
unset TOTEX_CACHE_DIR XDG_CACHE_HOME
totex="$tmp/moved/bin/totex"

"$totex" --version | grep -q '^totex [0-9]' || fail "--version"
rtl=$("$totex" sim --topo torus:4x4 --model all-port --engine rtl --json) || { echo "$rtl"; fail "installed rtl run"; }
ref=$("$build/bin/totex" sim --topo torus:4x4 --model all-port --engine ref --json)
jq -e '.passed == true and .cycles == .expected_cycles and .delivered == .expected_delivered' <<<"$rtl" >/dev/null ||
  fail "rtl result: $rtl"
[ "$(jq -r .trace_sha256 <<<"$rtl")" = "$(jq -r .trace_sha256 <<<"$ref")" ] || fail "trace differs from ref"

cache="$tmp/home/.cache/totex"
[ -x "$(ls -d "$cache"/tile_scheduled_n16_p4_*/harness | head -1)" ] || fail "no model (the wired build of torus:4x4) in the user cache $cache"
# The cache itself lies under the build directory ($tmp), so paths inside $tmp are dropped first.
offenders=$(find "$cache" -type f \( -name build.log -o -name '*.mk' -o -name '*.d' -o -name stamp \) |
  while read -r f; do if sed "s#$tmp/##g" "$f" | grep -q -e "$source/" -e "$build/"; then echo "$f"; fi; done | head -3)
if [ -n "$offenders" ]; then
  echo "$offenders"
  fail "the installed model build used the source or build tree"
fi
echo "PASS: installed totex (moved prefix) ran torus:4x4 all-port on the RTL: $(jq -r '"\(.cycles) cycles, trace \(.trace_sha256[0:16])"' <<<"$rtl")"
