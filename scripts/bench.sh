#!/usr/bin/env bash
# make bench: TPC-H Q1-Q22 on Hindsight and on SQLite over the same generated data, then against DuckDB
# (engine time at 1 and 2 threads; needs node and npm, else skipped with a note).
#   scripts/bench.sh [BUILD_DIR]      env: SF (default 0.1), REPEAT (runs per query, default 3),
#                                     TIMEOUT (seconds per run, default 300), REEXEC_ARGS (reexec_bench.py),
#                                     PLAN_QUALITY_ARGS (plan_quality.py)
# SF=1 make bench is the reference run.
# Data is generated once into BUILD_DIR/data/tpch-sf$SF and loaded once into the SQLite file
# BUILD_DIR/data/tpch-sf$SF.sqlite; later runs reuse both.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-build}
SF=${SF:-0.1}
BIN=$BUILD/hindsight
DATA=$BUILD/data/tpch-sf$SF

if [ ! -x "$BIN" ]; then
  echo "bench: no executable $BIN (build first)"; exit 1
fi
if ! "$BIN" gen --help >/dev/null 2>&1; then
  echo "bench: this build has no 'gen' command yet"; exit 1
fi
if [ ! -f "$DATA/catalog.json" ]; then
  echo "bench: generating TPC-H SF $SF into $DATA"
  rm -rf "$DATA.partial"
  mkdir -p "$(dirname "$DATA")"
  "$BIN" gen tpch --sf "$SF" --out "$DATA.partial"
  rm -rf "$DATA"
  mv "$DATA.partial" "$DATA"
fi
python3 "$ROOT/bench/tpch_vs_sqlite.py" --bin "$BIN" --data "$DATA" \
  --sqlite-db "$BUILD/data/tpch-sf$SF.sqlite" --queries "$ROOT/tests/differential/tpch" \
  --repeat "${REPEAT:-3}" --timeout "${TIMEOUT:-300}"

# DuckDB peer: @duckdb/node-api installed once into BUILD_DIR/peer, tables loaded into memory first.
echo
python3 "$ROOT/bench/tpch_vs_duckdb.py" --bin "$BIN" --sf-dir "$DATA" --peer "$BUILD/peer" \
  --query-dir "$ROOT/tests/differential/tpch" --threads 1,2 --repeat "${REPEAT:-3}" --timeout "${TIMEOUT:-300}" \
  || echo "bench: the DuckDB comparison reported problems (above)"

# What remembering costs (collection + the store, against stats_scope=off) and the headroom it has
# (plans with true cardinalities against the model's, on skewed data).
SKEW_DATA=$BUILD/data/tpch-sf$SF-skew1
if [ ! -f "$SKEW_DATA/catalog.json" ]; then
  echo "bench: generating TPC-H SF $SF --skew 1 into $SKEW_DATA"
  rm -rf "$SKEW_DATA.partial"
  "$BIN" gen tpch --sf "$SF" --skew 1 --out "$SKEW_DATA.partial"
  rm -rf "$SKEW_DATA"
  mv "$SKEW_DATA.partial" "$SKEW_DATA"
fi
echo
python3 "$ROOT/bench/feedback_bench.py" --bin "$BIN" --data "$DATA" --skew-data "$SKEW_DATA" \
  --repeat "${REPEAT:-3}" --timeout "${TIMEOUT:-300}" || echo "bench: feedback benchmark failed"

# How good the model's plans are: Q1-Q22, the model's plan against the plan made with true cardinalities (oracle),
# at 1 and 2 workers: engine times, plan hashes, a deterministic work measure, the share within 1.2x.
# PLAN_QUALITY_ARGS: e.g. --compare-bin OLD/hindsight (before/after), --queries 5,18.
echo
python3 "$ROOT/bench/plan_quality.py" --bin "$BIN" --sf-dir "$DATA" --workers 1,2 --repeat "${REPEAT:-3}" \
  --timeout "${TIMEOUT:-300}" ${PLAN_QUALITY_ARGS:-} || echo "bench: the plan quality benchmark reported problems (above)"

# Re-execution under memory limits that make first plans fail: rescued, in how many attempts, wrong answers, and
# the time against a plan with true cardinalities (REEXEC_ARGS: e.g. --quick, --repeat 3, --fractions 0.7,0.9).
echo
python3 "$ROOT/bench/reexec_bench.py" --bin "$BIN" --data "$SKEW_DATA" --timeout "${TIMEOUT:-300}" ${REEXEC_ARGS:-} \
  || echo "bench: the re-execution benchmark found wrong answers"

# Does memory_limit bound the process? Peak RSS per (query, limit) against tables + limit + slack.
echo
python3 "$ROOT/bench/memory_bound.py" --bin "$BIN" --data "$DATA" --timeout "${TIMEOUT:-300}" || echo "bench: memory bound exceeded"

# Micro benchmarks (Google Benchmark): signatures, union-find, join enumeration, planning with
# and without the plan mapper, the stats store (look-ups, recording, reads per snapshot, size on disk).
if [ -x "$BUILD/hindsight_bench" ]; then
  echo
  echo "== micro benchmarks"
  "$BUILD/hindsight_bench" --benchmark_min_time=0.2 --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
fi
