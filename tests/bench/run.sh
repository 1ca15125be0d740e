#!/usr/bin/env bash
# `make bench`: the long sweeps (not part of `make test`). Writes build/bench/results.md and prints it.
# Every number is measured by the command on its row.
set -euo pipefail
build=${1:-build}
totex="$build/bin/totex"
out="$build/bench"
mkdir -p "$out"
md="$out/results.md"
: >"$md"

row() { printf '%s\n' "$*" >>"$md"; }

# Each row of a sweep is an independent job run through GNU parallel (BENCH_JOBS at once, default 1:
# the rows hold timings; --keep-order keeps the case order). A job prints its row; a failed row
# exits non-zero and parallel's exit status counts them. tests/bench/scale.sh works the same way,
# one command per case, which is what a cluster array job runs (docs/bench-cluster.md).
export totex PARALLEL_SHELL=bash
jobs=${BENCH_JOBS:-1}
sweep() { parallel --no-run-if-empty --keep-order --jobs "$jobs" --joblog "$out/$1.joblog" "$2" {}; }

row "## Schedules vs lower bounds (\`totex schedule --json\`)"
row ""
row "| topology | model | algorithm | steps | lower bound | optimal | verified | seconds |"
row "|---|---|---|---|---|---|---|---|"
bounds_row() {
  local topo model algo start j secs
  read -r topo model algo <<<"$1"
  start=$(date +%s.%N)
  j=$("$totex" schedule --topo "$topo" --model "$model" --algo "$algo" --json || true)
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  echo "| $topo | $model | $algo | $(jq .steps <<<"$j") | $(jq .lower_bound <<<"$j") | $(jq .optimal <<<"$j") | $(jq .verified <<<"$j") | $(printf %.2f "$secs") |"
}
export -f bounds_row
sweep bounds bounds_row <<'CASES' >>"$md" || true
min:64:4:omega nic latin
min:256:4:baseline nic latin
min:1024:2:butterfly nic latin
min:4096:8:omega nic latin
min:4096:2:omega nic latin
min:64:4:omega nic pairwise
min:256:2:omega nic pairwise
ring:16 single-port a2
torus:8x8 single-port a2
torus:4x6x8 single-port a2
torus:16x16 single-port a2
hypercube:8 single-port a2
ghc:4x4x4 single-port a2
ring:5*complete:3 single-port a2
path:8*path:8 single-port a2
torus:8x8 single-port pairwise
torus:8x8 all-port pairwise
torus:8x8 nic pairwise
hypercube:6 all-port pairwise
metacube:2,1 nic metacube
metacube:2,1 nic metacube-firstfit
metacube:2,2 nic metacube
metacube:2,2 nic metacube-firstfit
metacube:1,3 nic metacube-firstfit
CASES

