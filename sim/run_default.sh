#!/usr/bin/env bash
# `make run`: the default co-simulation. Paper 002's optimal schedule for a 64 x 64 MIN of 4 x 4
# shift switches, computed, verified, then run cycle-accurately on the Verilated RTL with a
# waveform for GTKWave; the same schedule on the SystemC models and in a mixed co-simulation (all
# report the same delivery-trace digest); then an 8x8 torus exchange on the router RTL, under
# all-port (paper 001's table) and under nic (auto's schedule, also on the SystemC models).
set -euo pipefail
build=${1:-build}
totex="$build/bin/totex"
mkdir -p waveforms
echo "== schedule: min:64:4:omega, paper 002 (latin) =="
"$totex" schedule --topo min:64:4:omega -o "$build/min64.cfg"
echo
echo "== RTL co-simulation (Verilator; the model is built on first use, then cached) =="
"$totex" sim --schedule "$build/min64.cfg" --engine rtl --wave waveforms/min64.fst
echo
echo "== the same schedule on the SystemC models, then co-simulated (Verilated banyan + SystemC NICs) =="
"$totex" sim --schedule "$build/min64.cfg" --engine systemc
"$totex" sim --schedule "$build/min64.cfg" --engine cosim --wave waveforms/min64_cosim.vcd
echo
echo "== torus:8x8, all-port exchange table (paper 001) on the Verilated routers =="
"$totex" schedule --topo torus:8x8 --model all-port -o "$build/torus8x8.tbl"
"$totex" sim --schedule "$build/torus8x8.tbl" --engine rtl --wave waveforms/torus8x8.fst
echo
echo "== torus:8x8 under nic (one NIC port per node, routers forward on every link): the default (auto) schedule on the router RTL and the SystemC models =="
"$totex" schedule --topo torus:8x8 --model nic -o "$build/torus8x8_nic.txt"
"$totex" sim --schedule "$build/torus8x8_nic.txt" --engine rtl
"$totex" sim --schedule "$build/torus8x8_nic.txt" --engine systemc
echo
echo "open the waveforms with:"
echo "  gtkwave waveforms/min64.fst waveforms/min_top.gtkw"
echo "  gtkwave waveforms/torus8x8.fst waveforms/direct_top.gtkw"
echo "  gtkwave waveforms/min64_cosim.vcd waveforms/min64_cosim.vcd.gtkw   (SystemC side; RTL side: min64_cosim.rtl.fst)"
