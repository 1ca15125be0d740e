#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Formal proofs of the RTL (issue 15): the property wrappers in rtl/formal/ under yosys-smtbmc + z3.
#   tests/formal/run.sh [--quick] [WORK_DIR]      (default WORK_DIR build-formal)
# --quick runs the small subset CTest runs (formal.quick, sized to pass within its 300 s on a loaded
# 2-core machine: fewer cycles for the dynamic routers and the TDM NIC, one quiet dynamic tile);
# without it, every proof (make formal), the quick rows' deeper versions included.
# FORMAL_ONLY=text runs only the rows whose name contains text (no mutants); FORMAL_ONLY=mutants only the mutants.
# A mutant's depth must reach its defect (the full-FIFO push needs reset + Depth pushes + one more).
# Each row: Yosys reads the wrapper and the production RTL (assertions of the RTL itself left out with
# TOTEX_NO_ASSERTIONS: the wrappers state the properties), writes SMT-LIB 2, and yosys-smtbmc checks
#   bmc K      every trace of K cycles from reset (a bounded proof);
#   ind K      bmc K, then K-induction (yosys-smtbmc -i): the properties hold in every reachable state;
#   cover      every cover() is reachable within K (the properties are not vacuous);
#   fixpoint   no flip-flop changes on a clock edge under the wrapper's may_skip_o, from any state
#              (tests/formal/fixpoint.sh: Yosys sat on the design with its flip-flops cut open).
# z3 is the solver (Debian's boolector 1.5 does not speak yosys-smtbmc's SMT-LIB); --unroll, because
# z3 4.8 stalls on the incremental form with quantified state. Then the mutants: production RTL with
# one deliberate defect, each of which must make its proof FAIL (the properties can fail).
# Prints one line per row and a Markdown table (WORK_DIR/formal-table.md); exit 1 on any failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rtl="$root/rtl"
quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi
work=${1:-$root/build-formal}
mkdir -p "$work"
work=$(cd "$work" && pwd)
for tool in yosys yosys-smtbmc z3 verilator; do
  command -v "$tool" >/dev/null || { echo "formal: $tool not found (make deps installs it)"; exit 1; }
done
pkgs=("$rtl/totex_pkg.sv")
[ -f "$rtl/totex_direct_pkg.sv" ] && pkgs+=("$rtl/totex_direct_pkg.sv")
[ -f "$rtl/tdm/totex_tdm_pkg.sv" ] && pkgs+=("$rtl/tdm/totex_tdm_pkg.sv")

