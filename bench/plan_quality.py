#!/usr/bin/env python3
"""How good are the model's plans? TPC-H Q1–Q22, the model's plan against the plan made with true cardinalities
(`make bench`).

    plan_quality.py --bin build/hindsight --sf-dir DIR [--queries 1,6] [--workers 1,2] [--repeat 3]
                    [--query-dir tests/differential/tpch] [--timeout 300] [--compare-bin OLD/hindsight]
                    [--json OUT.json] [--no-warm]

- Two plans per query and worker count: the model's (`--set stats_scope=off`: no observed statistics) and the
  oracle's (`--set cardinality=oracle`, stats off too: every input and connected sub-join counted before planning,
  docs/feedback.md). Both run as `hindsight query --format json --reexec none` (one attempt, so the time is the
  first plan's), one process per timed run, the runs of the two plans (and of --compare-bin) alternating. The time is the
  engine's `elapsed_ms`, the median of --repeat runs; planning is left out because the oracle's counting is
  planning (the time its counting took is printed as "count ms", '+' when some counts ran past
  oracle_subplan_timeout or the cap and were left to the model).
- Warm-up: each timed process runs the query once under the model before the timed statement (`Q; Q`, and
  `Q; SET cardinality = oracle; Q`), because the oracle's counting runs the same scans and joins first: timed
  cold, the model's plan pays for faulting in the process's memory and the oracle's does not (the same plan then
  measured about 1.2x slower under the model at SF 0.1). --no-warm times fresh processes instead.
- Work, a measure that does not rest on a timer: one `explain --analyze --format json` run per plan, the sum of
  every physical operator's actual output rows (CTEs included) plus the bytes its exchanges moved, weighted as the
  cost model weighs them (`network_byte_weight` 0.05 per byte, physical_cost.hpp: a 40-byte row ≈ 2 row-touches).
  An exchange's bytes are its actual rows times the bytes per row its cost priced (network_bytes / estimated
  rows, broadcast copies included), so the measure is deterministic: the same plan gives the same work in every run.
  Scans count the rows they output (both plans read the same tables in full).
- Per query: both times, model/oracle (> 1: true cardinalities give a faster plan), whether the plans differ
  (`plan_hash`), both works and their ratio. The summary: the share of queries whose model plan is within 1.2×
  of the oracle plan's time, and by work; the geometric means; the worst queries. Where the two plans are the
  same plan, the summary takes the time ratio as 1.0 (what the timings differ by is noise) and says what the raw
  timings give too.
- The two plans must return the same rows: a different row count is a wrong answer and is flagged loudly; a
  difference in values is listed as well (ties under a LIMIT can legitimately differ, so look before blaming).
  Failures (errors, timeouts, crashes) are listed, never hidden; the exit code is 1 when there was any.
- --compare-bin times an older build beside (e.g. one from before a planner change): its figures follow in
  the same table, and the summary gives both.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(ROOT, "tests", "differential"))
import hindsight_harness as hh  # noqa: E402

NETWORK_BYTE_WEIGHT = 0.05  # CostModelOptions::network_byte_weight (planner/physical/physical_cost.hpp)
WITHIN = 1.2  # "close to the best plan": the model's plan at most 1.2x the oracle's
NOTES: list[str] = []  # not failures: said after the summary
MODES = (("model", ("stats_scope=off",)), ("oracle", ("stats_scope=off", "cardinality=oracle")))


def query_files(query_dir: str, wanted: str | None) -> list[str]:
    names = sorted(f for f in os.listdir(query_dir)
                   if f.startswith("q") and f.endswith(".sql") and not f.endswith(".sqlite.sql"))
    if wanted:
        keep = {f"q{int(q):02d}.sql" for q in wanted.split(",") if q.strip()}
        names = [n for n in names if n in keep]
    return [os.path.join(query_dir, n) for n in names]


def work_of(node: dict, acc: dict) -> None:
    """Adds a physical tree's rows and exchange bytes into acc (rows, bytes, incomplete)."""
    rows = node.get("actual_rows")
    if isinstance(rows, (int, float)):
        acc["rows"] += rows
        if node.get("actual_complete") is False:
            acc["incomplete"] += 1
        if node.get("operator") == "Exchange":
            cost = node.get("cost") or {}
            est = node.get("estimated_rows") or 0
            per_row = cost.get("network_bytes", 0.0) / est if est > 0 else 16.0
            acc["bytes"] += rows * per_row
    for c in node.get("children") or []:
        work_of(c, acc)


