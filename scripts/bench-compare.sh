#!/usr/bin/env bash
# Compare two `make bench` results: scripts/bench-compare.sh OLD.json NEW.json [--threshold 10] [--only-marked]
# (the files bench.sh writes to build/bench/; docs/benchmarks.md). Per metric in both: old, new, new/old and a
# regressed/improved mark beyond the threshold (percent) in the metric's direction; added and removed metrics.
# Exit 0 whatever moved; 2 when a file cannot be read.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
exec python3 "$ROOT/bench/bench_compare.py" "$@"
