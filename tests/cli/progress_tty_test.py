#!/usr/bin/env python3
"""The progress bar of `capture` and `replay` (cli/progress.hpp): drawn on stderr only when stderr is a terminal.

    progress_tty_test.py --bin build/hindsight --data build/testdata/tpch-sf0.01-skew1

With stderr on a pseudo-terminal: every query gets a '\\r'-rewritten line "[==>  ] i/N name" (replay's with
"(feedback MODE)"), the line is cleared before the closing message, and no line is as wide as the terminal. With
stderr a pipe (what scripts and the other tests see): no '\\r', no escape sequence, only the closing message.
"""
import fcntl
import os
import pty
import struct
import subprocess
import sys
import tempfile
import termios

sys.dont_write_bytecode = True
import cli_harness as h  # noqa: E402
from cli_harness import check  # noqa: E402

SQL = ("-- name: regions\nSELECT r_name FROM region;\n"
       "-- name: nations\nSELECT count(*) FROM nation;\n"
       "-- name: suppliers_by_nation\nSELECT n_name, count(*) FROM nation JOIN supplier ON s_nationkey = n_nationkey "
       "GROUP BY n_name;\n")
NAMES = ["regions", "nations", "suppliers_by_nation"]
COLUMNS = 40


def on_tty(args):
    """Runs with stderr on a pty COLUMNS wide (stdout a pipe); returns (rc, stdout, what the terminal got)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, COLUMNS, 0, 0))
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    got = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        got += chunk
    out = p.stdout.read()
    rc = p.wait()
    os.close(master)
    if rc < 0:
        h.fail(f"`{h.describe(args)}` on a tty was killed by {h.signal_name(rc)}")
    return rc, out.decode(), got.decode("utf-8", "replace")


def test(args):
    with tempfile.TemporaryDirectory() as tmp:
        sql = os.path.join(tmp, "w.sql")
        with open(sql, "w") as f:
            f.write(SQL)
        w = os.path.join(tmp, "w.hsw")
        capture = [args.bin, "capture", "--data", args.data, "--queries", sql, "--out", w,
                   "--store", os.path.join(tmp, "s.db")]
        rc, _, term = on_tty(capture)
        if os.environ.get("SHOW"):
            print(repr(term))
        check(rc == 0, f"capture on a tty: rc {rc}: {term}")
        lines = term.split("\r\033[K")
        for i, name in enumerate(NAMES):
            check(any(l.startswith("[") and f"] {i + 1}/3 {name}" in l for l in lines),
                  f"a bar line for {name}: {term!r}")
        check(all(len(l.rstrip("\r\n")) < COLUMNS for l in lines if l.startswith("[")),
              f"bar lines fit {COLUMNS} columns: {term!r}")
        check("\r\033[Kcaptured 3 queries (0 failed)" in term, f"cleared before the closing message: {term!r}")

        rc, out, term = on_tty([args.bin, "replay", w, "--data", args.data, "--feedback", "off,oracle",
                                "--store", os.path.join(tmp, "r.db")])
        check(rc == 0 and "replay summary" in out, f"replay on a tty: rc {rc}: {term}")
        check("(feedback off)" in term and "(feedback oracle)" in term and "] 3/3 " in term,
              f"replay's bar names the mode: {term!r}")
        check(term.endswith("\r\033[K"), f"the bar is cleared at the end: {term[-80:]!r}")
        check("\r" not in out and "\033" not in out, f"stdout has no bar: {out!r}")

        # Not a terminal: nothing of the bar.
        p = h.run(*capture, timeout=300)
        check(p.rc == 0 and p.stderr == f"captured 3 queries (0 failed) into {w}\n",
              f"capture, stderr a pipe: only the closing message: {p.stderr!r}")
        p = h.run(args.bin, "replay", w, "--data", args.data, "--feedback", "off,oracle", "--store",
                  os.path.join(tmp, "r2.db"), timeout=300)
        check(p.rc == 0 and "\r" not in p.stderr and "\033" not in p.stderr and "feedback" not in p.stderr,
              f"replay, stderr a pipe: no bar: {p.stderr!r}")


if __name__ == "__main__":
    h.main(test, h.parser("--bin", "--data").parse_args(), "progress bar: ok")