def measure_work(binary: str, args, path: str, workers: int, sets) -> dict | str:
    """{rows, bytes, work, incomplete, worst_q, oracle} of one EXPLAIN ANALYZE run, or an error string."""
    cmd = [binary, "explain", "--analyze", "--data", args.sf_dir, "--format", "json", "--reexec", "none",
           "--set", f"workers={workers}", "-f", path]
    for s in sets:
        cmd += ["--set", s]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return f"explain --analyze timed out after {args.timeout:.0f} s"
    except OSError as e:
        return f"cannot run {binary}: {e}"
    try:
        obj = json.loads(proc.stdout)
    except json.JSONDecodeError:
        tail = " | ".join(proc.stderr.strip().splitlines()[-3:])
        return f"explain --analyze exit code {proc.returncode}, no JSON: {tail}"
    if proc.returncode != 0 or "physical" not in obj:
        return f"explain --analyze exit code {proc.returncode}: {json.dumps(obj)[:300]}"
    acc = {"rows": 0.0, "bytes": 0.0, "incomplete": 0}
    for tree in [obj["physical"]] + [c["physical"] for c in obj.get("ctes") or []]:
        work_of(tree, acc)
    acc["work"] = acc["rows"] + NETWORK_BYTE_WEIGHT * acc["bytes"]
    acc["oracle"] = obj.get("oracle")
    return acc


def normalized_rows(res) -> list:
    """The result as a sorted multiset, numbers rounded to 9 significant digits (summation order may differ)."""
    types = res.column_types
    out = []
    for r in res.rows:
        row = []
        for v in hh.normalize_hs_row(r, types):
            if isinstance(v, float):
                v = float(f"{v:.9g}")
            row.append(v)
        out.append(tuple(row))
    return sorted(out, key=lambda t: tuple(hh.sort_key(v) for v in t))


def warm_script(path: str, mode: str) -> str:
    """`Q; Q` (model) or `Q; SET cardinality = oracle; Q` (oracle): both timed statements follow one run of the
    model's plan in their process, so neither starts with memory the process has never touched."""
    with open(path, encoding="utf-8") as f:
        sql = f.read().strip().rstrip(";").strip()
    return f"{sql};\n" + ("SET cardinality = oracle;\n" if mode == "oracle" else "") + f"{sql};\n"


def gmean(xs: list[float]) -> float:
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def run_case(args, label: str, binary: str, path: str, workers: int, problems: list) -> dict | None:
    """Both plans of one query at one worker count on one binary: times, plan hashes, rows, work."""
    q = os.path.basename(path)[:-4]
    runs = {m: {"elapsed": [], "plan_ms": [], "hashes": set(), "res": None, "error": None} for m, _ in MODES}
    for _ in range(args.repeat):
        for mode, sets in MODES:
            st = runs[mode]
            if st["error"]:
                continue
            if args.warm:  # the query under the model first, in the same process; the timed statement is the last
                script = warm_script(path, mode)
                res = hh.run_hindsight_query(binary, args.sf_dir, sql=script, timeout=2 * args.timeout,
                                             sets=(f"workers={workers}", "stats_scope=off"),
                                             extra=("--reexec", "none"))
            else:
                res = hh.run_hindsight_query(binary, args.sf_dir, file=path, timeout=args.timeout,
                                             sets=(f"workers={workers}",) + sets, extra=("--reexec", "none"))
            if not res.ok:
                st["error"] = res.describe_failure()
                continue
            el = res.attempts_elapsed_ms()
            if el is None:
                st["error"] = "no elapsed_ms in the JSON"
                continue
            st["elapsed"].append(el)
            st["plan_ms"].append(sum(a.get("plan_ms") or 0.0 for a in res.attempts))
            st["hashes"].add(res.attempts[-1].get("plan_hash"))
            st["res"] = res
            st["capped"] = any(w.startswith("oracle:") and "left to the model" in w
                               for w in (res.raw or {}).get("warnings") or [])
    out = {"query": q, "workers": workers, "bin": label}
    for mode, sets in MODES:
        st = runs[mode]
        if st["error"]:
            problems.append(f"{q} {label} workers={workers} {mode}: {st['error']}")
            return None
        if len(st["hashes"]) > 1:
            problems.append(f"{q} {label} workers={workers} {mode}: the plan changed between runs {sorted(st['hashes'])}")
        w = measure_work(binary, args, path, workers, sets)
        if isinstance(w, str):
            problems.append(f"{q} {label} workers={workers} {mode}: {w}")
            return None
        if w["incomplete"]:
            NOTES.append(f"{q} {label} workers={workers} {mode}: {w['incomplete']} operator(s) stopped early (a LIMIT "
                         "or an empty side): their rows, and so the work, are lower bounds")
        out[mode] = {"ms": statistics.median(st["elapsed"]), "plan_ms": statistics.median(st["plan_ms"]),
                     "plan_hash": sorted(h for h in st["hashes"] if h)[0] if st["hashes"] else None,
                     "row_count": len(st["res"].rows), "rows_work": w["rows"], "bytes": w["bytes"],
                     "work": w["work"], "oracle": w["oracle"], "oracle_capped": st.get("capped", False)}
    m, o = runs["model"]["res"], runs["oracle"]["res"]
    if len(m.rows) != len(o.rows):
        problems.append(f"WRONG ANSWER {q} {label} workers={workers}: the model's plan returns {len(m.rows)} rows, "
                        f"the oracle's {len(o.rows)}")
        out["wrong"] = True
    elif normalized_rows(m) != normalized_rows(o):
        problems.append(f"{q} {label} workers={workers}: the two plans return different values "
                        "(ties under a LIMIT, or a wrong answer: look)")
        out["values_differ"] = True
    out["ratio"] = out["model"]["ms"] / out["oracle"]["ms"] if out["oracle"]["ms"] > 0 else float("nan")
    out["work_ratio"] = out["model"]["work"] / out["oracle"]["work"] if out["oracle"]["work"] > 0 else float("nan")
    out["differ"] = out["model"]["plan_hash"] != out["oracle"]["plan_hash"]
    # The same plan is the same quality: what its two timings differ by is the timer's noise (and the oracle's
    # counting warming the allocator), so the summary takes it as 1.0; the table shows the measured ratio.
    out["quality"] = out["ratio"] if out["differ"] else 1.0
    return out


