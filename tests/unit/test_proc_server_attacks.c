/*
 * More attacks on case servers (test_proc_server.c has the first ones): a case that changes
 * its server, or what the server's namespace holds, for the cases after it. docs/security.md,
 * "How a case runs": "Nothing of a case reaches the next". The program shares the server's uid
 * (nobody with root), and with the sandbox the server is PID 1 of the program's PID namespace:
 * prlimit(2), setpriority(2), sched_setaffinity(2), sched_setscheduler(2) and ioprio_set(2)
 * need only that (no ptrace access, no signal), and no layer refuses them. A per-case
 * supervisor takes such a change with it when it exits; a server hands it to every later case.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "assay/proc.h"
#include "box.h"

/* Runs the test tool with `args` (NULL-terminated) on `set`; returns its stdout (malloc'd). */
static char *tool_on(assay_proc_servers *set, const struct box *b, bool sandbox, int *code,
		     const char *arg, ...)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	va_list ap;
	char *out;

	assay_strvec_push(&p.argv, ASSAY_TEST_TOOL);
	va_start(ap, arg);
	for (; arg; arg = va_arg(ap, const char *))
		assay_strvec_push(&p.argv, arg);
	va_end(ap);
	boxed(&p, b, sandbox);
	p.servers = set;
	p.timeout_s = 20;
	run_ok(&p, &r);
	*code = exit_code(&r);
	out = strdup(p.out.ptr ? p.out.ptr : "");
	assay_proc_release(&p);
	return out;
}

/* With the sandbox; without it too when the program is assay's own uid (not root: then the
 * program is root and nothing is promised). */
static int modes(void)
{
	return geteuid() == 0 ? 1 : 2;
}

static void inherits(void)
{
	struct box b;

	box_make(&b);
	for (int m = 0; m < modes(); m++) {
		bool sandbox = m == 0;
		assay_proc_servers *set = assay_proc_servers_new();
		unsigned started;
		char *before, *attack, *after;
		int code;

		before = tool_on(set, &b, sandbox, &code, "show-inherited", NULL);
		cr_assert_eq(code, 0);
		attack = tool_on(set, &b, sandbox, &code, "poison-parent", "64", NULL);
		after = tool_on(set, &b, sandbox, &code, "show-inherited", NULL);
		assay_proc_servers_stats(set, &started, NULL);
		/* a server the attack changed (it prints what took) retires after it: the next case
		 * gets a new one. With the sandbox, its limits are out of reach (seccomp refuses
		 * prlimit64 on another process: a CPU limit of 0 would kill it mid-case) */
		bool took = strspn(attack, " \n") != strlen(attack);

		cr_expect(!sandbox || !strstr(attack, "prlimit"),
			  "the case set its server's limits: %s", attack);
		cr_assert_eq(started, took ? 2 : 1, "the attacked server (%s) was %sreplaced (%u)",
			     attack, took ? "not " : "", started);
		cr_expect_str_eq(after, before,
				 "sandbox %d: the attack (%s) reached the next case:\nbefore %safter  %s",
				 sandbox, attack, before, after);
		free(before);
		free(attack);
		free(after);
		assay_proc_servers_free(set);
	}
	box_free(&b);
}

Test(server_attacks, a_case_cannot_change_what_the_next_case_inherits)
{
	inherits();
}

/* As nobody (assay run by an unprivileged user), with the sandbox and without. */
Test(server_attacks, a_case_cannot_change_what_the_next_case_inherits_as_nobody)
{
	become_nobody_like_the_cli();
	inherits();
}

/* A case that leaves its server too few descriptors to receive the next case's four must not
 * fail the next case (or, through it, the run: `assay run` stops on ASSAY_ESPAWN). */
