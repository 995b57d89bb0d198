#!/usr/bin/env bash
# docs/scale-out.md (issue #10 part 3): its Slurm job array runs here as a three-task array
# (the variables Slurm would set), then its merge script; its Kubernetes manifest parses, is an
# Indexed Job whose count agrees everywhere, and the commands of its shard and merge containers
# run here as Kubernetes would run them (JOB_COMPLETION_INDEX), on the jq example.
. "$(dirname "$0")/lib.sh"

DOC="$ASSAY_SRC/docs/scale-out.md"
require_cmd jq

# block NAME: the fenced code block after the marker <!-- scale-out: NAME ... -->
block() {
	awk -v name="$1" '
		index($0, "<!-- scale-out: " name " ") == 1 || $0 == "<!-- scale-out: " name " -->" { want = 1; next }
		want && /^```/ { if (inside) exit; inside = 1; next }
		inside { print }' "$DOC"
}

export PATH="$(dirname "$ASSAY"):$PATH"

test_case 'the Slurm scripts are valid bash and the array runs as three shards, then merges' '
	block slurm-shards > shards.sbatch
	block slurm-merge > merge.sbatch
	[ -s shards.sbatch ] && [ -s merge.sbatch ]
	bash -n shards.sbatch
	bash -n merge.sbatch
	grep -q "^#SBATCH --array=" shards.sbatch
	grep -q -- "--shard auto" shards.sbatch
	# as many cases at once as the task has CPUs
	grep -q -- "-j \"\${SLURM_CPUS_PER_TASK:-1}\"" shards.sbatch
	grep -q "^#SBATCH --cpus-per-task=" shards.sbatch
	for task in 1 2 3; do
		env SLURM_ARRAY_JOB_ID=77 SLURM_ARRAY_TASK_ID=$task SLURM_ARRAY_TASK_MIN=1 \
			SLURM_CPUS_PER_TASK=2 \
			SLURM_ARRAY_TASK_MAX=3 SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_STEP=1 \
			SUITE="$ASSAY_SRC/examples/jq-1.6" bash shards.sbatch
	done
	[ -d results/jq-77/shard-1 ] && [ -d results/jq-77/shard-3 ]
	SUITE="$ASSAY_SRC/examples/jq-1.6" RESULTS=results/jq-77 bash merge.sbatch > merge.out || [ $? = 1 ]
	jq -e ".totals.total == 350" results/jq-77/merged/summary.json
	[ "$(jq -r "[.case.checkpoint, .group, .id] | join(\"/\")" results/jq-77/merged/reports.jsonl | sort -u | wc -l)" = 350 ]
	jq -s -e "map(.shard.index) == [1, 2, 3] and all(.shard.count == 3)" \
		results/jq-77/shard-1/summary.json results/jq-77/shard-2/summary.json results/jq-77/shard-3/summary.json
	# without RESULTS the merge script says so
	! env -u RESULTS bash merge.sbatch 2>err || false
	grep -q "RESULTS" err'

test_case 'the Kubernetes manifest parses, and its shard and merge commands run as pods would' '
	command -v python3 >/dev/null && python3 -c "import yaml" 2>/dev/null ||
		skip "python3-yaml is not installed"
	mkdir k8s && cd k8s
	block kubernetes > assay-jq.yaml
	[ -s assay-jq.yaml ]
	python3 - assay-jq.yaml > commands.json <<-"PY"
	import json, sys, yaml
	docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
	kinds = [d["kind"] for d in docs]
	assert kinds == ["PersistentVolumeClaim", "Job", "Job"], kinds
	shards, merge = docs[1], docs[2]
	spec = shards["spec"]
	assert spec["completionMode"] == "Indexed", spec
	n = spec["completions"]
	assert spec["parallelism"] == n
	pod = spec["template"]["spec"]
	assert pod["restartPolicy"] == "Never"
	c = pod["containers"][0]
	env = {e["name"]: e["value"] for e in c["env"]}
	assert env["ASSAY_SHARD_COUNT"] == str(n), env
	# -j matches the CPU request of the pod
	cpu = c["resources"]["requests"]["cpu"]
	assert ("-j %s " % cpu) in c["args"][0], (cpu, c["args"][0])
	claim = docs[0]["metadata"]["name"]
	claims = [j["spec"]["template"]["spec"]["volumes"][0]["persistentVolumeClaim"]["claimName"] for j in (shards, merge)]
	assert claims == [claim, claim], claims
	mpod = merge["spec"]["template"]["spec"]
	wait = mpod["initContainers"][0]["args"][0]
	assert "-ge %d" % n in wait, wait
	json.dump({"count": n, "shard": c["command"] + c["args"], "wait": mpod["initContainers"][0]["command"] + [wait], "merge": mpod["containers"][0]["command"] + mpod["containers"][0]["args"]}, sys.stdout)
	PY
	n=$(jq -r .count commands.json)
	[ "$n" -ge 2 ]
	# the pods run in the image: the suite at /opt/assay, the volume at /results; here, beside
	mkdir results
	# (three groups of the suite: the Slurm test above runs it whole)
	jq -r ".shard[2]" commands.json | sed -e "s|/opt/assay/|$ASSAY_SRC/|g" \
		-e "s|/results|$PWD/results|g" -e "s|--shard auto|& -g regex -g base64 -g errors|" > shard.sh
	grep -q -- "--shard auto -g regex" shard.sh
	jq -r ".merge[2]" commands.json | sed -e "s|/opt/assay/|$ASSAY_SRC/|g" -e "s|/results|$PWD/results|g" > merge.sh
	jq -r ".wait[2]" commands.json | sed -e "s|/results|$PWD/results|g" -e "s|sleep 10|exit 9|" > wait.sh
	[ "$(jq -r ".shard[0:2] | join(\" \")" commands.json)" = "sh -c" ]
	# the merge waits while shards are missing
	code=0; sh wait.sh || code=$?; [ "$code" = 9 ]
	for i in $(seq 0 $((n - 1))); do
		JOB_COMPLETION_INDEX=$i ASSAY_SHARD_COUNT=$n sh shard.sh
	done
	sh wait.sh
	code=0; sh merge.sh > merge.out || code=$?
	[ "$code" = 0 ] || [ "$code" = 1 ]
	jq -e ".totals.total == 43" results/merged/summary.json
	jq -s -e "map(.shard.index) == [range(1; $n + 1)]" results/shard-*/summary.json'

test_case 'README and docs/cli.md link the page' '
	grep -q "scale-out.md" "$ASSAY_SRC/README.md"
	grep -q "scale-out.md" "$ASSAY_SRC/docs/cli.md"'

test_done
