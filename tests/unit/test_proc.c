/*
 * Unit tests for src/lib/proc: exit statuses, signals, timeouts on whole process groups,
 * grandchildren and orphans, capped captures, large stdin, exec failures, environment, cwd,
 * descriptor hygiene, resource use, and the non-blocking start/pump/finish API.
 * The children are assay-test-tool subcommands (tests/helper/test_tool.c).
 * No timing assertions except loose upper bounds that prove a timeout or a kill worked.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "assay/fs.h"
#include "assay/proc.h"
#include "util/banned.h"

#define MiB (1024u * 1024u)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sets argv to the test tool followed by the NULL-terminated arguments. */
static void tool(assay_proc *p, const char *arg, ...)
{
	va_list ap;

	assay_strvec_push(&p->argv, ASSAY_TEST_TOOL);
	va_start(ap, arg);
	for (; arg; arg = va_arg(ap, const char *))
		assay_strvec_push(&p->argv, arg);
	va_end(ap);
}

static void run_ok(assay_proc *p, assay_proc_result *r)
{
	assay_err err = ASSAY_ERR_INIT;
	int rc = assay_proc_run(p, r, &err);

	cr_assert_eq(rc, 0, "assay_proc_run: %d %s", rc, err.msg);
}

static void expect_exit(const assay_proc_result *r, int code)
{
	cr_assert_eq(r->status, ASSAY_PROC_EXITED, "status %d (signal %d, errno %d)", r->status,
		     r->term_signal, r->exec_errno);
	cr_assert_eq(r->exit_code, code);
}

static char *tool_dir(void)
{
	char *dir = strdup(ASSAY_TEST_TOOL);
	char *slash = strrchr(dir, '/');

	cr_assert_not_null(slash);
	*slash = '\0';
	return dir;
}

/* The pid the tool's spawn-grandchild printed. */
static pid_t printed_pid(const assay_buf *out)
{
	char *end;
	long v = strtol(out->ptr, &end, 10);

	cr_assert(v > 0 && *end == '\n', "no pid in output '%s'", out->ptr);
	return (pid_t)v;
}

/* Waits up to `secs` for `pid` to disappear (reaping it, should it be ours). */
static bool gone_within(pid_t pid, double secs)
{
	double end = now_s() + secs;

	for (;;) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return kill(pid, 0) < 0 && errno == ESRCH;
		if (kill(pid, 0) < 0 && errno == ESRCH)
			return true;
		if (now_s() > end)
			return false;
		usleep(10000);
	}
}

static void expect_gone(pid_t pid)
{
	bool gone = gone_within(pid, 3.0);

	if (!gone)
		kill(pid, SIGKILL); /* do not leave it behind when the assertion fails */
	cr_assert(gone, "grandchild %d survived", (int)pid);
}

/* ---- exit statuses and signals ---- */

Test(proc, exit_codes)
{
	static const char *codes[] = { "0", "3", "255" };

	for (size_t i = 0; i < 3; i++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;

		tool(&p, "exit-with", codes[i], NULL);
		run_ok(&p, &r);
		expect_exit(&r, (int)strtol(codes[i], NULL, 10));
		cr_assert_eq(r.term_signal, 0);
		cr_assert(r.wall_s >= 0);
		assay_proc_release(&p);
	}
}

Test(proc, killed_by_signal)
{
	static const int sigs[] = { SIGSEGV, SIGKILL };
	static const char *names[] = { "SEGV", "KILL" };

	for (size_t i = 0; i < 2; i++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;

		tool(&p, "kill-self", names[i], NULL);
		run_ok(&p, &r);
		cr_assert_eq(r.status, ASSAY_PROC_SIGNALED, "%s: status %d exit %d", names[i],
			     r.status, r.exit_code);
		cr_assert_eq(r.term_signal, sigs[i]);
		assay_proc_release(&p);
	}
}

/* ---- timeouts and the process group ---- */

Test(proc, timeout_kills_grandchild_that_ignores_term)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;

	tool(&p, "spawn-grandchild", "--ignore-term", "--wait", "30", NULL);
	p.timeout_s = 0.5;
	p.kill_grace_s = 0.5;
	run_ok(&p, &r);
	cr_assert_eq(r.status, ASSAY_PROC_TIMED_OUT, "status %d", r.status);
	cr_assert_eq(r.term_signal, SIGTERM);
	cr_assert(r.wall_s < 0.5 + 0.5 + 2, "wall %.3f", r.wall_s);
	expect_gone(printed_pid(&p.out));
	assay_proc_release(&p);
}

