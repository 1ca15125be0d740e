#!/usr/bin/env bash
# The README against the tool: every `$ totex ...` command of its worked example is run again (in a
# scratch directory, with build/bin/totex) and every output line the README shows under it must be
# a line of what it prints now ("..." lines and blank lines skipped); and every relative link of the
# README names a file or directory of the tree.
# Usage: check_readme.sh SOURCE_DIR TOTEX
set -euo pipefail
src=$1
totex=$2
readme=$src/README.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/waveforms"
fail=0

# The worked example: the first fenced block after its heading.
awk '/^## A worked example/ { on = 1; next }
     on && /^```/ { if (inside) exit; inside = 1; next }
     on && inside { print }' "$readme" > "$work/example.txt"
commands=$(grep -c '^\$ totex ' "$work/example.txt" || true)
if [ "$commands" -lt 5 ]; then
  echo "README.md: the worked example has $commands totex commands; expected its block after '## A worked example'"
  exit 1
fi

check_command() {  # $1: the command line (after "$ "), $2: the file of expected lines
  local line=$1 expected=$2 out=$work/out.txt
  (cd "$work" && eval "\"$totex\" ${line#totex }") > "$out" 2>/dev/null || {
    echo "README.md: '$line' exited $?"
    fail=1
    return
  }
  while IFS= read -r want; do
    [ -z "$want" ] || [ "$want" = "..." ] && continue
    if ! grep -qxF -- "$want" "$out"; then
      echo "README.md: '$line' no longer prints:"
      echo "  $want"
      echo "  it printed:"
      sed 's/^/    /' "$out"
      fail=1
    fi
  done < "$expected"
}

current=""
: > "$work/expected.txt"
while IFS= read -r l; do
  if [[ $l == '$ totex '* ]]; then
    [ -n "$current" ] && check_command "$current" "$work/expected.txt"
    current=${l#\$ }
    : > "$work/expected.txt"
  else
    printf '%s\n' "$l" >> "$work/expected.txt"
  fi
done < "$work/example.txt"
[ -n "$current" ] && check_command "$current" "$work/expected.txt"

# Relative links: ](path) and ](path#anchor), not http(s) or mailto.
while IFS= read -r target; do
  path=${target%%#*}
  [ -z "$path" ] && continue
  if [ ! -e "$src/$path" ]; then
    echo "README.md: the link ($target) names no file of the tree"
    fail=1
  fi
done < <(grep -o '](\([^)]*\))' "$readme" | sed 's/^](//; s/)$//' | grep -v '^[a-z]*:')

if [ "$fail" -ne 0 ]; then exit 1; fi
echo "README.md: $commands commands of the worked example print what it shows; its links name files of the tree"
