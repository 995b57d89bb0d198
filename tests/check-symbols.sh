#!/usr/bin/env bash
# Fails if the static library defines a global symbol without the assay_ prefix.
set -euo pipefail
lib=$1
# Weak definitions (W) of libdouble-conversion's inline members are not assay's: an unoptimised
# build emits its header's inline constructor out of line in the C++ shim (number_dc.cc).
bad=$(nm -g --defined-only "$lib" | awk 'NF == 3 && !($2 == "W" && $3 ~ /^_ZN17double_conversion/) { print $3 }' |
	grep -v -e '^assay_' -e '^__odr_asan' -e '^__asan' -e '^__ubsan' || true)
if [ -n "$bad" ]; then
	echo "global symbols without the assay_ prefix:"
	echo "$bad"
	echo "0 passed, 1 failed"
	exit 1
fi
echo "symbols: all $(nm -g --defined-only "$lib" | awk 'NF == 3' | wc -l) carry assay_"
echo "1 passed, 0 failed"
