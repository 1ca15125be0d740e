#!/usr/bin/env bash
# Regenerates waveforms/min64.png headless: runs the default co-simulation with a dump, opens it in
# GTKWave under Xvfb with waveforms/min_top.gtkw, zooms on the last cycles of phase 2, screenshots.
set -euo pipefail
cd "$(dirname "$0")"
totex=${1:-../build/bin/totex}
"$totex" sim --topo min:64:4:omega --engine rtl --wave min64.fst --json > /tmp/totex-min64.json
end_ns=$(( $(jq .simulated_cycles /tmp/totex-min64.json) * 10 ))
echo "gtkwave::setZoomRangeTimes $(( end_ns - 150 )) $(( end_ns + 20 ))" > /tmp/totex-zoom.tcl
xvfb-run -a -s "-screen 0 1400x900x24" bash -c \
  'gtkwave -S /tmp/totex-zoom.tcl min64.fst min_top.gtkw >/dev/null 2>&1 & p=$!; sleep 5; import -window root min64.png; kill $p'
echo "wrote $(pwd)/min64.png"
