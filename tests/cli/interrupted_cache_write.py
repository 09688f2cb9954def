#!/usr/bin/env python3
"""A `hindsight query` killed while it writes its binary cache or statistics leaves no temp file behind for long.

- SIGTERM, SIGINT or SIGHUP: the process removes its own temp files and still dies of the signal.
- SIGKILL cannot be handled: the temp file stays, and the next load removes it (its process is gone).

Each attempt deletes the .hsc caches, starts a query over TPC-H SF 0.05 and polls the data folder until a temp file
shows up, then signals the process. An attempt counts only if the signal reached the process while it was still
running (it died of it); attempts where it finished first are retried."""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
import cli_harness as h  # noqa: E402
from cli_harness import fail  # noqa: E402

TEMP = re.compile(r"\.(hsc|stats)\.tmp\.\d+\.\d+$")
QUERY = "SELECT count(*) FROM lineitem"
ATTEMPTS = 25


def temp_files(data, pid=None):
    """Temp files of our naming pattern under `data` (of process `pid` only, if given)."""
    found = []
    for root, _, files in os.walk(data):
        found += [os.path.join(root, f) for f in files
                  if TEMP.search(f) and (pid is None or f".tmp.{pid}." in f)]
    return found


def drop_caches(data):
    for f in os.listdir(data):
        if f.endswith(".hsc"):
            os.remove(os.path.join(data, f))


last_pid = None


def default_signals():
    # A test run in the background (or under nohup) would pass SIGINT or SIGHUP on ignored, and hindsight
    # rightly leaves an ignored signal alone.
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def signal_mid_write(binary, data, sig):
    """Starts the query, sends `sig` once it has a temp file; returns (returncode, its temp files at the signal)."""
    drop_caches(data)
    proc = subprocess.Popen([binary, "query", "--data", data, QUERY], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, preexec_fn=default_signals)
    global last_pid
    last_pid = proc.pid
    seen = []
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        seen = temp_files(data, proc.pid)
        if seen:
            proc.send_signal(sig)
            break
        time.sleep(0.0005)
    try:
        return proc.wait(timeout=60), seen
    except subprocess.TimeoutExpired:
        proc.kill()
        h.stop(f"the query did not end within 60 s of signal {sig}")


def test(args):
    with tempfile.TemporaryDirectory(prefix="hindsight-interrupted-") as data:
        h.gen_tpch(args.bin, "0.05", data)

        # SIGKILL: the temp file survives the process; the next load sweeps it.
        for attempt in range(ATTEMPTS):
            rc, seen = signal_mid_write(args.bin, data, signal.SIGKILL)
            left = [f for f in temp_files(data) if f in seen]
            if rc == -signal.SIGKILL and left:
                break
        else:
            fail(f"SIGKILL never caught a cache write in {ATTEMPTS} attempts")
            left = []
        if left:
            r = h.run(args.bin, "query", "--data", data, QUERY, timeout=300)
            if r.rc != 0:
                fail(f"query after SIGKILL failed: {r.stderr}")
            still = [f for f in temp_files(data) if f in left]
            if still:
                fail(f"the load after SIGKILL did not remove {still}")
            print(f"SIGKILL: left {len(left)} temp file(s) for the next load to remove")

        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            caught = 0
            for attempt in range(ATTEMPTS):
                rc, seen = signal_mid_write(args.bin, data, sig)
                pid = last_pid
                if rc != -sig:
                    if seen:
                        fail(f"{sig.name}: exit status {rc} ({h.signal_name(rc) if rc < 0 else 'exit'}) instead of "
                             "dying of the signal")
                    continue  # the query finished before the signal: try again
                caught += 1
                left = temp_files(data, pid)
                if left:
                    fail(f"{sig.name}: temp files left behind: {left}")
                if caught == 3:
                    break
            if caught == 0:
                fail(f"{sig.name} never reached the query during a cache write in {ATTEMPTS} attempts")
            print(f"{sig.name}: {caught} interrupted write(s)")


if __name__ == "__main__":
    h.main(test, h.parser("--bin").parse_args(), "interrupted cache writes: ok")
