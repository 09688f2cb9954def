"""What the CLI test scripts (tests/cli/*.py) share: running a process, counting checks, the exit code.

A script imports it as a sibling (Python puts the script's own folder first on sys.path, so this works from
ctest's build folder and by hand from anywhere):

    import sys
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    import cli_harness as h

    def test(args):
        rc, out, err = h.run(args.bin, "stats", "list", "--store", args.store, "--format", "json", timeout=60)
        h.check(rc == 0, f"list: {err}")
        h.check_equal(json.loads(out)["signatures"], [], "an empty store lists nothing")

    if __name__ == "__main__":
        h.main(test, h.parser("--bin", "--store").parse_args(), "empty store: ok")

- `run(*cmd, timeout=...)`: the process's exit code, stdout and stderr (a `Result`, which unpacks as
  `rc, out, err` and parses stdout with `.json`). A process that outlives its timeout is killed and one that
  dies of a signal is named as such (`killed by SIGSEGV`): either is a failure on its own, with the command
  and the tail of stderr, and its `rc` is None (timeout) or the negative signal number.
- `check(cond, what)` / `check_equal(got, want, what)` / `fail(what)`: a failed check prints `FAIL: what` at
  once (with `expected ... got ...` for check_equal) and is counted; the script goes on.
- `require(cond, what)` / `stop(what)`: a check whose failure stops the test (main reports it; no traceback).
- `main(test, args, ok_message)`: runs `test(args)`; an exception in it is a failure with its traceback; exits
  1 with the list of failures if there was any, else prints `ok_message` and exits 0.
- `cli(binary, verb, data, sql, *extra)`: `hindsight VERB --data DATA --format json EXTRA... SQL`; `cli_parts`
  gives it as (rc, JSON or None, stderr, stdout).
- Fixtures: `gen_tpch(binary, sf, out)`, ROOT (the source tree), TPCH (tests/differential/tpch; `tpch_sql("q01")`),
  `workload_names(path)`. tests/differential is put on sys.path: `import reexec_runs` works after this module.
- `plan_nodes(node)`: a JSON plan node and all below it; `limit_sweep(...)`: the spill tests' runs of one query
  under fractions of its unconstrained peak memory.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import subprocess
import sys
import traceback
from typing import Callable, Iterator, NamedTuple, Optional, Union

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIFFERENTIAL = os.path.join(ROOT, "tests", "differential")
TPCH = os.path.join(DIFFERENTIAL, "tpch")
if DIFFERENTIAL not in sys.path:
    sys.path.insert(0, DIFFERENTIAL)

failures: list[str] = []


class Stop(Exception):
    """Raised by `require`: the test cannot go on (main reports the failure already counted, no traceback)."""


# ---- checks ---------------------------------------------------------------------------------------------------

def fail(what: str) -> None:
    failures.append(what)
    print("FAIL:", what, flush=True)


def check(cond, what: str) -> bool:
    """Counts a failure (printing `what`) unless `cond` is true; returns whether it held."""
    if not cond:
        fail(what)
    return bool(cond)


def check_equal(got, want, what: str) -> bool:
    """`got == want`, else a failure saying what was expected and what came."""
    if got == want:
        return True
    fail(f"{what}: expected {want!r}, got {got!r}")
    return False


def stop(what: str) -> None:
    """A failure that ends the test (main reports it; no traceback)."""
    fail(what)
    raise Stop(what)


def require(cond, what: str) -> None:
    """Like check, but a failure stops the test (for what every later check needs: a generated data folder)."""
    if not cond:
        stop(what)


def main(test: Callable[[argparse.Namespace], Optional[int]], args: argparse.Namespace, ok_message: str) -> None:
    """Runs `test(args)` and exits: 1 if any check failed, `test` raised or returned non-zero; else 0."""
    try:
        code = test(args)
    except Stop:
        code = None
    except Exception:  # a test that raises is a failure, reported like one, not a bare traceback
        traceback.print_exc()
        fail(f"the test raised {sys.exc_info()[0].__name__}: {sys.exc_info()[1]}")
        code = None
    if code and not failures:
        fail(f"the test returned {code}")
    if failures:
        print(f"{len(failures)} failure(s):")
        for f in failures:
            print("  -", f if len(f) <= 400 else f[:400] + " ...")
        sys.exit(1)
    print(ok_message)
    sys.exit(0)


def parser(*required: str, description: Optional[str] = None) -> argparse.ArgumentParser:
    """An ArgumentParser with the given options (e.g. "--bin", "--data") as required strings."""
    ap = argparse.ArgumentParser(description=description)
    for flag in required:
        ap.add_argument(flag, required=True)
    return ap


# ---- processes ------------------------------------------------------------------------------------------------

class Result(NamedTuple):
    rc: Optional[int]  # None: killed after the timeout; negative: died of that signal
    stdout: Union[str, bytes]
    stderr: Union[str, bytes]

    @property
    def json(self):
        """stdout parsed as JSON, or None when it is empty or not JSON."""
        try:
            return json.loads(self.stdout) if self.stdout else None
        except ValueError:
            return None


def signal_name(rc: int) -> str:
    try:
        return signal.Signals(-rc).name
    except ValueError:
        return f"signal {-rc}"


def describe(cmd) -> str:
    words = [os.path.basename(str(cmd[0]))] + [str(c) for c in cmd[1:]]
    text = shlex.join(words)
    return text if len(text) <= 300 else text[:300] + " ..."


def _tail(text: Union[str, bytes, None], n: int = 600) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return (text or "")[-n:]


def run(*cmd, timeout: float = 120, text: bool = True, **kwargs) -> Result:
    """Runs `cmd` (capturing stdout and stderr; other keywords go to subprocess.run). A timeout or a death by a
    signal is a failure here already (the caller's checks on rc then fail too)."""
    cmd = [str(c) for c in cmd]
    try:
        p = subprocess.run(cmd, capture_output=True, text=text, timeout=timeout, **kwargs)
    except subprocess.TimeoutExpired as e:
        out, err = e.stdout, e.stderr
        if text:
            out = out.decode("utf-8", "replace") if isinstance(out, bytes) else (out or "")
            err = err.decode("utf-8", "replace") if isinstance(err, bytes) else (err or "")
        else:
            out, err = out or b"", err or b""
        fail(f"`{describe(cmd)}` timed out after {timeout:g} s (killed); stderr: {_tail(err)!r}")
        return Result(None, out, err)
    if p.returncode < 0:
        fail(f"`{describe(cmd)}` was killed by {signal_name(p.returncode)}; stderr: {_tail(p.stderr)!r}")
    return Result(p.returncode, p.stdout, p.stderr)


def cli(binary: str, verb: str, data: str, sql: str, *extra, fmt: str = "json", timeout: float = 120) -> Result:
    """`hindsight VERB --data DATA --format FMT EXTRA... SQL`."""
    return run(binary, verb, "--data", data, "--format", fmt, *extra, sql, timeout=timeout)


def cli_parts(binary: str, verb: str, data: str, sql: str, *extra, fmt: str = "json") -> tuple:
    """`cli` as (exit code, the JSON object or None, stderr, stdout); JSON is parsed only when fmt is json."""
    r = cli(binary, verb, data, sql, *extra, fmt=fmt)
    return r.rc, (r.json if fmt == "json" else None), r.stderr, r.stdout


# ---- fixtures and plans ---------------------------------------------------------------------------------------

def gen_tpch(binary: str, sf: str, out: str) -> str:
    """`hindsight gen tpch --sf SF --out OUT`; a failure stops the test. Returns `out`."""
    r = run(binary, "gen", "tpch", "--sf", sf, "--out", out, timeout=600)
    require(r.rc == 0, f"gen tpch --sf {sf}: exit code {r.rc}: {_tail(r.stderr)}")
    return out


def tpch_sql(name: str) -> str:
    """The text of TPC-H query `name` ("q01") from tests/differential/tpch."""
    with open(os.path.join(TPCH, f"{name}.sql"), encoding="utf-8") as f:
        return f.read()


def workload_names(path: str) -> list[str]:
    """The `-- name:` of every query of a workload SQL file, in order."""
    with open(path, encoding="utf-8") as f:
        return [line.split(":", 1)[1].strip() for line in f if line.startswith("-- name:")]


def plan_nodes(node: Optional[dict]) -> Iterator[dict]:
    """A JSON plan node and every node below it (pre-order). An empty node ({}) is yielded too, so that a check
    over all nodes of a missing plan fails on the node's missing keys rather than holding over no node."""
    if node is None:
        return
    yield node
    for c in node.get("children") or []:
        yield from plan_nodes(c)


# ---- the spill tests' limit sweep -----------------------------------------------------------------------------

class LimitRun(NamedTuple):
    fraction: float
    limit: int  # bytes
    settings: dict  # what the run was given (SET statements of its script)
    run: object  # reexec_runs.Run
    diff: Optional[str]  # None when the run failed or returned the unconstrained rows


def limit_sweep(binary: str, data: str, sql: str, workers: int, fractions, tmp: str, what: str,
                ordered: Optional[bool] = None) -> Iterator[LimitRun]:
    """One unconstrained run of `sql` (no re-execution), then for each fraction f a run with `spill = on` and
    `memory_limit` f x its peak; each is one process on a fresh store (reexec_runs.run_query: the tables loaded
    by statements before the limit is set). Yields a LimitRun per fraction, its rows compared with the
    unconstrained run's (in order when `ordered`, by default when the query has a top-level ORDER BY).
    An unconstrained run that fails is a failure ("`what`: the unconstrained run failed") and yields nothing."""
    import reexec_runs as rr
    none = {"reexec_strategies": "none"}
    base = rr.run_query(binary, data, sql, none, tmp, workers=workers)
    if not check(base.ok, f"{what}: the unconstrained run failed: {base.describe()}"):
        return
    if ordered is None:
        ordered = rr.has_top_level_order_by(sql)
    for frac in fractions:
        limit = int(base.peak() * frac)
        settings = dict(none, spill="on", memory_limit=str(limit))
        r = rr.run_query(binary, data, sql, settings, tmp, workers=workers)
        diff = rr.rows_difference(r.obj["rows"], base.obj["rows"], ordered) if r.ok else None
        yield LimitRun(frac, limit, settings, r, diff)
