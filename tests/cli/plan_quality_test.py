#!/usr/bin/env python3
"""bench/plan_quality.py runs and reports what it must (TPC-H Q1 and Q6 on SF 0.01, one run each).

- Every (query, workers) case has both plans' times, plan hashes, row counts and works; Q1 and Q6 read one table,
  so the model's and the oracle's plans are the same plan: the same hash, the same work, ratio exactly 1.
- The work measure adds an exchange's bytes as priced per row by its cost (checked on a made-up tree).
- A plan that returns a different number of rows is a wrong answer: a wrapper binary that drops a row from the
  oracle's result makes the script say WRONG ANSWER and exit 1.
"""
import json
import os
import stat
import sys
import tempfile

sys.dont_write_bytecode = True
import cli_harness as h  # noqa: E402
from cli_harness import check, check_equal  # noqa: E402
sys.path.insert(0, os.path.join(h.ROOT, "bench"))
import plan_quality  # noqa: E402


def run_script(binary, data, out_json):
    return h.run(sys.executable, os.path.join(h.ROOT, "bench", "plan_quality.py"), "--bin", binary, "--sf-dir", data,
                 "--queries", "1,6", "--repeat", "1", "--json", out_json, timeout=300)


# Runs the real binary; from a `query` with cardinality=oracle (an option or a SET in the script) it drops the last
# row (and fixes row_count).
WRAPPER = """#!{python}
import json, subprocess, sys
proc = subprocess.run([{binary!r}] + sys.argv[1:], capture_output=True, text=True)
out = proc.stdout
script = open(sys.argv[sys.argv.index("-f") + 1]).read() if "-f" in sys.argv else sys.argv[-1]
if sys.argv[1] == "query" and ("cardinality=oracle" in sys.argv or "cardinality = oracle" in script):
    obj = json.loads(out)
    obj["rows"] = obj["rows"][:-1]
    obj["row_count"] = len(obj["rows"])
    out = json.dumps(obj)
sys.stdout.write(out)
sys.stderr.write(proc.stderr)
sys.exit(proc.returncode)
"""


def test(args):

    # The work of a made-up tree: 10 + 4 rows, the broadcast's 4 rows at 96 bytes each (2 copies of 48).
    tree = {"operator": "HashJoin", "actual_rows": 10, "actual_complete": True, "children": [
        {"operator": "Exchange", "actual_rows": 4, "estimated_rows": 5, "cost": {"network_bytes": 480.0},
         "actual_complete": True, "children": []}]}
    acc = {"rows": 0.0, "bytes": 0.0, "incomplete": 0}
    plan_quality.work_of(tree, acc)
    check_equal(acc, {"rows": 14.0, "bytes": 384.0, "incomplete": 0}, "work of the made-up tree")

    with tempfile.TemporaryDirectory(prefix="hindsight-plan-quality-") as tmp:
        out = os.path.join(tmp, "pq.json")
        p = run_script(args.bin, args.data, out)
        check(p.rc == 0, f"plan_quality.py exit code {p.rc}: {p.stdout[-2000:]} {p.stderr[-2000:]}")
        check("within 1.2x of the oracle plan" in p.stdout, f"no summary line: {p.stdout[-2000:]}")
        res = json.load(open(out)) if os.path.exists(out) else {"cases": [], "problems": ["no JSON written"]}
        check_equal(res["problems"], [], "problems")
        cases = {(c["query"], c["workers"]) for c in res["cases"]}
        check_equal(cases, {("q01", 1), ("q01", 2), ("q06", 1), ("q06", 2)}, "cases")
        for c in res["cases"]:
            where = f"{c['query']} workers={c['workers']}"
            m, o = c["model"], c["oracle"]
            check(m["ms"] > 0 and o["ms"] > 0, f"{where}: times {m['ms']} {o['ms']}")
            check(m["plan_hash"] and m["plan_hash"] == o["plan_hash"] and not c["differ"],
                  f"{where}: one table, yet the plans differ: {m['plan_hash']} {o['plan_hash']}")
            check(m["work"] > 0 and m["work"] == o["work"] and c["work_ratio"] == 1.0,
                  f"{where}: the same plan, different work: {m['work']} {o['work']}")
            check_equal(c["quality"], 1.0, f"{where}: the same plan's quality")
            check(m["row_count"] == o["row_count"] == (4 if c["query"] == "q01" else 1),
                  f"{where}: rows {m['row_count']} {o['row_count']}")
            if c["workers"] == 2:
                check(m["bytes"] > 0, f"{where}: two workers, yet no exchange moved a byte")

        # A wrong answer is flagged loudly and fails the run.
        wrapper = os.path.join(tmp, "hindsight-drops-a-row")
        with open(wrapper, "w") as f:
            f.write(WRAPPER.format(python=sys.executable, binary=os.path.abspath(args.bin)))
        os.chmod(wrapper, os.stat(wrapper).st_mode | stat.S_IEXEC)
        p = run_script(wrapper, args.data, out)
        check_equal(p.rc, 1, "a dropped row: exit code")
        check("WRONG ANSWER q01" in p.stdout and "WRONG ANSWER(S)" in p.stdout,
              f"a dropped row is not flagged: {p.stdout[-2000:]}")


if __name__ == "__main__":
    ap = h.parser("--bin")
    ap.add_argument("--data", required=True, help="TPC-H SF 0.01 folder")
    h.main(test, ap.parse_args(), "plan_quality.py: ok")
