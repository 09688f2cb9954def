#!/usr/bin/env python3
"""Re-execution through the CLI, on a TPC-H SF 0.01 folder this script generates (docs/reexec.md).

- The map-join case: under memory_limit=12MB with 4 workers the first plan broadcasts an
  underestimated build side (lineitem behind filters the model cannot estimate) and fails with
  MEMORY_LIMIT_EXCEEDED; the second attempt partitions the join and returns the rows of an
  unconstrained run. The JSON lists both attempts (reexec_reason names the plugin, the error and the
  plan change), stderr has one line for the extra attempt, and explain --analyze shows the final
  attempt, its build side estimated from runtime.
- Failing early: attempt 1 of the map join stops once the broadcast build, a tenth of the way through its input,
  shows it will not fit (reexec_fail_early); off, with --reexec none or with one attempt allowed it fails when the
  limit is reached.
- Spilling in place: a co-located self-join of lineitem has no other plan; under 1400KB its build overflows, a re-plan
  with what attempt 1 observed keeps the plan, and attempt 1 goes on spilling: one attempt, the unconstrained rows,
  one stderr line saying so (1400KB, not 1500KB: its peak at 4 workers is 1.48-1.50 MB, so under 1500KB on a loaded
  machine 1 run in 15 fit and never overflowed). With reexec_spill_in_place=off: two attempts, the second the same plan spilling. In
  the map-join case the re-plan changes the plan and finishing it is not predicted to be clearly cheaper (it weighs
  about 1:1), so attempt 1 fails as before (and says why). Finishing a changed plan: on skewed SF 0.01 data,
  q19 under 0.8 x its peak overflows late; the re-plan changes the
  plan, but finishing this one is predicted far cheaper, so attempt 1 goes on spilling and says what it weighed
  (the rows are the unconstrained run's, in one attempt or, when a skewed build partition cannot spill, in two);
  with reexec_spill_in_place=same_plan it does not spill in place.
- --reexec none: exactly one attempt, the error.
- Persistence: a new process with the same --store plans the rescued query right: one attempt.
- Non-retryable errors (division by zero, bind error) have one attempt.
- Fault injection: TRANSIENT is retried; injected twice with one retry allowed fails with it;
  reexec_max_attempts is respected; an overlay scoped to MEMORY_LIMIT_EXCEEDED applies to that error
  and not to TIMEOUT.
"""
import os
import sys
import tempfile

sys.dont_write_bytecode = True
import cli_harness as h  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "differential"))
import reexec_runs as rr  # noqa: E402  (one process per run, the tables loaded before the limit is set)
from cli_harness import check  # noqa: E402
from cli_harness import plan_nodes as nodes  # noqa: E402
from cli_harness import cli_parts as run  # noqa: E402  (rc, JSON, stderr, stdout)

# b's filter is misjudged only with the row sample off (filter_sample=off: its three conjuncts multiplied as if
# independent, 1.6k rows for 58k), which is the misestimate the map-join case needs. The select list reads b's filter
# columns too, so that they are outputs of its scan (a column only the scan's filter
# reads is not) and the broadcast build side is as wide as memory_limit=12MB assumes.
MAP_JOIN = ("SELECT count(*), sum(b.l_quantity), max(b.l_extendedprice + b.l_tax + b.l_discount) "
            "FROM lineitem a JOIN lineitem b ON a.l_partkey = b.l_partkey "
            "WHERE b.l_quantity + b.l_tax > 2 AND b.l_extendedprice / b.l_quantity > 900 "
            "AND b.l_tax + b.l_discount >= 0")
JOIN = "SELECT count(*), sum(o_totalprice) FROM orders JOIN customer ON o_custkey = c_custkey"
# lineitem is stored by l_orderkey: the join is co-located whatever the estimates, so a re-plan cannot change it.
COLOCATED = "SELECT count(*), sum(a.l_quantity) FROM lineitem a JOIN lineitem b ON a.l_orderkey = b.l_orderkey"


def codes(obj):
    return [(a["error"] or {}).get("code") for a in obj["attempts"]]


