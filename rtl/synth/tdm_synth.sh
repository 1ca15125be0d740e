#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Synthesis, place and route of one TDM tile (or its reference crossbar) for iCE40; the `totex
# fpga` command calls this script. docs/tdm-tile.md describes the design and the wrappers.
#
# Usage: rtl/synth/tdm_synth.sh --device up5k|hx8k --seed S --ports P --payload W --node-bits NW
#                               --depth D [--table FILE.hex] [--top tile|ctl|allport|single|xbar]
#                               [--buffer-words B] [--bits-in-flops 0|1] [--queue-depth Q] [--placer heap|sa]
#                               --out DIR
#   The wrapper rtl/synth/totex_synth_tdm.sv (links looped back, local and control IO
#   serialised) around the design --top names: tile, rtl/tdm/totex_tdm_tile.sv; allport,
#   rtl/tdm/totex_tdm_allport_tile.sv (P s_axis and m_axis lanes); single,
#   rtl/tdm/totex_tdm_single_tile.sv (a relay buffer of --buffer-words words, default 64); xbar,
#   rtl/tdm/totex_tdm_xbar.sv, the bare registered (P+1)-port (W+1)-bit crossbar with the same
#   table depth in block RAM (the floor). --bits-in-flops 1: the tiles' NIC toggle bits in
#   flip-flops (BitsInFlops: four block RAMs fewer per NIC lane, slower). --table sets the tile's TableFile (block-RAM initial
#         contents, $readmemh); --node-bits and --table are ignored for xbar. --queue-depth Q > 1 (tile,
#         allport, single; not ctl or xbar): the NIC lanes' queue per destination (QueueDepth,
#         multi-flit traffic; default 1).
# Flow: Yosys `synth_ice40 -top totex_synth_tdm -json`, then nextpnr-ice40 (--up5k --package sg48 or
#   --hx8k --package ct256) --seed S --placer heap|sa --freq F --timing-allow-fail; F = FREQ,
#   default 120 (up5k) / 240 (hx8k), a timing target 20 % above the tile's goal. --placer: nextpnr's
#   placer, default heap (nextpnr's own default); sa (simulated annealing) is faster and steadier
#   on the nic tile but can stall (docs/tdm-tile.md "Fourth timing pass").
# Writes DIR/result.json {"device","seed","top","lut4","ff","bram","lc","fmax_mhz","fits",
#   "ports","payload","node_bits","depth","table","freq_target_mhz","placer","yosys","nextpnr"} plus
#   DIR/{synth.log,synth.json,stat.txt,pnr.log,pnr.json,pnr.asc}. lut4/ff/bram: synth_ice40 stat
#   of the whole wrapper (SB_LUT4, SB_DFF*, SB_RAM40_4K); lc: ICESTORM_LC used after place and
#   route; fmax_mhz: nextpnr's achieved clock frequency.
# Exit: 0 success; 3 the design does not fit the device (result.json has "fits": false); 4 nextpnr
#   did not finish within PNR_TIMEOUT (result.json has "fits": null; nextpnr 0.4's sa placer can
#   stall legalising carry chains: another seed or --placer heap); 1 tool failure (the log is
#   named on stderr); 2 usage. Progress lines on stderr.
# Environment: YOSYS, NEXTPNR, FREQ, PNR_TIMEOUT (seconds, 1200), SYNTH_OPTS (extra synth_ice40
#   options, default none), SYNTH_CACHE (a directory: reuse identical netlists across seeds/devices).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rtl="$(cd "$here/.." && pwd)"
yosys="${YOSYS:-yosys}"
nextpnr="${NEXTPNR:-nextpnr-ice40}"
pnr_timeout="${PNR_TIMEOUT:-1200}"
usage() { echo "usage: $0 --device up5k|hx8k --seed S --ports P --payload W --node-bits NW --depth D [--table FILE.hex] [--top tile|ctl|allport|single|xbar] [--buffer-words B] [--bits-in-flops 0|1] [--queue-depth Q] [--placer heap|sa] --out DIR" >&2; exit 2; }

device=""; seed=""; ports=""; payload=""; nw=""; depth=""; table=""; top="tile"; out=""; bufw=64; bif=0; qd=1; placer=heap
while [ $# -gt 0 ]; do
  case "$1" in
    --device) device="${2:-}"; shift 2 ;;
    --seed) seed="${2:-}"; shift 2 ;;
    --ports) ports="${2:-}"; shift 2 ;;
    --payload) payload="${2:-}"; shift 2 ;;
    --node-bits) nw="${2:-}"; shift 2 ;;
    --depth) depth="${2:-}"; shift 2 ;;
    --table) table="${2:-}"; shift 2 ;;
    --top) top="${2:-}"; shift 2 ;;
    --buffer-words) bufw="${2:-}"; shift 2 ;;
    --bits-in-flops) bif="${2:-}"; shift 2 ;;
    --queue-depth) qd="${2:-}"; shift 2 ;;
    --placer) placer="${2:-}"; shift 2 ;;
    --out) out="${2:-}"; shift 2 ;;
    -h|--help) usage ;;
    *) echo "$0: unknown argument $1" >&2; usage ;;
  esac
