#!/usr/bin/env bash
# make demo: generate skewed TPC-H data (once), show EXPLAIN ANALYZE of a few queries (estimated
# vs actual rows per operator, with signatures and groups), the same query planned again from what
# it observed (the stats store), the equivalence groups of a self-join, and a query that fails its memory budget with a typed error.
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

echo; echo "== Hindsight remembers: Q5 again, in a new process, estimated from what the run above observed"
echo "   (est ... from runtime / join_set, q-error 1.0; the store: $DATA/.hindsight/stats.db)"
"$BIN" explain --analyze --data "$DATA" -f tests/differential/tpch/q05.sql || true
"$BIN" stats summary --data "$DATA" || true

echo; echo "== Equivalence groups of a self-join: both scans of nation are one computation"
"$BIN" groups --analyze --data "$DATA" \
  "SELECT a.n_name, b.n_name FROM nation a JOIN nation b ON a.n_nationkey = b.n_nationkey WHERE a.n_regionkey <> 1 AND b.n_regionkey <> 1" || true

echo; echo "== A query over its memory budget fails with a typed error naming the operator"
"$BIN" query --data "$DATA" --set memory_limit=4MB --format json \
  "SELECT count(*) FROM lineitem l1, lineitem l2 WHERE l1.l_orderkey = l2.l_orderkey" | head -c 600 || true
echo
