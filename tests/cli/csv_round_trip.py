#!/usr/bin/env python3
"""`hindsight query --format csv` output loads back as the same table (docs/csv.md).

A data folder gets tables of every column type with NULLs, empty strings, quotes, commas, line breaks and edge
spaces, including a one-column table (whose NULL rows are blank lines). Each is exported with --format csv into a
second table declared with the same columns; both are then compared through --format json."""
import json
import os
import sys
import tempfile

sys.dont_write_bytecode = True
import cli_harness as h  # noqa: E402

COLUMNS = {
    "one": [("s", "VARCHAR")],
    "one_int": [("n", "INTEGER")],
    "many": [("k", "BIGINT"), ("b", "BOOLEAN"), ("i", "INTEGER"), ("x", "DOUBLE"), ("m", "DECIMAL(18,2)"),
             ("d", "DATE"), ("s", "VARCHAR"), ("t", "VARCHAR")],
}

SOURCES = {
    "one": 's\na\n\n""\n" lead"\n"a,b"\n"say ""hi"""\n"two\nlines"\n"cr\r\nlf"\n\n',
    "one_int": "n\n1\n\n-2147483648\n\n",
    "many": ("k,b,i,x,m,d,s,t\n"
             '1,true,7,1.5,9999999999999999.99,1995-06-17,"",\n'
             '2,,,,,,,""\n'
             '3,false,-1,-0.0,-0.01,0001-01-01,"a ""quoted"", value","tail \t"\n'
             '4,true,0,1e300,0,9999-12-31,"multi\nline\r\nvalue"," "\n'),
}


def catalog(tables):
    return {"tables": [{"name": name, "file": f"{name}.csv",
                        "columns": [{"name": c, "type": t} for c, t in COLUMNS[base]],
                        "distribution": {"kind": "replicated"}}
                       for name, base in tables]}


def query(binary, data, sql, fmt):
    r = h.run(binary, "query", "--data", data, "--format", fmt, sql, timeout=120, text=False)
    h.require(r.rc == 0, f"{sql!r} exited {r.rc}: {r.stderr.decode(errors='replace')}")
    return r.stdout


def test(args):
    with tempfile.TemporaryDirectory(prefix="hindsight-csv-round-trip-") as data:
        tables = [(name, name) for name in COLUMNS] + [(name + "_copy", name) for name in COLUMNS]
        with open(os.path.join(data, "catalog.json"), "w") as f:
            json.dump(catalog(tables), f)
        for name, text in SOURCES.items():
            with open(os.path.join(data, f"{name}.csv"), "w", newline="") as f:
                f.write(text)
        for name in COLUMNS:
            exported = query(args.bin, data, f"SELECT * FROM {name}", "csv")
            with open(os.path.join(data, f"{name}_copy.csv"), "wb") as f:
                f.write(exported)
            original = json.loads(query(args.bin, data, f"SELECT * FROM {name}", "json"))["rows"]
            copy = json.loads(query(args.bin, data, f"SELECT * FROM {name}_copy", "json"))["rows"]
            h.check(original == copy and original,
                    f"{name}: exported CSV\n{exported!r}\nreads back as\n{copy}\ninstead of\n{original}")
        # The source tables themselves: NULL and '' stay apart, blank lines of a one-column table are NULL rows.
        one = [row[0] for row in json.loads(query(args.bin, data, "SELECT * FROM one", "json"))["rows"]]
        expected = ["a", None, "", " lead", "a,b", 'say "hi"', "two\nlines", "cr\r\nlf", None]
        h.check_equal(one, expected, "table one reads back")


if __name__ == "__main__":
    h.main(test, h.parser("--bin").parse_args(), "csv round trip: ok")