Test(proc, timeout_escalates_to_sigkill)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;

	tool(&p, "spawn-grandchild", "--ignore-term", "--parent-ignore-term", "--wait", "30",
	     NULL);
	p.timeout_s = 0.3;
	p.kill_grace_s = 0.3;
	run_ok(&p, &r);
	cr_assert_eq(r.status, ASSAY_PROC_TIMED_OUT);
	cr_assert_eq(r.term_signal, SIGKILL, "term_signal %d", r.term_signal);
	cr_assert(r.wall_s < 0.3 + 0.3 + 2, "wall %.3f", r.wall_s);
	expect_gone(printed_pid(&p.out));
	assay_proc_release(&p);
}

Test(proc, timeout_with_zero_grace)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;

	tool(&p, "ignore-term", "30", NULL);
	p.timeout_s = 0.2;
	p.kill_grace_s = -1;
	run_ok(&p, &r);
	cr_assert_eq(r.status, ASSAY_PROC_TIMED_OUT);
	cr_assert_eq(r.term_signal, SIGKILL);
	cr_assert(r.wall_s < 0.2 + 2, "wall %.3f", r.wall_s);
	assay_proc_release(&p);
}

Test(proc, timed_out_even_if_it_exits_by_itself_after_sigterm)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;

	assay_strvec_push(&p.argv, "/bin/sh");
	assay_strvec_push(&p.argv, "-c");
	assay_strvec_push(&p.argv, "trap 'exit 7' TERM; sleep 30 & wait");
	p.timeout_s = 0.3;
	p.kill_grace_s = 5;
	run_ok(&p, &r);
	cr_assert_eq(r.status, ASSAY_PROC_TIMED_OUT);
	cr_assert_eq(r.term_signal, SIGTERM);
	cr_assert_eq(r.exit_code, 7);
	cr_assert(r.wall_s < 0.3 + 2, "exited in the grace period, wall %.3f", r.wall_s);
	assay_proc_release(&p);
}

Test(proc, group_killed_when_child_exits)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;

	/* The grandchild keeps stdout open: the run ends only because the group is killed. */
	tool(&p, "spawn-grandchild", "--ignore-term", "30", NULL);
	run_ok(&p, &r);
	expect_exit(&r, 0);
	cr_assert(r.wall_s < 5, "wall %.3f", r.wall_s);
	expect_gone(printed_pid(&p.out));
	assay_proc_release(&p);
}

Test(proc, escaped_grandchild_killed_when_the_case_ends)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;

	/* It leaves the session and still holds stdout and stderr. */
	tool(&p, "spawn-grandchild", "--setsid", "30", NULL);
	run_ok(&p, &r);
	expect_exit(&r, 0);
	cr_assert(r.wall_s < 5, "pipes held by an escaped process must not block, wall %.3f",
		  r.wall_s);
	/* No sweep to call: finish() returned only after the supervisor killed and reaped it. */
	pid_t g = printed_pid(&p.out);
	cr_assert(kill(g, 0) < 0 && errno == ESRCH, "escaped grandchild %d survived", (int)g);
	assay_proc_release(&p);
}

/* ---- captures ---- */

static void expect_pattern(const assay_buf *b, size_t len)
{
	static const char pat[] =
		"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-\n";

	cr_assert_eq(b->len, len);
	for (size_t i = 0; i < len; i += 64) {
		size_t n = len - i < 64 ? len - i : 64;
		if (memcmp(b->ptr + i, pat, n) != 0)
			cr_assert_fail("capture differs at byte %zu", i);
	}
	cr_assert_eq(b->ptr[len], '\0');
}

Test(proc, huge_stdout_is_capped_and_does_not_block)
{
	alarm(60); /* HANG GUARD (test_util.c) */
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;

	tool(&p, "spew", "104857600", "stdout", NULL);
	run_ok(&p, &r);
	expect_exit(&r, 0); /* it wrote all 100 MB: nothing blocked it */
	cr_assert(r.out_truncated);
	cr_assert_not(r.err_truncated);
	expect_pattern(&p.out, ASSAY_PROC_DEFAULT_CAP);
	cr_assert_eq(p.err.len, 0);
	assay_proc_release(&p);
}

