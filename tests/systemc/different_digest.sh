#!/usr/bin/env bash
# Usage: different_digest.sh <totex> <schedule A> <engine A> <schedule B> <engine B>
# Both runs must pass (each engine checks its own schedule) and their delivery-trace digests must
# differ: the digest tells two engines that were given different schedules apart.
set -u
totex=$1
a=$("$totex" sim --schedule "$2" --engine "$3" --json) || { echo "$3 on $2 failed"; echo "$a"; exit 1; }
b=$("$totex" sim --schedule "$4" --engine "$5" --json) || { echo "$5 on $4 failed"; echo "$b"; exit 1; }
da=$(jq -r .trace_sha256 <<<"$a"); db=$(jq -r .trace_sha256 <<<"$b")
echo "$3 on $2: $da"
echo "$5 on $4: $db"
[ -n "$da" ] && [ "$da" != null ] && [ "$da" != "$db" ] || { echo "digests are equal"; exit 1; }
echo "digests differ, as they must"
