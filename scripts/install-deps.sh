#!/usr/bin/env bash
# Installs the Debian packages Hindsight builds against, only those that are missing.
# Idempotent: a second run installs nothing and does not touch the network.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libboost-graph-dev          # union-find (disjoint_sets) and Graphviz export
  libprotobuf-dev protobuf-compiler
  libsqlite3-dev sqlite3      # stats store, differential tests, benchmark peer
  libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev                # command-line flags
  libxxhash-dev               # XXH3-128 signatures
  nlohmann-json3-dev          # catalog.json and JSON output
  python3                     # test and benchmark drivers (stdlib sqlite3 is the oracle)
  clang libclang-rt-14-dev    # libFuzzer targets (build-fuzz): clang++ and libclang_rt.fuzzer/asan/ubsan
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
