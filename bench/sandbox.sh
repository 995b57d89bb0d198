#!/usr/bin/env bash
# Benchmark: what the sandbox costs per case. Runs N trivial cases (/bin/echo hi) through the
# proc API with the sandbox off and on (and a few variants, see bench/sandbox.c), interleaved in
# the same run, and prints per-case times and the on/off ratio. The goal (issue 5) is <= 1.10.
# Usage: bench/sandbox.sh [N]   (needs build/assay-bench-sandbox: run make first; BUILD=dir)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-2000}
BUILD=${BUILD:-build}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
chmod 755 "$TMP" # run as root, a sandboxed case is nobody: it must reach its folders here

"$BUILD/assay-bench-sandbox" "$N" "$TMP"