Test(proc, small_caps)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;

	tool(&p, "spew", "5000", "both", NULL);
	p.err_cap = 1000;
	p.out_cap = 5000; /* exactly the output: not truncated */
	run_ok(&p, &r);
	expect_exit(&r, 0);
	cr_assert(r.err_truncated);
	cr_assert_not(r.out_truncated);
	expect_pattern(&p.err, 1000);
	expect_pattern(&p.out, 5000);
	assay_proc_release(&p);
}

/* ---- standard input ---- */

static char *make_input(size_t len)
{
	char *data = malloc(len);

	cr_assert_not_null(data);
	for (size_t i = 0; i < len; i++)
		data[i] = (char)('a' + (i * 7 + i / 4096) % 26);
	return data;
}

Test(proc, large_stdin_counted)
{
	alarm(60); /* HANG GUARD (test_util.c) */
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	char *data = make_input(10 * MiB);

	tool(&p, "count-stdin", NULL);
	p.stdin_data = data;
	p.stdin_len = 10 * MiB;
	run_ok(&p, &r);
	expect_exit(&r, 0);
	cr_assert_str_eq(p.out.ptr, "10485760\n");
	assay_proc_release(&p);
	free(data);
}

Test(proc, large_stdin_and_stdout_at_once)
{
	alarm(60); /* HANG GUARD (test_util.c) */
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	char *data = make_input(10 * MiB);

	tool(&p, "cat", NULL);
	p.stdin_data = data;
	p.stdin_len = 10 * MiB;
	run_ok(&p, &r);
	expect_exit(&r, 0);
	cr_assert_not(r.out_truncated);
	cr_assert_eq(p.out.len, 10 * MiB);
	cr_assert(memcmp(p.out.ptr, data, 10 * MiB) == 0, "cat output differs from its input");
	assay_proc_release(&p);
	free(data);
}

Test(proc, stdin_is_empty_not_inherited)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	int fds[2];

	/* Give the test process a stdin with data in it: the child must not see it. */
	cr_assert_eq(pipe(fds), 0);
	cr_assert_eq(write(fds[1], "leak\n", 5), 5);
	cr_assert_eq(dup2(fds[0], 0), 0);
	close(fds[1]); /* so that a child reading our stdin would see "leak\n", then EOF */
	for (int i = 0; i < 2; i++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;

		tool(&p, "count-stdin", NULL);
		p.stdin_data = i ? "" : NULL; /* NULL, and non-NULL with length 0 */
		run_ok(&p, &r);
		expect_exit(&r, 0);
		cr_assert_str_eq(p.out.ptr, "0\n");
		assay_proc_release(&p);
	}
}

Test(proc, child_closing_stdin_early_is_not_fatal)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	char *data = make_input(10 * MiB);

	/* With SIGPIPE at its default, a write to the closed pipe would kill the test. */
	signal(SIGPIPE, SIG_DFL);
	tool(&p, "exit-with", "4", NULL);
	p.stdin_data = data;
	p.stdin_len = 10 * MiB;
	run_ok(&p, &r);
	expect_exit(&r, 4);
	assay_proc_release(&p);
	free(data);
}

/* ---- exec failures ---- */

static void expect_exec_failed(assay_proc *p, int e)
{
	assay_proc_result r;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_proc_run(p, &r, &err), 0, "a failed exec is data, not an error: %s",
		     err.msg);
	cr_assert_eq(r.status, ASSAY_PROC_EXEC_FAILED, "status %d exit %d", r.status, r.exit_code);
	cr_assert_eq(r.exec_errno, e, "exec_errno %d (%s), wanted %d", r.exec_errno,
		     strerror(r.exec_errno), e);
}

Test(proc, missing_program)
{
	assay_proc p = ASSAY_PROC_INIT;

	assay_strvec_push(&p.argv, "/nonexistent/assay-no-such-program");
	expect_exec_failed(&p, ENOENT);
	assay_proc_release(&p);

	assay_strvec_push(&p.argv, "assay-no-such-program-in-path");
	expect_exec_failed(&p, ENOENT);
	assay_proc_release(&p);
}

