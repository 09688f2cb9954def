#!/usr/bin/env python3
"""The CLI contract on hostile input (DESIGN.md section 8): a typed error and exit code 1, never a crash, and with
`--format json` one JSON object on stdout in every case.

    cli_robustness_test.py --bin build/hindsight --data DIR     (DIR: a folder made by `hindsight gen tpch`)

Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
import unittest

sys.dont_write_bytecode = True
import cli_harness as h  # noqa: E402

ARGS: argparse.Namespace


def run(*cli: str, timeout: float = 60) -> h.Result:
    """The process's (rc, stdout bytes, stderr bytes); a timeout or a signal is also a harness failure."""
    return h.run(ARGS.bin, *cli, timeout=timeout, text=False)


class CliRobustnessTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="hindsight-cli-test-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def write(self, name: str, data: bytes) -> str:
        path = os.path.join(self.tmp, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def json_of(self, proc: h.Result) -> dict:
        self.assertNotIn(proc.rc, (-6, 134), "aborted: " + proc.stderr.decode("utf-8", "replace")[-300:])
        self.assertTrue(proc.stdout.strip(), "no JSON on stdout; stderr: " + proc.stderr.decode("utf-8", "replace")[-300:])
        obj = json.loads(proc.stdout.decode("utf-8"))  # strict: the bytes must be UTF-8
        self.assertIsInstance(obj, dict)
        return obj

    def error_of(self, obj: dict) -> dict:
        return obj["error"]

    def test_latin1_sql_file_is_a_parse_error_in_json(self):
        path = self.write("latin1.sql", "SELECT 'café'".encode("latin-1"))
        for command in ("query", "explain", "groups"):
            with self.subTest(command=command):
                proc = run(command, "--data", ARGS.data, "--format", "json", "-f", path)
                self.assertEqual(proc.rc, 1)
                err = self.error_of(self.json_of(proc))
                self.assertEqual(err["code"], "PARSE_ERROR")
                self.assertEqual((err["line"], err["column"]), (1, 12))
                self.assertIn("UTF-8", err["message"])

    def test_stray_byte_in_an_identifier(self):
        proc = run("query", "--data", ARGS.data, "--format", "json", "-f",
                   self.write("stray.sql", b"SELECT n_n\xffame FROM nation"))
        self.assertEqual(proc.rc, 1)
        err = self.error_of(self.json_of(proc))
        self.assertEqual((err["code"], err["column"]), ("PARSE_ERROR", 11))

    def test_nul_byte_is_reported_whole(self):
        proc = run("query", "--data", ARGS.data, "--format", "json", "-f", self.write("nul.sql", b"SELECT 1\x00 + 2"))
        self.assertEqual(proc.rc, 1)
        err = self.error_of(self.json_of(proc))
        self.assertEqual((err["code"], err["line"], err["column"]), ("PARSE_ERROR", 1, 9))
        self.assertEqual(err["message"], "invalid character NUL (byte 0x00) in the SQL text")
        self.assertNotIn(b"\x00", proc.stderr)

    def test_bad_byte_in_catalog_json(self):
        data = os.path.join(self.tmp, "badcatalog")
        os.makedirs(data, exist_ok=True)
        shutil.copy(os.path.join(ARGS.data, "nation.csv"), data)
        catalog = (b'{"tables": [{"name": "nati\xe9n", "file": "nation.csv", "columns": '
                   b'[{"name": "n_nationkey", "type": "INTEGER"}]}]}')
        with open(os.path.join(data, "catalog.json"), "wb") as f:
            f.write(catalog)
        for command in ("query", "explain"):
            with self.subTest(command=command):
                proc = run(command, "--data", data, "--format", "json", "SELECT 1")
                self.assertEqual(proc.rc, 1)
                err = self.error_of(self.json_of(proc))
                self.assertEqual(err["code"], "DATA_ERROR")
                self.assertTrue(err["file"].endswith("catalog.json"))

    def test_directory_given_to_f_is_an_io_error(self):
        proc = run("query", "--data", ARGS.data, "--format", "json", "-f", self.tmp)
        self.assertEqual(proc.rc, 1)
        err = self.error_of(self.json_of(proc))
        self.assertEqual(err["code"], "IO_ERROR")
        self.assertIn("is a directory", err["message"])

    def test_unbounded_statement_file_stops_at_the_cap(self):
        started = time.monotonic()
        proc = run("query", "--data", ARGS.data, "-f", "/dev/zero", timeout=120)
        self.assertEqual(proc.rc, 1)
        self.assertIn(b"IO_ERROR", proc.stderr)
        self.assertIn(b"larger than 64 MB", proc.stderr)
        self.assertLess(time.monotonic() - started, 60)

    def test_giant_identifier_gives_a_bounded_error(self):
        path = self.write("ident.sql", b"SELECT " + b"x" * 1_000_000 + b" FROM nation")
        proc = run("query", "--data", ARGS.data, "-f", path)
        self.assertEqual(proc.rc, 1)
        self.assertIn(b"BIND_ERROR at 1:8", proc.stderr)
        self.assertLess(len(proc.stderr), 4096)
        proc = run("query", "--data", ARGS.data, "--format", "json", "-f", path)
        self.assertLess(len(json.dumps(self.json_of(proc))), 8192)

    def test_runtime_error_has_a_position_in_json(self):
        proc = run("query", "--data", ARGS.data, "--format", "json", "SELECT n_name, 1 / (n_nationkey - n_nationkey) FROM nation")
        self.assertEqual(proc.rc, 1)
        err = self.error_of(self.json_of(proc))
        self.assertEqual((err["code"], err["line"], err["column"]), ("DATA_ERROR", 1, 16))

    def test_set_help_names_every_setting(self):
        # The settings SET accepts are the ones an unknown name's error lists; --help must name each of them.
        obj = self.json_of(run("query", "--data", ARGS.data, "--format", "json", "--set", "no_such_setting=1", "SELECT 1"))
        message = self.error_of(obj)["message"]
        self.assertIn("(settings: ", message)
        names = message.split("(settings: ", 1)[1].rstrip(")").split(", ")
        self.assertIn("cardinality", names)
        help_text = run("query", "--help").stdout.decode("utf-8")
        for name in names:
            self.assertIn(name, help_text, f"query --help does not name the setting {name}")

    def test_well_formed_unicode_still_works(self):
        proc = run("query", "--data", ARGS.data, "--format", "json", "SELECT 'café' AS \"€\"")
        self.assertEqual(proc.rc, 0, proc.stderr)
        obj = self.json_of(proc)
        self.assertEqual(obj["rows"], [["café"]])
        self.assertEqual(obj["columns"][0]["name"], "€")


def test(rest: list) -> None:
    result = unittest.main(argv=[sys.argv[0], *rest], exit=False, verbosity=2).result
    h.check(result.wasSuccessful(), f"unittest: {len(result.failures)} failure(s), {len(result.errors)} error(s) "
            f"of {result.testsRun} tests (above)")


if __name__ == "__main__":
    ARGS, unittest_args = h.parser("--bin", "--data", description=__doc__.splitlines()[0]).parse_known_args()
    h.main(test, unittest_args, "cli robustness: ok")
