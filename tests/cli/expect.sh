#!/usr/bin/env bash
# Usage: expect.sh <exit-code> <regex over stdout+stderr> [--jq <filter that must print true>] -- <command...>
# Runs the command and fails unless it exits with the code, its output matches the regex, and
# (with --jq) its stdout is one JSON object for which the filter yields true.
set -u
want_rc=$1; regex=$2; shift 2
filter=""
if [ "${1:-}" = "--jq" ]; then filter=$2; shift 2; fi
[ "${1:-}" = "--" ] && shift
out=$(mktemp); err=$(mktemp); trap 'rm -f "$out" "$err"' EXIT
"$@" >"$out" 2>"$err"; rc=$?
status=0
if [ "$rc" != "$want_rc" ]; then echo "exit code $rc, expected $want_rc"; status=1; fi
if ! cat "$out" "$err" | grep -Eq -- "$regex"; then echo "output does not match /$regex/"; status=1; fi
if [ -n "$filter" ] && [ "$(jq -e "$filter" <"$out" 2>&1)" != "true" ]; then echo "jq filter failed: $filter"; status=1; fi
if [ $status != 0 ]; then echo "--- command: $*"; echo "--- stdout:"; cat "$out"; echo "--- stderr:"; cat "$err"; fi
exit $status
