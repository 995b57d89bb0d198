/*
 * Case servers (proc.h assay_proc_servers, src/lib/proc/server.c, init/serve.c): one server
 * runs case after case, and no case can reach it, influence it, or leave anything for the next.
 * Every proc test also runs with every case on a server (unit/test_proc*@server, the
 * ASSAY_PROC_SERVERS hook); these are the attacks and promises that only a server has.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <dirent.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "assay/proc.h"
#include "box.h"

/* Runs `script` with /bin/sh in the box on `set`, sandbox on or off; returns its stdout
 * (malloc'd) and fills `r`. */
static char *sh_on(assay_proc_servers *set, const struct box *b, bool sandbox, const char *script,
		   assay_proc_result *r)
{
	assay_proc p = ASSAY_PROC_INIT;
	char *out;

	assay_strvec_push(&p.argv, "/bin/sh");
	assay_strvec_push(&p.argv, "-c");
	assay_strvec_push(&p.argv, script);
	boxed(&p, b, sandbox);
	p.servers = set;
	p.timeout_s = 20;
	run_ok(&p, r);
	out = strdup(p.out.ptr ? p.out.ptr : "");
	assay_proc_release(&p);
	return out;
}

static void stats(assay_proc_servers *set, unsigned *started, unsigned *lost)
{
	assay_proc_servers_stats(set, started, lost);
}

Test(server, one_server_runs_every_case_of_a_lane)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	unsigned started, lost;

	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++)
		for (int i = 0; i < 40; i++) {
			assay_proc_result r;
			char script[64], want[32], *out;

			snprintf(script, sizeof(script), "echo case-%d", i);
			snprintf(want, sizeof(want), "case-%d\n", i);
			out = sh_on(set, &b, sandbox, script, &r);
			cr_assert_eq(exit_code(&r), 0);
			cr_assert_str_eq(out, want);
			free(out);
		}
	stats(set, &started, &lost);
	cr_assert_eq(started, 2, "one server with the sandbox, one without: %u", started);
	cr_assert_eq(lost, 0);
	assay_proc_servers_free(set);
	box_free(&b);
}

/* With the sandbox the server is PID 1 of the case's namespace and the program's parent: every
 * signal a case can send it is dropped (a namespace's init gets none from inside it that it has
 * no handler for; Landlock scopes signals too), and the next case runs on the same server. */
Test(server, a_case_cannot_kill_or_stop_its_server)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	assay_proc_result r;
	unsigned started, lost;
	char *out;

	box_make(&b);
	out = sh_on(set, &b, true,
		    "for s in KILL TERM USR1 STOP HUP INT; do kill -s $s 1 $PPID 2>/dev/null && "
		    "echo sent-$s; done; echo done",
		    &r);
	cr_assert_eq(exit_code(&r), 0);
	cr_assert_str_eq(out, "done\n", "a signal reached the server: %s", out);
	free(out);
	out = sh_on(set, &b, true, "echo next", &r);
	cr_assert_str_eq(out, "next\n");
	free(out);
	stats(set, &started, &lost);
	cr_assert_eq(started, 1);
	cr_assert_eq(lost, 0, "the server died of its case");
	assay_proc_servers_free(set);
	box_free(&b);
}

/* The server is not dumpable and lies in no Landlock domain of its case's: its memory, its
 * environment and its descriptors (the socket the library sends cases on) are closed to the
 * program, which shares its uid. */
Test(server, a_case_cannot_read_or_write_its_server)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	assay_proc_result r;
	char *out;

	box_make(&b);
	out = sh_on(set, &b, true,
		    "for f in mem environ maps stack; do cat /proc/$PPID/$f >/dev/null 2>&1 && "
		    "echo read-$f; done; ls /proc/$PPID/fd >/dev/null 2>&1 && echo listed-fds; "
		    "for n in 0 1 2 3 4 5 6 7 8 9; do (exec >/proc/$PPID/fd/$n) 2>/dev/null && "
		    "echo wrote-$n; done; echo done",
		    &r);
	cr_assert_eq(exit_code(&r), 0, "%s", out);
	cr_assert_str_eq(out, "done\n", "the server was reachable: %s", out);
	free(out);
	{
		assay_proc p = ASSAY_PROC_INIT;
		unsigned started;

		tool(&p, "ptrace-parent", NULL);
		boxed(&p, &b, true);
		p.servers = set;
		run_ok(&p, &r);
		cr_assert_eq(exit_code(&r), 1, "%s", p.out.ptr);
		cr_assert(strstr(p.out.ptr, "denied"), "%s", p.out.ptr);
		assay_proc_release(&p);
		stats(set, &started, NULL);
		cr_assert_eq(started, 1, "the attacks did not run on the server");
	}
	assay_proc_servers_free(set);
	box_free(&b);
}

/* Nothing of one case reaches the next on the same server: not a process it left running
 * (double fork, new session), not its environment, not a descriptor. */
Test(server, nothing_of_a_case_reaches_the_next)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	unsigned started;

	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;
		char *out;

		assay_strvec_push(&p.argv, "/bin/sh");
		assay_strvec_push(&p.argv, "-c");
		assay_strvec_push(&p.argv, "(setsid sleep 987 >/dev/null 2>&1 &); exec 7>/dev/null; "
					   "echo left");
		assay_strvec_push(&p.env, "ASSAY_TEST_SECRET=first-case");
		boxed(&p, &b, sandbox);
		p.servers = set;
		run_ok(&p, &r);
		cr_assert_str_eq(p.out.ptr, "left\n");
		assay_proc_release(&p);

		out = sh_on(set, &b, sandbox,
			    "grep -l 'sleep' /proc/[0-9]*/comm 2>/dev/null | while read f; do "
			    "tr '\\0' ' ' < ${f%comm}cmdline; echo; done | grep -c 'sleep 987'; "
			    "echo secret=$ASSAY_TEST_SECRET; ls /proc/self/fd | tr '\\n' ' '; echo",
			    &r);
		cr_assert_str_eq(out, "0\nsecret=\n0 1 2 3 \n", "sandbox %d: %s", sandbox, out);
		free(out);
	}
	stats(set, &started, NULL);
	cr_assert_eq(started, 2);
	assay_proc_servers_free(set);
	box_free(&b);
}