Test(proc, missing_cwd)
{
	assay_proc p = ASSAY_PROC_INIT;

	tool(&p, "pwd", NULL);
	p.cwd = strdup("/nonexistent/assay-no-such-folder");
	expect_exec_failed(&p, ENOENT);
	assay_proc_release(&p);
}

Test(proc, not_executable)
{
	assay_proc p = ASSAY_PROC_INIT;
	char path[] = "/tmp/assay-test-proc-XXXXXX";
	int fd = mkstemp(path);

	cr_assert(fd >= 0);
	close(fd);
	assay_strvec_push(&p.argv, path);
	expect_exec_failed(&p, EACCES);
	assay_proc_release(&p);
	unlink(path);
}

Test(proc, script_without_shebang_runs_with_sh)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	char path[] = "/tmp/assay-test-proc-XXXXXX";
	int fd = mkstemp(path);

	cr_assert(fd >= 0);
	cr_assert_eq(write(fd, "echo \"hi $1\"\n", 13), 13);
	close(fd);
	cr_assert_eq(chmod(path, 0755), 0);
	assay_strvec_push(&p.argv, path);
	assay_strvec_push(&p.argv, "there");
	run_ok(&p, &r);
	expect_exit(&r, 0);
	cr_assert_str_eq(p.out.ptr, "hi there\n");
	assay_proc_release(&p);
	unlink(path);
}

Test(proc, invalid_calls)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	assay_err err = ASSAY_ERR_INIT;
	bool done;

	cr_assert_eq(assay_proc_start(&p, &err), ASSAY_EINVALID);
	cr_assert_eq(assay_proc_pump(&p, 0, &done, NULL), ASSAY_EINVALID);
	tool(&p, "sleep", "30", NULL);
	cr_assert_eq(assay_proc_start(&p, NULL), 0);
	cr_assert_eq(assay_proc_start(&p, NULL), ASSAY_EINVALID);
	cr_assert_eq(assay_proc_finish(&p, &r), ASSAY_EINVALID);
	assay_proc_release(&p);
}

/* ---- environment, cwd, descriptors, resources ---- */

static char *run_env(assay_proc *p, const char *name)
{
	assay_proc_result r;

	tool(p, "env", name, NULL);
	run_ok(p, &r);
	expect_exit(&r, 0);
	return p->out.ptr;
}

Test(proc, environment)
{
	assay_proc p = ASSAY_PROC_INIT;

	cr_assert_eq(setenv("ASSAY_T_INHERITED", "from-parent", 1), 0);

	cr_assert_str_eq(run_env(&p, "ASSAY_T_INHERITED"), "from-parent\n");
	assay_proc_release(&p);

	assay_strvec_push(&p.env, "ASSAY_T_NEW=a=b c");
	cr_assert_str_eq(run_env(&p, "ASSAY_T_NEW"), "a=b c\n");
	assay_proc_release(&p);

	assay_strvec_push(&p.env, "ASSAY_T_INHERITED=replaced");
	cr_assert_str_eq(run_env(&p, "ASSAY_T_INHERITED"), "replaced\n");
	assay_proc_release(&p);

	assay_strvec_push(&p.env, "ASSAY_T_INHERITED");
	cr_assert_str_eq(run_env(&p, "ASSAY_T_INHERITED"), "<unset>\n");
	assay_proc_release(&p);

	/* A name that is a prefix of another must not unset it. */
	assay_strvec_push(&p.env, "ASSAY_T_INHERIT");
	cr_assert_str_eq(run_env(&p, "ASSAY_T_INHERITED"), "from-parent\n");
	assay_proc_release(&p);

	/* Later entries win. */
	assay_strvec_push(&p.env, "ASSAY_T_NEW=1");
	assay_strvec_push(&p.env, "ASSAY_T_NEW");
	assay_strvec_push(&p.env, "ASSAY_T_NEW=2");
	cr_assert_str_eq(run_env(&p, "ASSAY_T_NEW"), "2\n");
	assay_proc_release(&p);

	p.clear_env = true;
	cr_assert_str_eq(run_env(&p, "ASSAY_T_INHERITED"), "<unset>\n");
	assay_proc_release(&p);

	p.clear_env = true;
	assay_strvec_push(&p.env, "ASSAY_T_ONLY=yes");
	cr_assert_str_eq(run_env(&p, "ASSAY_T_ONLY"), "yes\n");
	assay_proc_release(&p);
}

