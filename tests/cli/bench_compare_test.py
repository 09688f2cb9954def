#!/usr/bin/env python3
"""scripts/bench-compare.sh and bench/bench_merge.py (docs/benchmarks.md), on fixed files (no engine needed).

- Two fixed merged results (testdata/bench/old.json, new.json): per metric old, new, new/old and the mark in the
  metric's direction (lower-is-better ratios to DuckDB improve when they fall, higher-is-better shares regress
  when they fall, a count that was 0 regresses when it grows, informational counts are never marked, a change
  inside the threshold is not marked and is once the threshold is lowered); metrics only in one file are listed
  as added / removed; a section whose status changed is listed; the exit code is 0.
- A missing file, a truncated file and JSON without "metrics": a clear error naming the file, exit code 2.
- bench/memory_bound.py's error code: the last "CODE: message" line of stderr, after re-execution's lines.
- bench/reexec_bench.py's cases over 1.5x the oracle's CPU, by where the CPU went (late first attempt, re-plan
  worse than the oracle's, one attempt spilling in place), on fixed cases: those within 1.5x are not listed.
- bench_merge.py: a section that failed, one that was skipped, one that wrote JSON and one that never ran are
  all in the merged file with that status (none silently missing), with the metadata and the metrics of the
  sections' summaries.
"""
import json
import os
import sys
import tempfile

sys.dont_write_bytecode = True
import cli_harness as h  # noqa: E402
from cli_harness import check, check_equal  # noqa: E402

DATA = os.path.join(h.ROOT, "tests", "cli", "testdata", "bench")
COMPARE = os.path.join(h.ROOT, "scripts", "bench-compare.sh")
MERGE = os.path.join(h.ROOT, "bench", "bench_merge.py")


def compare(*args):
    return h.run("bash", COMPARE, *args, timeout=60)


def rows(stdout: str) -> dict:
    """{metric: (better, old, new, ratio, mark)} from the table."""
    out = {}
    for line in stdout.splitlines():
        parts = line.split()
        if len(parts) >= 5 and parts[1] in ("lower", "higher", "-") and "." in parts[0]:
            out[parts[0]] = (parts[1], parts[2], parts[3], parts[4], parts[5] if len(parts) > 5 else "")
    return out


def test_compare():
    p = compare(os.path.join(DATA, "old.json"), os.path.join(DATA, "new.json"))
    check(p.rc == 0, f"exit code {p.rc} (it reports, it does not judge): {p.stderr}")
    r = rows(p.stdout)
    expect = {
        "duckdb.hs_w1.gmean_hindsight_over_duckdb": ("lower", "1.5", "1.2", "0.800", "improved"),
        "sqlite.gmean_sqlite_over_hindsight": ("higher", "2", "2.5", "1.250", "improved"),
        "replay.on.within_1.2_oracle_work_share": ("higher", "0.9", "0.7", "0.778", "REGRESSED"),
        "replay.on.regressed_share": ("lower", "0.1", "0.105", "1.050", ""),
        "replay.on.plans_changed": ("-", "5", "9", "1.800", ""),
        "reexec.wrong": ("lower", "0", "1", "inf", "REGRESSED"),
        "micro.BM_Signature/8.cpu_ns": ("lower", "1000", "1050", "1.050", ""),
    }
    for metric, want in expect.items():
        check_equal(r.get(metric), want, metric)
    check(set(r) == set(expect), f"the table has exactly the metrics in both files: {sorted(r)}")
    check("added (1, only in new): replay.oracle.plans_changed" in p.stdout, f"added listed: {p.stdout}")
    check("removed (1, only in old): feedback.stats_share_median" in p.stdout, f"removed listed: {p.stdout}")
    check("section memory: ok -> failed" in p.stdout, "the section whose status changed is listed")
    check("7 metrics in both: 2 regressed, 2 improved beyond 10 %" in p.stdout, f"the count line: {p.stdout}")
    check("2222222222222222222222222222222222222222 (dirty), SF 1" in p.stdout, "the new file's commit and dirty flag")

    # A lower threshold marks the 5 % moves too; --only-marked leaves the unmarked rows out.
    p = compare(os.path.join(DATA, "old.json"), os.path.join(DATA, "new.json"), "--threshold", "2", "--only-marked")
    r = rows(p.stdout)
    check(p.rc == 0, f"--threshold 2: exit code {p.rc}")
    check(r.get("micro.BM_Signature/8.cpu_ns", ("",) * 5)[4] == "REGRESSED", f"5 % slower at 2 %: {r}")
    check(r.get("replay.on.regressed_share", ("",) * 5)[4] == "REGRESSED", f"5 % more regressions at 2 %: {r}")
    check("replay.on.plans_changed" not in r, "an informational metric is never marked")

    # The same file twice: nothing moves.
    p = compare(os.path.join(DATA, "old.json"), os.path.join(DATA, "old.json"))
    check(p.rc == 0 and "0 regressed, 0 improved" in p.stdout, f"same file: {p.stdout}")