/* CPU and peak memory are the case's own, not the sum or peak of the server's earlier cases. */
Test(server, figures_are_per_case)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();

	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;

		tool(&p, "touch-mem", "150", NULL); /* MiB */
		boxed(&p, &b, sandbox);
		p.servers = set;
		run_ok(&p, &r);
		cr_assert_eq(exit_code(&r), 0);
		cr_assert_geq(r.max_rss, 140000000LL, "the big case: %lld", r.max_rss);
		assay_proc_release(&p);

		p = (assay_proc)ASSAY_PROC_INIT;
		assay_strvec_push(&p.argv, "/bin/true");
		boxed(&p, &b, sandbox);
		p.servers = set;
		run_ok(&p, &r);
		cr_assert_eq(exit_code(&r), 0);
		cr_assert_lt(r.max_rss, 30000000LL, "the next case got the big one's peak: %lld",
			     r.max_rss);
		cr_assert_lt(r.cpu_user_s + r.cpu_sys_s, 0.05, "cpu %f", r.cpu_user_s + r.cpu_sys_s);
		assay_proc_release(&p);
	}
	assay_proc_servers_free(set);
	box_free(&b);
}

/* A server killed from outside fails the case it was running as a dead supervisor does, and
 * the next case gets a new server. */
Test(server, a_killed_server_is_replaced)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	assay_proc p = ASSAY_PROC_INIT;
	assay_err err = ASSAY_ERR_INIT;
	assay_proc_result r;
	unsigned started, lost;
	bool done = false;
	int rc = 0;
	char *out;

	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		p = (assay_proc)ASSAY_PROC_INIT;
		tool(&p, "sleep", "30", NULL);
		boxed(&p, &b, sandbox);
		p.servers = set;
		cr_assert_eq(assay_proc_start(&p, &err), 0, "%s", err.msg);
		cr_assert_eq(kill(p.pid, SIGKILL), 0);
		done = false;
		while (!done && !(rc = assay_proc_pump(&p, -1, &done, &err)))
			;
		cr_assert_eq(rc, ASSAY_ESPAWN);
		cr_assert(strstr(err.msg, "case server was killed by signal 9"), "%s", err.msg);
		assay_proc_release(&p);
		out = sh_on(set, &b, sandbox, "echo after", &r);
		cr_assert_str_eq(out, "after\n");
		free(out);
	}
	stats(set, &started, &lost);
	cr_assert_eq(started, 4);
	cr_assert_eq(lost, 2);
	assay_proc_servers_free(set);
	box_free(&b);
}

/* A timeout, a case that ignores SIGTERM, and a case released while it runs: each is killed
 * whole, and the server goes on. */
Test(server, timeouts_and_releases_keep_the_server)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	assay_err err = ASSAY_ERR_INIT;
	unsigned started, lost;

	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;
		char *out;

		tool(&p, "ignore-term", "30", NULL);
		boxed(&p, &b, sandbox);
		p.servers = set;
		p.timeout_s = 0.2;
		p.kill_grace_s = 0.2;
		run_ok(&p, &r);
		cr_assert_eq(r.status, ASSAY_PROC_TIMED_OUT, "status %d code %d sig %d errno %d: %s",
			     r.status, r.exit_code, r.term_signal, r.exec_errno, p.err.ptr);
		assay_proc_release(&p);

		p = (assay_proc)ASSAY_PROC_INIT;
		assay_strvec_push(&p.argv, "/bin/sh");
		assay_strvec_push(&p.argv, "-c");
		assay_strvec_push(&p.argv, "sleep 654 & sleep 654");
		boxed(&p, &b, sandbox);
		p.servers = set;
		cr_assert_eq(assay_proc_start(&p, &err), 0, "%s", err.msg);
		usleep(100000);
		assay_proc_release(&p); /* the case is killed whole before this returns */

		out = sh_on(set, &b, sandbox,
			    "cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' ' ' | "
			    "grep -c 'sleep 65[4]'; true",
			    &r);
		cr_assert_str_eq(out, "0\n", "sandbox %d: %s", sandbox, out);
		free(out);
	}
	stats(set, &started, &lost);
	cr_assert_eq(started, 2);
	cr_assert_eq(lost, 0);
	assay_proc_servers_free(set);
	box_free(&b);
}

/* A case whose argv is bigger than a request runs under a supervisor of its own, unharmed. */
Test(server, a_case_too_big_for_a_request_runs_on_its_own)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	unsigned started;
	size_t n = 100000; /* three of them: more than a request, each less than an argument */
	char *big = malloc(n + 1);

	memset(big, 'x', n);
	big[n] = '\0';
	box_make(&b);
	assay_strvec_push(&p.argv, "/bin/sh");
	assay_strvec_push(&p.argv, "-c");
	assay_strvec_push(&p.argv, "printf %s \"$1$2$3\" | wc -c");
	assay_strvec_push(&p.argv, "sh");
	for (int i = 0; i < 3; i++)
		assay_strvec_push(&p.argv, big);
	boxed(&p, &b, true);
	p.servers = set;
	run_ok(&p, &r);
	cr_assert_eq(exit_code(&r), 0);
	cr_assert_eq(strtoul(p.out.ptr, NULL, 10), 3 * n);
	assay_proc_release(&p);
	stats(set, &started, NULL);
	cr_assert_eq(started, 0);
	assay_proc_servers_free(set);
	free(big);
	box_free(&b);
}

/* Freeing the set stops every server: none is left running. */
Test(server, freeing_the_set_leaves_no_server)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	pid_t pid;

	box_make(&b);
	assay_strvec_push(&p.argv, "/bin/true");
	boxed(&p, &b, true);
	p.servers = set;
	run_ok(&p, &r);
	pid = p.pid;
	assay_proc_release(&p);
	cr_assert_eq(kill(pid, 0), 0, "the server runs between cases");
	assay_proc_servers_free(set);
	cr_assert_eq(kill(pid, 0), -1, "the server outlived its set");
	cr_assert_eq(errno, ESRCH);
	box_free(&b);
}