Test(proc, path_lookup_uses_the_childs_path)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	char *dir = tool_dir();

	/* The test's own PATH does not hold the tool; the child's does. */
	cr_assert_eq(setenv("PATH", "/usr/bin:/bin", 1), 0);
	assay_strvec_push(&p.argv, "assay-test-tool");
	assay_strvec_push(&p.argv, "exit-with");
	assay_strvec_push(&p.argv, "9");
	assay_strvec_pushf(&p.env, "PATH=/nonexistent:%s", dir);
	run_ok(&p, &r);
	expect_exit(&r, 9);
	assay_proc_release(&p);

	/* The test's PATH holds it, the child's does not. */
	cr_assert_eq(setenv("PATH", dir, 1), 0);
	assay_strvec_push(&p.argv, "assay-test-tool");
	assay_strvec_push(&p.env, "PATH=/nonexistent");
	expect_exec_failed(&p, ENOENT);
	assay_proc_release(&p);

	/* No PATH in the child: the default one, which does not hold the tool but has sh. */
	assay_strvec_push(&p.argv, "assay-test-tool");
	p.clear_env = true;
	expect_exec_failed(&p, ENOENT);
	assay_proc_release(&p);
	assay_strvec_push(&p.argv, "sh");
	assay_strvec_push(&p.argv, "-c");
	assay_strvec_push(&p.argv, "exit 6");
	p.clear_env = true;
	run_ok(&p, &r);
	expect_exit(&r, 6);
	assay_proc_release(&p);
	free(dir);
}

Test(proc, cwd_is_honoured)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	char tmpl[] = "/tmp/assay-test-proc-XXXXXX";
	char *dir = mkdtemp(tmpl);
	char real[PATH_MAX], *tdir = tool_dir();

	cr_assert_not_null(dir);
	cr_assert_not_null(realpath(dir, real));
	tool(&p, "pwd", NULL);
	p.cwd = strdup(dir);
	run_ok(&p, &r);
	expect_exit(&r, 0);
	cr_assert_eq(p.out.len, strlen(real) + 1);
	cr_assert(strncmp(p.out.ptr, real, strlen(real)) == 0, "pwd printed '%s'", p.out.ptr);
	assay_proc_release(&p);

	/* A relative program path is taken from the child's cwd. */
	assay_strvec_push(&p.argv, "./assay-test-tool");
	assay_strvec_push(&p.argv, "exit-with");
	assay_strvec_push(&p.argv, "5");
	p.cwd = strdup(tdir);
	run_ok(&p, &r);
	expect_exit(&r, 5);
	assay_proc_release(&p);
	rmdir(dir);
	free(tdir);
}

Test(proc, no_descriptor_leaks)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	int fds[2];
	int devnull = open("/dev/null", O_RDONLY); /* deliberately not O_CLOEXEC */

	cr_assert(devnull > 2);
	cr_assert_eq(pipe(fds), 0);
	tool(&p, "check-fds", NULL);
	run_ok(&p, &r);
	expect_exit(&r, 0);
	cr_assert_str_eq(p.out.ptr, "none\n");
	assay_proc_release(&p);
	close(devnull);
	close(fds[0]);
	close(fds[1]);
}

/* The descriptors this process has open. */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* A case without input reads an empty stdin from the /dev/null the library keeps (proc.h): one
 * descriptor for the life of the process, not one more per case. */
Test(proc, empty_stdin_from_one_kept_descriptor)
{
	int before = -1;

	for (int i = 0; i < 4; i++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;

		tool(&p, "count-stdin", NULL);
		run_ok(&p, &r);
		expect_exit(&r, 0);
		cr_assert_str_eq(p.out.ptr, "0\n");
		assay_proc_release(&p);
		if (i == 0)
			before = open_fds(); /* the memfd and /dev/null are kept from here */
		else
			cr_assert_eq(open_fds(), before, "case %d: a descriptor more", i);
	}
}

/* Drives `p` (started) as a pool does with assay_proc_pump_polled(): one poll() of its
 * descriptors, then the pump with what it said, never a poll of the pump's own. */
