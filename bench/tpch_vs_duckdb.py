#!/usr/bin/env python3
"""TPC-H Q1–Q22: Hindsight's engine time against DuckDB's, at 1 and 2 threads (`make bench`).

    tpch_vs_duckdb.py --bin build/hindsight --sf-dir DIR [--queries 13,18] [--threads 1,2] [--repeat 3]
                      [--query-dir tests/differential/tpch] [--peer build/peer] [--timeout 300]
                      [--compare-bin OTHER/hindsight]

- DuckDB: `@duckdb/node-api` from npm, installed once into --peer (`npm install --prefix PEER
  @duckdb/node-api`; skipped when present) and driven by bench/duckdb_peer.mjs. The CSV files of the data
  folder are loaded into in-memory tables first (types from its catalog.json); the time is execute + fetch
  of every row, in process, with `SET threads = N`. When node or npm is missing (or the install fails) the
  script says so and exits 0: the peer is optional.
- Hindsight: `hindsight query --format json --set workers=N --set stats_scope=off -f qNN.sql` (the model's
  plans, the same in every run: what feedback gains is measured by feedback_bench.py), one process per run; the time is
  the engine's `elapsed_ms` (summed over attempts, with the `counting_ms` of the filtered scans counted before
  planning: count_scans_first), so process start and table loads are left out.
- Each query runs --repeat times per engine and thread count; the median counts. The ratio is
  hindsight/duckdb (> 1: DuckDB faster); the geometric mean covers the queries both engines ran, and the
  worst ratio is named. Row counts that differ are flagged; failures are listed, never hidden.
- --compare-bin runs a second Hindsight build too (e.g. the main branch) and prints its times and ratios
  beside, for before/after tables.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(ROOT, "tests", "differential"))
import hindsight_harness as hh  # noqa: E402

PEER_PACKAGE = "@duckdb/node-api"


def ensure_peer(peer: str) -> str | None:
    """None when DuckDB can run, else why not."""
    if not shutil.which("node") or not shutil.which("npm"):
        return "node/npm not found"
    if os.path.isfile(os.path.join(peer, "node_modules", *PEER_PACKAGE.split("/"), "package.json")):
        return None
    os.makedirs(peer, exist_ok=True)
    print(f"duckdb: npm install --prefix {peer} {PEER_PACKAGE}", flush=True)
    proc = subprocess.run(["npm", "install", "--prefix", peer, PEER_PACKAGE], capture_output=True, text=True)
    if proc.returncode != 0:
        tail = " | ".join((proc.stderr or proc.stdout).strip().splitlines()[-3:])
        return f"npm install failed: {tail}"
    return None


def query_files(query_dir: str, wanted: str | None) -> list[str]:
    names = sorted(f for f in os.listdir(query_dir) if f.endswith(".sql") and not f.endswith(".sqlite.sql"))
    if wanted:
        keep = {f"q{int(q):02d}.sql" for q in wanted.split(",") if q.strip()}
        names = [n for n in names if n in keep]
    return [os.path.join(query_dir, n) for n in names]


def run_duckdb(args, files: list[str], threads: list[int]) -> tuple[dict, str]:
    """{(query, threads): (median ms, rows) | error string}, and the load line."""
    cmd = ["node", os.path.join(ROOT, "bench", "duckdb_peer.mjs"), "--peer", args.peer, "--data", args.sf_dir,
           "--threads", ",".join(map(str, threads)), "--repeat", str(args.repeat), *files]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout * len(files) * len(threads) + 600)
    except subprocess.TimeoutExpired:
        return {}, "duckdb: timed out"
    out, load = {}, ""
    for line in proc.stdout.splitlines():
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue
        if "loaded" in obj:
            load = f"duckdb: loaded {sum(obj['loaded'].values())} rows into memory in {obj['load_ms'] / 1000:.1f} s"
        elif "error" in obj:
            out[(obj["query"], obj["threads"])] = obj["error"]
        else:
            out[(obj["query"], obj["threads"])] = (statistics.median(obj["ms"]), obj["rows"])
    if proc.returncode != 0 and not out:
        tail = " | ".join(proc.stderr.strip().splitlines()[-3:])
        return {}, f"duckdb: node exited with {proc.returncode}: {tail}"
    return out, load


def time_hindsight(binary: str, args, path: str, workers: int):
    """(median elapsed ms, rows) or an error string."""
    times, rows = [], None
    for _ in range(args.repeat):
        res = hh.run_hindsight_query(binary, args.sf_dir, file=path, timeout=args.timeout, sets=(f"workers={workers}", "stats_scope=off"))
        if not res.ok:
            return res.describe_failure()
        elapsed = res.attempts_elapsed_ms()
        if elapsed is None:
            return "no elapsed_ms in the JSON"
        times.append(elapsed)
        rows = len(res.rows)
    return statistics.median(times), rows


def gmean(xs: list[float]) -> float:
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", required=True)
    p.add_argument("--sf-dir", required=True, help="folder made by hindsight gen (catalog.json + CSVs)")
    p.add_argument("--queries", default=None, help="comma list of query numbers (default: all)")
    p.add_argument("--query-dir", default=os.path.join(ROOT, "tests", "differential", "tpch"))
    p.add_argument("--threads", default="1,2", help="comma list: Hindsight workers = DuckDB threads")
    p.add_argument("--repeat", type=int, default=3, help="runs per query, engine and thread count; the median counts")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per Hindsight run")
    p.add_argument("--peer", default=os.path.join(ROOT, "build", "peer"), help="npm prefix for @duckdb/node-api")
    p.add_argument("--compare-bin", default=None, help="a second Hindsight build to time beside (before/after)")
    p.add_argument("--json", default=None, help="also write every figure here: {summary, queries, problems}; a "
                                                "skipped run writes {skipped: why}")
    args = p.parse_args(argv if argv is not None else sys.argv[1:])

    def write_json(obj: dict) -> None:
        if args.json:
            with open(args.json + ".partial", "w", encoding="utf-8") as f:
                json.dump(obj, f, indent=1)
            os.replace(args.json + ".partial", args.json)

    why_not = ensure_peer(args.peer)
    if why_not:
        print(f"duckdb peer skipped: {why_not}")
        write_json({"skipped": why_not})
        return 0
    files = query_files(args.query_dir, args.queries)
    threads = [int(t) for t in args.threads.split(",")]
    duck, load = run_duckdb(args, files, threads)
    if load:
        print(load)
    if not duck:
        print("duckdb peer: no query ran")
        write_json({"error": f"no query ran in duckdb ({load})"})
        return 1

    bins = [("hs", args.bin)] + ([("before", args.compare_bin)] if args.compare_bin else [])
    print(f"\nTPC-H on {args.sf_dir}: engine time, median of {args.repeat}; ratio = hindsight/duckdb (> 1: DuckDB faster)\n")
    head = f"{'query':<6}"
    for t in threads:
        head += f" | {'duck t' + str(t):>9}"
        for label, _ in bins:
            head += f" {label + ' w' + str(t):>10} {'ratio':>6}"
    print(head)
    ratios = {(label, t): [] for label, _ in bins for t in threads}
    worst = {(label, t): (0.0, "") for label, _ in bins for t in threads}
    problems = []
    per_query: list[dict] = []
    for path in files:
        q = os.path.basename(path)[:-4]
        line = f"{q:<6}"
        rec = {"query": q}
        per_query.append(rec)
        for t in threads:
            d = duck.get((q, t), "did not run")
            if isinstance(d, str):
                problems.append(f"{q} duckdb threads={t}: {d}")
                line += f" | {'FAILED':>9}"
            else:
                line += f" | {d[0]:9.1f}"
            for label, binary in bins:
                h = time_hindsight(binary, args, path, t)
                if isinstance(h, str):
                    problems.append(f"{q} {label} workers={t}: {h}")
                    line += f" {'FAILED':>10} {'-':>6}"
                    continue
                line += f" {h[0]:10.1f}"
                if isinstance(d, str) or d[0] <= 0 or h[0] <= 0:
                    line += f" {'-':>6}"
                    continue
                if h[1] != d[1]:
                    problems.append(f"{q} {label} workers={t}: {h[1]} rows, duckdb {d[1]}")
                r = h[0] / d[0]
                rec[f"{label}_w{t}"] = {"duckdb_ms": d[0], "hindsight_ms": h[0], "hindsight_over_duckdb": r}
                ratios[(label, t)].append(r)
                if r > worst[(label, t)][0]:
                    worst[(label, t)] = (r, q)
                line += f" {r:6.2f}"
        print(line, flush=True)
    print()
    for label, _ in bins:
        for t in threads:
            rs = ratios[(label, t)]
            if rs:
                w = worst[(label, t)]
                print(f"{label} at {t} thread(s): geometric mean hindsight/duckdb {gmean(rs):.2f} over {len(rs)} "
                      f"queries; worst {w[1]} {w[0]:.2f}")
    print("hindsight time: elapsed_ms + counting_ms of the attempts (engine only); duckdb: runAndReadAll in process, tables in memory")
    summary = {"problems": len(problems)}
    for label, _ in bins:
        for t in threads:
            rs = ratios[(label, t)]
            summary[f"{label}_w{t}"] = {"gmean_hindsight_over_duckdb": gmean(rs) if rs else None, "queries": len(rs)}
    write_json({"sf_dir": args.sf_dir, "repeat": args.repeat, "load": load, "summary": summary,
                "queries": per_query, "problems": problems})
    if problems:
        print(f"problems ({len(problems)}):")
        for line in problems:
            print(f"  {line}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