done
isnum() { [[ "$1" =~ ^[0-9]+$ ]]; }
[ -n "$out" ] || usage
case "$device" in
  up5k) dev_args=(--up5k --package sg48); freq="${FREQ:-120}"; cap_lc=5280; cap_bram=30 ;;
  hx8k) dev_args=(--hx8k --package ct256); freq="${FREQ:-240}"; cap_lc=7680; cap_bram=32 ;;
  *) echo "$0: --device must be up5k or hx8k" >&2; usage ;;
esac
case "$top" in tile|ctl|allport|single|xbar) ;; *) echo "$0: --top must be tile, ctl, allport, single or xbar" >&2; usage ;; esac
for v in seed ports payload depth; do isnum "${!v}" || { echo "$0: --${v} needs a number" >&2; usage; }; done
isnum "$bufw" && [ "$bufw" -ge 1 ] || { echo "$0: --buffer-words needs a number >= 1" >&2; usage; }
case "$bif" in 0|1) ;; *) echo "$0: --bits-in-flops must be 0 or 1" >&2; usage ;; esac
isnum "$qd" && [ "$qd" -ge 1 ] || { echo "$0: --queue-depth needs a number >= 1" >&2; usage; }
case "$top" in tile|allport|single) ;; *) [ "$qd" = 1 ] || { echo "$0: --queue-depth above 1 is the tiles' (--top tile, allport or single)" >&2; usage; } ;; esac
case "$placer" in sa|heap) ;; *) echo "$0: --placer must be heap or sa" >&2; usage ;; esac
[ "$top" = xbar ] || isnum "$nw" || { echo "$0: --node-bits needs a number" >&2; usage; }
[ "$top" = xbar ] && nw="${nw:-0}"
{ [ "$ports" -ge 1 ] && [ "$payload" -ge 1 ] && [ "$depth" -ge 1 ] && { [ "$top" = xbar ] || [ "$nw" -ge 1 ]; }; } \
  || { echo "$0: ports, payload, depth and node-bits must be >= 1" >&2; exit 2; }
if [ -n "$table" ]; then
  [ -f "$table" ] || { echo "$0: no table file $table" >&2; exit 2; }
  table="$(cd "$(dirname "$table")" && pwd)/$(basename "$table")"
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
rm -f "$out/result.json" "$out/pnr.json" "$out/pnr.asc"
mapfile -t src < <("$rtl/filelist.sh" "$rtl/tdm/synth.f")
# The NIC queue is read only when the tile uses it (--queue-depth above 1): a module read but not
# used still moves Yosys's automatic names, and with them ABC's mapping (the torus:8x8 tile came out
# one LUT4 larger with it read, 2026-11-29); so the depth-1 tile is the netlist of before.
if [ "$qd" = 1 ]; then
  keep=(); for f in "${src[@]}"; do [ "$(basename "$f")" = totex_tdm_nic_queue.sv ] || keep+=("$f"); done; src=("${keep[@]}")
fi

# One wrapper (rtl/synth/totex_synth_tdm.sv); its Kind is totex_tdm_pkg's KIND_NIC, KIND_ALLPORT,
# KIND_SINGLE or KIND_XBAR.
wrapper=totex_synth_tdm
case "$top" in tile|ctl) kind=0 ;; allport) kind=1 ;; single) kind=2 ;; xbar) kind=3 ;; esac
params="-set Kind $kind"
[ "$top" = ctl ] && params="$params -set Ctl 1"
params="$params -set NumPorts $ports -set PayloadW $payload -set Depth $depth"
if [ "$top" != xbar ]; then
  params="$params -set NodeW $nw"
  [ "$top" = single ] && params="$params -set BufDepth $bufw"
  [ "$bif" = 1 ] && params="$params -set BitsInFlops 1"
  [ "$qd" = 1 ] || params="$params -set QueueDepth $qd"
  [ -n "$table" ] && params="$params -set TableFile \"$table\""
fi

# SYNTH_CACHE=dir: reuse the netlist of an identical synthesis (same wrapper, parameters, options
# and sources; nextpnr seeds and devices share one netlist).
key=""
if [ -n "${SYNTH_CACHE:-}" ]; then
  key=$( { echo "$wrapper $params ${SYNTH_OPTS:-} $("$yosys" -V)"; cat "${src[@]}"; if [ -n "$table" ]; then cat "$table"; fi; } | md5sum | cut -c1-16)
