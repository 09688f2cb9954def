#!/usr/bin/env python3
"""File-driven SQL tests (sqllogictest / datadriven style) run through the `hindsight` CLI.

    run_sql_tests.py --bin build/hindsight --data DIR [--rewrite] [--jobs N] [--only REGEX] [-v]
                     [PATH ...]        (files or folders of *.test; default: the folder of this script)

DIR is a data folder made by `hindsight gen tpch --sf 0.01` (nation and region are fixed by the
TPC-H spec at every scale factor; other tables are best checked with oracle=sqlite).

File format. Records are separated by blank lines; lines starting with '#' are comments
(`# name: tests/sql/…/file.test` names the file and must match its path). Inside a record, a line
`----` separates the SQL from its expected output. Records:

    statement ok                   the statement must succeed
    SQL

    statement error CODE           it must fail with the typed error CODE (PARSE_ERROR, BIND_ERROR,
    -- at L:C                      TYPE_ERROR, DATA_ERROR, MEMORY_LIMIT_EXCEEDED...); the optional
    SQL                            `-- at L:C` line (not sent) also requires the position L:C (1-based,
                                   in the SQL as sent): the error's "line"/"column" in the JSON when
                                   present, else "L:C" in its message or in stderr

    query TYPES [rowsort] [oracle=sqlite]
    SQL
    ----
    expected rows                  one row per line, values separated by a TAB

    plan logical|physical [estimates] [analyze]
    SQL                            EXPLAIN output, rendered from `explain --format json` as one
    ----                           line per operator: indentation (2 spaces per level), operator,
    expected plan                  then details as key=value sorted by key (ids, signatures and
                                   groups are left out); trailing whitespace ignored. `estimates`
                                   appends each operator's estimated rows and their source
                                   (`est=N from=model|runtime|join_set|template|oracle`);
                                   `analyze` runs it (explain --analyze) and appends the actual rows
                                   and q-error of each physical operator (`actual=N q=F`).
                                   `--rewrite` regenerates these blocks in place.

    groups [analyze]               The equivalence groups of the query with two members or more
    SQL                            (`groups --format json`), one line per group: its members as
    ----                           `kind:label` in member order, labels without `#id` and
    expected groups                signatures as `signature`; then `refused: ...` lines. With
                                   `analyze` the query runs and groups show their stats records.

Every file runs with a stats store of its own (`--store`, a fresh file per run of the file), so
what a record's estimates learned from the observations of the records before it in the same file
is deterministic.

    set k=v                        --set k=v for the following records of the file (one or more
                                   lines); `reset k` drops one setting, `reset` all of them

TYPES has one letter per column, checked against the JSON column types: I = BIGINT or INTEGER,
R = DOUBLE, N = DECIMAL(p,s), T = VARCHAR, D = DATE, B = BOOLEAN, ? = any. Expected values: NULL
spelled NULL, (empty) for the empty string, booleans true/false, dates YYYY-MM-DD, decimals with
exactly their scale ("12.50"); R values compare as numbers with relative tolerance 1e-9, all other
values compare as text. Rows compare in order, or sorted with `rowsort`. With `oracle=sqlite` the
same SQL also runs on SQLite over the same data and the results must match under the rules of
tests/differential/run_differential.py (ordered when the query has a top-level ORDER BY, else as
multisets; `rowsort` forces multisets); the `----` block is then optional.

Output: one line per failing record (`FILE:LINE: what`), then `N passed, M failed` as the last
line; exit status 1 on any failure or when no record ran.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import tempfile
import sys
import threading
from dataclasses import dataclass, field
from typing import Any, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "differential"))
import hindsight_harness as hh  # noqa: E402

TYPE_LETTERS = {
    "I": lambda t: t in ("BIGINT", "INTEGER"),
    "R": lambda t: t == "DOUBLE",
    "N": lambda t: hh.is_decimal_type(t),
    "T": lambda t: t == "VARCHAR" or t.startswith("VARCHAR("),
    "D": lambda t: t == "DATE",
    "B": lambda t: t == "BOOLEAN",
    "?": lambda t: True,
}


@dataclass
class Record:
    kind: str  # statement_ok | statement_error | query | plan | groups | set | reset
    line: int  # 1-based line of the record header
    header: list[str]
    sql: str = ""
    sql_line: int = 0
    expected: Optional[list[str]] = None  # lines after ----, None when there is no ---- block
    expected_start: int = 0  # index (0-based) in the file's lines of the first expected line
    expected_end: int = 0  # index one past the last expected line
    error_code: str = ""
    error_pos: Optional[tuple[int, int]] = None
    types: str = ""
    rowsort: bool = False
    oracle: Optional[str] = None
    plan_kind: str = ""
    estimates: bool = False
    analyze: bool = False
    settings: list[str] = field(default_factory=list)


class FormatError(Exception):
    pass


def parse_file(path: str) -> tuple[list[str], list[Record]]:
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    records: list[Record] = []
    i, n = 0, len(lines)
    while i < n:
        if lines[i].strip() == "" or lines[i].startswith("#"):
            i += 1
            continue
        start = i
        while i < n and lines[i].strip() != "":
            i += 1
        block = lines[start:i]  # a record: consecutive non-blank lines
        records.append(parse_record(path, start, block))
    return lines, records


def parse_record(path: str, start: int, block: list[str]) -> Record:
    header = block[0].split()
    where = f"{path}:{start + 1}"
    body = [l for l in block[1:] if not l.startswith("#")]  # '#' lines are comments in a record too
    kind = header[0].lower()
    if kind in ("set", "reset"):
        settings = [" ".join(header[1:])] + [l.strip() for l in body]
        rec = Record(kind, start + 1, header, settings=[s for s in settings if s])
        for s in rec.settings:
            if kind == "set" and not re.fullmatch(r"[A-Za-z_][\w.]*\s*=\s*\S.*", s):
                raise FormatError(f"{where}: expected `set k=v`, got {s!r}")
        return rec
    rec = Record(kind, start + 1, header)
    try:
        sep = block.index("----")
    except ValueError:
        sep = -1
    sql_lines = [l for l in (block[1:sep] if sep >= 0 else block[1:]) if not l.startswith("#")]
    rec.sql_line = start + 2
    if kind == "statement":
        if len(header) < 2 or header[1] not in ("ok", "error"):
            raise FormatError(f"{where}: expected `statement ok` or `statement error CODE`")
        if header[1] == "ok":
            rec.kind = "statement_ok"
        else:
            if len(header) != 3:
                raise FormatError(f"{where}: `statement error` needs exactly one error code")
            rec.kind = "statement_error"
            rec.error_code = header[2]
            if sql_lines and re.match(r"^--\s*at\s+\d+:\d+\s*$", sql_lines[0]):
                m = re.match(r"^--\s*at\s+(\d+):(\d+)", sql_lines[0])
                rec.error_pos = (int(m.group(1)), int(m.group(2)))
                sql_lines = sql_lines[1:]
                rec.sql_line += 1
        if sep >= 0:
            raise FormatError(f"{where}: a statement record has no ---- block")
    elif kind == "query":
        if len(header) < 2:
            raise FormatError(f"{where}: `query TYPES [rowsort] [oracle=sqlite]`")
        rec.types = header[1]
        bad = [c for c in rec.types if c not in TYPE_LETTERS]
        if bad:
            raise FormatError(f"{where}: unknown type letter(s) {''.join(bad)!r} (use I R N T D B ?)")
        for opt in header[2:]:
            if opt == "rowsort":
                rec.rowsort = True
            elif opt == "nosort":
                rec.rowsort = False
            elif opt.startswith("oracle="):
                rec.oracle = opt.split("=", 1)[1]
                if rec.oracle != "sqlite":
                    raise FormatError(f"{where}: only oracle=sqlite is supported")
            else:
                raise FormatError(f"{where}: unknown query option {opt!r}")
        if sep < 0 and rec.oracle is None:
            raise FormatError(f"{where}: a query record needs a ---- block (or oracle=sqlite)")
    elif kind == "plan":
        if len(header) < 2 or header[1] not in ("logical", "physical") or \
                any(o not in ("estimates", "analyze") for o in header[2:]):
            raise FormatError(f"{where}: expected `plan logical|physical [estimates] [analyze]`")
        rec.plan_kind = header[1]
        rec.estimates = "estimates" in header[2:]
        rec.analyze = "analyze" in header[2:]
        if sep < 0:
            raise FormatError(f"{where}: a plan record needs a ---- block (may be empty; see --rewrite)")
    elif kind == "groups":
        if any(o != "analyze" for o in header[1:]):
            raise FormatError(f"{where}: expected `groups [analyze]`")
        rec.analyze = "analyze" in header[1:]
        if sep < 0:
            raise FormatError(f"{where}: a groups record needs a ---- block (may be empty; see --rewrite)")
    else:
        raise FormatError(f"{where}: unknown record {header[0]!r}")
    rec.sql = "\n".join(sql_lines).strip()
    if not rec.sql:
        raise FormatError(f"{where}: no SQL")
    if sep >= 0:
        rec.expected = block[sep + 1:]
        rec.expected_start = start + sep + 1
        rec.expected_end = start + len(block)
    return rec


# --- rendering -----------------------------------------------------------------------------

def render_value(v: Any, hs_type: str) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "true" if v else "false"
    if hh.is_decimal_type(hs_type):
        if isinstance(v, str):
            return v
        scale = hh.decimal_scale(hs_type)
        return f"{v:.{scale}f}" if scale is not None and hh.is_number(v) else str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return v if v != "" else "(empty)"
    return str(v)


def cells_equal(actual: str, expected: str, hs_type: str) -> bool:
    if actual == expected:
        return True
    if hs_type == "DOUBLE":
        try:
            return hh.numbers_close(float(actual), float(expected))
        except ValueError:
            return False
    return False


def number_text(x: Any) -> str:
    if isinstance(x, float):
        return f"{x:.0f}" if x.is_integer() else f"{x:.2f}"
    return str(x)


def render_plan(node: dict, depth: int = 0, estimates: bool = False, analyze: bool = False) -> list[str]:
    details = node.get("details") or {}
    parts = [str(node.get("operator", "?"))]
    for key in sorted(details):
        v = details[key]
        parts.append(f"{key}={v if isinstance(v, str) else json.dumps(v, sort_keys=True)}")
    if estimates:
        parts.append(f"est={number_text(node.get('estimated_rows'))} from={node.get('estimate_source')}")
    if analyze and "q_error" in node:
        parts.append(f"actual={number_text(node.get('actual_rows'))} q={number_text(node.get('q_error'))}")
    out = ["  " * depth + " ".join(parts)]
    for child in node.get("children") or []:
        out += render_plan(child, depth + 1, estimates, analyze)
    return out


def render_groups(obj: dict) -> list[str]:
    out = []
    for g in obj.get("groups") or []:
        members = []
        for m in g.get("members") or []:
            kind = m.get("kind", "?")
            label = "" if kind == "signature" else re.sub(r" #\d+", "", str(m.get("label", "")))
            members.append(kind if not label else f"{kind}:{label}")
        out.append(" | ".join(members))
    for r in obj.get("refused_links") or []:
        out.append(f"refused: {r.get('stage')}: {r.get('reason')}")
    return out


# --- running -------------------------------------------------------------------------------

class SqliteOracle:
    """One in-memory SQLite copy of the data folder, loaded on first use, shared by all files."""

    def __init__(self, data: str):
        self.data = data
        self.lock = threading.Lock()
        self.conn = None

    def run(self, sql: str):
        with self.lock:
            if self.conn is None:
                import sqlite3
                self.conn = sqlite3.connect(":memory:", check_same_thread=False)
                hh.configure_sqlite(self.conn)
                hh.load_into_sqlite(self.conn, self.data)
            return hh.run_sqlite(self.conn, sql)


@dataclass
class Outcome:
    passed: int = 0
    failures: list[str] = field(default_factory=list)
    rewrites: dict[int, tuple[int, list[str]]] = field(default_factory=dict)


def run_explain(args, sql: str, sets: list[str], store: str, verb: str = "explain", analyze: bool = False):
    tmp = hh.sql_file_if_needed(sql)
    extra = ["--store", store] + (["--analyze"] if analyze else [])
    cmd = hh.hindsight_command(args.bin, verb, args.data, sets, sql=None if tmp else sql, file=tmp, extra=extra)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return None, f"explain timed out after {args.timeout:.0f} s"
    finally:
        if tmp:
            os.remove(tmp)
    try:
        obj = json.loads(proc.stdout)
    except json.JSONDecodeError:
        tail = " | ".join(proc.stderr.strip().splitlines()[-3:])
        return None, f"explain exit code {proc.returncode}, no JSON on stdout; stderr: {tail}"
    if proc.returncode != 0 or not isinstance(obj, dict):
        return None, f"{verb} failed (exit code {proc.returncode}): {json.dumps(obj)[:300]}"
    return obj, None


def check_record(args, rec: Record, sets: list[str], oracle: SqliteOracle,
                 store: str) -> tuple[Optional[str], Optional[list[str]]]:
    """(failure message or None, replacement expected block for --rewrite or None)."""
    if rec.kind in ("plan", "groups"):
        verb = "explain" if rec.kind == "plan" else "groups"
        obj, err = run_explain(args, rec.sql, sets, store, verb, rec.analyze)
        if err:
            return err, None
        if rec.kind == "groups":
            actual = render_groups(obj)
        else:
            node = obj.get(rec.plan_kind)
            if not isinstance(node, dict):
                return f"explain JSON has no {rec.plan_kind!r} plan", None
            actual = render_plan(node, 0, rec.estimates, rec.analyze)
        expected = [l.rstrip() for l in rec.expected or []]
        while expected and expected[-1] == "":
            expected.pop()
        if [l.rstrip() for l in actual] == expected:
            return None, None
        if args.rewrite:
            return None, actual
        diff = next((i for i, (a, e) in enumerate(zip(actual, expected)) if a.rstrip() != e), min(len(actual), len(expected)))
        got = actual[diff] if diff < len(actual) else "<end of plan>"
        want = expected[diff] if diff < len(expected) else "<end of plan>"
        what = f"{rec.plan_kind} plan" if rec.kind == "plan" else "groups"
        return f"{what} differ at line {diff + 1}: got {got.strip()!r}, expected {want.strip()!r}", None

    res = hh.run_hindsight_query(args.bin, args.data, sql=rec.sql, sets=sets, timeout=args.timeout,
                                 extra=["--store", store])
    if res.status in ("crash", "timeout"):
        return res.describe_failure(), None
    if rec.kind == "statement_error":
        if res.ok:
            return f"expected {rec.error_code}, but the statement succeeded ({len(res.rows)} rows)", None
        if res.error_code != rec.error_code:
            return f"expected {rec.error_code}, got {res.describe_failure()}", None
        if rec.error_pos:
            pos = f"{rec.error_pos[0]}:{rec.error_pos[1]}"
            text = f"{res.error_message or ''}\n{res.stderr}"
            if res.error_position is not None:
                if res.error_position != rec.error_pos:
                    return (f"{rec.error_code} as expected, but at {res.error_position[0]}:{res.error_position[1]}, "
                            f"expected {pos}: {(res.error_message or '').strip()[:200]!r}"), None
            elif not re.search(rf"(?<![\d:]){re.escape(pos)}(?!\d)", text):
                return f"{rec.error_code} as expected, but position {pos} is in neither the message nor stderr: " \
                       f"{(res.error_message or '').strip()[:200]!r}", None
        if res.contract_problems:
            return f"CLI contract: {'; '.join(res.contract_problems)}", None
        return None, None
    if res.contract_problems:
        return f"CLI contract: {'; '.join(res.contract_problems)}", None
    if not res.ok:
        return res.describe_failure(), None
    if rec.kind == "statement_ok":
        return None, None

    # query
    types = res.column_types
    if len(types) != len(rec.types):
        return f"expected {len(rec.types)} columns ({rec.types}), got {len(types)}: {types}", None
    for i, (letter, t) in enumerate(zip(rec.types, types)):
        if not TYPE_LETTERS[letter](t.upper()):
            return f"column {i + 1} ({res.column_names[i]}) has type {t}, expected {letter}", None
    if rec.expected is not None:
        actual = [[render_value(v, t) for v, t in zip(row, types)] for row in res.rows]
        expected = [l.split("\t") for l in rec.expected]
        bad_width = next((k for k, e in enumerate(expected) if len(e) != len(types)), None)
        if bad_width is not None:
            return (f"expected row {bad_width + 1} has {len(expected[bad_width])} tab-separated values, "
                    f"the query returns {len(types)} columns"), None
        if rec.rowsort:
            actual.sort()
            expected.sort()
        if len(actual) != len(expected):
            shown = " | ".join("\t".join(r) for r in actual[:5])
            return f"expected {len(expected)} rows, got {len(actual)}: {shown!r}" + (" ..." if len(actual) > 5 else ""), None
        for r, (a, e) in enumerate(zip(actual, expected)):
            for c, (av, ev, t) in enumerate(zip(a, e, types)):
                if not cells_equal(av, ev, t):
                    return (f"row {r + 1}{' (after rowsort)' if rec.rowsort else ''} col {c + 1}: "
                            f"got {av!r}, expected {ev!r}"), None
    if rec.oracle == "sqlite":
        try:
            names, sq_rows, _ = oracle.run(rec.sql)
        except Exception as e:  # sqlite3.Error and load errors alike
            return f"sqlite oracle failed: {e}", None
        keys = None if rec.rowsort else hh.top_level_order_by(rec.sql)
        cmp = hh.compare_results(res, sq_rows, len(names), keys, rec.sql)
        if not cmp.ok:
            return f"differs from sqlite: {cmp.message}", None
    return None, None


def _run_records(args, rel: str, records: list[Record], sets: dict[str, str], oracle: SqliteOracle, store: str,
                 out: Outcome) -> None:
    for rec in records:
        if rec.kind == "set":
            for s in rec.settings:
                k, v = s.split("=", 1)
                sets[k.strip()] = v.strip()
            continue
        if rec.kind == "reset":
            if rec.settings:
                for k in rec.settings:
                    sets.pop(k.strip(), None)
            else:
                sets.clear()
            continue
        msg, rewrite = check_record(args, rec, [f"{k}={v}" for k, v in sets.items()], oracle, store)
        if msg:
            out.failures.append(f"{rel}:{rec.line}: {msg}")
        else:
            out.passed += 1
            if args.verbose:
                print(f"ok {rel}:{rec.line}", flush=True)
        if rewrite is not None:
            out.rewrites[rec.expected_start] = (rec.expected_end, rewrite)


def run_file(args, path: str, oracle: SqliteOracle) -> Outcome:
    out = Outcome()
    rel = os.path.relpath(os.path.abspath(path), REPO)
    if rel.startswith(".."):
        rel = path
    try:
        lines, records = parse_file(path)
    except (FormatError, OSError) as e:
        out.failures.append(f"{rel}: {e}")
        return out
    declared = next((l.split(":", 1)[1].strip() for l in lines if l.startswith("# name:")), None)
    if declared and not rel.startswith("/") and declared != rel:
        out.failures.append(f"{rel}:1: `# name: {declared}` does not match the file's path")
    sets: dict[str, str] = {}
    store_dir = tempfile.mkdtemp(prefix="hindsight-sql-test-")
    store = os.path.join(store_dir, "stats.db")
    try:
        _run_records(args, rel, records, sets, oracle, store, out)
    finally:
        shutil.rmtree(store_dir, ignore_errors=True)
    if out.rewrites:
        new, i = [], 0
        for start in sorted(out.rewrites):
            end, block = out.rewrites[start]
            new += lines[i:start] + block
            i = end
        new += lines[i:]
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(new))
        print(f"rewrote {len(out.rewrites)} plan/groups block(s) in {rel}", flush=True)
    return out


def collect(paths: list[str], only: Optional[str]) -> list[str]:
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                files += [os.path.join(root, n) for n in names if n.endswith(".test")]
        elif os.path.isfile(p):
            files.append(p)
        else:
            raise SystemExit(f"no such test file or folder: {p}")
    files = sorted(set(files))
    return [f for f in files if not only or re.search(only, f)]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", required=True, help="path to the hindsight executable")
    p.add_argument("--data", required=True, help="data folder (hindsight gen tpch --sf 0.01)")
    p.add_argument("--rewrite", action="store_true", help="regenerate the expected blocks of plan records")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 2, help="files run in parallel")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per statement (default 120)")
    p.add_argument("--only", default=None, help="regex on the file path")
    p.add_argument("-v", "--verbose", action="store_true", help="also print passing records")
    p.add_argument("paths", nargs="*", help="*.test files or folders (default: this script's folder)")
    args = p.parse_args(argv if argv is not None else sys.argv[1:])

    if not os.path.exists(os.path.join(args.data, "catalog.json")):
        print(f"no data in {args.data} (catalog.json missing): run `hindsight gen tpch --sf 0.01 --out {args.data}`")
        print("0 passed, 1 failed")
        return 1
    files = collect(args.paths or [HERE], args.only)
    if not files:
        print("no .test files found")
        print("0 passed, 0 failed")
        return 1
    oracle = SqliteOracle(args.data)
    passed, failures = 0, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for outcome in pool.map(lambda f: run_file(args, f, oracle), files):
            passed += outcome.passed
            for line in outcome.failures:
                print(line, flush=True)
            failures += outcome.failures
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