def fmt_work(x: float) -> str:
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= div:
            return f"{x / div:.1f}{unit}"
    return f"{x:.0f}"


def count_ms(c: dict) -> str:
    """The oracle's counting time (its explain run), '+' when some counts were left to the model."""
    o = c["oracle"].get("oracle") or {}
    ms = o.get("elapsed_ms")
    text = "-" if ms is None else f"{ms:.0f}"
    return text + ("+" if c["oracle"].get("oracle_capped") or o.get("skipped") else "")


def summarize(label: str, workers: int, cases: list[dict]) -> list[str]:
    if not cases:
        return [f"{label} workers={workers}: no query ran both plans"]
    n = len(cases)
    within_t = sum(1 for c in cases if c["quality"] <= WITHIN)
    within_raw = sum(1 for c in cases if c["ratio"] <= WITHIN)
    within_w = sum(1 for c in cases if c["work_ratio"] <= WITHIN)
    differ = sum(1 for c in cases if c["differ"])
    worst = sorted(cases, key=lambda c: -c["quality"])[:3]
    worst_w = sorted(cases, key=lambda c: -c["work_ratio"])[:3]
    return [
        f"{label} workers={workers}: model plan within {WITHIN}x of the oracle plan on {within_t} of {n} queries by time "
        f"({100 * within_t / n:.0f} %; the same plan counts as 1.0, by the raw timings {within_raw}), {within_w} of {n} "
        f"by work ({100 * within_w / n:.0f} %); plans differ on {differ}",
        f"    gmean model/oracle time {gmean([c['quality'] for c in cases]):.3f} (raw {gmean([c['ratio'] for c in cases]):.3f}), "
        f"work {gmean([c['work_ratio'] for c in cases]):.3f}",
        "    worst by time: " + ", ".join(f"{c['query']} {c['quality']:.2f}" for c in worst)
        + "; by work: " + ", ".join(f"{c['query']} {c['work_ratio']:.2f}" for c in worst_w),
    ]


def summary_figures(results: dict) -> dict:
    """Per "BIN_wN" (e.g. after_w2): the figures summarize() prints, as numbers (the merged bench JSON's)."""
    out: dict = {"wrong": sum(1 for cs in results.values() for c in cs if c.get("wrong"))}
    for (label, workers), cases in results.items():
        if not cases:
            continue
        n = len(cases)
        out[f"{label}_w{workers}"] = {
            "queries": n,
            "within_1.2_time_share": sum(1 for c in cases if c["quality"] <= WITHIN) / n,
            "within_1.2_work_share": sum(1 for c in cases if c["work_ratio"] <= WITHIN) / n,
            "gmean_model_over_oracle_time": gmean([c["quality"] for c in cases]),
            "gmean_model_over_oracle_work": gmean([c["work_ratio"] for c in cases]),
            "plans_differ": sum(1 for c in cases if c["differ"]),
        }
    return out


