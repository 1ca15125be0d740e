#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Bitstreams of the board tops (rtl/board/): Yosys synth_ice40 -> nextpnr-ice40 (fixed seed,
# --freq 12, the board's pcf) -> icepack, then the timing check at the 12 MHz board clock by nextpnr
# (which fails the run when its Fmax estimate misses --freq) and by icetime.
#
# Usage: rtl/synth/board_build.sh <outdir> [board ...]
#   boards: icebreaker hx8k (the MIN self-test, board.f), min64_hx8k (the 64 x 64 MIN self-test with
#   the bit-serial wire, board.f; docs/fpga.md "The 64 x 64 MIN on the HX8K"), torus_hx8k (a torus of
#   TDM tiles on the HX8K, torus.f; docs/fpga.md "A torus on the HX8K"); default: all four.
# torus_hx8k first writes the slot tables of totex's default nic schedule with the totex binary
# (`totex fpga --topo torus:XxY --model nic --payload W --tables-out <outdir>/board_torus_hx8k/torus_tables`)
# and passes the period and table depth of its tables.json to the top; Yosys runs in that
# directory (the top's TableDir is the relative "torus_tables").
# Writes <outdir>/<board>.bin (the bitstream: `iceprog <outdir>/<board>.bin`), and per board
# <outdir>/board_<board>/{synth.log,synth.json,stat.txt,pnr.log,pnr.json,pnr.asc,icetime.txt},
# plus <outdir>/boards.json (one object per board) and <outdir>/boards.md. fmax_mhz is the design's
# own Fmax as nextpnr estimates it (the clock is constrained to --freq only).
# Exits non-zero when a design does not synthesize, does not fit (nextpnr fails), misses 12 MHz
# in nextpnr's or icetime's estimate, or icepack fails.
# Needs: yosys, nextpnr-ice40, icepack, icetime, jq (and totex for torus_hx8k). Environment: YOSYS,
# NEXTPNR, SEED (1), FREQ (board clock in MHz, 12), CHPARAM (parameters of the board top as
# `-set NAME VALUE ...`, e.g. CHPARAM="-set FaultState 1" builds the HX8K self-test with its
# switch-state fault on, CHPARAM="-set Fault 1" the torus with a flipped payload bit), TOTEX (the
# totex binary; default build/bin/totex beside rtl/), TORUS (torus size, 3x3), TORUS_PAYLOAD (8).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rtl="$(cd "$here/.." && pwd)"
yosys="${YOSYS:-yosys}"
nextpnr="${NEXTPNR:-nextpnr-ice40}"
seed="${SEED:-1}"
freq="${FREQ:-12}"
chparam="${CHPARAM:-}"
totex="${TOTEX:-$rtl/../build/bin/totex}"
torus="${TORUS:-3x3}"
torus_payload="${TORUS_PAYLOAD:-8}"
[ $# -ge 1 ] || { echo "usage: $0 <outdir> [icebreaker|hx8k|min64_hx8k|torus_hx8k ...]" >&2; exit 2; }
out="$1"; shift
mkdir -p "$out"
out="$(cd "$out" && pwd)"
boards=("$@")
[ ${#boards[@]} -gt 0 ] || boards=(icebreaker hx8k min64_hx8k torus_hx8k)

mapfile -t src_min < <("$rtl/filelist.sh" "$rtl/board/board.f")      # the MIN board tops
mapfile -t src_torus < <("$rtl/filelist.sh" "$rtl/board/torus.f")  # the torus and its top

count() { awk -v c="$2" '$1 ~ c {s+=$2} END {print s+0}' "$1"; }

rows="$out/boards.jsonl"; : > "$rows"
for b in "${boards[@]}"; do
  case "$b" in
    icebreaker) dev=(--up5k --package sg48); icedev=up5k; pkg=sg48; part="iCE40UP5K-SG48"; pcf=icebreaker ;;
    hx8k)       dev=(--hx8k --package ct256); icedev=hx8k; pkg=ct256; part="iCE40HX8K-CT256"; pcf=hx8k ;;
    min64_hx8k) dev=(--hx8k --package ct256); icedev=hx8k; pkg=ct256; part="iCE40HX8K-CT256"; pcf=hx8k ;;
    torus_hx8k) dev=(--hx8k --package ct256); icedev=hx8k; pkg=ct256; part="iCE40HX8K-CT256"; pcf=hx8k ;;
    *) echo "unknown board '$b' (icebreaker, hx8k, min64_hx8k, torus_hx8k)" >&2; exit 2 ;;
  esac
  d="$out/board_$b"; mkdir -p "$d"
  t0=$(date +%s)
  topology=""
  if [ "$b" = torus_hx8k ]; then
    top="totex_board_tdm_hx8k"
    [[ "$torus" =~ ^([0-9]+)x([0-9]+)$ ]] || { echo "TORUS='$torus': expected CxR, e.g. 3x3" >&2; exit 2; }
    tx="${BASH_REMATCH[1]}"; ty="${BASH_REMATCH[2]}"
    topology="torus:$torus"
    [ -x "$totex" ] || { echo "$b: no totex binary at $totex (build it first: make run, or set TOTEX)" >&2; exit 1; }
    rm -rf "$d/torus_tables"
    "$totex" fpga --topo "$topology" --model nic --payload "$torus_payload" --tables-out "$d/torus_tables" \
      > "$d/tables.log" 2>&1 || { echo "$b: totex fpga --tables-out FAILED (see $d/tables.log)" >&2; cat "$d/tables.log" >&2; exit 1; }
    period=$(jq '.period' "$d/torus_tables/tables.json"); depth=$(jq '.depth' "$d/torus_tables/tables.json")
    # -defer: nothing is elaborated before the parameters are set (a default TableDir would be read
    # relative to another directory); hierarchy -chparam takes numbers only, so CHPARAM's -set
    # pairs become -chparam pairs and TableDir stays the relative default (Yosys runs in $d).
    params="-chparam X $tx -chparam Y $ty -chparam PayloadW $torus_payload -chparam Period $period -chparam Depth $depth ${chparam//-set /-chparam }"
    (cd "$d" && "$yosys" -q -l "$d/synth.log" -p "read_verilog -defer -sv ${src_torus[*]}; hierarchy -top $top $params; synth_ice40 -top $top -json $d/synth.json; tee -q -o $d/stat.txt stat") \
      >/dev/null 2>&1 || { echo "$b: yosys FAILED (see $d/synth.log)" >&2; grep -i -m5 error "$d/synth.log" >&2 || true; exit 1; }
  else
    top="totex_board_$b"
    if [ "$b" = min64_hx8k ]; then top="totex_board_hx8k_min64"; fi
    "$yosys" -q -l "$d/synth.log" -p "read_verilog -sv ${src_min[*]}; ${chparam:+chparam $chparam $top;} synth_ice40 -top $top -json $d/synth.json; tee -q -o $d/stat.txt stat" \
      >/dev/null 2>&1 || { echo "$b: yosys FAILED (see $d/synth.log)" >&2; grep -i -m5 error "$d/synth.log" >&2 || true; exit 1; }
  fi
  # No --timing-allow-fail: nextpnr exits non-zero when the design does not fit or misses --freq.
  "$nextpnr" "${dev[@]}" --pcf "$rtl/board/$pcf.pcf" --json "$d/synth.json" --asc "$d/pnr.asc" \
    --freq "$freq" --seed "$seed" --report "$d/pnr.json" -l "$d/pnr.log" >/dev/null 2>&1 || {
    echo "$b: nextpnr FAILED (does not fit, or timing not met at $freq MHz; see $d/pnr.log)" >&2
    grep -m3 -E "^ERROR|FAIL" "$d/pnr.log" >&2 || true; exit 1; }
  fmax=$(jq '[.fmax[]?.achieved] | min // 0' "$d/pnr.json")
  awk -v f="$fmax" -v t="$freq" 'BEGIN {exit !(f >= t)}' || {
    echo "$b: nextpnr Fmax $fmax MHz < $freq MHz" >&2; exit 1; }
  # icetime: an independent static timing estimate of the routed design (its pcf reader does not
  # take nextpnr's -nowarn, and pin names are not needed for timing, so no -p).
  icetime -d "$icedev" -P "$pkg" -c "$freq" -t "$d/pnr.asc" > "$d/icetime.txt" 2>&1 || {
    echo "$b: icetime: timing not met at $freq MHz" >&2; tail -3 "$d/icetime.txt" >&2; exit 1; }
  icetime_mhz=$(sed -n 's/^Total path delay: .* ns (\([0-9.]*\) MHz).*/\1/p' "$d/icetime.txt" | tail -1)
  icepack "$d/pnr.asc" "$out/$b.bin"
  jq -nc --arg board "$b" --arg top "$top" --arg part "$part" --argjson freq "$freq" --argjson seed "$seed" \
    --argjson lut "$(count "$d/stat.txt" '^SB_LUT4$')" --argjson ff "$(count "$d/stat.txt" '^SB_DFF')" \
    --argjson bram "$(count "$d/stat.txt" '^SB_RAM40_4K')" \
    --argjson lc "$(jq '.utilization.ICESTORM_LC.used' "$d/pnr.json")" \
    --argjson lc_avail "$(jq '.utilization.ICESTORM_LC.available' "$d/pnr.json")" \
    --argjson bram_avail "$(jq '.utilization.ICESTORM_RAM.available' "$d/pnr.json")" \
    --argjson io "$(jq '.utilization.SB_IO.used' "$d/pnr.json")" \
    --argjson fmax "$fmax" --argjson icetime "${icetime_mhz:-null}" \
    --arg bin "$out/$b.bin" --argjson bytes "$(stat -c %s "$out/$b.bin")" --arg chparam "$chparam" \
    --arg topology "$topology" \
    '{design: $top, board: $board, family: $part, topology: (if $topology == "" then null else $topology end), lut: $lut, ff: $ff, bram: $bram, lc: $lc,
      lc_available: $lc_avail, bram_available: $bram_avail, io: $io,
      fmax_mhz: ($fmax * 10 | round / 10), icetime_mhz: $icetime, clock_mhz: $freq, seed: $seed,
      timing_met: true, bitstream: $bin, bitstream_bytes: $bytes, chparam: $chparam}' >> "$rows"
  echo "$b: $(tail -1 "$rows")  [$(( $(date +%s) - t0 ))s]"
done

jq -s '.' "$rows" > "$out/boards.json"
{
  echo "# totex board self-test bitstreams"
  echo
  echo "Yosys $("$yosys" -V | awk '{print $2}') \`synth_ice40\` + nextpnr-ice40 \`--seed $seed --freq $freq\` (board pcf) + icepack;"
  echo "timing checked at the $freq MHz board clock by nextpnr and by \`icetime -c $freq\`. Command: \`rtl/synth/board_build.sh $out ${boards[*]}\`."
  echo
  echo "| board | top | device | LUT4 | FF | BRAM | LC used / available | Fmax nextpnr (MHz) | icetime (MHz) | timing at $freq MHz | bitstream |"
  echo "|---|---|---|---:|---:|---:|---:|---:|---:|---|---|"
  jq -r '.[] | "| \(.board) | \(.design)\(if .topology then " (" + .topology + ")" else "" end) | \(.family) | \(.lut) | \(.ff) | \(.bram) / \(.bram_available) | \(.lc) / \(.lc_available) | \(.fmax_mhz) | \(.icetime_mhz) | met | `\(.bitstream | split("/") | last)` |"' "$out/boards.json"
} > "$out/boards.md"
echo "wrote $out/boards.json $out/boards.md"
