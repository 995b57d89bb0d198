/*
 * The cost of the sandbox per case (bench/sandbox.sh builds and runs this). Runs N trivial
 * cases (/bin/echo hi) through the proc API in several modes, interleaved in the same run (the
 * order rotates every round, so drift and neighbours weigh on every mode alike), and prints the
 * median, mean and 90th percentile of the time from assay_proc_start() to assay_proc_finish().
 *
 * Modes:
 *   bare         posix_spawn of /bin/echo with pipes and poll, no supervisor: what proc did
 *                before the supervisor, for the supervisor's own cost
 *   off          the proc API, sandbox off (the supervisor alone)
 *   on           the proc API, every layer, network off
 *   on-no-ns     on, but the user and PID namespaces refused (ASSAY_SANDBOX_REFUSE)
 *   on-no-ll     on, but the three Landlock layers refused
 *   on-no-seccomp on, but the seccomp filter refused
 *   on-mem       on, with a 512 MiB memory limit: a memory cgroup per case where assay may make
 *                them (issue 18 item 6), so on-mem / on is the cgroup's cost
 * The goal of issue 5: "on" costs at most 10% more than "off".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "assay/proc.h"

extern char **environ;

struct mode {
	const char *name;
	bool proc, sandbox;
	const char *refuse; /* ASSAY_SANDBOX_REFUSE, or NULL */
	double *t;
	long long memory; /* limits.memory_bytes: with memory cgroups, a cgroup per case */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
	fprintf(stderr, "bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* posix_spawn + poll on stdout/stderr + waitpid: the supervisor-less floor. */
static void run_bare(void)
{
	int out[2], err[2];
	posix_spawn_file_actions_t fa;
	char *argv[] = { "/bin/echo", "hi", NULL };
	char buf[4096];
	pid_t pid;
	int open_fds = 2;

	if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
		die("pipe");
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_adddup2(&fa, err[1], 2);
	if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ))
		die("posix_spawn");
	posix_spawn_file_actions_destroy(&fa);
	close(out[1]);
	close(err[1]);
	while (open_fds) {
		struct pollfd fds[2] = { { out[0], POLLIN, 0 }, { err[0], POLLIN, 0 } };

		if (poll(fds, 2, -1) < 0)
			die("poll");
		for (int i = 0; i < 2; i++)
			if (fds[i].fd >= 0 && fds[i].revents && read(fds[i].fd, buf, sizeof(buf)) <= 0) {
				close(fds[i].fd);
				*(i ? &err[0] : &out[0]) = -1;
				open_fds--;
			}
	}
	waitpid(pid, NULL, 0);
}

static void run_proc(const struct mode *m, const char *work, const char *tmp)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	assay_err err = ASSAY_ERR_INIT;

	if (m->refuse)
		setenv("ASSAY_SANDBOX_REFUSE", m->refuse, 1);
	else
		unsetenv("ASSAY_SANDBOX_REFUSE");
	assay_strvec_push(&p.argv, "/bin/echo");
	assay_strvec_push(&p.argv, "hi");
	p.cwd = strdup(work);
	p.sandbox.enabled = m->sandbox;
	p.sandbox.tmp_dir = tmp;
	p.limits.memory_bytes = m->memory;
	if (assay_proc_run(&p, &r, &err) || r.status != ASSAY_PROC_EXITED || r.exit_code != 0 ||
	    strcmp(p.out.ptr, "hi\n")) {
		fprintf(stderr, "bench: %s: case failed: %s (status %d)\n", m->name, err.msg,
			r.status);
		exit(1);
	}
	assay_proc_release(&p);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct stats {
	double median, mean, p90;
};

static struct stats stats_of(double *t, int n)
{
	struct stats s = { 0, 0, 0 };

	qsort(t, (size_t)n, sizeof(*t), cmp);
	for (int i = 0; i < n; i++)
		s.mean += t[i];
	s.mean /= n;
	s.median = t[n / 2];
	s.p90 = t[n * 9 / 10];
	return s;
}

int main(int argc, char **argv)
{
	struct mode modes[] = {
		{ "bare", false, false, NULL, NULL, 0 },
		{ "off", true, false, NULL, NULL, 0 },
		{ "on", true, true, NULL, NULL, 0 },
		{ "on-no-ns", true, true, "user-namespace", NULL, 0 },
		{ "on-no-ll", true, true, "landlock-fs,landlock-net,landlock-scope", NULL, 0 },
		{ "on-no-seccomp", true, true, "seccomp", NULL, 0 },
		{ "on-mem", true, true, NULL, NULL, 512LL << 20 },
	};
	assay_cgroup_report cg;
	bool cgroups = assay_memory_cgroups_enable(&cg);
	const int nmodes = sizeof(modes) / sizeof(modes[0]);
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	const char *dir = argc > 2 ? argv[2] : "/tmp";
	char *work, *tmp;
	struct stats off = { 1, 1, 1 }, on = { 1, 1, 1 }, mem = { 0, 0, 0 };
	assay_sandbox_report probe;

	if (n < 10)
		n = 10;
	if (asprintf(&work, "%s/work", dir) < 0 || asprintf(&tmp, "%s/tmp", dir) < 0)
		die("asprintf");
	mkdir(work, 0755);
	mkdir(tmp, 0700);
	if (assay_sandbox_probe(&probe, NULL) == 0)
		printf("kernel grants layers %#x of %#x (Landlock ABI %d)\n", probe.granted,
		       (1u << ASSAY_SANDBOX_NLAYERS) - 1, probe.landlock_abi);
	for (int k = 0; k < nmodes; k++)
		if (!(modes[k].t = calloc((size_t)n, sizeof(double))))
			die("calloc");
	for (int k = 0; k < nmodes; k++) /* warm the caches and the supervisor's memfd */
		modes[k].proc ? run_proc(&modes[k], work, tmp) : run_bare();
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < nmodes; j++) {
			struct mode *m = &modes[(i + j) % nmodes];
			double t0 = now_s();

			m->proc ? run_proc(m, work, tmp) : run_bare();
			m->t[i] = now_s() - t0;
		}
	}
	printf("%d cases per mode, /bin/echo hi, interleaved; microseconds per case\n", n);
	printf("%-14s %9s %9s %9s\n", "mode", "median", "mean", "p90");
	for (int k = 0; k < nmodes; k++) {
		struct stats s = stats_of(modes[k].t, n);

		printf("%-14s %9.0f %9.0f %9.0f\n", modes[k].name, s.median * 1e6, s.mean * 1e6,
		       s.p90 * 1e6);
		if (!strcmp(modes[k].name, "off"))
			off = s;
		if (!strcmp(modes[k].name, "on"))
			on = s;
		if (!strcmp(modes[k].name, "on-mem"))
			mem = s;
	}
	printf("sandbox on / off: %.3f (median), %.3f (mean); goal <= 1.10\n",
	       on.median / off.median, on.mean / off.mean);
	if (cgroups)
		printf("memory cgroup per case (on-mem / on): %.3f (median), %.3f (mean)\n",
		       mem.median / on.median, mem.mean / on.mean);
	else
		printf("on-mem ran without memory cgroups (%s): RLIMIT_DATA only\n", cg.why);
	for (int k = 0; k < nmodes; k++)
		free(modes[k].t);
	free(work);
	free(tmp);
	return 0;
}
