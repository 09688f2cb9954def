#!/usr/bin/env python3
"""`hindsight stats` on stores this script makes itself (no `hindsight query` involved).

`stats clear` creates an empty store; rows go in with the stdlib sqlite3 module following the schema of
docs/stats-store.md (so the documented schema is what the store reads); then list, show, summary, export,
clear + import (the same listing again), gc, and the error paths (exit 1 for store/data errors, 2 for usage)."""
import json
import os
import re
import sqlite3
import sys
import tempfile
import time

sys.dont_write_bytecode = True
import cli_harness as h  # noqa: E402
from cli_harness import check, check_equal  # noqa: E402


def run(binary, *args):
    return h.run(binary, *args, timeout=60)


def signature_version():
    """SIGNATURE_VERSION of this build's source (rows of another version are ignored, and gc removes them)."""
    with open(os.path.join(h.ROOT, "signatures", "signature.hpp")) as f:
        return int(re.search(r"SIGNATURE_VERSION\s*=\s*(\d+)", f.read()).group(1))


VERSION = signature_version()
SIG_A = "0123456789abcdef0123456789abcdef"
SIG_B = "fedcba9876543210fedcba9876543210"
SIG_C = "00000000000000000000000000000abc"


def fill(path):
    """Three signatures: A exact seen twice, B a lower bound only, C an old join-set one."""
    now = int(time.time() * 1000)
    old = now - 40 * 86400000
    db = sqlite3.connect(path)
    db.execute("INSERT INTO queries VALUES ('q1', 'SELECT count(*) FROM t WHERE a > 5', ?, ?)", (old, now))
    db.execute("INSERT INTO queries VALUES ('q2', 'SELECT * FROM t LIMIT 3', ?, ?)", (now, now))
    for aid, q, started in ((1, "q1", old), (2, "q1", now), (3, "q2", now)):
        db.execute("INSERT INTO attempts VALUES (?, ?, 'plan', 1, 1, ?, ?)", (aid, q, started, started))
        db.execute("INSERT INTO attempt_tables VALUES (?, 't', 'v1', 1000)", (aid,))
    cols = ("id, kind, signature, signature_version, operator, canonical_text, observations, exact_observations, "
            "lower_bound_only, last_rows, sum_rows, min_rows, max_rows, max_lower_bound, last_bytes, last_peak_memory, "
            "last_build_rows, last_build_bytes, last_cpu_ns, last_wall_ns, first_seen_ms, last_seen_ms, last_attempt_id, "
            "input_count")
    rows = [
        (1, "exact", SIG_A, VERSION, "Filter", "filter(t, a > 5)", 2, 2, 0, 42, 82, 40, 42, 0, 336, 1000, 0, 0, 5, 6, old, now, 2, 1),
        (2, "exact", SIG_B, VERSION, "Limit", "limit(t, 3)", 1, 0, 1, 0, 0, 0, 0, 3, 24, 10, 0, 0, 1, 1, now, now, 3, 1),
        (3, "join_set", SIG_C, VERSION, "Join", "join{t, u}", 1, 1, 0, 7, 7, 7, 7, 0, 0, 0, 5, 50, 1, 1, old, old, 1, 1),
    ]
    for r in rows:
        db.execute(f"INSERT INTO signatures({cols}) VALUES ({', '.join('?' * len(r))})", r)
        db.execute("INSERT INTO signature_inputs VALUES (?, 't')", (r[0],))
    obs = [(1, 1, 1, 40, 0), (1, 2, 2, 42, 0), (2, 1, 3, 3, 1), (3, 1, 1, 7, 0)]
    for sid, seq, aid, n, lb in obs:
        db.execute("INSERT INTO observations VALUES (?, ?, ?, ?, ?, 0, 0, 0, 0, 0, 0, 0, 0)", (sid, seq, aid, n, lb))
    db.execute("INSERT INTO plan_history VALUES (?, 'plan', 2, 10.0, 12.0, ?, ?, 'SELECT count(*) FROM t WHERE a > 5', '')",
               (SIG_A, old, now))
    db.commit()
    db.close()


