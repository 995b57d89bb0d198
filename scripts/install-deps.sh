#!/bin/sh
# Installs the Debian packages assay needs: to build and run it (the compiler, CMake, the
# libraries, and jq, the demo's program under test), and with --tests also what its tests need:
# Criterion, the sqlite3 shell, clang's libFuzzer, xmllint (JUnit reports against their schema),
# headless Chromium (the HTML report), PyYAML (TAP diagnostics), python3 (the api adapter's test
# servers, tests/cli/t2002, on its http.server), and node with npm when there is
# no npm yet (tests/cli/t5102 reads assay's Parquet files back with DuckDB's npm package; a
# machine whose node comes from elsewhere keeps it: Debian's npm would conflict with it).
# Idempotent: installs only what is missing and runs apt-get update only then.
# Usage: scripts/install-deps.sh [--tests]   (as root, or with sudo)
set -eu

pkgs="build-essential cmake pkg-config libyaml-dev libpcre2-dev libdouble-conversion-dev
libunistring-dev nettle-dev libsqlite3-dev libgit2-dev libcurl4-openssl-dev libzstd-dev jq
libtomlplusplus-dev"
test_pkgs="libcriterion-dev sqlite3 diffutils clang libclang-rt-dev libxml2-utils chromium
python3 python3-yaml"
tests=false
case "${1:-}" in
"") ;;
--tests) pkgs="$pkgs $test_pkgs"; tests=true ;;
*)
	echo "usage: $0 [--tests]" >&2
	exit 2
	;;
esac

missing=""
for p in $pkgs; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
if $tests && ! command -v npm >/dev/null 2>&1; then
	missing="$missing nodejs npm"
fi
[ -z "$missing" ] && exit 0

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "installing:$missing" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