def test(args):
    with tempfile.TemporaryDirectory() as tmp:
        data = h.gen_tpch(args.bin, "0.01", os.path.join(tmp, "tpch"))
        store = lambda name: ["--store", os.path.join(tmp, name + ".db")]
        # The broadcast plan peaks near 17.5 MB (its exchange holds 11 MB before the builds start: a limit much
        # nearer the peak let a busy machine finish it), the partitioned one near 6 MB (the five lineitem columns
        # the statement reads included; the unconstrained run below writes the caches first).
        limited = ["--set", "workers=4", "--set", "memory_limit=12MB", "--set", "filter_sample=off"]

        rc, free, _, _ = run(args.bin, "query", data, MAP_JOIN, "--set", "workers=4", "--reexec", "none", *store("free"))
        check(rc == 0 and free and free["status"] == "ok", f"unconstrained map join runs: {rc}")

        # The map-join case.
        rc, obj, err, _ = run(args.bin, "query", data, MAP_JOIN, *limited, *store("rescue"))
        check(rc == 0 and obj and obj["status"] == "ok", f"map join rescued: rc {rc}, {err}")
        if obj:
            a = obj["attempts"]
            check(len(a) == 2, f"two attempts: {a}")
            check(codes(obj)[:1] == ["MEMORY_LIMIT_EXCEEDED"], f"attempt 1 failed for memory: {codes(obj)}")
            if len(a) == 2:
                check(a[0]["reexec_reason"] is None, "the first attempt has no reason")
                check(a[1]["status"] == "ok" and a[0]["plan_hash"] != a[1]["plan_hash"], f"another plan: {a}")
                why = a[1]["reexec_reason"] or ""
                check("reoptimize+spill after MEMORY_LIMIT_EXCEEDED in attempt 1; spill on" in why and "broadcast -> partitioned" in why,
                      f"reason: {why}")
            check(free and obj["rows"] == free["rows"], f"same rows as unconstrained: {obj['rows']} vs {free and free['rows']}")
        check("re-execution: attempt 1 failed (MEMORY_LIMIT_EXCEEDED: HashJoinBuild#" in err and "attempt 2 succeeded" in err,
              f"one stderr line for the extra attempt: {err}")
        check(err.count("re-execution:") == 1, f"exactly one re-execution line: {err}")

        # Failing early: the broadcast build reads its exchange (every row known), so attempt 1 stops a tenth of the
        # way through it; without an attempt to answer the error, or with the setting off, it runs to the limit.
        early = "stopped early: reexec_fail_early"
        first_error = lambda o: ((o or {}).get("attempts") or [{}])[0].get("error") or {}
        if obj:
            msg = first_error(obj).get("message", "")
            check("HashJoinBuild#" in msg and "would exceed the memory limit: it took" in msg and early in msg,
                  f"attempt 1 failed early: {msg}")
        for label, extra in (("off", ["--set", "reexec_fail_early=off"]), ("none", ["--reexec", "none"]),
                             ("one attempt", ["--set", "reexec_max_attempts=1"])):
            rc, o, _, _ = run(args.bin, "query", data, MAP_JOIN, *limited, *extra, *store("late-" + label.replace(" ", "")))
            msg = first_error(o).get("message", "")
            check(first_error(o).get("code") == "MEMORY_LIMIT_EXCEEDED" and early not in msg and "needs" in msg,
                  f"{label}: attempt 1 fails at the limit: {msg}")

        # Spilling in place: the re-plan of the map join changes the plan, so its attempt 1 did not go on spilling.
        if obj:
            a0 = obj["attempts"][0]
            why = a0["spill_in_place"] or ""
            check(not a0["spilled_in_place"] and "changes the plan" in why and "finishing this plan" in why
                  and why.endswith(": not spilling in place"), f"map join: no spilling in place, and why: {why}")
        in_place = ["--set", "workers=4", "--set", "memory_limit=1400KB"]
        rc, cfree, _, _ = run(args.bin, "query", data, COLOCATED, "--set", "workers=4", "--reexec", "none", *store("cfree"))
        check(rc == 0 and cfree and cfree["status"] == "ok", f"unconstrained co-located join runs: {rc}")
        rc, cnone, _, _ = run(args.bin, "query", data, COLOCATED, *in_place, "--reexec", "none", *store("cnone"))
        check(rc == 1 and cnone and codes(cnone) == ["MEMORY_LIMIT_EXCEEDED"], f"co-located join fails under 1400KB: {rc}")
        rc, obj, err, _ = run(args.bin, "query", data, COLOCATED, *in_place, *store("inplace"))
        check(rc == 0 and obj and obj["status"] == "ok", f"co-located join rescued: rc {rc}, {err}")
        if obj:
            a = obj["attempts"]
            check(len(a) == 1 and a[0]["spilled_in_place"] and a[0]["spilled_bytes"] > 0, f"one attempt spilling in place: {a}")
            why = a[0]["spill_in_place"] or ""
            check(why.startswith("HashJoinBuild#") and "overflows memory_limit" in why and "keeps the plan" in why,
                  f"why it spilled in place: {why}")
            check(cfree and obj["rows"] == cfree["rows"], f"same rows as unconstrained: {obj['rows']} vs {cfree and cfree['rows']}")
        check("re-execution: attempt 1: HashJoinBuild#" in err and "spilling in place; it succeeded (spilled" in err
              and err.count("re-execution:") == 1, f"one stderr line for spilling in place: {err}")
        rc, obj, _, _ = run(args.bin, "query", data, COLOCATED, *in_place, "--set", "reexec_spill_in_place=off",
                            *store("inplace-off"))
        check(rc == 0 and obj and codes(obj) == ["MEMORY_LIMIT_EXCEEDED", None] and not obj["attempts"][0]["spilled_in_place"]
              and "same plan" in (obj["attempts"][1]["reexec_reason"] or ""),
              f"reexec_spill_in_place=off: a second attempt with the same plan: {obj and obj['attempts']}")

        # Finishing a changed plan in place: its re-plan differs, but this plan is mostly done.
        skewed = os.path.join(tmp, "tpch-skew")
        rc = h.run(args.bin, "gen", "tpch", "--sf", "0.01", "--skew", "1", "--out", skewed).rc
        check(rc == 0, f"gen tpch --skew 1: {rc}")
        # (orders_with_popular_parts until session 19: since the model estimates its popular parts by their
        # frequency, its re-plan keeps the plan.)
        sql = dict(rr.corpus())["q19"]
        # With the row sample off: q19's part filter (brands, containers and sizes, ORed) is then misjudged, so the
        # re-plan after the overflow differs; filter_sample on judges it right and the re-plan keeps the plan.
        textbook = {"filter_sample": "off"}
        # The limit from the largest of three unconstrained peaks (341-434 KB at 4 workers, by when exchange
        # buffers fill): under a smaller one attempt 1 can overflow early, in an exchange, where the plan stays.
        frees = [rr.run_query(args.bin, skewed, sql, {**textbook, "reexec_strategies": "none"}, tmp, workers=4)
                 for _ in range(3)]
        free = max(frees, key=lambda r: r.peak() if r.ok else -1)
        check(free.ok, f"q19 unconstrained: {free.describe()}")
        # At 4 workers which instance takes the memory first varies: locally 12 runs of 12 overflowed, but a
        # fresh-clone CI run under load saw three in a row fit, so up to eight are tried.
        limit = {**textbook, "memory_limit": str(int(0.8 * free.peak()))}

        def overflowing(settings):
            """A run whose attempt 1 overflowed, of eight at most; None if none did."""
            for _ in range(8):
                r = rr.run_query(args.bin, skewed, sql, settings, tmp, workers=4)
                if r.attempts and r.attempts[0]["spill_in_place"]:
                    return r
            return None

        late = overflowing(limit)
        check(late is not None and late.ok, f"q19 at 0.8 x peak: {late and late.describe()}")
        if late and late.ok and free.ok:
            a0 = late.attempts[0]
            why = a0["spill_in_place"]
            check(a0["spilled_in_place"] and "changes the plan" in why and "finishing this plan" in why
                  and why.endswith("spilling in place"), f"finished in place although the plan changes: {why}")
            check(rr.rows_difference(late.obj["rows"], free.obj["rows"], ordered=False) is None,
                  f"finished in place: the unconstrained rows: {late.obj['rows']} vs {free.obj['rows']}")
        same = overflowing({**limit, "reexec_spill_in_place": "same_plan"})
        check(same is not None, "same_plan: attempt 1 overflows")
        if same:
            why = same.attempts[0]["spill_in_place"]
            # (The refused charge is tried once more: memory another instance freed meanwhile may let attempt 1 go on.)
            check(not same.attempts[0]["spilled_in_place"] and "changes the plan" in why and "finishing" not in why
                  and why.endswith(": not spilling in place"),
                  f"same_plan: no spilling in place at the overflow: {same.describe()}: {why}")

        # Text output: the rows on stdout, the line on stderr.
        rc, _, err, out = run(args.bin, "query", data, MAP_JOIN, *limited, *store("rescue-text"), fmt="table")
        check(rc == 0 and "(1 row)" in out and "re-execution: attempt 1 failed" in err, f"text output: {rc} {err}")

        # explain --analyze shows the final attempt: partitioned, its build side estimated from runtime.
        rc, plan, err, _ = run(args.bin, "explain", data, MAP_JOIN, "--analyze", *limited, *store("explain"))
        check(rc == 0 and plan is not None, f"explain --analyze rescued: {rc} {err}")
        if plan:
            joins = [n for n in nodes(plan["physical"]) if n["operator"] == "HashJoin"]
            check(len(joins) == 1 and joins[0]["details"].get("distribution") == "partitioned",
                  f"final plan partitioned: {[j['details'] for j in joins]}")
            scans = [n for n in nodes(plan["physical"]) if n["operator"] == "TableScan" and "filter" in n["details"]]
            check(scans and scans[0]["estimate_source"] == "runtime" and scans[0]["estimated_rows"] == 58004,
                  f"re-plan estimated the build side from what attempt 1 observed: {scans and scans[0]}")
        check("re-execution: attempt 1 failed" in err, "explain --analyze reports the extra attempt")

        # Persistence: the next process with the same store needs one attempt.
        rc, again, _, _ = run(args.bin, "query", data, MAP_JOIN, *limited, *store("rescue"))
        check(rc == 0 and again and len(again["attempts"]) == 1 and again["attempts"][0]["status"] == "ok",
              f"next process: one attempt: {again and again['attempts']}")

        # --reexec none: one attempt, the error.
        rc, none, _, _ = run(args.bin, "query", data, MAP_JOIN, *limited, "--reexec", "none", *store("none"))
        check(rc == 1 and none and codes(none) == ["MEMORY_LIMIT_EXCEEDED"], f"none: one failed attempt: {none and codes(none)}")

        # Non-retryable errors.
        for sql, code in (("SELECT n_nationkey / 0 FROM nation", "DATA_ERROR"),
                          ("SELECT no_such_column FROM nation", "BIND_ERROR")):
            rc, obj, _, _ = run(args.bin, "query", data, sql, *store("errors"))
            check(rc == 1 and obj and codes(obj) == [code], f"{sql}: one attempt with {code}: {obj and codes(obj)}")

        # Fault injection: retry, its limit and max attempts.
        fault = lambda spec: ["--set", f"fault_injection=operator=HashJoinBuild;after_rows=100;{spec}"]
        rc, obj, _, _ = run(args.bin, "query", data, JOIN, *fault("error=TRANSIENT;times=1"), *store("f"))
        check(rc == 0 and obj and codes(obj) == ["TRANSIENT", None], f"TRANSIENT retried: {obj and codes(obj)}")
        if obj and len(obj["attempts"]) == 2:
            check("retry after TRANSIENT" in (obj["attempts"][1]["reexec_reason"] or ""), "retry named")
        rc, obj, err, _ = run(args.bin, "query", data, JOIN, *fault("error=TRANSIENT;times=2"),
                              "--set", "reexec_max_attempts=2", *store("f"))
        check(rc == 1 and obj and codes(obj) == ["TRANSIENT", "TRANSIENT"] and obj["error"]["code"] == "TRANSIENT",
              f"TRANSIENT twice with one retry fails with it: {obj and codes(obj)}")
        rc, obj, _, _ = run(args.bin, "query", data, JOIN, *fault("error=TRANSIENT;times=9"), *store("f"))
        check(rc == 1 and obj and len(obj["attempts"]) == 3, f"default reexec_max_attempts 3: {obj and codes(obj)}")

        # An overlay scoped to MEMORY_LIMIT_EXCEEDED.
        overlay = ["--reexec", "overlay", "--set", "reexec_overlay.MEMORY_LIMIT_EXCEEDED=workers=3"]
        rc, obj, _, _ = run(args.bin, "query", data, JOIN, *overlay, *fault("error=MEMORY_LIMIT_EXCEEDED"), *store("o"))
        check(rc == 0 and obj and codes(obj) == ["MEMORY_LIMIT_EXCEEDED", None], f"overlay on MLE: {obj and codes(obj)}")
        if obj and len(obj["attempts"]) == 2:
            check("overlay workers=3" in (obj["attempts"][1]["reexec_reason"] or ""), "overlay named")
        rc, obj, _, _ = run(args.bin, "query", data, JOIN, *overlay, *fault("error=TIMEOUT"), *store("o"))
        check(rc == 1 and obj and codes(obj) == ["TIMEOUT"], f"no overlay on TIMEOUT: {obj and codes(obj)}")

        # Bad values are usage errors of the setting, typed.
        rc, obj, err, _ = run(args.bin, "query", data, JOIN, "--reexec", "sometimes")
        check(rc == 1 and "TYPE_ERROR" in err, f"unknown strategy refused: {rc} {err}")


if __name__ == "__main__":
    h.main(test, h.parser("--bin").parse_args(), "reexec CLI: ok")