def test_bad_files():
    old = os.path.join(DATA, "old.json")
    for bad, words in ((os.path.join(DATA, "does-not-exist.json"), "cannot read"),
                       (os.path.join(DATA, "truncated.json"), "not JSON"),
                       (os.path.join(DATA, "no_metrics.json"), "not a merged bench result")):
        for args in ((old, bad), (bad, old)):
            p = compare(*args)
            check(p.rc == 2, f"{os.path.basename(bad)}: exit code {p.rc}, want 2")
            check(f"bench-compare: {bad}: {words}" in p.stderr, f"{os.path.basename(bad)}: the error: {p.stderr!r}")
            check("Traceback" not in p.stderr, f"{os.path.basename(bad)}: a traceback: {p.stderr}")


def test_merge():
    with tempfile.TemporaryDirectory(prefix="hindsight-bench-merge-") as tmp:
        sect = os.path.join(tmp, "sections")
        os.makedirs(sect)

        def put(name, status, obj=None):
            if status is not None:
                with open(os.path.join(sect, name + ".status"), "w") as f:
                    f.write(status + "\n")
            if obj is not None:
                with open(os.path.join(sect, name + ".json"), "w") as f:
                    json.dump(obj, f)

        put("sqlite", "0 12.5", {"summary": {"gmean_sqlite_over_hindsight": 3.0, "failed": 0},
                                 "queries": [{"query": "q01", "sqlite_over_hindsight": 2.5},
                                             {"query": "q02", "sqlite_over_hindsight": None}]})
        put("duckdb", "0 1.0", {"skipped": "node/npm not found"})
        put("feedback", "1 3.0")  # failed, no JSON
        put("reexec", "1 9.0", {"summary": {"wrong": 2, "rescued_share": 0.5}})  # failed with figures
        put("memory", "0 2.0")  # exit 0 but no JSON
        put("micro", "skipped no build/hindsight_bench in this build")
        put("replay", "0 4.0", {"summary": {"on": {"gmean_speedup_work": 1.1, "plans_changed": 3}}})
        # plan_quality: nothing at all (the suite stopped before it)
        out = os.path.join(tmp, "out", "bench-abc-20261201T0000.json")
        latest = os.path.join(tmp, "out", "latest.json")
        p = h.run(sys.executable, MERGE, "--dir", sect, "--out", out, "--latest", latest, "--meta",
                  "commit=0123456", "short_commit=0123456", "dirty=true", "sf=0.1", "nproc=2", "repeat=1", timeout=60)
        check(p.rc == 0, f"merge exit code {p.rc}: {p.stderr}")
        with open(out) as f:
            m = json.load(f)
        with open(latest) as f:
            check(json.load(f) == m, "latest.json is a copy of the result")
        st = {k: v["status"] for k, v in m["sections"].items()}
        check_equal(st, {"sqlite": "ok", "duckdb": "skipped", "feedback": "failed", "plan_quality": "not run",
                         "reexec": "failed", "memory": "failed", "replay": "ok", "micro": "skipped"}, "statuses")
        check_equal(m["sections"]["duckdb"]["reason"], "node/npm not found", "the skipped section says why")
        check_equal(m["sections"]["memory"]["reason"], "the section wrote no JSON", "the section without JSON says so")
        check_equal(m["sections"]["sqlite"]["seconds"], 12.5, "seconds recorded")
        check_equal(m["meta"], {"commit": "0123456", "short_commit": "0123456", "dirty": True, "sf": 0.1, "nproc": 2,
                                "repeat": 1}, "meta (a commit of digits stays text)")
        check_equal(m["metrics"], {"sqlite.gmean_sqlite_over_hindsight": 3.0, "sqlite.failed": 0,
                                   "sqlite.q01.sqlite_over_hindsight": 2.5, "reexec.wrong": 2,
                                   "reexec.rescued_share": 0.5, "replay.on.gmean_speedup_work": 1.1,
                                   "replay.on.plans_changed": 3}, "metrics")
        # The merged file is what the compare script reads.
        p = compare(out, out)
        check(p.rc == 0 and "7 metrics in both" in p.stdout, f"compare the merged file: {p.stdout}")


