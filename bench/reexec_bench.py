#!/usr/bin/env python3
"""Re-execution under memory limits that make first plans fail (`make bench`).

    reexec_bench.py --bin build/hindsight --data DIR [--fractions 0.5,0.7,0.8,0.9] [--workers 4] [--repeat 1]
                    [--no-between] [--no-warm]
                    [--only REGEX] [--quick] [--timeout 300] [--json FILE] [--set NAME=VALUE]...

Queries: TPC-H Q1-Q22 (tests/differential/tpch) and the skewed workload (bench/workloads/skewed.sql), on DIR
(`hindsight gen tpch --sf F --skew 1`). Every run is a process of its own with a fresh stats store, that first
loads the tables the query reads in statements of their own and then sets its limit (a table an earlier
statement of the process loaded is not charged to a later one: tests/differential/reexec_runs.py), so the
limit bounds what the plan holds, which is what a re-plan can change.

Per query: one unconstrained run (`reexec_strategies=none`) gives the rows and the plan's peak memory P, one with
`cardinality=oracle` the oracle plan's peak O. The limits: L = f x P for each fraction f, and 'mid' = (O + P) / 2
when O < 0.8 x P (a limit the first plan exceeds and a better plan fits). Per limit:
  off     the query with `reexec_strategies=none` under L: does the first plan fit?
  on      when the first plan does not fit: the query with re-execution on (the default strategies) under L;
          rescued = succeeded, in how many attempts; its rows against the unconstrained run's (a wrong answer
          is a defect: goal 0). One attempt that went on spilling at its overflow (reexec_spill_in_place: the
          re-plan kept the plan, or finishing the plan was predicted clearly cheaper than the re-plan) is a rescue
          in 1 attempt ("in place"); --set adds settings to these runs (--set reexec_spill_in_place=off measures
          without it, =same_plan without finishing changed plans)
  oracle  the query planned with `cardinality=oracle` (true cardinalities, counted under their own budget:
          `oracle_subplan_memory_limit`; the counting is not timed) under L, re-execution off, `spill = on` (as
          re-executed attempts may): the best plan Hindsight can find knowing everything, in one attempt
  ratio   on's total time (planning + execution of all attempts) / oracle's (planning + execution): the
          price of finding out by failing (goal <= 1.5x); median of --repeat runs each
  cpu     the same ratio of the executions' CPU time (every worker thread, user + system: the attempts' `cpu_ms`):
          on a machine shared with other work, elapsed times are mostly waiting for a core (at a load of 10 on 2
          cores a query's execution used 1/6 of its elapsed time in CPU) and swing several-fold from run to run;
          the CPU time is the work each plan did, failed attempts and spilling included (spill files are written
          to the page cache: system time). Planning is left out of it (about 1 ms; its elapsed time is inflated alike)
  warm    on and oracle are timed in processes that ran the query once before, unconstrained and with statistics
          off (stats_scope = off: it reads and records nothing, so the timed statement plans as in a fresh process):
          the oracle's counting runs the query's scans and joins in its process before the timed plan, faulting in
          the memory the plan then reuses, and a cold process paid that only on the other side (q21 at SF 1, the
          same plan under both: CPU 1.25x cold, 1.03x warm, min of 3). --no-warm times cold processes instead
  split   where a rescued run's CPU goes: the failed first attempt and the attempts after it, each over the
          oracle's CPU (geometric means), how many re-plans were the same plan with spilling on (their first attempt
          is all waste), and how many first attempts stopped early (reexec_fail_early); the cases over 1.5x by
          where it went: 'late' (the first attempt alone took >= 0.5x the oracle: no restart stays within 1.5x
          unless it beats the oracle's plan), 're-plan' (the attempts after an early failure took > 1x), 'in place'
          (one attempt that went on spilling)
Goals: >= 95 % of the first plans that fail are rescued in <= 2 attempts, 0 wrong answers, ratio <= 1.5x
(geometric mean, and the worst). A first plan that fails where the oracle's plan fails too (no plan the
optimizer knows fits L in memory: it spilled) is counted apart: only spilling can rescue it. For every case not
rescued the table shows the last error and why re-execution stopped; 'spill' says how much the rescuing attempt
and the oracle's run wrote to spill files.

A floor, reported beside (never instead of) the whole: the limits are fractions of plan memory, and at SF 0.1
some plans' peaks are a few KB (q01's four groups: 10 KB), so 0.5 x peak is a limit of 4-50 KB. What the
tracker charges is not all a query holds: the batches in flight between operators (kBatchSize = 2048 rows, 16 KB
a column of 8-byte values) are not charged, each worker's pipeline holds a few, and a spill file appends a whole
slice of a batch to its buffer before writing it out. Below one such batch of four columns per worker, 64 KB x
workers (256 KB at 4 workers), the limit bounds less than what is uncharged anyway: no real deployment sets such
a limit, and failing there says little about re-execution. The summary therefore prints the counts twice: over
every case, and over the cases whose limit is at least --floor-per-worker x workers (default 64 KB; 0: no
second line). Every case still runs and is in the table and the JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import statistics
import sys
import tempfile
import time

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "differential"))
import reexec_runs as rr  # noqa: E402

# The oracle's plan: true counts, each counted under its own budget (not the query's limit, which would leave the
# counts that do not fit it to the model), then planned and run under the query's limit, with the operators
# allowed to spill as a re-executed attempt is (the best Hindsight can do knowing everything, in one attempt).
ORACLE = {"reexec_strategies": "none", "cardinality": "oracle", "oracle_subplan_memory_limit": "8GB", "spill": "on"}
QUICK_QUERIES = r"^(q03|q05|q09|q18|q21|segment_follows_nation|brand_type_like|popular_suppliers)$"


def mb(b: float) -> str:
    return f"{b / 1e6:.1f}" if b >= 1e5 else f"{b / 1e6:.2f}"


def geomean(xs: list[float]) -> float:
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def code(c: str | None) -> str:
    return {"MEMORY_LIMIT_EXCEEDED": "MLE", None: "crash"}.get(c, c)


def short_error(run: rr.Run) -> str:
    e = run.final_error
    if run.rc is None:
        return "killed (timeout)"
    if not e:
        return "no JSON" if run.obj is None else "?"
    return f"{e['code']}: {e.get('message', '')[:90]}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--data", required=True, help="TPC-H data generated with --skew 1")
    ap.add_argument("--fractions", default=None, help="limits as fractions of each query's peak (default "
                    "0.5,0.7,0.8,0.9; --quick: 0.8)")
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=1, help="timed runs of on and oracle per case (median)")
    ap.add_argument("--only", default=None, help="regex on query names")
    ap.add_argument("--quick", action="store_true", help=f"CI size: {QUICK_QUERIES} at 0.8 x peak")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per process")
    ap.add_argument("--no-between", action="store_true", help="no 'mid' limit between the oracle's and the model's peak")
    ap.add_argument("--no-warm", dest="warm", action="store_false",
                    help="time on and oracle in cold processes (the oracle's counting then warms its side only)")
    ap.add_argument("--json", default=None, help="also write {summary, summary_above_floor, cases} here (every case as JSON)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a setting for the runs with re-execution on (repeatable)")
    ap.add_argument("--floor-per-worker", type=float, default=64 * 1024,
                    help="bytes a worker: also summarize the cases whose limit is at least this x workers (see above)")
    args = ap.parse_args()
    on_settings = {}
    for kv in args.set:
        if "=" not in kv:
            ap.error(f"--set {kv}: expected NAME=VALUE")
        k, v = kv.split("=", 1)
        on_settings[k.strip()] = v.strip()
    fractions = [float(x) for x in (args.fractions or ("0.8" if args.quick else "0.5,0.7,0.8,0.9")).split(",")]
    only = QUICK_QUERIES if args.quick and not args.only else args.only
    queries = [(n, s) for n, s in rr.corpus() if not only or re.search(only, n)]
    tmp = tempfile.mkdtemp(prefix="hindsight-reexec-bench-")
    w = args.workers
    t_start = time.perf_counter()
    print(f"== re-execution under memory limits: {args.data}, workers={w}, limits = "
          f"{', '.join(f'{f:g}' for f in fractions)} x each query's unconstrained peak (plan memory; tables preloaded), "
          f"and 'mid' halfway between the oracle plan's peak and the model's where the oracle's is under 0.8 x; "
          f"on and oracle timed {'warm (the query ran once before)' if args.warm else 'cold (--no-warm)'}")
    print(f"{'query':<26} {'peak MB':>8} {'oracle':>7} {'limit':>6} {'MB':>7} {'off':<6} {'on':<12} {'rows':<5} "
          f"{'on ms':>8} {'oracle ms':>9} {'ratio':>6} {'cpu':>6}  note (MLE: MEMORY_LIMIT_EXCEEDED)")
    records = []
    try:
        for name, sql in queries:
            free = rr.run_query(args.bin, args.data, sql, {"reexec_strategies": "none"}, tmp, args.timeout, workers=w)
            if not free.ok:
                print(f"{name:<26} unconstrained run failed: {free.describe()}")
                records.append({"query": name, "unconstrained": "failed", "error": free.describe()})
                continue
            peak = free.peak()
            ordered = rr.has_top_level_order_by(sql)
            # The oracle's plan, unconstrained: when it needs clearly less than the model's, a limit between the
            # two is one a better plan fits and the first plan does not (the case re-planning is for).
            ofree = rr.run_query(args.bin, args.data, sql, ORACLE, tmp, args.timeout, workers=w)
            opeak = ofree.peak() if ofree.ok else None
            limits = [(f"{f:g}", max(4096, int(peak * f))) for f in fractions]
            if opeak and opeak < 0.8 * peak and not args.no_between:
                limits.append(("mid", int((opeak + peak) / 2)))
            for label, limit in limits:
                f = label
                lim = {"memory_limit": f"{limit}B"}
                rec = {"query": name, "peak": peak, "oracle_peak": opeak, "fraction": f, "limit": limit}
                off = rr.run_query(args.bin, args.data, sql, {**lim, "reexec_strategies": "none"}, tmp, args.timeout,
                                   workers=w)
                rec["off"] = "ok" if off.ok else code(off.error_code)
                line = f"{name:<26} {mb(peak):>8} {mb(opeak) if opeak else '-':>7} {f:>6} {mb(limit):>7} {rec['off']:<6}"
                if off.ok:
                    print(line + f" {'-':<12} {'-':<5} {'':>8} {'':>9} {'':>6} {'':>6}  first plan fits")
                    records.append(rec)
                    continue
                on_ms, or_ms, on_cpu, or_cpu, on, orc = [], [], [], [], None, None
                wrong = None
                for _ in range(max(1, args.repeat)):
                    on = rr.run_query(args.bin, args.data, sql, {**lim, **on_settings}, tmp, args.timeout, workers=w,
                                      warm=args.warm)
                    if on.ok:
                        on_ms.append(on.engine_ms())
                        on_cpu.append(on.engine_cpu_ms())
                        diff = rr.rows_difference(on.obj["rows"], free.obj["rows"], ordered)
                        wrong = wrong or diff
                    orc = rr.run_query(args.bin, args.data, sql, {**lim, **ORACLE}, tmp, args.timeout, workers=w,
                                       warm=args.warm)
                    if orc.ok:
                        or_ms.append(orc.engine_ms())
                        or_cpu.append(orc.engine_cpu_ms())
                    if not on.ok:
                        break
                attempts = len(on.attempts)
                rec.update({"on": "ok" if on.ok else code(on.error_code), "attempts": attempts,
                            "wrong": wrong, "oracle": "ok" if orc.ok else code(orc.error_code),
                            "on_spilled": on.spilled() if on.ok else None,
                            "oracle_spilled": orc.spilled() if orc.ok else None,
                            "on_ms": statistics.median(on_ms) if on_ms else None,
                            "oracle_ms": statistics.median(or_ms) if or_ms else None,
                            "on_cpu_ms": statistics.median(on_cpu) if on_cpu else None,
                            "oracle_cpu_ms": statistics.median(or_cpu) if or_cpu else None,
                            "attempt_ms": [a.get("elapsed_ms") for a in on.attempts],
                            "attempt_cpu_ms": [a.get("cpu_ms") for a in on.attempts],
                            "reasons": [a.get("reexec_reason") for a in on.attempts[1:]],
                            "in_place": any(a.get("spilled_in_place") for a in on.attempts),
                            "spill_in_place": [a.get("spill_in_place") for a in on.attempts],
                            "errors": [(a.get("error") or {}).get("message") for a in on.attempts],
                            "warnings": (on.obj or {}).get("warnings") or []})
                rec["ratio"] = rec["on_ms"] / rec["oracle_ms"] if rec["on_ms"] and rec["oracle_ms"] else None
                rec["cpu_ratio"] = (rec["on_cpu_ms"] / rec["oracle_cpu_ms"]
                                    if rec["on_cpu_ms"] and rec["oracle_cpu_ms"] else None)
                on_txt = f"ok in {attempts}" if on.ok else f"{rec['on']} in {attempts}"
                note = ""
                if wrong:
                    note = f"WRONG ROWS: {wrong}"
                elif not on.ok:
                    why = [x for x in rec["warnings"] if "re-execution" in x or "plan did not change" in x]
                    note = short_error(on) + (f" | {why[-1][:100]}" if why else "")
                    if not orc.ok:
                        note = "oracle plan fails too | " + note
                elif attempts > 2:
                    note = "more than 2 attempts"
                elif attempts == 1 and rec["in_place"]:
                    on_txt = "ok in place"
                    note = ("spilled in place (finishing was cheaper than the re-plan)" if finished_changed_plan(rec)
                            else "spilled in place (the re-plan kept the plan)")
                elif attempts == 1:
                    note = "the first plan fit this run (peak noise; not a rescue)"
                if not orc.ok and on.ok:
                    note = (note + " | " if note else "") + f"oracle plan fails: {short_error(orc)}"
                spills = [f"{who} spilled {mb(b)} MB" for who, b in (("on", rec["on_spilled"]),
                                                                     ("oracle", rec["oracle_spilled"])) if b]
                if spills:
                    note = (note + " | " if note else "") + ", ".join(spills)
                ratio = f"{rec['ratio']:.2f}" if rec["ratio"] else "-"
                cpu = f"{rec['cpu_ratio']:.2f}" if rec["cpu_ratio"] else "-"
                print(line + f" {on_txt:<12} {('WRONG' if wrong else 'same') if on.ok else '-':<5} "
                      f"{rec['on_ms'] or 0:8.1f} {rec['oracle_ms'] or 0:9.1f} {ratio:>6} {cpu:>6}  {note}", flush=True)
                records.append(rec)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    all_cases = [r for r in records if "off" in r]
    summary = summarize(all_cases, len(queries), t_start, "every case")
    summary_above = None
    floor = int(args.floor_per_worker * w)
    if floor > 0:
        above = [r for r in all_cases if r["limit"] >= floor]
        print(f"\n-- the same over the {len(above)} cases with a limit of at least {mb(floor)} MB "
              f"({args.floor_per_worker / 1024:g} KB x {w} workers; {len(all_cases) - len(above)} below it):")
        summary_above = summarize(above, len(queries), t_start, f"limit >= {mb(floor)} MB")
    if args.json:
        with open(args.json + ".partial", "w", encoding="utf-8") as f:
            json.dump({"data": args.data, "quick": args.quick, "warm": args.warm, "floor_bytes": floor, "summary": summary,
                       "summary_above_floor": summary_above, "cases": records}, f, indent=1)
        os.replace(args.json + ".partial", args.json)
    return 1 if any(r.get("wrong") for r in all_cases) else 0


def finished_changed_plan(rec: dict) -> bool:
    """Went on spilling in place although its re-plan at the overflow changed the plan (reexec_spill_in_place = on)."""
    return bool(rec.get("in_place")) and any("changes the plan" in (w or "") for w in rec.get("spill_in_place") or [])


def over_goal(rescued: list[dict]) -> dict[str, str]:
    """The rescued cases over 1.5x the oracle's CPU, by where their CPU went (each figure over the oracle's):
    'late': the failed first attempt alone took >= 0.5x, so that no restart could stay within 1.5x unless its plan
    beat the oracle's (only finishing in place, or failing earlier, can); 're-plan': the attempts after a first
    attempt under 0.5x took > 1x (the re-plan is worse than the oracle's plan); 'in place': one attempt that went on
    spilling. Each case as query@fraction (first+rest, or the one attempt)."""
    out: dict[str, list[str]] = {"late": [], "re-plan": [], "in place": []}
    for r in rescued:
        o, a = r.get("oracle_cpu_ms"), r.get("attempt_cpu_ms") or []
        if not o or not r.get("cpu_ratio") or r["cpu_ratio"] <= 1.5 or not a or any(x is None for x in a):
            continue
        name = f"{r['query']}@{r['fraction']}"
        if len(a) == 1:
            out["in place"].append(f"{name} {a[0] / o:.2f}x")
        else:
            first, rest = a[0] / o, sum(a[1:]) / o
            out["late" if first >= 0.5 else "re-plan"].append(f"{name} {first:.2f}+{rest:.2f}x")
    return {k: f"{len(v)} ({', '.join(v)})" for k, v in out.items() if v}


def summarize(cases: list[dict], n_queries: int, t_start: float, scope: str) -> dict:
    """Prints the figures of `cases` and returns them (the JSON's summary)."""
    failing = [r for r in cases if r["off"] != "ok"]
    # Where a plan the optimizer knows fits L in memory: the oracle's ran without spilling.
    fixable = [r for r in failing if r.get("oracle") == "ok" and not r.get("oracle_spilled")]
    # A run that succeeds in one attempt ran the same plan as the failed off run: it fit this time (a plan's
    # peak varies from run to run with several workers). Not a rescue; counted apart.
    # One attempt that went on spilling at its overflow (reexec_spill_in_place) is a rescue, in 1 attempt.
    lucky = [r for r in failing if r.get("on") == "ok" and r["attempts"] == 1 and not r.get("in_place")]
    rescued = [r for r in failing if r.get("on") == "ok" and (r["attempts"] > 1 or r.get("in_place"))]
    in_place = [r for r in rescued if r.get("in_place") and r["attempts"] == 1]
    finished = [r for r in in_place if finished_changed_plan(r)]
    rescued2 = [r for r in rescued if r["attempts"] <= 2]
    wrong = [r for r in failing if r.get("wrong")]
    spilled = [r for r in rescued if r.get("on_spilled")]
    ratios = [r["ratio"] for r in rescued if r.get("ratio")]  # where the oracle's plan fits too
    pct = lambda a, b: f"{100 * a / b:.0f} %" if b else "-"
    print(f"\n[{scope}] {len(cases)} (query, limit) cases on {n_queries} queries in "
          f"{time.perf_counter() - t_start:.0f} s; first plan fails (re-execution off): {len(failing)}")
    print(f"rescued with re-execution on: {len(rescued)}/{len(failing)} ({pct(len(rescued), len(failing))}), "
          f"in <= 2 attempts: {len(rescued2)}/{len(failing)} ({pct(len(rescued2), len(failing))}; goal >= 95 %)")
    print(f"  of the {len(fixable)} where the oracle's plan fits the limit in memory: "
          f"{len([r for r in fixable if r in rescued2])} rescued in <= 2 attempts "
          f"({pct(len([r for r in fixable if r in rescued2]), len(fixable))})")
    if lucky:
        print(f"  plus {len(lucky)} where the first plan fit on the run with re-execution on (1 attempt: peak noise): "
              f"{', '.join(r['query'] + '@' + r['fraction'] for r in lucky)}")
    print(f"  rescued by spilling (the rescuing attempt wrote to spill files): {len(spilled)}/{len(rescued)}, "
          f"of them in place (1 attempt that went on spilling: reexec_spill_in_place): {len(in_place)}, "
          f"{len(finished)} of those finishing a plan its re-plan changed")
    print(f"wrong answers: {len(wrong)} (goal 0)")
    if ratios:
        worst = max(rescued, key=lambda r: r.get("ratio") or 0)
        print(f"rescued run time / oracle plan time: geometric mean {geomean(ratios):.2f}x, worst {max(ratios):.2f}x "
              f"({worst['query']} at {worst['fraction']} x peak); within 1.5x: {sum(x <= 1.5 for x in ratios)}/"
              f"{len(ratios)} (goal <= 1.5x)")
    cpu_ratios = [r["cpu_ratio"] for r in rescued if r.get("cpu_ratio")]
    if cpu_ratios:
        worst = max(rescued, key=lambda r: r.get("cpu_ratio") or 0)
        print(f"rescued run CPU / oracle plan CPU (executions): geometric mean {geomean(cpu_ratios):.2f}x, worst "
              f"{max(cpu_ratios):.2f}x ({worst['query']} at {worst['fraction']} x peak); within 1.5x: "
              f"{sum(x <= 1.5 for x in cpu_ratios)}/{len(cpu_ratios)}")
    # Where the rescued runs' CPU goes: the failed first attempt against the rescuing attempts, each over the oracle's
    # run; and how many re-plans were the same plan with spilling turned on (their whole first attempt is waste).
    split = [r for r in rescued if r.get("oracle_cpu_ms") and len(r.get("attempt_cpu_ms") or []) > 1
             and all(x is not None for x in r["attempt_cpu_ms"])]
    first_share = [max(r["attempt_cpu_ms"][0], 0.01) / r["oracle_cpu_ms"] for r in split]
    rest_share = [max(sum(r["attempt_cpu_ms"][1:]), 0.01) / r["oracle_cpu_ms"] for r in split]
    same_plan = [r for r in rescued if "; same plan" in ((r.get("reasons") or [""])[0] or "")]
    early = [r for r in failing if "stopped early" in (((r.get("errors") or [""])[0]) or "")]
    if split:
        print(f"  where the CPU goes (geometric means over the oracle's): the failed first attempt {geomean(first_share):.2f}x, "
              f"the attempts after it {geomean(rest_share):.2f}x; re-planned to the same plan with spilling on: "
              f"{len(same_plan)}/{len(rescued)}; first attempts stopped early (reexec_fail_early): {len(early)}/{len(failing)}")
    over = over_goal(rescued)
    if over:
        print(f"  over 1.5x the oracle's CPU, by where it went: {'; '.join(f'{k}: {v}' for k, v in over.items())}")
    not_rescued = [r for r in failing if r.get("on") != "ok"]  # (lucky ones are neither)
    hopeless = [r for r in not_rescued if r.get("oracle") != "ok"]
    if hopeless:
        print(f"not rescued, and the oracle's plan fails the limit too: {len(hopeless)} "
              f"({', '.join(sorted({r['query'] for r in hopeless}))})")
    if len(hopeless) < len(not_rescued):
        print("not rescued although the oracle's plan fits:")
    for r in not_rescued:
        if r in hopeless:
            continue
        print(f"  {r['query']} at {r['fraction']} x peak ({mb(r['limit'])} MB): {r.get('attempts')} attempt(s); errors: "
              f"{' / '.join((e or 'ok')[:110] for e in r.get('errors') or [])}; "
              f"warnings: {' / '.join(r.get('warnings') or [])[:220]}")
    share = lambda a, b: a / b if b else None
    return {"cases": len(cases), "first_plan_fails": len(failing),
            "rescued_share": share(len(rescued), len(failing)),
            "rescued_2_attempts_share": share(len(rescued2), len(failing)),
            "fixable_rescued_2_attempts_share": share(len([r for r in fixable if r in rescued2]), len(fixable)),
            "rescued_by_spilling": len(spilled), "rescued_in_place": len(in_place),
            "rescued_in_place_changed_plan": len(finished), "lucky": len(lucky),
            "wrong": len(wrong),
            "gmean_rescued_over_oracle": geomean(ratios) if ratios else None,
            "worst_rescued_over_oracle": max(ratios) if ratios else None,
            "gmean_rescued_over_oracle_cpu": geomean(cpu_ratios) if cpu_ratios else None,
            "worst_rescued_over_oracle_cpu": max(cpu_ratios) if cpu_ratios else None,
            "gmean_first_attempt_over_oracle_cpu": geomean(first_share) if split else None,
            "gmean_later_attempts_over_oracle_cpu": geomean(rest_share) if split else None,
            "rescued_same_plan": len(same_plan), "first_attempts_stopped_early": len(early)}


if __name__ == "__main__":
    sys.exit(main())
