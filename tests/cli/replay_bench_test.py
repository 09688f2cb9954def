#!/usr/bin/env python3
"""bench/replay_bench.py (make bench's replay section) on the SF 0.01 skewed fixture, one run per query.

Captures bench/workloads/skewed.sql and replays it with feedback off, on and oracle; its JSON has, per mode, the
summary keys the merged bench file and the table use, every query of the workload, 0 results that differ and 0
failures, and the oracle comparison for off and on; the table is printed. Then the files it keeps with --keep:
the workload, the capture's store and feedback on's copy of it (the capture's store is not the one replay wrote
to). A folder without catalog.json is an error (exit 1), not a crash.

Then scripts/bench.sh with SECTIONS=replay on the same data (a build folder holding only a link to the binary):
one merged file bench-<short commit>-<UTC yyyymmddThhmm>.json and its copy latest.json, the metadata, the replay
section ok with its metrics and every other section recorded as skipped.
"""
import glob
import json
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True
import cli_harness as h  # noqa: E402
from cli_harness import check, check_equal  # noqa: E402

SCRIPT = os.path.join(h.ROOT, "bench", "replay_bench.py")
WORKLOAD = os.path.join(h.ROOT, "bench", "workloads", "skewed.sql")
KEYS = {"queries", "compared", "plans_changed", "gmean_speedup_time", "gmean_speedup_work", "improved_share",
        "regressed_share", "improved_work_share", "regressed_work_share", "results_differ", "failures",
        "failures_fixed", "failures_introduced"}
ORACLE_KEYS = {"within_1.2_oracle_time_share", "within_1.2_oracle_work_share", "gmean_vs_oracle_time",
               "gmean_vs_oracle_work"}


def test(args):
    n_queries = len(h.workload_names(WORKLOAD))

    with tempfile.TemporaryDirectory(prefix="hindsight-replay-bench-test-") as tmp:
        out = os.path.join(tmp, "replay.json")
        keep = os.path.join(tmp, "keep")
        p = h.run(sys.executable, SCRIPT, "--bin", args.bin, "--data", args.data, "--repeat", "1", "--json", out,
                  "--keep", keep, timeout=600)
        check(p.rc == 0, f"exit code {p.rc}: {p.stdout[-2000:]} {p.stderr[-2000:]}")
        with open(out, encoding="utf-8") as f:
            j = json.load(f)
        s = j.get("summary") or {}
        check_equal(list(s), ["off", "on", "oracle"], "modes")
        for mode, fig in s.items():
            want = KEYS | (ORACLE_KEYS if mode != "oracle" else set())
            check(set(fig) == want, f"{mode}: keys {sorted(set(fig) ^ want)} differ")
            check_equal(fig.get("queries"), n_queries, f"{mode}: queries (those of the workload)")
            check_equal(fig.get("results_differ"), 0, f"{mode}: results_differ")
            check_equal(fig.get("failures"), 0, f"{mode}: failures")
            check_equal(fig.get("compared"), n_queries, f"{mode}: compared")
            check(0 < fig.get("gmean_speedup_work", 0) < 10, f"{mode}: gmean work speedup {fig.get('gmean_speedup_work')}")
        check(0 < s["off"]["gmean_vs_oracle_work"] < 10, f"off vs oracle work {s['off']['gmean_vs_oracle_work']}")
        check(s["on"]["within_1.2_oracle_work_share"] <= 1.0, "a share is at most 1")
        rep = j.get("replay") or {}
        check_equal([m["feedback"] for m in rep.get("replays", [])], ["off", "on", "oracle"],
                    "the replay's own JSON kept")
        check(j.get("repeat") == 1 and j.get("data") == args.data, f"repeat/data: {j.get('repeat')} {j.get('data')}")
        check("mode    plans chg" in p.stdout and "\noracle " in p.stdout, f"the table: {p.stdout[-1500:]}")
        for name in ("skewed.hsw", "capture.db", "on.db"):
            check(os.path.isfile(os.path.join(keep, name)), f"--keep: {name} kept")

        empty = os.path.join(tmp, "empty")
        os.makedirs(empty)
        p = h.run(sys.executable, SCRIPT, "--bin", args.bin, "--data", empty, "--repeat", "1", timeout=60)
        check(p.rc == 1 and "no catalog.json" in p.stdout and "Traceback" not in p.stderr,
              f"a folder without data: exit {p.rc}: {p.stdout} {p.stderr}")
    with tempfile.TemporaryDirectory(prefix="hindsight-bench-sh-test-") as build:
        os.symlink(os.path.abspath(args.bin), os.path.join(build, "hindsight"))
        env = dict(os.environ, SECTIONS="replay", SF="0.01", REPEAT="1", BENCH_DATA=args.data,
                   BENCH_SKEW_DATA=args.data)
        p = h.run("bash", os.path.join(h.ROOT, "scripts", "bench.sh"), build, timeout=600, env=env)
        check(p.rc == 0, f"bench.sh exit code {p.rc}: {p.stdout[-2000:]} {p.stderr[-2000:]}")
        files = glob.glob(os.path.join(build, "bench", "bench-*.json"))
        check(len(files) == 1 and re.fullmatch(r"bench-[0-9a-f]{4,40}-\d{8}T\d{4}\.json", os.path.basename(files[0])
                                               if files else ""), f"one merged file: {files}")
        if files:
            with open(files[0], encoding="utf-8") as f:
                m = json.load(f)
            with open(os.path.join(build, "bench", "latest.json"), encoding="utf-8") as f:
                check(json.load(f) == m, "latest.json is the same result")
            meta = m["meta"]
            check({"commit", "dirty", "sf", "date", "nproc", "repeat"} <= set(meta), f"meta keys: {sorted(meta)}")
            check(meta["sf"] == 0.01 and meta["repeat"] == 1 and isinstance(meta["dirty"], bool),
                  f"meta values: {meta}")
            st = {k: v["status"] for k, v in m["sections"].items()}
            check(st.pop("replay", None) == "ok", f"replay section: {m['sections'].get('replay')}")
            check(set(st.values()) == {"skipped"} and len(st) == 7, f"the other sections: {st}")
            check(m["metrics"].get("replay.on.results_differ") == 0 and "replay.off.gmean_speedup_work" in m["metrics"],
                  "the replay's metrics are in the merged file")
            check(not [d for d in os.listdir(os.path.join(build, "bench")) if d.startswith("sections-")],
                  "the sections' scratch folder is removed")


if __name__ == "__main__":
    ap = h.parser("--bin")
    ap.add_argument("--data", required=True, help="TPC-H SF 0.01 --skew 1 folder")
    h.main(test, ap.parse_args(), "replay_bench: ok")
