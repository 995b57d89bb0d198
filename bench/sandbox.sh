#!/usr/bin/env bash
# Benchmark: what the sandbox costs per case. Runs N trivial cases (/bin/echo hi) through the
# proc API with the sandbox off and on (and a few variants, see bench/sandbox.c), interleaved in
# the same run, and prints per-case times and the on/off ratio. The goal (issue 5) is <= 1.10.
# Usage: bench/sandbox.sh [N]   (needs build/libassay.a: run make first; BUILD=dir to change)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-2000}
BUILD=${BUILD:-build}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

cc -O2 -std=c17 -Wall -Wextra -Werror -Iinclude bench/sandbox.c "$BUILD/libassay.a" \
	$(pkg-config --libs jansson yaml-0.1 libpcre2-8) -lm -o "$TMP/bench"
"$TMP/bench" "$N" "$TMP"