/* A case released at once, before its server has read its request, is still killed by its
 * server, not by killing the server: the kill comes on the case's own control pipe, where it
 * cannot be taken for a stale one (a signal was, and the case ran on). */
Test(server, a_case_released_at_once_is_killed_by_its_server)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	assay_err err = ASSAY_ERR_INIT;
	unsigned started, lost;

	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++)
		for (int i = 0; i < 5; i++) {
			assay_proc p = ASSAY_PROC_INIT;
			assay_proc_result r;
			char *out;

			assay_strvec_push(&p.argv, "/bin/sh");
			assay_strvec_push(&p.argv, "-c");
			assay_strvec_push(&p.argv, "sleep 765");
			boxed(&p, &b, sandbox);
			p.servers = set;
			cr_assert_eq(assay_proc_start(&p, &err), 0, "%s", err.msg);
			assay_proc_release(&p);
			out = sh_on(set, &b, sandbox,
				    "cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' ' ' | "
				    "grep -c 'sleep 76[5]'; true",
				    &r);
			cr_assert_str_eq(out, "0\n", "sandbox %d: %s", sandbox, out);
			free(out);
		}
	stats(set, &started, &lost);
	cr_assert_eq(lost, 0, "a server was killed to end a released case");
	cr_assert_eq(started, 2);
	assay_proc_servers_free(set);
	box_free(&b);
}

/* A gated proc (proc.h `gated`, the pool's armed case) running `script` with `timeout_s`,
 * started on `set` (NULL: no server, its start deferred to the go). */
static void gated_start_sh(assay_proc *p, assay_proc_servers *set, const struct box *b,
			   bool sandbox, const char *script, double timeout_s)
{
	assay_err err = ASSAY_ERR_INIT;

	assay_strvec_push(&p->argv, "/bin/sh");
	assay_strvec_push(&p->argv, "-c");
	assay_strvec_push(&p->argv, script);
	boxed(p, b, sandbox);
	p->servers = set;
	p->gated = true;
	p->timeout_s = timeout_s;
	cr_assert_eq(assay_proc_start(p, &err), 0, "%s", err.msg);
}

/* The same with its program writing `marker` in the box's folder, timeout 1 s (from the go:
 * the wait before it must not time the case out). */
static void gated_start(assay_proc *p, assay_proc_servers *set, const struct box *b,
			bool sandbox)
{
	gated_start_sh(p, set, b, sandbox, "echo ran > marker; echo ran", 1.0);
}

static bool marker_made(const struct box *b)
{
	char *path = assay_path_join(b->work, "marker");
	bool made = access(path, F_OK) == 0;

	unlink(path);
	free(path);
	return made;
}

Test(server, a_gated_case_runs_nothing_until_go_and_is_timed_from_it)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	assay_err err = ASSAY_ERR_INIT;
	unsigned started, lost;

	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++)
		for (int served = 0; served < 2; served++) {
			assay_proc p = ASSAY_PROC_INIT;
			assay_proc_result r;
			struct pollfd fds[ASSAY_PROC_MAX_POLLFDS];
			bool done = false;

			gated_start(&p, served ? set : NULL, &b, sandbox);
			cr_assert_eq(assay_proc_pollfds(&p, fds, ASSAY_PROC_MAX_POLLFDS), 0);
			cr_assert_eq(assay_proc_deadline_ms(&p), -1);
			cr_assert_eq(assay_proc_pump(&p, 0, &done, &err), 0);
			cr_assert(!done);
			usleep(1200 * 1000); /* past its timeout, had it counted from here */
			cr_assert(!marker_made(&b), "sandbox %d served %d: it ran before go", sandbox,
				  served);
			cr_assert_eq(assay_proc_go(&p, &err), 0, "%s", err.msg);
			while (!done)
				cr_assert_eq(assay_proc_pump(&p, -1, &done, &err), 0, "%s", err.msg);
			cr_assert_eq(assay_proc_finish(&p, &r), 0);
			cr_assert_eq(exit_code(&r), 0);
			cr_assert_str_eq(p.out.ptr, "ran\n");
			cr_assert(r.wall_s < 1.0, "sandbox %d served %d: timed from its arming: %f s",
				  sandbox, served, r.wall_s);
			cr_assert(marker_made(&b));
			assay_proc_release(&p);
		}
	stats(set, &started, &lost);
	cr_assert_eq(started, 2);
	cr_assert_eq(lost, 0);
	assay_proc_servers_free(set);
	box_free(&b);
}

/* The pid of a child of `parent` (from /proc/N/stat), or -1. */
static pid_t child_of(pid_t parent)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t found = -1;

	cr_assert(d);
	while (found < 0 && (de = readdir(d))) {
		char path[300], buf[512], *rp;
		FILE *f;
		int ppid;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		/* "pid (comm) state ppid ...": comm may hold anything, the last ')' ends it */
		if (fgets(buf, sizeof(buf), f) && (rp = strrchr(buf, ')')) &&
		    sscanf(rp + 1, " %*c %d", &ppid) == 1 && ppid == parent)
			found = (pid_t)atoi(de->d_name);
		fclose(f);
	}
	closedir(d);
	return found;
}

#if defined(__x86_64__)
/* The armed process (supervise.c start_program, s_clone_vm) runs in its server's memory until
 * its exec: nothing of the server's address space is copied at its start or torn down inside
 * its exec, on the way from the go to the program. */
Test(server, an_armed_case_shares_its_servers_memory_until_exec)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();

	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;
		assay_err err = ASSAY_ERR_INIT;
		bool done = false;
		pid_t child = -1;

		gated_start(&p, set, &b, sandbox);
		for (int i = 0; i < 200 && child < 0; i++, usleep(10 * 1000))
			child = child_of(p.pid);
		cr_assert(child > 0, "sandbox %d: no armed process under server %d", sandbox,
			  (int)p.pid);
		cr_assert_eq(syscall(SYS_kcmp, p.pid, child, 1 /* KCMP_VM */, 0, 0), 0,
			     "sandbox %d: the armed process has a copy of its server's memory: %s",
			     sandbox, strerror(errno));
		cr_assert_eq(assay_proc_go(&p, &err), 0, "%s", err.msg);
		while (!done)
			cr_assert_eq(assay_proc_pump(&p, -1, &done, &err), 0, "%s", err.msg);
		cr_assert_eq(assay_proc_finish(&p, &r), 0);
		cr_assert_str_eq(p.out.ptr, "ran\n");
		cr_assert(marker_made(&b));
		assay_proc_release(&p);
	}
	assay_proc_servers_free(set);
	box_free(&b);
}
#endif

