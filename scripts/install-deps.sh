#!/bin/sh
# Installs the Debian packages assay needs: to build and run it (the compiler, CMake, the
# libraries, and jq, the demo's program under test), and with --tests also what its tests need
# (Criterion, the sqlite3 shell, clang's libFuzzer). Idempotent: installs only what is missing
# and runs apt-get update only then.
# Usage: scripts/install-deps.sh [--tests]   (as root, or with sudo)
set -eu

pkgs="build-essential cmake pkg-config libyaml-dev libpcre2-dev libdouble-conversion-dev
libunistring-dev nettle-dev libsqlite3-dev jq"
test_pkgs="libcriterion-dev sqlite3 diffutils clang libclang-rt-dev"
case "${1:-}" in
"") ;;
--tests) pkgs="$pkgs $test_pkgs" ;;
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
[ -z "$missing" ] && exit 0

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "installing:$missing" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