row ""
row "## Simulation speed per engine (\`totex sim --json\`)"
row ""
row "Same schedule on every engine; cycles/s counts every simulated clock edge, loading included"
row "(wall time inside the harness: model builds are excluded). \`cosim:rtl-nics\` is \`--engine cosim"
row "--cosim-split rtl-nics\`."
row ""
row "| topology | engine | mode | cycles | expected | delivered | passed | simulated cycles | wall s | cycles/s | trace sha256 |"
row "|---|---|---|---|---|---|---|---|---|---|---|"
failed=()
sim_row() {
  local topo engine mode extra eng j
  read -r topo engine mode extra <<<"$1"
  eng=${engine%%:*}
  local split=()
  [ "$engine" != "$eng" ] && split=(--cosim-split "${engine#*:}")
  # shellcheck disable=SC2086  # $extra holds extra flags
  j=$("$totex" sim --topo "$topo" --engine "$eng" "${split[@]}" --min-mode "$mode" $extra --json || true)
  echo "| $topo $extra | $engine | $mode | $(jq .cycles <<<"$j") | $(jq .expected_cycles <<<"$j") | $(jq .delivered <<<"$j") | $(jq .passed <<<"$j") | $(jq .simulated_cycles <<<"$j") | $(printf %.3f "$(jq .wall_seconds <<<"$j")") | $(printf %.0f "$(jq .cycles_per_second <<<"$j")") | $(jq -r .trace_sha256 <<<"$j" | cut -c1-12) |"
  [ "$(jq .passed <<<"$j")" = true ]
}
export -f sim_row
sweep sim sim_row <<'CASES' >>"$md" || failed+=("$? simulation row(s) (see $out/sim.joblog)")
min:64:4:omega ref table
min:64:4:omega rtl table
min:64:4:omega systemc table
min:64:4:omega cosim:rtl-network table
min:64:4:omega cosim:rtl-nics table
min:64:4:omega rtl computed
min:256:4:omega rtl table
min:256:4:omega systemc table
min:256:4:omega cosim:rtl-network table
min:256:4:omega rtl computed
torus:8x8 ref table --model all-port
torus:8x8 rtl table --model all-port
torus:8x8 systemc table --model all-port
torus:8x8 cosim table --model all-port
torus:8x8 rtl table --model all-port --mode dynamic
torus:8x8 systemc table --model all-port --mode dynamic
CASES

# The README's results table (issue 17): bound and its term, proven optimum, auto's schedule.
row ""
row "## Schedules against proven bounds and optima (\`tests/bench/schedules_table.sh\`, auto with its default budget)"
row ""
"$(dirname "$0")/schedules_table.sh" "$build" default 120 >>"$md"

# Fault campaign (issue 15): 20 faults of each class on ref, systemc and rtl; fails the bench unless all are caught.
row ""
row "## Fault campaign (\`tests/fault/campaign.py\`, 20 per class and engine)"
row ""
if ! TOTEX_CACHE_DIR="$build/rtl-cache" python3 "$(dirname "$0")/../fault/campaign.py" "$totex" --per-class 20 \
     --engines ref,systemc,rtl --strict --table "$out/fault-table.md" >"$out/fault-campaign.log" 2>&1; then
  failed+=("fault campaign (see $out/fault-campaign.log)")
fi
cat "$out/fault-table.md" >>"$md" 2>/dev/null || row "(no table: see $out/fault-campaign.log)"

# Synthesis of a whole direct top with dynamic routers (16 flattened nodes, minutes of Yosys; make
# test synthesizes the modules and ring:7's scheduled top). The run builds the cached top it reads.
row ""
row "## Direct-network synthesis, full (\`SYNTH_FULL=1 tests/rtl/direct/synth.sh\`, Yosys generic synth)"
row ""
TOTEX_RTL_BUILD=flat TOTEX_CACHE_DIR="$build/rtl-cache" "$totex" sim --topo torus:4x4 --model nic --mode dynamic --dynamic adaptive \
  --engine rtl >"$out/synth-full-model.log" 2>&1 || true
if ! SYNTH_FULL=1 "$(dirname "$0")/../rtl/direct/synth.sh" "$build/rtl-cache" >"$out/synth-full.md" 2>&1; then
  failed+=("full direct synthesis (see $out/synth-full.md)")
fi
cat "$out/synth-full.md" >>"$md"

# Model build time and simulation speed of the Verilated engines (issue 16), cold and warm caches.
row ""
row "## RTL model build time (\`tests/bench/rtl_build_time.sh\`, cold = empty model cache and ccache)"
row ""
if ! "$(dirname "$0")/rtl_build_time.sh" "$build" "$out/rtl_build_time.md" >"$out/rtl_build_time.log" 2>&1; then
  failed+=("rtl build time (see $out/rtl_build_time.log)")
fi
cat "$out/rtl_build_time.md" >>"$md" 2>/dev/null || row "(no table: see $out/rtl_build_time.log)"

