#!/usr/bin/env bash
# Instructions per call of planning, signing and mapping the benchmark's 12-way join, counted by
# callgrind: deterministic, so a change to the signer or the mapper can be judged to the
# instruction on a busy machine, where the timed BM_Plan12WayPaired swings by a few percent.
# Needs valgrind (apt-get install valgrind). Usage: scripts/overhead-instructions.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
if ! command -v valgrind >/dev/null; then
  echo "overhead-instructions: valgrind is not installed (apt-get install valgrind)" >&2
  exit 2
fi
cmake --build "$build" --target hindsight_overhead_probe >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
declare -A count
for f in plan_query sign_plans sign_all_plans map_plans; do
  valgrind --tool=callgrind --callgrind-out-file="$out/$f.out" --collect-atstart=no \
    --toggle-collect="hindsight::(anonymous namespace)::$f*" "$build/hindsight_overhead_probe" 2>"$out/$f.log"
  total=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$out/$f.log")
  count[$f]=$((total / 10))
  printf '%-14s %9d instructions per call\n' "$f" "${count[$f]}"
done
awk -v p="${count[plan_query]}" -v s="${count[sign_plans]}" -v a="${count[sign_all_plans]}" -v m="${count[map_plans]}" 'BEGIN {
  printf "signing %.2f %%, mapping %.2f %%, both %.2f %% of planning (in instructions)\n", 100*s/p, 100*m/p, 100*(s+m)/p
  printf "with every template signed too: signing %.2f %%, both %.2f %%\n", 100*a/p, 100*(a+m)/p }'
