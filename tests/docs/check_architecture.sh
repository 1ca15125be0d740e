#!/usr/bin/env bash
# Usage: tests/docs/check_architecture.sh [SOURCE_DIR]
# Checks docs/architecture.md's file lists against the tree (issue 46 item 6):
#   1. every sw/ path the page names exists (file, directory, or a glob with at least one match);
#   2. every .cpp under sw/src/<role>/ is named by the page with its full path.
# Paths are read in the page's own notation: brace lists (`sw/src/generators/{a2,latin}.cpp`,
# `sw/src/{core,network}/`) are expanded as the shell expands them, `*` is a glob
# (`sw/src/plot/plot_*.cpp`), and a comma outside braces ends a path (`sw/src/x.cpp, y.cpp`).
# Exit 0 when both hold, 1 with every offending path listed otherwise, 2 on a usage error.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
doc="$root/docs/architecture.md"
[[ -f $doc ]] || { echo "check_architecture: no $doc" >&2; exit 2; }
cd "$root"

# Path tokens: sw/ followed by the characters a path in the page's notation can hold.
# awk cuts each at its first comma outside braces and drops a sentence's closing period.
mapfile -t tokens < <(grep -oE '(^|[^A-Za-z0-9_/.-])sw/[A-Za-z0-9_./{},*-]*' "$doc" |
  sed -E 's/^[^s]//' |
  awk '{
    depth = 0; out = ""
    for (i = 1; i <= length($0); i++) {
      c = substr($0, i, 1)
      if (c == "{") depth++
      else if (c == "}") depth--
      else if (c == "," && depth == 0) break
      out = out c
    }
    sub(/\.+$/, "", out)
    print out
  }' | sort -u)

declare -A named=()
bad=0
for tok in "${tokens[@]}"; do
  # Only the characters matched above reach eval, which adds brace expansion and nothing else
  # (set -f: no globbing while expanding).
  if [[ ! $tok =~ ^sw/[A-Za-z0-9_./{},*-]*$ ]]; then
    echo "architecture.md: cannot read the path '$tok'"; bad=1; continue
  fi
  opens=${tok//[^\{]/}; closes=${tok//[^\}]/}
  if [[ ${#opens} -ne ${#closes} ]]; then
    echo "architecture.md: unbalanced braces in '$tok'"; bad=1; continue
  fi
  set -f
  eval "paths=( $tok )"
  set +f
  for p in "${paths[@]}"; do
    if [[ $p == *'*'* ]]; then
      mapfile -t hits < <(compgen -G "$p" || true)
      if [[ ${#hits[@]} -eq 0 ]]; then
        echo "architecture.md names $p (from '$tok'): no file matches"; bad=1
      fi
      for h in "${hits[@]}"; do named[$h]=1; done
    else
      if [[ ! -e $p ]]; then
        echo "architecture.md names $p (from '$tok'): no such file or directory"; bad=1
      fi
      named[${p%/}]=1
    fi
  done
done

count=0
for f in sw/src/*/*.cpp; do
  [[ -e $f ]] || continue
  count=$((count + 1))
  if [[ -z ${named[$f]+x} ]]; then
    echo "$f: not named in docs/architecture.md (add it to the role table, docs/architecture.md \"Public and private headers of the core, by role\")"
    bad=1
  fi
done

if [[ $bad -ne 0 ]]; then
  echo "check_architecture: FAIL"
  exit 1
fi
echo "check_architecture: PASS (${#tokens[@]} path expressions in docs/architecture.md exist; all $count sources under sw/src/<role>/ named)"