# Simulated cycles/s against terminals per engine and load path (issue 13, RTL at size).
row ""
row "## Simulation speed against terminals (\`tests/bench/sim_speed.sh\`, loading included, builds excluded)"
row ""
if ! TOTEX_CACHE_DIR="$build/rtl-cache" "$(dirname "$0")/sim_speed.sh" "$build" "$out/sim_speed.md" >"$out/sim_speed.log" 2>&1; then
  failed+=("simulation speed sweep (see $out/sim_speed.log)")
fi
cat "$out/sim_speed.md" >>"$md" 2>/dev/null || row "(no table: see $out/sim_speed.log)"

# Cost against size, N = 16..4096 (issue 13): time and peak RSS per family, fitted exponents, a log-log plot.
row ""
row "## Scale: generation + verification against N (\`tests/bench/scale.sh\`, plot $out/scale.svg)"
row ""
if ! "$(dirname "$0")/scale.sh" "$build" "$out" >"$out/scale.log" 2>&1; then
  failed+=("scale sweep (see $out/scale.log)")
fi
cat "$out/scale.md" >>"$md" 2>/dev/null || row "(no table: see $out/scale.log)"

# The default schedule at size (issue 29): steps / bound, seconds and memory per family, N = 64..4096.
row ""
row "## Default schedule at size (\`tests/bench/default_at_size.sh\`, plot $out/default_at_size.svg)"
row ""
if ! "$(dirname "$0")/default_at_size.sh" "$build" "$out" >"$out/default_at_size.log" 2>&1; then
  failed+=("default schedule at size (see $out/default_at_size.log)")
fi
cat "$out/default_at_size.md" >>"$md" 2>/dev/null || row "(no table: see $out/default_at_size.log)"

# Periodic (TDM) schedules (issue 28): the sweep of docs/periodic.md, and the exact search that
# proves mesh:4x4's period (SAT at the bound, 16; about 3 minutes of CaDiCaL at --budget 400).
row ""
row "## Periodic schedules (\`tests/bench/periodic.sh BUILD 8\`)"
row ""
if ! "$(dirname "$0")/periodic.sh" "$build" 8 >"$out/periodic.md" 2>"$out/periodic.log"; then
  failed+=("periodic sweep (see $out/periodic.log)")
fi
cat "$out/periodic.md" >>"$md"
# The rotation's repair beyond the issue's sizes: 20x20 at the bound, 18x18 through the first fit
# (a hidden unit test, about a minute).
if "$build/bin/unit_tests" "[rotation-slow]" >>"$out/periodic.log" 2>&1; then
  row ""
  row "rotation, periodic: torus:20x20 1000 = bound (repaired), torus:18x18 738 (repair unknown, first fit; bound 729), both verified"
else
  failed+=("rotation periodic 14x14 / 18x18 / 20x20 (unit_tests [rotation-slow], see $out/periodic.log)")
fi
# --algo exact on the issue's four networks (default budget): each at its bound, proven for every
# route (torus:3x3 and 4x4 need detours: minimal routes cannot make 8 and 15).
for topo in torus:3x3 torus:4x4 ring:8 mesh:4x4; do
  j=$("$build/bin/totex" schedule --periodic --topo "$topo" --model nic --algo exact --json 2>>"$out/periodic.log") || true
  if [ "$(jq -r '.verified and .proven_optimal and .proof_general and .period == .period_bound' <<<"${j:-null}" 2>/dev/null)" = true ]; then
    row ""
    row "$topo --algo exact: period $(jq .period <<<"$j") = bound, proven for every route ($(jq -r '.search[-1]' <<<"$j"))"
  else
    failed+=("$topo --periodic --algo exact did not prove the bound (see $out/periodic.log)")
  fi
done

