#!/usr/bin/env python3
"""Memory reported vs memory held: each operator's charged peak within 2x of the live data it held then.

EXPLAIN ANALYZE (JSON) gives every physical operator that ran `memory` (the peak its instances charged to the
memory budget: what their buffers allocate, capacities and string blocks) and `memory_held` (the live data those
buffers held at that peak: values' sizes, string bytes, the used part of hash arrays, group states; see
planner/exec/memory_tracker.hpp), and the statement `memory.peak` and `memory.held_at_peak`. For each of the 22
TPC-H queries, at each worker count, this checks

  - every operator: memory <= 2 * memory_held + FIXED per worker (and memory_held <= memory: the live data
    cannot exceed what holds it). FIXED is the fixed-size part an instance may allocate whatever its rows: a
    small join build's sparse bucket heads (at most 64 KB, planner/exec/operators/hash_join_build.hpp), a group
    table's first 16 slots. It is a constant per instance, not a per-row overhead;
  - the statement: peak <= 2 * held_at_peak.

Usage: memory_held_test.py --bin build/hindsight --data DIR [--workers 1,3] [--queries 1,18] [--report]
(--report prints every operator's figures; use it with --data on an SF 1 folder for the SF 1 table.)
"""
import json
import os
import sys

sys.dont_write_bytecode = True
import cli_harness as h  # noqa: E402
from cli_harness import fail  # noqa: E402

FIXED = 80 * 1024
MIN_BYTES = 64 * 1024  # an operator is counted as checked from this size on
RATIO = 2.0


def explain(binary, data, query_file, workers):
    cmd = [binary, "explain", "--analyze", "--format", "json", "--data", data, "--set", f"workers={workers}",
           "--set", "stats_scope=off", "-f", query_file]
    p = h.run(*cmd, timeout=600)
    h.require(p.rc == 0, f"{' '.join(cmd)} failed ({p.rc}): {p.stderr[-2000:]}")
    return json.loads(p.stdout)


def operators(node, out):
    if "memory" in node:
        out.append(node)
    for c in node.get("children", []):
        operators(c, out)


def mb(b):
    return f"{b / 1048576:.1f} MB"


def test(a):
    checked = 0
    for w in [int(x) for x in a.workers.split(",")]:
        for q in [int(x) for x in a.queries.split(",")]:
            j = explain(a.bin, a.data, os.path.join(h.TPCH, f"q{q:02d}.sql"), w)
            ops = []
            operators(j["physical"], ops)
            for c in j.get("ctes", []):
                operators(c["physical"], ops)
            if not any(o["memory"] > 0 for o in ops):
                fail(f"Q{q} w{w}: no operator reports memory (the figures are missing)")
            for o in ops:
                mem, held = o["memory"], o["memory_held"]
                name = f"Q{q} w{w} #{o['id']} {o['operator']}"
                if a.report and mem > 0:
                    print(f"{name:40s} memory {mb(mem):>10s} held {mb(held):>10s} ratio "
                          f"{mem / held if held else float('inf'):.2f}")
                if mem >= MIN_BYTES:
                    checked += 1
                if mem > RATIO * held + FIXED * w:
                    fail(f"{name}: charged {mb(mem)} for {mb(held)} held (> {RATIO}x + {FIXED * w} B)")
                if held > mem:
                    fail(f"{name}: holds {mb(held)} live but charged only {mb(mem)}")
            peak, held = j["memory"]["peak"], j["memory"]["held_at_peak"]
            if a.report:
                print(f"Q{q} w{w} statement peak {mb(peak)} held at peak {mb(held)} ratio "
                      f"{peak / held if held else float('inf'):.2f}")
            if peak >= MIN_BYTES and (held <= 0 or peak > RATIO * held):
                fail(f"Q{q} w{w}: statement peak {mb(peak)} for {mb(held)} held at the peak (> {RATIO}x)")
    if checked == 0:
        fail("no operator charged enough memory to be checked: the data is too small")
    print(f"{checked} operator figures checked, {len(h.failures)} failures")


if __name__ == "__main__":
    ap = h.parser("--bin", "--data")
    ap.add_argument("--workers", default="1,3")
    ap.add_argument("--queries", default=",".join(str(q) for q in range(1, 23)))
    ap.add_argument("--report", action="store_true")
    h.main(test, ap.parse_args(), "memory held: ok")