def write_json(args, load_text: str, bins, results: dict, problems: list) -> None:
    if not args.json:
        return
    with open(args.json + ".partial", "w", encoding="utf-8") as f:
        json.dump({"sf_dir": args.sf_dir, "repeat": args.repeat, "load": load_text, "bins": dict(bins),
                   "summary": summary_figures(results), "cases": [c for cs in results.values() for c in cs],
                   "problems": problems, "notes": NOTES}, f, indent=1, default=str)
    os.replace(args.json + ".partial", args.json)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0],
                                epilog=__doc__.split("\n", 2)[2], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", required=True)
    p.add_argument("--sf-dir", required=True, help="folder made by hindsight gen (catalog.json + CSVs)")
    p.add_argument("--queries", default=None, help="comma list of query numbers (default: all)")
    p.add_argument("--query-dir", default=os.path.join(ROOT, "tests", "differential", "tpch"))
    p.add_argument("--workers", default="1,2", help="comma list of worker counts")
    p.add_argument("--repeat", type=int, default=3, help="timed runs per plan; the median counts")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per run (the oracle's counting included)")
    p.add_argument("--compare-bin", default=None, help="an older Hindsight build to measure beside (before/after)")
    p.add_argument("--json", default=None, help="also write every figure to this file")
    p.add_argument("--no-warm", dest="warm", action="store_false",
                   help="time each plan in a fresh process (the oracle's plan then runs after its counting warmed the "
                        "process, the model's cold: a bias for the oracle)")
    args = p.parse_args(argv if argv is not None else sys.argv[1:])
    if args.repeat < 1:
        p.error("--repeat must be at least 1")

    files = query_files(args.query_dir, args.queries)
    if not files:
        print(f"plan quality: no query files in {args.query_dir} for --queries {args.queries}")
        return 1
    workers = [int(w) for w in args.workers.split(",")]
    bins = [("after", args.bin)] + ([("before", args.compare_bin)] if args.compare_bin else [])
    try:
        load = os.getloadavg()
        load_text = f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cpus"
    except OSError:
        load_text = "load average unknown"
    print(f"\nplan quality on {args.sf_dir}: model plan (stats_scope=off) vs oracle plan (cardinality=oracle); "
          f"engine time, median of {args.repeat}; {load_text}")
    print("ratio = model/oracle (> 1: true cardinalities give a faster plan); work = rows out of every operator + "
          f"{NETWORK_BYTE_WEIGHT} x exchange bytes; diff: the plans differ (plan_hash);\n"
          "count ms: the oracle's counting (planning, not in its time), '+': some counts were left to the model\n")
    head = f"{'query':<6} {'w':>2}"
    for label, _ in bins:
        head += (f" | {label + ' model':>12} {'oracle':>8} {'ratio':>6} {'diff':>4} {'work m':>8} {'work o':>8}"
                 f" {'ratio':>6} {'count ms':>8}")
    print(head)
    results = {(label, w): [] for label, _ in bins for w in workers}
    problems: list[str] = []
    t_start = time.perf_counter()
    for path in files:
        q = os.path.basename(path)[:-4]
        for w in workers:
            line = f"{q:<6} {w:>2}"
            for label, binary in bins:
                c = run_case(args, label, binary, path, w, problems)
                if c is None:
                    line += f" | {'FAILED':>12} {'-':>8} {'-':>6} {'-':>4} {'-':>8} {'-':>8} {'-':>6} {'-':>8}"
                    continue
                results[(label, w)].append(c)
                write_json(args, load_text, bins, results, problems)  # as it goes: a run cut short keeps its figures
                flag = " WRONG" if c.get("wrong") else ""
                line += (f" | {c['model']['ms']:12.1f} {c['oracle']['ms']:8.1f} {c['ratio']:6.2f} "
                         f"{'yes' if c['differ'] else 'no':>4} {fmt_work(c['model']['work']):>8} "
                         f"{fmt_work(c['oracle']['work']):>8} {c['work_ratio']:6.2f} {count_ms(c):>8}{flag}")
            print(line, flush=True)
    print()
    for label, _ in bins:
        for w in workers:
            for s in summarize(label, w, results[(label, w)]):
                print(s)
    print(f"total {time.perf_counter() - t_start:.0f} s")
    write_json(args, load_text, bins, results, problems)
    if NOTES:
        print(f"notes ({len(NOTES)}):")
        for line in NOTES:
            print(f"  {line}")
    wrong = [x for x in problems if x.startswith("WRONG ANSWER")]
    if wrong:
        print(f"\n!!! {len(wrong)} WRONG ANSWER(S): the model's and the oracle's plans disagree on the row count !!!")
    if problems:
        print(f"problems ({len(problems)}):")
        for line in problems:
            print(f"  {line}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
