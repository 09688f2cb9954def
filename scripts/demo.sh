#!/usr/bin/env bash
# make demo: generate skewed TPC-H data (once) and show EXPLAIN ANALYZE of a few queries.
set -euo pipefail
BIN=${1:-build/hindsight}
DATA=${2:-build/data/tpch-sf0.1-skew}
SF=${3:-0.1}
if ! "$BIN" gen --help >/dev/null 2>&1; then
  echo "demo: this build has no 'gen' command yet"; exit 0
fi
if [ ! -f "$DATA/catalog.json" ]; then
  echo "demo: generating TPC-H SF $SF with --skew 1 into $DATA"
  "$BIN" gen tpch --sf "$SF" --skew 1 --seed 42 --out "$DATA"
fi
for q in 3 5 10; do
  echo; echo "== TPC-H Q$q: EXPLAIN ANALYZE (estimated vs actual rows per operator)"
  "$BIN" explain --analyze --data "$DATA" -f "tests/differential/tpch/$(printf q%02d "$q").sql" || true
done