# name | wrapper | production RTL | chparam | mode | depth | in --quick [| Yosys passes after prep]
# Production RTL: NAME is rtl/NAME.sv, @LIST.f every file of rtl/LIST.f (rtl/filelist.sh).
# Banyan depth: reset, a start cycle, N steps, n pipeline stages and the final count: N + n + 3 covers
# a whole run (starting later only adds load cycles, and any M^0 can be written in one).
# The tile and every module it may instantiate (both modes); a mutant edits the first file.
tile_rtl="totex_direct_ctrl totex_direct_fifo totex_router_dyn totex_direct_nic_dyn totex_direct_dyn_node totex_router totex_direct_table totex_direct_nic totex_direct_node totex_direct_tile"
tile_rtl_mutant="totex_direct_tile ${tile_rtl% totex_direct_tile}"
proofs=(
  "switch D=2|totex_formal_shift_switch|totex_shift_switch|-set D 2|ind|2|0"
  "switch D=3|totex_formal_shift_switch|totex_shift_switch|-set D 3|ind|2|1"
  "switch D=4|totex_formal_shift_switch|totex_shift_switch|-set D 4|ind|2|1"
  "switch D=5, W=4|totex_formal_shift_switch|totex_shift_switch|-set D 5 -set W 4|ind|2|0"
  "banyan Latin run 4x4 d=2 omega|totex_formal_banyan_latin|totex_shift_switch totex_switch_state totex_banyan|-set N 4 -set D 2 -set Wiring 0|bmc|9|1"
  "banyan Latin run 4x4 d=2 baseline|totex_formal_banyan_latin|totex_shift_switch totex_switch_state totex_banyan|-set N 4 -set D 2 -set Wiring 1|bmc|9|0"
  "banyan Latin run 4x4 d=2 butterfly|totex_formal_banyan_latin|totex_shift_switch totex_switch_state totex_banyan|-set N 4 -set D 2 -set Wiring 2|bmc|9|0"
  "banyan Latin run 8x8 d=2 omega|totex_formal_banyan_latin|totex_shift_switch totex_switch_state totex_banyan|-set N 8 -set D 2 -set Wiring 0|bmc|14|0"
  "banyan Latin run 8x8 d=2 baseline|totex_formal_banyan_latin|totex_shift_switch totex_switch_state totex_banyan|-set N 8 -set D 2 -set Wiring 1|bmc|14|0"
  "banyan Latin run 8x8 d=2 butterfly|totex_formal_banyan_latin|totex_shift_switch totex_switch_state totex_banyan|-set N 8 -set D 2 -set Wiring 2|bmc|14|0"
  "banyan Latin run 9x9 d=3 butterfly|totex_formal_banyan_latin|totex_shift_switch totex_switch_state totex_banyan|-set N 9 -set D 3 -set Wiring 2|bmc|14|0"
  "banyan Latin run (cover)|totex_formal_banyan_latin|totex_shift_switch totex_switch_state totex_banyan|-set N 4 -set D 2 -set Wiring 0|cover|10|0"
  "router P=2 single-port|totex_formal_router|totex_router|-set NumPorts 2 -set NumLanes 1 -set Model 0|ind|4|1"
  "router P=3 nic|totex_formal_router|totex_router|-set NumPorts 3 -set NumLanes 1 -set Model 2|ind|4|0"
  "router P=3 all-port, port 2 unconnected|totex_formal_router|totex_router|-set NumPorts 3 -set NumLanes 3 -set Model 1 -set ConnectedMask 3'b011|ind|4|0"
  "FIFO Depth=2 level/overflow|totex_formal_fifo|totex_direct_fifo|-set Depth 2 -set CheckData 0|ind|4|1"
  "FIFO Depth=3 level/overflow|totex_formal_fifo|totex_direct_fifo|-set Depth 3 -set CheckData 0|ind|4|0"
  "FIFO Depth=4 level/overflow|totex_formal_fifo|totex_direct_fifo|-set Depth 4 -set CheckData 0|ind|4|0"
  "FIFO Depth=2 order vs reference|totex_formal_fifo|totex_direct_fifo|-set Depth 2|bmc|10|0"
  "FIFO Depth=3 order vs reference|totex_formal_fifo|totex_direct_fifo|-set Depth 3|bmc|10|0"
  "dynamic routers path:2, 1 VC|totex_formal_router_dyn|totex_direct_fifo totex_router_dyn|-set NumVcs 1 -set AdaptiveVcs 0 -set Depth 2 -set Quiet 4|bmc|8|0"
  "dynamic routers path:2, 1 VC (quick: 6 cycles)|totex_formal_router_dyn|totex_direct_fifo totex_router_dyn|-set NumVcs 1 -set AdaptiveVcs 0 -set Depth 2 -set Quiet 4|bmc|6|1"
  "quiet dynamic tile P=2, 2 VCs (1 adaptive)|totex_formal_tile_quiet|$tile_rtl|-set Dynamic 1 -set NumPorts 2 -set NumVcs 2 -set AdaptiveVcs 1|fixpoint|1|1"
  "quiet dynamic tile P=4, 4 VCs (2 adaptive)|totex_formal_tile_quiet|$tile_rtl|-set Dynamic 1 -set NumPorts 4 -set NumVcs 4 -set AdaptiveVcs 2|fixpoint|1|0"
  "quiet dynamic tile P=3, 1 VC, N=7, FIFO 3|totex_formal_tile_quiet|$tile_rtl|-set Dynamic 1 -set N 7 -set NumPorts 3 -set NumVcs 1 -set AdaptiveVcs 0 -set FifoDepth 3|fixpoint|1|0"
  "quiet scheduled tile all-port P=2|totex_formal_tile_quiet|$tile_rtl|-set Dynamic 0 -set Model 1|fixpoint|1|1"
  "quiet scheduled tile single-port, relay buffer 2|totex_formal_tile_quiet|$tile_rtl|-set Dynamic 0 -set Model 0 -set BufSlots 2|fixpoint|1|0"
  "quiet scheduled tile nic P=3, N=7|totex_formal_tile_quiet|$tile_rtl|-set Dynamic 0 -set Model 2 -set N 7 -set NumPorts 3|fixpoint|1|0"
  # TDM tile NIC (docs/tdm-tile.md, "Formal proof"): reset, Depth table writes, priming
  # (prime_cycles = 2^NodeW + 4, the reset sweep included), then slots: the first slot executes in
  # cycle Depth + 2^NodeW + 5 (11 at NodeW 2, Depth 2). Depth 18: 7 executed cycles (11..17), several
  # periods of 1 or 2, 3a/3b can fail at T = 1 (the quick set's row stops at 16: 5 executed cycles,
  # periods of 1 or 2); deeper: 11 executed cycles (11..21), 3a/3b can fail at T <= 2. memory_map turns the RAMs into flip-flops (z3 is about 3x faster without arrays).
  "TDM NIC P=1 NodeW=2 Depth=2, no pauses, links idle|totex_formal_tdm_nic|@tdm/tdm.f|-set Depth 2 -set Pauses 0 -set Links 0|bmc|18|0|memory_map"
  "TDM NIC P=1 NodeW=2 Depth=2, no pauses, links idle (quick: 16)|totex_formal_tdm_nic|@tdm/tdm.f|-set Depth 2 -set Pauses 0 -set Links 0|bmc|16|1|memory_map"
  "TDM NIC P=1 NodeW=2 Depth=2, no pauses, links idle (deeper)|totex_formal_tdm_nic|@tdm/tdm.f|-set Depth 2 -set Pauses 0 -set Links 0|bmc|22|0|memory_map"
  "TDM NIC P=1 NodeW=2 Depth=2, no pauses, links idle, toggle bits in flip-flops|totex_formal_tdm_nic|@tdm/tdm.f|-set Depth 2 -set Pauses 0 -set Links 0 -set BitsInFlops 1|bmc|22|0|memory_map"
  "TDM NIC P=1 NodeW=3 Depth=2, no pauses, links idle|totex_formal_tdm_nic|@tdm/tdm.f|-set NodeW 3 -set SeqW 4 -set Depth 2 -set Pauses 0 -set Links 0|bmc|24|0|memory_map"
  "TDM NIC P=1 NodeW=2 Depth=4, pauses, link flits|totex_formal_tdm_nic|@tdm/tdm.f|-set Depth 4|bmc|20|0|memory_map"
  "TDM NIC (cover)|totex_formal_tdm_nic|@tdm/tdm.f|-set Depth 2|cover|20|0|memory_map"
  # The TDM control port (totex_tdm_axil; docs/tdm-tile.md "Control port and table swap"): AXI4-Lite
  # handshakes (no lost or duplicated response, one outstanding, valid held until ready) and one
  # shadow-write / swap / arm pulse per write; seconds, so also in the quick set.
  "TDM AXI4-Lite control port, table entry over 32 bits|totex_formal_axil|tdm/totex_tdm_axil|-set EntryW 35|ind|4|1"
  "TDM AXI4-Lite control port, SlotW 7, P 4|totex_formal_axil|tdm/totex_tdm_axil|-set SlotW 7 -set NumPorts 4 -set EntryW 27|ind|4|0"
  # The exported network's control port (totex_tdm_axil_fanout, docs/ip.md) in front of three
  # production tile ports: handshakes, DECERR for a tile >= N, each table write at exactly the tiles
  # it names. BMC from reset (12 cycles: four writes or two reads and their responses).
  "TDM network control port fan-out, 3 tiles|totex_formal_axil_fanout|tdm/totex_tdm_axil_fanout tdm/totex_tdm_axil||bmc|12|1"
)
# name | wrapper | production RTL | chparam | depth (or fixpoint) | Yosys passes after prep (or empty)
#   | sed expression applied to the first RTL file (a NAME; an @LIST.f after it skips that file).
# The TDM NIC mutants edit lines of the toggle-bit NIC (rtl/tdm/totex_tdm_nic.sv; in the tile before 2026-11-26 04 UTC): an injection that does not
# flip R[d] (the message stays pending and goes out again), and a head that commits (flips S[d]) even
# when its destination's message is pending (S != R) instead of parking (that message is lost); the inject
# side without its flag for a send by the slot decided just before / two before (that R write may not be
# in its read yet: the message goes out twice).
mutants=(
  "AXI4-Lite fan-out: B before every tile answered|totex_formal_axil_fanout|tdm/totex_tdm_axil_fanout tdm/totex_tdm_axil||8||s/if (wsel_d == '0 \&\& wwait_d == '0) begin/if (wsel_d == '0) begin/"
  "AXI4-Lite fan-out: bvalid dropped without bready|totex_formal_axil_fanout|tdm/totex_tdm_axil_fanout tdm/totex_tdm_axil||8||s/if (s_axil_bready) bvalid_q <= 1'b0;/bvalid_q <= 1'b0;/"
  "AXI4-Lite: bvalid dropped without bready|totex_formal_axil|tdm/totex_tdm_axil|-set EntryW 35|7||s/assign bvalid_d = wr_take | (bvalid_q \& ~s_axil_bready);/assign bvalid_d = wr_take;/"
  "AXI4-Lite: rvalid dropped without rready|totex_formal_axil|tdm/totex_tdm_axil|-set EntryW 35|7||s/else if (s_axil_rready) rvalid_q <= 1'b0;/else rvalid_q <= 1'b0;/"
  "AXI4-Lite: a write taken while its response waits|totex_formal_axil|tdm/totex_tdm_axil|-set EntryW 35|7||s/assign wr_take        = s_axil_awvalid \& s_axil_wvalid \& (~bvalid_q | s_axil_bready);/assign wr_take        = s_axil_awvalid \& s_axil_wvalid;/"
  "switch rotates by k+1|totex_formal_shift_switch|totex_shift_switch|-set D 4|3||s/nxt\[v\*LW +: LW\] = state_i\[b\] ?/nxt[v*LW +: LW] = !state_i[b] ?/"
  "router misses a link used twice|totex_formal_router|totex_router|-set NumPorts 3 -set NumLanes 3 -set Model 1|4||s/assign collision\[o\] *= !at_most_one(src);/assign collision[o] = 1'b0;/"
  "FIFO accepts a push when full|totex_formal_fifo|totex_direct_fifo|-set Depth 2 -set CheckData 0|6||s/32'(count_q) < Depth ||/32'(count_q) <= Depth ||/"
  "tile quiet with a flit in its router|totex_formal_tile_quiet|$tile_rtl_mutant|-set Dynamic 1|fixpoint||s/assign quiet_o = !busy.*node_idle;/assign quiet_o = !busy;/"
  "scheduled tile quiet with its output data set|totex_formal_tile_quiet|$tile_rtl_mutant|-set Dynamic 0 -set Model 1|fixpoint||s/ .. out_data_o == .0;/;/"
  "TDM NIC: an injection does not flip R[d]|totex_formal_tdm_nic|tdm/totex_tdm_nic @tdm/tdm.f|-set Depth 2 -set Pauses 0 -set Links 0|18|memory_map|s/assign rw_we = sweep .*/assign rw_we = sweep;/"
  "TDM NIC: a commit ignores a pending message (S != R)|totex_formal_tdm_nic|tdm/totex_tdm_nic @tdm/tdm.f|-set Depth 2 -set Pauses 0 -set Links 0|18|memory_map|s/assign pk_occ   = parked_q | head_read_q; /assign pk_occ   = parked_q; /;s/assign rdy_d    = rdy_k \& .*/assign rdy_d    = rdy_k;/;s/assign s_wd     = ~sweep \& ~r_s;/assign s_wd     = ~sweep \& (parked_q ? ~r_s : ~s_s);/"
  "TDM NIC: a slot right after one that sent to its destination sends too (no eq1 flag)|totex_formal_tdm_nic|tdm/totex_tdm_nic @tdm/tdm.f|-set Depth 2 -set Pauses 0 -set Links 0|18|memory_map|s/assign dec_x    = key_i \& ~f2_q \& .*/assign dec_x    = key_i \& ~f2_q;/"
  "TDM NIC: a slot two after one that sent to its destination sends too (no f2 flag)|totex_formal_tdm_nic|tdm/totex_tdm_nic @tdm/tdm.f|-set Depth 2 -set Pauses 0 -set Links 0|18|memory_map|s/assign dec_x    = key_i \& ~f2_q \& /assign dec_x    = key_i \& /"
)

