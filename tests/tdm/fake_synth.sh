#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A stand-in for rtl/synth/tdm_synth.sh (same arguments) for the `totex fpga` outcome tests, picked
# by TOTEX_TDM_SYNTH: FAKE_SYNTH=nofit writes a result that does not fit and exits 3, as the real
# script does; FAKE_SYNTH=fail exits 1 without a result (a tool failure); FAKE_SYNTH=fit writes a
# fitting result (fixed numbers) and exits 0. FAKE_SYNTH_TOP=X: exit 1 unless asked for --top X;
# FAKE_SYNTH_BIF=B: exit 1 unless asked for --bits-in-flops B (0 when not given); FAKE_SYNTH_PLACER=X:
# exit 1 unless asked for --placer X; FAKE_SYNTH_QUEUE=Q: exit 1 unless asked for --queue-depth Q (1
# when not given). FAKE_SYNTH=sweep: Fmax 40 + 10 x seed with heap, 45 + 10 x seed
# with sa, and sa at seed 3 stalls (exit 4), for `totex fpga --sweep`.
set -euo pipefail
out=""; top=""; bif=0; placer=""; seed=1; qd=1
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;; --top) top=$2; shift 2 ;; --bits-in-flops) bif=$2; shift 2 ;;
    --placer) placer=$2; shift 2 ;; --seed) seed=$2; shift 2 ;; --queue-depth) qd=$2; shift 2 ;; *) shift ;;
  esac
done
if [ -n "${FAKE_SYNTH_PLACER:-}" ] && [ "$placer" != "$FAKE_SYNTH_PLACER" ]; then
  echo "fake tdm_synth: asked for --placer $placer, expected $FAKE_SYNTH_PLACER" >&2; exit 1
fi
if [ -n "${FAKE_SYNTH_TOP:-}" ] && [ "$top" != "$FAKE_SYNTH_TOP" ]; then
  echo "fake tdm_synth: asked for --top $top, expected $FAKE_SYNTH_TOP" >&2; exit 1
fi
if [ -n "${FAKE_SYNTH_BIF:-}" ] && [ "$bif" != "$FAKE_SYNTH_BIF" ]; then
  echo "fake tdm_synth: asked for --bits-in-flops $bif, expected $FAKE_SYNTH_BIF" >&2; exit 1
fi
if [ -n "${FAKE_SYNTH_QUEUE:-}" ] && [ "$qd" != "$FAKE_SYNTH_QUEUE" ]; then
  echo "fake tdm_synth: asked for --queue-depth $qd, expected $FAKE_SYNTH_QUEUE" >&2; exit 1
fi
mkdir -p "$out"
echo "fake tdm_synth: ${FAKE_SYNTH:-fit}" >&2
case "${FAKE_SYNTH:-fit}" in
  nofit) echo '{"lut4": 9000, "ff": 4000, "bram": 40, "lc": 9500, "fmax_mhz": null, "fits": false}' > "$out/result.json"; exit 3 ;;
  fail) echo "fake tool failure" >&2; exit 1 ;;
  stall) echo '{"fits": null}' > "$out/result.json"; echo "fake nextpnr did not finish" >&2; exit 4 ;;
  fit) echo '{"lut4": 1000, "ff": 800, "bram": 4, "lc": 1400, "fmax_mhz": 50.0, "fits": true}' > "$out/result.json"; exit 0 ;;
  sweep)
    if [ "$placer" = sa ] && [ "$seed" = 3 ]; then echo '{"fits": null}' > "$out/result.json"; exit 4; fi
    base=40; [ "$placer" = sa ] && base=45
    fmax=$(( base + 10 * seed ))
    echo "{\"lut4\": 1000, \"ff\": 800, \"bram\": 4, \"lc\": 1400, \"fmax_mhz\": $fmax, \"fits\": true}" > "$out/result.json"; exit 0 ;;
esac