def test_memory_bound_error_code():
    sys.path.insert(0, os.path.join(h.ROOT, "bench"))
    import memory_bound  # noqa: E402
    err = ("re-execution: attempt 1 failed (MEMORY_LIMIT_EXCEEDED: Sort#0 needs 64.0 KB more); attempt 2 failed\n"
           "warning: re-execution: reoptimize+spill re-planned after MEMORY_LIMIT_EXCEEDED in attempt 2\n"
           "MEMORY_LIMIT_EXCEEDED: Sort#0 (worker 0): spilling did not help (TIMEOUT: not this one)\n")
    check_equal(memory_bound.error_code(err, 1), "MEMORY_LIMIT_EXCEEDED", "after re-execution's lines")
    check_equal(memory_bound.error_code("IO_ERROR: cannot read x.csv\n", 1), "IO_ERROR", "one line")
    check_equal(memory_bound.error_code("Segmentation fault\n", -11), "exit -11", "no typed error")


def test_reexec_over_goal():
    sys.path.insert(0, os.path.join(h.ROOT, "bench"))
    import reexec_bench  # noqa: E402

    def case(name, ratio, attempts):
        return {"query": name, "fraction": "0.8", "oracle_cpu_ms": 100.0, "cpu_ratio": ratio, "attempt_cpu_ms": attempts}
    over = reexec_bench.over_goal([
        case("late", 2.0, [60.0, 140.0]),        # the first attempt alone took 0.6x
        case("replan", 1.9, [20.0, 170.0]),      # failed early, the re-plan took 1.7x
        case("inplace", 1.8, [180.0]),           # one attempt that spilled
        case("within", 1.4, [70.0, 70.0]),       # within the goal: not listed
        case("exact", 1.5, [50.0, 100.0]),       # 1.5x is within
        case("unknown", 3.0, [None, 100.0]),     # an attempt without a figure: not attributed
    ])
    check_equal(over, {"late": "1 (late@0.8 0.60+1.40x)", "re-plan": "1 (replan@0.8 0.20+1.70x)",
                       "in place": "1 (inplace@0.8 1.80x)"}, "over 1.5x by where it went")
    check_equal(reexec_bench.over_goal([case("within", 1.2, [10.0, 110.0])]), {}, "none over the goal")


def test(args):
    test_memory_bound_error_code()
    test_reexec_over_goal()
    test_compare()
    test_bad_files()
    test_merge()


if __name__ == "__main__":
    h.main(test, h.parser().parse_args(), "bench_compare: ok")
