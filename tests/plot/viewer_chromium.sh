#!/usr/bin/env bash
# Usage: viewer_chromium.sh TOTEX OUTDIR
# Opens the HTML viewer in headless Chromium (Debian package chromium) for a torus and a MIN.
# The URL #step=3&selftest makes the page select step 3 through the slider's handler (recorded
# in #initial: the busy links drawn must be those of step 3 by `totex plot --json`), then move
# the slider to the first and the last step, compare the drawing with the data each time and
# check that moving the slider changed what is drawn (#selftest: PASS).
set -u
totex=$1; out=$2
rm -rf "$out"; mkdir -p "$out"
browser=$(command -v chromium || command -v chromium-browser) ||
  { echo "chromium missing (Debian package chromium; make deps installs it)"; exit 1; }
dump() {  # --no-sandbox: tests run as root in containers, where Chromium's sandbox cannot start
  timeout 90 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --user-data-dir="$out/profile-$2" --dump-dom "file://$(realpath "$1")#step=3&selftest" 2>/dev/null
}
fail=0
json=$("$totex" plot --topo torus:4x4 --model nic --budget 0.2 --kind viewer -o "$out/torus.html" --json) || exit 1
dom=$(dump "$out/torus.html" torus)
want=$(jq '.busy_per_step[3]' <<<"$json")
grep -q "initial drawn: step 3, $want busy links" <<<"$dom" || { echo "FAIL torus: #step=3 did not draw step 3's $want busy links"; fail=1; }
grep -q 'id="selftest">selftest: PASS' <<<"$dom" || { echo "FAIL torus: $(grep -o 'selftest: [^<]*' <<<"$dom" | tail -1)"; fail=1; }
grep -o 'initial drawn: [^<]*\|selftest: PASS[^<]*' <<<"$dom" | cut -c1-120
"$totex" plot --topo min:16:4 --kind viewer -o "$out/min.html" >/dev/null || exit 1
dom=$(dump "$out/min.html" min)
grep -q "initial drawn: configuration 3, paths end at" <<<"$dom" || { echo "FAIL min: #step=3 did not draw configuration 3"; fail=1; }
grep -q 'id="selftest">selftest: PASS' <<<"$dom" || { echo "FAIL min: $(grep -o 'selftest: [^<]*' <<<"$dom" | tail -1)"; fail=1; }
grep -o 'initial drawn: [^<]*\|selftest: PASS[^<]*' <<<"$dom" | cut -c1-120
exit $fail