smt() {  # smt <out.smt2> <top> <chparam> <files...>; $passes (the row's extra Yosys passes) after prep
  local out=$1 top=$2 params=$3; shift 3
  yosys -q -l "$out.log" -p "read_verilog -formal -sv -DTOTEX_NO_ASSERTIONS ${pkgs[*]} $*; chparam $params $top; prep -top $top; ${passes:+$passes; }flatten; async2sync; dffunmap; write_smt2 $out" >/dev/null 2>>"$out.log"
}
# sources <files>: the row's RTL as paths in srcs: NAME is rtl/NAME.sv, @LIST.f every file of the
# list rtl/LIST.f (rtl/filelist.sh) not already read (the packages, an earlier NAME, the mutated file).
sources() {
  local f p q seen
  for f in $1; do
    if [[ $f == @* ]]; then
      while IFS= read -r p; do
        seen=0; for q in "${pkgs[@]}" "${srcs[@]}" "${skip[@]}"; do [ "$q" = "$p" ] && seen=1; done
        [ $seen = 0 ] && srcs+=("$p")
      done < <("$rtl/filelist.sh" "$rtl/${f#@}")
    else srcs+=("$rtl/$f.sv"); fi
  done
}
# bmc <smtbmc args>: 0 passed, 1 failed (an assertion fails or a cover is unreached), 2 no verdict
# (the solver died, e.g. killed for memory): reported as an error, never as a property result.
bmc() {
  yosys-smtbmc -s z3 --unroll "$@" > "$log.raw" 2>&1 || true
  # The progress spinner shares lines with the status lines: keep only what follows '## '.
  tr '\r' '\n' < "$log.raw" | grep -oE '## .*' > "$log" || true
  if grep -q 'Status: PASSED' "$log"; then return 0; fi
  if grep -q 'Status: FAILED' "$log"; then return 1; fi
  return 2
}
verdict() {  # verdict <bmc exit> <text if failed>
  case $1 in 0) ;; 1) result=$2 ;; *) result="NO VERDICT (solver died; see $log.raw)" ;; esac
}