Test(server_attacks, a_case_cannot_starve_its_server_of_descriptors)
{
	struct box b;

	box_make(&b);
	for (int m = 0; m < modes(); m++) {
		bool sandbox = m == 0;
		assay_proc_servers *set = assay_proc_servers_new();
		char *out;
		int code;

		free(tool_on(set, &b, sandbox, &code, "poison-parent", "4", NULL));
		out = tool_on(set, &b, sandbox, &code, "exit-with", "0", NULL);
		cr_assert_eq(code, 0);
		free(out);
		assay_proc_servers_free(set);
	}
	box_free(&b);
}

/* test_proc_sandbox.c's system_v_ipc_does_not_outlive_the_case looks from outside the IPC
 * namespace; the next case on the same server is inside it. The cases of a server share its
 * IPC namespace (init/ipc.c): one that leaves anything there is the server's last. */
/* A sandboxed case on `set`: `what` is "/" and a shell script, or a tool command given `arg`.
 * @return its stdout (malloc'd) */
static char *ipc_case(assay_proc_servers *set, const struct box *b, const char *what,
		      const char *arg)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	char *out;
	int code;

	if (what[0] != '/')
		return tool_on(set, b, true, &code, what, arg, NULL);
	assay_strvec_push(&p.argv, "/bin/sh");
	assay_strvec_push(&p.argv, "-c");
	assay_strvec_push(&p.argv, what + 1);
	boxed(&p, b, true);
	p.servers = set;
	run_ok(&p, &r);
	out = strdup(p.out.ptr ? p.out.ptr : "");
	assay_proc_release(&p);
	return out;
}

static void ipc_left_for_the_next(const char *leave, const char *arg, const char *made,
				  const char *look, const char *want)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	unsigned started, started_after;
	char *out;
	int code;

	box_make(&b);
	out = tool_on(set, &b, true, &code, "exit-with", "0", NULL);
	free(out);
	assay_proc_servers_stats(set, &started, NULL);
	out = ipc_case(set, &b, leave, arg);
	cr_assert_str_eq(out, made, "%s", leave);
	free(out);
	out = ipc_case(set, &b, look, arg);
	cr_expect_str_eq(out, want, "%s of an earlier case: %s", leave, out);
	free(out);
	/* the server that ran a case without IPC ran the next; the one that saw IPC left is gone */
	assay_proc_servers_stats(set, &started_after, NULL);
	cr_expect_eq(started, 1);
	cr_expect_eq(started_after, 2, "%s: the server was not replaced", leave);
	assay_proc_servers_free(set);
	box_free(&b);
}

Test(server_attacks, system_v_ipc_does_not_reach_the_next_case)
{
	ipc_left_for_the_next("shm-leave", "0x5a5a5a5a", "made\n",
			      "/tail -n +2 /proc/sysvipc/shm | wc -l", "0\n");
	ipc_left_for_the_next("/ipcmk -Q >/dev/null && echo made", NULL, "made\n",
			      "/tail -n +2 /proc/sysvipc/msg | wc -l", "0\n");
	ipc_left_for_the_next("/ipcmk -S 1 >/dev/null && echo made", NULL, "made\n",
			      "/tail -n +2 /proc/sysvipc/sem | wc -l", "0\n");
}

/* Landlock refuses the open of a POSIX message queue (its file system is under no rule), but
 * only after mq_open(O_CREAT) has made it: the name is left in the namespace, and a later case
 * could tell it is there (EACCES, not ENOENT). */
Test(server_attacks, a_message_queue_does_not_reach_the_next_case)
{
	ipc_left_for_the_next("mq-leave", "/assay-left", "mq_open: Permission denied\n",
			      "mq-read", "none\n");
}


/* For i = 0 and 1, on a fresh set of servers each: `first[i]` (which must print "done"), then
 * `look`. `seen[i]`: what look printed (malloc'd); `started[i]`: the servers the set started. */
static void after_each(const struct box *b, const char *const first[2], const char *look,
		       char *seen[2], unsigned started[2])
{
	for (int i = 0; i < 2; i++) {
		assay_proc_servers *set = assay_proc_servers_new();
		char *out = ipc_case(set, b, first[i], NULL);

		cr_assert_str_eq(out, "done\n", "%s", first[i]);
		free(out);
		seen[i] = ipc_case(set, b, look, NULL);
		assay_proc_servers_stats(set, &started[i], NULL);
		assay_proc_servers_free(set);
	}
}

