"""Running one query under a memory limit through the re-execution driver, and comparing its rows with an
unconstrained run's (tests/reexec/reexec_random_test.py and bench/reexec_bench.py).

A run is one `hindsight query --format json` process on a script: first `SELECT * FROM t LIMIT 1` of every
table the query names (a statement loads the columns its scans read, and a column an earlier statement of the
process loaded is not charged to a later statement's `memory_limit`; `SELECT *` loads them all), then the run's settings as SET statements, then the query. So `memory_limit` bounds what the
query's plan holds (hash tables, sort and exchange buffers, results), which is what re-planning can change,
and `peak_memory` of an unconstrained run is that plan's need. The settings come after the loads so that a
fault injected at TableScan hits the query, not the loads.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from typing import Optional

TPCH_TABLES = ("lineitem", "orders", "customer", "part", "partsupp", "supplier", "nation", "region")
# What a run may fail with: typed errors a user can act on. INTERNAL (or no JSON) is a defect.
TYPED_FAILURES = {"MEMORY_LIMIT_EXCEEDED", "TIMEOUT", "TRANSIENT"}


def corpus() -> list[tuple[str, str]]:
    """(name, SQL) of the 22 TPC-H queries (tests/differential/tpch, without the SQLite twins) and the skewed
    workload (bench/workloads/skewed.sql): what the re-execution tests and benchmark run."""
    from workload_file import read_workload  # beside this file
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    out = []
    tpch = os.path.join(here, "tpch")
    for f in sorted(os.listdir(tpch)):
        if f.endswith(".sql") and not f.endswith(".sqlite.sql"):
            with open(os.path.join(tpch, f), encoding="utf-8") as fh:
                out.append((f[:-4], fh.read()))
    return out + read_workload(os.path.join(root, "bench", "workloads", "skewed.sql"))


def tables_of(sql: str) -> list[str]:
    words = set(re.findall(r"[a-z_]+", re.sub(r"--[^\n]*", " ", sql.lower())))
    return [t for t in TPCH_TABLES if t in words]


def script(sql: str, settings: dict[str, str], warm: bool = False) -> str:
    """The preloads, then (warm) the query once with statistics off, then `SET k = 'v'` for each setting, then the
    query."""
    # Every column: a statement loads only the columns its scans read (docs/storage.md), so count(*) would load none.
    loads = "".join(f"SELECT * FROM {t} LIMIT 1;\n" for t in tables_of(sql))
    body = sql.strip().rstrip(";")
    # A warm-up neither reads nor records statistics (stats_scope = off: no scope, so no store, no regression
    # guard), and runs without the settings, so no limit: the timed statement plans as in a fresh process, but
    # its memory was faulted in once already, as the oracle's is by the counting that precedes it.
    warmup = f"SET stats_scope = 'off';\n{body};\nSET stats_scope = 'persistent';\n" if warm else ""
    sets = "".join(f"SET {k} = '{v}';\n" for k, v in settings.items())
    return loads + warmup + sets + body + "\n"


@dataclass
class Run:
    rc: Optional[int]  # None: killed after the timeout
    obj: Optional[dict]
    stderr: str
    wall_ms: float
    settings: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.rc == 0 and self.obj is not None and self.obj.get("status") == "ok"

    @property
    def attempts(self) -> list[dict]:
        return (self.obj or {}).get("attempts") or []

    @property
    def error_code(self) -> Optional[str]:
        for a in reversed(self.attempts):
            if a.get("error"):
                return a["error"].get("code")
        return None

    @property
    def final_error(self) -> Optional[dict]:
        a = self.attempts
        return a[-1].get("error") if a else None

    def peak(self) -> int:
        return max((a.get("peak_memory") or 0) for a in self.attempts) if self.attempts else 0

    def spilled(self) -> int:
        """Bytes the last attempt's operators wrote to spill files (spill = on)."""
        return (self.attempts[-1].get("spilled_bytes") or 0) if self.attempts else 0

    def engine_ms(self) -> float:
        """Planning and execution of every attempt (tables were loaded by the earlier statements)."""
        return sum((a.get("plan_ms") or 0) + (a.get("elapsed_ms") or 0) for a in self.attempts)

    def engine_cpu_ms(self) -> float:
        """CPU time (every worker thread, user and system) of the executions of every attempt: their work, which a
        loaded machine does not inflate as it inflates elapsed times. 0 from a binary that does not report it."""
        return sum(a.get("cpu_ms") or 0 for a in self.attempts)

    def describe(self) -> str:
        if self.rc is None:
            return "killed (script timeout)"
        if self.obj is None:
            tail = " | ".join(self.stderr.strip().splitlines()[-3:])
            return f"exit code {self.rc}, no JSON on stdout: {tail}"
        parts = []
        for a in self.attempts:
            e = a.get("error")
            parts.append(f"#{a['number']} " + (f"{e['code']}: {e.get('message', '')[:160]}" if e else "ok"))
        return "; ".join(parts)


def run_query(binary: str, data: str, sql: str, settings: dict[str, str], store_dir: str,
              timeout: float = 300.0, workers: Optional[int] = None, warm: bool = False) -> Run:
    """One process with a fresh store in `store_dir` (warm: the query runs once before, see script)."""
    fd, store = tempfile.mkstemp(prefix="store-", suffix=".db", dir=store_dir)
    os.close(fd)
    os.remove(store)  # the CLI creates it
    cmd = [binary, "query", "--data", data, "--format", "json", "--store", store]
    if workers is not None:
        cmd += ["--set", f"workers={workers}"]
    fd, path = tempfile.mkstemp(prefix="script-", suffix=".sql", dir=store_dir)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(script(sql, settings, warm))
    cmd += ["-f", path]
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        rc, out, err = None, "", ""
    wall = (time.perf_counter() - t0) * 1000
    for f in (store, store + "-wal", store + "-shm", path):
        if os.path.exists(f):
            os.remove(f)
    try:
        obj = json.loads(out) if out else None
    except json.JSONDecodeError:
        obj = None
    return Run(rc, obj if isinstance(obj, dict) else None, err, wall, dict(settings))


def has_top_level_order_by(sql: str) -> bool:
    import sql_order_by  # tests/differential (on sys.path of every caller)
    return sql_order_by.top_level_order_by(sql) is not None


def _close(a, b) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if isinstance(a, int) and isinstance(b, int):
            return a == b
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return a == b


def _key(row) -> tuple:
    # Doubles rounded so that summation-order noise sorts the same way; None first; types apart.
    out = []
    for v in row:
        if v is None:
            out.append((0, ""))
        elif isinstance(v, bool):
            out.append((1, int(v)))
        elif isinstance(v, (int, float)):
            out.append((2, float(f"{v:.6g}")))
        else:
            out.append((3, str(v)))
    return tuple(out)


def rows_difference(got: list, want: list, ordered: bool) -> Optional[str]:
    """None when `got` equals `want` (position by position when ordered, else as multisets; doubles within
    1e-9 relative: another plan may sum in another order); else the first difference."""
    if len(got) != len(want):
        return f"{len(got)} rows, expected {len(want)}"
    a, b = (got, want) if ordered else (sorted(got, key=_key), sorted(want, key=_key))
    for i, (r, s) in enumerate(zip(a, b)):
        if len(r) != len(s) or not all(_close(x, y) for x, y in zip(r, s)):
            return f"row {i}{'' if ordered else ' (sorted)'}: {r} expected {s}"
    return None
