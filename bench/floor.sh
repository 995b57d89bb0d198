#!/usr/bin/env bash
# assay against the physical floor of running a suite (issue 19): 2,000 trivial cases
# (`/bin/echo hello-N`, stdout compared), `assay run -j1`, against bench/floor.c (a copy of the
# team's shared baseline: for each case posix_spawn, pipes read to EOF, wait; no verification,
# no folder, no isolation), built here. Rounds alternate floor and assay, so the load others put
# on the machine weighs on both alike; every figure is a ratio to the floor measured in the same
# round, and the median of the rounds is reported. The load average is printed before and after.
#
# Variants (each its own line, all in every round):
#   on    sandbox on (assay's default), working folders in the default place ($TMPDIR)
#   off   --sandbox off, working folders in the default place
#   on-nopin, off-nopin   the same with ASSAY_PIN=off: assay and its servers stay on every CPU
#         (docs/cli.md, "The CPUs of the harness"), for comparison
# and, for the rest of the issue's table (each timed the same way, against the same floor):
#   on-shm  sandbox on, working folders on /dev/shm (--work-dir)
#   loop    bench/spawn_loop.c through case servers, sandbox on: assay's proc API and sandbox
#           spawning `/bin/echo hi` N times, and nothing else
#   unshare the floor's own loop running `unshare -Urn /bin/echo hello-N` (a peer: a new user
#           and network namespace per case, no verification)
#   bats    a bats file of N_BATS tests `run /bin/echo hello-N; [ "$output" = hello-N ]` (a peer;
#           N_BATS, default 200, as bats takes some 20 ms a test); its figure is per case
# Goals (issue 19): on <= 1.15, off <= 1.05.
#
# Usage: [ROUNDS=7] [N=2000] [VARIANTS="on off"] [BUILD=build] [N_BATS=200] bench/floor.sh
#        VARIANTS="on off on-shm loop unshare bats" for the whole table
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-7}
N=${N:-2000}
VARIANTS=${VARIANTS:-"on off"}
N_BATS=${N_BATS:-200}
BUILD=${BUILD:-build}
ASSAY=$BUILD/assay
[ -x "$ASSAY" ] || { echo "floor.sh: build $ASSAY first (make)" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/assay-bench-floor.XXXXXX")
chmod 755 "$TMP" # with root, cases run as nobody: they must reach their folders
trap 'rm -rf "$TMP"' EXIT
cc -O2 -o "$TMP/floor" bench/floor.c

load() { echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"; }
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
timed() { local t0 t1; t0=$(now); "$@" >/dev/null 2>&1 || true; t1=$(now); awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'; }

# The suite: N cases of /bin/echo hello-N, each expecting its own line; and the floor's input,
# the same N argvs with an empty stdin file.
mkdir -p "$TMP/suite/c/g"
printf 'name: floor\nadapter: {type: cli, command: [/bin/echo]}\ncheckpoints: {c: {groups: {g: {}}}}\n' > "$TMP/suite/suite.yaml"
: > "$TMP/empty"
for ((i = 1; i <= N; i++)); do
	printf 'arguments: [hello-%d]\nexpected: {output: "hello-%d\\n"}\n' "$i" "$i" > "$TMP/suite/c/g/e$i.yaml"
	printf '2\n/bin/echo\0hello-%d\0%s\0' "$i" "$TMP/empty"
done > "$TMP/floor.in"

floor() { "$TMP/floor" < "$TMP/floor.in"; }
run_assay() { # VARIANT
	local pin=on
	rm -rf "$TMP/res-$1"
	[ "${1#*-}" = nopin ] && pin=off
	ASSAY_PIN=$pin "$ASSAY" run "$TMP/suite" -q -j1 -o "$TMP/res-$1" --sandbox "${1%-nopin}"
}
# How many cases variant V runs (bats fewer: its figures are per case).
cases_of() { if [ "$1" = bats ]; then echo "$N_BATS"; else echo "$N"; fi; }
run_variant() { # VARIANT
	case $1 in
	on-shm)
		rm -rf "$TMP/res-$1"
		"$ASSAY" run "$TMP/suite" -q -j1 -o "$TMP/res-$1" --work-dir /dev/shm ;;
	loop) "$BUILD/assay-bench-spawn-loop" "$N" on "$TMP/loopd" servers ;;
	unshare) "$TMP/floor" < "$TMP/unshare.in" ;;
	bats) bats "$TMP/t.bats" ;;
	*) run_assay "$1" ;;
	esac
}
for v in $VARIANTS; do
	case $v in
	loop)
		[ -x "$BUILD/assay-bench-spawn-loop" ] ||
			{ echo "floor.sh: no $BUILD/assay-bench-spawn-loop (make)" >&2; exit 2; }
		mkdir -p "$TMP/loopd" && chmod 755 "$TMP/loopd" ;;
	unshare)
		for ((i = 1; i <= N; i++)); do
			printf '4\n/usr/bin/unshare\0-Urn\0/bin/echo\0hello-%d\0%s\0' "$i" "$TMP/empty"
		done > "$TMP/unshare.in" ;;
	bats)
		command -v bats >/dev/null || { echo "floor.sh: variant bats needs bats" >&2; exit 2; }
		for ((i = 1; i <= N_BATS; i++)); do
			printf '@test "e%d" {\n\trun /bin/echo hello-%d\n\t[ "$output" = hello-%d ]\n}\n' \
				"$i" "$i" "$i"
		done > "$TMP/t.bats" ;;
	esac