static void drive_polled(assay_proc *p, assay_proc_result *r)
{
	assay_err err = ASSAY_ERR_INIT;
	bool done = false;
	int rc = 0;

	while (!rc && !done) {
		struct pollfd fds[ASSAY_PROC_MAX_POLLFDS];
		size_t n = assay_proc_pollfds(p, fds, ASSAY_PROC_MAX_POLLFDS);
		int wait = assay_proc_deadline_ms(p);

		cr_assert(poll(fds, n, wait < 0 || wait > 200 ? 200 : wait) >= 0 || errno == EINTR);
		rc = assay_proc_pump_polled(p, fds, n, &done, &err);
	}
	cr_assert_eq(rc, 0, "%s", err.msg);
	cr_assert_eq(assay_proc_finish(p, r), 0);
}

/* What poll() said, given to the pump: standard input written (past a pipe's capacity), both
 * captures whole, the exit code, and the timeout still applied. */
Test(proc, a_pump_given_the_poll_results_runs_a_case_whole)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	size_t len = 300000;
	char *in = malloc(len);

	for (size_t i = 0; i < len; i++)
		in[i] = (char)('a' + i % 26);
	tool(&p, "cat", NULL);
	p.stdin_data = in;
	p.stdin_len = len;
	cr_assert_eq(assay_proc_start(&p, NULL), 0);
	drive_polled(&p, &r);
	expect_exit(&r, 0);
	cr_assert_eq(p.out.len, len);
	cr_assert(!memcmp(p.out.ptr, in, len));
	assay_proc_release(&p);

	tool(&p, "spew", "200000", "both", NULL);
	cr_assert_eq(assay_proc_start(&p, NULL), 0);
	drive_polled(&p, &r);
	expect_exit(&r, 0);
	cr_assert_eq(p.out.len, 200000);
	cr_assert_eq(p.err.len, 200000);
	assay_proc_release(&p);

	tool(&p, "sleep", "30", NULL);
	p.timeout_s = 0.3;
	p.kill_grace_s = 0.1;
	double t0 = now_s();
	cr_assert_eq(assay_proc_start(&p, NULL), 0);
	drive_polled(&p, &r);
	cr_assert_eq(r.status, ASSAY_PROC_TIMED_OUT);
	cr_assert_lt(now_s() - t0, 10.0);
	assay_proc_release(&p);
	free(in);
}

Test(proc, signals_reset_in_the_child)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	sigset_t set;

	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGCHLD);
	cr_assert_eq(sigprocmask(SIG_BLOCK, &set, NULL), 0);
	tool(&p, "check-signals", NULL);
	run_ok(&p, &r);
	expect_exit(&r, 0);
	cr_assert_str_eq(p.out.ptr, "none\n");
	assay_proc_release(&p);
}

Test(proc, resource_use)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;

	tool(&p, "spew", "10000000", "stdout", NULL);
	run_ok(&p, &r);
	expect_exit(&r, 0);
	cr_assert(r.max_rss > 0, "max_rss %lld", r.max_rss);
	cr_assert(r.cpu_user_s >= 0 && r.cpu_sys_s >= 0);
	cr_assert(r.wall_s > 0);
	assay_proc_release(&p);
}

/* ---- the non-blocking API ---- */

/* Drives `p` as a pool would: poll() on its descriptors and deadline, then pump(0). */
static void drive(assay_proc *p, assay_proc_result *r)
{
	assay_err err = ASSAY_ERR_INIT;
	bool done = false;
	long rounds = 0;

	while (!done) {
		struct pollfd fds[ASSAY_PROC_MAX_POLLFDS];
		size_t n = assay_proc_pollfds(p, fds, ASSAY_PROC_MAX_POLLFDS);
		int t = assay_proc_deadline_ms(p);

		cr_assert(n > 0 || t >= 0, "nothing to wait for, yet not done");
		cr_assert(poll(fds, n, t < 0 ? 10000 : t) >= 0);
		cr_assert_eq(assay_proc_pump(p, 0, &done, &err), 0, "%s", err.msg);
		cr_assert(++rounds < 1000000);
	}
	cr_assert_eq(assay_proc_pollfds(p, NULL, 0), 0);
	cr_assert_eq(assay_proc_finish(p, r), 0);
}

