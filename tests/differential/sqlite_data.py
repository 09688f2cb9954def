"""A data folder (catalog.json + <table>.csv, DESIGN.md section 8) loaded into SQLite, and SQLite runs."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from typing import Any, Callable, Iterator, Optional


def sqlite_type(hs_type: str) -> str:
    """Hindsight type → SQLite column type (its affinity), as agreed for the harnesses."""
    t = hs_type.strip().upper()
    if t in ("BIGINT", "INTEGER", "BOOLEAN"):
        return "INTEGER"
    if t == "DOUBLE" or t.startswith("DECIMAL"):
        return "REAL"
    if t in ("VARCHAR", "DATE") or t.startswith("VARCHAR"):
        return "TEXT"
    raise ValueError(f"unknown column type {hs_type!r} in catalog.json")


def _bool_value(text: str) -> int:
    t = text.strip().lower()
    if t in ("true", "t", "1", "yes"):
        return 1
    if t in ("false", "f", "0", "no"):
        return 0
    raise ValueError(f"not a BOOLEAN: {text!r}")


def _converter(hs_type: str) -> Callable[[str], Any]:
    t = hs_type.strip().upper()
    if t in ("BIGINT", "INTEGER"):
        return int
    if t == "BOOLEAN":
        return _bool_value
    if t == "DOUBLE" or t.startswith("DECIMAL"):
        return float
    return str  # VARCHAR, DATE: kept as text ('YYYY-MM-DD' compares correctly as text)


def load_catalog(data_dir: str) -> dict:
    with open(os.path.join(data_dir, "catalog.json"), encoding="utf-8") as f:
        catalog = json.load(f)
    if not isinstance(catalog, dict) or not isinstance(catalog.get("tables"), list):
        raise ValueError(f"{data_dir}/catalog.json: expected an object with a 'tables' list")
    return catalog


def _split_quoted(record: str, where: str) -> list[Optional[str]]:
    """Split one CSV record that contains quotes. A quoted field is always a string (""
    is the empty string); an empty unquoted field is NULL (None)."""
    fields: list[Optional[str]] = []
    pos, n = 0, len(record)
    while True:
        if pos < n and record[pos] == '"':
            parts, i = [], pos + 1
            while True:
                q = record.find('"', i)
                if q < 0:
                    raise ValueError(f"{where}: unterminated quoted field")
                parts.append(record[i:q])
                if q + 1 < n and record[q + 1] == '"':
                    parts.append('"')
                    i = q + 2
                    continue
                pos = q + 1
                break
            fields.append("".join(parts))
        else:
            comma = record.find(",", pos)
            end = n if comma < 0 else comma
            value = record[pos:end]
            fields.append(value if value != "" else None)
            pos = end
        if pos >= n:
            return fields
        if record[pos] != ",":
            raise ValueError(f"{where}: unexpected character after a quoted field")
        pos += 1
        if pos == n:  # trailing comma: one more empty (NULL) field
            fields.append(None)
            return fields


def read_csv_records(path: str) -> Iterator[tuple[int, list[Optional[str]]]]:
    """Yield (line number, fields) for every record, the header row first.
    Fast path for records without quotes; quoted fields may contain commas, "" and newlines."""
    with open(path, encoding="utf-8", newline="") as f:
        pending, pending_line = "", 0
        for lineno, line in enumerate(f, start=1):
            if pending:
                pending += line
                if pending.count('"') % 2:
                    continue
                record, start = pending, pending_line
                pending = ""
            else:
                if '"' in line and line.count('"') % 2:
                    pending, pending_line = line, lineno
                    continue
                record, start = line, lineno
            if record.endswith("\n"):
                record = record[:-1]
            if record.endswith("\r"):
                record = record[:-1]
            if record == "":
                continue
            if '"' in record:
                yield start, _split_quoted(record, f"{path}:{start}")
            else:
                yield start, [v if v != "" else None for v in record.split(",")]
        if pending:
            raise ValueError(f"{path}:{pending_line}: unterminated quoted field")


def load_into_sqlite(conn: sqlite3.Connection, data_dir: str, index_keys: bool = True) -> dict[str, int]:
    """Create and fill one SQLite table per catalog table. Returns {table: row count}.

    With `index_keys`, every column whose name ends in "key" (the TPC-H join keys) gets an index:
    it changes no result, but without it SQLite runs correlated subqueries (TPC-H Q21, Q4...)
    as nested scans that take minutes even at SF 0.01."""
    catalog = load_catalog(data_dir)
    counts: dict[str, int] = {}
    for table in catalog["tables"]:
        name = table["name"]
        columns = table["columns"]
        path = os.path.join(data_dir, table.get("file") or f"{name}.csv")
        col_sql = ", ".join(f'"{c["name"]}" {sqlite_type(c["type"])}' for c in columns)
        conn.execute(f'DROP TABLE IF EXISTS "{name}"')
        conn.execute(f'CREATE TABLE "{name}" ({col_sql})')
        convs = [_converter(c["type"]) for c in columns]
        ncols = len(columns)

        def rows() -> Iterator[tuple]:
            records = read_csv_records(path)
            header = next(records, None)
            names = [c["name"].lower() for c in columns]
            if header is None or [(h or "").strip().lower() for h in header[1]] != names:
                raise ValueError(f"{path}:1: header {header[1] if header else None} is not the catalog's "
                                 f"columns {names}")
            for lineno, rec in records:
                if len(rec) != ncols:
                    raise ValueError(f"{path}:{lineno}: {len(rec)} fields, catalog.json declares {ncols}")
                try:
                    yield tuple(None if v is None else conv(v) for conv, v in zip(convs, rec))
                except ValueError as e:
                    raise ValueError(f"{path}:{lineno}: {e}") from None

        placeholders = ", ".join("?" * ncols)
        cur = conn.executemany(f'INSERT INTO "{name}" VALUES ({placeholders})', rows())
        counts[name] = cur.rowcount
        if index_keys:
            for c in columns:
                if c["name"].lower().endswith("key"):
                    conn.execute(f'CREATE INDEX "ix_{name}_{c["name"]}" ON "{name}" ("{c["name"]}")')
    conn.commit()
    return counts


def configure_sqlite(conn: sqlite3.Connection) -> None:
    # Standard SQL LIKE is case-sensitive; SQLite's is not unless told so.
    conn.execute("PRAGMA case_sensitive_like = ON")


def open_memory_sqlite(data_dir: str, index_keys: bool = True) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    configure_sqlite(conn)
    load_into_sqlite(conn, data_dir, index_keys)
    return conn


def sqlite_twin(path: str) -> str:
    """qNN.sql → qNN.sqlite.sql when that file exists, else the file itself."""
    base, ext = os.path.splitext(path)
    twin = base + ".sqlite" + ext
    return twin if os.path.exists(twin) else path


def run_sqlite(conn: sqlite3.Connection, sql: str) -> tuple[list[str], list[tuple], float]:
    """Execute one statement; returns (column names, rows, milliseconds for execute+fetchall)."""
    sql = sql.strip().rstrip(";").strip()
    t0 = time.perf_counter()
    cur = conn.execute(sql)
    rows = cur.fetchall()
    ms = (time.perf_counter() - t0) * 1000.0
    names = [d[0] for d in (cur.description or [])]
    return names, rows, ms
