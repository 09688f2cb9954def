#!/usr/bin/env python3
"""An oracle replay found in the store (docs/workload.md "An oracle replay found in the store").

- `replay --feedback oracle --store S` records per query its time, work and plan in S (table oracle_runs) and says
  so (oracle_source.from = same_run, recorded_in_store).
- A later replay of the same workload without an oracle mode, with that store: the oracle comparison from the store
  (oracle_source.from = store, recorded_at), over every query, and the text says where the figures came from; the
  store is not changed by it (opened read-only).
- The same workload replayed on other data: no oracle figures, one line saying the store's were measured on other
  data; another workload: none either.
- Corrupt rows (a text where a time belongs, a negative work): left out and counted, never a crash; every row
  corrupt: no figures.
"""
import hashlib
import json
import os
import sqlite3
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import cli_harness as h  # noqa: E402
from cli_harness import check  # noqa: E402


def run(*args):
    return tuple(h.run(*args, timeout=600))


def as_json(text):
    try:
        return json.loads(text)
    except ValueError:
        return {}


def digest(path):
    sha = hashlib.sha256()
    for p in (path, path + "-wal"):
        if os.path.exists(p):
            sha.update(open(p, "rb").read())
    return sha.hexdigest()


QUERIES = ("-- name: nations\nSELECT n_name, count(*) FROM nation JOIN supplier ON s_nationkey = n_nationkey "
           "GROUP BY n_name;\n"
           "-- name: orders3\nSELECT c_mktsegment, count(*) FROM customer JOIN orders ON o_custkey = c_custkey "
           "JOIN lineitem ON l_orderkey = o_orderkey WHERE l_quantity < 10 GROUP BY c_mktsegment;\n"
           "-- name: regions\nSELECT r_name FROM region ORDER BY r_name;\n")


