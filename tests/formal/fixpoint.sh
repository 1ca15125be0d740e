#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A fixpoint proof (tests/formal/run.sh, mode `fixpoint`): under the wrapper's condition output
# may_skip_o (and rst_ni high), a clock edge changes no flip-flop of the design, from ANY state.
#   tests/formal/fixpoint.sh <work-prefix> <top> <chparam args> <files...>
# Yosys flattens the design, turns memories into flip-flops and every flip-flop into a pair of
# ports (expose -evert-dff: its current value X.q an input, its next value X.d an output), so the
# design becomes combinational; then `sat -prove X.d X.q` for every pair, with undefined values
# modelled (-enable_undef: an x that could reach a next value fails the proof) and defined inputs.
# A .q port that no cell reads is a second name of bits another pair covers (Yosys names a
# register's slices after each wire they drive): it is left out, the bits are not.
# Also checked, structurally: no output of the wrapper but may_skip_o depends on an input named
# cfg_* (the load port, which the skipping harness does not hand to a skipped design).
# Exit 0 proved, 1 a counterexample or a cfg_* path (in <work-prefix>.log), 2 Yosys error.
set -euo pipefail
out=$1 top=$2 params=$3; shift 3
prep="read_verilog -formal -sv -DTOTEX_NO_ASSERTIONS $*; chparam $params $top; prep -top $top; flatten;
      memory_map; opt_clean -purge; expose -evert-dff; opt_clean"
# The wrapper's own outputs, before expose adds the cut flip-flops (and internal wires) as ports.
yosys -q -p "read_verilog -formal -sv -DTOTEX_NO_ASSERTIONS $*; chparam $params $top; prep -top $top;
             tee -q -o $out.outputs select -list o:* o:may_skip_o %d" >/dev/null 2>&1 || exit 2
yosys -q -l "$out.prep.log" -p "$prep; tee -q -o $out.ports select -list i:*.q; write_rtlil $out.il" >/dev/null 2>&1 || exit 2
outputs=""
for w in $(sed 's|.*/||' "$out.outputs"); do outputs+=" w:$w${outputs:+ %u}"; done
yosys -q -p "read_rtlil $out.il; tee -q -o $out.cfg select -list $outputs %ci* i:cfg_* %i" >/dev/null 2>&1 || exit 2
if [ -s "$out.cfg" ]; then
  { echo "fixpoint: a wrapper output depends on the load port:"; cat "$out.cfg"; } >"$out.log"; exit 1
fi
mapfile -t regs < <(sed 's|.*/||; s|\.q$||' "$out.ports")
[ ${#regs[@]} -gt 0 ] || { echo "fixpoint: no flip-flops found" >"$out.log"; exit 2; }
# Which .q ports some cell reads (select ... %co1 lists more than the wire itself).
script=""
for i in "${!regs[@]}"; do script+="tee -q -o $out.fan$i select -list w:${regs[$i]}.q %co1; "; done
yosys -q -p "read_rtlil $out.il; $script" >/dev/null 2>&1 || exit 2
pairs=()
for i in "${!regs[@]}"; do
  [ "$(wc -l < "$out.fan$i")" -gt 1 ] && pairs+=(-prove "${regs[$i]}.d" "${regs[$i]}.q")
  rm -f "$out.fan$i"
done
echo "${#pairs[@]}" | awk '{print $1 / 3}' > "$out.count"
if yosys -q -l "$out.log" -p "read_rtlil $out.il; sat -enable_undef -set-def-inputs -set rst_ni 1 -set may_skip_o 1 \
     ${pairs[*]} -verify -show-inputs" >/dev/null 2>&1; then exit 0; fi
grep -q 'proof did fail' "$out.log" && exit 1
exit 2
