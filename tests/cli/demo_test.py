#!/usr/bin/env python3
"""`make demo` (scripts/demo.sh) tells the truth: run it on a fresh data folder and check what its output claims.

    demo_test.py --bin build/hindsight [--sf 0.1]      (from the source tree: the script reads bench/workloads)

- Step 1: attempt 1 failed with MEMORY_LIMIT_EXCEEDED, the rescue succeeded by attempt 2 at the latest, and its
  rows are those of the same query run without a memory limit.
- Step 2: the new process needed one attempt, which succeeded, with the same rows.
- Step 3: the groups lines show the two nation scans in one group.
- Step 4: the capture recorded 34 queries, none failed; the replay summary has a row per run (captured, off, on,
  oracle), 34 queries each and 0 results that differ.
- The output names no folder but the ones given to the script (no machine paths).
"""
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True
import cli_harness as h  # noqa: E402
from cli_harness import check  # noqa: E402


def section(out, number):
    """The text of step `number`: from its '== N.' heading to the next heading."""
    m = re.search(rf"^== {number}\. .*?(?=^== |\Z)", out, re.S | re.M)
    return m.group(0) if m else ""


def table_rows(text):
    """The rows of a result table: the lines after the '---+---' rule, until '(N rows)'."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if re.fullmatch(r"-+(\+-+)*", line.strip()):
            return [[c.strip() for c in l.split("|")] for l in lines[i + 1:] if l.strip() and not l.startswith("(")]
    return []


def test(args):
    b = os.path.abspath(args.bin)
    with tempfile.TemporaryDirectory() as tmp:
        data, demo = os.path.join(tmp, "data"), os.path.join(tmp, "demo")
        p = h.run("bash", "scripts/demo.sh", b, data, args.sf, demo, cwd=h.ROOT, timeout=900)
        out = p.stdout + p.stderr
        check(p.rc == 0 and p.stderr == "", f"demo.sh: rc {p.rc}, stderr {p.stderr!r}")
        print(out)

        s1 = section(out, 1)
        query = next((l.strip() for l in s1.splitlines() if l.strip().startswith("SELECT")), "")
        check(query, f"step 1 shows its query: {s1!r}")
        attempts = re.findall(r"^\s+attempt (\d+) (failed|succeeded)(.*)$", s1, re.M)
        check(len(attempts) >= 2 and attempts[0][:2] == ("1", "failed") and
              attempts[0][2].startswith(" (MEMORY_LIMIT_EXCEEDED"), f"step 1: attempt 1 failed for memory: {attempts}")
        check(attempts and attempts[-1][1] == "succeeded" and int(attempts[-1][0]) <= 2,
              f"step 1: rescued in at most 2 attempts: {attempts}")
        check("plan changed" in s1, f"step 1 says what the re-plan changed: {s1!r}")
        rescued = table_rows(s1)
        plain = h.run(b, "query", "--data", data, "--store", os.path.join(tmp, "plain.db"), "--set", "workers=2",
                      "--reexec", "none", query, timeout=300)
        truth = table_rows(plain.stdout)
        check(plain.rc == 0 and truth and rescued == truth,
              f"step 1: the rescued rows {rescued} are the unconstrained run's {truth} ({plain.stderr})")

        s2 = section(out, 2)
        check(re.search(r"^\s+1 attempt; result: ", s2, re.M) and "attempt 1 succeeded" in s2 and "failed" not in s2,
              f"step 2: one attempt, ok: {s2!r}")
        check(re.search(r"^\s+with the row sample on \(the default; a fresh store\): 1 attempt, succeeded", s2, re.M),
              f"step 2: the default estimator plans it right without any store: {s2!r}")
        m = re.search(r"result: (.*)$", s2, re.M)
        check(m and truth and m.group(1) == "; ".join(" | ".join(r) for r in truth),
              f"step 2: the same rows: {m.group(1) if m else None} vs {truth}")

        s3 = section(out, 3)
        groups = re.split(r"^\s+group ", s3, flags=re.M)
        check(any(g.count("TableScan") == 2 and g.count("table: nation") == 2 for g in groups),
              f"step 3: both nation scans in one group: {s3!r}")
        check(len(s3.splitlines()) <= 15, f"step 3 is a few lines: {len(s3.splitlines())}")

        s4 = section(out, 4)
        check("captured 34 queries (0 failed)" in s4, f"step 4: the capture: {s4!r}")
        rows = {r[0]: r for r in (l.split() for l in s4.splitlines())
                if len(r) > 1 and r[0] in ("captured", "off", "on", "oracle") and re.fullmatch(r"\d+/\d+|-", r[1])}
        check(set(rows) == {"captured", "off", "on", "oracle"}, f"step 4: a summary row per run: {sorted(rows)}")
        for mode in ("off", "on", "oracle"):
            r = rows.get(mode, [])
            check(len(r) > 2 and r[1].endswith("/34") and r[-1] == "0",
                  f"step 4: {mode}: 34 queries and 0 results that differ: {r}")
        check(len(s4.splitlines()) <= 30, f"step 4 is a summary, not every query: {len(s4.splitlines())} lines")
        check(re.search(r"^demo: done in \d+ s", out, re.M), "the closing line")

        # No machine path: every absolute path printed is under the folders the script was given.
        paths = [x for x in re.findall(r"(?<![\w.])/[\w.-]+(?:/[\w.-]+)+", out)
                 if not x.startswith((tmp, b))]
        check(not paths, f"no other absolute paths in the output: {paths}")


if __name__ == "__main__":
    ap = h.parser("--bin")
    ap.add_argument("--sf", default="0.1")
    h.main(test, ap.parse_args(), "demo: ok")
