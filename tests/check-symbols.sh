#!/usr/bin/env bash
# Fails if the static library defines a global symbol without the assay_ prefix.
set -euo pipefail
lib=$1
# Weak definitions (W, V) of C++ names are not assay's: the C++ shims (number_dc.cc, toml.cc)
# emit the inline members, template instantiations and type information of the headers they
# use (libdouble-conversion, toml++, the standard library) out of line, and the exception
# personality's reference (DW.ref.*). assay's own C++ functions are extern "C" assay_ names.
bad=$(nm -g --defined-only "$lib" | awk 'NF == 3 && !(($2 == "W" || $2 == "V") && ($3 ~ /^_Z/ || $3 ~ /^DW\.ref\./)) { print $3 }' |
	grep -v -e '^assay_' -e '^__odr_asan' -e '^__asan' -e '^__ubsan' || true)
if [ -n "$bad" ]; then
	echo "global symbols without the assay_ prefix:"
	echo "$bad"
	echo "0 passed, 1 failed"
	exit 1
fi
echo "symbols: all $(nm -g --defined-only "$lib" | awk 'NF == 3' | wc -l) carry assay_"
echo "1 passed, 0 failed"
