#!/usr/bin/env python3
"""No strategy, limit or data combination makes a re-executed query return other rows than one unconstrained run.

    reexec_random_test.py --bin build/hindsight --uniform DIR --skewed DIR [--seed S] [--cases N] [--jobs J]
                          [--only REGEX] [--long]

Queries: the 22 TPC-H queries (tests/differential/tpch) and the skewed workload (bench/workloads/skewed.sql);
data: TPC-H SF 0.01 uniform and --skew 1 (the ctest fixtures). Each case draws, from the seed: a query, a
dataset, workers 1/2/3, a memory limit of 0.3, 0.6 or 0.9 × that query's unconstrained peak memory (measured
once per query, dataset and workers with the same preloads: tests/differential/reexec_runs.py), a non-empty
list of strategies from reoptimize/overlay/retry in random order (overlay with a random scoped or global
overlay), a random `reexec_max_attempts`, and in 40 % of the cases a fault injected at a random operator
after a random number of rows (TRANSIENT mostly, sometimes MEMORY_LIMIT_EXCEEDED or TIMEOUT; 1-3 times).
Each case runs in a process of its own with a fresh stats store.

A case passes when the run either succeeds with exactly the unconstrained rows (position by position under a
top-level ORDER BY, else as multisets; doubles within 1e-9 relative) or fails with a typed error
(MEMORY_LIMIT_EXCEEDED, TIMEOUT, TRANSIENT), exit code 1 and a JSON object; never INTERNAL or another code in
any attempt, never a crash or a hang, never more attempts than allowed. A failing case prints the command line
that replays it (`--seed S --only-case I`). The seed is printed first; `--long` draws 10x the cases with a
random seed unless one is given (`make reexec-fuzz`).
"""
import concurrent.futures
import random
import sys
import tempfile
import time

sys.dont_write_bytecode = True
import cli_harness as h  # noqa: E402
import reexec_runs as rr  # noqa: E402  (tests/differential, on sys.path through cli_harness)

FRACTIONS = (0.3, 0.6, 0.9)
WORKERS = (1, 2, 3)
STRATEGIES = ("reoptimize", "overlay", "retry")
FAULT_OPERATORS = ("TableScan", "Filter", "Project", "HashJoinBuild", "HashJoinProbe", "HashAggregate", "Sort",
                   "TopN", "ExchangeSink", "ExchangeSource", "NestedLoopJoin")
OVERLAYS = ("workers=1", "workers=4", "memory_limit=8GB", "disabled_rules=cost_based_join_order", "workers=2;timeout=60s")


def draw_case(rng: random.Random, n_queries: int) -> dict:
    c = {"query": rng.randrange(n_queries), "data": rng.choice(("uniform", "skewed")),
         "workers": rng.choice(WORKERS), "fraction": rng.choice(FRACTIONS)}
    strategies = rng.sample(STRATEGIES, rng.randint(1, len(STRATEGIES)))
    s = {"reexec_strategies": ",".join(strategies), "reexec_max_attempts": str(rng.choice((2, 3, 3, 4)))}
    if "overlay" in strategies:
        key = rng.choice(("reexec_overlay", "reexec_overlay.MEMORY_LIMIT_EXCEEDED", "reexec_overlay.TRANSIENT"))
        s[key] = rng.choice(OVERLAYS)
    if rng.random() < 0.4:
        code = rng.choice(("TRANSIENT",) * 4 + ("MEMORY_LIMIT_EXCEEDED", "TIMEOUT"))
        s["fault_injection"] = (f"operator={rng.choice(FAULT_OPERATORS)};after_rows={rng.choice((0, 1, 100, 1000, 5000))};"
                                f"error={code};times={rng.randint(1, 3)}")
    c["settings"] = s
    return c


def arguments():
    ap = h.parser("--bin", description=__doc__.split("\n", 1)[0])
    ap.add_argument("--uniform", required=True, help="TPC-H SF 0.01")
    ap.add_argument("--skewed", required=True, help="TPC-H SF 0.01 --skew 1")
    ap.add_argument("--seed", type=int, default=None, help="default 12 (random with --long)")
    ap.add_argument("--cases", type=int, default=None, help="default 400 (4000 with --long)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--long", action="store_true", help="10x the cases, a random seed unless --seed")
    ap.add_argument("--only-case", type=int, default=None, help="replay one case of the seed's sequence")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per process")
    return ap.parse_args()