/* The Cpus_allowed_list of process `pid` ("self" or a number), malloc'd. */
static char *cpus_of(const char *pid)
{
	char path[64], line[256], *found = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/status", pid);
	f = fopen(path, "r");
	cr_assert(f, "%s", path);
	while (!found && fgets(line, sizeof(line), f))
		if (!strncmp(line, "Cpus_allowed_list:\t", 19)) {
			line[strcspn(line, "\n")] = 0;
			found = strdup(line + 19);
		}
	fclose(f);
	cr_assert(found);
	return found;
}

#define PRINT_CPUS "awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status"

/* Runs gated `p` (let go already) to its end and releases it: it printed CPU list `want`. */
static void ran_on(assay_proc *p, const char *want, const char *what, int n)
{
	assay_proc_result r;
	assay_err err = ASSAY_ERR_INIT;
	bool done = false;
	char got[300];

	while (!done)
		cr_assert_eq(assay_proc_pump(p, -1, &done, &err), 0, "%s", err.msg);
	cr_assert_eq(assay_proc_finish(p, &r), 0);
	snprintf(got, sizeof(got), "%s\n", want);
	cr_assert_str_eq(p->out.ptr, got, "%s %d: the program runs on %s", what, n, p->out.ptr);
	assay_proc_release(p);
}

/* With the programs' CPUs set (assay_proc_set_program_cpus, as the CLI does when it keeps
 * itself off them: docs/cli.md), an armed case waits on the programs' CPUs its server is not on
 * (so its go wakes it where its program will run, and its exec moves nothing), and its program
 * gets all the programs' CPUs. */
Test(server, an_armed_case_waits_where_its_program_will_run)
{
	struct box b;
	assay_proc_servers *set;
	cpu_set_t all, harness;
	int first = -1;
	char *want;

	CPU_ZERO(&all);
	cr_assert_eq(sched_getaffinity(0, sizeof(all), &all), 0);
	if (CPU_COUNT(&all) < 2)
		cr_skip_test("one CPU only: none to keep off");
	harness = all;
	for (int cpu = 0; cpu < CPU_SETSIZE && first < 0; cpu++)
		if (CPU_ISSET(cpu, &all))
			first = cpu;
	CPU_CLR(first, &harness);
	want = cpus_of("self");
	assay_proc_set_program_cpus((const unsigned char *)&all, sizeof(all));
	cr_assert_eq(sched_setaffinity(0, sizeof(harness), &harness), 0);
	set = assay_proc_servers_new(); /* its servers start on `harness` */
	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_err err = ASSAY_ERR_INIT;
		pid_t child = -1;
		char pid[16], *waits = NULL, one[16];

		gated_start_sh(&p, set, &b, sandbox, PRINT_CPUS, 5);
		for (int i = 0; i < 200; i++, usleep(10 * 1000)) {
			/* armed: its child set up, and waiting (its CPUs are set once it says so) */
			child = child_of(p.pid);
			if (child > 0) {
				snprintf(pid, sizeof(pid), "%d", (int)child);
				waits = cpus_of(pid);
				snprintf(one, sizeof(one), "%d", first);
				if (!strcmp(waits, one))
					break;
				free(waits);
				waits = NULL;
			}
		}
		cr_assert(child > 0, "sandbox %d: no armed process", sandbox);
		cr_assert(waits, "sandbox %d: the armed process does not wait on CPU %d", sandbox,
			  first);
		free(waits);
		cr_assert_eq(assay_proc_go(&p, &err), 0, "%s", err.msg);
		ran_on(&p, want, "sandbox", sandbox);
	}
	/* a go at once: the child may pass it before its server has set where it waits, which
	 * must still not be where the program runs (without the child's wait, 1 run in 3 of 40 such
	 * cases saw it) */
	for (int i = 0; i < 150; i++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_err err = ASSAY_ERR_INIT;

		gated_start_sh(&p, set, &b, true, PRINT_CPUS, 5);
		cr_assert_eq(assay_proc_go(&p, &err), 0, "%s", err.msg);
		ran_on(&p, want, "case", i);
	}
	/* a server held up past the child's second (stopped here before it reads its child's
	 * first message): the child goes on with the program's CPUs, and the server, once it goes
	 * on, must not set the waiting CPUs on what is the program by then */
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_err err = ASSAY_ERR_INIT;

		gated_start_sh(&p, set, &b, sandbox, "sleep 1; " PRINT_CPUS, 10);
		cr_assert_eq(kill(p.pid, SIGSTOP), 0);
		cr_assert_eq(assay_proc_go(&p, &err), 0, "%s", err.msg);
		usleep(1300 * 1000);
		cr_assert_eq(kill(p.pid, SIGCONT), 0);
		ran_on(&p, want, "a server held up, sandbox", sandbox);
	}
	assay_proc_servers_free(set);
	assay_proc_set_program_cpus(NULL, 0);
	cr_assert_eq(sched_setaffinity(0, sizeof(all), &all), 0);
	box_free(&b);
	free(want);
}

/* Does gated `p`'s process, armed on its server, come to wait on CPU `cpu` alone (its server
 * sets that once its child says it is ready) within two seconds? */
static bool waits_on(const assay_proc *p, int cpu)
{
	char one[16], pid[16];

	snprintf(one, sizeof(one), "%d", cpu);
	for (int i = 0; i < 200; i++, usleep(10 * 1000)) {
		pid_t child = child_of(p->pid);
		char *waits;
		bool same;

		if (child <= 0)
			continue;
		snprintf(pid, sizeof(pid), "%d", (int)child);
		waits = cpus_of(pid);
		same = !strcmp(waits, one);
		free(waits);
		if (same)
			return true;
	}
	return false;
}