Test(proc, nonblocking_drive)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	assay_err err = ASSAY_ERR_INIT;
	struct pollfd fds[ASSAY_PROC_MAX_POLLFDS];
	bool done = true;
	char *data = make_input(2 * MiB);

	tool(&p, "cat", NULL);
	p.stdin_data = data;
	p.stdin_len = 2 * MiB;
	cr_assert_eq(assay_proc_start(&p, &err), 0, "%s", err.msg);
	cr_assert_eq(assay_proc_deadline_ms(&p), -1);
	cr_assert_eq(assay_proc_pollfds(&p, fds, ASSAY_PROC_MAX_POLLFDS), 4);
	cr_assert_eq(fds[0].events, POLLOUT);
	/* 2 MiB cannot pass through a 64 KiB pipe in one non-blocking step. */
	cr_assert_eq(assay_proc_pump(&p, 0, &done, &err), 0);
	cr_assert_not(done);
	drive(&p, &r);
	expect_exit(&r, 0);
	cr_assert_eq(p.out.len, 2 * MiB);
	cr_assert(memcmp(p.out.ptr, data, 2 * MiB) == 0);
	assay_proc_release(&p);
	free(data);
}

/* The input is in the program's pipe when assay_proc_start() returns (as much as the pipe
 * holds): a program started without this process (an armed case's relay) does not wait for its
 * first pump. No pump here until the program has read it all and said so in a file. */
Test(proc, the_input_is_written_before_the_first_pump)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	char dir[] = "/tmp/assay-test-stdin-XXXXXX", *flag, *got;
	assay_buf text = ASSAY_BUF_INIT;
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	assay_err err = ASSAY_ERR_INIT;
	struct stat st;
	double until;

	cr_assert_not_null(mkdtemp(dir));
	flag = assay_path_join(dir, "flag");
	got = assay_path_join(dir, "got");
	assay_strvec_push(&p.argv, "/bin/sh");
	assay_strvec_push(&p.argv, "-c");
	assay_strvec_push(&p.argv, "cat > got && echo read > flag");
	p.cwd = strdup(dir);
	p.stdin_data = "hello\n";
	p.stdin_len = 6;
	cr_assert_eq(assay_proc_start(&p, &err), 0, "%s", err.msg);
	until = now_s() + 10;
	while (stat(flag, &st) && now_s() < until)
		usleep(10 * 1000);
	cr_assert_eq(stat(flag, &st), 0, "the program still waits for its input");
	drive(&p, &r);
	expect_exit(&r, 0);
	cr_assert_eq(assay_fs_read(&text, got, 100, NULL), 0);
	cr_assert_eq(text.len, 6);
	cr_assert(!memcmp(text.ptr, "hello\n", 6));
	assay_buf_release(&text);
	assay_proc_release(&p);
	assay_fs_remove_tree(dir, NULL);
	free(got);
	free(flag);
}

Test(proc, nonblocking_pump_returns_while_child_sleeps)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	bool done = true;

	tool(&p, "sleep", "1", NULL);
	cr_assert_eq(assay_proc_start(&p, NULL), 0);
	cr_assert_eq(assay_proc_pump(&p, 0, &done, NULL), 0);
	cr_assert_not(done, "pump(0) waited for the child");
	cr_assert_eq(assay_proc_pump(&p, 50, &done, NULL), 0);
	cr_assert_not(done, "pump(50) waited for the child");
	cr_assert_eq(assay_proc_finish(&p, &r), ASSAY_EINVALID);
	drive(&p, &r);
	expect_exit(&r, 0);
	assay_proc_release(&p);
}

Test(proc, nonblocking_timeout)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	int t;

	tool(&p, "ignore-term", "30", NULL);
	p.timeout_s = 0.2;
	p.kill_grace_s = 0.2;
	cr_assert_eq(assay_proc_start(&p, NULL), 0);
	t = assay_proc_deadline_ms(&p);
	cr_assert(t > 0 && t <= 200, "deadline %d ms", t);
	drive(&p, &r);
	cr_assert_eq(r.status, ASSAY_PROC_TIMED_OUT);
	cr_assert_eq(r.term_signal, SIGKILL);
	cr_assert(r.wall_s < 0.4 + 2, "wall %.3f", r.wall_s);
	assay_proc_release(&p);
}