/* A case that makes System V objects and removes them leaves none for the server to see, but
 * the namespace's id allocator moved on (a cyclic index and a sequence number per kind): the
 * next case on the same server could read from the ids it gets how many objects the case
 * before it made, a channel from case to case. What the next case gets must not depend on it. */
Test(server_attacks, ipc_ids_do_not_tell_the_next_case_what_a_case_made)
{
	static const char churn[] =
		"/for i in 1 2 3 4 5 6 7 8 9 10; do "
		"ipcrm -q $(ipcmk -Q | sed 's/.*: //') -s $(ipcmk -S 1 | sed 's/.*: //') "
		"-m $(ipcmk -M 4096 | sed 's/.*: //') || exit 1; done; echo done";
	static const char look[] =
		"/q=$(ipcmk -Q | sed 's/.*: //'); s=$(ipcmk -S 1 | sed 's/.*: //'); "
		"m=$(ipcmk -M 4096 | sed 's/.*: //'); ipcrm -q $q -s $s -m $m; echo $q $s $m";
	const char *first[2] = { "/echo done", churn };
	char *seen[2];
	unsigned started[2];
	struct box b;

	box_make(&b);
	after_each(&b, first, look, seen, started);
	/* a case that made no object keeps its server */
	cr_expect_eq(started[0], 1, "a case without IPC retired its server");
	cr_expect_str_eq(seen[1], seen[0], "ids after a case that made 30 objects: %s, after one "
			 "that made none: %s", seen[1], seen[0]);
	free(seen[0]);
	free(seen[1]);
	box_free(&b);
}

/* The server is PID 1 of its cases' PID namespace: the pids a case's processes get would tell
 * it how many processes the cases before it on the same server started, a channel from case to
 * case. What the next case gets must not depend on it. */
Test(server_attacks, pids_do_not_tell_the_next_case_what_a_case_started)
{
	const char *first[2] = { "/echo done",
				 "/for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do "
				 "/bin/true; done; echo done" };
	char *seen[2];
	unsigned started[2];
	struct box b;

	box_make(&b);
	after_each(&b, first, "/echo $$; sh -c 'echo $$'", seen, started);
	for (int i = 0; i < 2; i++)
		cr_assert_eq(started[i], 1, "the two cases ran on one server");
	cr_expect_str_eq(seen[1], seen[0], "pids after a case that started 20 processes: %s, after "
			 "one that started none: %s", seen[1], seen[0]);
	free(seen[0]);
	free(seen[1]);
	box_free(&b);
}

/* A case released (or timed out) right after it was sent: the kill request (SIGUSR1) may reach
 * the server before it has read the case's request. The server takes it for a late signal of
 * the case before, drops it, and runs the case: release then waits RELEASE_WAIT_MS for a report
 * that never comes and SIGKILLs the server. A per-case supervisor cannot miss it (it is started
 * with its case). */
Test(server_attacks, a_kill_sent_with_the_case_is_not_dropped)
{
	alarm(120); /* HANG GUARD (test_util.c) */
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	unsigned started, lost;
	double worst = 0;

	box_make(&b);
	for (int i = 0; i < 20; i++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_err err = ASSAY_ERR_INIT;
		struct timespec t0, t1;
		double s;

		tool(&p, "sleep", "30", NULL);
		boxed(&p, &b, true);
		p.servers = set;
		cr_assert_eq(assay_proc_start(&p, &err), 0, "%s", err.msg);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		assay_proc_release(&p);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		if (s > worst)
			worst = s;
	}
	assay_proc_servers_stats(set, &started, &lost);
	cr_expect_eq(lost, 0, "%u of 20 releases lost their server (slowest release %.2f s)", lost,
		     worst);
	cr_expect_lt(worst, 1.0, "a release took %.2f s", worst);
	assay_proc_servers_free(set);
	box_free(&b);
}
