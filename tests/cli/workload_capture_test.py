#!/usr/bin/env python3
"""`hindsight capture` and `hindsight workload show` (docs/workload.md), on the skewed SF 0.01 fixture.

- The skewed workload (bench/workloads/skewed.sql) is captured: every query ok, named as in the file, with its
  attempts, a physical plan with estimated and actual rows, signatures and groups, a result digest, the tables'
  data versions and row counts; `workload show` prints it as text and as JSON.
- Capturing the same workload again (another store, 2 workers instead of 1) gives the same digests: the digest
  does not depend on the plan or the worker count.
- A failing query is recorded as failed with its typed error and capture goes on; an empty SQL file, a missing
  one, and a workload file that is corrupt, truncated or foreign are clear errors (exit code 1), never a crash.
"""
import json
import os
import sys
import tempfile

sys.dont_write_bytecode = True
import cli_harness as h  # noqa: E402
from cli_harness import check, check_equal  # noqa: E402


def run(*args):
    return h.run(*args, timeout=600)


def test(args):
    names = h.workload_names(args.workload)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "w.hsw")
        rc, _, err = run(args.bin, "capture", "--data", args.data, "--queries", args.workload, "--out", out,
                         "--store", os.path.join(tmp, "a.db"), "--set", "workers=1")
        check(rc == 0, f"capture: rc {rc}: {err}")
        check(f"captured {len(names)} queries (0 failed)" in err, f"capture summary: {err}")
        rc, text, err = run(args.bin, "workload", "show", out)
        check(rc == 0 and all(n in text for n in names), f"show text names every query: {rc} {err}")
        rc, js, err = run(args.bin, "workload", "show", out, "--format", "json")
        w = json.loads(js) if rc == 0 else {}
        qs = w.get("queries", [])
        check_equal([q["name"] for q in qs], names, "queries in file order")
        check_equal(w.get("settings"), [{"name": "workers", "value": "1"}], "capture settings")
        tables = {t["name"]: t for t in w.get("tables", [])}
        check(tables.get("lineitem", {}).get("row_count") not in (None, "0") and
              len(tables.get("lineitem", {}).get("data_version", "")) == 16, f"tables recorded: {tables.get('lineitem')}")
        for q in qs:
            n = q["name"]
            check(q["ok"] and len(q["attempts"]) >= 1 and q["attempts"][-1]["ok"], f"{n}: ok with attempts")
            check(len(q["result"]["digest"]) == 16 and int(q["result"]["row_count"]) > 0, f"{n}: digest {q['result']}")
            plan = q.get("plan") or {}
            check(plan.get("operator") and len(plan.get("signature", "")) == 32, f"{n}: plan root {plan.get('operator')}")
            nodes = list(h.plan_nodes(plan))
            scans = [x for x in nodes if x["operator"] == "TableScan"]
            check(scans and all("actual_rows" in x and "estimated_rows" in x for x in scans), f"{n}: scans with rows")
            check(any(int(x.get("group", -1)) >= 0 for x in nodes), f"{n}: nodes carry their groups")
            check(q["work"] > 0 and q["worst_q_error"] >= 1 and len(q["template_signature"]) == 32, f"{n}: measures")
        first = {q["name"]: q["result"]["digest"] for q in qs}

        # Again, on two workers with another store: the same digests.
        out2 = os.path.join(tmp, "w2.hsw")
        rc, _, err = run(args.bin, "capture", "--data", args.data, "--queries", args.workload, "--out", out2,
                         "--store", os.path.join(tmp, "b.db"), "--set", "workers=2")
        rc2, js2, _ = run(args.bin, "workload", "show", out2, "--format", "json")
        second = {q["name"]: q["result"]["digest"] for q in json.loads(js2)["queries"]} if rc == 0 and rc2 == 0 else {}
        check_equal(second, first, "digests do not depend on the plan (2 workers vs 1)")

        # A failing query is recorded; capture goes on.
        sql = os.path.join(tmp, "mixed.sql")
        with open(sql, "w") as f:
            f.write("-- name: fine\nSELECT count(*) FROM nation;\n-- name: zero\nSELECT 1 / 0 FROM nation;\n"
                    "SET workers = 2;\n-- name: unknown\nSELECT nosuch FROM nation;\nSELECT count(*) FROM region;\n")
        out3 = os.path.join(tmp, "mixed.hsw")
        rc, _, err = run(args.bin, "capture", "--data", args.data, "--queries", sql, "--out", out3,
                         "--store", os.path.join(tmp, "c.db"))
        check(rc == 0 and "captured 4 queries (2 failed)" in err, f"mixed capture: {rc} {err}")
        rc, js, _ = run(args.bin, "workload", "show", out3, "--format", "json")
        qs = json.loads(js)["queries"] if rc == 0 else []
        got = [(q["name"], q["ok"], (q.get("error") or {}).get("code")) for q in qs]
        check_equal(got, [("fine", True, None), ("zero", False, "DATA_ERROR"), ("unknown", False, "BIND_ERROR"),
                          ("q4", True, None)], "failed queries recorded")
        check(qs and qs[3]["settings"] == [{"name": "workers", "value": "2"}], f"a SET applies to what follows: {qs[-1:]}")

        # Clear errors.
        empty = os.path.join(tmp, "empty.sql")
        open(empty, "w").close()
        rc, _, err = run(args.bin, "capture", "--data", args.data, "--queries", empty, "--out", os.path.join(tmp, "e.hsw"))
        check(rc == 1 and "holds no query" in err and not os.path.exists(os.path.join(tmp, "e.hsw")), f"empty SQL: {rc} {err}")
        rc, _, err = run(args.bin, "capture", "--data", args.data, "--queries", os.path.join(tmp, "nope.sql"), "--out", out3)
        check(rc == 1 and "IO_ERROR" in err, f"missing SQL file: {rc} {err}")
        good = open(out, "rb").read()
        for label, data, expect in (("empty", b"", "empty"), ("truncated", good[: len(good) // 2], "truncated"),
                                    ("corrupt", good[:-10] + bytes([good[-10] ^ 0xFF]) + good[-9:], "checksum"),
                                    ("foreign", b"-- name: x\nSELECT 1;\n" * 3, "does not start like one")):
            path = os.path.join(tmp, f"{label}.hsw")
            with open(path, "wb") as f:
                f.write(data)
            rc, _, err = run(args.bin, "workload", "show", path)
            check(rc == 1 and "DATA_ERROR" in err and expect in err, f"{label} workload file: {rc} {err}")


if __name__ == "__main__":
    ap = h.parser("--bin")
    ap.add_argument("--data", required=True, help="gen tpch --sf 0.01 --skew 1")
    ap.add_argument("--workload", required=True, help="bench/workloads/skewed.sql")
    h.main(test, ap.parse_args(), "workload capture: ok")
