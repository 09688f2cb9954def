#!/usr/bin/env python3
"""Merge the JSON of every `make bench` section into one file (scripts/bench.sh calls it; docs/benchmarks.md).

    bench_merge.py --dir SECTIONS_DIR --out OUT.json --meta KEY=VALUE... [--latest LATEST.json]

SECTIONS_DIR holds, per section NAME (the order of SECTIONS), what scripts/bench.sh left there:
  NAME.json    the section's own --json output (absent when it wrote none)
  NAME.status  one line: "EXIT_CODE SECONDS" of the section's command, or "skipped WHY"
A section with neither is recorded as "not run"; one whose command failed or wrote no JSON as "failed"; one whose
JSON says {"skipped": why} as "skipped". Nothing is silently missing.

The output: {"format": "hindsight-bench/1", "meta": {...}, "sections": {NAME: {"status", "exit_code", "seconds",
"reason", "data"}}, "metrics": {"SECTION.KEY...": number}}. The metrics are every number under each section's
"summary" (nested keys joined by "."), plus per query peer ratios (sqlite.qNN.sqlite_over_hindsight,
duckdb.qNN.hs_wN.hindsight_over_duckdb) and, for the micro benchmarks, micro.NAME.cpu_ns (the mean over
repetitions when there are several). bench_compare.py compares the metrics of two such files.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys

FORMAT = "hindsight-bench/1"
# In the order bench.sh runs them.
SECTIONS = ("sqlite", "duckdb", "feedback", "plan_quality", "reexec", "memory", "replay", "micro")
TIME_UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def number(v) -> float | None:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return v if math.isfinite(v) else None


def flatten(prefix: str, obj, out: dict) -> None:
    if isinstance(obj, dict):
        for k, v in obj.items():
            flatten(f"{prefix}.{k}", v, out)
    else:
        v = number(obj)
        if v is not None:
            out[prefix] = v


def section_metrics(name: str, data) -> dict:
    out: dict = {}
    if not isinstance(data, dict):
        return out
    if name == "micro":
        runs = data.get("benchmarks") or []
        has_mean = any(b.get("aggregate_name") == "mean" for b in runs)
        for b in runs:
            if has_mean and b.get("aggregate_name") != "mean":
                continue
            if not has_mean and b.get("run_type", "iteration") != "iteration":
                continue
            bench = b.get("run_name") or b.get("name")
            t = number(b.get("cpu_time"))
            if bench and t is not None:
                out[f"micro.{bench}.cpu_ns"] = t * TIME_UNIT_NS.get(b.get("time_unit", "ns"), 1.0)
        return out
    flatten(name, data.get("summary") or {}, out)
    per_query = (data.get("queries") or []) if name in ("sqlite", "duckdb") else []
    for q in per_query:
        if not isinstance(q, dict) or "query" not in q:
            continue
        if name == "sqlite":
            v = number(q.get("sqlite_over_hindsight"))
            if v is not None:
                out[f"sqlite.{q['query']}.sqlite_over_hindsight"] = v
        else:
            for key, fig in q.items():
                if isinstance(fig, dict) and number(fig.get("hindsight_over_duckdb")) is not None:
                    out[f"duckdb.{q['query']}.{key}.hindsight_over_duckdb"] = fig["hindsight_over_duckdb"]
    return out


def read_section(folder: str, name: str) -> dict:
    rec = {"status": "not run", "exit_code": None, "seconds": None, "reason": None, "data": None}
    status_file = os.path.join(folder, name + ".status")
    json_file = os.path.join(folder, name + ".json")
    if os.path.isfile(status_file):
        with open(status_file, encoding="utf-8") as f:
            parts = f.read().strip().split(" ", 2)
        if parts and parts[0] == "skipped":
            rec.update(status="skipped", reason=" ".join(parts[1:]) or "skipped")
            return rec
        try:
            rec["exit_code"] = int(parts[0])
            rec["seconds"] = float(parts[1]) if len(parts) > 1 else None
        except ValueError:
            rec.update(status="failed", reason=f"unreadable status {' '.join(parts)!r}")
            return rec
    if os.path.isfile(json_file):
        try:
            with open(json_file, encoding="utf-8") as f:
                rec["data"] = json.load(f)
        except (OSError, json.JSONDecodeError) as e:
            rec["reason"] = f"unreadable JSON: {e}"
    if rec["exit_code"] is None and rec["data"] is None:
        rec["reason"] = rec["reason"] or "the section did not run"
        return rec
    data = rec["data"]
    if isinstance(data, dict) and data.get("skipped"):
        rec.update(status="skipped", reason=str(data["skipped"]))
    elif rec["exit_code"] not in (0, None):
        rec.update(status="failed", reason=rec["reason"] or (isinstance(data, dict) and data.get("error"))
                   or f"exit code {rec['exit_code']} (the section's output above says why)")
    elif data is None:
        rec.update(status="failed", reason=rec["reason"] or "the section wrote no JSON")
    else:
        rec["status"] = "ok"
    return rec


def merge(folder: str, meta: dict) -> dict:
    sections = {name: read_section(folder, name) for name in SECTIONS}
    metrics: dict = {}
    for name, rec in sections.items():
        metrics.update(section_metrics(name, rec["data"]))
    return {"format": FORMAT, "meta": meta, "sections": sections, "metrics": dict(sorted(metrics.items()))}


NUMERIC_META = ("sf", "nproc", "repeat", "timeout")


def parse_meta(items: list[str]) -> dict:
    """KEY=VALUE strings; sf, nproc, repeat and timeout as numbers, dirty as a boolean, the rest as text."""
    meta: dict = {}
    for item in items:
        key, _, value = item.partition("=")
        if key in NUMERIC_META:
            try:
                value = int(value)
            except ValueError:
                try:
                    value = float(value)
                except ValueError:
                    pass
        elif key == "dirty":
            value = value == "true"
        meta[key] = value
    return meta


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0],
                                epilog=__doc__.split("\n", 2)[2], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dir", required=True, help="the folder of NAME.json and NAME.status files")
    p.add_argument("--out", required=True)
    p.add_argument("--meta", nargs="*", default=[], help="KEY=VALUE (sf, nproc, repeat, timeout: numbers; dirty: true/false)")
    p.add_argument("--latest", default=None, help="also copy the result here")
    args = p.parse_args(argv if argv is not None else sys.argv[1:])
    merged = merge(args.dir, parse_meta(args.meta))
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out + ".partial", "w", encoding="utf-8") as f:
        json.dump(merged, f, indent=1)
    os.replace(args.out + ".partial", args.out)
    if args.latest:
        shutil.copyfile(args.out, args.latest + ".partial")
        os.replace(args.latest + ".partial", args.latest)
    print(f"\n== bench results: {args.out} ({len(merged['metrics'])} metrics)")
    for name, rec in merged["sections"].items():
        extra = f" ({rec['seconds']:.0f} s)" if rec.get("seconds") is not None else ""
        why = f": {rec['reason']}" if rec["status"] != "ok" and rec.get("reason") else ""
        print(f"  {name:<13} {rec['status']}{extra}{why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