done

echo "== $N trivial cases, assay run -j1 against the bare floor (bench/floor.c), $ROUNDS rounds"
load
floor >/dev/null; for v in $VARIANTS; do run_variant "$v" >/dev/null 2>&1 || true; done # warm up
for v in $VARIANTS; do : > "$TMP/ratio-$v"; : > "$TMP/ms-$v"; done
: > "$TMP/ms-floor"
for ((r = 0; r < ROUNDS; r++)); do
	for v in $VARIANTS; do
		f=$(timed floor)
		a=$(timed run_variant "$v")
		m=$(cases_of "$v")
		echo "$f" >> "$TMP/ms-floor"
		awk -v f="$f" -v a="$a" -v n="$N" -v m="$m" 'BEGIN { print (a / m) / (f / n) }' >> "$TMP/ratio-$v"
		awk -v a="$a" -v m="$m" 'BEGIN { print a * 1000 / m }' >> "$TMP/ms-$v"
	done
done
for v in $VARIANTS; do
	case $v in
	loop) continue ;;
	unshare)
		[ "$(/usr/bin/unshare -Urn /bin/echo hello-1 2>&1)" = hello-1 ] ||
			echo "warning: unshare -Urn does not run here: its figures time failures"
		continue ;;
	bats)
		bats "$TMP/t.bats" >/dev/null 2>&1 ||
			echo "warning: the bats file fails: its figures time failures"
		continue ;;
	esac
	p=$(jq .totals.passed "$TMP/res-$v/summary.json" 2>/dev/null || echo 0)
	[ "$p" = "$N" ] || echo "warning: sandbox $v: $p of $N cases passed: the figures time failures"
done
awk -v f="$(median < "$TMP/ms-floor")" -v n="$N" 'BEGIN { printf "floor:         %.3f ms/case\n", f * 1000 / n }'
for v in $VARIANTS; do
	case $v in
	on | on-nopin) goal=' goal <= 1.15' ;;
	off | off-nopin) goal=' goal <= 1.05' ;;
	*) goal= ;;
	esac
	printf '%-12s  %.3f ms/case  ratio to the floor: median %.3f (rounds: %s)%s\n' "$v" \
		"$(median < "$TMP/ms-$v")" "$(median < "$TMP/ratio-$v")" "$(sort -g "$TMP/ratio-$v" | tr '\n' ' ' | sed 's/ $//')" "$goal"
done
load
