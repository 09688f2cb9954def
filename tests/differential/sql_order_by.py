"""Finding the top-level ORDER BY of a query and the output columns its keys refer to."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Sequence


def mask_sql(sql: str) -> str:
    """Same length as `sql`; comments become spaces and the inside of string literals becomes
    '_', so keywords and parentheses can be found by position."""
    out = list(sql)
    i, n = 0, len(sql)
    while i < n:
        c = sql[i]
        if c == "-" and sql.startswith("--", i):
            j = sql.find("\n", i)
            j = n if j < 0 else j
            out[i:j] = " " * (j - i)
            i = j
        elif c == "/" and sql.startswith("/*", i):
            j = sql.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out[i:j] = [" " if ch != "\n" else "\n" for ch in sql[i:j]]
            i = j
        elif c == "'":
            j = i + 1
            while j < n:
                if sql[j] == "'":
                    if j + 1 < n and sql[j + 1] == "'":
                        j += 2
                        continue
                    break
                j += 1
            out[i + 1:j] = "_" * (j - i - 1)
            i = j + 1
        else:
            i += 1
    return "".join(out)


def _depths(masked: str) -> list[int]:
    depth, result = 0, []
    for ch in masked:
        if ch == "(":
            result.append(depth)
            depth += 1
        elif ch == ")":
            depth -= 1
            result.append(depth)
        else:
            result.append(depth)
    return result


def _top_level_matches(masked: str, pattern: str) -> list[re.Match]:
    depth = _depths(masked)
    return [m for m in re.finditer(pattern, masked, re.I) if depth[m.start()] == 0]


def _split_top_level(text: str, masked: str) -> list[str]:
    depth = _depths(masked)
    parts, start = [], 0
    for i, ch in enumerate(masked):
        if ch == "," and depth[i] == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts]


@dataclass
class OrderKey:
    expr: str
    descending: bool
    nulls_first: Optional[bool]  # None: the engine's default

    def effective_nulls_first(self) -> bool:
        # Hindsight (like PostgreSQL): NULLS LAST for ASC, NULLS FIRST for DESC.
        return self.descending if self.nulls_first is None else self.nulls_first


def top_level_order_by(sql: str) -> Optional[list[OrderKey]]:
    """The ORDER BY keys of the outermost query, None when it has no ORDER BY."""
    masked = mask_sql(sql)
    orders = _top_level_matches(masked, r"\border\s+by\b")
    if not orders:
        return None
    start = orders[-1].end()
    ends = [m.start() for m in _top_level_matches(masked, r"\b(limit|offset|fetch)\b|;") if m.start() > start]
    end = min(ends) if ends else len(sql)
    keys = []
    for item in _split_top_level(sql[start:end], masked[start:end]):
        m = re.match(r"^(.*?)(\s+(asc|desc))?(\s+nulls\s+(first|last))?\s*$", item, re.I | re.S)
        expr = m.group(1).strip()
        desc = bool(m.group(3)) and m.group(3).lower() == "desc"
        nulls = None if not m.group(5) else m.group(5).lower() == "first"
        keys.append(OrderKey(expr, desc, nulls))
    return keys


def _norm_expr(text: str) -> str:
    return re.sub(r"\s+", "", text).lower()


def _unqualified(text: str) -> str:
    return text.rsplit(".", 1)[-1]


def top_level_select_items(sql: str) -> list[tuple[str, Optional[str]]]:
    """(expression, alias) of the first top-level SELECT list; empty when it cannot be found."""
    masked = mask_sql(sql)
    selects = _top_level_matches(masked, r"\bselect\b")
    if not selects:
        return []
    start = selects[0].end()
    m = re.match(r"\s*(distinct|all)\b", masked[start:], re.I)
    if m:
        start += m.end()
    ends = [m.start() for m in _top_level_matches(masked, r"\b(from|where|group|having|order|limit|union|intersect|except)\b|;")
            if m.start() > start]
    end = min(ends) if ends else len(sql)
    items = []
    for item in _split_top_level(sql[start:end], masked[start:end]):
        m = re.match(r"^(.*?)\s+(?:as\s+)?([A-Za-z_][A-Za-z0-9_]*)$", item, re.I | re.S)
        if (m and m.group(1).strip() and not re.search(r"\b(end|and|or|not|is|null)$", item, re.I)
                and not re.search(r"[-+*/%<>=|(,]$", m.group(1).strip())):
            items.append((m.group(1).strip(), m.group(2)))
        else:
            items.append((item, None))
    return items


def resolve_order_keys(sql: str, keys: list[OrderKey], column_names: Sequence[str]) -> list[Optional[int]]:
    """Output column index for each ORDER BY key (None when it is not an output column)."""
    names = [_norm_expr(n) for n in column_names]
    items = top_level_select_items(sql)
    result: list[Optional[int]] = []
    for key in keys:
        e = _norm_expr(key.expr)
        idx: Optional[int] = None
        if re.fullmatch(r"\d+", e):
            k = int(e) - 1
            idx = k if 0 <= k < len(column_names) else None
        else:
            for i, (expr, alias) in enumerate(items):
                if alias and _norm_expr(alias) == e:
                    idx = i
                    break
            if idx is None:
                for i, (expr, alias) in enumerate(items):
                    ne = _norm_expr(expr)
                    if ne == e or _unqualified(ne) == _unqualified(e) and "(" not in e:
                        idx = i
                        break
            if idx is None and e in names:
                idx = names.index(e)
            if idx is None and _unqualified(e) in names:
                idx = names.index(_unqualified(e))
        if idx is not None and idx >= len(column_names):
            idx = None
        result.append(idx)
    return result