/* How many processes run the test tool with these arguments (its /proc cmdline). */
static int tool_processes(const char *arg1, const char *arg2)
{
	char want[256];
	size_t wlen;
	int n = 0;
	DIR *d = opendir("/proc");
	struct dirent *e;

	wlen = (size_t)snprintf(want, sizeof(want), "%s%c%s%c%s", ASSAY_TEST_TOOL, 0, arg1, 0,
				arg2) + 1;
	while (d && (e = readdir(d))) {
		char path[300], buf[512];
		FILE *f;
		size_t got;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		if (!(f = fopen(path, "re")))
			continue;
		got = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		if (got == wlen && !memcmp(buf, want, wlen))
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

Test(proc, release_kills_a_running_process)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	assay_proc p = ASSAY_PROC_INIT;
	pid_t pid;
	bool served;

	tool(&p, "sleep", "30.4321", NULL);
	p.cwd = strdup("/");
	cr_assert_eq(assay_proc_start(&p, NULL), 0);
	pid = p.pid;
	served = p.served;
	cr_assert(pid > 0);
	cr_assert_eq(kill(pid, 0), 0);
	for (int i = 0; i < 400 && !tool_processes("sleep", "30.4321"); i++)
		usleep(5000); /* the program is exec'd (on a server, once its request is read) */
	cr_assert_eq(tool_processes("sleep", "30.4321"), 1);
	assay_proc_release(&p);
	cr_assert_eq(tool_processes("sleep", "30.4321"), 0, "the program survived release");
	/* its own supervisor is gone too; a case server (ASSAY_PROC_SERVERS) stays for the next */
	cr_assert(served || (kill(pid, 0) < 0 && errno == ESRCH), "process %d survived release",
		  (int)pid);
	cr_assert_eq(p.pid, -1);
	cr_assert_eq(p.argv.nr, 0);
	cr_assert_null(p.cwd);
	cr_assert_eq(p.fd_out, -1);
	cr_assert_eq(p.out.len, 0);
}

/* A caller that could not pump for a while gives the time back: the timeout moves with it. */
Test(proc, extend_moves_the_timeout)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	assay_err err = ASSAY_ERR_INIT;
	bool done = false;

	assay_strvec_push(&p.argv, "/bin/sh");
	assay_strvec_push(&p.argv, "-c");
	assay_strvec_push(&p.argv, "sleep 0.6");
	p.timeout_s = 0.3;
	cr_assert_eq(assay_proc_start(&p, &err), 0, "%s", err.msg);
	assay_proc_extend(&p, 5.0); /* without it, SIGTERM at 0.3 s */
	while (!done)
		cr_assert_eq(assay_proc_pump(&p, -1, &done, &err), 0, "%s", err.msg);
	cr_assert_eq(assay_proc_finish(&p, &r), 0);
	expect_exit(&r, 0);
	assay_proc_release(&p);
}

Test(proc, extend_of_nothing_changes_nothing)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;

	assay_proc_extend(&p, 5.0); /* not started: ignored */
	assay_strvec_push(&p.argv, "/bin/sh");
	assay_strvec_push(&p.argv, "-c");
	assay_strvec_push(&p.argv, "sleep 5");
	p.timeout_s = 0.2;
	run_ok(&p, &r);
	cr_assert_eq(r.status, ASSAY_PROC_TIMED_OUT, "status %d", r.status);
	assay_proc_release(&p);
}

/* An argument execve refuses (over 32 pages) is the program's failure to start, as a shell
 * says it (E2BIG), not an error of assay's: it ended the whole run before. */
Test(proc, an_argument_too_long_to_exec_is_an_exec_failure)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;
		assay_err err = ASSAY_ERR_INIT;
		size_t n = 250000;
		char *big = malloc(n + 1);

		memset(big, 'a', n);
		big[n] = '\0';
		assay_strvec_push(&p.argv, "/bin/echo");
		assay_strvec_push(&p.argv, big);
		p.sandbox.enabled = sandbox;
		cr_assert_eq(assay_proc_run(&p, &r, &err), 0, "%s", err.msg);
		cr_assert_eq(r.status, ASSAY_PROC_EXEC_FAILED);
		cr_assert_eq(r.exec_errno, E2BIG);
		assay_proc_release(&p);
		free(big);
	}
}