/* The first two CPUs this process may run on, in `cpu`. @return false: it has only one. */
static bool first_two_cpus(int cpu[2])
{
	cpu_set_t all;
	int k = 0;

	CPU_ZERO(&all);
	cr_assert_eq(sched_getaffinity(0, sizeof(all), &all), 0);
	for (int i = 0; i < CPU_SETSIZE && k < 2; i++)
		if (CPU_ISSET(i, &all))
			cpu[k++] = i;
	return k == 2;
}

/* Without CPUs kept for the harness (-j as high as the CPUs: nothing set), cases armed at once
 * each wait on a CPU of their own, the first of the CPUs and the second, and a case that
 * follows one (assay_proc_follow) waits where that one's place is: a relay then wakes it on
 * the CPU the case before it ran on, not beside another case's program (proc.c, slots). Every
 * program still gets all the CPUs. Without the slots each waits where its server put it: the
 * test can fail. */
Test(server, cases_armed_at_once_wait_each_on_a_cpu_of_their_own)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	assay_proc a = ASSAY_PROC_INIT, c = ASSAY_PROC_INIT, f = ASSAY_PROC_INIT;
	assay_err err = ASSAY_ERR_INIT;
	int cpu[2] = { -1, -1 };
	char *want;

	if (!first_two_cpus(cpu))
		cr_skip_test("one CPU only");
	want = cpus_of("self");
	box_make(&b);
	a.relay = true;
	gated_start_sh(&a, set, &b, true, PRINT_CPUS, 5);
	gated_start_sh(&c, set, &b, true, PRINT_CPUS, 5);
	cr_assert(waits_on(&a, cpu[0]), "the first armed case does not wait on CPU %d", cpu[0]);
	cr_assert(waits_on(&c, cpu[1]), "the second armed case does not wait on CPU %d", cpu[1]);
	/* f follows a: a's place, a's CPU */
	assay_strvec_push(&f.argv, "/bin/sh");
	assay_strvec_push(&f.argv, "-c");
	assay_strvec_push(&f.argv, PRINT_CPUS);
	boxed(&f, &b, true);
	f.servers = set;
	f.gated = true;
	f.timeout_s = 5;
	assay_proc_follow(&f, &a);
	cr_assert_eq(assay_proc_start(&f, &err), 0, "%s", err.msg);
	cr_assert(waits_on(&f, cpu[0]), "the follower does not wait on CPU %d", cpu[0]);
	cr_assert_eq(assay_proc_go(&a, &err), 0, "%s", err.msg);
	cr_assert_eq(assay_proc_go(&c, &err), 0, "%s", err.msg);
	ran_on(&a, want, "first", 0);
	ran_on(&c, want, "second", 1);
	cr_assert_eq(assay_proc_go(&f, &err), 0, "%s", err.msg);
	ran_on(&f, want, "follower", 2);
	assay_proc_servers_free(set);
	box_free(&b);
	free(want);
}

/* A process that is no case of the pool (neither gated nor relaying: a persistent verifier, an
 * api adapter's server) takes no slot: started between two armed cases, it would push the
 * second to the third slot, on two CPUs the first's CPU, and two cases would wait, and start,
 * on one CPU while the other stands idle. The test fails when it takes one. */
Test(server, a_process_that_is_no_case_of_the_pool_takes_no_slot)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	assay_proc a = ASSAY_PROC_INIT, c = ASSAY_PROC_INIT, x = ASSAY_PROC_INIT;
	assay_err err = ASSAY_ERR_INIT;
	int cpu[2] = { -1, -1 };
	char *want;

	if (!first_two_cpus(cpu))
		cr_skip_test("one CPU only");
	want = cpus_of("self");
	box_make(&b);
	gated_start_sh(&a, set, &b, true, PRINT_CPUS, 5);
	/* a verifier's process, started while `a` is armed, before `c` */
	assay_strvec_push(&x.argv, "/bin/sleep");
	assay_strvec_push(&x.argv, "30");
	cr_assert_eq(assay_proc_start(&x, &err), 0, "%s", err.msg);
	gated_start_sh(&c, set, &b, true, PRINT_CPUS, 5);
	cr_assert(waits_on(&a, cpu[0]), "the first armed case does not wait on CPU %d", cpu[0]);
	cr_assert(waits_on(&c, cpu[1]), "the second armed case does not wait on CPU %d", cpu[1]);
	cr_assert_eq(assay_proc_go(&a, &err), 0, "%s", err.msg);
	cr_assert_eq(assay_proc_go(&c, &err), 0, "%s", err.msg);
	ran_on(&a, want, "first", 0);
	ran_on(&c, want, "second", 1);
	assay_proc_release(&x);
	assay_proc_servers_free(set);
	box_free(&b);
	free(want);
}

/* The seccomp filter of a server's cases is installed once, in the server
 * (init/serve.c hold_filter), and inherited: the program is under one filter, not two, and
 * still reports the layer in force. A case of another network setting gets a server of its own
 * (the filter differs): test_proc_sandbox@server runs its network attacks on one set. */
Test(server, a_server_holds_its_cases_seccomp_filter)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();

	box_make(&b);
	for (int i = 0; i < 2; i++) {
		assay_proc_result r;
		char path[64], status[4096] = "";
		/* its own filters, and its parent's pid in the host's /proc: the server's */
		char *out = sh_on(set, &b, true,
				  "grep Seccomp_filters /proc/self/status; "
				  "exec awk '/^PPid/ { print $2 }' /proc/self/status",
				  &r);
		int server = -1;
		FILE *f;
		size_t n;

		cr_assert_eq(exit_code(&r), 0);
		cr_assert_eq(sscanf(out, "Seccomp_filters:\t1\n%d", &server), 1, "case %d: %s", i,
			     out);
		free(out);
		cr_assert(r.sandbox_applied & ASSAY_SANDBOX_SECCOMP);
		snprintf(path, sizeof(path), "/proc/%d/status", server);
		f = fopen(path, "r");
		cr_assert(f, "no server %d", server);
		n = fread(status, 1, sizeof(status) - 1, f);
		status[n] = 0;
		fclose(f);
		cr_assert(strstr(status, "\nSeccomp:\t2\n"), "the server (pid %d) holds no filter",
			  server);
	}
	assay_proc_servers_free(set);
	box_free(&b);
}

