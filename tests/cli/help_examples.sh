#!/usr/bin/env bash
# Usage: help_examples.sh TOTEX [SUBCOMMAND]
# `totex [SUBCOMMAND] --help` must end with an "Examples:" block of two `totex ...` command lines.
set -u
help=$("$1" ${2:+"$2"} --help) || { echo "--help failed"; exit 1; }
tail=$(grep -v '^$' <<<"$help" | tail -3)
if [ "$(sed -n 1p <<<"$tail")" != "Examples:" ] || [ "$(grep -c '^  totex ' <<<"$tail")" != 2 ]; then
  echo "totex ${2:-} --help does not end with two worked examples; its end:"; echo "$tail"; exit 1
fi
echo "$tail"
