#!/usr/bin/env python3
"""Randomized differential testing: random queries on Hindsight against SQLite, and against themselves.

    run_random.py --bin build/hindsight --workdir DIR [--seed S] [--queries N] [--jobs J]
                  [--workers 1,4] [--data-seed D] [--only I[,I...]] [--no-minimize] [--print-sql]

Data: random_data.py writes a small dataset with NULLs (hash-distributed tables of 4 and 3 buckets, a
random, a replicated and an empty table) into DIR/data, once per data seed, and SQLite loads it in memory
(tests/differential/sqlite_data.py).

Queries: random_queries.py; query I of seed S is the same on every run (its generator is seeded with "S:I"),
so `--seed S --only I` replays one. Some queries also get settings (optimizer=foundation,
cte_materialization=always, a few disabled_rules), printed with a failure. Each query Q is checked two ways,
each with --set workers=W for every W of --workers:
  (a) Q on Hindsight equals Q on SQLite (tests/differential/result_compare.py rules: as multisets, or in
      order for a query with ORDER BY, which then names every output column);
  (b) ternary logic partitioning, for a random predicate p: Q WHERE p UNION ALL Q WHERE NOT p UNION ALL
      Q WHERE p IS NULL on Hindsight equals Q on SQLite. Variants: for a query without GROUP BY whose
      aggregates are count, sum, min and max, the partitions' aggregates are combined (sums of counts and
      sums, min of mins, max of maxes); for GROUP BY, p is a HAVING term over the keys and aggregates; for
      DISTINCT, the partitions are combined with UNION. Not for UNION queries or ORDER BY/LIMIT.
A Hindsight error is a failure when it is a crash, a timeout, INTERNAL or a broken CLI contract, or when one
worker count fails and another does not; other errors (the generator wrote something Hindsight does not
support) count as rejected, and more than 30 % rejected or skipped queries fail the run, so that the test
cannot quietly check nothing. A query SQLite rejects is skipped.

A failure whose message names an open finding of KNOWN_FAILURES (known_failures.md) is printed as KNOWN
and does not fail the run (unless --strict). Every other failure is minimized (parts of the query dropped while the same check still fails) and printed with
both SQL texts, the difference and the command that replays it. Last line: `N passed, M failed, K skipped`
(skipped: rejected by either engine).
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import json
import os
import random
import sqlite3
import sys
import threading
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "differential"))
import hindsight_harness as hh  # noqa: E402
import random_data  # noqa: E402
import random_queries as rq  # noqa: E402

# Open findings of known_failures.md, by a piece of their message: reported as KNOWN, not failed, so that the
# suite stays green until they are fixed (--strict fails them too). Delete an entry once its fix has landed.
KNOWN_FAILURES: dict[str, str] = {}  # none open (K7, "a gather exchange has one consumer", is fixed)

DATA_STAMP = ".random-data.json"
DATA_VERSION = 2
MAX_REJECTED_SHARE = 0.30


def round_floats(rows):
    """Floats to 10 significant digits. SQLite computes DECIMAL in doubles (-34.88999999999999 for -34.89): the
    comparison tolerates that per value, but its multiset matching sorts rows first, and such noise can sort
    rows of one group in another order on each side. Rounding both sides first keeps them aligned."""
    return [[float(f"{v:.10g}") if isinstance(v, float) else v for v in r] for r in rows]


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", required=True, help="the hindsight executable")
    p.add_argument("--workdir", required=True, help="folder for the dataset (written once per data seed)")
    p.add_argument("--seed", type=int, default=None, help="query seed (default: random, printed)")
    p.add_argument("--data-seed", type=int, default=1, help="dataset seed (default 1)")
    p.add_argument("--queries", type=int, default=300)
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 2)
    p.add_argument("--workers", default="1,4", help="worker counts every query runs with (default 1,4)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per Hindsight run")
    p.add_argument("--only", default=None, help="comma list of query indexes to run (replay)")
    p.add_argument("--no-minimize", action="store_true")
    p.add_argument("--strict", action="store_true", help="known failures (KNOWN_FAILURES) fail the run too")
    p.add_argument("--print-sql", action="store_true", help="print every query and its TLP predicate")
    p.add_argument("--no-full-join", action="store_true",
                   help="generate no FULL JOIN (to look past K4 of known_failures.md while it is open)")
    p.add_argument("--sql", default=None, help="check this one query (no TLP) on the dataset and exit")
    return p.parse_args(argv)


def prepare_data(workdir: str, data_seed: int, binary: str) -> str:
    data = os.path.join(workdir, "data")
    stamp = {"data_seed": data_seed, "version": DATA_VERSION}
    path = os.path.join(data, DATA_STAMP)
    try:
        with open(path, encoding="utf-8") as f:
            if json.load(f) == stamp:
                return data
    except (OSError, ValueError):
        pass
    if os.path.isdir(data):
        import shutil
        shutil.rmtree(data)
    random_data.write_dataset(data, data_seed)
    # Load every table and compute its statistics once, before parallel runs share the folder.
    res = hh.run_hindsight_query(binary, data, sql="ANALYZE")
    if not res.ok:
        raise SystemExit(f"run_random: ANALYZE on the generated data failed: {res.describe_failure()}")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(stamp, f)
    return data


class Checker:
    def __init__(self, args, data: str):
        self.binary = args.bin
        self.data = data
        self.workers = [int(w) for w in args.workers.split(",") if w.strip()]
        self.timeout = args.timeout
        self.local = threading.local()

    def sqlite(self) -> sqlite3.Connection:
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = hh.open_memory_sqlite(self.data, index_keys=False)
            self.local.conn = conn
        return conn

    def hindsight(self, sql: str, workers: int, sets: list[str]):
        return hh.run_hindsight_query(self.binary, self.data, sql=sql, sets=[f"workers={workers}"] + sets,
                                      timeout=self.timeout)

    def check(self, q, p: str, sets: list[str] = ()) -> tuple[str, str, str]:
        """(outcome, label, message): outcome ok | skip | rejected | fail; label names the failing check."""
        sql = q.render()
        try:
            _, sq_rows, _ = hh.run_sqlite(self.sqlite(), sql)
            sq_rows = round_floats(sq_rows)
            ncols = len(self.sqlite().execute(f"SELECT * FROM ({sql}) LIMIT 0").description or [])
        except sqlite3.Error as e:
            return "skip", "sqlite", f"sqlite: {e}"
        checks = [("query", sql)]
        tlp = rq.tlp_queries(q, p)
        if tlp:
            checks.append(("tlp", tlp))
        rejected = None
        for name, text in checks:
            outcomes = {}
            for w in self.workers:
                hs = self.hindsight(text, w, list(sets))
                label = " ".join([f"{name} workers={w}"] + list(sets))
                if hs.contract_problems:
                    return "fail", label, "CLI contract: " + "; ".join(hs.contract_problems)
                if not hs.ok:
                    if hs.status in ("crash", "timeout") or hs.error_code == "INTERNAL":
                        return "fail", label, hs.describe_failure()
                    outcomes[w] = f"{hs.error_code}: {(hs.error_message or '').splitlines()[0] if hs.error_message else ''}"
                    continue
                outcomes[w] = "ok"
                hs.rows = round_floats(hs.rows)
                cmp = hh.compare_results(hs, sq_rows, ncols, hh.top_level_order_by(sql), sql)
                if not cmp.ok:
                    return "fail", label, cmp.message
            if len(set(v == "ok" for v in outcomes.values())) > 1:
                return "fail", f"{name} workers", f"workers disagree: {outcomes}"
            bad = [v for v in outcomes.values() if v != "ok"]
            if bad:
                if name == "query":
                    return "rejected", name, bad[0]
                rejected = bad[0]
        if rejected:
            return "rejected", "tlp", rejected
        return "ok", "", ""

    def minimize(self, q, p: str, sets: list[str], label: str, budget: int = 400):
        """Drops parts of q while the same check (label) still fails; returns (q, message)."""
        best, message = q, ""
        tries = 0
        improved = True
        while improved and tries < budget:
            improved = False
            for cand in rq.shrink_candidates(best):
                tries += 1
                if tries > budget:
                    break
                outcome, lab, msg = self.check(cand, p, sets)
                if outcome == "fail" and lab == label:
                    best, message, improved = cand, msg, True
                    break
        return best, message


def generate(seed: int, index: int, full_joins: bool = True):
    """Query `index` of `seed`: (query, TLP predicate, extra --set values for both worker counts)."""
    rng = random.Random(f"{seed}:{index}")
    gen = rq.Generator(rng, full_joins)
    q = gen.query()
    p = gen.predicate_for(q.left if isinstance(q, rq.Union) else q)
    sets = []
    if rng.random() < 0.2:
        sets.append("optimizer=foundation")
    if rng.random() < 0.2:
        sets.append("cte_materialization=always")
    if rng.random() < 0.15:
        rules = ["constant_folding", "simplify_predicates", "simplify_outer_joins", "push_down_filters",
                 "reorder_inner_joins", "prune_columns", "cost_based_join_order"]
        sets.append("disabled_rules=" + ",".join(rng.sample(rules, rng.randint(1, 3))))
    return q, p, sets


def main(argv) -> int:
    args = parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    print(f"run_random: seed {seed} (replay with --seed {seed}), data seed {args.data_seed}, "
          f"workers {args.workers}", flush=True)
    data = prepare_data(args.workdir, args.data_seed, args.bin)
    checker = Checker(args, data)
    if args.sql:
        outcome, label, msg = checker.check(rq.Literal(args.sql), "TRUE")
        print(f"{outcome} {label} {msg}")
        return 0 if outcome == "ok" else 1
    indexes = [int(i) for i in args.only.split(",")] if args.only else list(range(args.queries))

    def run_one(i):
        q, p, sets = generate(seed, i, not args.no_full_join)
        return i, q, p, sets, checker.check(q, p, sets)

    counts = collections.Counter()
    rejections = collections.Counter()
    failures = []
    t0 = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for i, q, p, sets, (outcome, label, msg) in pool.map(run_one, indexes):
            counts[outcome] += 1
            if args.print_sql:
                print(f"[{i}] {outcome} {q.render()}\n      p = {p}; settings {sets}")
            if outcome in ("rejected", "skip"):
                rejections[msg[:100]] += 1
            known = next((k for k, text in KNOWN_FAILURES.items() if text in msg), None)
            if outcome == "fail" and known and not args.strict:
                counts["known"] += 1
                print(f"KNOWN {known} query {i} ({label}): {msg}", flush=True)
            elif outcome == "fail":
                failures.append((i, q, p, sets, label, msg))
                print(f"FAIL query {i} ({label}): {msg}", flush=True)
    elapsed = time.perf_counter() - t0

    for i, q, p, sets, label, msg in failures:
        print(f"\n=== query {i}, check '{label}'")
        print(f"  {msg}")
        print(f"  SQL: {q.render()}")
        if label.startswith("tlp"):
            print(f"  TLP predicate p: {p}")
        if not args.no_minimize:
            small, small_msg = checker.minimize(q, p, sets, label)
            if small is not q:
                print(f"  minimized: {small.render()}")
                print(f"  minimized difference: {small_msg}")
                if label.startswith("tlp"):
                    print(f"  minimized TLP query: {rq.tlp_queries(small, p)}")
        print(f"  replay: {os.path.basename(__file__)} --bin {args.bin} --workdir {args.workdir} "
              f"--seed {seed} --data-seed {args.data_seed} --only {i}")

    total = len(indexes)
    not_checked = counts["rejected"] + counts["skip"] + counts["known"]
    print(f"\nrun_random: {total} queries in {elapsed:.1f} s: {counts['ok']} checked, {counts['rejected']} rejected "
          f"by Hindsight, {counts['skip']} rejected by SQLite, {counts['known']} known failures, {len(failures)} failed "
          f"(seed {seed})")
    for msg, n in rejections.most_common(8):
        print(f"  rejected {n}x: {msg}")
    too_many = total >= 50 and not_checked > MAX_REJECTED_SHARE * total
    if too_many:
        print(f"run_random: {not_checked} of {total} queries were not checked (limit {MAX_REJECTED_SHARE:.0%}): "
              f"the generator and the engine drifted apart")
    print(f"{counts['ok']} passed, {len(failures) + (1 if too_many else 0)} failed, {not_checked} skipped")
    return 1 if failures or too_many else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