Test(server, a_gated_case_released_before_go_never_runs_and_keeps_its_server)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	unsigned started, lost;

	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++)
		for (int i = 0; i < 6; i++) {
			assay_proc p = ASSAY_PROC_INIT;
			assay_proc_result r;
			char *out;

			gated_start(&p, i % 2 ? NULL : set, &b, sandbox);
			assay_proc_release(&p);
			usleep(200 * 1000);
			cr_assert(!marker_made(&b), "sandbox %d: a released gated case ran", sandbox);
			out = sh_on(set, &b, sandbox, "echo next", &r);
			cr_assert_str_eq(out, "next\n");
			free(out);
		}
	stats(set, &started, &lost);
	cr_assert_eq(lost, 0, "a server was killed to end a gated case");
	cr_assert_eq(started, 2);
	assay_proc_servers_free(set);
	box_free(&b);
}

/* Without its namespaces (refused: the test hook) an armed process would share the running
 * case's PID namespace and uid, and could be signalled by it: nothing is made ahead of the go. */
Test(server, with_the_namespaces_refused_a_gated_case_is_made_only_at_its_go)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	assay_err err = ASSAY_ERR_INIT;

	box_make(&b);
	setenv("ASSAY_SANDBOX_REFUSE", "user-namespace,pid-namespace", 1);
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;
		bool done = false;

		gated_start(&p, set, &b, sandbox);
		/* the sandbox off promises no isolation: its next case is made ahead */
		cr_assert_eq(p.pid > 0, !sandbox, "sandbox %d: pid %d", sandbox, (int)p.pid);
		usleep(200 * 1000);
		cr_assert(!marker_made(&b));
		cr_assert_eq(assay_proc_go(&p, &err), 0, "%s", err.msg);
		while (!done)
			cr_assert_eq(assay_proc_pump(&p, -1, &done, &err), 0, "%s", err.msg);
		cr_assert_eq(assay_proc_finish(&p, &r), 0);
		cr_assert_eq(exit_code(&r), 0);
		cr_assert(marker_made(&b));
		assay_proc_release(&p);
	}
	unsetenv("ASSAY_SANDBOX_REFUSE");
	assay_proc_servers_free(set);
	box_free(&b);
}

/* Starts `script` with /bin/sh on `set` with `relay` (a case a follower may follow). */
static void relay_start(assay_proc *p, assay_proc_servers *set, const struct box *b,
			bool sandbox, const char *script)
{
	assay_err err = ASSAY_ERR_INIT;

	assay_strvec_push(&p->argv, "/bin/sh");
	assay_strvec_push(&p->argv, "-c");
	assay_strvec_push(&p->argv, script);
	boxed(p, b, sandbox);
	p->servers = set;
	p->relay = true;
	p->timeout_s = 20;
	cr_assert_eq(assay_proc_start(p, &err), 0, "%s", err.msg);
}

static void pump_done(assay_proc *p)
{
	assay_err err = ASSAY_ERR_INIT;
	bool done = false;

	while (!done)
		cr_assert_eq(assay_proc_pump(p, -1, &done, &err), 0, "%s", err.msg);
}

/* A follower (assay_proc_follow) starts the moment the case before it ends on its own, through
 * that case's server, before its go; and never when that case is killed by the caller. */
Test(server, a_follower_starts_as_its_predecessor_ends_and_never_after_a_kill)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	assay_err err = ASSAY_ERR_INIT;
	unsigned started, lost;

	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		assay_proc prev = ASSAY_PROC_INIT, next = ASSAY_PROC_INIT;
		assay_proc_result r;

		/* ends on its own: the follower runs without a go */
		relay_start(&prev, set, &b, sandbox, "sleep 0.2");
		next.gated = true;
		assay_proc_follow(&next, &prev);
		gated_start(&next, set, &b, sandbox);
		cr_assert(!marker_made(&b));
		pump_done(&prev);
		cr_assert_eq(assay_proc_finish(&prev, &r), 0);
		assay_proc_release(&prev);
		char *marker = assay_path_join(b.work, "marker");
		bool ran = false;

		for (int i = 0; i < 250 && !ran; i++) {
			ran = access(marker, F_OK) == 0;
			usleep(20 * 1000);
		}
		free(marker);
		cr_assert(ran, "sandbox %d: the follower did not start as the case before ended",
			  sandbox);
		cr_assert(marker_made(&b));
		cr_assert_eq(assay_proc_go(&next, &err), 0, "%s", err.msg);
		pump_done(&next);
		cr_assert_eq(assay_proc_finish(&next, &r), 0);
		cr_assert_eq(exit_code(&r), 0);
		cr_assert(r.wall_s < 1.5, "sandbox %d: %f s", sandbox, r.wall_s);
		assay_proc_release(&next);

		/* killed by the caller: the follower never runs, and is released after it */
		prev = (assay_proc)ASSAY_PROC_INIT;
		next = (assay_proc)ASSAY_PROC_INIT;
		relay_start(&prev, set, &b, sandbox, "sleep 765");
		next.gated = true;
		assay_proc_follow(&next, &prev);
		gated_start(&next, set, &b, sandbox);
		usleep(100 * 1000);
		assay_proc_release(&prev);
		usleep(300 * 1000);
		cr_assert(!marker_made(&b), "sandbox %d: the follower of a killed case ran", sandbox);
		assay_proc_release(&next);
		cr_assert(!marker_made(&b));

		/* a gated case released before its go never ran: nor does its follower */
		prev = (assay_proc)ASSAY_PROC_INIT;
		next = (assay_proc)ASSAY_PROC_INIT;
		prev.relay = true;
		gated_start(&prev, set, &b, sandbox);
		next.gated = true;
		assay_proc_follow(&next, &prev);
		gated_start(&next, set, &b, sandbox);
		assay_proc_release(&prev);
		usleep(300 * 1000);
		cr_assert(!marker_made(&b), "sandbox %d: the follower of a case never let go ran",
			  sandbox);
		assay_proc_release(&next);
		cr_assert(!marker_made(&b));
	}
	stats(set, &started, &lost);
	cr_assert_eq(lost, 0, "a server was killed");
	assay_proc_servers_free(set);
	box_free(&b);
}

