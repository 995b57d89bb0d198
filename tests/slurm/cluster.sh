# A private one-node Slurm cluster for the tests of tests/slurm/ (issue #22). Sourced by a test
# after tests/cli/lib.sh (it needs $TMP): `cluster_start` starts munged (a key of its own, its
# socket under the test's folder), slurmctld and slurmd (a minimal slurm.conf, unprivileged
# ports, every state and log file under $TMP/cluster), waits until the node is idle and exports
# SLURM_CONF for sbatch, squeue, scancel and scontrol. Everything it starts is stopped, by pid,
# when the test exits, whatever way it exits: an EXIT trap, and a watchdog in a session of its own
# that stops the cluster when the test's shell is gone (killed by ctest's timeout, say).
# slurmd's job steps (slurmstepd and the jobs' processes) are not its children: they are found
# by the cluster's marker in their environment (ASSAY_SLURM_CLUSTER=$TMP/cluster) and stopped
# after the cluster's jobs have been cancelled.
#
# Where Slurm is missing or cannot start the test is skipped, saying why, by tests/cli/lib.sh's
# `skip` (ctest counts it as skipped); in CI (CI=true), where scripts/install-deps.sh installs
# Slurm, that skip is a failure, and the daemons' logs are shown.

CLUSTER="$TMP/cluster"
NODE=assay-node

# cluster_unavailable REASON: skips the test, or fails it in CI (lib.sh's skip).
cluster_unavailable() {
	if [ "${CI:-}" = true ]; then
		for f in "$CLUSTER"/*.log "$CLUSTER"/*.out; do
			[ -f "$f" ] && { echo "--- $f"; tail -n 30 "$f"; }
		done
	fi
	skip "$1"
}

# free_port: an unprivileged TCP port nothing listens on (a random one, checked in /proc/net).
free_port() {
	local port hex
	while :; do
		port=$((20000 + RANDOM % 40000))
		hex=$(printf ':%04X ' "$port")
		grep -q "$hex" /proc/net/tcp /proc/net/tcp6 2>/dev/null || { echo "$port"; return; }
	done
}

# start_daemon NAME COMMAND...: starts COMMAND in the background (in the foreground mode of the
# daemon: the pid is its own), keeps its pid in $CLUSTER/NAME.pid.
start_daemon() {
	local name=$1
	shift
	"$@" >"$CLUSTER/$name.out" 2>&1 </dev/null &
	echo $! >"$CLUSTER/$name.pid"
}

# The stop script, written once so that the EXIT trap and the watchdog run the same steps.
write_stop_script() {
	cat >"$CLUSTER/stop.sh" <<-'EOF'
	# stop.sh CLUSTER: stops the cluster of the folder CLUSTER (once; later calls do nothing).
	CLUSTER=$1
	mkdir "$CLUSTER/stopping" 2>/dev/null || exit 0
	export SLURM_CONF="$CLUSTER/slurm.conf"
	alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null; }
	pid_of() { cat "$CLUSTER/$1.pid" 2>/dev/null; }
	# stop_pid PID: SIGTERM, then SIGKILL after 5 s
	stop_pid() {
		alive "$1" || return 0
		kill -TERM "$1" 2>/dev/null
		for _ in $(seq 50); do alive "$1" || return 0; sleep 0.1; done
		kill -KILL "$1" 2>/dev/null
	}
	# the cluster's jobs first, while slurmctld and slurmd can still end them
	if alive "$(pid_of slurmctld)"; then
		timeout 5 scancel --quiet --full $(timeout 5 squeue -h -o %A 2>/dev/null) 2>/dev/null
		for _ in $(seq 50); do
			[ -z "$(timeout 5 squeue -h -o %A 2>/dev/null)" ] && break
			sleep 0.1
		done
	fi
	stop_pid "$(pid_of slurmd)"
	stop_pid "$(pid_of slurmctld)"
	# what slurmd started (slurmstepd, the jobs): marked in their environment (slurmd and
	# sbatch pass it on); not this script nor the shells it runs under
	keep=" $$ "
	p=$$
	while [ "$p" -gt 1 ] 2>/dev/null; do
		p=$(awk '{ print $4 }' "/proc/$p/stat" 2>/dev/null) || break
		keep="$keep$p "
	done
	for env in /proc/[0-9]*/environ; do
		p=${env#/proc/}
		p=${p%/environ}
		case "$keep" in *" $p "*) continue ;; esac
		{ tr '\0' '\n' <"$env"; } 2>/dev/null | grep -qxF "ASSAY_SLURM_CLUSTER=$CLUSTER" &&
			kill -KILL "$p" 2>/dev/null
	done
	stop_pid "$(pid_of munged)"
	# the watchdog, when it is not the one running this
	w=$(pid_of watchdog)
	case "$keep" in *" $w "*) ;; *) alive "$w" && kill -TERM "$w" 2>/dev/null ;; esac
	exit 0
	EOF
}

# cluster_stop: stops every daemon cluster_start started, and what they started (idempotent).
cluster_stop() {
	[ -f "$CLUSTER/stop.sh" ] && bash "$CLUSTER/stop.sh" "$CLUSTER"
	return 0
}

