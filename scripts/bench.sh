#!/usr/bin/env bash
# make bench: the whole benchmark suite from one command (docs/benchmarks.md). Sections, in order:
#   sqlite        TPC-H Q1-Q22 on Hindsight and on SQLite over the same generated data (+ the foundation planner)
#   duckdb        the same against DuckDB (engine time at 1 and 2 threads; needs node and the npm peer, else skipped)
#   feedback      collection + store overhead; model vs oracle plans on skewed data
#   plan_quality  the model's plans against the oracle's: time and work, at 1 and 2 workers
#   reexec        re-execution under memory limits that make first plans fail: rescued, attempts, wrong answers
#   memory        does memory_limit bound the process's peak RSS
#   replay        capture bench/workloads/skewed.sql and replay it with feedback off, on and oracle
#   micro         Google Benchmark micro benchmarks (signatures, mapper, planning, the stats store)
# Every section writes its JSON; at the end they are merged into ONE file, BUILD_DIR/bench/bench-<short commit>-
# <UTC yyyymmddThhmm>.json, copied to BUILD_DIR/bench/latest.json (compare two: scripts/bench-compare.sh OLD NEW).
# A section that fails or is skipped is recorded as such; the exit code is 1 when one failed.
#
#   scripts/bench.sh [BUILD_DIR]
# env: SF (default 0.1; SF=1 is the reference run), REPEAT (runs per query, default 3), TIMEOUT (seconds per run,
#      default 300), REPLAY_TIMEOUT (seconds for the capture and for the replay, default 7200),
#      REEXEC_ARGS (reexec_bench.py, e.g. --quick), PLAN_QUALITY_ARGS (plan_quality.py),
#      MICRO_ARGS (hindsight_bench; default --benchmark_min_time=0.2 --benchmark_repetitions=3
#      --benchmark_report_aggregates_only=true), PEER (npm prefix of the DuckDB peer, default BUILD_DIR/peer),
#      BENCH_DATA / BENCH_SKEW_DATA (use these data folders instead of generating BUILD_DIR/data/tpch-sf$SF[-skew1]),
#      SECTIONS (comma list: run only these; the others are recorded as skipped),
#      REPLAY_SF (scale factor of the replay section's skewed data, default 1: the issue's figure, about 12 min;
#      make bench-quick sets it to 0.1), BENCH_REPLAY_DATA (use this folder for the replay section instead).
# Data is generated once into BUILD_DIR/data/tpch-sf$SF (and -skew1) and loaded once into the SQLite file
# BUILD_DIR/data/tpch-sf$SF.sqlite; later runs reuse them.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-build}
SF=${SF:-0.1}
REPEAT=${REPEAT:-3}
TIMEOUT=${TIMEOUT:-300}
BIN=$BUILD/hindsight
DATA=${BENCH_DATA:-$BUILD/data/tpch-sf$SF}
SKEW_DATA=${BENCH_SKEW_DATA:-$BUILD/data/tpch-sf$SF-skew1}
REPLAY_SF=${REPLAY_SF:-1}
# Given skewed data (BENCH_SKEW_DATA) is the replay's too unless BENCH_REPLAY_DATA says otherwise.
if [ -n "${BENCH_REPLAY_DATA:-}" ]; then REPLAY_DATA=$BENCH_REPLAY_DATA
elif [ -n "${BENCH_SKEW_DATA:-}" ]; then REPLAY_DATA=$BENCH_SKEW_DATA
else REPLAY_DATA=$BUILD/data/tpch-sf$REPLAY_SF-skew1; fi
PEER=${PEER:-$BUILD/peer}
MICRO_ARGS=${MICRO_ARGS:---benchmark_min_time=0.2 --benchmark_repetitions=3 --benchmark_report_aggregates_only=true}
SECTIONS=${SECTIONS:-sqlite,duckdb,feedback,plan_quality,reexec,memory,replay,micro}

if [ ! -x "$BIN" ]; then
  echo "bench: no executable $BIN (build first)"; exit 1
fi
if ! "$BIN" gen --help >/dev/null 2>&1; then
  echo "bench: this build has no 'gen' command yet"; exit 1
fi

# gen_once DIR SF [gen options...]: generate TPC-H at SF into DIR unless it is there (into DIR.partial, then renamed).
gen_once() {
  local dir=$1 sf=$2; shift 2
  if [ ! -f "$dir/catalog.json" ]; then
    echo "bench: generating TPC-H SF $sf $* into $dir"
    rm -rf "$dir.partial"
    mkdir -p "$(dirname "$dir")"
    "$BIN" gen tpch --sf "$sf" "$@" --out "$dir.partial"
    rm -rf "$dir"
    mv "$dir.partial" "$dir"
  fi
}
gen_once "$DATA" "$SF"
gen_once "$SKEW_DATA" "$SF" --skew 1
if [[ ",$SECTIONS," == *",replay,"* ]]; then gen_once "$REPLAY_DATA" "$REPLAY_SF" --skew 1; fi

# What was measured: the commit, and whether tracked files differ from it, when the run starts.
COMMIT=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)
SHORT=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
DIRTY=false
if [ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ]; then DIRTY=true; fi
mkdir -p "$BUILD/data"
START_UTC=$(date -u +%Y%m%dT%H%M)
OUT_DIR=$BUILD/bench
SECT=$OUT_DIR/sections-$START_UTC-$$
mkdir -p "$SECT"
FAILED=()