def test(args):
    b = args.bin
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "data")
        os.makedirs(data)
        store = os.path.join(data, ".hindsight", "stats.db")
        rc, out, err = run(b, "stats", "clear", "--data", data)
        check(rc == 0 and os.path.exists(store), f"clear creates the default store: {rc} {err}")
        fill(store)

        rc, out, _ = run(b, "stats", "list", "--data", data, "--format", "json")
        check(rc == 0, "list json exit 0")
        listed = json.loads(out)["signatures"]
        check([s["signature"] for s in listed][:1] == [SIG_A], f"list sorts by observations: {listed}")
        check_equal(len(listed), 3, "list shows every signature")
        b_entry = [s for s in listed if s["signature"] == SIG_B][0]
        check(b_entry["lower_bound_only"] and b_entry["rows"] == 3, f"lower-bound-only rows: {b_entry}")
        rc, out, _ = run(b, "stats", "list", "--store", store, "--sort", "recent", "--limit", "1", "--format", "json")
        check(rc == 0 and len(json.loads(out)["signatures"]) == 1, "--limit 1")
        rc, out, _ = run(b, "stats", "list", "--store", store, "--sort", "rows", "--format", "json")
        check_equal(json.loads(out)["signatures"][0]["signature"], SIG_A, "--sort rows: 42 rows first")
        rc, out, _ = run(b, "stats", "list", "--store", store)
        check(rc == 0 and out.splitlines()[0].split()[:3] == ["KIND", "SIGNATURE", "OPERATOR"], f"text list: {out}")
        check(SIG_A in out and "join_set" in out and ">=3" in out, f"text list rows: {out}")

        rc, out, _ = run(b, "stats", "show", SIG_A[:8], "--store", store, "--format", "json")
        check(rc == 0, "show exit 0")
        shown = json.loads(out)["signatures"][0]
        check(shown["operator"] == "Filter" and shown["canonical_text"] == "filter(t, a > 5)", f"show: {shown}")
        check(shown["observations"] == 2 and shown["min_rows"] == 40 and shown["last_rows"] == 42, f"figures: {shown}")
        check_equal([o["seq"] for o in shown["last_observations"]], [2, 1], "observations newest first")
        check_equal(shown["last_observations"][0]["query_text"], "SELECT count(*) FROM t WHERE a > 5", "query text")
        check_equal(shown["inputs"], [{"table": "t", "data_version": "v1", "rows": 1000}], "inputs")
        # Canonical texts carry SQL literals: bytes that are not UTF-8 must not break the JSON writer.
        db = sqlite3.connect(store)
        db.execute("UPDATE signatures SET canonical_text = CAST(x'66696c74657228ff2900' AS TEXT) WHERE id = 3")
        db.commit()
        db.close()
        rc, out, err = run(b, "stats", "list", "--store", store, "--format", "json")
        check(rc == 0 and len(json.loads(out)["signatures"]) == 3, f"json with non-UTF-8 text: {rc} {err}")
        db = sqlite3.connect(store)
        db.execute("UPDATE signatures SET canonical_text = 'join{t, u}' WHERE id = 3")
        db.commit()
        db.close()
        rc, out, _ = run(b, "stats", "show", SIG_A, "--store", store)
        check(rc == 0 and "filter(t, a > 5)" in out and "SELECT count(*) FROM t WHERE a > 5" in out, f"show text: {out}")

        rc, out, _ = run(b, "stats", "summary", "--store", store, "--format", "json")
        s = json.loads(out)
        check(rc == 0 and s["signatures"] == 3 and s["lower_bound_only"] == 1, f"summary: {s}")
        check_equal(s["signatures_by_kind"], {"exact": 2, "join_set": 1, "template": 0}, "by kind")
        check(s["schema_version"] == 3 and s["file_bytes"] > 0, f"summary schema/size: {s}")
        rc, out, _ = run(b, "stats", "summary", "--store", store)
        check(rc == 0 and "lower bound only" in out, "summary text")

        export = os.path.join(tmp, "stats.export")
        rc, out, err = run(b, "stats", "export", export, "--store", store)
        check(rc == 0 and os.path.getsize(export) > 0, f"export: {err}")
        rc, _, _ = run(b, "stats", "clear", "--store", store)
        rc, out, _ = run(b, "stats", "list", "--store", store, "--format", "json")
        check(rc == 0 and json.loads(out)["signatures"] == [], "clear empties")
        rc, out, err = run(b, "stats", "import", export, "--store", store, "--format", "json")
        check(rc == 0 and json.loads(out)["signatures_added"] == 3, f"import: {out} {err}")
        check_equal(json.loads(out)["plans"], 1, "import carries the plan history")
        rc, out, _ = run(b, "stats", "show", SIG_A, "--store", store, "--format", "json")
        plans = json.loads(out)["plans"]
        check(rc == 0 and len(plans) == 1 and plans[0]["runs"] == 2 and plans[0]["best_ms"] == 10.0,
              f"imported plan shown: {plans}")
        rc, out, _ = run(b, "stats", "list", "--store", store, "--format", "json")
        check_equal(json.loads(out)["signatures"], listed, "export -> clear -> import lists the same")

        bad = os.path.join(tmp, "bad.export")
        with open(bad, "wb") as f:
            f.write(b"\x0a\x05hello, not an export")
        rc, out, err = run(b, "stats", "import", bad, "--store", store)
        check(rc == 1 and "STORE_ERROR" in err and bad in err, f"bad import: {rc} {err}")
        rc, out, _ = run(b, "stats", "list", "--store", store, "--format", "json")
        check_equal(json.loads(out)["signatures"], listed, "bad import changes nothing")

        rc, out, _ = run(b, "stats", "gc", "--store", store, "--older-than", "30d", "--format", "json")
        check(rc == 0 and json.loads(out)["removed_signatures"] == 1, f"gc: {out}")
        rc, out, _ = run(b, "stats", "list", "--store", store, "--format", "json")
        check(SIG_C not in out and SIG_A in out, "gc removed the old join-set signature only")

        # Errors: store/data errors exit 1 (with a JSON object under --format json), usage errors 2.
        rc, out, err = run(b, "stats", "list", "--store", os.path.join(tmp, "missing.db"), "--format", "json")
        check(rc == 1 and json.loads(out)["error"]["code"] == "STORE_ERROR", f"missing store: {rc} {out}")
        text = os.path.join(tmp, "text.db")
        with open(text, "w") as f:
            f.write("not a database\n" * 100)
        rc, out, err = run(b, "stats", "summary", "--store", text)
        check(rc == 1 and "STORE_ERROR" in err, f"text file: {rc} {err}")
        rc, _, err = run(b, "stats", "show", "00000000000000000000000000000001", "--store", store)
        check(rc == 1, f"unknown signature: {rc} {err}")
        rc, _, _ = run(b, "stats", "show", "xyz!", "--store", store)
        check_equal(rc, 2, "malformed signature is a usage error: exit code")
        rc, _, _ = run(b, "stats", "list")
        check_equal(rc, 2, "no --store or --data: exit code")
        rc, _, _ = run(b, "stats", "gc", "--store", store, "--older-than", "soon")
        check_equal(rc, 2, "bad duration: exit code")
        rc, _, _ = run(b, "stats", "list", "--store", store, "--format", "xml")
        check_equal(rc, 2, "bad format: exit code")
        rc, _, _ = run(b, "stats", "frobnicate", "--store", store)
        check_equal(rc, 2, "unknown verb: exit code")
        rc, out, _ = run(b, "stats", "--help")
        check(rc == 0 and "summary" in out and "import" in out, "help")


if __name__ == "__main__":
    h.main(test, h.parser("--bin").parse_args(), "stats command: ok")
