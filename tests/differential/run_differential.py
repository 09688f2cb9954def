#!/usr/bin/env python3
"""Differential test: run every query of the corpus on Hindsight and on SQLite, compare results.

    run_differential.py --bin build/hindsight --sf 0.01 [--skew 1] [--seed S] --workdir DIR
                        [--only REGEX] [--jobs N] [--timeout SEC] [--set k=v]... [--workers N,M]
                        [--gen-only] [QUERY_DIR | WORKLOAD.sql ...]

Data. `hindsight gen tpch --sf F [--skew Z] [--seed S] --out DIR` runs once per workdir; when
DIR/catalog.json exists the data is reused (a stamp file DIR/.differential-gen.json records the
generator arguments; reusing a workdir generated with other arguments is an error, never a silent
mix-up). Every table of catalog.json is loaded into an in-memory SQLite database: BIGINT, INTEGER,
BOOLEAN → INTEGER; DOUBLE, DECIMAL → REAL; VARCHAR, DATE → TEXT; an empty unquoted CSV field is
NULL. The connection runs with `PRAGMA case_sensitive_like = ON` (standard LIKE is case-sensitive).

Queries. Every `*.sql` file of the query folders (default: tpch/ and extra/ beside this script),
except the `*.sqlite.sql` twins. Hindsight runs `query --format json -f FILE`; SQLite runs the twin
`NAME.sqlite.sql` when it exists (dialect differences: date arithmetic, EXTRACT, SUBSTRING...),
else the same text. A WORKLOAD.sql file argument (statements after `-- name: NAME` lines, such as
bench/workloads/skewed.sql) adds its queries, which both engines run as written. `--only REGEX` keeps the queries whose name or path matches (re.search).
`--workers 1,3` runs each query on Hindsight once per worker count (`--set workers=N`) and compares
every run with one SQLite run of the query (SQLite is the slow side at SF 0.1).

Comparison, in this order.
 1. Hindsight must answer per the CLI contract: a JSON object on stdout, status "ok" with exit code
    0, row_count equal to the number of rows (anything else fails the query, with the error code).
 2. Same number of columns, same number of rows.
 3. Values. NULL equals only NULL. Strings (VARCHAR, and DATE as 'YYYY-MM-DD' text) compare
    exactly. Numbers compare with relative tolerance 1e-9 (absolute 1e-9 near zero); two integers
    compare exactly. A Hindsight DECIMAL (a JSON string such as "12.50" or a number; its scale s
    comes from the text, else from the column type DECIMAL(p,s)) also equals a SQLite float within
    half a unit of its last place (0.005 for s = 2) plus float noise: SQLite computes decimals in
    doubles, so its float is accepted when it rounds to Hindsight's exact decimal. BOOLEAN true/
    false equals SQLite's 1/0. A number never equals a string.
 4. Row order. Without a top-level ORDER BY, rows are compared as multisets (both sides sorted by
    one total key, merged, left-overs paired within tolerance). With a top-level ORDER BY, rows are
    compared position by position. When that fails, the ORDER BY may have tied rows that either
    engine may emit in any order, so the query still passes when (a) the rows are equal as
    multisets AND (b) Hindsight's own output is sorted on the ORDER BY keys (resolved to output
    columns by ordinal, alias, output name or select-list expression; ties within tolerance; NULLs
    placed as written, else Hindsight's default: NULLS LAST for ASC, NULLS FIRST for DESC). If a key
    is not an output column, (b) cannot be checked and the query fails. This accepts every correct
    answer except one: a LIMIT cutting through tied rows legitimately selects different rows; the
    corpus therefore makes every ORDER BY under a LIMIT total, and such a query fails here.

Output: one line per query, `ok NAME (R rows, hs X ms, sqlite Y ms)` or `FAIL NAME: <first
difference, both values>`, then `N passed, M failed` as the last line; exit status 1 if any query
failed (or none ran). hs = wall time of the hindsight process (startup, loading the CSVs and the
query); sqlite = execute + fetchall in process, data already loaded.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hindsight_harness as hh  # noqa: E402
from workload_file import read_workload  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
STAMP = ".differential-gen.json"


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", required=True, help="path to the hindsight executable")
    p.add_argument("--sf", default="0.01", help="TPC-H scale factor (default 0.01)")
    p.add_argument("--skew", default=None, help="skew passed to hindsight gen (omitted if not given)")
    p.add_argument("--seed", default=None, help="seed passed to hindsight gen (omitted if not given)")
    p.add_argument("--workdir", required=True, help="data folder: generated once, then reused")
    p.add_argument("--only", default=None, help="regex: run only queries whose name or path matches")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 2,
                   help="hindsight processes run in parallel (default: cores)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per query and engine (default 120)")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="k=v",
                   help="passed to every hindsight query as --set k=v")
    p.add_argument("--workers", default=None, metavar="N,M",
                   help="run every query on Hindsight once per worker count (--set workers=N), each compared "
                        "with one SQLite run of it")
    p.add_argument("--gen-only", action="store_true", help="only make sure the data exists")
    p.add_argument("queries", nargs="*", help="query folders (default: tpch/ and extra/ beside this script)")
    return p.parse_args(argv)


# --- data --------------------------------------------------------------------------------------

def gen_args(args) -> list[str]:
    cmd = ["gen", "tpch", "--sf", str(args.sf)]
    if args.skew is not None:
        cmd += ["--skew", str(args.skew)]
    if args.seed is not None:
        cmd += ["--seed", str(args.seed)]
    return cmd


def warm_caches(binary: str, folder: str) -> None:
    """Loads every table once, so that its binary cache (docs/storage.md) exists before any test reads it: the tests
    share the folder and run in parallel, and a process that finds no cache parses the whole CSV, every column
    charged to its statement (a test under a tight memory_limit then fails on the load, not on what it tests)."""
    with open(os.path.join(folder, "catalog.json"), encoding="utf-8") as f:
        tables = [t["name"] for t in json.load(f)["tables"]]
    store = os.path.join(folder, ".warm-stats.db")
    for t in tables:
        proc = subprocess.run([binary, "query", "--data", folder, "--store", store, "--reexec", "none",
                               f"SELECT * FROM {t} LIMIT 1"], capture_output=True, text=True)
        if proc.returncode != 0:
            sys.stderr.write(proc.stderr)
            raise SystemExit(f"loading table {t} of {folder} failed (exit code {proc.returncode})")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(store + suffix):
            os.remove(store + suffix)


def ensure_data(args) -> str:
    """Generate the data into args.workdir unless it is already there; returns the folder."""
    workdir = os.path.abspath(args.workdir)
    wanted = gen_args(args)
    catalog = os.path.join(workdir, "catalog.json")
    stamp_path = os.path.join(workdir, STAMP)
    if os.path.exists(catalog):
        if os.path.exists(stamp_path):
            with open(stamp_path, encoding="utf-8") as f:
                had = json.load(f).get("gen")
            if had != wanted:
                raise SystemExit(f"{workdir} holds data from `hindsight {' '.join(had or [])}`, not "
                                 f"`hindsight {' '.join(wanted)}`: use another --workdir or delete it")
        return workdir
    if os.path.isdir(workdir) and os.listdir(workdir):
        raise SystemExit(f"{workdir} exists, is not empty and has no catalog.json: refusing to generate into it")
    partial = workdir.rstrip("/") + ".partial"
    shutil.rmtree(partial, ignore_errors=True)
    os.makedirs(os.path.dirname(partial) or ".", exist_ok=True)
    cmd = [args.bin] + wanted + ["--out", partial]
    print(f"generating: {' '.join(cmd)}", flush=True)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0 or not os.path.exists(os.path.join(partial, "catalog.json")):
        sys.stdout.write(proc.stdout)
        sys.stderr.write(proc.stderr)
        raise SystemExit(f"hindsight gen failed (exit code {proc.returncode}); no data in {partial}/catalog.json")
    warm_caches(args.bin, partial)
    with open(os.path.join(partial, STAMP), "w", encoding="utf-8") as f:
        json.dump({"gen": wanted}, f)
    if os.path.isdir(workdir):
        os.rmdir(workdir)  # empty (checked above)
    os.replace(partial, workdir)
    print(f"generated {workdir} in {time.perf_counter() - t0:.1f} s", flush=True)
    return workdir


# --- queries -----------------------------------------------------------------------------------

def discover(folders: list[str], only: str | None) -> list[tuple[str, str, str | None]]:
    """(name, path, sql): a folder's `*.sql` files (sql None: read from the file, its twin for SQLite), or the
    queries of a workload file (`-- name:` blocks, tests/differential/workload_file.py; both engines run sql)."""
    found: list[tuple[str, str, str | None]] = []
    names: dict[str, str] = {}

    def add(name: str, path: str, sql: str | None) -> None:
        if name in names:
            raise SystemExit(f"two queries are named {name}: {names[name]} and {path}")
        names[name] = path
        rel = os.path.relpath(path, HERE)
        if only and not (re.search(only, name) or re.search(only, rel)):
            return
        found.append((name, path, sql))

    for folder in folders:
        if os.path.isfile(folder) and folder.endswith(".sql"):
            try:
                for name, sql in read_workload(folder):
                    add(name, folder, sql)
            except ValueError as e:
                raise SystemExit(str(e))
            continue
        if not os.path.isdir(folder):
            raise SystemExit(f"no query folder {folder}")
        for entry in sorted(os.listdir(folder)):
            if not entry.endswith(".sql") or entry.endswith(".sqlite.sql"):
                continue
            add(entry[: -len(".sql")], os.path.join(folder, entry), None)
    return found


def read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def run_sqlite_with_deadline(conn: sqlite3.Connection, sql: str, timeout: float):
    deadline = time.monotonic() + timeout
    conn.set_progress_handler(lambda: 1 if time.monotonic() > deadline else 0, 100000)
    try:
        return hh.run_sqlite(conn, sql)
    finally:
        conn.set_progress_handler(None, 0)


def check_query(name: str, path: str, sql: str | None, hs: hh.HindsightResult, conn: sqlite3.Connection,
                timeout: float, sqlite_result=None) -> tuple[bool, str]:
    hs_sql = read(path) if sql is None else sql
    if sqlite_result is None:
        sqlite_result = sqlite_reference(conn, path, sql, timeout)
    if isinstance(sqlite_result, str):
        return False, f"FAIL {name}: {sqlite_result}"
    sq_names, sq_rows, sq_ms = sqlite_result
    if hs.contract_problems:
        return False, f"FAIL {name}: CLI contract: {'; '.join(hs.contract_problems)}"
    if not hs.ok:
        return False, f"FAIL {name}: {hs.describe_failure()} (sqlite: {len(sq_rows)} rows)"
    cmp = hh.compare_results(hs, sq_rows, len(sq_names), hh.top_level_order_by(hs_sql), hs_sql)
    if not cmp.ok:
        return False, f"FAIL {name}: {cmp.message}"
    note = f"; {cmp.note}" if cmp.note else ""
    return True, f"ok {name} ({len(hs.rows)} rows, hs {hs.wall_ms:.0f} ms, sqlite {sq_ms:.0f} ms{note})"


def sqlite_reference(conn: sqlite3.Connection, path: str, sql: str | None, timeout: float):
    """(column names, rows, ms) of the query on SQLite, or why there are none: the query's SQLite twin for a
    corpus file, the statement itself for a workload query (`sql`)."""
    twin = hh.sqlite_twin(path) if sql is None else path
    try:
        return run_sqlite_with_deadline(conn, read(twin) if sql is None else sql, timeout)
    except sqlite3.Error as e:
        why = "timed out" if "interrupt" in str(e).lower() else f"error: {e}"
        return f"sqlite {why} (in {os.path.basename(twin)}; a corpus defect)"


def main(argv=None) -> int:
    args = parse_args(argv if argv is not None else sys.argv[1:])
    if not os.path.exists(args.bin):
        print(f"no hindsight executable at {args.bin}")
        print("0 passed, 1 failed")
        return 1
    data = ensure_data(args)
    if args.gen_only:
        print(f"data ready in {data}")
        return 0
    folders = args.queries or [os.path.join(HERE, "tpch"), os.path.join(HERE, "extra")]
    queries = discover(folders, args.only)
    if not queries:
        print(f"no query matches {args.only!r}" if args.only else "no queries found")
        print("0 passed, 0 failed")
        return 1

    t0 = time.perf_counter()
    conn = hh.open_memory_sqlite(data)
    print(f"sqlite: loaded {data} in {time.perf_counter() - t0:.1f} s", flush=True)

    # One Hindsight run per query and worker count; one SQLite run per query, shared by its worker counts.
    worker_counts = [w.strip() for w in args.workers.split(",") if w.strip()] if args.workers else [None]
    runs = [(name, path, sql, w) for name, path, sql in queries for w in worker_counts]
    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(hh.run_hindsight_query, args.bin, data, file=None if sql else path, sql=sql,
                               sets=args.sets + ([f"workers={w}"] if w else []), timeout=args.timeout)
                   for _, path, sql, w in runs]
        reference: dict[tuple[str, str | None], object] = {}
        for (name, path, sql, w), fut in zip(runs, futures):
            key = (path, sql)
            if key not in reference:
                reference[key] = sqlite_reference(conn, path, sql, args.timeout)
            ok, line = check_query(name if w is None else f"{name} (workers={w})", path, sql, fut.result(), conn,
                                   args.timeout, reference[key])
            print(line, flush=True)
            passed += ok
            failed += not ok
    print(f"total {time.perf_counter() - t0:.1f} s")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
