#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Prints the files of an RTL file list (rtl/*.f), one absolute path per line, nested -F lists
# expanded in place. Usage: rtl/filelist.sh LIST.f [LIST.f ...]; duplicates are printed once.
set -euo pipefail
declare -A seen
expand() {
  local list dir line
  list="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
  [ -f "$list" ] || { echo "filelist.sh: no file list $1" >&2; exit 2; }
  dir="$(dirname "$list")"
  while IFS= read -r line || [ -n "$line" ]; do
    line="${line%%//*}"
    line="$(echo "$line" | xargs)"  # trim
    [ -z "$line" ] && continue
    if [[ "$line" == "-F "* ]]; then
      expand "$dir/${line#-F }"
    elif [ -z "${seen[$dir/$line]:-}" ]; then
      seen[$dir/$line]=1
      echo "$dir/$line"
    fi
  done < "$list"
}
for f in "$@"; do expand "$f"; done