# Lint every wrapper with the RTL its first proof row reads.
lint_fail=0
for w in "$rtl"/formal/*.sv; do
  top=$(basename "$w" .sv)
  files=$(printf '%s\n' "${proofs[@]}" | awk -F'|' -v t="$top" '$2 == t {print $3; exit}')
  [ -n "$files" ] || { echo "lint FAIL $top: no proof uses it"; lint_fail=1; continue; }
  srcs=(); skip=(); sources "$files"
  if ! out=$(verilator --lint-only -Wall --top-module "$top" "$root/tests/rtl/lint_waivers.vlt" "${pkgs[@]}" \
        "${srcs[@]}" "$w" 2>&1); then
    echo "lint FAIL $top"; echo "$out" | head -20; lint_fail=1
  fi
done
[ $lint_fail = 0 ] && echo "lint ok   rtl/formal/*.sv (verilator --lint-only -Wall)"

table="$work/formal-table.md"
printf '| property (wrapper, parameters) | method | depth | result | seconds |\n|---|---|---:|---|---:|\n' > "$table"
status=$lint_fail
n=0
for row in "${proofs[@]}"; do
  IFS='|' read -r name top files params mode depth inq passes <<<"$row"
  [ $quick = 1 ] && [ "$inq" != 1 ] && continue
  [ -n "${FORMAL_ONLY:-}" ] && ! grep -q -- "$FORMAL_ONLY" <<<"$name" && continue
  [ "${FORMAL_ONLY:-}" = mutants ] && continue
  n=$((n + 1))
  srcs=(); skip=(); sources "$files"
  out="$work/p$n.smt2"; log="$work/p$n.log"
  t0=$(date +%s.%N)
  result=PROVED
  if [ "$mode" = fixpoint ]; then
    rc=0; "$here/fixpoint.sh" "$out" "$top" "$params" "${pkgs[@]}" "${srcs[@]}" "$rtl/formal/$top.sv" || rc=$?
    case $rc in 0) result="PROVED for every state ($(cat "$out.count") register vectors)" ;; 1) result=FAILED ;;
      *) result="YOSYS ERROR (see $out.prep.log)" ;; esac
  elif ! smt "$out" "$top" "$params" "${srcs[@]}" "$rtl/formal/$top.sv"; then result="YOSYS ERROR (see $out.log)"
  else
    case $mode in
      bmc)   rc=0; bmc -t "$depth" "$out" || rc=$?; verdict $rc FAILED ;;
      ind)   rc=0; bmc -t "$depth" "$out" || rc=$?; verdict $rc FAILED
             if [ $rc = 0 ]; then bmc -i -t "$depth" "$out" || rc=$?; verdict $rc "INDUCTION FAILED"; fi ;;
      cover) rc=0; bmc -c -t "$depth" "$out" || rc=$?; verdict $rc "NOT REACHED" ;;
    esac
  fi
  [ "$mode" = bmc ] && [ "$result" = PROVED ] && result="PROVED to depth $depth"
  [ "$mode" = cover ] && [ "$result" = PROVED ] && result="REACHED"
  secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
  method=$mode; [ "$mode" = ind ] && method="bmc + ${depth}-induction"; [ "$mode" = bmc ] && method="bmc from reset"
  [ "$mode" = fixpoint ] && method="fixpoint (sat, one edge)"
  printf '%-50s %-24s %s  %ss\n' "$name" "$method" "$result" "$secs"
  printf '| %s (`%s` %s) | %s | %s | %s | %s |\n' "$name" "$top" "$params" "$method" "$depth" "$result" "$secs" >> "$table"
  case $result in PROVED*|REACHED) ;; *) status=1; tail -5 "$log" ;; esac
done

if [ $quick = 0 ] && { [ -z "${FORMAL_ONLY:-}" ] || [ "$FORMAL_ONLY" = mutants ]; }; then
  for row in "${mutants[@]}"; do
    IFS='|' read -r name top files params depth passes expr <<<"$row"
    n=$((n + 1))
    f=${files%% *}; mf="$work/mutant_${f##*/}.sv"; sed "$expr" "$rtl/$f.sv" > "$mf"
    cmp -s "$rtl/$f.sv" "$mf" && { echo "mutant '$name': the edit did not apply"; status=1; }
    srcs=("$mf"); skip=("$rtl/$f.sv")
    [ "$files" = "$f" ] || sources "${files#* }"
    out="$work/p$n.smt2"; log="$work/p$n.log"
    rc=0
    if [ "$depth" = fixpoint ]; then "$here/fixpoint.sh" "$out" "$top" "$params" "${pkgs[@]}" "${srcs[@]}" "$rtl/formal/$top.sv" || rc=$?
    elif ! smt "$out" "$top" "$params" "${srcs[@]}" "$rtl/formal/$top.sv"; then rc=3; else bmc -t "$depth" "$out" || rc=$?; fi
    case $rc in
      1) result="caught (proof fails)" ;;
      0) result="NOT CAUGHT"; status=1 ;;
      *) result="NO VERDICT (yosys or solver error; see $log.raw)"; status=1 ;;
    esac
    method="bmc from reset"; [ "$depth" = fixpoint ] && method="fixpoint (sat, one edge)"
    printf '%-50s %-24s %s\n' "mutant: $name" "$method" "$result"
    printf '| mutant: %s (`%s`) | %s | %s | %s | |\n' "$name" "$top" "$method" "$depth" "$result" >> "$table"
  done
fi
echo "table: $table"
exit $status
