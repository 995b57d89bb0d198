#!/usr/bin/env bash
# The library's layering (docs/architecture.md, "Layers"), checked: a module of src/lib may use
# its own layer and those below, never one above. Two views of "use":
#   includes  every #include of src/lib/<module>/ and of include/assay/*.h (each public header
#             belongs to a module: the table below), resolved to the module it names;
#   calls     (with OBJDIR, the library's object folder) every assay_ symbol an object of a
#             module needs, resolved to the module whose object defines it.
# A use upward fails the check unless tests/layers.allow lists it (file and header or symbol,
# with the reason); an allow-list line that no longer matches anything fails it too, so the
# list only shrinks. A module or public header missing from the tables below fails it as well.
#
# Usage: check-layers.sh ROOT [OBJDIR]      (ROOT: the source tree; OBJDIR: the folder holding
#        src/lib/<module>/<file>.c.o, CMake's CMakeFiles/libassay.dir)
#        check-layers.sh --self-test        (plants violations in a small tree: must fail)
set -euo pipefail

# Layers, top first (numbered from the bottom: util is layer 1); cli (src/cli, on the public API
# only) is above them all.
LAYERS=(
	"run shard skill compare"
	"adapter verify report store judge plugin"
	"load diff json yaml toml ini csv parquet stats"
	"model value proc"
	"util"
)
# Public headers whose module is not their name (include/assay/<name>.h -> module).
declare -A PUBLIC=(
	[buf]=util [common]=util [fs]=util [strvec]=util
	[sink]=model
	[suite]=load [adapter_iface]=load
	[udiff]=verify
	[render]=report
	[summary]=run
)

self_test() {
	local t rc out
	t=$(mktemp -d)
	trap 'rm -rf "$t"' RETURN
	mkdir -p "$t/src/lib/util" "$t/src/lib/run" "$t/src/lib/value" "$t/src/lib/model" \
		"$t/include/assay" "$t/tests"
	for m in adapter verify report store judge plugin load diff json yaml toml ini csv parquet \
		stats proc shard skill compare; do
		mkdir -p "$t/src/lib/$m"
	done
	printf '#include "value.h"\n' > "$t/include/assay/run.h"
	printf '#include <stddef.h>\n' > "$t/include/assay/value.h"
	printf '#include "value.h"\n' > "$t/include/assay/model.h"
	printf '#include "assay/run.h"\n#include "util/x_int.h"\n' > "$t/src/lib/run/ok.c"
	: > "$t/src/lib/util/x_int.h"
	: > "$t/tests/layers.allow"
	# a clean tree passes
	if ! out=$(bash "$0" "$t" 2>&1); then
		echo "self-test: a clean tree failed:"; echo "$out"; return 1
	fi
	# a module including a header of a layer above fails, naming the file and line
	printf '#include <string.h>\n#include "assay/run.h"\n' > "$t/src/lib/util/bad.c"
	rc=0; out=$(bash "$0" "$t" 2>&1) || rc=$?
	if [ $rc = 0 ] || ! grep -q 'src/lib/util/bad.c:2: util (layer 1) includes assay/run.h (run, layer 5)' <<<"$out"; then
		echo "self-test: an upward include passed:"; echo "$out"; return 1
	fi
	rm "$t/src/lib/util/bad.c"
	# so does a public header including one above its module, and a private header reached
	# by a relative path
	printf '#include "run.h"\n' > "$t/include/assay/value.h"
	rc=0; out=$(bash "$0" "$t" 2>&1) || rc=$?
	if [ $rc = 0 ] || ! grep -q 'include/assay/value.h:1: value (layer 2) includes run.h (run, layer 5)' <<<"$out"; then
		echo "self-test: an upward public header passed:"; echo "$out"; return 1
	fi
	printf '#include <stddef.h>\n' > "$t/include/assay/value.h"
	printf '#include "../run/run_int.h"\n' > "$t/src/lib/model/m.c"
	rc=0; out=$(bash "$0" "$t" 2>&1) || rc=$?
	if [ $rc = 0 ] || ! grep -q 'src/lib/model/m.c:1: model (layer 2) includes ../run/run_int.h (run, layer 5)' <<<"$out"; then
		echo "self-test: a relative upward include passed:"; echo "$out"; return 1
	fi
	# listed in the allow-list, it passes; an allow-list line matching nothing fails
	echo "src/lib/model/m.c ../run/run_int.h  planted for the self-test" > "$t/tests/layers.allow"
	if ! out=$(bash "$0" "$t" 2>&1); then
		echo "self-test: an allowed include failed:"; echo "$out"; return 1
	fi
	rm "$t/src/lib/model/m.c"
	rc=0; out=$(bash "$0" "$t" 2>&1) || rc=$?
	if [ $rc = 0 ] || ! grep -q 'allow-list line matches nothing' <<<"$out"; then
		echo "self-test: a stale allow-list line passed:"; echo "$out"; return 1
	fi
	: > "$t/tests/layers.allow"
	# a call upward that no include shows (a declaration of its own) fails with the objects
	mkdir -p "$t/obj/src/lib/util" "$t/obj/src/lib/run"
	printf 'void assay_run_x(void);\nvoid assay_util_y(void) { assay_run_x(); }\n' > "$t/src/lib/util/y.c"
	printf 'void assay_run_x(void) {}\n' > "$t/src/lib/run/x.c"
	: > "$t/src/lib/run/ok.c"
	for f in util/y.c run/x.c run/ok.c; do
		cc -c -o "$t/obj/src/lib/$f.o" "$t/src/lib/$f"
	done
	if ! out=$(bash "$0" "$t" 2>&1); then
		echo "self-test: without objects, a tree whose includes are clean failed:"; echo "$out"; return 1
	fi
	rc=0; out=$(bash "$0" "$t" "$t/obj" 2>&1) || rc=$?
	if [ $rc = 0 ] || ! grep -q 'src/lib/util/y.c: util (layer 1) uses assay_run_x of run (layer 5)' <<<"$out"; then
		echo "self-test: an upward call passed:"; echo "$out"; return 1
	fi
	rm "$t/src/lib/util/y.c" "$t/src/lib/run/x.c"
	# a module the table does not know fails
	mkdir -p "$t/src/lib/newmod"
	rc=0; out=$(bash "$0" "$t" 2>&1) || rc=$?
	if [ $rc = 0 ] || ! grep -q 'src/lib/newmod: a module without a layer' <<<"$out"; then
		echo "self-test: an unknown module passed:"; echo "$out"; return 1
	fi
	echo "self-test: upward includes, headers and calls, stale allow-list lines and unknown modules fail"
	echo "1 passed, 0 failed"
}