/* A gated case's go pipe is its control pipe too (init/protocol.h): a go written twice, by its
 * predecessor's server (the relay) and by the caller who had not read that report yet, leaves
 * one byte that is no command, which must neither kill the case nor block its control: it ends
 * on its own with its output, and one that overstays its timeout is terminated at once (were
 * the control lost with the pipe, the server would be killed after the grace: slow, and lost). */
Test(server, a_gated_cases_go_pipe_is_its_control_and_a_second_go_is_no_command)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	assay_err err = ASSAY_ERR_INIT;
	unsigned started, lost;

	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++)
		for (int overstay = 0; overstay < 2; overstay++) {
			assay_proc prev = ASSAY_PROC_INIT, next = ASSAY_PROC_INIT;
			assay_proc_result r;

			relay_start(&prev, set, &b, sandbox, "true");
			next.gated = true;
			assay_proc_follow(&next, &prev);
			gated_start_sh(&next, set, &b, sandbox,
				       overstay ? "sleep 30" : "sleep 0.5; echo ran", 1.0);
			usleep(300 * 1000); /* the relay has let it go; its report is not read */
			cr_assert(!next.go_relayed);
			cr_assert_eq(assay_proc_go(&next, &err), 0, "%s", err.msg);
			pump_done(&next);
			cr_assert_eq(assay_proc_finish(&next, &r), 0);
			if (overstay) {
				cr_assert_eq(r.status, ASSAY_PROC_TIMED_OUT, "sandbox %d", sandbox);
				cr_assert(r.wall_s < 1.6, "sandbox %d: terminated late: %f s", sandbox,
					  r.wall_s);
			} else {
				cr_assert_eq(r.status, ASSAY_PROC_EXITED, "sandbox %d: %d", sandbox,
					     r.status);
				cr_assert_eq(exit_code(&r), 0);
				cr_assert_str_eq(next.out.ptr, "ran\n");
			}
			assay_proc_release(&next);
			pump_done(&prev);
			cr_assert_eq(assay_proc_finish(&prev, &r), 0);
			assay_proc_release(&prev);
		}
	stats(set, &started, &lost);
	cr_assert_eq(lost, 0, "a server was killed");
	assay_proc_servers_free(set);
	box_free(&b);
}

/* A follower its predecessor's server let go (relayed) is timed from that start, not from its
 * caller's go, which comes later: the program had the time between already. */
Test(server, a_relayed_followers_timeout_counts_from_its_relay)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	assay_err err = ASSAY_ERR_INIT;

	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		assay_proc prev = ASSAY_PROC_INIT, next = ASSAY_PROC_INIT;
		assay_proc_result r;

		relay_start(&prev, set, &b, sandbox, "true");
		next.gated = true;
		assay_proc_follow(&next, &prev);
		gated_start_sh(&next, set, &b, sandbox, "sleep 1.5", 0.8);
		pump_done(&prev);
		cr_assert_eq(assay_proc_finish(&prev, &r), 0);
		assay_proc_release(&prev);
		cr_assert(next.go_relayed, "sandbox %d: not relayed", sandbox);
		usleep(600 * 1000); /* the go comes late: timed from it, the program would end first */
		cr_assert_eq(assay_proc_go(&next, &err), 0, "%s", err.msg);
		pump_done(&next);
		cr_assert_eq(assay_proc_finish(&next, &r), 0);
		cr_assert_eq(r.status, ASSAY_PROC_TIMED_OUT, "sandbox %d: timed from its go (wall %f s)",
			     sandbox, r.wall_s);
		cr_assert(r.wall_s < 1.3, "sandbox %d: killed late: %f s", sandbox, r.wall_s);
		assay_proc_release(&next);
	}
	assay_proc_servers_free(set);
	box_free(&b);
}

/* A case that leaves its file system full does not let its follower go: the caller gives its
 * folder back first (protocol.h, relay). Its folder here is a 1 MiB tmpfs of the test's own. */
Test(server, a_case_that_fills_its_file_system_lets_no_follower_go)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();
	assay_err err = ASSAY_ERR_INIT;
	char *big;

	if (geteuid() != 0)
		cr_skip_test("mounting a tmpfs needs root");
	box_make(&b);
	cr_assert_eq(unshare(CLONE_NEWNS), 0, "%s", strerror(errno));
	cr_assert_eq(mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	cr_assert_eq(mount("tmpfs", b.work, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=1777"), 0,
		     "%s", strerror(errno));
	big = assay_path_join(b.work, "big");
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		assay_proc prev = ASSAY_PROC_INIT, next = ASSAY_PROC_INIT;
		assay_proc_result r;

		relay_start(&prev, set, &b, sandbox, "head -c 2000000 /dev/zero > big; true");
		next.gated = true;
		assay_proc_follow(&next, &prev);
		gated_start(&next, set, &b, sandbox);
		pump_done(&prev);
		cr_assert_eq(assay_proc_finish(&prev, &r), 0);
		assay_proc_release(&prev);
		usleep(300 * 1000);
		cr_assert(!marker_made(&b), "sandbox %d: the follower went with the file system full",
			  sandbox);
		unlink(big); /* its folder given back */
		cr_assert_eq(assay_proc_go(&next, &err), 0, "%s", err.msg);
		pump_done(&next);
		cr_assert_eq(assay_proc_finish(&next, &r), 0);
		cr_assert_eq(exit_code(&r), 0);
		cr_assert(marker_made(&b));
		assay_proc_release(&next);
	}
	free(big);
	umount2(b.work, MNT_DETACH);
	assay_proc_servers_free(set);
	box_free(&b);
}

/* Runs `script` with /bin/sh on `set` (NULL: the library's choice), with folder `dir` (its $1)
 * made for it by its server (proc.h): its working folder (`cwd`, cwd_make) or its temporary
 * folder (tmp_make); returns its stdout (malloc'd) and fills `r`. */
