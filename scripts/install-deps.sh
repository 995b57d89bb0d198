#!/bin/sh
# Installs the Debian packages that assay's build, tests and demo need: the compiler and
# CMake, the libraries, Criterion, and jq (the demo's program under test; the tests read JSON
# with it). Idempotent: installs only what is missing and runs apt-get update only then.
# Usage: scripts/install-deps.sh   (as root, or with sudo)
set -eu

pkgs="build-essential cmake pkg-config libyaml-dev libpcre2-dev libcriterion-dev libdouble-conversion-dev
libunistring-dev nettle-dev libsqlite3-dev sqlite3 jq diffutils"
if [ $# -ne 0 ]; then
	echo "usage: $0" >&2
	exit 2
fi

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