if [ "${1:-}" = --self-test ]; then
	self_test
	exit
fi

root=${1:?usage: check-layers.sh ROOT [OBJDIR] | --self-test}
objdir=${2:-}
if [ -n "$objdir" ]; then
	[ -d "$objdir" ] || { echo "$objdir: no such folder"; echo "0 passed, 1 failed"; exit 1; }
	objdir=$(cd "$objdir" && pwd)
fi
cd "$root"

declare -A LAYER
n=${#LAYERS[@]}
for i in "${!LAYERS[@]}"; do
	for m in ${LAYERS[$i]}; do
		LAYER[$m]=$((n - i))
	done
done

problems=()
for d in src/lib/*/; do
	m=$(basename "$d")
	[ -n "${LAYER[$m]:-}" ] || problems+=("src/lib/$m: a module without a layer (add it to LAYERS in tests/check-layers.sh and to docs/architecture.md)")
done

# The module of public header include/assay/<name>.h.
public_module() {
	local name=${1%.h}
	if [ -n "${PUBLIC[$name]:-}" ]; then
		echo "${PUBLIC[$name]}"
	elif [ -n "${LAYER[$name]:-}" ]; then
		echo "$name"
	fi
}

# The module an include names, seen from file $1 of module $2; empty: not assay's.
include_module() {
	local file=$1 own=$2 inc=$3 first path
	case $inc in
	assay/*) public_module "${inc#assay/}"; return ;;
	esac
	if [[ $file == include/assay/* ]]; then
		[[ $inc == */* ]] || public_module "$inc"
		return
	fi
	if [[ $inc == ../* || $inc == ./* ]]; then
		path=$(realpath -m --relative-to=. "$(dirname "$file")/$inc")
		if [[ $path == src/lib/*/* ]]; then
			path=${path#src/lib/}
			echo "${path%%/*}"
		fi
		return
	fi
	if [[ $inc != */* ]]; then
		echo "$own"
		return
	fi
	first=${inc%%/*}
	if [ -n "${LAYER[$first]:-}" ]; then
		echo "$first"
	else
		echo "$own" # a sub-folder of the module's own (proc/init)
	fi
}

allow=()
[ -f tests/layers.allow ] && mapfile -t allow < <(grep -v '^\s*\(#\|$\)' tests/layers.allow || true)
declare -A used_allow

# Is "file what" on the allow-list? Records the use.
allowed() {
	local key="$1 $2" line
	for line in "${allow[@]}"; do
		read -r f w _ <<<"$line"
		if [ "$f $w" = "$key" ]; then
			used_allow[$line]=1
			return 0
		fi
	done
	return 1
}

nfiles=0
nincludes=0
while IFS= read -r file; do
	if [[ $file == include/assay/* ]]; then
		own=$(public_module "$(basename "$file")")
		if [ -z "$own" ]; then
			problems+=("$file: a public header without a module (add it to PUBLIC in tests/check-layers.sh)")
			continue
		fi
	else
		own=${file#src/lib/}
		own=${own%%/*}
	fi
	[ -n "${LAYER[$own]:-}" ] || continue
	nfiles=$((nfiles + 1))
	while IFS=: read -r line inc; do
		nincludes=$((nincludes + 1))
		target=$(include_module "$file" "$own" "$inc")
		[ -n "$target" ] || continue
		if [ -z "${LAYER[$target]:-}" ]; then
			problems+=("$file:$line: includes $inc of an unknown module '$target'")
		elif [ "${LAYER[$target]}" -gt "${LAYER[$own]}" ] && ! allowed "$file" "$inc"; then
			problems+=("$file:$line: $own (layer ${LAYER[$own]}) includes $inc ($target, layer ${LAYER[$target]}), a layer above it")
		fi
	done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*("[^"]+"|<assay/[^>]+>)' "$file" |
		sed -E 's/^([0-9]+):[^"<]*["<]([^">]+)[">].*/\1:\2/' || true)
done < <(find src/lib include/assay -type f \( -name '*.c' -o -name '*.h' -o -name '*.cc' \) | sort)

ncalls=0
if [ -n "$objdir" ]; then
	# every object of the library, from its source (a stale object of a moved file is not)
	objs=()
	while IFS= read -r src; do
		o="$objdir/$src.o"
		[ -f "$o" ] || { problems+=("$o: no object for $src (build the library first)"); continue; }
		objs+=("$src")
	done < <(find src/lib -type f \( -name '*.c' -o -name '*.cc' \) -not -path 'src/lib/proc/init/*' | sort)
	# one nm over every object: "OBJ.o:ADDR T SYM" for definitions, "OBJ.o:   U SYM" for needs
	while read -r src m sym t; do
		ncalls=$((ncalls + 1))
		if [ "${LAYER[$t]}" -gt "${LAYER[$m]}" ] && ! allowed "$src" "$sym"; then
			problems+=("$src: $m (layer ${LAYER[$m]}) uses $sym of $t (layer ${LAYER[$t]}), a layer above it")
		fi
	done < <(cd "$objdir" && nm -A -g "${objs[@]/%/.o}" | awk '
		{ obj = $1; sub(/\.o:.*/, "", obj); sym = $NF; type = $(NF - 1)
		  m = obj; sub(/^src\/lib\//, "", m); sub(/\/.*/, "", m) }
		sym !~ /^assay_/ { next }
		type == "U" { need[obj " " m " " sym] = sym; next }
		{ def[sym] = m }
		END { for (k in need) if (need[k] in def) print k, def[need[k]] }' | sort)
fi

for line in "${allow[@]}"; do
	read -r _ w _ <<<"$line"
	# (a symbol's line is looked at only when objects are)
	[ -n "${used_allow[$line]:-}" ] || { [ -z "$objdir" ] && [[ $w != *.h ]]; } ||
		problems+=("tests/layers.allow: allow-list line matches nothing (remove it): $line")
done

if [ ${#problems[@]} -gt 0 ]; then
	printf '%s\n' "${problems[@]}"
	echo "layers: ${#problems[@]} problems (docs/architecture.md, \"Layers\"; tests/layers.allow)"
	echo "0 passed, 1 failed"
	exit 1
fi
echo "layers: $nfiles files, $nincludes includes${objdir:+, $ncalls calls} keep to the layers (${#allow[@]} allowed exceptions)"
echo "1 passed, 0 failed"
