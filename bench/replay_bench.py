#!/usr/bin/env python3
"""Workload replay on the skewed workload: feedback off vs on vs oracle (`make bench`, docs/workload.md).

    replay_bench.py --bin build/hindsight (--data DIR | --sf SF [--data-root build/data])
                    [--workload bench/workloads/skewed.sql] [--repeat 3] [--timeout 3600] [--json OUT.json]
                    [--keep DIR]

1. Data: --data DIR (a folder made by `hindsight gen tpch --skew 1`), or --sf SF: BUILD/data/tpch-sf$SF-skew1,
   generated once as scripts/bench.sh does (into DIR.partial, then renamed) and reused afterwards.
2. `hindsight capture --data DIR --queries WORKLOAD --out W.hsw --store cap.db` with a fresh store (in a temporary
   folder, or --keep DIR to keep the files).
3. `hindsight replay W.hsw --data DIR --feedback off,on,oracle --repeat N --format json --store on.db`, on.db a
   copy of the capture's store (the capture's observations are what feedback on starts from; the capture's own
   store is left as captured).
4. A summary table per mode: plans changed, geometric-mean speedup (captured / replayed) by time and by work, the
   share of queries improved and regressed beyond 10 % (by time; by work in brackets), the share within 1.2x of the
   oracle replay by time and by work, the geometric-mean ratio to the oracle by time and by work, results that
   differ (must be 0) and failures. Times on a shared machine are noisy: read the work columns.

--json writes {"summary": {MODE: {...}}, "data", "workload", "repeat", "capture": {...}, "replay": <the replay's
JSON>}. Exit code 1 when the capture or the replay failed or a result differs; 0 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODES = ("off", "on", "oracle")


def ensure_data(binary: str, sf: str, root: str) -> str:
    data = os.path.join(root, f"tpch-sf{sf}-skew1")
    if os.path.isfile(os.path.join(data, "catalog.json")):
        return data
    print(f"replay bench: generating TPC-H SF {sf} --skew 1 into {data}", flush=True)
    partial = data + ".partial"
    shutil.rmtree(partial, ignore_errors=True)
    os.makedirs(root, exist_ok=True)
    subprocess.run([binary, "gen", "tpch", "--sf", sf, "--skew", "1", "--out", partial], check=True)
    shutil.rmtree(data, ignore_errors=True)
    os.rename(partial, data)
    return data


def mode_summary(mode: dict, oracle_cmp: dict | None) -> dict:
    """The figures of one replay mode the table and the merged bench JSON use."""
    s = mode["summary"]
    queries = mode.get("queries") or []
    out = {
        "queries": s["queries"],
        "compared": s["compared"],
        "plans_changed": s["plans_changed"],
        "gmean_speedup_time": s["geomean_speedup"],
        "gmean_speedup_work": s["geomean_work_ratio"],
        "improved_share": s["improved_share"],
        "regressed_share": s["regressed_share"],
        "improved_work_share": s["improved_work_share"],
        "regressed_work_share": s["regressed_work_share"],
        "results_differ": s["results_differ"],
        "failures": sum(1 for q in queries if q.get("status") != "ok"),
        "failures_fixed": s["failures_fixed"],
        "failures_introduced": s["failures_introduced"],
    }
    if oracle_cmp is not None:
        out.update({
            "within_1.2_oracle_time_share": oracle_cmp["within_1_2_share"],
            "within_1.2_oracle_work_share": oracle_cmp["within_1_2_work_share"],
            "gmean_vs_oracle_time": oracle_cmp["geomean_ratio"],
            "gmean_vs_oracle_work": oracle_cmp["geomean_work_ratio"],
        })
    return out


def summarize(report: dict) -> dict:
    """{mode: mode_summary} from `hindsight replay --format json` (one mode or several)."""
    modes = report["replays"] if "replays" in report else [report]
    cmp = report.get("oracle_comparison") or {}
    return {m["feedback"]: mode_summary(m, cmp.get(m["feedback"])) for m in modes}


def table(summary: dict) -> str:
    pct = lambda x: f"{100 * x:.0f} %"
    f2 = lambda x: f"{x:.2f}"
    head = (f"{'mode':<7} {'plans chg':>9} {'gmean speedup time':>18} {'work':>6} {'improved':>14} "
            f"{'regressed':>14} {'<=1.2x oracle time':>18} {'work':>6} {'gmean/oracle time':>17} {'work':>6} "
            f"{'differ':>6} {'failed':>6}")
    lines = [head]
    for mode, s in summary.items():
        has_o = "gmean_vs_oracle_time" in s
        lines.append(
            f"{mode:<7} {s['plans_changed']:>5}/{s['queries']:<3} {s['gmean_speedup_time']:>18.2f} "
            f"{s['gmean_speedup_work']:>6.2f} {pct(s['improved_share']) + ' (' + pct(s['improved_work_share']) + ')':>14} "
            f"{pct(s['regressed_share']) + ' (' + pct(s['regressed_work_share']) + ')':>14} "
            f"{pct(s['within_1.2_oracle_time_share']) if has_o else '-':>18} "
            f"{pct(s['within_1.2_oracle_work_share']) if has_o else '-':>6} "
            f"{f2(s['gmean_vs_oracle_time']) if has_o else '-':>17} {f2(s['gmean_vs_oracle_work']) if has_o else '-':>6} "
            f"{s['results_differ']:>6} {s['failures']:>6}")
    lines.append("speedup = captured / replayed (> 1: faster than the capture); improved/regressed: beyond 10 % by "
                 "time (by work); vs oracle: replayed / the oracle replay's (1: as good as true cardinalities)")
    return "\n".join(lines)


def write_json(path: str, obj: dict) -> None:
    with open(path + ".partial", "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=1)
    os.replace(path + ".partial", path)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0],
                                epilog=__doc__.split("\n", 2)[2], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", required=True)
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--data", help="TPC-H data generated with --skew 1")
    g.add_argument("--sf", help="generate (once) TPC-H --skew 1 at this scale factor under --data-root")
    p.add_argument("--data-root", default=None, help="where --sf data lives (default: the binary's folder/data)")
    p.add_argument("--workload", default=os.path.join(ROOT, "bench", "workloads", "skewed.sql"))
    p.add_argument("--repeat", type=int, default=3, help="runs per query in the replay; times are their median")
    p.add_argument("--timeout", type=float, default=3600.0, help="seconds for the capture and for the replay")
    p.add_argument("--json", default=None, help="also write the summary and the replay's report here")
    p.add_argument("--keep", default=None, help="folder for the workload file and the stores (default: a temp dir)")
    args = p.parse_args(argv if argv is not None else sys.argv[1:])
    if args.repeat < 1:
        p.error("--repeat must be at least 1")

    data = args.data
    if data is None:
        data = ensure_data(args.bin, args.sf, args.data_root or os.path.join(os.path.dirname(args.bin) or ".", "data"))
    if not os.path.isfile(os.path.join(data, "catalog.json")):
        print(f"replay bench: no catalog.json in {data}")
        return 1
    work = args.keep or tempfile.mkdtemp(prefix="hindsight-replay-bench-")
    os.makedirs(work, exist_ok=True)
    hsw, cap_db, on_db = (os.path.join(work, n) for n in ("skewed.hsw", "capture.db", "on.db"))
    for f in (hsw, cap_db, on_db):
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(f + suffix):
                os.remove(f + suffix)
    out = {"data": data, "workload": args.workload, "repeat": args.repeat}
    try:
        print(f"== workload replay: {os.path.relpath(args.workload, ROOT)} on {data}, feedback off, on, oracle "
              f"(median of {args.repeat})", flush=True)
        t0 = time.perf_counter()
        cap = subprocess.run([args.bin, "capture", "--data", data, "--queries", args.workload, "--out", hsw,
                              "--store", cap_db], capture_output=True, text=True, timeout=args.timeout)
        out["capture"] = {"exit_code": cap.returncode, "seconds": round(time.perf_counter() - t0, 1)}
        if cap.returncode != 0 or not os.path.isfile(hsw):
            print(f"capture failed (exit {cap.returncode}): {cap.stderr.strip()[-1000:]}")
            out["error"] = f"capture exit {cap.returncode}: {cap.stderr.strip()[-1000:]}"
            if args.json:
                write_json(args.json, out)
            return 1
        if os.path.exists(cap_db):
            shutil.copyfile(cap_db, on_db)
        t1 = time.perf_counter()
        rep = subprocess.run([args.bin, "replay", hsw, "--data", data, "--feedback", ",".join(MODES), "--repeat",
                              str(args.repeat), "--store", on_db, "--format", "json"],
                             capture_output=True, text=True, timeout=args.timeout)
        out["replay_seconds"] = round(time.perf_counter() - t1, 1)
        try:
            report = json.loads(rep.stdout)
        except json.JSONDecodeError:
            print(f"replay failed (exit {rep.returncode}), no JSON: {rep.stderr.strip()[-1000:]}")
            out["error"] = f"replay exit {rep.returncode}: {rep.stderr.strip()[-1000:]}"
            if args.json:
                write_json(args.json, out)
            return 1
        out["summary"] = summarize(report)
        out["replay_exit_code"] = rep.returncode
        out["replay"] = report
        if args.json:
            write_json(args.json, out)
        print(f"capture {out['capture']['seconds']:.0f} s, replay {out['replay_seconds']:.0f} s")
        for w in ([report["data_warning"]] if report.get("data_warning") else []) + (report.get("warnings") or []):
            print(f"warning: {w}")
        print(table(out["summary"]))
        differ = sum(s["results_differ"] for s in out["summary"].values())
        if differ:
            print(f"!!! {differ} result(s) differ from the capture's on the same data !!!")
        return 1 if differ or rep.returncode != 0 else 0
    except subprocess.TimeoutExpired as e:
        print(f"replay bench: timed out after {args.timeout:.0f} s: {' '.join(e.cmd[:3])}")
        out["error"] = "timed out"
        if args.json:
            write_json(args.json, out)
        return 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
