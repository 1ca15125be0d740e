#!/usr/bin/env bash
# `make run`: the default co-simulation. Paper 002's optimal schedule for a 64 x 64 MIN of 4 x 4
# shift switches, computed, verified, then run cycle-accurately on the Verilated RTL with a
# waveform for GTKWave.
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
echo "open the waveform with: gtkwave waveforms/min64.fst waveforms/min_top.gtkw"
