#!/usr/bin/env bash
# Runs one libFuzzer target over its seed corpus.
#   run_fuzz.sh BINARY SEED_CORPUS WORKDIR [--fresh] [libFuzzer flags...]
# WORKDIR/corpus receives the inputs the run finds interesting (kept between runs unless --fresh, which starts
# from the seeds alone so that a run with a fixed -seed is repeatable); crashes, leaks and slow inputs are saved
# as WORKDIR/artifacts/crash-* etc. Exits non-zero on any finding.
set -euo pipefail
bin=$1 seeds=$2 work=$3
shift 3
if [ "${1:-}" = "--fresh" ]; then
  rm -rf "$work/corpus"
  shift
fi
if [ ! -x "$bin" ]; then
  echo "run_fuzz: $bin is missing: build the fuzz targets first (make fuzz-build)" >&2
  exit 1
fi
mkdir -p "$work/corpus" "$work/artifacts"
# A dictionary beside the seed folder (tests/fuzz/<target>.dict) when there is one.
dict="$(dirname "$seeds")/../$(basename "$seeds").dict"
dict_flag=()
if [ -f "$dict" ]; then dict_flag=(-dict="$dict"); fi
# More seed folders, named one a line relative to the repository, in tests/fuzz/<target>.seeds (the SQL target
# reads the differential tests' queries where they are instead of keeping copies).
list="$(dirname "$seeds")/../$(basename "$seeds").seeds"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
more_seeds=()
if [ -f "$list" ]; then
  while IFS= read -r d; do [ -n "$d" ] && more_seeds+=("$root/$d"); done < "$list"
fi
# halt_on_error: the first report ends the run (a crash for libFuzzer); no leak checking of the process exit
# handlers' static state is needed, but leaks during an input are still findings.
export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1:detect_stack_use_after_return=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
set -x
exec "$bin" -timeout=30 -rss_limit_mb=4096 -max_len=4096 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "${dict_flag[@]}" "$@" "$work/corpus" "$seeds" "${more_seeds[@]}"