cluster_start() {
	local d host key i state
	for d in munged slurmctld slurmd sbatch squeue scancel scontrol; do
		command -v "$d" >/dev/null 2>&1 || PATH="$PATH:/usr/sbin:/sbin"
		command -v "$d" >/dev/null 2>&1 ||
			cluster_unavailable "$d is not installed (scripts/install-deps.sh --tests installs Slurm)"
	done
	mkdir -p "$CLUSTER/munge" "$CLUSTER/state" "$CLUSTER/spool"
	chmod 700 "$CLUSTER/munge"
	write_stop_script
	trap 'cluster_stop; rm -rf "$TMP"' EXIT
	trap 'exit 143' TERM INT HUP
	# the watchdog: its own session (ctest's timeout kills the test's process group), no marker;
	# once the test's shell is gone it stops the cluster and removes the test's folder
	setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 1; done
		bash "$2/stop.sh" "$2"; rm -rf "$3"' \
		watchdog "$$" "$CLUSTER" "$TMP" </dev/null >/dev/null 2>&1 &
	echo $! >"$CLUSTER/watchdog.pid"

	key="$CLUSTER/munge/munge.key"
	head -c 1024 /dev/urandom >"$key"
	chmod 400 "$key"
	start_daemon munged munged --foreground --force --socket="$CLUSTER/munge/munge.sock" \
		--key-file="$key" --pid-file="$CLUSTER/munge/munged.pid" \
		--log-file="$CLUSTER/munged.log" --seed-file="$CLUSTER/munge/munged.seed"
	for i in $(seq 100); do
		[ -S "$CLUSTER/munge/munge.sock" ] && break
		kill -0 "$(cat "$CLUSTER/munged.pid")" 2>/dev/null || break
		sleep 0.1
	done
	[ -S "$CLUSTER/munge/munge.sock" ] ||
		cluster_unavailable "munged did not start: $(tail -n 3 "$CLUSTER/munged.out" "$CLUSTER/munged.log" 2>/dev/null)"

	host=$(hostname -s)
	local user
	user=$(id -un)
	cat >"$CLUSTER/slurm.conf" <<-EOF
	ClusterName=assaytest
	SlurmctldHost=$host(127.0.0.1)
	SlurmctldPort=$(free_port)
	SlurmdPort=$(free_port)
	SlurmUser=$user
	SlurmdUser=$user
	AuthType=auth/munge
	CredType=cred/munge
	AuthInfo=socket=$CLUSTER/munge/munge.sock
	StateSaveLocation=$CLUSTER/state
	SlurmdSpoolDir=$CLUSTER/spool
	SlurmctldPidFile=$CLUSTER/slurmctld.pidfile
	SlurmdPidFile=$CLUSTER/slurmd.pidfile
	SlurmctldLogFile=$CLUSTER/slurmctld.log
	SlurmdLogFile=$CLUSTER/slurmd.log
	ProctrackType=proctrack/linuxproc
	TaskPlugin=task/none
	JobAcctGatherType=jobacct_gather/none
	AccountingStorageType=accounting_storage/none
	JobCompType=jobcomp/none
	SwitchType=switch/none
	MpiDefault=none
	SchedulerType=sched/builtin
	SchedulerParameters=sched_interval=1
	SelectType=select/cons_tres
	SelectTypeParameters=CR_CPU
	SlurmdParameters=config_overrides
	ReturnToService=2
	KillWait=2
	MinJobAge=600
	InactiveLimit=0
	PlugStackConfig=$CLUSTER/plugstack.conf
	# eight CPUs whatever the machine has: docs/scale-out.md's array is four tasks of two CPUs
	# each, and they run at once (config_overrides: the machine's cores are shared, not bound)
	NodeName=$NODE NodeHostname=$host NodeAddr=127.0.0.1 CPUs=8 State=UNKNOWN
	PartitionName=assay Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
	EOF
	: >"$CLUSTER/plugstack.conf"
	export SLURM_CONF="$CLUSTER/slurm.conf"
	start_daemon slurmctld slurmctld -D -i -f "$SLURM_CONF"
	start_daemon slurmd env ASSAY_SLURM_CLUSTER="$CLUSTER" slurmd -D -N "$NODE" -f "$SLURM_CONF"
	state=""
	for i in $(seq 300); do
		state=$(timeout 5 scontrol show node "$NODE" 2>/dev/null | sed -n 's/.* State=\([^ ]*\).*/\1/p')
		case "$state" in IDLE*) break ;; esac
		kill -0 "$(cat "$CLUSTER/slurmctld.pid")" 2>/dev/null || break
		kill -0 "$(cat "$CLUSTER/slurmd.pid")" 2>/dev/null || break
		sleep 0.1
	done
	case "$state" in
	IDLE*) ;;
	*) cluster_unavailable "the one-node Slurm cluster did not come up (node state: ${state:-none}): $(
		tail -n 2 "$CLUSTER/slurmctld.out" "$CLUSTER/slurmd.out" 2>/dev/null | tr '\n' ' ')" ;;
	esac
	# every job of the tests carries the marker (sbatch exports the submitter's environment)
	export ASSAY_SLURM_CLUSTER="$CLUSTER"
}

# job_state JOBID: the state of a job (or array task, JOB_TASK) as slurmctld has it.
job_state() {
	scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([^ ]*\).*/\1/p' | head -n 1
}

# wait_job JOBID [SECONDS]: waits until the job (every task of an array) has ended, at most
# SECONDS (240: the ASan build on a loaded machine); fails when it has not.
wait_job() {
	local i
	for i in $(seq $((${2:-240} * 10))); do
		[ -z "$(squeue -h -j "$1" -o %i 2>/dev/null)" ] && return 0
		sleep 0.1
	done
	echo "job $1 still queued after ${2:-240} s:"
	squeue -j "$1"
	return 1
}
