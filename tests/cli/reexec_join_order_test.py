#!/usr/bin/env python3
"""Re-execution changes the join ORDER of a three-way join, not only a distribution (docs/reexec.md).

    reexec_join_order_test.py --bin build/hindsight --data build/testdata/tpch-sf0.01-skew1

The query joins lineitem, orders and customer. Its lineitem filter (arithmetic on columns) is one the
model cannot estimate with the row sample off (filter_sample=off, set by the script): it guesses ~1.6k rows where
~58k pass. So the first plan joins lineitem with orders
first, building the hash table on filtered lineitem, and joins customer last. The script first loads
the three tables in statements of their own (a table an earlier statement of the process loaded is not
charged again), so `memory_limit` counts the plan's own memory only: at 400 KB the first plan's build of
filtered lineitem exceeds it. The re-plan knows lineitem's real size and joins orders with the filtered
customer first, building on that, then joins lineitem: another join order, which fits.

Checked, with workers=1 and workers=4: attempt 1 fails with MEMORY_LIMIT_EXCEEDED in a HashJoinBuild,
attempt 2 succeeds with another plan hash and the reason names reoptimize and the new join; the rows equal
an unconstrained run's; the join order of attempt 1's plan (plain EXPLAIN: the plan before any attempt
ran) is ((orders ⋈ lineitem) ⋈ customer) and that of attempt 2 (explain --analyze: the final attempt's
plan) is (lineitem ⋈ (orders ⋈ customer)); the unconstrained run needs more than the limit.
"""
import os
import sys
import tempfile

sys.dont_write_bytecode = True
import cli_harness as h  # noqa: E402
from cli_harness import check  # noqa: E402

# With the row sample off, the lineitem filter's three conjuncts are multiplied as if independent (~16k rows for
# ~585k): the misestimate the first plan needs (filter_sample on judges them right and plans the second order).
PRELOAD = ("SET filter_sample = off; "
           "SELECT * FROM lineitem LIMIT 1; SELECT * FROM orders LIMIT 1; SELECT * FROM customer LIMIT 1; ")
QUERY = ("SELECT count(*), sum(l_quantity) FROM lineitem JOIN orders ON l_orderkey = o_orderkey "
         "JOIN customer ON o_custkey = c_custkey "
         "WHERE l_extendedprice / l_quantity > 900 AND l_quantity + l_tax > 2 AND l_tax + l_discount >= 0 "
         "AND c_mktsegment = 'BUILDING'")
# The unconstrained first plan peaks near 0.8 MB at 4 workers (1 MB at 1); the re-plan needs 40-150 KB.
LIMIT = "400KB"
LIMIT_BYTES = 400 << 10


def run(binary, verb, data, sql, store, *extra):
    r = h.cli(binary, verb, data, sql, "--store", store, *extra)
    return r.rc, r.json, r.stderr


def join_order(node):
    """The plan's joins as a tree of base tables: '((orders ⋈ lineitem) ⋈ customer)'; other operators are
    seen through (a join's children in plan order, probe first)."""
    kids = [join_order(c) for c in node.get("children") or []]
    kids = [k for k in kids if k]
    if node["operator"] == "TableScan":
        return node["details"]["table"]
    if node["operator"] in ("HashJoin", "NestedLoopJoin"):
        return "(" + " ⋈ ".join(kids) + ")"
    return kids[0] if len(kids) == 1 else ("[" + ", ".join(kids) + "]" if kids else "")


def test(args):
    limited = PRELOAD + f"SET memory_limit = '{LIMIT}'; " + QUERY
    with tempfile.TemporaryDirectory() as tmp:
        for workers in (1, 4):
            store = lambda name: os.path.join(tmp, f"{name}-{workers}.db")  # a fresh store per run
            w = ["--set", f"workers={workers}"]
            rc, free, err = run(args.bin, "query", args.data, PRELOAD + QUERY, store("free"), *w, "--reexec", "none")
            check(rc == 0 and free and free["status"] == "ok" and len(free["rows"]) == 1,
                  f"workers={workers}: unconstrained run: {rc} {err}")
            if not free:
                continue
            check(free["attempts"][0]["peak_memory"] > LIMIT_BYTES,
                  f"workers={workers}: the unconstrained first plan needs more than {LIMIT}: {free['attempts']}")

            rc, obj, err = run(args.bin, "query", args.data, limited, store("rescue"), *w)
            check(rc == 0 and obj and obj["status"] == "ok", f"workers={workers}: rescued: {rc} {err}")
            if not obj:
                continue
            a = obj["attempts"]
            check(len(a) == 2, f"workers={workers}: two attempts: {a}")
            if len(a) == 2:
                e = a[0]["error"] or {}
                check(a[0]["status"] == "failed" and e.get("code") == "MEMORY_LIMIT_EXCEEDED"
                      and e.get("message", "").startswith("HashJoinBuild#"),
                      f"workers={workers}: attempt 1 fails building a hash table: {a[0]}")
                check(a[1]["status"] == "ok" and a[1]["plan_hash"] != a[0]["plan_hash"],
                      f"workers={workers}: attempt 2 runs another plan: {a}")
                why = a[1]["reexec_reason"] or ""
                check(why.startswith("reoptimize+spill after MEMORY_LIMIT_EXCEEDED in attempt 1")
                      and "new join orders⋈customer" in why and "join orders⋈lineitem dropped" in why,
                      f"workers={workers}: the reason names the new join order: {why}")
                check(a[1]["peak_memory"] <= LIMIT_BYTES, f"workers={workers}: attempt 2 fits: {a[1]}")
            check(obj["rows"] == free["rows"], f"workers={workers}: same rows: {obj['rows']} vs {free['rows']}")

            # Attempt 1's plan: EXPLAIN plans without running (no attempt, so no re-plan).
            rc, first, err = run(args.bin, "explain", args.data, limited, store("plan"), *w)
            order1 = join_order(first["physical"]) if first else None
            check(order1 == "((orders ⋈ lineitem) ⋈ customer)", f"workers={workers}: first plan's order: {order1} {err}")
            # The final attempt's plan: explain --analyze runs through the driver and shows the last attempt.
            rc, final, err = run(args.bin, "explain", args.data, limited, store("final"), *w, "--analyze")
            order2 = join_order(final["physical"]) if final else None
            check(order2 == "(lineitem ⋈ (orders ⋈ customer))", f"workers={workers}: re-plan's order: {order2} {err}")
            check("re-execution: attempt 1 failed (MEMORY_LIMIT_EXCEEDED" in err,
                  f"workers={workers}: explain --analyze re-executed: {err}")
            with_none = run(args.bin, "query", args.data, limited, store("none"), *w, "--reexec", "none")
            check(with_none[0] == 1 and with_none[1] and len(with_none[1]["attempts"]) == 1,
                  f"workers={workers}: without re-execution the query fails: {with_none[0]}")


if __name__ == "__main__":
    ap = h.parser("--bin")
    ap.add_argument("--data", required=True, help="TPC-H SF 0.01 generated with --skew 1")
    h.main(test, ap.parse_args(), "reexec join order: ok")
