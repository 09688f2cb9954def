#!/usr/bin/env python3
"""Feedback through the CLI, process after process, on a data folder this script makes.

- A query's observations reach a later process (the default store <data>/.hindsight/stats.db):
  the same filter and join are estimated `from runtime` / `join_set` with q-error 1.
- Stale data: the table is rewritten at another size; the old observations are not used (the
  estimate is the model's again) and the new run is observed afresh.
- `stats_scope=off` neither reads nor creates a store; `--store PATH` chooses another file.
- A corrupt, a truncated and a foreign store never fail a query: a STORE_ERROR warning on stderr
  and in the JSON "warnings", the right rows, and the file is left as it was.
- Export, then import into an empty store: the same estimates.
"""
import json
import os
import sqlite3
import sys
import tempfile

sys.dont_write_bytecode = True
import cli_harness as h  # noqa: E402
from cli_harness import check, check_equal  # noqa: E402
from cli_harness import plan_nodes as nodes  # noqa: E402


def write_table(data, name, rows):
    with open(os.path.join(data, f"{name}.csv"), "w") as f:
        f.write("a,b\n")
        for i in range(rows):
            f.write(f"{i},{i % 10}\n")


def make_data(data):
    cat = {"tables": [
        {"name": "t", "file": "t.csv", "columns": [{"name": "a", "type": "BIGINT"}, {"name": "b", "type": "BIGINT"}],
         "distribution": {"kind": "hash", "columns": ["a"]}},
        {"name": "u", "file": "u.csv", "columns": [{"name": "a", "type": "BIGINT"}, {"name": "b", "type": "BIGINT"}],
         "distribution": {"kind": "hash", "columns": ["a"]}},
    ]}
    with open(os.path.join(data, "catalog.json"), "w") as f:
        json.dump(cat, f)
    write_table(data, "t", 2000)
    write_table(data, "u", 300)


def run(binary, verb, data, sql, *extra):
    r = h.cli(binary, verb, data, sql, *extra)
    return r.rc, r.json, r.stderr


def physical(obj, operator):
    return [n for n in nodes(obj["physical"]) if n["operator"] == operator]


FILTER = "SELECT count(*) FROM t WHERE b = 3 AND a > 100"
JOIN = "SELECT count(*) FROM t, u WHERE t.a = u.a AND t.b = 3"
JOIN_REORDERED = "SELECT count(*) FROM u x, t y WHERE y.b = 3 AND x.a = y.a"


def test(args):
    b = args.bin
    with tempfile.TemporaryDirectory(prefix="hindsight-feedback-cli-") as data:
        make_data(data)
        store = os.path.join(data, ".hindsight", "stats.db")

        # Off: nothing read, nothing written.
        code, obj, err = run(b, "query", data, FILTER, "--set", "stats_scope=off")
        check(code == 0 and obj["rows"] == [[190]], f"off: {code} {obj} {err}")
        check(not os.path.exists(store), "stats_scope=off created the store")

        # Observed in one process, used by the next.
        code, obj, err = run(b, "query", data, FILTER)
        check(code == 0 and obj["rows"] == [[190]] and obj["warnings"] == [], f"first run: {obj} {err}")
        check(os.path.exists(store), "the default store was not created")
        code, obj, err = run(b, "query", data, JOIN)
        check(code == 0 and obj["rows"] == [[30]], f"join: {obj} {err}")
        code, obj, err = run(b, "explain", data, FILTER, "--analyze")
        scan = physical(obj, "TableScan")[0]
        check(scan["estimate_source"] == "runtime" and scan["estimated_rows"] == 190 and scan["q_error"] == 1,
              f"filter in a new process: {scan['estimate_source']} {scan['estimated_rows']}")
        code, obj, err = run(b, "explain", data, JOIN_REORDERED, "--analyze")
        join = physical(obj, "HashJoin")[0]
        check(join["estimate_source"] in ("join_set", "runtime") and join["estimated_rows"] == 30 and join["q_error"] == 1,
              f"reordered join: {join['estimate_source']} {join['estimated_rows']}")

        # Export, import into an empty store: the same estimates.
        export = os.path.join(data, "stats.hsstats")
        other = os.path.join(data, "other.db")
        p = h.run(b, "stats", "export", export, "--data", data)
        check(p.rc == 0, f"export: {p.stderr}")
        p = h.run(b, "stats", "import", export, "--store", other)
        check(p.rc == 0, f"import: {p.stderr}")
        estimates = lambda o: [(n["operator"], n["estimated_rows"], n["estimate_source"]) for n in nodes(o["physical"])]
        _, here, _ = run(b, "explain", data, JOIN_REORDERED)
        _, there, _ = run(b, "explain", data, JOIN_REORDERED, "--store", other)
        check_equal(estimates(there), estimates(here), "imported store: the estimates")
        check(any(src != "model" for _, _, src in estimates(there)), "imported store: every estimate from the model")

        # Stale: t rewritten at 3x its size. Its observations are not used; the new run is observed afresh.
        write_table(data, "t", 6000)
        code, obj, err = run(b, "explain", data, FILTER, "--analyze")
        scan = physical(obj, "TableScan")[0]
        check(scan["estimate_source"] == "model", f"stale observation used: {scan['estimate_source']} {scan['estimated_rows']}")
        check_equal(scan["actual_rows"], 590, "rows after the rewrite")
        code, obj, err = run(b, "explain", data, FILTER, "--analyze")
        scan = physical(obj, "TableScan")[0]
        check(scan["estimate_source"] == "runtime" and scan["estimated_rows"] == 590, f"re-observed: {scan}")

        # Damaged stores never fail a query, and are left as they were.
        for what, content in (("corrupt", b"SQLite format 3\x00" + b"\xff" * 5000),
                              ("truncated", None), ("foreign", None), ("text", b"hello, not a database\n")):
            path = os.path.join(data, f"{what}.db")
            if what == "truncated":
                with open(store, "rb") as f:
                    content = f.read()[:1500]
            if what == "foreign":
                db = sqlite3.connect(path)
                db.execute("CREATE TABLE mine (x)")
                db.execute("INSERT INTO mine VALUES (42)")
                db.commit()
                db.close()
            else:
                with open(path, "wb") as f:
                    f.write(content)
            with open(path, "rb") as f:
                before = f.read()
            code, obj, err = run(b, "query", data, FILTER, "--store", path)
            check(code == 0 and obj and obj["status"] == "ok" and obj["rows"] == [[590]], f"{what}: {code} {obj} {err}")
            check(obj is not None and any(w.startswith("STORE_ERROR") for w in obj.get("warnings", [])),
                  f"{what}: no STORE_ERROR warning in the JSON: {obj and obj.get('warnings')}")
            check("warning: STORE_ERROR" in err, f"{what}: no warning on stderr: {err!r}")
            with open(path, "rb") as f:
                check(f.read() == before, f"{what}: the store file was changed")


if __name__ == "__main__":
    h.main(test, h.parser("--bin").parse_args(), "ok")
