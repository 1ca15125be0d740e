#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The model cache names every source relative to the model's directory (model_cache.cpp), so the
# Verilated C++ holds no absolute path of the tree: a checkout elsewhere (a CI clone) generates
# the same text and ccache (with CCACHE_BASEDIR, which the Makefile sets) finds its objects.
#   relative_sources.sh <totex> <work-dir>
# Builds ring:3's tile into a fresh cache under work-dir; fails if a generated source names the
# tree's root, or if the RTL's names are not there at all (the check would then say nothing).
set -euo pipefail
totex=$1; work=$2
root="$(cd "$(dirname "$0")/../../.." && pwd)"
rm -rf "$work"; mkdir -p "$work/cache"
out=$(TOTEX_CACHE_DIR="$work/cache" "$totex" sim --topo ring:3 --model nic --engine rtl --json)
[ "$(jq -r .passed <<<"$out")" = true ] || { echo "$out"; echo "FAIL: the run did not pass"; exit 1; }
shopt -s nullglob
files=("$work"/cache/*/obj/*.cpp)
[ ${#files[@]} -gt 0 ] || { echo "FAIL: no Verilated sources under $work/cache"; exit 1; }
if grep -l -F "$root/" "${files[@]}"; then echo "FAIL: the Verilated C++ above names $root/"; exit 1; fi
grep -q -F '/rtl/totex_router.sv"' "${files[@]}" || { echo "FAIL: no source name rtl/totex_router.sv in the Verilated C++"; exit 1; }
echo "PASS: ${#files[@]} Verilated sources, every RTL source named relative to the model's directory"
