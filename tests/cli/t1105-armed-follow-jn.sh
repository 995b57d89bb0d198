#!/usr/bin/env bash
# At -jN each armed case follows a running case, whose server lets it go as that case ends (the
# relay, docs/security.md "The next case armed"). The case that ends first need not be the one
# the first armed case in run order follows: the armed case its server let go is the one that
# runs in its slot. Else it runs while still armed: untimed (its timeout counts only from assay's
# go), beyond -j, and an interrupt leaves unreported a case whose program ran, which --resume
# runs again. Cases: a and c end last, b ends first; d follows b.
. "$(dirname "$0")/lib.sh"

# suite NAME: a suite of sh -c cases, one group, made empty
suite() {
	rm -rf "$1"
	mkdir -p "$1/c/g"
	printf 'name: %s\nadapter: {type: cli, command: [sh, -c], timeout: 10, sandbox: off}\ncheckpoints: {c: {groups: {g: {}}}}\n' \
		"$1" > "$1/suite.yaml"
}
# case SUITE ID SCRIPT [TIMEOUT]
case_() {
	printf 'arguments: [%s]\ntimeout: %s\nexpected: {status_code: 0}\n' \
		"$(jq -Rn --arg s "$3" '$s')" "${4:-10}" > "$1/c/g/$2.yaml"
}

test_case 'at -j2 an armed case that a case ending first let go is timed from its start' '
	suite to
	case_ to a "sleep 3"
	case_ to b "sleep 0.3"
	case_ to c "sleep 3"
	# it writes a line every 0.2 s until it is killed (timeout 1 s)
	case_ to d "while :; do echo x >> $TMP/ticks; sleep 0.2; done" 1
	for m in on off; do
		rm -rf res "$TMP/ticks"
		code=0; ASSAY_CASE_SERVER=$m "$ASSAY" run to -j 2 -o res >out 2>err || code=$?
		[ $code = 1 ] || { echo "servers $m: exit $code"; cat out err; false; }
		w=$(jq -r "select(.id == \"d\") | .case.execution.wall_time" res/reports.jsonl)
		n=$(wc -l < "$TMP/ticks")
		awk -v w="$w" -v n="$n" "BEGIN { exit !(w < 1.6 && n <= 8) }" ||
			{ echo "servers $m: d ran $w s ($n ticks) with a timeout of 1 s"; false; }
	done
'

test_case 'at -j2 an interrupt never leaves unreported an armed case whose program ran' '
	require_cmd pgrep
	suite intr
	case_ intr a "sleep 30" 40
	case_ intr b "sleep 0.3"
	case_ intr c "sleep 30" 40
	case_ intr d "echo ran >> $TMP/d-ran"
	for m in on off; do
		rm -rf res "$TMP/d-ran"
		ASSAY_CASE_SERVER=$m "$ASSAY" run intr -j 2 -o res >out 2>err &
		bg=$!
		for i in $(seq 250); do
			[ -s res/reports.jsonl ] && break # b is reported
			sleep 0.02
		done
		sleep 0.5
		kill -INT $bg
		code=0; wait $bg || code=$?
		[ $code = 5 ] || { echo "servers $m: exit $code"; cat out err; false; }
		ran=0; [ ! -e "$TMP/d-ran" ] || ran=$(wc -l < "$TMP/d-ran")
		rep=$(jq -r "select(.id == \"d\") | .id" res/reports.jsonl) ||
			{ echo "servers $m: no reports"; ls -R res; cat out err; false; }
		# it ran once and is reported, or it never ran
		{ [ $ran = 1 ] && [ "$rep" = d ]; } || { [ $ran = 0 ] && [ -z "$rep" ]; } ||
			{ echo "servers $m: d ran $ran times, reported: [$rep]"; false; }
	done
'

test_case 'at -j2 no armed case follows a case of an isolated: false group (its slot is the group'"'"'s)' '
	mkdir -p lane/c/L lane/c/G
	printf "name: lane\nadapter: {type: cli, command: [sh, -c], timeout: 10, sandbox: off}\ncheckpoints: {c: {groups: {L: {isolated: false}, G: {}}}}\n" > lane/suite.yaml
	# each writes its start and its end: never more than 2 at once
	for i in 1 2 3; do
		printf "arguments: [\"echo 1 \$(date +%%s%%N) >> $TMP/log; sleep 0.5; echo -1 \$(date +%%s%%N) >> $TMP/log\"]\nexpected: {status_code: 0}\n" > lane/c/L/l$i.yaml
	done
	for i in 1 2 3 4 5; do
		printf "arguments: [\"echo 1 \$(date +%%s%%N) >> $TMP/log; sleep 1.2; echo -1 \$(date +%%s%%N) >> $TMP/log\"]\nexpected: {status_code: 0}\n" > lane/c/G/g$i.yaml
	done
	for m in on off; do
		rm -rf res "$TMP/log"
		ASSAY_CASE_SERVER=$m "$ASSAY" run lane -j 2 -o res >out 2>err || { echo "servers $m"; cat out err; false; }
		[ "$(jq -s length res/reports.jsonl)" = 8 ]
		max=$(sort -k2n "$TMP/log" | awk "{ n += \$1; if (n > m) m = n } END { print m }")
		[ "$max" = 2 ] || { echo "servers $m: $max cases at once at -j2"; sort -k2n "$TMP/log"; false; }
	done
'

test_done
