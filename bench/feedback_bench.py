#!/usr/bin/env python3
"""What remembering costs, and the headroom it has to win (`make bench`).

    feedback_bench.py --bin build/hindsight --data DIR [--skew-data DIR] [--queries tests/differential/tpch]
                      [--repeat 3] [--timeout 300] [--only 1,5,18] [--no-oracle] [--json OUT.json]

1. Overhead of collection + persistence, TPC-H Q1-Q22 on DIR. Each query runs with the persistent
   scope (a fresh store in a temp folder, warmed by one run of every query first, so the runs see a
   populated store) and with `stats_scope=off`, alternating, --repeat times each. Reported per query:
   the median of `stats_ms` (reading the scopes before planning + mapping, collecting and recording
   after the run, as the CLI reports it per attempt) against the median query time with the store
   (`plan_ms + elapsed_ms`), and the paired process wall times (on/off). The goal is a stats share
   under 2 % of query time.
2. Oracle vs model on --skew-data (default: DIR): each query planned by the model alone
   (`stats_scope=off`) and with true cardinalities (`cardinality=oracle`, stats off). Reported per
   query: engine time of each plan (`elapsed_ms`, median of --repeat; the oracle's counting is not
   in it), their ratio model/oracle (> 1: perfect cardinalities make the plan faster), the worst
   q-error of each plan's operators (`explain --analyze`), and the counting sub-plans the oracle ran.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run_cli(args, verb: str, data: str, query: str, sets: list[str], extra: list[str]) -> tuple[dict | None, float]:
    cmd = [args.bin, verb, "--data", data, "--format", "json", "-f", query] + extra
    for s in sets:
        cmd += ["--set", s]
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return None, args.timeout
    except OSError as e:  # e.g. the binary is being rebuilt
        print(f"  cannot run {args.bin}: {e}", file=sys.stderr)
        return None, 0.0
    wall = (time.perf_counter() - t0) * 1000
    try:
        obj = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return None, wall
    if proc.returncode != 0:
        return None, wall
    return obj, wall


def attempt_figures(obj: dict) -> tuple[float, float, float]:
    a = obj["attempts"][-1]
    return a.get("plan_ms", 0.0), a["elapsed_ms"], a.get("stats_ms", 0.0)


def worst_q_error(node: dict) -> float:
    q = node.get("q_error") or 1.0
    for c in node.get("children") or []:
        q = max(q, worst_q_error(c))
    return q


def geomean(xs: list[float]) -> float:
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def overhead(args, queries: list[str], out: dict) -> None:
    print(f"== collection + persistence overhead: {args.data} (median of {args.repeat}, store warmed)")
    tmp = tempfile.mkdtemp(prefix="hindsight-feedback-bench-")
    store = ["--store", os.path.join(tmp, "stats.db")]
    try:
        for q in queries:  # warm the store: every query observed once
            run_cli(args, "query", args.data, q, [], store)
        print(f"{'query':>6} {'query ms':>10} {'stats ms':>9} {'share':>7} {'wall on':>9} {'wall off':>9}")
        shares, walls_on, walls_off = [], [], []
        for q in queries:
            name = os.path.basename(q)[:-4]
            on_q, on_s, on_w, off_w = [], [], [], []
            ok = True
            for _ in range(args.repeat):
                obj, w = run_cli(args, "query", args.data, q, [], store)
                obj_off, w_off = run_cli(args, "query", args.data, q, ["stats_scope=off"], store)
                if obj is None or obj_off is None:
                    ok = False
                    break
                plan_ms, exec_ms, stats_ms = attempt_figures(obj)
                on_q.append(plan_ms + exec_ms)
                on_s.append(stats_ms)
                on_w.append(w)
                off_w.append(w_off)
            if not ok:
                print(f"{name:>6} failed")
                continue
            qm, sm = statistics.median(on_q), statistics.median(on_s)
            share = sm / qm if qm > 0 else 0.0
            shares.append(share)
            walls_on.append(statistics.median(on_w))
            walls_off.append(statistics.median(off_w))
            print(f"{name:>6} {qm:10.1f} {sm:9.2f} {100 * share:6.2f}% {walls_on[-1]:9.1f} {walls_off[-1]:9.1f}")
            out.setdefault("overhead", []).append({"query": name, "query_ms": qm, "stats_ms": sm, "share": share,
                                                   "wall_on_ms": walls_on[-1], "wall_off_ms": walls_off[-1]})
        if shares:
            out["summary"].update({"stats_share_median": statistics.median(shares), "stats_share_worst": max(shares),
                                   "wall_on_over_off": sum(walls_on) / sum(walls_off)})
            total_on, total_off = sum(walls_on), sum(walls_off)
            print(f"stats share of query time: median {100 * statistics.median(shares):.2f} %, worst "
                  f"{100 * max(shares):.2f} % (goal: under 2 %); process wall on/off {total_on / total_off:.3f}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def oracle(args, queries: list[str], out: dict) -> None:
    data = args.skew_data or args.data
    print(f"\n== oracle vs model: {data} (engine time, median of {args.repeat}; worst q-error of the plan)")
    print(f"{'query':>6} {'model ms':>9} {'oracle ms':>10} {'model/oracle':>13} {'q model':>9} {'q oracle':>9} {'subplans':>9}")
    ratios, within = [], 0
    off = ["stats_scope=off"]
    orc = ["stats_scope=off", "cardinality=oracle"]
    for q in queries:
        name = os.path.basename(q)[:-4]
        times = {}
        for mode, sets in (("model", off), ("oracle", orc)):
            xs = []
            for _ in range(args.repeat):
                obj, _ = run_cli(args, "query", data, q, sets, [])
                if obj is None:
                    break
                xs.append(attempt_figures(obj)[1])
            times[mode] = statistics.median(xs) if len(xs) == args.repeat else None
        qerr, subplans = {}, ""
        for mode, sets in (("model", off), ("oracle", orc)):
            obj, _ = run_cli(args, "explain", data, q, sets, ["--analyze"])
            qerr[mode] = worst_q_error(obj["physical"]) if obj else None
            if mode == "oracle" and obj and "oracle" in obj:
                o = obj["oracle"]
                subplans = f"{o['subplans']}" + (f" (+{o['skipped']} capped)" if o.get("skipped") else "")
        m, o = times["model"], times["oracle"]
        if m is None or o is None:
            print(f"{name:>6} failed (model {m}, oracle {o})")
            continue
        ratio = m / o if o > 0 else float("nan")
        ratios.append(ratio)
        within += ratio <= 1.2
        fmt_q = lambda x: "-" if x is None else (f"{x:.1f}" if x < 1e4 else f"{x:.1e}")
        out.setdefault("oracle", []).append({"query": name, "model_ms": m, "oracle_ms": o, "model_over_oracle": ratio,
                                             "qerror_model": qerr["model"], "qerror_oracle": qerr["oracle"]})
        print(f"{name:>6} {m:9.1f} {o:10.1f} {ratio:13.2f} {fmt_q(qerr['model']):>9} {fmt_q(qerr['oracle']):>9} {subplans:>9}")
    if ratios:
        out["summary"].update({"gmean_model_over_oracle": geomean(ratios), "within_1.2_share": within / len(ratios)})
        print(f"geometric mean model/oracle {geomean(ratios):.3f}; the model's plan within 1.2x of the oracle's on "
              f"{within} of {len(ratios)} queries")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--skew-data")
    ap.add_argument("--queries", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                      "tests", "differential", "tpch"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--only", help="comma list of query numbers")
    ap.add_argument("--no-oracle", action="store_true")
    ap.add_argument("--json", default=None, help="also write every figure here: {summary, overhead, oracle}")
    args = ap.parse_args()
    queries = sorted(os.path.join(args.queries, f) for f in os.listdir(args.queries)
                     if f.startswith("q") and f.endswith(".sql") and not f.endswith(".sqlite.sql"))
    if args.only:
        wanted = {int(x) for x in args.only.split(",")}
        queries = [q for q in queries if int(os.path.basename(q)[1:3]) in wanted]
    out = {"data": args.data, "skew_data": args.skew_data or args.data, "repeat": args.repeat, "summary": {}}
    overhead(args, queries, out)
    if not args.no_oracle:
        oracle(args, queries, out)
    if args.json:
        with open(args.json + ".partial", "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
        os.replace(args.json + ".partial", args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
