#!/bin/sh
# Installs the Debian packages that assay's build, tests and demo need.
# Idempotent: installs only what is missing; runs apt-get update only then.
# Usage: scripts/install-deps.sh [--with-jq]   (sudo is used when not root)
set -eu

pkgs="build-essential cmake pkg-config libjansson-dev libyaml-dev libpcre2-dev libcriterion-dev"
for arg in "$@"; do
	case "$arg" in
	--with-jq) pkgs="$pkgs jq" ;;
	*) echo "usage: $0 [--with-jq]" >&2; exit 2 ;;
	esac
done

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