# Any traffic against its bound (issue 49's targets): random and moe, 16 to 1024 nodes.
row ""
row "## Traffic schedules against their bounds (\`tests/bench/traffic_quality.sh\`)"
row ""
"$(dirname "$0")/traffic_quality.sh" "$totex" >>"$md" 2>"$out/traffic_quality.log" || failed+=("traffic quality (see $out/traffic_quality.log)")

# Permutations on tori against their bounds (issue 49's permutation target).
row ""
row "## Permutations on tori against their bounds (\`tests/bench/permutations.sh\`)"
row ""
"$(dirname "$0")/permutations.sh" "$totex" >>"$md" 2>"$out/permutations.log" || failed+=("permutations (see $out/permutations.log)")

# Tori with one or two failed links against the degraded network's bound (issue 49's target).
row ""
row "## Degraded tori against their bounds (\`tests/bench/degraded.sh\`)"
row ""
"$(dirname "$0")/degraded.sh" "$totex" >>"$md" 2>"$out/degraded.log" || failed+=("degraded tori (see $out/degraded.log)")

# totex against Poseidon on its data sets and custom traffic (issue 49), when a checkout is given.
if [ -n "${POSEIDON_SRC:-}" ]; then row ""; "$(dirname "$0")/poseidon.sh" "$totex" "$out" >"$out/poseidon.log" 2>&1 || failed+=("Poseidon comparison (see $out/poseidon.log)"); cat "$out/poseidon.md" >>"$md" 2>/dev/null || true; fi

# The synthesized netlist against its RTL on every parameter set (make test runs one per top).
row ""
row "## Netlist equals RTL, every parameter set (\`tests/rtl/synth_equiv.sh\`)"
row ""
if "$(dirname "$0")/../rtl/synth_equiv.sh" "$out/synth_equiv" 20000 >"$out/synth_equiv.log" 2>&1; then
  row "every case equal ($(grep -c '^ok' "$out/synth_equiv.log" || true) cases; $out/synth_equiv.log)"
else
  failed+=("netlist against RTL (see $out/synth_equiv.log)")
fi

# The TDM tile and NIC queue testbenches on every parameter set (make test runs four and three).
row ""
row "## TDM tile and NIC queue, every parameter set (\`tests/rtl/tdm/run.sh\`)"
row ""
if "$(dirname "$0")/../rtl/tdm/run.sh" "$out/tdm_tb" 20000 >"$out/tdm_tb.log" 2>&1; then
  row "every set passed, three seeds each ($out/tdm_tb.log)"
else
  failed+=("TDM tile testbenches (see $out/tdm_tb.log)")
fi

# The CTest tests labelled bench: end-to-end checks that repeat on more or larger cases what a
# make test check covers (listed in docs/reliability.md, "What make test leaves to make bench").
row ""
row "## The suite's long checks (\`ctest -L bench\`)"
row ""
if (cd "$build" && ctest -L bench -j "$jobs" --output-on-failure) >"$out/ctest_bench.log" 2>&1; then
  row "$(grep -E 'tests passed' "$out/ctest_bench.log" | tail -1) ($out/ctest_bench.log)"
else
  failed+=("ctest -L bench (see $out/ctest_bench.log)")
fi

# One schedule of 1,024 nodes on the RTL, digest against ref (issue 29).
row ""
row "## 1,024 nodes on the RTL (\`tests/bench/rtl_1024.sh\`)"
row ""
row "| network | model | algorithm | rtl cycles | messages | digest | seconds (rtl run, tile build included) |"
row "|---|---|---|---:|---:|---|---:|"
if ! "$(dirname "$0")/rtl_1024.sh" "$build" >>"$md" 2>"$out/rtl_1024.log"; then
  failed+=("1,024 nodes on the RTL (see $out/rtl_1024.log)")
fi

cat "$md"
# A sweep row whose run did not pass fails the bench (the 256 x 256 MIN runs here, not in make test).
if [ ${#failed[@]} -gt 0 ]; then
  printf 'bench: did not pass: %s\n' "${failed[@]}" >&2
  exit 1
fi
