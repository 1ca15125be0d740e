#!/usr/bin/env bash
# Usage: plots/readme_pictures.sh [BUILD_DIR]
# The pictures README.md shows, made with `totex plot` (the torus schedule comes from auto's
# work-limited search: the same on every machine).
set -euo pipefail
totex=${1:-build}/bin/totex
here=$(dirname "$0")
"$totex" plot --topo torus:8x8 --model nic --kind heatmap -o "$here/torus8x8-nic-heatmap.svg"
"$totex" plot --topo min:16:4 --kind network --step 5 -o "$here/min16-configuration5.svg"
