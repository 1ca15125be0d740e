#!/usr/bin/env bash
# Issue 13: cost of `totex schedule` (generation + verification) against network size, N = 16..4096,
# per family: wall and CPU seconds and peak RSS from /usr/bin/time -v, the transfers (link
# crossings) of the schedule, and per family the fitted exponents of CPU time and of the transfers
# against N (least squares on log-log). Then files at size: write time, size and load time of the
# file of a schedule, as text and gzip (.gz), against generating it. Writes OUT/scale.md,
# OUT/files.md and OUT/scale.svg (log-log, awk only).
#
# Every case is an independent job (one line of `scale.sh cases`, its result one file in
# OUT/scale.d/), run here through GNU parallel; a cluster runs the same lines as an array job
# (docs/bench-cluster.md has the Slurm example) and then `scale.sh report`.
# Usage: scale.sh BUILD_DIR [OUT_DIR] [MAX_N]      every case (BENCH_JOBS at once, default 1: the rows
#                                                  are timings), then the report; MAX_N defaults to 4096
#        scale.sh cases [MAX_N]                    the case lines
#        scale.sh one BUILD_DIR OUT_DIR 'CASE'     one case -> OUT_DIR/scale.d/<case>.tsv
#        scale.sh report BUILD_DIR OUT_DIR         tables and plot from OUT_DIR/scale.d
set -euo pipefail

# kind | family | spec | model | algo | N. kind cost: generation + verification. kind file: the
# schedule written with -o (algo latin:table = MIN --form table) and read back by totex verify.
cases() {
  local max_n=${1:-4096}
  {
    for n in 4 5 6 7 8 9 10 11 12; do echo "cost|hypercube a2|hypercube:$n|single-port|a2|$((1 << n))"; done
    for k in 4 8 16 32 64; do echo "cost|torus 2-D a2|torus:${k}x${k}|single-port|a2|$((k * k))"; done
    for k in 4 8 16; do echo "cost|torus 3-D a2|torus:${k}x${k}x${k}|single-port|a2|$((k * k * k))"; done
    for k in 4 8 16 32 64; do echo "cost|torus 2-D all-port table|torus:${k}x${k}|all-port|table|$((k * k))"; done
    for n in 16 64 256 1024 4096; do echo "cost|min d=4 latin|min:$n:4|nic|latin|$n"; done
    for n in 16 32 64 128 256 512 1024 2048 4096; do echo "cost|min d=2 latin|min:$n:2|nic|latin|$n"; done
    for n in 16 256 4096; do echo "cost|min d=16 latin|min:$n:16|nic|latin|$n"; done
    echo "file|step schedule|torus:16x16|nic|pairwise|256"
    echo "file|step schedule|torus:32x32|nic|pairwise|1024"
    echo "file|step schedule, searched|torus:32x32|nic|pattern|1024"
    echo "file|exchange table|torus:64x64|all-port|table|4096"
    echo "file|configuration matrix, computed|min:4096:2|nic|latin|4096"
    echo "file|configuration matrix, table|min:4096:2|nic|latin:table|4096"
    echo "file|generated a2|hypercube:12|single-port|a2|4096"
  } | awk -F'|' -v max="$max_n" '$6 <= max'
}

