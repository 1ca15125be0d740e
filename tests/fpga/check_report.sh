#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fast FPGA-flow check (seconds): runs rtl/synth/fpga_report.sh on the D=4 W=8 shift switch
# (Yosys synth_ice40 + nextpnr-ice40 up5k, synth_xilinx) and checks report.json with jq: one row,
# lut > 0, ff > 0, lc > 0, fmax_mhz > 0, generic_cells > 0, xilinx_lut > 0, and the one-line progress report. The generic `synth` gate of the switch and
# the MIN is tests/rtl/synth.sh (rtl.synth).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$here/../../rtl/synth/fpga_report.sh" "$work" shift_d4_w8 | tee "$work/progress.txt"
# make fpga's progress: one readable line per design as it finishes, with n of m.
grep -Eq '^\[1/1\] shift_d4_w8: ice40up5k-sg48 LUT4 [0-9]+ FF [0-9]+ LC [0-9]+ Fmax [0-9.]+ MHz, xc7 LUT [0-9]+ \([0-9]+ s; [0-9]+ s so far\)' \
  "$work/progress.txt" || { echo "no readable progress line for the design"; exit 1; }
jq -e 'length == 1 and (.[0] | .design == "shift_d4_w8" and .lut > 0 and .ff > 0 and .lc > 0
       and .fmax_mhz > 0 and .generic_cells > 0 and .xilinx_lut > 0)' "$work/report.json" >/dev/null || {
  echo "report.json check failed:"; cat "$work/report.json"; exit 1; }
grep -q '^| shift_d4_w8 |' "$work/report.md" || { echo "report.md has no row"; exit 1; }
echo "fpga report ok: $(jq -c '.[0] | {lut, ff, lc, fmax_mhz, xilinx_lut}' "$work/report.json")"
