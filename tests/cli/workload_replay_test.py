#!/usr/bin/env python3
"""`hindsight replay` (docs/workload.md), on the skewed and the uniform SF 0.01 fixtures.

- The skewed workload captured (stats off, one worker) and replayed with feedback off on the same data: every
  query ok, its results matching the capture's and the same plan; the JSON shape; the text report (the summary
  table by default, every query with --verbose).
- Replayed on the uniform fixture (other data): one warning naming the tables, every query ok, and its rows are
  the right ones: each replayed digest equals the digest of a capture made on the uniform data.
- Several modes in one run (off, oracle): one report per mode and the oracle comparison.
- --promote: with an injected slowdown of the query with a hash join, that query's observations are not written
  to the store and the other query's are (and without --promote both are).
- Usage errors (exit 2) and a corrupt workload file (exit 1).
"""
import os
import sys
import tempfile

sys.dont_write_bytecode = True
import cli_harness as h  # noqa: E402
from cli_harness import check, check_equal  # noqa: E402

QUERY_KEYS = {"name", "status", "results_match", "plan_changed", "plan_diff", "captured_ms", "replayed_ms", "speedup",
              "work_before", "work_after", "qerror_before", "qerror_after", "attempts"}
SUMMARY_KEYS = {"queries", "compared", "geomean_speedup", "geomean_work_ratio", "improved_share", "regressed_share",
                "improved_work_share", "regressed_work_share", "failures_fixed", "failures_introduced",
                "results_differ", "plans_changed"}


def run(*args):
    return h.run(*args, timeout=600)


def as_json(text):
    """stdout's JSON object, or {} (a missing key is then a failed check, not a traceback)."""
    return h.Result(0, text, "").json or {}


def store_texts(bin_, store):
    rc, out, err = run(bin_, "stats", "list", "--store", store, "--format", "json", "--limit", "0")
    check(rc == 0, f"stats list: {rc} {err}")
    return [s["canonical_text"] for s in as_json(out).get("signatures", [])]