# Runs "$@" under /usr/bin/time -v; sets j (stdout), wall, cpu (s) and rss (MB).
timed() {
  local log
  log=$(mktemp)
  if ! j=$(/usr/bin/time -v "$@" 2>"$log"); then
    echo "scale: failed: $*" >&2; cat "$log" >&2; rm -f "$log"; return 1
  fi
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$log")
  cpu=$(awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {printf "%.2f", u + s}' "$log")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$log")
  rm -f "$log"
}

# timed, BENCH_REPEAT times (default 3); keeps the run with the least CPU (other jobs on a shared
# machine only ever add to it).
best_of() {
  local k best_j best_wall best_cpu best_rss
  for ((k = 0; k < ${BENCH_REPEAT:-3}; k++)); do
    timed "$@" || return 1
    if [ "$k" -eq 0 ] || awk -v a="$cpu" -v b="$best_cpu" 'BEGIN {exit !(a < b)}'; then
      best_j=$j best_wall=$wall best_cpu=$cpu best_rss=$rss
    fi
  done
  j=$best_j wall=$best_wall cpu=$best_cpu rss=$best_rss
}

one() {
  local build=$1 out=$2 line=$3 kind family spec model algo n form=computed
  IFS='|' read -r kind family spec model algo n <<<"$line"
  local totex="$build/bin/totex" id
  id=$(tr -c 'A-Za-z0-9.\n-' '_' <<<"$kind-$spec-$model-$algo")
  mkdir -p "$out/scale.d"
  if [[ $algo == *:* ]]; then form=${algo#*:}; algo=${algo%%:*}; fi
  local args=(schedule --topo "$spec" --model "$model" --algo "$algo" --json)
  [[ $spec == min:* ]] && args+=(--form "$form")
  if [ "$kind" = file ]; then best_of "$totex" "${args[@]}"; else timed "$totex" "${args[@]}"; fi
  [ "$(jq .verified <<<"$j")" = true ] || { echo "scale: $spec not verified" >&2; return 1; }
  local steps work
  steps=$(jq .steps <<<"$j")
  # Transfers: the schedule's link crossings; a MIN moves N^2 messages through log_d N stages.
  work=$(jq -r 'if .transfers then .transfers else empty end' <<<"$j")
  if [ -z "$work" ]; then
    local d=${spec#min:*:}; d=${d%%:*}
    work=$(awk -v n="$n" -v d="$d" 'BEGIN {s = 0; for (x = 1; x < n; x *= d) s++; printf "%.0f", n * n * s}')
  fi
  if [ "$kind" = cost ]; then
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$family" "$spec" "$model" "$algo" "$n" "$steps" "$work" "$wall" "$cpu" "$rss" \
      >"$out/scale.d/$id.tsv"
    echo "scale: $spec $model $algo: $steps steps, $work transfers, ${wall} s wall, ${cpu} s CPU, ${rss} MB" >&2
    return 0
  fi
  # file: generation + verification (above) against writing, and loading + verification, per form.
  local gen_cpu=$cpu gen_wall=$wall rows="" ext file write_s write_cpu bytes load_s forms=("" .gz) extra
  [[ $kind == file && $family == step* ]] && forms+=(binary binary.gz)  # --binary: step schedules only
  for ext in "${forms[@]}"; do
    extra=()
    [[ $ext == binary* ]] && extra=(--binary)
    file="$out/scale.d/$id.file${ext#binary}"
    best_of "$totex" "${args[@]}" "${extra[@]}" -o "$file"
    write_s=$(jq .write_seconds <<<"$j")
    write_cpu=$(awk -v a="$cpu" -v b="$gen_cpu" 'BEGIN {printf "%.2f", (a > b ? a - b : 0)}')
    bytes=$(stat -c %s "$file")
    best_of "$totex" verify --json "$file"
    rm -f "$file"
    [ "$(jq .verified <<<"$j")" = true ] || { echo "scale: $file does not verify" >&2; return 1; }
    load_s=$(jq .load_seconds <<<"$j")
    rows+=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$family" "$spec" "$model" "$algo" "$n" \
      "${ext:-text}" "$work" "$gen_cpu" "$write_s" "$bytes" "$load_s" "$cpu" "$rss" "$gen_wall" "$write_cpu")$'\n'
    echo "scale: file $spec ${ext:-text}: write ${write_s} s, $bytes bytes, load ${load_s} s, load+verify ${cpu} s CPU (generate+verify ${gen_cpu} s)" >&2
  done
  printf '%s' "$rows" >"$out/scale.d/$id.files.tsv"
}

report() {
  local build=$1 out=$2
  local tsv="$out/scale.tsv" ftsv="$out/files.tsv"
  # In case order (the order of `scale.sh cases`), whichever order the jobs finished in.
  : >"$tsv"
  : >"$ftsv"
  local kind family spec model algo n id
  while IFS='|' read -r kind family spec model algo n; do
    id=$(tr -c 'A-Za-z0-9.\n-' '_' <<<"$kind-$spec-$model-$algo")
    if [ "$kind" = cost ] && [ -f "$out/scale.d/$id.tsv" ]; then cat "$out/scale.d/$id.tsv" >>"$tsv"; fi
    if [ "$kind" = file ] && [ -f "$out/scale.d/$id.files.tsv" ]; then cat "$out/scale.d/$id.files.tsv" >>"$ftsv"; fi
  done < <(cases 1000000)
  local load
  load=$(cut -d' ' -f1-3 /proc/loadavg)

  {
  echo "| family | spec | model | algo | N | steps | transfers | wall s | CPU s | peak RSS MB |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  awk -F'\t' '{printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10}' "$tsv"
  echo
  echo "Fitted exponents against N (least squares on log-log over N >= 512, where fixed costs no longer dominate):"
  echo
  echo "| family | sizes fitted | CPU time ~ N^a, a = | transfers ~ N^b, b = |"
  echo "|---|---|---|---|"
  awk -F'\t' '
    $5 >= 512 { f = $1; k[f]++; x = log($5); y = log($9 < 0.01 ? 0.01 : $9); w = log($7)
                 sx[f] += x; sy[f] += y; sw[f] += w; sxx[f] += x * x; sxy[f] += x * y; sxw[f] += x * w }
    END { for (f in k) { if (k[f] < 2) continue; d = k[f] * sxx[f] - sx[f] * sx[f]
            printf "| %s | %d | %.2f | %.2f |\n", f, k[f], (k[f] * sxy[f] - sx[f] * sy[f]) / d, (k[f] * sxw[f] - sx[f] * sw[f]) / d } }' "$tsv" | sort
  echo
  echo "Load average after the sweep: $load (2 cores; the machine was shared)."
  } >"$out/scale.md"

  {
    echo "File rows: each command run ${BENCH_REPEAT:-3} times, the run with the least CPU kept. Write CPU = CPU of \`schedule -o F\`"
    echo "less that of \`schedule\`; write and load s are wall time inside totex;"
    echo "the comparison is of CPU time, load + verify against generate + verify (the same verification)."
    echo
    echo "| schedule | spec | model | N | form | transfers | generate + verify CPU s | write CPU s | write s | file size | load s | load + verify CPU s | peak RSS MB (load + verify) | load + verify <= generate + verify |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    awk -F'\t' '{ size = $10 < 1048576 ? sprintf("%.1f kB", $10 / 1024) : sprintf("%.1f MB", $10 / 1048576)
                   printf "| %s | %s | %s | %s | %s | %s | %s | %s | %.2f | %s | %.2f | %s | %s | %s |\n", $1, $2, $3, $5, $6, $7, $8, $15, $9, size, $11, $12, $13, ($12 <= $8 ? "yes" : "**no**") }' "$ftsv"
    echo
    echo "Load average after the sweep: $load (2 cores; the machine was shared)."
  } >"$out/files.md"
  # Log-log plot: CPU seconds against N, one polyline per family.
  awk -F'\t' -v W=720 -v H=440 '
  function px(n) { return 70 + (log(n) - lx0) / (lx1 - lx0) * (W - 290) }
  function py(s) { return H - 50 - (log(s) - ly0) / (ly1 - ly0) * (H - 80) }
  { fam[NR] = $1; n[NR] = $5; s[NR] = ($9 < 0.01 ? 0.01 : $9); if (!($1 in seen)) { seen[$1] = ++nf; name[nf] = $1 } }
  END {
    lx0 = log(16); lx1 = log(4096); ly0 = log(0.01); ly1 = log(100)
    split("#1f77b4 #d62728 #2ca02c #9467bd #ff7f0e #8c564b #e377c2", col, " ")
    printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H
    printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
    printf "<text x=\"70\" y=\"18\" font-size=\"14\">totex schedule: CPU seconds (generation + verification) against N, log-log</text>\n"
    for (e = 16; e <= 4096; e *= 4) { x = px(e); printf "<line x1=\"%.1f\" y1=\"30\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", x, x, H - 50, x, H - 32, e }
    for (v = 0.01; v <= 100; v *= 10) { y = py(v); printf "<line x1=\"70\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"64\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", y, W - 220, y, y + 4, v }
    printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">N (terminals / nodes)</text>\n", (W - 150) / 2, H - 10
    printf "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" text-anchor=\"middle\">CPU s</text>\n", H / 2, H / 2
    for (f = 1; f <= nf; f++) {
      pts = ""; for (i = 1; i <= NR; i++) if (fam[i] == name[f]) pts = pts sprintf("%.1f,%.1f ", px(n[i]), py(s[i]))
      printf "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n", pts, col[f]
      for (i = 1; i <= NR; i++) if (fam[i] == name[f]) printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", px(n[i]), py(s[i]), col[f]
      printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/><text x=\"%d\" y=\"%d\">%s</text>\n", W - 205, 40 + 18 * f, W - 185, 40 + 18 * f, col[f], W - 180, 44 + 18 * f, name[f]
    }
    print "</svg>"
  }' "$tsv" >"$out/scale.svg"
  cat "$out/scale.md" "$out/files.md"
  echo "plot: $out/scale.svg"
}

case ${1:-} in
  cases) shift; cases "$@" ;;
  one) shift; one "$@" ;;
  report) shift; report "$@" ;;
  *)
    build=${1:-build}
    out=${2:-$build/bench}
    max_n=${3:-4096}
    mkdir -p "$out"
    rm -rf "$out/scale.d"
    echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    status=0
    cases "$max_n" | parallel -q --jobs "${BENCH_JOBS:-1}" --joblog "$out/scale.joblog" "$0" one "$build" "$out" {} || status=$?
    report "$build" "$out"
    [ "$status" -eq 0 ] || { echo "scale: $status case(s) failed (see $out/scale.joblog)" >&2; exit 1; }
    ;;
esac
