#!/usr/bin/env bash
# make demo: the three journeys of USERS.md on skewed TPC-H data, in about a minute on 2 cores.
#   scripts/demo.sh [BIN] [DATA] [SF] [DEMO_DIR]
# DATA is generated once (gen tpch --skew 1 --seed 42) and reused; DEMO_DIR (build/demo) is emptied on every run,
# so the first query fails first every time and the second process proves what the store remembered.
# tests/cli/demo_test.py runs this script and checks what its output claims.
set -euo pipefail
BIN=${1:-build/hindsight}
DATA=${2:-build/data/tpch-sf0.1-skew}
SF=${3:-0.1}
DEMO=${4:-build/demo}
START=$SECONDS

STORE=$DEMO/stats.db
# Two workers whatever the machine's cores, so that the plans and the memory they need are the same everywhere.
LIMITED=(--set workers=2 --set memory_limit=40MB)
# Its lineitem filter is arithmetic that per-column statistics cannot see through: with the row sample off
# (filter_sample=off) the model multiplies its three conjuncts as if independent and guesses ~16k rows where ~585k
# pass, so the first plan builds a hash table on filtered lineitem, which does not fit in 40 MB. Steps 1 and 2 run
# so, as a textbook estimator would; step 2 ends with the default, which judges the filter on a sample of rows.
SETS=("${LIMITED[@]}" --set filter_sample=off)
QUERY="SELECT count(*), sum(l_quantity) FROM lineitem JOIN orders ON l_orderkey = o_orderkey \
JOIN customer ON o_custkey = c_custkey \
WHERE l_extendedprice / l_quantity > 900 AND l_quantity + l_tax > 2 AND l_tax + l_discount >= 0 \
AND c_mktsegment = 'BUILDING'"

heading() { echo; echo "== $*"; }

rm -rf "$DEMO"
mkdir -p "$DEMO"
if [ ! -f "$DATA/catalog.json" ]; then
  echo "== Generating skewed TPC-H SF $SF (gen tpch --sf $SF --skew 1 --seed 42) into $DATA, once"
  "$BIN" gen tpch --sf "$SF" --skew 1 --seed 42 --out "$DATA" >"$DEMO/gen.txt"
else
  echo "== Skewed TPC-H SF $SF in $DATA (generated earlier; delete it to generate again)"
fi
# A table's first load parses its CSV whole (and is charged for it); ANALYZE does that once, writing the binary
# caches and column statistics beside the data, so the memory limit below meets the query's plan, not a CSV parse.
if [ ! -f "$DATA/lineitem.csv.hsc" ] || [ ! -f "$DATA/.hindsight/stats/lineitem.stats" ]; then
  echo "   ANALYZE: binary caches and column statistics of its tables, once"
  "$BIN" query --data "$DATA" --store "$DEMO/analyze.db" "ANALYZE" >"$DEMO/analyze.txt"
fi
echo "   the demo's stats store: $STORE (inspect it: $BIN stats summary --store $STORE)"

heading "1. A query that dies under a 40 MB memory limit is rescued by re-execution (one line per attempt)"
echo "   $QUERY"
echo "   (filter_sample=off: the model multiplies the three lineitem conjuncts as if independent, ~16k rows for ~585k)"
# The driver reports all attempts in one stderr line; it is split here at each '; attempt N', one per line.
"$BIN" query --data "$DATA" --store "$STORE" "${SETS[@]}" "$QUERY" >"$DEMO/query1.txt" 2>"$DEMO/query1.err" || true
sed -e 's/; \(attempt [0-9]\)/\n   \1/g' -e 's/^re-execution: /   /' "$DEMO/query1.err"
cat "$DEMO/query1.txt"

heading "2. A new process with the same store plans it right the first time: one attempt, within the limit"
"$BIN" query --data "$DATA" --store "$STORE" "${SETS[@]}" --format json "$QUERY" >"$DEMO/query2.json" || true
python3 - "$DEMO/query2.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
attempts = r.get("attempts", [])
for a in attempts:
    err = a.get("error") or {}
    what = f"failed ({err.get('code')}: {err.get('message', '')})" if err else \
        f"succeeded, peak memory {a['peak_memory'] / 2**20:.0f} MB, plan {a.get('plan_hash')}"
    print(f"   attempt {a['number']} {what}")
print(f"   {len(attempts)} attempt{'s' if len(attempts) != 1 else ''}; result: " +
      "; ".join(" | ".join(str(v) for v in row) for row in r.get("rows", [])))
EOF
# The default estimator, in a fresh store: the sampled rows of lineitem judge the whole filter, and it fits at once.
"$BIN" query --data "$DATA" --store "$DEMO/sampled.db" "${LIMITED[@]}" --format json "$QUERY" \
  >"$DEMO/query3.json" || true
python3 - "$DEMO/query3.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
attempts = r.get("attempts", [])
ok = attempts and not any(a.get("error") for a in attempts)
print(f"   with the row sample on (the default; a fresh store): {len(attempts)} attempt"
      f"{'s' if len(attempts) != 1 else ''}, {'succeeded' if ok else 'failed'}"
      + (f", peak memory {attempts[-1]['peak_memory'] / 2**20:.0f} MB" if attempts else ""))
EOF

heading "3. Why did the optimizer think that? Equivalence groups of a self-join: both scans of nation are one group"
echo "   (physical operators only; hindsight groups lists the AST, logical and signature members too)"
"$BIN" groups --data "$DATA" --store "$DEMO/groups.db" \
  "SELECT a.n_name, b.n_name FROM nation a JOIN nation b ON a.n_nationkey = b.n_nationkey WHERE a.n_regionkey <> 1 AND b.n_regionkey <> 1" |
  grep -E '^group|^  physical|^refused' | sed 's/^/   /' || true

heading "4. Will feedback make a workload faster, or break it? Capture bench/workloads/skewed.sql, replay it 3 ways"
echo "   capture: every query through the re-execution driver, its plan, rows, times and a digest of its result"
"$BIN" capture --data "$DATA" --queries bench/workloads/skewed.sql --out "$DEMO/skewed.hsw" \
  --store "$DEMO/capture.db" --set workers=2 2>&1 | sed 's/^/   /'
# feedback on starts from what the capture recorded ("last week's" runs), in a copy: the capture's store stays as it was.
cp "$DEMO/capture.db" "$DEMO/replay-on.db"
echo "   replay: off = the model alone, on = the store plus what the replay observes, oracle = true cardinalities"
"$BIN" replay "$DEMO/skewed.hsw" --data "$DATA" --feedback off,on,oracle --store "$DEMO/replay-on.db" \
  --set workers=2 2>&1 | sed 's/^/   /'

echo
echo "demo: done in $((SECONDS - START)) s; files in $DEMO (workload: $BIN workload show $DEMO/skewed.hsw)"
