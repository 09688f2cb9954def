#!/usr/bin/env python3
"""bench/workloads/tpch.sql holds exactly the 22 TPC-H queries of tests/differential/tpch, in their order and
with the same statements, and is what bench/workloads/tpch_workload.py generates (comments included).

    tpch_workload_test.py

Statements are compared as tests/differential/workload_file.py reads them (comment and blank lines dropped),
independently of the generator; then the file is compared with the generator's output byte for byte. The
comparison is also run on altered copies (a changed constant, a query missing, two swapped) to show it fails.
"""

import os
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "bench", "workloads"))
from workload_file import read_workload  # noqa: E402
import tpch_workload  # noqa: E402

WORKLOAD = os.path.join(ROOT, "bench", "workloads", "tpch.sql")
TPCH = os.path.join(HERE, "tpch")


def expected() -> list[tuple[str, str]]:
    """(name, statement) of every qNN.sql, normalized as read_workload normalizes a workload's queries."""
    out = []
    for f in sorted(os.listdir(TPCH)):
        if not f.endswith(".sql") or f.endswith(".sqlite.sql"):
            continue
        with open(os.path.join(TPCH, f), encoding="utf-8") as fh:
            code = [ln for ln in fh.read().splitlines() if ln.strip() and not ln.lstrip().startswith("--")]
        out.append((f[:-4], "\n".join(code).strip().rstrip(";").rstrip() + ";"))
    return out


def problems_of(text: str) -> list[str]:
    """What differs between a workload file's text and the TPC-H query files (empty: in sync)."""
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False, encoding="utf-8") as f:
        f.write(text)
    try:
        got = read_workload(f.name)
    except ValueError as e:
        return [str(e)]
    finally:
        os.unlink(f.name)
    want = expected()
    out = []
    if [n for n, _ in got] != [n for n, _ in want]:
        out.append(f"names {[n for n, _ in got]} != {[n for n, _ in want]}")
    want_sql = dict(want)
    for name, sql in got:
        if name in want_sql and sql != want_sql[name]:
            out.append(f"{name}: the statement differs from tests/differential/tpch/{name}.sql")
    if text != tpch_workload.generate():
        out.append("the file is not what bench/workloads/tpch_workload.py generates (run it)")
    return out


def main() -> int:
    with open(WORKLOAD, encoding="utf-8") as f:
        text = f.read()
    failures = []
    if len(expected()) != 22:
        failures.append(f"{len(expected())} TPC-H query files, expected 22")
    found = problems_of(text)
    failures += [f"tpch.sql: {p}" for p in found]

    # The comparison must catch a drift: each altered copy has to be reported.
    q06 = text.index("-- name: q06")
    altered = {
        "a changed constant": text[:q06] + text[q06:].replace("between 0.06 - 0.01", "between 0.07 - 0.01", 1),
        "a query missing": text[:q06] + text[text.index("-- name: q07"):],
        "two queries swapped": text.replace("-- name: q01", "-- name: qXX").replace("-- name: q02", "-- name: q01")
                                   .replace("-- name: qXX", "-- name: q02"),
        "a comment changed": text.replace("Pricing Summary Report Query", "Pricing Summary Query", 1),
    }
    for what, copy in altered.items():
        if copy == text:
            failures.append(f"self-check: could not make a copy with {what}")
        elif not problems_of(copy):
            failures.append(f"self-check: a copy with {what} was not reported")

    for f in failures:
        print("FAIL", f)
    print(f"{len(expected())} queries, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