def test(args):
    b = args.bin
    settings = ["--set", "workers=1"]
    with tempfile.TemporaryDirectory() as tmp:
        sql = os.path.join(tmp, "w.sql")
        with open(sql, "w") as f:
            f.write(QUERIES)
        w = os.path.join(tmp, "w.hsw")
        rc, _, err = run(b, "capture", "--data", args.data, "--queries", sql, "--out", w,
                         "--store", os.path.join(tmp, "cap.db"), *settings)
        check(rc == 0, f"capture: {rc} {err}")
        store = os.path.join(tmp, "s.db")

        # The oracle replay records its figures.
        rc, out, err = run(b, "replay", w, "--data", args.data, "--feedback", "oracle", "--store", store, "--format",
                           "json", "--repeat", "2", *settings)
        src = as_json(out).get("oracle_source", {})
        check(rc == 0 and src.get("from") == "same_run" and src.get("recorded_in_store") is True,
              f"oracle replay recorded: {rc} {err} {src}")
        con = sqlite3.connect(store)
        rows = con.execute("SELECT query_name, ok, ms, work, plan_hash FROM oracle_runs ORDER BY query_name").fetchall()
        con.close()
        check([r[0] for r in rows] == ["nations", "orders3", "regions"] and
              all(r[1] == 1 and r[2] > 0 and r[3] > 0 and len(r[4]) > 0 for r in rows), f"oracle_runs rows: {rows}")

        # A later replay without an oracle mode uses them, and writes nothing.
        before = digest(store)
        rc, out, err = run(b, "replay", w, "--data", args.data, "--feedback", "off", "--store", store, "--format",
                           "json", *settings)
        r = as_json(out)
        src = r.get("oracle_source", {})
        oc = r.get("oracle_comparison", {})
        check(rc == 0 and src.get("from") == "store" and src.get("queries") == 3 and
              src.get("recorded_at", "").endswith("UTC") and src.get("recorded_ms", 0) > 0,
              f"oracle from the store: {rc} {err} {src}")
        check(set(oc) == {"captured", "off"} and all(oc[k]["compared"] == 3 and oc[k]["geomean_ratio"] > 0 and
                                                     0 < oc[k]["geomean_work_ratio"] for k in oc),
              f"comparison with the stored oracle: {oc}")
        check(digest(store) == before, "a replay that only reads the oracle figures leaves the store unchanged")
        rc, text, err = run(b, "replay", w, "--data", args.data, "--feedback", "off", "--store", store, *settings)
        check(rc == 0 and "oracle figures: from the store" in text and "recorded" in text and
              "<=1.2x oracle" in text, f"text says where the oracle figures came from: {rc} {text} {err}")

        # Other data: none, and one line says why.
        rc, out, err = run(b, "replay", w, "--data", args.other_data, "--feedback", "off", "--store", store,
                           "--format", "json", *settings)
        r = as_json(out)
        src = r.get("oracle_source", {})
        check(rc == 0 and src.get("from") == "none" and "other data" in src.get("note", "") and
              "oracle_comparison" not in r, f"other data: no oracle figures: {rc} {err} {src}")
        rc, text, err = run(b, "replay", w, "--data", args.other_data, "--feedback", "off", "--store", store, *settings)
        lines = [l for l in text.splitlines() if "oracle figures" in l]
        check(rc == 0 and len(lines) == 1 and "other data" in lines[0] and "not used" in lines[0],
              f"other data: one line: {lines}")

        # Another workload (one query's text differs): none.
        sql2 = os.path.join(tmp, "w2.sql")
        with open(sql2, "w") as f:
            f.write(QUERIES.replace("ORDER BY r_name", "ORDER BY r_name DESC"))
        w2 = os.path.join(tmp, "w2.hsw")
        rc, _, err = run(b, "capture", "--data", args.data, "--queries", sql2, "--out", w2,
                         "--store", os.path.join(tmp, "cap2.db"), *settings)
        rc, out, err = run(b, "replay", w2, "--data", args.data, "--feedback", "off", "--store", store, "--format",
                           "json", *settings)
        r = as_json(out)
        src = r.get("oracle_source", {})
        check(rc == 0 and src.get("from") == "none" and "no oracle replay of this workload" in src.get("note", "") and
              "oracle_comparison" not in r, f"another workload: none: {rc} {err} {src}")
        # Other replay settings make another workload too (workers=2 times differ).
        rc, out, err = run(b, "replay", w, "--data", args.data, "--feedback", "off", "--store", store, "--format",
                           "json", "--set", "workers=2")
        check(rc == 0 and as_json(out).get("oracle_source", {}).get("from") == "none",
              f"other --set: none: {rc} {err} {out[-300:]}")

        # Corrupt rows: left out and counted; all corrupt: no figures. Never a crash.
        con = sqlite3.connect(store)
        con.execute("UPDATE oracle_runs SET ms = 'fast' WHERE query_name = 'nations'")
        con.execute("UPDATE oracle_runs SET work = -5 WHERE query_name = 'regions'")
        con.commit()
        con.close()
        rc, out, err = run(b, "replay", w, "--data", args.data, "--feedback", "off", "--store", store, "--format",
                           "json", *settings)
        r = as_json(out)
        src = r.get("oracle_source", {})
        check(rc == 0 and src.get("from") == "store" and src.get("queries") == 1 and "2 unreadable rows" in
              src.get("note", "") and r.get("oracle_comparison", {}).get("off", {}).get("compared") == 1,
              f"corrupt rows left out: {rc} {err} {src}")
        con = sqlite3.connect(store)
        con.execute("UPDATE oracle_runs SET ok = 7, plan_hash = x'00ff'")
        con.commit()
        con.close()
        rc, out, err = run(b, "replay", w, "--data", args.data, "--feedback", "off", "--store", store, "--format",
                           "json", *settings)
        src = as_json(out).get("oracle_source", {})
        check(rc == 0 and src.get("from") == "none" and "no readable row" in src.get("note", ""),
              f"every row corrupt: {rc} {err} {src}")

        # An oracle replay again replaces the figures of this workload on this data whole.
        rc, out, err = run(b, "replay", w, "--data", args.data, "--feedback", "oracle", "--store", store, "--format",
                           "json", *settings)
        con = sqlite3.connect(store)
        n = con.execute("SELECT count(*), sum(ok = 1) FROM oracle_runs").fetchone()
        con.close()
        check(rc == 0 and n == (3, 3), f"a new oracle replay replaces the rows: {rc} {n}")


if __name__ == "__main__":
    h.main(test, h.parser("--bin", "--data", "--other-data").parse_args(), "replay oracle store: ok")
