#!/usr/bin/env python3
"""Compare two merged bench results (scripts/bench-compare.sh OLD.json NEW.json [--threshold 10]).

For every metric in both files: old, new, new/old, and a mark when it moved beyond the threshold (percent) in the
direction that matters for it: "regressed" or "improved". Which way is better comes from one table, DIRECTIONS
(first matching pattern wins): lower for times, work, failures and ratios to a peer or to the oracle; higher for
speedups, rescue and within-1.2x shares and SQLite/Hindsight; "-" (informational, never marked) for counts such
as plans changed. Metrics only in one file are listed as added or removed; sections whose status differs too.

Raw times differ by machine: for engine speed read the ratios against a peer (duckdb.*hindsight_over_duckdb,
sqlite.*sqlite_over_hindsight), not the micro benchmarks' nanoseconds, when the files come from two machines.

Exit code 0 whatever moved (the script reports, it does not judge); 2 when a file cannot be read or is not a
merged bench result.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys

# (pattern on the metric name, "lower" | "higher" | "-", why). First match wins; no match: "-".
DIRECTIONS = [
    (r"(^|\.)(failed|failures|failures_introduced|foundation_failed|problems|wrong|results_differ|rows_differ|"
     r"over_bound)$", "lower", "something went wrong: fewer is better"),
    (r"regressed(_work)?_share$", "lower", "share of queries slower (more work) than captured"),
    (r"stats_share_(median|worst)$", "lower", "collection + store time as a share of query time"),
    (r"(^|\.)failures_fixed$", "higher", "queries that failed when captured and run now"),
    (r"_share$", "higher", "shares: improved, within 1.2x of the oracle, rescued"),
    (r"gmean_speedup_(time|work)$", "higher", "captured / replayed: > 1 is faster (less work) than the capture"),
    (r"sqlite_over_hindsight$", "higher", "SQLite time / Hindsight time"),
    (r"foundation_over_cost$", "higher", "foundation planner time / cost-based time"),
    (r"hindsight_over_duckdb$", "lower", "Hindsight time / DuckDB time (the headline engine-speed figure)"),
    (r"(_over_oracle|_vs_oracle)(_time|_work|_cpu)?$", "lower", "ratio to the plan with true cardinalities"),
    (r"wall_on_over_off$", "lower", "process wall time with the store / without"),
    (r"worst_strict$", "lower", "peak RSS against memory_limit"),
    (r"(_ns|_ms|_seconds)$", "lower", "times (machine dependent)"),
]


def direction(name: str) -> str:
    for pattern, d, _ in DIRECTIONS:
        if re.search(pattern, name):
            return d
    return "-"


class BadFile(Exception):
    pass


def load(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            obj = json.load(f)
    except OSError as e:
        raise BadFile(f"{path}: cannot read: {e.strerror or e}")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise BadFile(f"{path}: not JSON: {e}")
    if not isinstance(obj, dict) or not isinstance(obj.get("metrics"), dict):
        raise BadFile(f"{path}: not a merged bench result (no \"metrics\" object; see docs/benchmarks.md)")
    for k, v in obj["metrics"].items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise BadFile(f"{path}: metric {k!r} is not a number: {v!r}")
    return obj


def mark(d: str, old: float, new: float, threshold: float) -> str:
    if d == "-" or old == new:
        return ""
    if old == 0:
        worse = new > 0 if d == "lower" else new < 0
        return "regressed" if worse else "improved"
    change = (new - old) / abs(old) * 100
    if abs(change) <= threshold:
        return ""
    worse = change > 0 if d == "lower" else change < 0
    return "regressed" if worse else "improved"


def fmt(v: float) -> str:
    if v == 0:
        return "0"
    if abs(v) >= 1e5 or abs(v) < 1e-3:
        return f"{v:.3g}"
    return f"{v:.4g}"


def compare(old: dict, new: dict, threshold: float) -> dict:
    om, nm = old["metrics"], new["metrics"]
    rows = []
    for name in sorted(set(om) & set(nm)):
        o, n = om[name], nm[name]
        d = direction(name)
        ratio = n / o if o != 0 else (1.0 if n == 0 else math.inf)
        rows.append({"metric": name, "better": d, "old": o, "new": n, "ratio": ratio, "mark": mark(d, o, n, threshold)})
    sections = []
    os_, ns = old.get("sections") or {}, new.get("sections") or {}
    for name in sorted(set(os_) | set(ns)):
        a = (os_.get(name) or {}).get("status", "absent")
        b = (ns.get(name) or {}).get("status", "absent")
        if a != b:
            sections.append((name, a, b))
    return {"rows": rows, "added": sorted(set(nm) - set(om)), "removed": sorted(set(om) - set(nm)),
            "sections": sections}


def describe(obj: dict) -> str:
    m = obj.get("meta") or {}
    dirty = " (dirty)" if m.get("dirty") else ""
    return f"{m.get('commit', '?')}{dirty}, SF {m.get('sf', '?')}, {m.get('date', '?')}, nproc {m.get('nproc', '?')}, " \
           f"repeat {m.get('repeat', '?')}"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0],
                                epilog=__doc__.split("\n", 2)[2], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--threshold", type=float, default=10.0, help="percent change that counts (default 10)")
    p.add_argument("--only-marked", action="store_true", help="list only the metrics that moved beyond it")
    args = p.parse_args(argv if argv is not None else sys.argv[1:])
    try:
        old, new = load(args.old), load(args.new)
    except BadFile as e:
        print(f"bench-compare: {e}", file=sys.stderr)
        return 2
    r = compare(old, new, args.threshold)
    print(f"old: {args.old}: {describe(old)}")
    print(f"new: {args.new}: {describe(new)}")
    om, nm = old.get("meta") or {}, new.get("meta") or {}
    for key in ("sf", "nproc", "repeat"):
        if om.get(key) != nm.get(key):
            print(f"note: {key} differs ({om.get(key)} -> {nm.get(key)}): the figures are not like for like")
    print(f"threshold {args.threshold:g} %; better: lower / higher / - (informational, never marked)\n")
    width = max([len(x["metric"]) for x in r["rows"]] + [6])
    print(f"{'metric':<{width}} {'better':<6} {'old':>10} {'new':>10} {'new/old':>8}  mark")
    for x in r["rows"]:
        if args.only_marked and not x["mark"]:
            continue
        ratio = "inf" if math.isinf(x["ratio"]) else f"{x['ratio']:.3f}"
        print(f"{x['metric']:<{width}} {x['better']:<6} {fmt(x['old']):>10} {fmt(x['new']):>10} {ratio:>8}  "
              f"{x['mark'].upper() if x['mark'] == 'regressed' else x['mark']}")
    reg = [x["metric"] for x in r["rows"] if x["mark"] == "regressed"]
    imp = [x["metric"] for x in r["rows"] if x["mark"] == "improved"]
    print(f"\n{len(r['rows'])} metrics in both: {len(reg)} regressed, {len(imp)} improved beyond {args.threshold:g} %")
    for name, a, b in r["sections"]:
        print(f"section {name}: {a} -> {b}")
    if r["added"]:
        print(f"added ({len(r['added'])}, only in new): {', '.join(r['added'])}")
    if r["removed"]:
        print(f"removed ({len(r['removed'])}, only in old): {', '.join(r['removed'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
