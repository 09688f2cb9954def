#!/usr/bin/env python3
"""End to end: the hash join spills under `spill = on` and the rows stay right (docs/spilling.md).

For TPC-H q03, q05, q09, q10, q18, q21 on the uniform and the skewed SF 0.01 fixtures, and three join queries
of the skewed workload (bench/workloads/skewed.sql) on the skewed one, at workers 1 and 4: one unconstrained
run (its rows and `peak_memory`), then runs with `reexec_strategies = none`, `spill = on` and `memory_limit`
0.3x and 0.6x of that peak (tables are loaded by earlier statements of the process, so the limit bounds what
the query's plan holds; tests/differential/reexec_runs.py), each followed by the same run as EXPLAIN ANALYZE
to see which HashJoin spilled (the JSON plan's `spilled`).

What it asserts:
  - every run that finishes returns the unconstrained run's rows (as multisets, or in order under a top-level
    ORDER BY), and every run that fails, fails with MEMORY_LIMIT_EXCEEDED (never a crash or another error);
  - the runs listed in MUST_SPILL finish and a HashJoin of theirs spilled. They are the single-worker runs:
    those are deterministic. Under 4 workers at SF 0.01 the limits are a few tens of KB, the workers' charges
    interleave differently from run to run, and operators that do not spill (exchange buffers; aggregates
    and sorts until they spill too) often hit the limit first, so those runs are held to the first rule only,
    plus: at least MIN_SPILLED_MULTI of them finish with a HashJoin spilled.

Usage: spill_join_test.py --bin build/hindsight --uniform DIR --skewed DIR [--verbose]
"""
import sys
import tempfile

sys.dont_write_bytecode = True
import cli_harness as h  # noqa: E402
from cli_harness import fail  # noqa: E402
import reexec_runs as rr  # noqa: E402  (tests/differential, on sys.path through cli_harness)

TPCH = ["q03", "q05", "q09", "q10", "q18", "q21"]
SKEWED_WORKLOAD = ["segment_follows_nation", "shipmode_follows_instruct", "big_customers_orders"]
FACTORS = (0.3, 0.6)
# (data set, query, workers, factor): must finish with a HashJoin spilled (measured at workers 1; the runs not
# listed fail in an operator that does not spill yet: an exchange sink, an aggregate, a TopN, or a join whose
# spill files' buffers alone do not fit in a limit of a few tens of KB).
MUST_SPILL = {
    ("uniform", "q03", 1, 0.3), ("uniform", "q03", 1, 0.6), ("uniform", "q05", 1, 0.3),
    ("uniform", "q21", 1, 0.3), ("uniform", "q21", 1, 0.6),
    ("skewed", "q03", 1, 0.6), ("skewed", "q05", 1, 0.3), ("skewed", "q05", 1, 0.6), ("skewed", "q09", 1, 0.6),
    ("skewed", "q21", 1, 0.3), ("skewed", "q21", 1, 0.6),
    ("skewed", "segment_follows_nation", 1, 0.3), ("skewed", "segment_follows_nation", 1, 0.6),
    ("skewed", "shipmode_follows_instruct", 1, 0.3), ("skewed", "shipmode_follows_instruct", 1, 0.6),
    ("skewed", "big_customers_orders", 1, 0.3), ("skewed", "big_customers_orders", 1, 0.6),
}
MIN_SPILLED_MULTI = 2


def spilled_joins(node) -> int:
    n = 1 if node.get("operator") == "HashJoin" and node.get("spilled", {}).get("rows", 0) > 0 else 0
    return n + sum(spilled_joins(c) for c in node.get("children", []))


def test(a):
    sql_of = dict(rr.corpus())
    cases = [("uniform", a.uniform, q) for q in TPCH] + [("skewed", a.skewed, q) for q in TPCH + SKEWED_WORKLOAD]
    spilled_multi, checked = 0, 0
    with tempfile.TemporaryDirectory(prefix="spill-join-") as tmp:
        for name, data, q in cases:
            sql = sql_of[q]
            for w in (1, 4):
                for s in h.limit_sweep(a.bin, data, sql, w, FACTORS, tmp, f"{name} {q} w{w}"):
                    key = (name, q, w, s.fraction)
                    tag = f"{name} {q} w{w} {s.fraction}x ({s.limit} B)"
                    run = s.run
                    explain = rr.run_query(a.bin, data, "EXPLAIN ANALYZE " + sql, s.settings, tmp, workers=w)
                    joins = spilled_joins(explain.obj["physical"]) if explain.obj and "physical" in explain.obj else 0
                    checked += 1
                    if run.ok:
                        if s.diff:
                            fail(f"{tag}: wrong rows: {s.diff}")
                    elif run.error_code != "MEMORY_LIMIT_EXCEEDED":
                        fail(f"{tag}: failed with something else than MEMORY_LIMIT_EXCEEDED: {run.describe()}")
                    if key in MUST_SPILL:
                        if not run.ok:
                            fail(f"{tag}: expected to finish by spilling, {run.describe()}")
                        elif joins == 0:
                            fail(f"{tag}: finished but no HashJoin spilled (EXPLAIN ANALYZE: {explain.describe()})")
                    elif w > 1 and run.ok and joins > 0:
                        spilled_multi += 1
                    if a.verbose:
                        print(f"{tag}: {'ok' if run.ok else run.describe()[:120]}; {joins} HashJoin spilled")
    if spilled_multi < MIN_SPILLED_MULTI:
        fail(f"only {spilled_multi} multi-worker runs finished with a HashJoin spilled "
             f"(expected at least {MIN_SPILLED_MULTI})")
    print(f"{checked} constrained runs, {len(MUST_SPILL)} required to spill, {spilled_multi} multi-worker runs "
          f"spilled and finished; {len(h.failures)} failures")


if __name__ == "__main__":
    ap = h.parser("--bin", "--uniform", "--skewed")
    ap.add_argument("--verbose", action="store_true")
    h.main(test, ap.parse_args(), "spill join: ok")
