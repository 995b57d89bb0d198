#!/bin/sh
# Installs the Debian packages assay needs: to build and run it (the compiler, CMake, the
# libraries, and jq, the demo's program under test), and with --tests also what its tests need:
# Criterion, the sqlite3 shell, clang's libFuzzer, xmllint (JUnit reports against their schema),
# headless Chromium (the HTML report), PyYAML (TAP diagnostics), python3 (the api adapter's test
# servers, tests/cli/t2002, on its http.server), and node with npm when there is
# no npm yet (a machine whose node comes from elsewhere keeps it: Debian's npm would conflict
# with it), then DuckDB's npm package under $ASSAY_TEST_NODE_DIR (default
# /usr/local/lib/assay-test-node): tests/cli/t5102 and t5103 read assay's Parquet files back
# with it, and no test downloads anything at test time; pydantic and deepdiff (tests/cli/t3101
# runs the contract's Python verifier examples under the contract's own pydantic model); Slurm
# and munge (tests/slurm/ starts a private one-node cluster to run docs/scale-out.md's job
# array; the packages' own services are not used); acl's setfacl (tests/cli/t5008: a --work-dir
# that an ACL opens to nobody).
# Idempotent: installs only what is missing and runs apt-get update only then.
# Usage: scripts/install-deps.sh [--tests]   (as root, or with sudo)
set -eu

pkgs="build-essential cmake pkg-config libyaml-dev libpcre2-dev libdouble-conversion-dev
libunistring-dev nettle-dev libsqlite3-dev libgit2-dev libcurl4-openssl-dev libzstd-dev jq
libtomlplusplus-dev zlib1g-dev"
test_pkgs="libcriterion-dev sqlite3 diffutils clang libclang-rt-dev libxml2-utils chromium
python3 python3-yaml groff-base python3-pydantic python3-deepdiff slurm-wlm munge acl"
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
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
if [ -n "$missing" ]; then
	echo "installing:$missing" >&2
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# DuckDB's Node package, pinned (the version tests/cli/t5102 was written against).
if $tests; then
	node_dir=${ASSAY_TEST_NODE_DIR:-/usr/local/lib/assay-test-node}
	if [ ! -d "$node_dir/node_modules/@duckdb/node-api" ]; then
		echo "installing: @duckdb/node-api (npm) into $node_dir" >&2
		$SUDO mkdir -p "$node_dir"
		$SUDO npm install --prefix "$node_dir" --no-audit --no-fund --no-save \
			@duckdb/node-api@1.5.6-r.1 >/dev/null
	fi
fi
