#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# FPGA resource / Fmax report (Yosys 0.23 synth_ice40 + nextpnr-ice40, seed 1; Yosys synth_xilinx
# LUT counts as a second family, synthesis only).
#
# Usage: rtl/synth/fpga_report.sh <outdir> [design ...]
#   Without design names every design below is run; with names only those. The 64 x 64 MINs are
#   synthesis-only and slow (Yosys needs ~10 min and 1.3 GB each for synth_ice40); BIG=0 skips them.
#   Writes <outdir>/report.json (list of objects), <outdir>/report.md (table) and, per design,
#   <outdir>/<design>/{synth.log,pnr.log,pnr.json,stat_*.txt}.
#
# Each design is a pin-light wrapper of rtl/synth/totex_synth_*.sv (serial in, parallel load,
# serial out; 4 pins + clock), so nextpnr's Fmax is register to register through the design under
# test. Place and route targets iCE40UP5K-SG48; a design that fails there is retried on
# iCE40HX8K-CT256 (the "family" field tells which). Fields:
#   lut, ff, bram, lc, fmax_mhz : whole wrapper after place and route (lut/ff/bram from synth_ice40
#                                 stat: SB_LUT4, SB_DFF*, SB_RAM40_4K; lc = ICESTORM_LC used)
#   dut_lut, dut_ff             : synth_ice40 of the bare design under test (no wrapper)
#   generic_cells               : Yosys generic `synth` cell count of the bare design under test
#   xilinx_lut, xilinx_ff       : synth_xilinx -flatten (xc7, LUT6) of the bare design: LUT1..LUT6, FD* cells;
#   xilinx_lutram, xilinx_bram  :   distributed-RAM cells (RAM32M, RAM64M, RAM*X1*) and RAMB18/36
#   note                        : why up5k-sg48 failed, when the hx8k-ct256 fallback was used; why a
#                                 design was not placed (does not fit either device, timeout)
#   crit                        : nextpnr critical path: logic segments (LUT-to-LUT hops; the LUT
#                                 packed with the endpoint FF is in the setup time), logic/cell and
#                                 routing delay (ns), the slowest net, start and end cell
# Designs marked "synthonly" (the 64 x 64 MINs) get no wrapper and no place and route: their bare
# synth_ice40 counts are far beyond the 7680 LCs of the iCE40HX8K, the largest device targeted, so
# lut/ff/bram are the bare design's and lc/fmax_mhz/generic_cells are null.
# Needs: yosys, nextpnr-ice40, jq, awk, timeout. Environment: YOSYS, NEXTPNR, FREQ (target MHz,
# 100), PNR_TIMEOUT (seconds per nextpnr run, 900; on timeout lc and fmax_mhz are null),
# SYNTH_TIMEOUT (seconds per Yosys run of a synthonly design, 1800), XILINX (0 skips synth_xilinx),
# BIG (0 skips the synthonly designs).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rtl="$(cd "$here/.." && pwd)"
yosys="${YOSYS:-yosys}"
nextpnr="${NEXTPNR:-nextpnr-ice40}"
freq="${FREQ:-100}"
pnr_timeout="${PNR_TIMEOUT:-900}"
synth_timeout="${SYNTH_TIMEOUT:-1800}"
xilinx="${XILINX:-1}"
big="${BIG:-1}"
[ $# -ge 1 ] || { echo "usage: $0 <outdir> [design ...]" >&2; exit 2; }
out="$1"; shift
mkdir -p "$out"
out="$(cd "$out" && pwd)"

mapfile -t src < <("$rtl/filelist.sh" "$rtl/synth/synth.f")

# name | wrapper top | wrapper params | bare DUT top | DUT params [| synthonly]
designs=(
  "shift_d2_w8|totex_synth_switch|-set D 2 -set W 8|totex_shift_switch|-set D 2 -set W 8"
  "shift_d2_w32|totex_synth_switch|-set D 2 -set W 32|totex_shift_switch|-set D 2 -set W 32"
  "shift_d4_w8|totex_synth_switch|-set D 4 -set W 8|totex_shift_switch|-set D 4 -set W 8"
  "shift_d4_w32|totex_synth_switch|-set D 4 -set W 32|totex_shift_switch|-set D 4 -set W 32"
  "shift_d8_w8|totex_synth_switch|-set D 8 -set W 8|totex_shift_switch|-set D 8 -set W 8"
  "shift_d8_w32|totex_synth_switch|-set D 8 -set W 32|totex_shift_switch|-set D 8 -set W 32"
  "xbar_d2_w8|totex_synth_switch|-set D 2 -set W 8 -set Xbar 1|totex_crossbar|-set D 2 -set W 8"
  "xbar_d2_w32|totex_synth_switch|-set D 2 -set W 32 -set Xbar 1|totex_crossbar|-set D 2 -set W 32"
  "xbar_d4_w8|totex_synth_switch|-set D 4 -set W 8 -set Xbar 1|totex_crossbar|-set D 4 -set W 8"
  "xbar_d4_w32|totex_synth_switch|-set D 4 -set W 32 -set Xbar 1|totex_crossbar|-set D 4 -set W 32"
  "xbar_d8_w8|totex_synth_switch|-set D 8 -set W 8 -set Xbar 1|totex_crossbar|-set D 8 -set W 8"
  "xbar_d8_w32|totex_synth_switch|-set D 8 -set W 32 -set Xbar 1|totex_crossbar|-set D 8 -set W 32"
  "node_n16_p4_allport|totex_synth_node|-set N 16 -set NumPorts 4 -set Model 1 -set PW 8 -set Depth 16|totex_direct_node|-set N 16 -set NumPorts 4 -set Model 1 -set PW 8 -set Depth 16"
  "node_n16_p4_singleport|totex_synth_node|-set N 16 -set NumPorts 4 -set Model 0 -set PW 8 -set Depth 16|totex_direct_node|-set N 16 -set NumPorts 4 -set Model 0 -set PW 8 -set Depth 16"
  "min16_d4_pw4_table|totex_synth_min|-set N 16 -set D 4 -set PW 4 -set Mode 0|totex_min_top|-set N 16 -set D 4 -set PW 4 -set Mode 0"
  "min16_d4_pw4_computed|totex_synth_min|-set N 16 -set D 4 -set PW 4 -set Mode 1|totex_min_top|-set N 16 -set D 4 -set PW 4 -set Mode 1"
  # 64 x 64 2-MIN (6 stages of 32 2x2 switches), PW = 6 = idx_width(64), the narrowest allowed.
  "min64_d2_pw6_table|-|-|totex_min_top|-set N 64 -set D 2 -set PW 6 -set Mode 0|synthonly"
  "min64_d2_pw6_computed|-|-|totex_min_top|-set N 64 -set D 2 -set PW 6 -set Mode 1|synthonly"
)

# yosys_run <log> <top> <params> <synth command> <stat file> [timeout s]: 0 ok, 124 timeout
yosys_run() {
  local rc=0
  timeout "${6:-0}" "$yosys" -q -l "$1" -p "read_verilog -sv ${src[*]}; chparam $3 $2; $4 -top $2; tee -q -o $5 stat" \
    >/dev/null 2>&1 || rc=$?
  [ "$rc" -eq 124 ] && { echo "yosys stopped after ${6}s: $2 $3 ($4)" >&2; return 124; }
  [ "$rc" -eq 0 ] || { echo "yosys FAIL: $2 $3 ($4)" >&2; grep -i -m5 error "$1" >&2 || tail -5 "$1" >&2; exit 1; }
}
cells()  { awk '/Number of cells:/ {n=$4} END {print n+0}' "$1"; }
count()  { awk -v c="$2" '$1 ~ c {s+=$2} END {print s+0}' "$1"; }

# pnr <dir> <device args...>: returns nextpnr's status
pnr() {
  local d="$1"; shift
  timeout "$pnr_timeout" "$nextpnr" "$@" --json "$d/synth.json" --asc "$d/pnr.asc" --freq "$freq" --seed 1 \
    --timing-allow-fail --report "$d/pnr.json" -l "$d/pnr.log" >/dev/null 2>&1
}

selected=("$@")
rows="$out/rows.jsonl"; : > "$rows"
wanted() {  # the design of config $1 is to be run
  local name flags
  IFS='|' read -r name _ _ _ _ flags <<< "$1"
  if [ ${#selected[@]} -gt 0 ] && [[ " ${selected[*]} " != *" $name "* ]]; then return 1; fi
  if [ "$flags" = synthonly ] && [ "$big" = 0 ] && [ ${#selected[@]} -eq 0 ]; then return 1; fi
}
total=0; for cfg in "${designs[@]}"; do wanted "$cfg" && total=$((total + 1)); done
done_count=0; started=$(date +%s)
for cfg in "${designs[@]}"; do
  IFS='|' read -r name top params dut dparams flags <<< "$cfg"
  wanted "$cfg" || continue
  d="$out/$name"; mkdir -p "$d"
  t0=$(date +%s)
  note=""
  rm -f "$d/pnr.json" "$d"/stat_*.txt
  if [ "$flags" = synthonly ]; then
    # Bare design only: lut/ff/bram are its synth_ice40 counts, no wrapper, no place and route.
    family="ice40 (synthesis only)"
    if yosys_run "$d/dut.log" "$dut" "$dparams" "synth_ice40" "$d/stat_dut_ice40.txt" "$synth_timeout"; then
      cp "$d/stat_dut_ice40.txt" "$d/stat_ice40.txt"
      note="not placed: $(count "$d/stat_ice40.txt" '^SB_LUT4$') LUT4 and $(count "$d/stat_ice40.txt" '^SB_DFF') FF (bare design) exceed the 7680 LCs of the iCE40HX8K; send queues (and in table mode the switch tables) are flip-flops: read combinationally, so not SB_RAM40_4K"
    else
      note="synth_ice40 stopped after SYNTH_TIMEOUT=${synth_timeout}s"
      : > "$d/stat_ice40.txt"; : > "$d/stat_dut_ice40.txt"
    fi
    echo '{}' > "$d/pnr.json"
  else
    yosys_run "$d/synth.log" "$top" "$params" "synth_ice40 -json $d/synth.json" "$d/stat_ice40.txt"
    yosys_run "$d/dut.log" "$dut" "$dparams" "synth_ice40" "$d/stat_dut_ice40.txt"
    yosys_run "$d/generic.log" "$dut" "$dparams" "synth" "$d/stat_generic.txt"
    family="ice40up5k-sg48"
    rc=0; pnr "$d" --up5k --package sg48 || rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; then
      family="ice40hx8k-ct256"
      mv "$d/pnr.log" "$d/pnr_up5k_fail.log"
      note="up5k-sg48: $(grep -m1 -E "^ERROR" "$d/pnr_up5k_fail.log" | cut -c1-160)"
      rc=0; pnr "$d" --hx8k --package ct256 || rc=$?
      if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; then
        # Does not fit either device: a result, not a flow failure. No LC / Fmax.
        note="$note; hx8k-ct256: $(grep -m1 -E "^ERROR" "$d/pnr.log" | cut -c1-160)"
        echo '{}' > "$d/pnr.json"
      fi
    fi
    if [ "$rc" -eq 124 ]; then
      # Place and route did not finish within PNR_TIMEOUT: synthesis numbers only, no LC / Fmax.
      note="${note:+$note; }$family: nextpnr stopped after PNR_TIMEOUT=${pnr_timeout}s, no LC/Fmax"
      echo '{}' > "$d/pnr.json"
    fi
  fi
  # Second family: synth_xilinx (xc7) LUT counts of the bare design, synthesis only.
  xl=null; xf=null; xr=null; xb=null
  if [ "$xilinx" != 0 ]; then
    if yosys_run "$d/xilinx.log" "$dut" "$dparams" "synth_xilinx -family xc7 -flatten" "$d/stat_xilinx.txt" "$synth_timeout"; then
      xl=$(count "$d/stat_xilinx.txt" '^LUT[1-6]$'); xf=$(count "$d/stat_xilinx.txt" '^FD[CPRS]E$')
      xr=$(count "$d/stat_xilinx.txt" '^RAM(32|64|128|256)'); xb=$(count "$d/stat_xilinx.txt" '^RAMB(18|36)')
    else
      note="${note:+$note; }synth_xilinx stopped after SYNTH_TIMEOUT=${synth_timeout}s"
    fi
  fi
  generic=null
  [ -f "$d/stat_generic.txt" ] && generic=$(cells "$d/stat_generic.txt")
  fmax=$(jq '[.fmax[]?.achieved] | min // null' "$d/pnr.json")
  lc=$(jq '.utilization.ICESTORM_LC.used // null' "$d/pnr.json")
  crit=$(jq -c '([.critical_paths[]? | select(.from != "<async>" and .to != "<async>")][0].path // [])
    | {logic_segments: ([.[] | select(.type == "logic")] | length),
       logic_ns: ([.[] | select(.type != "routing") | .delay] | add // 0 | . * 100 | round / 100),
       route_ns: ([.[] | select(.type == "routing") | .delay] | add // 0 | . * 100 | round / 100),
       worst_net: ([.[] | select(.type == "routing")] | max_by(.delay) | .net // ""),
       from: (.[0].to.cell // ""), to: (.[-1].to.cell // "")}' "$d/pnr.json")
  jq -nc --arg design "$name" --arg family "$family" --arg params "$dparams" \
    --argjson lut "$(count "$d/stat_ice40.txt" '^SB_LUT4$')" \
    --argjson ff "$(count "$d/stat_ice40.txt" '^SB_DFF')" \
    --argjson bram "$(count "$d/stat_ice40.txt" '^SB_RAM40_4K')" \
    --argjson lc "$lc" --argjson fmax "$fmax" \
    --argjson dut_lut "$(count "$d/stat_dut_ice40.txt" '^SB_LUT4$')" \
    --argjson dut_ff "$(count "$d/stat_dut_ice40.txt" '^SB_DFF')" \
    --argjson generic "$generic" \
    --argjson xl "$xl" --argjson xf "$xf" --argjson xr "$xr" --argjson xb "$xb" \
    --argjson crit "$crit" --arg note "$note" \
    '{design: $design, family: $family, params: $params, lut: $lut, ff: $ff, bram: $bram, lc: $lc,
      fmax_mhz: (if $fmax == null then null else ($fmax * 10 | round / 10) end), dut_lut: $dut_lut, dut_ff: $dut_ff,
      generic_cells: $generic, xilinx_lut: $xl, xilinx_ff: $xf, xilinx_lutram: $xr, xilinx_bram: $xb,
      crit: $crit, note: $note}' >> "$rows"
  # One readable line per design as it finishes (the full row stays in report.json).
  done_count=$((done_count + 1))
  jq -r --arg n "$done_count/$total" --arg s "$(( $(date +%s) - t0 ))" --arg all "$(( $(date +%s) - started ))" \
    '"[\($n)] \(.design): \(.family) LUT4 \(.lut // "-") FF \(.ff // "-") LC \(.lc // "n/a") Fmax \(.fmax_mhz // "n/a") MHz"
     + (if .xilinx_lut != null then ", xc7 LUT \(.xilinx_lut)" else "" end)
     + " (\($s) s; \($all) s so far)" + (if .note != "" then "; \(.note)" else "" end)' <<< "$(tail -1 "$rows")"
done

jq -s '.' "$rows" > "$out/report.json"
{
  echo "# totex FPGA report"
  echo
  echo "Yosys $("$yosys" -V | awk '{print $2}') \`synth_ice40\` + nextpnr-ice40 \`--seed 1 --freq $freq --timing-allow-fail\`;"
  echo "pin-light wrapper (serial in, parallel load, serial out) around each design, so LUT/FF/LC include the wrapper"
  echo "(about one LUT4 and one FF per DUT input/output bit); dut_* and generic cells are the bare design."
  echo "xc7 columns: Yosys \`synth_xilinx -family xc7\` of the bare design (synthesis only): LUT1..LUT6, flip-flops,"
  echo "distributed-RAM cells (the memories with combinational reads map there) and RAMB18/36."
  echo "Command: \`rtl/synth/fpga_report.sh $out\`. *logic segments: LUT-to-LUT hops on the critical path; the LUT"
  echo "packed with the endpoint FF is counted in the setup time, so LUT levels = segments + 1 when the endpoint is a LUT+FF cell."
  echo
  echo "| design | family | LUT4 | FF | BRAM | LC | Fmax (MHz) | DUT LUT4 | DUT FF | generic cells | xc7 LUT | xc7 FF | xc7 LUTRAM | crit. path: logic segments*, routing / total ns, slowest net |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
  jq -r '.[] | "| \(.design) | \(.family) | \(.lut) | \(.ff) | \(.bram) | \(.lc // "n/a") | \(.fmax_mhz // "n/a") | \(.dut_lut) | \(.dut_ff) | \(.generic_cells // "n/a") | \(.xilinx_lut // "n/a") | \(.xilinx_ff // "n/a") | \(.xilinx_lutram // "n/a") | \(if .fmax_mhz == null then "n/a" else "\(.crit.logic_segments), \(.crit.route_ns) / \(.crit.logic_ns + .crit.route_ns | . * 100 | round / 100), `\(.crit.worst_net)`" end) |"' "$out/report.json"
  if jq -e "any(.[]; .note != \"\")" "$out/report.json" >/dev/null; then
    echo; echo "Notes:"
    jq -r ".[] | select(.note != \"\") | \"- \\(.design): \\(.note)\"" "$out/report.json"
  fi
} > "$out/report.md"
echo "wrote $out/report.json $out/report.md"
