"""Running `hindsight query --format json` and checking its output against the CLI contract."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from typing import Optional, Sequence


@dataclass
class HindsightResult:
    status: str  # "ok" | "failed" | "crash" (no JSON object on stdout) | "timeout"
    exit_code: Optional[int]
    wall_ms: float
    columns: list[dict] = field(default_factory=list)
    rows: list[list] = field(default_factory=list)
    attempts: list[dict] = field(default_factory=list)
    error_code: Optional[str] = None
    error_message: Optional[str] = None
    error_position: Optional[tuple[int, int]] = None  # (line, column) when the error object has them
    stderr: str = ""
    contract_problems: list[str] = field(default_factory=list)
    raw: Optional[dict] = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def column_types(self) -> list[str]:
        return [str(c.get("type", "")) for c in self.columns]

    @property
    def column_names(self) -> list[str]:
        return [str(c.get("name", "")) for c in self.columns]

    def attempts_elapsed_ms(self) -> Optional[float]:
        """Sum of the attempts' elapsed_ms, or None when the CLI does not report it. An attempt's counting_ms (the
        filtered scans its planning counted first: count_scans_first, reexec_count_scans) is added: that is work of
        the query, done before its execution."""
        values = [a.get("elapsed_ms") for a in self.attempts]
        if not values or any(not isinstance(v, (int, float)) or isinstance(v, bool) for v in values):
            return None
        return float(sum(values) + sum(a.get("counting_ms") or 0.0 for a in self.attempts))

    def describe_failure(self) -> str:
        if self.status == "timeout":
            return f"hindsight timed out after {self.wall_ms / 1000:.0f} s"
        if self.status == "crash":
            tail = self.stderr.strip().splitlines()[-3:]
            return f"hindsight exit code {self.exit_code}, no JSON on stdout; stderr: {' | '.join(tail)}"
        msg = (self.error_message or "").strip().replace("\n", " | ")
        return f"hindsight {self.error_code or 'failed (no error code)'}: {msg}"


def hindsight_command(binary: str, verb: str, data_dir: str, sets: Sequence[str] = (),
                      sql: Optional[str] = None, file: Optional[str] = None,
                      fmt: str = "json", extra: Sequence[str] = ()) -> list[str]:
    cmd = [binary, verb, "--data", data_dir]
    for s in sets:
        cmd += ["--set", s]
    cmd += list(extra)
    cmd += ["--format", fmt]
    if file is not None:
        cmd += ["-f", file]
    else:
        cmd.append(sql if sql is not None else "")
    return cmd


def sql_file_if_needed(sql: Optional[str]) -> Optional[str]:
    """SQL text that starts with '-' (a leading `--` comment) would be parsed as an option when
    passed as an argument: such text goes through a temporary file and -f instead."""
    if sql is None or not sql.lstrip().startswith("-"):
        return None
    fd, path = tempfile.mkstemp(prefix="hindsight-", suffix=".sql")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(sql)
    return path


def _final_error(obj: dict) -> dict:
    """The error object of the last failed attempt ({} when there is none)."""
    for attempt in reversed(obj.get("attempts") or []):
        err = attempt.get("error") if isinstance(attempt, dict) else None
        if isinstance(err, dict):
            return err
    err = obj.get("error")  # tolerated: not in the contract, but the CLI may add it
    return err if isinstance(err, dict) else {}


def run_hindsight_query(binary: str, data_dir: str, *, sql: Optional[str] = None,
                        file: Optional[str] = None, sets: Sequence[str] = (),
                        timeout: float = 300.0, verb: str = "query",
                        extra: Sequence[str] = ()) -> HindsightResult:
    """Run `hindsight query --format json` and check its output against DESIGN.md section 8."""
    tmp = sql_file_if_needed(sql) if file is None else None
    cmd = hindsight_command(binary, verb, data_dir, sets, sql=None if tmp else sql, file=tmp or file,
                            extra=extra)
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return HindsightResult("timeout", None, (time.perf_counter() - t0) * 1000.0,
                               stderr=(e.stderr or b"").decode("utf-8", "replace")
                               if isinstance(e.stderr, bytes) else (e.stderr or ""))
    finally:
        if tmp:
            os.remove(tmp)
    wall_ms = (time.perf_counter() - t0) * 1000.0
    res = HindsightResult("crash", proc.returncode, wall_ms, stderr=proc.stderr)
    try:
        obj = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return res
    if not isinstance(obj, dict) or obj.get("status") not in ("ok", "failed"):
        res.contract_problems.append("stdout is JSON but has no status 'ok'|'failed'")
        return res
    res.raw = obj
    res.status = obj["status"]
    res.columns = obj.get("columns") or []
    res.rows = obj.get("rows") or []
    res.attempts = obj.get("attempts") or []
    problems = res.contract_problems
    if res.status == "ok":
        if proc.returncode != 0:
            problems.append(f"status ok but exit code {proc.returncode}")
        if not isinstance(obj.get("columns"), list) or not isinstance(obj.get("rows"), list):
            problems.append("status ok but 'columns'/'rows' missing")
        if obj.get("row_count") != len(res.rows):
            problems.append(f"row_count {obj.get('row_count')} but {len(res.rows)} rows")
        width = len(res.columns)
        bad = next((i for i, r in enumerate(res.rows) if not isinstance(r, list) or len(r) != width), None)
        if bad is not None:
            problems.append(f"row {bad + 1} does not have {width} values")
    else:
        err = _final_error(obj)
        res.error_code, res.error_message = err.get("code"), err.get("message")
        if isinstance(err.get("line"), int) and isinstance(err.get("column"), int):
            res.error_position = (err["line"], err["column"])
        if proc.returncode != 1:
            problems.append(f"status failed but exit code {proc.returncode} (contract: 1)")
        if not res.error_code:
            problems.append("status failed but no attempt carries an error code")
    return res
