#!/usr/bin/env python3
"""TPC-H Q1–Q22: Hindsight against SQLite on the same generated data (`make bench`).

    tpch_vs_sqlite.py --bin build/hindsight --data DIR --sqlite-db FILE
                      [--queries tests/differential/tpch] [--repeat 3] [--timeout 300] [--json OUT.json]

- SQLite: the data folder is loaded once into the on-disk database FILE (rebuilt only when
  catalog.json changes), with an index on every column whose name ends in "key" (without them
  SQLite runs the correlated subqueries of Q4, Q21... as nested scans for hours; Hindsight gets
  no index). Queries run in process through Python's sqlite3; the time is execute + fetchall.
  SQLite runs the `qNN.sqlite.sql` twin where there is one (dialect only, same query).
- Hindsight: `hindsight query --data DIR --format json --set stats_scope=off -f qNN.sql` (the model's plans,
  the same in every run; feedback is measured by feedback_bench.py), one process per run. The time
  is the `elapsed_ms` the CLI reports for the query (summed over attempts if it re-executed); when
  the CLI does not report it, it is the process wall time minus the median wall time of a trivial
  query (`SELECT 1`), which removes process start and data loading. The output says which.
- The foundation planner (`--set optimizer=foundation`: fixed selectivities, connected-first join
  order, broadcast below a row count) runs each query too; foundation/cost (> 1: the cost-based
  optimizer is faster) is reported per query with its geometric mean. `--no-foundation` skips it.
- Each engine runs each query --repeat times; the median counts. The ratio is sqlite/hindsight
  (> 1: Hindsight faster); the geometric mean covers the queries both engines ran. A query that
  fails in either engine is listed as failed and left out of the mean, never hidden. Row counts
  that differ between the engines are flagged (the differential test checks the results).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sqlite3
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(ROOT, "tests", "differential"))
import hindsight_harness as hh  # noqa: E402


def catalog_digest(data: str) -> str:
    with open(os.path.join(data, "catalog.json"), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def open_sqlite_db(data: str, path: str) -> sqlite3.Connection:
    """The on-disk SQLite copy of `data`, built on first use (into a temporary file, then renamed)."""
    digest = catalog_digest(data)
    if os.path.exists(path):
        conn = sqlite3.connect(path)
        try:
            row = conn.execute("SELECT value FROM hindsight_bench_meta WHERE key = 'catalog_sha256'").fetchone()
        except sqlite3.Error:
            row = None
        if row and row[0] == digest:
            hh.configure_sqlite(conn)
            return conn
        conn.close()
        print(f"sqlite: {path} is from other data; rebuilding", flush=True)
    tmp = path + ".partial"
    if os.path.exists(tmp):
        os.remove(tmp)
    t0 = time.perf_counter()
    conn = sqlite3.connect(tmp)
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    counts = hh.load_into_sqlite(conn, data, index_keys=True)
    conn.execute("CREATE TABLE hindsight_bench_meta (key TEXT PRIMARY KEY, value TEXT)")
    conn.execute("INSERT INTO hindsight_bench_meta VALUES ('catalog_sha256', ?)", (digest,))
    conn.commit()
    conn.execute("ANALYZE")
    conn.close()
    os.replace(tmp, path)
    print(f"sqlite: built {path} ({sum(counts.values())} rows) in {time.perf_counter() - t0:.1f} s", flush=True)
    conn = sqlite3.connect(path)
    hh.configure_sqlite(conn)
    return conn


def median(values: list[float]) -> float:
    return statistics.median(values)


def hindsight_baseline(args) -> tuple[float | None, str]:
    """Median wall ms of a trivial query, used only when the CLI reports no elapsed_ms."""
    for sql in ("SELECT 1", "SELECT r_regionkey FROM region WHERE r_regionkey = 0"):
        walls = []
        for _ in range(3):
            res = hh.run_hindsight_query(args.bin, args.data, sql=sql, timeout=args.timeout)
            if not res.ok:
                break
            walls.append(res.wall_ms)
        if len(walls) == 3:
            return median(walls), sql
    return None, ""


def time_hindsight(args, path: str, baseline: list, sets=()) -> tuple[float | None, int | None, str, str]:
    """(ms, rows, how, error). `baseline` is a one-element cache [None | (ms, sql)]."""
    times, rows, how = [], None, ""
    for _ in range(args.repeat):
        res = hh.run_hindsight_query(args.bin, args.data, file=path, timeout=args.timeout,
                                     sets=("stats_scope=off",) + tuple(sets))
        if not res.ok:
            return None, None, "", res.describe_failure()
        rows = len(res.rows)
        elapsed = res.attempts_elapsed_ms()
        if elapsed is not None:
            times.append(elapsed)
            how = "elapsed_ms" + (f" over {len(res.attempts)} attempts" if len(res.attempts) > 1 else "")
        else:
            if not baseline:
                baseline.append(hindsight_baseline(args))
            base_ms, _ = baseline[0]
            if base_ms is None:
                return None, None, "", "no elapsed_ms in the JSON and no trivial query ran for a baseline"
            times.append(max(0.0, res.wall_ms - base_ms))
            how = "wall - baseline"
    return median(times), rows, how, ""


def time_sqlite(args, conn: sqlite3.Connection, path: str) -> tuple[float | None, int | None, str]:
    with open(hh.sqlite_twin(path), encoding="utf-8") as f:
        sql = f.read()
    times, rows = [], None
    deadline = [0.0]
    conn.set_progress_handler(lambda: 1 if time.monotonic() > deadline[0] else 0, 100000)
    try:
        for _ in range(args.repeat):
            deadline[0] = time.monotonic() + args.timeout
            _, result, ms = hh.run_sqlite(conn, sql)
            times.append(ms)
            rows = len(result)
    except sqlite3.Error as e:
        return None, None, f"sqlite: {e}"
    finally:
        conn.set_progress_handler(None, 0)
    return median(times), rows, ""


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", required=True)
    p.add_argument("--data", required=True, help="folder made by hindsight gen (catalog.json + CSVs)")
    p.add_argument("--sqlite-db", required=True, help="on-disk SQLite copy of the data (built once)")
    p.add_argument("--queries", default=os.path.join(ROOT, "tests", "differential", "tpch"))
    p.add_argument("--repeat", type=int, default=3, help="runs per query and engine; the median counts")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per run (default 300)")
    p.add_argument("--no-foundation", action="store_true", help="skip the foundation-planner runs")
    p.add_argument("--json", default=None, help="also write every figure here: {summary, queries, failed, ...}")
    args = p.parse_args(argv if argv is not None else sys.argv[1:])

    conn = open_sqlite_db(args.data, args.sqlite_db)
    queries = sorted(f for f in os.listdir(args.queries) if f.endswith(".sql") and not f.endswith(".sqlite.sql"))
    print(f"\nTPC-H on {args.data}: median of {args.repeat} run(s) per engine\n")
    print(f"{'query':<6} {'hindsight ms':>13} {'sqlite ms':>11} {'sqlite/hs':>10} {'foundation ms':>14} "
          f"{'found/cost':>10} {'rows':>6}  note")
    ratios, failed, flagged, hows = [], [], [], set()
    foundation_ratios, foundation_failed = [], []
    baseline: list = []
    per_query: list[dict] = []
    for name in queries:
        path = os.path.join(args.queries, name)
        q = name[:-4]
        hs_ms, hs_rows, how, hs_err = time_hindsight(args, path, baseline)
        sq_ms, sq_rows, sq_err = time_sqlite(args, conn, path)
        fd_text, fr_text = f"{'-':>14}", f"{'-':>10}"
        if not args.no_foundation:
            fd_ms, _, _, fd_err = time_hindsight(args, path, baseline, sets=("optimizer=foundation",))
            if fd_err:
                foundation_failed.append(f"{q}: {fd_err}")
                fd_text = f"{'FAILED':>14}"
            else:
                fd_text = f"{fd_ms:14.1f}"
                if hs_ms and fd_ms and hs_ms > 0 and fd_ms > 0:
                    foundation_ratios.append(fd_ms / hs_ms)
                    fr_text = f"{fd_ms / hs_ms:10.2f}"
        rec = {"query": q, "hindsight_ms": hs_ms, "sqlite_ms": sq_ms, "foundation_ms": None,
               "sqlite_over_hindsight": None, "foundation_over_cost": None}
        per_query.append(rec)
        if not args.no_foundation and not fd_err:
            rec["foundation_ms"] = fd_ms
            if hs_ms and fd_ms and hs_ms > 0 and fd_ms > 0:
                rec["foundation_over_cost"] = fd_ms / hs_ms
        if hs_err or sq_err:
            rec["error"] = f"{hs_err or ''}{'; ' if hs_err and sq_err else ''}{sq_err or ''}"
            failed.append(f"{q}: {hs_err or ''}{'; ' if hs_err and sq_err else ''}{sq_err or ''}")
            hs_text = f"{hs_ms:13.1f}" if hs_ms is not None else f"{'FAILED':>13}"
            sq_text = f"{sq_ms:11.1f}" if sq_ms is not None else f"{'FAILED':>11}"
            print(f"{q:<6} {hs_text} {sq_text} {'-':>10} {fd_text} {fr_text} {'-':>6}  failed", flush=True)
            continue
        hows.add(how)
        note = ""
        if hs_rows != sq_rows:
            note = f"rows differ: hindsight {hs_rows}, sqlite {sq_rows}"
            flagged.append(f"{q} ({note})")
        ratio = sq_ms / hs_ms if hs_ms > 0 else math.inf
        rec["rows"], rec["sqlite_rows"] = hs_rows, sq_rows
        if math.isfinite(ratio) and ratio > 0:
            ratios.append(ratio)
            rec["sqlite_over_hindsight"] = ratio
        else:
            note = (note + "; " if note else "") + "hindsight time not measurable (at or below the baseline), left out of the mean"
        print(f"{q:<6} {hs_ms:13.1f} {sq_ms:11.1f} {ratio:10.2f} {fd_text} {fr_text} {hs_rows:>6}  {note}", flush=True)

    print()
    if "wall - baseline" in hows:
        base_ms, base_sql = baseline[0]
        print(f"hindsight time: process wall time minus {base_ms:.1f} ms, the median wall time of `{base_sql}` "
              f"(the CLI reports no elapsed_ms)")
    if any(h.startswith("elapsed_ms") for h in hows):
        print("hindsight time: elapsed_ms reported by the CLI (summed over attempts when it re-executed)")
    print("sqlite time: execute + fetchall in process (python sqlite3), key columns indexed")
    if flagged:
        print(f"row counts differ (see the differential test): {', '.join(flagged)}")
    if failed:
        print(f"failed ({len(failed)}), left out of the mean:")
        for line in failed:
            print(f"  {line}")
    if ratios:
        gmean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"geometric mean of sqlite/hindsight over {len(ratios)} queries: {gmean:.2f} "
              f"({'Hindsight faster' if gmean > 1 else 'SQLite faster' if gmean < 1 else 'even'})")
    else:
        print("geometric mean: no query ran in both engines")
    if foundation_failed:
        print(f"foundation planner failed ({len(foundation_failed)}):")
        for line in foundation_failed:
            print(f"  {line}")
    if foundation_ratios:
        fmean = math.exp(sum(math.log(r) for r in foundation_ratios) / len(foundation_ratios))
        print(f"geometric mean of foundation/cost over {len(foundation_ratios)} queries: {fmean:.2f} "
              f"({'cost-based faster' if fmean > 1 else 'foundation faster' if fmean < 1 else 'even'})")
    if args.json:
        gm = lambda xs: math.exp(sum(math.log(r) for r in xs) / len(xs)) if xs else None
        summary = {"gmean_sqlite_over_hindsight": gm(ratios), "queries_compared": len(ratios),
                   "failed": len(failed), "rows_differ": len(flagged)}
        if not args.no_foundation:
            summary.update({"gmean_foundation_over_cost": gm(foundation_ratios),
                            "foundation_failed": len(foundation_failed)})
        with open(args.json + ".partial", "w", encoding="utf-8") as f:
            json.dump({"data": args.data, "repeat": args.repeat, "summary": summary, "queries": per_query,
                       "failed": failed, "rows_differ": flagged, "foundation_failed": foundation_failed,
                       "hindsight_time": sorted(hows)}, f, indent=1)
        os.replace(args.json + ".partial", args.json)
    return 1 if failed or not ratios else 0


if __name__ == "__main__":
    sys.exit(main())