def test(args):
    b = args.bin
    names = h.workload_names(args.workload)
    with tempfile.TemporaryDirectory() as tmp:
        w = os.path.join(tmp, "w.hsw")
        settings = ["--set", "workers=1", "--set", "stats_scope=off"]
        rc, _, err = run(b, "capture", "--data", args.data, "--queries", args.workload, "--out", w,
                         "--store", os.path.join(tmp, "cap.db"), *settings)
        check(rc == 0, f"capture: {rc} {err}")

        # Feedback off on the same data: the same results and the same plans.
        rc, out, err = run(b, "replay", w, "--data", args.data, "--store", os.path.join(tmp, "off.db"), "--format", "json")
        check(rc == 0, f"replay off: rc {rc}: {err}")
        check("other data" not in err, f"no data warning on the capture's data: {err}")
        r = as_json(out)
        qs = r.get("queries", [])
        check_equal([q["name"] for q in qs], names, "every query replayed in order")
        for q in qs:
            check(QUERY_KEYS <= set(q), f"{q['name']}: fields {sorted(QUERY_KEYS - set(q))} missing")
            check(q["status"] == "ok" and q["results_match"] is True, f"{q['name']}: ok and matching: {q}")
            check(q["plan_changed"] is False and q["plan_diff"] == "", f"{q['name']}: the same plan: {q['plan_diff']}")
            check(q["attempts"] >= 1 and q["replayed_ms"] > 0 and q["captured_ms"] > 0, f"{q['name']}: times {q}")
            check(q["work_after"] == q["work_before"] > 0, f"{q['name']}: same plan, same data, same work: {q}")
            # replayed_ms is planning plus execution (one run); with feedback off the stats scopes take no time.
            check(abs(q.get("plan_ms", -1) + q.get("exec_ms", -1) - q["replayed_ms"]) < 1e-6 * q["replayed_ms"] + 1e-9
                  and q.get("stats_ms") == 0, f"{q['name']}: replayed_ms = plan_ms + exec_ms, no stats_ms: {q}")
            check(q["qerror_before"] >= 1 and q["qerror_after"] >= 1, f"{q['name']}: q-errors {q}")
            check(abs(q["speedup"] - q["captured_ms"] / q["replayed_ms"]) < 1e-6 * q["speedup"] + 1e-9,
                  f"{q['name']}: speedup = captured / replayed: {q}")
        s = r.get("summary", {})
        check(SUMMARY_KEYS <= set(s), f"summary fields: {sorted(SUMMARY_KEYS - set(s))} missing")
        check(s.get("queries") == len(names) and s.get("compared") == len(names) and s.get("results_differ") == 0 and
              s.get("plans_changed") == 0 and s.get("failures_introduced") == 0 and
              abs(s.get("geomean_work_ratio", 0) - 1) < 1e-9, f"summary: {s}")
        rc, text, err = run(b, "replay", w, "--data", args.data, "--store", os.path.join(tmp, "off.db"), "--verbose")
        check(rc == 0 and "replay with feedback off" in text and "summary (off" in text and
              all(n in text for n in names), f"--verbose text report: {rc} {text[:300]} {err}")
        # Without --verbose: the summary table (a row per mode) and no per-query lines (no query regressed, failed
        # or differs here, so none is listed).
        rc, text, err = run(b, "replay", w, "--data", args.data, "--store", os.path.join(tmp, "off2.db"))
        rows = [l.split() for l in text.splitlines()]
        off = [r for r in rows if r[:1] == ["off"]]
        check(rc == 0 and "replay summary" in text and len(off) == 1 and off[0][1] == f"0/{len(names)}" and
              off[0][-1] == "0" and not any(n in text for n in names) and "--verbose" in text,
              f"summary text report: {rc} {text} {err}")

        # Other data: the warning naming the tables, and the rows a capture on that data gives.
        wu = os.path.join(tmp, "u.hsw")
        rc, _, err = run(b, "capture", "--data", args.other_data, "--queries", args.workload, "--out", wu,
                         "--store", os.path.join(tmp, "capu.db"), *settings)
        rc2, js, _ = run(b, "workload", "show", wu, "--format", "json")
        truth = {q["name"]: q["result"]["digest"] for q in as_json(js).get("queries", [])} if rc == rc2 == 0 else {}
        rc, out, err = run(b, "replay", w, "--data", args.other_data, "--store", os.path.join(tmp, "u.db"),
                           "--format", "json")
        check(rc == 0, f"replay on other data: rc {rc}: {err}")
        warnings = [l for l in err.splitlines() if "captured on other data" in l]
        check(len(warnings) == 1 and "lineitem (rows" in warnings[0] and "orders (" in warnings[0],
              f"one warning naming the tables: {err}")
        r = as_json(out)
        check(r.get("data_warning", "").startswith("the workload was captured on other data"), "data_warning in JSON")
        qs = r.get("queries", [])
        check(len(qs) == len(names) and all(q["status"] == "ok" for q in qs), f"every query ok on other data: {qs}")
        check(truth and {q["name"]: q["digest"] for q in qs} == truth,
              "replayed rows on other data are what a capture on that data returns")
        check(all(q["data_changed"] for q in qs) and r.get("summary", {}).get("results_differ") == 0,
              f"differing results on changed tables are not counted as wrong: {r.get('summary')}")

        # Several modes: a report per mode and the comparison with the oracle.
        rc, out, err = run(b, "replay", w, "--data", args.data, "--store", os.path.join(tmp, "m.db"),
                           "--feedback", "off,oracle", "--format", "json")
        r = as_json(out)
        reps = r.get("replays", [])
        check(rc == 0 and [x.get("feedback") for x in reps] == ["off", "oracle"], f"modes: {rc} {err}")
        check(all(len(x.get("queries", [])) == len(names) and SUMMARY_KEYS <= set(x.get("summary", {})) for x in reps),
              "each mode has its queries and summary")
        check(all(q["results_match"] for x in reps for q in x.get("queries", [])), "every mode gives the same results")
        oc = r.get("oracle_comparison", {})
        check(set(oc) == {"captured", "off"} and all(
            oc[k]["compared"] == len(names) and 0 <= oc[k]["within_1_2_share"] <= 1 and oc[k]["geomean_ratio"] > 0
            for k in oc), f"oracle comparison: {oc}")

        # --promote: a regressed query writes nothing, a matching one that was not slower does.
        sql = os.path.join(tmp, "p.sql")
        with open(sql, "w") as f:
            f.write("-- name: fast\nSELECT r_name, count(*) FROM region GROUP BY r_name;\n"
                    "-- name: slow\nSELECT n_name, count(*) FROM nation JOIN supplier ON s_nationkey = n_nationkey "
                    "GROUP BY n_name;\n")
        wp = os.path.join(tmp, "p.hsw")
        # Both are captured 300 ms slow (an aggregate's delay, each statement once), so that "fast" replayed without
        # it is faster than its capture however loaded the machine is (promotion allows 10 % or 5 ms of noise over
        # a capture of under a millisecond otherwise); the replay's own --set replaces the captured setting.
        captured_slow = ["--set", "fault_injection=operator=HashAggregate;after_rows=0;delay_ms=300;times=1"]
        rc, _, err = run(b, "capture", "--data", args.data, "--queries", sql, "--out", wp,
                         "--store", os.path.join(tmp, "capp.db"), *settings, *captured_slow)
        check(rc == 0, f"capture for promote: {err}")
        slow = ["--set", "fault_injection=operator=HashJoinBuild;after_rows=1;delay_ms=1000;times=1"]
        promoted = os.path.join(tmp, "promoted.db")
        rc, out, err = run(b, "replay", wp, "--data", args.data, "--feedback", "on", "--promote", "--store", promoted,
                           "--format", "json", *slow)
        qs = {q["name"]: q for q in as_json(out).get("queries", [])}
        check(rc == 0 and qs.get("slow", {}).get("replayed_ms", 0) > 1000, f"slowed replay: {rc} {err} {qs}")
        check(all(qs.get(n, {}).get("captured_ms", 0) > 300 for n in ("fast", "slow")), f"captured 300 ms slow: {qs}")
        check(qs.get("fast", {}).get("promoted") is True and qs.get("slow", {}).get("promoted") is False,
              f"promoted flags: {qs}")
        texts = store_texts(b, promoted)
        check(any("region" in t for t in texts), f"the fast query's observations were written: {texts}")
        check(not any("supplier" in t or "nation" in t for t in texts),
              f"nothing of the regressed query was written: {texts}")
        plain = os.path.join(tmp, "plain.db")
        rc, _, err = run(b, "replay", wp, "--data", args.data, "--feedback", "on", "--store", plain, *slow)
        check(rc == 0 and any("supplier" in t for t in store_texts(b, plain)),
              f"without --promote the slowed query's observations are written: {rc} {err}")

        rc, out, err = run(b, "replay", wp, "--data", args.data, "--repeat", "3", "--format", "json")
        qs = as_json(out).get("queries", [])
        check(rc == 0 and len(qs) == 2 and all(q["results_match"] and q["replayed_ms"] > 0 for q in qs),
              f"--repeat 3: {rc} {err} {qs}")
        # The first run is the warm-up; the timed runs are three executions of its plan after it, and replayed_ms is
        # the first run's planning plus their median (docs/workload.md "Timing").
        for q in qs:
            runs = sorted(q.get("runs_ms", []))
            check(len(runs) == 3 and abs(q["replayed_ms"] - runs[1]) < 1e-9 and all(r >= q["plan_ms"] for r in runs)
                  and q.get("cpu_ms", -1) >= 0, f"--repeat 3 timed runs: {q}")

        # Usage errors and a corrupt file.
        rc, _, err = run(b, "replay", wp, "--data", args.data, "--promote")
        check(rc == 2 and "--promote needs --feedback on" in err, f"--promote without on: {rc} {err}")
        rc, _, err = run(b, "replay", wp, "--data", args.data, "--feedback", "off,sometimes")
        check(rc == 2 and "sometimes" in err, f"bad --feedback: {rc} {err}")
        good = open(w, "rb").read()
        bad = os.path.join(tmp, "bad.hsw")
        with open(bad, "wb") as f:
            f.write(good[: len(good) // 2])
        rc, out, err = run(b, "replay", bad, "--data", args.data)
        check(rc == 1 and "DATA_ERROR" in err and "truncated" in err and out == "", f"truncated file: {rc} {err}")


if __name__ == "__main__":
    ap = h.parser("--bin")
    ap.add_argument("--data", required=True, help="gen tpch --sf 0.01 --skew 1")
    ap.add_argument("--other-data", required=True, help="gen tpch --sf 0.01 (uniform)")
    ap.add_argument("--workload", required=True, help="bench/workloads/skewed.sql")
    h.main(test, ap.parse_args(), "workload replay: ok")
