#!/usr/bin/env python3
"""Does `memory_limit` bound what a query really uses? (`make bench`, after the TPC-H run.)

    memory_bound.py --bin build/hindsight --data DIR [--slack-mb 32] [--timeout 300] [--json OUT.json]

For each (query, limit) pair, one `hindsight query` process runs with `--set memory_limit=L`,
and its peak resident set (ru_maxrss from wait4, the same figure `/usr/bin/time -v` prints) is
compared with

    bound = baseline + L + slack

where baseline is the peak RSS of a process that only loads the same tables (`SELECT count(*)`
over each of them, no limit). Since the tables a statement loads are charged to its budget too,
the column `strict` also compares the RSS above an empty process (`SELECT 1`) with limit + slack:
that is what a user who set the limit would expect of the whole process (reported, not enforced). The check passes whether the query succeeds or fails with
MEMORY_LIMIT_EXCEEDED; any other failure is reported. The table shows, per pair, the outcome,
the RSS above baseline and its ratio to the limit. Exit status 1 when a pair exceeds its bound.
The binary cache of every table is warmed first, so loads map the cache rather than parse CSV.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import threading

# (name, SQL, tables it loads). Each stresses a different operator's buffers.
QUERIES = [
    ("sort_text", "SELECT l_comment, l_orderkey FROM lineitem ORDER BY l_comment", ["lineitem"]),
    ("cross_sort", "SELECT l_comment, n_name FROM lineitem, nation ORDER BY l_comment, n_name", ["lineitem", "nation"]),
    ("group_text", "SELECT l_comment, count(*), max(l_shipdate) FROM lineitem GROUP BY l_comment", ["lineitem"]),
    ("join_wide", "SELECT count(*), max(o_comment), max(l_comment) FROM lineitem JOIN orders ON l_orderkey = o_orderkey "
                  "GROUP BY o_custkey", ["lineitem", "orders"]),
    ("distinct", "SELECT DISTINCT l_comment, l_partkey FROM lineitem", ["lineitem"]),
]
LIMITS_MB = [64, 256, 1024]


def run(bin_: str, data: str, sql: str, sets: list[str], timeout: float) -> tuple[int, float, str]:
    """Exit status (-1: killed after `timeout`), peak RSS in MB, the error code ("ok" if none).

    The rows go to /dev/null: holding them here would grow this process, and a forked child counts
    its parent's resident pages until it execs."""
    cmd = [bin_, "query", "--data", data]
    for s in sets:
        cmd += ["--set", s]
    cmd.append(sql)
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    err = proc.stderr.read().decode("utf-8", "replace")
    # wait4 reports this child's own rusage (RUSAGE_CHILDREN would be the maximum over all children).
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    killed = not timer.is_alive()
    timer.cancel()
    if killed:
        return -1, usage.ru_maxrss / 1024.0, "TIMEOUT(script)"
    code = "ok" if proc.returncode == 0 else error_code(err, proc.returncode)
    return proc.returncode, usage.ru_maxrss / 1024.0, code


def error_code(stderr: str, returncode: int) -> str:
    """The typed code of the error a failed `hindsight query` printed: its last "CODE: message" line (re-execution
    prints what each attempt did, and warnings, before it)."""
    for line in reversed(stderr.splitlines()):
        m = re.match(r"([A-Z][A-Z_]+): ", line)
        if m:
            return m.group(1)
    return f"exit {returncode}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--slack-mb", type=float, default=32.0)
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", default=None, help="also write every pair here: {summary, pairs}")
    args = ap.parse_args()
    workers = f"workers={args.workers}"

    baselines: dict[tuple[str, ...], float] = {}
    _, empty, _ = run(args.bin, args.data, "SELECT 1", [workers], args.timeout)
    failures = 0
    pairs: list[dict] = []
    print(f"== memory_limit against peak RSS (bound = tables-only baseline + limit + {args.slack_mb:.0f} MB; {workers})")
    print(f"{'query':<12} {'limit':>7} {'outcome':<22} {'rss-base':>9} {'/limit':>7} {'strict':>7}  verdict")
    for name, sql, tables in QUERIES:
        key = tuple(tables)
        if key not in baselines:
            load_sql = "; ".join(f"SELECT count(*) FROM {t}" for t in tables)
            run(args.bin, args.data, load_sql, [workers], args.timeout)  # warms the caches
            rc, rss, _ = run(args.bin, args.data, load_sql, [workers], args.timeout)
            if rc != 0:
                print(f"baseline for {tables} failed (exit {rc})")
                return 1
            baselines[key] = rss
        base = baselines[key]
        for limit in LIMITS_MB:
            rc, rss, code = run(args.bin, args.data, sql, [workers, f"memory_limit={limit}MB"], args.timeout)
            above = rss - base
            bound_ok = rss <= base + limit + args.slack_mb
            expected_outcome = code in ("ok", "MEMORY_LIMIT_EXCEEDED")
            verdict = "ok" if bound_ok and expected_outcome else ("OVER BOUND" if not bound_ok else "UNEXPECTED ERROR")
            failures += verdict != "ok"
            strict = (rss - empty) / (limit + args.slack_mb)
            pairs.append({"query": name, "limit_mb": limit, "outcome": code, "rss_above_base_mb": above,
                          "strict": strict, "verdict": verdict})
            print(f"{name:<12} {limit:>5}MB {code:<22} {above:>7.0f}MB {above / limit:>7.2f} {strict:>7.2f}  {verdict}")
    print(f"{failures} of {len(QUERIES) * len(LIMITS_MB)} pairs over their bound or failing unexpectedly")
    if args.json:
        summary = {"pairs": len(pairs), "over_bound": failures,
                   "worst_strict": max((p["strict"] for p in pairs), default=None)}
        with open(args.json + ".partial", "w", encoding="utf-8") as f:
            json.dump({"data": args.data, "slack_mb": args.slack_mb, "summary": summary, "pairs": pairs}, f, indent=1)
        os.replace(args.json + ".partial", args.json)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
