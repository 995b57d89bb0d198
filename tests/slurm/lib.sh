# Shared setup of the Slurm tests (issue #22): tests/cli/lib.sh (test_case, test_done, $TMP),
# the private one-node cluster (cluster.sh), and the scripts of docs/scale-out.md as written
# there. A test sources this, calls cluster_start, then submits the doc's scripts.
# Environment (set by ctest): ASSAY (the binary), ASSAY_SRC (the source tree); CI=true makes a
# cluster that cannot start (or a missing jq, sqlite3) a failure instead of a skip.
. "$(dirname "${BASH_SOURCE[0]}")/../cli/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/cluster.sh"

DOC="$ASSAY_SRC/docs/scale-out.md"
require_cmd jq sqlite3

# the jobs find assay (and jq) on their PATH: sbatch passes the submitter's environment on
export PATH="$(dirname "$ASSAY"):$PATH"

# block NAME: the fenced code block after the marker <!-- scale-out: NAME ... -->
# (as tests/cli/t6202-scale-out-docs.sh reads it)
block() {
	awk -v name="$1" '
		index($0, "<!-- scale-out: " name " ") == 1 || $0 == "<!-- scale-out: " name " -->" { want = 1; next }
		want && /^```/ { if (inside) exit; inside = 1; next }
		inside { print }' "$DOC"
}

# doc_scripts [TASKS]: writes the doc's scripts into the current folder, under the names the doc
# gives them: assay-jq.sbatch (its #SBATCH --array=1-4 made 1-TASKS when TASKS is given),
# assay-jq-merge.sbatch, submit.sh (its two sbatch lines) and retry.sh (a shard run again, then
# merged again). The folder holds the sources' examples/, as the doc asks.
doc_scripts() {
	block slurm-shards >assay-jq.sbatch
	block slurm-merge >assay-jq-merge.sbatch
	block slurm-submit >submit.sh
	block slurm-retry >retry.sh
	local f
	for f in assay-jq.sbatch assay-jq-merge.sbatch submit.sh retry.sh; do
		[ -s "$f" ] || { echo "docs/scale-out.md has no script for $f"; return 1; }
	done
	grep -q '^#SBATCH --array=1-4$' assay-jq.sbatch
	if [ -n "${1:-}" ]; then
		sed -i "s/^#SBATCH --array=1-4\$/#SBATCH --array=1-$1/" assay-jq.sbatch
	fi
	ln -sfn "$ASSAY_SRC/examples" examples
}

# submitted FILE: the ids of the jobs whose submission wrote FILE (sbatch's "Submitted batch
# job N" lines, and the bare ids of --parsable)
submitted() {
	sed -n -e 's/^Submitted batch job \([0-9]*\).*/\1/p' -e 's/^\([0-9][0-9]*\)$/\1/p' "$1"
}

# strip FILE: report lines without what differs from run to run (timings)
strip() {
	jq -c 'del(.timestamp, .duration, .case.execution.wall_time, .case.execution.cpu_time,
		.case.execution.max_rss)' "$1"
}

# same_run SINGLE MERGED: two results folders hold the same run: every case's report line
# (verdicts, attributes, scores) in the same order, and the same summary (totals,
# checkpoints, groups, policies, failures), but for timings
same_run() {
	[ -s "$1/reports.jsonl" ] && [ -s "$2/reports.jsonl" ]
	test_cmp <(strip "$1/reports.jsonl") <(strip "$2/reports.jsonl")
	test_cmp <(jq -S 'del(.duration)' "$1/summary.json") <(jq -S 'del(.duration)' "$2/summary.json")
}

# no_sanitizer_report: no job log holds a sanitizer's report (the ASan build runs these tests)
no_sanitizer_report() {
	! grep -E "(Address|Leak|UndefinedBehavior)Sanitizer|runtime error:" ./*.log || false
}

# now: seconds since the epoch, with nanoseconds
now() {
	date +%s.%N
}