def test(args):
    seed = args.seed if args.seed is not None else (random.randrange(1 << 31) if args.long else 12)
    n = args.cases if args.cases is not None else (4000 if args.long else 400)
    print(f"seed {seed}, {n} cases (replay: --seed {seed})", flush=True)
    rng = random.Random(seed)
    qs = rr.corpus()
    cases = [draw_case(rng, len(qs)) for _ in range(n)]
    indices = [args.only_case] if args.only_case is not None else list(range(n))
    data = {"uniform": args.uniform, "skewed": args.skewed}
    tmp = tempfile.mkdtemp(prefix="hindsight-reexec-random-")
    t0 = time.perf_counter()

    # Unconstrained baselines, once per (query, data, workers) a case needs: the rows and the peak memory.
    needed = sorted({(cases[i]["query"], cases[i]["data"], cases[i]["workers"]) for i in indices})
    base: dict = {}

    def baseline(key):
        q, d, w = key
        return key, rr.run_query(args.bin, data[d], qs[q][1], {"reexec_strategies": "none"}, tmp,
                                 args.timeout, workers=w)

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for key, run in pool.map(baseline, needed):
            if not run.ok:
                h.fail(f"baseline {qs[key[0]][0]} on {key[1]} workers={key[2]} failed: {run.describe()}")
            base[key] = run
    print(f"{len(needed)} unconstrained baselines in {time.perf_counter() - t0:.1f} s", flush=True)

    def one(i):
        c = cases[i]
        key = (c["query"], c["data"], c["workers"])
        ref = base[key]
        if not ref.ok:
            return i, None, "no baseline"
        limit = max(1024, int(ref.peak() * c["fraction"]))
        settings = {"memory_limit": f"{limit}B", **c["settings"]}
        return i, rr.run_query(args.bin, data[c["data"]], qs[c["query"]][1], settings, tmp, args.timeout,
                               workers=c["workers"]), None

    stats = {"ok": 0, "failed": 0, "reexecuted": 0, "rescued": 0}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for i, run, skip in pool.map(one, indices):
            c = cases[i]
            name = qs[c["query"]][0]
            if run is None:
                continue
            ref = base[(c["query"], c["data"], c["workers"])]
            what = (f"case {i}: {name} on {c['data']}, workers={c['workers']}, {run.settings}")
            replay = f"(replay: --seed {seed} --only-case {i})"
            bad = None
            codes = [(a.get("error") or {}).get("code") for a in run.attempts]
            max_attempts = int(c["settings"]["reexec_max_attempts"])
            if run.rc is None:
                bad = "hung (killed after the timeout)"
            elif run.obj is None:
                bad = f"crashed or printed no JSON: {run.describe()}"
            elif any(code is not None and code not in rr.TYPED_FAILURES for code in codes):
                bad = f"an attempt failed with an untyped or unexpected error: {run.describe()}"
            elif len(run.attempts) > max_attempts or not run.attempts:
                bad = f"{len(run.attempts)} attempts (at most {max_attempts}): {run.describe()}"
            elif run.ok:
                diff = rr.rows_difference(run.obj["rows"], ref.obj["rows"], rr.has_top_level_order_by(qs[c["query"]][1]))
                if diff:
                    bad = f"WRONG ROWS after {len(run.attempts)} attempt(s): {diff}; attempts: {run.describe()}"
                stats["ok"] += 1
                stats["rescued"] += len(run.attempts) > 1 and codes[0] is not None
            elif run.rc != 1 or run.obj.get("status") != "failed" or run.final_error is None:
                bad = f"failed without a typed error: rc {run.rc}, {run.describe()}"
            else:
                stats["failed"] += 1
            stats["reexecuted"] += len(run.attempts) > 1
            if bad:
                h.fail(f"{what}: {bad} {replay}")
    print(f"{len(indices)} cases in {time.perf_counter() - t0:.1f} s: {stats['ok']} succeeded "
          f"({stats['rescued']} after a failed attempt), {stats['failed']} failed with a typed error, "
          f"{stats['reexecuted']} re-executed")
    if h.failures:
        print(f"{len(h.failures)} problem(s); seed {seed}")


if __name__ == "__main__":
    h.main(test, arguments(), "reexec random: ok")