# section NAME MESSAGE-IF-FAILED COMMAND...: run one section (its JSON goes to $SECT/NAME.json), record its exit
# code and seconds in $SECT/NAME.status; a failure is reported and the suite goes on.
section() {
  local name=$1 message=$2; shift 2
  if [[ ",$SECTIONS," != *",$name,"* ]]; then
    echo "skipped not in SECTIONS=$SECTIONS" >"$SECT/$name.status"
    return 0
  fi
  echo
  local t0 rc t1
  t0=$(date +%s.%N)
  set +e
  "$@"
  rc=$?
  set -e
  t1=$(date +%s.%N)
  echo "$rc $(python3 -c "print(round($t1 - $t0, 1))")" >"$SECT/$name.status"
  if [ "$rc" != 0 ]; then
    echo "bench: $message (exit code $rc)"
    FAILED+=("$name")
  fi
}

section sqlite "the SQLite comparison failed" \
  python3 "$ROOT/bench/tpch_vs_sqlite.py" --bin "$BIN" --data "$DATA" \
  --sqlite-db "$BUILD/data/tpch-sf$SF.sqlite" --queries "$ROOT/tests/differential/tpch" \
  --repeat "$REPEAT" --timeout "$TIMEOUT" --json "$SECT/sqlite.json"

# DuckDB peer: @duckdb/node-api installed once into $PEER, tables loaded into memory first.
section duckdb "the DuckDB comparison reported problems (above)" \
  python3 "$ROOT/bench/tpch_vs_duckdb.py" --bin "$BIN" --sf-dir "$DATA" --peer "$PEER" \
  --query-dir "$ROOT/tests/differential/tpch" --threads 1,2 --repeat "$REPEAT" --timeout "$TIMEOUT" \
  --json "$SECT/duckdb.json"

# What remembering costs (collection + the store, against stats_scope=off) and the headroom it has
# (plans with true cardinalities against the model's, on skewed data).
section feedback "the feedback benchmark failed" \
  python3 "$ROOT/bench/feedback_bench.py" --bin "$BIN" --data "$DATA" --skew-data "$SKEW_DATA" \
  --repeat "$REPEAT" --timeout "$TIMEOUT" --json "$SECT/feedback.json"

# How good the model's plans are: Q1-Q22, the model's plan against the plan made with true cardinalities (oracle),
# at 1 and 2 workers: engine times, plan hashes, a deterministic work measure, the share within 1.2x.
# PLAN_QUALITY_ARGS: e.g. --compare-bin OLD/hindsight (before/after), --queries 5,18.
# shellcheck disable=SC2086
section plan_quality "the plan quality benchmark reported problems (above)" \
  python3 "$ROOT/bench/plan_quality.py" --bin "$BIN" --sf-dir "$DATA" --workers 1,2 --repeat "$REPEAT" \
  --timeout "$TIMEOUT" --json "$SECT/plan_quality.json" ${PLAN_QUALITY_ARGS:-}

# Re-execution under memory limits that make first plans fail: rescued, in how many attempts, wrong answers, and
# the time against a plan with true cardinalities (REEXEC_ARGS: e.g. --quick, --repeat 3, --fractions 0.7,0.9).
# shellcheck disable=SC2086
section reexec "the re-execution benchmark found wrong answers" \
  python3 "$ROOT/bench/reexec_bench.py" --bin "$BIN" --data "$SKEW_DATA" --timeout "$TIMEOUT" \
  --json "$SECT/reexec.json" ${REEXEC_ARGS:-}

# Does memory_limit bound the process? Peak RSS per (query, limit) against tables + limit + slack.
section memory "memory bound exceeded" \
  python3 "$ROOT/bench/memory_bound.py" --bin "$BIN" --data "$DATA" --timeout "$TIMEOUT" --json "$SECT/memory.json"

# Capture the skewed workload (fresh store; on REPLAY_SF data, SF 1 by default), replay it with feedback off, on (a copy of the capture's store) and
# oracle: plans changed, speedups by time and work, shares improved/regressed, against the oracle, wrong results.
section replay "the workload replay failed or a result differs" \
  python3 "$ROOT/bench/replay_bench.py" --bin "$BIN" --data "$REPLAY_DATA" --repeat "$REPEAT" \
  --timeout "${REPLAY_TIMEOUT:-7200}" --json "$SECT/replay.json"

# Micro benchmarks (Google Benchmark): signatures, union-find, join enumeration, planning with
# and without the plan mapper, the stats store (look-ups, recording, reads per snapshot, size on disk).
if [ -x "$BUILD/hindsight_bench" ]; then
  # shellcheck disable=SC2086
  section micro "the micro benchmarks failed" \
    "$BUILD/hindsight_bench" $MICRO_ARGS --benchmark_out="$SECT/micro.json" --benchmark_out_format=json
elif [[ ",$SECTIONS," == *",micro,"* ]]; then
  echo "skipped no $BUILD/hindsight_bench in this build" >"$SECT/micro.status"
else
  echo "skipped not in SECTIONS=$SECTIONS" >"$SECT/micro.status"
fi

# One file with every section and the run's metadata.
OUT=$OUT_DIR/bench-$SHORT-$START_UTC.json
python3 "$ROOT/bench/bench_merge.py" --dir "$SECT" --out "$OUT" --latest "$OUT_DIR/latest.json" --meta \
  "commit=$COMMIT" "short_commit=$SHORT" "dirty=$DIRTY" "sf=$SF" "replay_sf=$REPLAY_SF" "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
  "started=$START_UTC" "nproc=$(nproc)" "repeat=$REPEAT" "timeout=$TIMEOUT" "reexec_args=${REEXEC_ARGS:-}" \
  "data=$DATA" "skew_data=$SKEW_DATA" "replay_data=$REPLAY_DATA" "load_average=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
rm -rf "$SECT"
if [ ${#FAILED[@]} -gt 0 ]; then
  echo "bench: failed sections: ${FAILED[*]}"
  exit 1
fi
