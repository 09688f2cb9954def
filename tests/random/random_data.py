"""A small purpose-made dataset with NULLs for the randomized differential tests.

Every table has the same column names (so any two can be joined on any pair of same-typed columns; queries
always qualify columns with an alias):

    k  BIGINT NOT NULL   a, b INTEGER   s VARCHAR   m DECIMAL(8,2)   d DOUBLE   dt DATE   f BOOLEAN

Values come from small domains, so joins match and groups repeat; about a fifth of every nullable column is
NULL, strings include '' and the LIKE metacharacters % and _, keys repeat in some tables. Distributions
(catalog.json): t1, t2 hash on k, t3 on the nullable a, t4 on the nullable b (all 4 buckets, so that joins
on those columns are co-located), t5 random (2 buckets), t6 hash on (s, a) (3 buckets), r replicated, e hash on
k (4 buckets) and empty. Deterministic for a seed.
"""

from __future__ import annotations

import json
import os
import random

COLUMNS = [  # name, catalog type, generator kind
    ("k", "BIGINT", "key"),
    ("a", "INTEGER", "int"),
    ("b", "INTEGER", "int"),
    ("s", "VARCHAR", "str"),
    ("m", "DECIMAL(8,2)", "dec"),
    ("d", "DOUBLE", "dbl"),
    ("dt", "DATE", "date"),
    ("f", "BOOLEAN", "bool"),
]

# name, rows, distribution (catalog.json), key values unique?
TABLES = [
    ("t1", 150, {"kind": "hash", "columns": ["k"], "buckets": 4}, True),
    ("t2", 100, {"kind": "hash", "columns": ["k"], "buckets": 4}, False),
    ("t3", 60, {"kind": "hash", "columns": ["a"], "buckets": 4}, False),
    ("t4", 50, {"kind": "hash", "columns": ["b"], "buckets": 4}, False),
    ("t5", 40, {"kind": "random", "buckets": 2}, False),
    ("t6", 30, {"kind": "hash", "columns": ["s", "a"], "buckets": 3}, False),
    ("r", 12, {"kind": "replicated"}, True),
    ("e", 0, {"kind": "hash", "columns": ["k"], "buckets": 4}, True),
]

STRINGS = ["", "a", "ab", "abc", "b", "B", "ba", "x%y", "a_c", " ", "zz", "A b"]
DATES = ["1995-01-01", "1995-06-30", "1995-12-31", "1996-01-01", "1996-02-29", "1996-07-15", "1997-03-01",
         "1997-12-31"]
NULL_SHARE = 0.2


def _value(rng: random.Random, kind: str, row: int, unique_key: bool) -> str:
    """The CSV text of one value ('' is NULL; strings are always quoted, so '' is written "")."""
    if kind == "key":
        return str(row + 1) if unique_key else str(rng.randint(1, 60))
    if rng.random() < NULL_SHARE:
        return ""
    if kind == "int":
        return str(rng.randint(-5, 10))
    if kind == "str":
        return '"' + rng.choice(STRINGS).replace('"', '""') + '"'
    if kind == "dec":
        return f"{rng.randint(-2000, 9999) / 100:.2f}"
    if kind == "dbl":
        return repr(rng.randint(-40, 40) / 4)  # multiples of 0.25: sums are exact in binary
    if kind == "date":
        return rng.choice(DATES)
    if kind == "bool":
        return rng.choice(["true", "false"])
    raise ValueError(kind)


def write_dataset(out_dir: str, seed: int) -> None:
    """Writes <table>.csv for every table and catalog.json into out_dir."""
    os.makedirs(out_dir, exist_ok=True)
    rng = random.Random(seed)
    catalog = {"tables": []}
    for name, rows, dist, unique_key in TABLES:
        lines = [",".join(c for c, _, _ in COLUMNS)]
        for r in range(rows):
            lines.append(",".join(_value(rng, kind, r, unique_key) for _, _, kind in COLUMNS))
        with open(os.path.join(out_dir, f"{name}.csv"), "w", encoding="utf-8", newline="") as f:
            f.write("\n".join(lines) + "\n")
        catalog["tables"].append({
            "name": name, "file": f"{name}.csv",
            "columns": [{"name": c, "type": t, "nullable": kind != "key"} for c, t, kind in COLUMNS],
            "distribution": dist})
    with open(os.path.join(out_dir, "catalog.json"), "w", encoding="utf-8") as f:
        json.dump(catalog, f, indent=1)
        f.write("\n")
