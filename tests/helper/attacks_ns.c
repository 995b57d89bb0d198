/*
 * Issue 18 item 11: a case that makes namespaces of its own (a nested user namespace brings a
 * full capability set in it: kernel attack surface the sandbox excludes). `how` names the
 * way: unshare-user, unshare-all (user, mount, net, UTS, IPC), clone-user, clone3-user,
 * setns-uts. Prints "made" when the kernel made it, else "errno N"; exits 0 only when made.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tool.h"
#include "../../src/lib/util/banned.h"

#ifndef SYS_clone3
#define SYS_clone3 435
#endif

struct clone3_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
};

/* A child made with `flags` exits at once; @return 0 (made) or an errno. */
static int clone_with(unsigned long flags, bool v3)
{
	long pid;

	if (v3) {
		struct clone3_args a;

		memset(&a, 0, sizeof(a));
		a.flags = flags;
		a.exit_signal = SIGCHLD;
		pid = syscall(SYS_clone3, &a, sizeof(a));
	} else {
		pid = syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
	}
	if (pid < 0)
		return errno;
	if (pid == 0)
		_exit(0);
	waitpid((pid_t)pid, NULL, 0);
	return 0;
}

int cmd_new_namespace(const char *how)
{
	int e;

	if (!strcmp(how, "unshare-user")) {
		e = unshare(CLONE_NEWUSER) ? errno : 0;
	} else if (!strcmp(how, "unshare-all")) {
		e = unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWUTS | CLONE_NEWIPC)
			    ? errno
			    : 0;
	} else if (!strcmp(how, "clone-user")) {
		e = clone_with(CLONE_NEWUSER, false);
	} else if (!strcmp(how, "clone3-user")) {
		e = clone_with(CLONE_NEWUSER, true);
	} else if (!strcmp(how, "setns-uts")) {
		int fd = open("/proc/self/ns/uts", O_RDONLY | O_CLOEXEC);

		e = fd < 0 ? errno : setns(fd, CLONE_NEWUTS) ? errno : 0;
	} else {
		fprintf(stderr, "unknown way: %s\n", how);
		return 2;
	}
	if (e) {
		printf("errno %d\n", e);
		return 1;
	}
	printf("made\n");
	return 0;
}
