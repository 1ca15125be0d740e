#!/usr/bin/env bash
# Issue 29: the default schedule (`totex schedule`, auto, no --algo) at size, per family and model:
# steps, lower bound, steps / bound, wall seconds and peak RSS (generation plus verification, as a
# user runs it), then a plot of steps / bound against N (OUT/default_at_size.svg, awk only).
# Usage: default_at_size.sh BUILD_DIR [OUT_DIR] [MAX_N] [ROWS.tsv]   (MAX_N defaults to 4096)
# With ROWS.tsv (rows measured earlier, in this script's TSV columns) nothing is run: the table and
# the plot are drawn from those rows (plots/default_at_size.tsv -> the README's picture).
# Rows run one at a time (they are timings); a row that fails or is refused is reported as such.
set -uo pipefail
build=${1:-build}
out=${2:-$build/bench}
max_n=${3:-4096}
totex="$build/bin/totex"
mkdir -p "$out"
tsv="$out/default_at_size.tsv"
rows_in=${4:-}
[ -z "$rows_in" ] || [ -f "$rows_in" ] || { echo "default_at_size.sh: $rows_in: no such rows file" >&2; exit 2; }
[ -n "$rows_in" ] && [ "$(cd "$(dirname "$rows_in")" && pwd)/$(basename "$rows_in")" = "$(cd "$out" && pwd)/default_at_size.tsv" ] \
  && { echo "default_at_size.sh: the rows file is the output file" >&2; exit 2; }
if [ -n "$rows_in" ]; then grep -v '^#' "$rows_in" >"$tsv"; else : >"$tsv"; fi

# family | spec | N
cases() {
  for k in 8 16 24 30 32 48 62 64; do echo "torus 2-D|torus:${k}x${k}|$((k * k))"; done
  for k in 8 16 32 64; do echo "mesh 2-D|mesh:${k}x${k}|$((k * k))"; done
  for k in 4 8 12 16; do echo "torus 3-D|torus:${k}x${k}x${k}|$((k * k * k))"; done
  for k in 4 8 16; do echo "mesh 3-D|mesh:${k}x${k}x${k}|$((k * k * k))"; done
  for n in 6 8 10 12; do echo "hypercube|hypercube:$n|$((1 << n))"; done
  echo "non-square|torus:16x32|512"
  echo "non-square|torus:20x30|600"
  echo "non-square|mesh:16x32|512"
  echo "non-square|torus:8x16x16|2048"
}

[ -n "$rows_in" ] || while IFS='|' read -r family spec n; do
  [ "$n" -le "$max_n" ] || continue
  for model in nic all-port; do
    log=$(mktemp)
    if j=$(/usr/bin/time -v "$totex" schedule --topo "$spec" --model "$model" --json 2>"$log"); then
      wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {k = split($2, p, ":"); s = 0; for (i = 1; i <= k; i++) s = s * 60 + p[i]; print s}' "$log")
      rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$log")
      steps=$(jq .steps <<<"$j"); bound=$(jq .lower_bound <<<"$j"); algo=$(jq -r .algorithm <<<"$j")
      ratio=$(awk -v s="$steps" -v b="$bound" 'BEGIN {printf "%.3f", s / b}')
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$family" "$spec" "$n" "$model" "$bound" "$steps" "$ratio" "$algo" "$wall s, $rss MB" >>"$tsv"
    else
      why=$(grep -m1 'totex:' "$log" | cut -c1-120)
      printf '%s\t%s\t%s\t%s\t-\t-\t-\t-\t%s\n' "$family" "$spec" "$n" "$model" "failed: $why" >>"$tsv"
    fi
    rm -f "$log"
    tail -1 "$tsv" >&2
  done
done < <(cases)

{
  echo "| family | network | N | model | bound | steps | steps / bound | algorithm | wall, peak RSS |"
  echo "|---|---|---:|---|---:|---:|---:|---|---|"
  awk -F'\t' '{printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9}' "$tsv"
} >"$out/default_at_size.md"

# steps / bound against log2 N, one colour per family, nic filled and all-port hollow.
awk -F'\t' '
  BEGIN { w = 640; h = 360; x0 = 60; y0 = 320; xs = (w - 80) / 8; ys = (y0 - 30) / 0.5
          col["torus 2-D"] = "#1f77b4"; col["mesh 2-D"] = "#d62728"; col["torus 3-D"] = "#2ca02c"
          col["hypercube"] = "#9467bd"; col["non-square"] = "#ff7f0e"; col["mesh 3-D"] = "#8c564b"
          printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", w, h
          printf "<text x=\"%d\" y=\"16\">default schedule: steps / lower bound against N (filled nic, hollow all-port)</text>\n", x0
          for (r = 1.0; r <= 1.5001; r += 0.1) { y = y0 - (r - 1) * ys
            printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"20\" y=\"%.1f\">%.1f</text>\n", x0, y, w - 20, y, y + 4, r }
          for (e = 6; e <= 14; e++) { x = x0 + (e - 6) * xs
            printf "<text x=\"%.1f\" y=\"%d\">%d</text>\n", x - 8, y0 + 16, 2 ^ e } }
  $6 != "-" { n = $3; r = $7; if (r > 1.5) r = 1.5; x = x0 + (log(n) / log(2) - 6) * xs; y = y0 - (r - 1) * ys
              c = col[$1]; fill = ($4 == "nic") ? c : "none"
              printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" stroke=\"%s\"><title>%s %s %s</title></circle>\n", x, y, fill, c, $2, $4, $7 }
  END { k = 0; for (f in col) { printf "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>\n", x0 + 10 + k * 95, 40, col[f], f; k++ }
        print "</svg>" }' "$tsv" >"$out/default_at_size.svg"
cat "$out/default_at_size.md"
