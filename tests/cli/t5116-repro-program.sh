#!/usr/bin/env bash
# The terminal's reproduce line names the program the cases ran. As root with the sandbox, a
# case runs as nobody, whose search of PATH skips what it cannot reach (pyenv's shims under
# /root): the cases ran another file of that name than a shell's PATH finds, which the start-up
# warning names (t5008). The line named the bare word, so that pasted as root it ran root's.
. "$(dirname "$0")/lib.sh"

setup() {
	rm -rf hidden open s && mkdir -p -m 700 hidden && mkdir -p hidden/bin open/bin s/c/g
	printf "#!/bin/sh\necho hidden\n" > hidden/bin/myprog
	printf "#!/bin/sh\necho open\n" > open/bin/myprog
	chmod 755 hidden/bin/myprog open/bin/myprog
	printf "name: w\nadapter: {type: cli, command: [myprog]}\ncheckpoints: {c: {groups: {g: {}}}}\n" > s/suite.yaml
	# fails as nobody (it runs open/bin/myprog), so that its reproduce line is shown
	printf "expected: {output: \"hidden\\\\n\"}\n" > s/c/g/a.yaml
	export PATH="$PWD/hidden/bin:$PWD/open/bin:$PATH"
}

# the reproduce line of `out`, run as it is printed (as root, with this PATH): what it prints
run_line() {
	line=$(sed -n "s/^    reproduce: //p" out)
	[ -n "$line" ] || { cat out; false; }
	bash -c "$line"
}

test_case 'as root, the reproduce line names the program nobody ran, and runs it' '
	[ "$(id -u)" = 0 ] || skip_optional "needs root"
	setup
	run_assay run s -o res --keep; expect_exit 1
	expect_grep "the cases run $PWD/open/bin/myprog instead" err
	jq -e ".results.output.actual == \"open\\n\"" res/reports.jsonl >/dev/null
	expect_grep "^    reproduce: cd .* && env -i .* $PWD/open/bin/myprog < /dev/null$" out
	[ "$(run_line)" = open ]
	rm -rf "$(sed -n "s/^working folders kept in //p" out)"
	# with --entry, and in run-case
	run_assay run s -o res2 --entry myprog; expect_exit 1
	expect_grep "^    reproduce: .* $PWD/open/bin/myprog < /dev/null$" out
	run_assay run-case s --case c/g/a --format text; expect_exit 1
	expect_grep "^    reproduce: .* $PWD/open/bin/myprog < /dev/null$" out
	# without the sandbox, or where nobody runs what root would, the word as the suite has it
	run_assay run s -o res3 --sandbox off; expect_exit 0
	printf "expected: {output: \"no\\\\n\"}\n" > s/c/g/a.yaml
	run_assay run s -o res4 --sandbox off; expect_exit 1
	expect_grep "^    reproduce: env -i .* myprog < /dev/null$" out
	chmod 755 hidden
	run_assay run s -o res5; expect_exit 1
	expect_grep "^    reproduce: env -i .* myprog < /dev/null$" out'

# (found attacking the change above: the suite's env setting PATH, the cases search that PATH,
# not assay's; the line named the file nobody finds on assay's PATH, which the case never ran)
test_case 'a PATH the suite or the case sets is the one the reproduce line searches' '
	[ "$(id -u)" = 0 ] || skip_optional "needs root"
	setup
	mkdir -p suitebin casebin
	printf "#!/bin/sh\necho suite\n" > suitebin/myprog
	printf "#!/bin/sh\necho case\n" > casebin/myprog
	chmod 755 suitebin/myprog casebin/myprog
	printf "name: w\nadapter: {type: cli, command: [myprog], env: {PATH: \"$PWD/suitebin:/usr/bin:/bin\"}}\ncheckpoints: {c: {groups: {g: {}}}}\n" > s/suite.yaml
	printf "expected: {output: \"no\\\\n\"}\n" > s/c/g/a.yaml
	run_assay run s -o res; expect_exit 1
	jq -e ".results.output.actual == \"suite\n\"" res/reports.jsonl >/dev/null
	[ "$(run_line)" = suite ] || { cat out; false; }
	# nor does the start-up warning name a file of assay'"'"'s PATH
	if grep -q "the cases run" err; then cat err; false; fi
	printf "env: {PATH: \"$PWD/casebin:/usr/bin:/bin\"}\nexpected: {output: \"no\\\\n\"}\n" > s/c/g/a.yaml
	run_assay run s -o res2; expect_exit 1
	jq -e ".results.output.actual == \"case\n\"" res2/reports.jsonl >/dev/null
	[ "$(run_line)" = case ] || { cat out; false; }'

# merge read the suite's word (`myprog`, which a shell finds under hidden/) for its lines
test_case 'as root, the merge of shards names the program the shards ran' '
	[ "$(id -u)" = 0 ] || skip_optional "needs root"
	setup
	rm -rf sh1 m
	run_assay run s -o sh1 --shard 1/1; expect_exit 1
	expect_grep "^    reproduce: .* $PWD/open/bin/myprog < /dev/null$" out
	run_assay merge sh1 --suite s -o m; expect_exit 1
	expect_grep "^    reproduce: .* $PWD/open/bin/myprog < /dev/null$" out'

test_done
