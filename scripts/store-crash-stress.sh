#!/usr/bin/env bash
# The stats store under SIGKILL, many times (not part of `make test`, which kills 10 times): a child records
# attempts in a loop and is killed at random moments; after each kill PRAGMA integrity_check must be "ok", and
# at the end every attempt the child saw committed must be in the store.
#   scripts/store-crash-stress.sh [BUILD_DIR] [ROUNDS]      (defaults: build, 100)
set -euo pipefail
BUILD=${1:-build}
ROUNDS=${2:-100}
BIN=$BUILD/hindsight_unit_tests
if [ ! -x "$BIN" ]; then echo "store-crash-stress: no $BIN (build first)"; exit 1; fi
HINDSIGHT_STORE_CRASH_ROUNDS=$ROUNDS "$BIN" --gtest_filter='SqliteStoreProcessTest.SigkillMidWrite*'
