#!/usr/bin/env python3
"""`hindsight capture --from-store` (docs/workload.md): a workload rebuilt from the queries a stats store recorded.

    capture_from_store_test.py --bin build/hindsight --data build/testdata/tpch-sf0.01-skew1

Three queries run with one store (one of them named by a `-- name:` line, one run twice, and a script of two
statements whose first repeats an earlier query), then `capture --from-store`: `workload show` lists the three
texts in the order first seen, named s1, by_region, s2, each ok with the rows a plain run gives; the store read is
not changed. Errors: a missing store (IO_ERROR naming it), a file that is not a store and a SQLite database of
other tables (DATA_ERROR naming them), nothing recorded since --since, and the usage errors (exit 2).
"""
import hashlib
import json
import os
import sqlite3
import sys
import tempfile

sys.dont_write_bytecode = True
import cli_harness as h  # noqa: E402
from cli_harness import check, check_equal  # noqa: E402


def run(*args):
    return h.run(*args, timeout=300)


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test(args):
    b, d = args.bin, args.data
    with tempfile.TemporaryDirectory() as tmp:
        store = os.path.join(tmp, "s.db")
        texts = ["SELECT count(*) FROM nation",
                 "-- name: by_region\nSELECT r_name, count(*) FROM region JOIN nation ON n_regionkey = r_regionkey "
                 "GROUP BY r_name ORDER BY r_name",
                 "SELECT count(*) FROM nation; SELECT max(s_acctbal) FROM supplier"]
        for t in texts + texts[:1]:
            rc, _, err = run(b, "query", "--data", d, "--store", store, t)
            check(rc == 0, f"query {t!r}: {err}")
        before = digest(store)
        out = os.path.join(tmp, "w.hsw")
        rc, _, err = run(b, "capture", "--data", d, "--from-store", store, "--out", out,
                         "--store", os.path.join(tmp, "c.db"))
        check(rc == 0 and "captured 3 queries (0 failed)" in err, f"capture --from-store: {rc} {err}")
        check("the same query as an earlier one" in err, f"the repeated query is left out, saying so: {err}")
        check(digest(store) == before, "the store read is not changed")
        rc, js, err = run(b, "workload", "show", out, "--format", "json")
        w = json.loads(js) if rc == 0 else {}
        got = [(q.get("name"), q.get("sql"), q.get("ok")) for q in w.get("queries", [])]
        want = [("s1", "SELECT count(*) FROM nation", True),
                ("by_region", texts[1].split("\n", 1)[1], True),
                ("s2", "SELECT max(s_acctbal) FROM supplier", True)]
        check_equal(got, want, "workload show lists the three texts, in order, named")
        check_equal(w.get("queries_file"), "store:" + store, "queries_file names the store")
        rows = [int(q.get("result", {}).get("row_count", -1)) for q in w.get("queries", [])]
        check_equal(rows, [1, 5, 1], "row counts")
        rc, text, _ = run(b, "workload", "show", out)
        check(rc == 0 and all(n in text for n in ("s1", "by_region", "s2")), f"text show: {text}")

        # Errors.
        missing = os.path.join(tmp, "none.db")
        rc, _, err = run(b, "capture", "--data", d, "--from-store", missing, "--out", os.path.join(tmp, "x.hsw"))
        check(rc == 1 and "IO_ERROR" in err and missing in err and not os.path.exists(missing),
              f"missing store: {rc} {err}")
        notdb = os.path.join(tmp, "q.sql")
        with open(notdb, "w") as f:
            f.write("SELECT 1;\n")
        rc, _, err = run(b, "capture", "--data", d, "--from-store", notdb, "--out", os.path.join(tmp, "x.hsw"))
        check(rc == 1 and "DATA_ERROR" in err and notdb in err and "not a Hindsight stats store" in err,
              f"a text file: {rc} {err}")
        other = os.path.join(tmp, "other.db")
        con = sqlite3.connect(other)
        con.execute("CREATE TABLE t(x)")
        con.commit()
        con.close()
        rc, _, err = run(b, "capture", "--data", d, "--from-store", other, "--out", os.path.join(tmp, "x.hsw"))
        check(rc == 1 and "DATA_ERROR" in err and other in err, f"another SQLite database: {rc} {err}")
        check(not os.path.exists(os.path.join(tmp, "x.hsw")), "no workload file written on an error")
        # --since: a copy of the store whose queries were last seen two days ago, and one of them today.
        aged = os.path.join(tmp, "aged.db")
        src, dst = sqlite3.connect(store), sqlite3.connect(aged)
        src.backup(dst)
        src.close()
        dst.execute("UPDATE queries SET first_seen_ms = first_seen_ms - 2 * 86400000, "
                    "last_seen_ms = last_seen_ms - 2 * 86400000")
        dst.commit()
        dst.close()
        rc, _, err = run(b, "capture", "--data", d, "--from-store", aged, "--since", "1d", "--out",
                         os.path.join(tmp, "x.hsw"))
        check(rc == 1 and "DATA_ERROR" in err and "recorded no query to capture since 1d ago" in err,
              f"--since 1d, nothing that recent: {rc} {err}")
        rc, _, err = run(b, "capture", "--data", d, "--from-store", aged, "--since", "3d", "--out",
                         os.path.join(tmp, "h.hsw"))
        check(rc == 0 and "captured 3 queries" in err, f"--since 3d: {rc} {err}")
        con = sqlite3.connect(aged)
        con.execute("UPDATE queries SET last_seen_ms = last_seen_ms + 2 * 86400000 WHERE text LIKE '%by_region%'")
        con.commit()
        con.close()
        rc, _, err = run(b, "capture", "--data", d, "--from-store", aged, "--since", "1d", "--out",
                         os.path.join(tmp, "h1.hsw"))
        rc2, js, _ = run(b, "workload", "show", os.path.join(tmp, "h1.hsw"), "--format", "json")
        names = [q.get("name") for q in json.loads(js).get("queries", [])] if rc == rc2 == 0 else []
        check(names == ["by_region"], f"--since 1d: only the query seen today: {rc} {err} {names}")
        for bad, what in ((["--since", "1x", "--from-store", store], "not a duration"),
                          (["--since", "1h", "--queries", notdb], "--since needs --from-store"),
                          ([], "give one of --queries"),
                          (["--queries", notdb, "--from-store", store], "excludes")):
            rc, _, err = run(b, "capture", "--data", d, "--out", os.path.join(tmp, "y.hsw"), *bad)
            check(rc == 2 and what in err, f"usage {bad}: {rc} {err}")


if __name__ == "__main__":
    h.main(test, h.parser("--bin", "--data").parse_args(), "capture --from-store: ok")