static char *sh_made(assay_proc_servers *set, const struct box *b, bool sandbox, bool cwd,
		     const char *dir, const char *script, assay_proc_result *r)
{
	assay_proc p = ASSAY_PROC_INIT;
	char *out;

	assay_strvec_push(&p.argv, "/bin/sh");
	assay_strvec_push(&p.argv, "-c");
	assay_strvec_push(&p.argv, script);
	assay_strvec_push(&p.argv, "sh");
	assay_strvec_push(&p.argv, dir);
	boxed(&p, b, sandbox);
	if (cwd) {
		free(p.cwd);
		p.cwd = strdup(dir);
		p.sandbox.cwd_make = true;
	} else {
		p.sandbox.tmp_dir = dir; /* TMPDIR is the sandbox's (proc.h) */
		p.sandbox.tmp_make = true;
	}
	p.servers = set;
	p.timeout_s = 20;
	run_ok(&p, r);
	out = strdup(p.out.ptr ? p.out.ptr : "");
	assay_proc_release(&p);
	return out;
}

/* proc.h tmp_make and cwd_make: the server makes the folder (0700 or 0755, the program's)
 * before the case and removes it after when it is empty; a full one is left to the caller; a
 * name that exists already ends the case before its program. */
static void made_and_removed(bool cwd)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();

	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		char *dir = assay_path_join(b.root, "case-f"), *out, *marker, *script;
		assay_proc_result r;
		struct stat st;

		out = sh_made(set, &b, sandbox, cwd, dir,
			      "test -w \"$1\" && test \"$(stat -c %u \"$1\")\" = \"$(id -u)\" && "
			      "stat -c %a \"$1\" && ls -A \"$1\"", &r);
		cr_assert_eq(exit_code(&r), 0, "sandbox %d: %s", sandbox, out);
		cr_expect_str_eq(out, cwd ? "755\n" : "700\n", "sandbox %d", sandbox);
		cr_expect(cwd ? r.cwd_removed : r.tmp_removed, "sandbox %d: not removed", sandbox);
		cr_expect_neq(stat(dir, &st), 0, "sandbox %d: still there", sandbox);
		free(out);

		out = sh_made(set, &b, sandbox, cwd, dir, "echo kept > \"$1/f\"", &r);
		cr_assert_eq(exit_code(&r), 0, "sandbox %d: %s", sandbox, out);
		cr_expect_not(cwd ? r.cwd_removed : r.tmp_removed, "sandbox %d: a full one went",
			      sandbox);
		marker = assay_path_join(dir, "f");
		cr_expect_eq(stat(marker, &st), 0, "sandbox %d: what the case left is gone", sandbox);
		free(marker);
		free(out);

		/* it exists now: the case fails before its program */
		marker = assay_path_join(b.work, "ran");
		cr_assert_geq(asprintf(&script, "touch '%s'", marker), 0);
		out = sh_made(set, &b, sandbox, cwd, dir, script, &r);
		cr_expect_eq(r.status, ASSAY_PROC_EXEC_FAILED);
		cr_expect_eq(cwd ? r.cwd_errno : r.tmp_errno, EEXIST, "sandbox %d", sandbox);
		cr_expect_not(r.cwd_removed || r.tmp_removed);
		cr_expect_neq(stat(marker, &st), 0, "sandbox %d: the program ran", sandbox);
		free(script);
		free(marker);
		free(out);
		assay_fs_remove_tree(dir, NULL);
		free(dir);
	}
	assay_proc_servers_free(set);
	box_free(&b);
}

Test(server, a_cases_temporary_folder_is_made_and_removed_by_its_server)
{
	made_and_removed(false);
}

Test(server, a_cases_working_folder_is_made_and_removed_by_its_server)
{
	made_and_removed(true);
}

/* Its working folder is made first: when its temporary folder cannot be made after it, the
 * working folder goes again. */
Test(server, a_working_folder_made_goes_when_the_temporary_folder_cannot_be_made)
{
	struct box b;
	assay_proc_servers *set = assay_proc_servers_new();

	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		assay_proc p = ASSAY_PROC_INIT;
		char *cwd = assay_path_join(b.root, "case-w"), *tmp = assay_path_join(b.root, "case-t");
		assay_proc_result r;
		struct stat st;

		cr_assert_eq(mkdir(tmp, 0700), 0);
		assay_strvec_push(&p.argv, "/bin/true");
		boxed(&p, &b, sandbox);
		free(p.cwd);
		p.cwd = strdup(cwd);
		p.sandbox.cwd_make = true;
		p.sandbox.tmp_dir = tmp;
		p.sandbox.tmp_make = true;
		p.servers = set;
		p.timeout_s = 20;
		run_ok(&p, &r);
		cr_expect_eq(r.status, ASSAY_PROC_EXEC_FAILED);
		cr_expect_eq(r.tmp_errno, EEXIST, "sandbox %d: %d", sandbox, r.tmp_errno);
		cr_expect_eq(r.cwd_errno, 0);
		cr_expect_neq(stat(cwd, &st), 0, "sandbox %d: the working folder stayed", sandbox);
		assay_proc_release(&p);
		assay_fs_remove_tree(tmp, NULL);
		free(tmp);
		free(cwd);
	}
	assay_proc_servers_free(set);
	box_free(&b);
}

/* Without a server the library makes them, the same, and leaves them to the caller (on a
 * server, the ASSAY_PROC_SERVERS hook of unit/test_proc*@server, they went). */
Test(server, without_a_server_the_library_makes_the_folders)
{
	struct box b;

	box_make(&b);
	for (int cwd = 0; cwd < 2; cwd++) {
		char *dir = assay_path_join(b.root, "case-f"), *out;
		assay_proc_result r;
		struct stat st;

		out = sh_made(NULL, &b, true, cwd, dir,
			      "test -w \"$1\" && test \"$(stat -c %u \"$1\")\" = \"$(id -u)\" && "
			      "stat -c %a \"$1\"", &r);
		cr_assert_eq(exit_code(&r), 0, "%s", out);
		cr_expect_str_eq(out, cwd ? "755\n" : "700\n");
		cr_expect_eq(stat(dir, &st) == 0, !(cwd ? r.cwd_removed : r.tmp_removed));
		free(out);
		assay_fs_remove_tree(dir, NULL);
		free(dir);
	}
	box_free(&b);
}
