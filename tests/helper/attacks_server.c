/*
 * Attacks on a case server (tests/unit/test_proc_server_attacks.c): change what the server's
 * next cases inherit from it (the server is the program's parent and, in a PID namespace, PID 1,
 * of the program's own uid), and print what a program inherited.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tool.h"

/* What a program inherits that a case could set on its parent: file size and descriptor
 * limits, nice, CPU count, scheduling policy, I/O priority. One line. */
int cmd_show_inherited(void)
{
	struct rlimit fsize, nofile;
	cpu_set_t set;
	long io = syscall(SYS_ioprio_get, 1 /* IOPRIO_WHO_PROCESS */, 0);

	getrlimit(RLIMIT_FSIZE, &fsize);
	getrlimit(RLIMIT_NOFILE, &nofile);
	CPU_ZERO(&set);
	sched_getaffinity(0, sizeof(set), &set);
	errno = 0;
	printf("fsize=%lld nofile=%lld nice=%d cpus=%d policy=%d ioprio=%ld\n",
	       (long long)fsize.rlim_cur, (long long)nofile.rlim_cur, getpriority(PRIO_PROCESS, 0),
	       CPU_COUNT(&set), sched_getscheduler(0), io);
	return 0;
}

/* Sets on the parent (the supervisor or server) what cmd_show_inherited() prints: a file size
 * limit of 0, a descriptor limit of `nofile`, nice 19, one CPU, SCHED_IDLE, the idle I/O class.
 * Prints what took ("prlimit nice cpus idle ioprio"). Exit 0 if anything did. */
int cmd_poison_parent(const char *nofile)
{
	pid_t pp = getppid();
	struct rlimit zero = { 0, 0 }, nf;
	struct sched_param sp = { 0 };
	cpu_set_t one;
	int took = 0;

	nf.rlim_cur = nf.rlim_max = (rlim_t)parse_count(nofile);
	if (!prlimit(pp, RLIMIT_FSIZE, &zero, NULL) && !prlimit(pp, RLIMIT_NOFILE, &nf, NULL)) {
		printf("prlimit ");
		took++;
	}
	if (!setpriority(PRIO_PROCESS, (id_t)pp, 19)) {
		printf("nice ");
		took++;
	}
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (!sched_setaffinity(pp, sizeof(one), &one)) {
		printf("cpus ");
		took++;
	}
	if (!sched_setscheduler(pp, SCHED_IDLE, &sp)) {
		printf("idle ");
		took++;
	}
	if (!syscall(SYS_ioprio_set, 1, pp, (3 << 13) /* IOPRIO_CLASS_IDLE */)) {
		printf("ioprio ");
		took++;
	}
	printf("\n");
	return took ? 0 : 1;
}
