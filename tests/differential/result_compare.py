"""Comparing a Hindsight result with a SQLite result: value rules, multisets, ORDER BY with ties.

The rules are described in run_differential.py's docstring."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Optional, Sequence

from hindsight_cli import HindsightResult
from sql_order_by import OrderKey, resolve_order_keys

REL_TOL = 1e-9
ABS_TOL = 1e-9
_DECIMAL_TYPE = re.compile(r"^\s*(DECIMAL|NUMERIC)\s*(\(\s*\d+\s*(,\s*(\d+)\s*)?\))?\s*$", re.I)


def is_decimal_type(hs_type: str) -> bool:
    return bool(_DECIMAL_TYPE.match(hs_type or ""))


def decimal_scale(hs_type: str) -> Optional[int]:
    """Scale s of a DECIMAL(p,s) type name; None when not DECIMAL or written without a scale."""
    m = _DECIMAL_TYPE.match(hs_type or "")
    if not m or m.group(2) is None:
        return None
    return int(m.group(4)) if m.group(4) is not None else 0


def is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def numbers_close(a: float, b: float) -> bool:
    if a == b:
        return True
    if isinstance(a, int) and isinstance(b, int):
        return False  # exact integers must be exactly equal
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    diff = abs(a - b)
    return diff <= ABS_TOL or diff <= REL_TOL * max(abs(a), abs(b))


def hs_number(v: Any, hs_type: str) -> Optional[float | int]:
    """A Hindsight value as a Python number when it is one (DECIMAL may come as a string)."""
    if isinstance(v, bool):
        return int(v)
    if is_number(v):
        return v
    if isinstance(v, str) and is_decimal_type(hs_type):
        try:
            d = Decimal(v)
        except InvalidOperation:
            return None
        return int(d) if d == d.to_integral_value() and "." not in v else float(d)
    return None


def hs_scale(v: Any, hs_type: str) -> Optional[int]:
    """Number of fractional digits of a DECIMAL value: from its text, else from the type."""
    if isinstance(v, str) and is_decimal_type(hs_type):
        return len(v.split(".", 1)[1]) if "." in v else 0
    return decimal_scale(hs_type)


def values_equal(hs: Any, hs_type: str, sq: Any) -> bool:
    """Equality of one Hindsight value with one SQLite value (see run_differential.py's docstring)."""
    if hs is None or sq is None:
        return hs is None and sq is None
    if isinstance(sq, bool):
        sq = int(sq)
    num = hs_number(hs, hs_type)
    if num is not None:
        if not is_number(sq):
            return False
        if numbers_close(num, sq):
            return True
        scale = hs_scale(hs, hs_type)
        if scale is not None:
            # SQLite computes DECIMAL columns in doubles: accept a float that rounds to the
            # decimal Hindsight returned (half a unit in its last place, plus float noise).
            return abs(num - sq) <= 0.5 * 10.0 ** (-scale) + REL_TOL * max(1.0, abs(sq))
        return False
    if isinstance(hs, str):
        return isinstance(sq, str) and hs == sq
    return False


def sort_key(v: Any) -> tuple:
    """Total order over normalized values: NULL < numbers < strings."""
    if v is None:
        return (0, 0)
    if isinstance(v, bool):
        return (1, int(v))
    if is_number(v):
        return (1, v)
    return (2, str(v))


def normalize_hs_row(row: Sequence, types: Sequence[str]) -> tuple:
    out = []
    for v, t in zip(row, types):
        n = hs_number(v, t) if v is not None else None
        out.append(n if n is not None else v)
    return tuple(out)


def normalize_sq_row(row: Sequence) -> tuple:
    return tuple(int(v) if isinstance(v, bool) else v for v in row)


def fmt_value(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, str):
        return repr(v) if len(v) <= 60 else repr(v[:57] + "...")
    return repr(v)


def fmt_row(row: Sequence) -> str:
    text = "(" + ", ".join(fmt_value(v) for v in row) + ")"
    return text if len(text) <= 300 else text[:297] + "...)"


def rows_equal(hs_row: Sequence, types: Sequence[str], sq_row: Sequence) -> Optional[int]:
    """None when equal, else the index of the first differing column."""
    for i, (h, t, s) in enumerate(zip(hs_row, types, sq_row)):
        if not values_equal(h, t, s):
            return i
    return None


def _ordered_difference(hs_rows, types, sq_rows) -> Optional[str]:
    for r, (h, s) in enumerate(zip(hs_rows, sq_rows)):
        col = rows_equal(h, types, s)
        if col is not None:
            return (f"row {r + 1} col {col + 1}: hindsight {fmt_value(h[col])} vs sqlite {fmt_value(s[col])}; "
                    f"rows hindsight {fmt_row(h)} vs sqlite {fmt_row(s)}")
    return None


def _unmatched_rows(hs_rows, types, sq_rows, limit: int = 200) -> tuple[list, list]:
    """Match rows of both sides as multisets: (Hindsight rows without an equal SQLite row,
    SQLite rows without an equal Hindsight row). Both sides are sorted by the same total key and
    merged; rows that the merge leaves over (values equal within tolerance may sort in another
    order) are then paired up pairwise, for up to `limit` left-over rows per side."""
    key = lambda r: tuple(sort_key(v) for v in r)
    a, b = sorted(hs_rows, key=key), sorted(sq_rows, key=key)
    left_a, left_b = [], []
    i = j = 0
    while i < len(a) and j < len(b):
        if rows_equal(a[i], types, b[j]) is None:
            i, j = i + 1, j + 1
        elif key(a[i]) < key(b[j]):
            left_a.append(a[i])
            i += 1
        else:
            left_b.append(b[j])
            j += 1
    left_a += a[i:]
    left_b += b[j:]
    if left_a and left_b and len(left_a) <= limit and len(left_b) <= limit:
        rest_b = list(left_b)
        still_a = []
        for row in left_a:
            k = next((k for k, other in enumerate(rest_b) if rows_equal(row, types, other) is None), None)
            if k is None:
                still_a.append(row)
            else:
                rest_b.pop(k)
        left_a, left_b = still_a, rest_b
    return left_a, left_b


def _multiset_difference(hs_rows, types, sq_rows) -> Optional[str]:
    only_hs, only_sq = _unmatched_rows(hs_rows, types, sq_rows)
    parts = []
    if only_hs:
        parts.append(f"{len(only_hs)} hindsight row(s) without an equal sqlite row, first {fmt_row(only_hs[0])}")
    if only_sq:
        parts.append(f"{len(only_sq)} sqlite row(s) without an equal hindsight row, first {fmt_row(only_sq[0])}")
    return "; ".join(parts) if parts else None


def _compare_keys(a, b, key: OrderKey) -> int:
    """-1 if a sorts before b under `key`, 0 if tied (within tolerance), 1 if after."""
    if a is None or b is None:
        if a is None and b is None:
            return 0
        first = key.effective_nulls_first()
        return (-1 if first else 1) if a is None else (1 if first else -1)
    if (numbers_close(a, b) if is_number(a) and is_number(b) else a == b):
        return 0
    ka, kb = sort_key(a), sort_key(b)
    c = -1 if ka < kb else (1 if ka > kb else 0)
    return -c if key.descending else c


def _sortedness_problem(rows, keys: list[OrderKey], idxs: list[int]) -> Optional[str]:
    for r in range(1, len(rows)):
        prev, cur = rows[r - 1], rows[r]
        for key, i in zip(keys, idxs):
            c = _compare_keys(prev[i], cur[i], key)
            if c < 0:
                break
            if c > 0:
                return (f"hindsight rows {r} and {r + 1} are not sorted on ORDER BY {key.expr}: "
                        f"{fmt_value(prev[i])} then {fmt_value(cur[i])}")
    return None


@dataclass
class Comparison:
    ok: bool
    message: str = ""
    note: str = ""


def compare_results(hs: HindsightResult, sq_rows: Sequence[Sequence], sq_ncols: int,
                    order_keys: Optional[list[OrderKey]], sql_for_keys: str) -> Comparison:
    types = hs.column_types
    if len(hs.columns) != sq_ncols:
        return Comparison(False, f"hindsight has {len(hs.columns)} columns, sqlite {sq_ncols}")
    hs_rows = [normalize_hs_row(r, types) for r in hs.rows]
    sq_norm = [normalize_sq_row(r) for r in sq_rows]
    if len(hs_rows) != len(sq_norm):
        detail = _multiset_difference(hs_rows, types, sq_norm)
        msg = f"hindsight returned {len(hs_rows)} rows, sqlite {len(sq_norm)}"
        return Comparison(False, msg + (f"; {detail}" if detail else ""))
    if order_keys is None:
        diff = _multiset_difference(hs_rows, types, sq_norm)
        return Comparison(diff is None, diff or "")
    diff = _ordered_difference(hs_rows, types, sq_norm)
    if diff is None:
        return Comparison(True)
    # Ties on the ORDER BY keys may legitimately come out in another order.
    idxs = resolve_order_keys(sql_for_keys, order_keys, hs.column_names)
    unresolved = [k.expr for k, i in zip(order_keys, idxs) if i is None]
    if unresolved:
        return Comparison(False, f"{diff} (ORDER BY {', '.join(unresolved)} is not an output column, "
                                 f"so ties cannot be told from a wrong order)")
    multiset = _multiset_difference(hs_rows, types, sq_norm)
    if multiset is not None:
        return Comparison(False, f"{diff}; as multisets: {multiset}")
    unsorted = _sortedness_problem(hs_rows, order_keys, idxs)  # type: ignore[arg-type]
    if unsorted is not None:
        return Comparison(False, f"{diff}; {unsorted}")
    return Comparison(True, note="rows tied on ORDER BY keys came out in another order")
