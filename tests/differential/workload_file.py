"""A workload file: several statements, each after a `-- name: NAME` line (bench/workloads/*.sql).

Comment lines before the first `-- name:` line describe the file; the lines between a `-- name:` line and the
next belong to that query (its own comments included). A statement ends with `;`; a query must hold exactly one.
"""

from __future__ import annotations

import re

_NAME = re.compile(r"^--\s*name:\s*(\S+)\s*$")


def read_workload(path: str) -> list[tuple[str, str]]:
    """[(name, sql)] in file order; raises ValueError for a duplicate name, an empty query or two statements."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    out: list[tuple[str, str]] = []
    name, body = None, []

    def flush():
        if name is None:
            return
        code = [ln for ln in body if ln.strip() and not ln.lstrip().startswith("--")]
        text = "\n".join(code).strip()
        if not text:
            raise ValueError(f"{path}: query {name} is empty")
        if text.rstrip(";").count(";"):
            raise ValueError(f"{path}: query {name} holds more than one statement")
        out.append((name, text.rstrip(";").rstrip() + ";"))

    for ln in lines:
        m = _NAME.match(ln.strip())
        if m:
            flush()
            name, body = m.group(1), []
            if any(n == name for n, _ in out):
                raise ValueError(f"{path}: two queries are named {name}")
        elif name is not None:
            body.append(ln)
    flush()
    return out