fi
if [ -n "$key" ] && [ -f "$SYNTH_CACHE/$key/synth.json" ]; then
  echo "yosys: $wrapper ($params): cached netlist $SYNTH_CACHE/$key" >&2
  cp "$SYNTH_CACHE/$key/synth.json" "$SYNTH_CACHE/$key/stat.txt" "$SYNTH_CACHE/$key/synth.log" "$out/"
else
  echo "yosys: synth_ice40 $wrapper ($params)..." >&2
  if ! "$yosys" -q -l "$out/synth.log" -p "read_verilog -sv ${src[*]}; chparam $params $wrapper; synth_ice40 ${SYNTH_OPTS:-} -top $wrapper -json $out/synth.json; tee -q -o $out/stat.txt stat" \
      >/dev/null 2>&1; then
    echo "$0: yosys failed, see $out/synth.log" >&2
    grep -m3 -i error "$out/synth.log" >&2 || true
    exit 1
  fi
  if [ -n "$key" ]; then
    mkdir -p "$SYNTH_CACHE/$key" && cp "$out/synth.json" "$out/stat.txt" "$out/synth.log" "$SYNTH_CACHE/$key/"
  fi
fi
count() { awk -v c="$2" '$1 ~ c {s+=$2} END {print s+0}' "$1"; }
lut=$(count "$out/stat.txt" '^SB_LUT4$'); ff=$(count "$out/stat.txt" '^SB_DFF'); bram=$(count "$out/stat.txt" '^SB_RAM40_4K$')

result() {  # result <fits> <lc|null> <fmax|null>
  jq -n --arg device "$device" --argjson seed "$seed" --arg top "$top" --argjson lut "$lut" --argjson ff "$ff" \
    --argjson bram "$bram" --argjson lc "$2" --argjson fmax "$3" --argjson fits "$1" --argjson ports "$ports" \
    --argjson payload "$payload" --argjson nw "$nw" --argjson depth "$depth" --arg table "$table" \
    --argjson freq "$freq" --arg placer "$placer" --arg yv "$("$yosys" -V | awk '{print $2}')" --arg nv "$("$nextpnr" --version 2>&1 | head -1)" \
    '{device: $device, seed: $seed, top: $top, lut4: $lut, ff: $ff, bram: $bram, lc: $lc,
      fmax_mhz: (if $fmax == null then null else ($fmax * 10 | round / 10) end), fits: $fits,
      ports: $ports, payload: $payload, node_bits: $nw, depth: $depth, table: $table,
      freq_target_mhz: $freq, placer: $placer, yosys: $yv, nextpnr: $nv}' > "$out/result.json"
}

if [ "$bram" -gt "$cap_bram" ]; then
  result false null null
  echo "$0: does not fit iCE40 $device: $bram SB_RAM40_4K, the device has $cap_bram" >&2
  exit 3
fi

echo "nextpnr seed $seed ($device, --placer $placer, --freq $freq)..." >&2
rc=0
timeout "$pnr_timeout" "$nextpnr" "${dev_args[@]}" --json "$out/synth.json" --asc "$out/pnr.asc" --freq "$freq" \
  --seed "$seed" --placer "$placer" --timing-allow-fail --report "$out/pnr.json" -l "$out/pnr.log" >/dev/null 2>&1 || rc=$?
if [ "$rc" -ne 0 ]; then
  if grep -qE "no BELs remaining|Unable to place|Unable to find legal placement|exceeds|too many|not enough" "$out/pnr.log" 2>/dev/null; then
    result false null null
    echo "$0: does not fit iCE40 $device: $(grep -m1 -E '^ERROR' "$out/pnr.log" | cut -c1-200)" >&2
    echo "$0: ($lut LUT4, $ff FF after synthesis; the device has $cap_lc logic cells; see $out/pnr.log)" >&2
    exit 3
  fi
  if [ "$rc" -eq 124 ]; then
    result null null null
    echo "$0: nextpnr did not finish within PNR_TIMEOUT=${pnr_timeout}s (--placer $placer, seed $seed), see $out/pnr.log" >&2
    exit 4
  fi
  echo "$0: nextpnr failed (exit $rc), see $out/pnr.log" >&2
  grep -m3 -E "^ERROR" "$out/pnr.log" >&2 || true
  exit 1
fi
lc=$(jq '.utilization.ICESTORM_LC.used // null' "$out/pnr.json")
fmax=$(jq '[.fmax[]?.achieved] | min // null' "$out/pnr.json")
result true "$lc" "$fmax"
echo "done: $top $device seed $seed: LUT4 $lut FF $ff BRAM $bram LC $lc Fmax $(jq .fmax_mhz "$out/result.json") MHz" >&2
