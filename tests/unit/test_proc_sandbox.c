/*
 * Unit tests for the sandbox, limits and honest figures of src/lib/proc (proc.h,
 * docs/security.md). One attack per promise: each test asserts the attack fails with the sandbox
 * on and, where that is safe, that it works with the sandbox off (or with the one layer that
 * stops it refused through the ASSAY_SANDBOX_REFUSE hook), so the test can fail.
 * The attacks are assay-test-tool subcommands (tests/helper/attacks.c).
 * No timing assertions except loose upper bounds that prove a case ended.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "assay/fs.h"
#include "assay/proc.h"
#include "proc/proc_int.h"
#include "util/banned.h"

#define MiB (1024LL * 1024)

/*
 * Under LeakSanitizer, Criterion 2.4.1's runner process (which runs no test code: each test runs
 * in its own worker) reports 48 to 96 bytes it allocated itself, from criterion_run_all_tests,
 * once this file's 30-odd tests run two at a time; a file of trivial tests does not show it, nor
 * do subsets of this one, and no single test is needed for it. Leaks in the tests and the
 * library are still reported: their stacks do not pass through the runner's loop. Criterion is
 * built without frame pointers, so the stacks are taken by the slow unwinder, or the runner's
 * loop would not show in them.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "fast_unwind_on_malloc=0";
}

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:criterion_run_all_tests\n";
}

#include "box.h"

/* ---- files ---- */

Test(sandbox, writes_outside_the_working_folder_are_refused)
{
	struct box b;
	char outside[64];
	char *parent;

	box_make(&b);
	snprintf(outside, sizeof(outside), "/tmp/assay-test-canary-%ld", (long)getpid());
	parent = assay_path_join(b.root, "canary");
	unlink(outside);

	cr_assert_neq(attack(&b, true, NULL, "write-file", outside, NULL), 0);
	cr_assert_neq(attack(&b, true, NULL, "write-file", parent, NULL), 0);
	cr_assert_neq(attack(&b, true, NULL, "write-file", "../canary", NULL), 0);
	cr_assert_neq(attack(&b, true, NULL, "write-file", b.secret, NULL), 0);
	cr_assert_not(exists(outside), "%s was written", outside);
	cr_assert_not(exists(parent), "%s was written", parent);

	/* Where it may write. */
	cr_assert_eq(attack(&b, true, NULL, "write-file", "canary", NULL), 0);
	cr_assert_eq(attack(&b, true, NULL, "write-file", "/dev/null", NULL), 0);
	char *in_tmp = assay_path_join(b.tmp, "canary");
	cr_assert_eq(attack(&b, true, NULL, "write-file", in_tmp, NULL), 0);

	/* Without the sandbox the same attacks work: the test can fail. */
	cr_assert_eq(attack(&b, false, NULL, "write-file", outside, NULL), 0);
	cr_assert_eq(attack(&b, false, NULL, "write-file", parent, NULL), 0);
	cr_assert(exists(outside) && exists(parent));
	unlink(outside);
	free(in_tmp);
	free(parent);
	box_free(&b);
}

Test(sandbox, home_and_suite_are_unreadable)
{
	struct box b;
	const char *home = getenv("HOME");
	char *home_file, *out = NULL;
	int fd;

	box_make(&b);
	if (!home || !*home)
		cr_skip_test("no HOME");
	home_file = assay_xasprintf("%s/.assay-test-home-XXXXXX", home);
	fd = mkstemp(home_file);
	if (fd < 0)
		cr_skip_test("HOME %s is not writable", home);
	cr_assert_eq(write(fd, "private\n", 8), 8);
	close(fd);
	chmod(home_file, 0644);

	cr_assert_neq(attack(&b, true, &out, "read-file", home_file, NULL), 0);
	cr_assert(strstr(out, "denied"), "%s", out);
	free(out);
	cr_assert_neq(attack(&b, true, &out, "read-file", b.secret, NULL), 0);
	cr_assert(strstr(out, "denied"), "%s", out);
	free(out);
	cr_assert_neq(attack(&b, true, NULL, "read-file", "../suite/secret", NULL), 0);

	/* System files stay readable. */
	cr_assert_eq(attack(&b, true, NULL, "read-file", "/etc/passwd", NULL), 0);

	cr_assert_eq(attack(&b, false, &out, "read-file", home_file, NULL), 0);
	cr_assert_str_eq(out, "private\n");
	free(out);
	cr_assert_eq(attack(&b, false, NULL, "read-file", b.secret, NULL), 0);
	unlink(home_file);
	free(home_file);
	box_free(&b);
}

static int read_with(const struct box *b, const char *const *read_paths,
		     const char *const *hide_paths, const char *path)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	int code;

	tool(&p, "read-file", path, NULL);
	boxed(&p, b, true);
	p.sandbox.read_paths = read_paths;
	p.sandbox.hide_paths = hide_paths;
	run_ok(&p, &r);
	code = exit_code(&r);
	assay_proc_release(&p);
	return code;
}

Test(sandbox, read_paths_grant_and_hide_paths_carve_out)
{
	struct box b;
	char *other;

	box_make(&b);
	other = assay_path_join(b.root, "other");
	cr_assert_eq(assay_fs_write(other, "x\n", 2, 0644, NULL), 0);
	{
		const char *suite_only[] = { b.suite, NULL };
		cr_assert_eq(read_with(&b, suite_only, NULL, b.secret), 0);
		cr_assert_neq(read_with(&b, suite_only, NULL, other), 0);
	}
	{
		/* The whole box is readable except the suite below it. */
		const char *root[] = { b.root, NULL };
		const char *suite[] = { b.suite, NULL };
		cr_assert_eq(read_with(&b, root, NULL, b.secret), 0);
		cr_assert_eq(read_with(&b, root, NULL, other), 0);
		cr_assert_neq(read_with(&b, root, suite, b.secret), 0);
	}
	free(other);
	box_free(&b);
}

Test(sandbox, hide_paths_work_below_a_system_folder)
{
	/* /etc is readable; hiding /etc/ssh (a folder holding a file we know) carves it out. */
	struct box b;
	const char *hidden[] = { "/etc/ssh", NULL };
	DIR *d = opendir("/etc/ssh");
	struct dirent *de;
	char *file = NULL;

	if (!d)
		cr_skip_test("no /etc/ssh here");
	while ((de = readdir(d)) && !file)
		if (de->d_type == DT_REG && strstr(de->d_name, ".pub"))
			file = assay_path_join("/etc/ssh", de->d_name);
	closedir(d);
	if (!file)
		file = strdup("/etc/ssh/ssh_config");
	if (access(file, R_OK))
		cr_skip_test("%s is not readable", file);
	box_make(&b);
	cr_assert_eq(read_with(&b, NULL, NULL, file), 0);
	cr_assert_neq(read_with(&b, NULL, hidden, file), 0, "%s was readable", file);
	cr_assert_eq(read_with(&b, NULL, hidden, "/etc/passwd"), 0);
	free(file);
	box_free(&b);
}

/* ---- network ---- */

static int listen_loopback(int type, char port[16])
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);

	cr_assert(fd >= 0);
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	if (type == SOCK_STREAM)
		cr_assert_eq(listen(fd, 16), 0);
	cr_assert_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	snprintf(port, 16, "%u", (unsigned)ntohs(a.sin_port));
	return fd;
}

static int net_attack(const struct box *b, bool sandbox, bool network, const char *refuse,
		      const char *what, const char *port, unsigned *refused)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	int code;

	if (refuse)
		cr_assert_eq(setenv("ASSAY_SANDBOX_REFUSE", refuse, 1), 0);
	tool(&p, what, port, NULL);
	boxed(&p, b, sandbox);
	p.sandbox.network = network;
	run_ok(&p, &r);
	code = exit_code(&r);
	if (refused)
		*refused = r.sandbox_refused;
	assay_proc_release(&p);
	unsetenv("ASSAY_SANDBOX_REFUSE");
	return code;
}

Test(sandbox, tcp_to_loopback_is_refused)
{
	struct box b;
	char port[16];
	int fd = listen_loopback(SOCK_STREAM, port);
	unsigned refused = 0;

	box_make(&b);
	cr_assert_neq(net_attack(&b, true, false, NULL, "connect", port, NULL), 0);
	/* With the seccomp filter refused, Landlock alone still refuses the connect. */
	cr_assert_eq(net_attack(&b, true, false, "seccomp", "connect", port, &refused), 2);
	cr_assert_eq(refused, ASSAY_SANDBOX_SECCOMP);
	/* With network allowed, and without the sandbox, it connects. */
	cr_assert_eq(net_attack(&b, true, true, NULL, "connect", port, NULL), 0);
	cr_assert_eq(net_attack(&b, false, false, NULL, "connect", port, NULL), 0);
	/* Both network layers refused: the attack works, so each layer is what stops it. */
	cr_assert_eq(net_attack(&b, true, false, "seccomp,landlock-net", "connect", port, NULL),
		     0);
	close(fd);
	box_free(&b);
}

Test(sandbox, udp_is_refused)
{
	struct box b;
	char port[16];
	int fd = listen_loopback(SOCK_DGRAM, port);

	box_make(&b);
	cr_assert_eq(net_attack(&b, true, false, NULL, "udp", port, NULL), 1);
	cr_assert_eq(net_attack(&b, true, true, NULL, "udp", port, NULL), 0);
	cr_assert_eq(net_attack(&b, false, false, NULL, "udp", port, NULL), 0);
	/* Landlock has no UDP rules: the seccomp filter is the only layer here. */
	cr_assert_eq(net_attack(&b, true, false, "seccomp", "udp", port, NULL), 0);
	close(fd);
	box_free(&b);
}

/* A port nothing listens on (bound, then closed). */
static void free_port(char port[16])
{
	int fd = listen_loopback(SOCK_STREAM, port);

	close(fd);
}

/* Whether this kernel opens TCP Fast Open connections from sendto (client side on). */
static bool fastopen_client(void)
{
	FILE *f = fopen("/proc/sys/net/ipv4/tcp_fastopen", "r");
	int v = 0;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v & 1;
}

/* tcp-server OWN OTHER under the sandbox with tcp_port OWN: its exit bit mask. */
static int serve_attack(const struct box *b, bool sandbox, bool network, const char *refuse,
			const char *own, const char *other, unsigned *refused)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	int code;

	if (refuse)
		cr_assert_eq(setenv("ASSAY_SANDBOX_REFUSE", refuse, 1), 0);
	tool(&p, "tcp-server", own, other, NULL);
	boxed(&p, b, sandbox);
	p.sandbox.network = network;
	p.sandbox.tcp_port = (unsigned short)strtoul(own, NULL, 10);
	run_ok(&p, &r);
	code = exit_code(&r);
	if (refused)
		*refused = r.sandbox_refused;
	assay_proc_release(&p);
	unsetenv("ASSAY_SANDBOX_REFUSE");
	return code;
}

/* An api server (tcp_port, network off) serves on its own port and reaches nothing. */
Test(sandbox, a_server_binds_its_port_and_connects_nowhere)
{
	struct box b;
	char own[16], other[16];
	int fd = listen_loopback(SOCK_STREAM, other);
	unsigned refused = 0;

	free_port(own);
	box_make(&b);
	cr_assert_eq(serve_attack(&b, true, false, NULL, own, other, &refused), 1,
		     "only its own port may be bound");
	cr_assert_eq(refused, 0);
	/* Landlock alone: no other bind, no connect(). UDP is seccomp's to refuse, and so is TCP
	 * Fast Open: on Linux 6.18 a sendto(MSG_FASTOPEN) connects past Landlock's connect rule
	 * (bit 4 was set here), which is why seccomp refuses that flag (docs/security.md). */
	cr_assert_eq(serve_attack(&b, true, false, "seccomp", own, other, NULL) & 7, 1);
	/* seccomp alone: UDP and Fast Open refused; bind and connect are Landlock's. */
	cr_assert_eq(serve_attack(&b, true, false, "landlock-net", own, other, NULL) & 25, 1);
	/* Network on, or no sandbox: all of it works (Fast Open when the kernel's client side is
	 * on, net.ipv4.tcp_fastopen bit 0: so the attack is real where it is asserted). */
	int all = fastopen_client() ? 31 : 15;
	cr_assert_eq(serve_attack(&b, true, true, NULL, own, other, NULL) & all, all);
	cr_assert_eq(serve_attack(&b, false, false, NULL, own, other, NULL) & all, all);
	close(fd);
	box_free(&b);
}

/* ---- signals ---- */

static volatile sig_atomic_t usr1_seen;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_seen++;
}

Test(sandbox, cannot_signal_the_test_process)
{
	struct box b;
	char pid[16];
	struct sigaction sa;

	box_make(&b);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	cr_assert_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());

	cr_assert_neq(attack(&b, true, NULL, "signal", pid, "USR1", NULL), 0);
	cr_assert_eq(usr1_seen, 0);
	/* Without the PID namespace, Landlock's signal scope alone refuses it. */
	cr_assert_eq(setenv("ASSAY_SANDBOX_REFUSE", "pid-namespace", 1), 0);
	{
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;

		tool(&p, "signal", pid, "USR1", NULL);
		boxed(&p, &b, true);
		run_ok(&p, &r);
		cr_assert_neq(exit_code(&r), 0, "%s", p.out.ptr);
		cr_assert(r.sandbox_refused & ASSAY_SANDBOX_PIDNS);
		cr_assert(r.sandbox_applied & ASSAY_SANDBOX_LANDLOCK_SCOPE);
		assay_proc_release(&p);
	}
	unsetenv("ASSAY_SANDBOX_REFUSE");
	cr_assert_eq(usr1_seen, 0);

	cr_assert_eq(attack(&b, false, NULL, "signal", pid, "USR1", NULL), 0);
	cr_assert_eq(usr1_seen, 1, "the signal did not arrive without the sandbox");
	box_free(&b);
}

/* ---- processes ---- */

static pid_t printed_pid(const assay_buf *out)
{
	char *end;
	long v = strtol(out->ptr, &end, 10);

	cr_assert(v > 0 && *end == '\n', "no pid in output '%s'", out->ptr);
	return (pid_t)v;
}

static void escaped_grandchild_dies(const char *refuse)
{
	struct box b;
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	pid_t g;

	box_make(&b);
	if (refuse)
		cr_assert_eq(setenv("ASSAY_SANDBOX_REFUSE", refuse, 1), 0);
	tool(&p, "spawn-grandchild", "--setsid", "--ignore-term", "30", NULL);
	boxed(&p, &b, true);
	run_ok(&p, &r);
	cr_assert_eq(exit_code(&r), 0);
	g = printed_pid(&p.out);
	cr_assert(kill(g, 0) < 0 && errno == ESRCH, "escaped grandchild %d survived", (int)g);
	assay_proc_release(&p);
	unsetenv("ASSAY_SANDBOX_REFUSE");
	box_free(&b);
}

Test(sandbox, escaped_grandchild_dies_with_the_case)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	escaped_grandchild_dies(NULL);
	/* Without the namespaces the supervisor, a subreaper, finds and kills it. */
	escaped_grandchild_dies("user-namespace");
}

/* Processes whose command line holds `marker`. */
static int count_marked(const char *marker)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	cr_assert_not_null(d);
	while ((de = readdir(d))) {
		char path[300];
		assay_buf cmd = ASSAY_BUF_INIT;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", de->d_name);
		if (assay_fs_read(&cmd, path, 65536, NULL) == 0 &&
		    memmem(cmd.ptr, cmd.len, marker, strlen(marker)))
			n++;
		assay_buf_release(&cmd);
	}
	closedir(d);
	return n;
}

Test(sandbox, fork_bomb_is_contained_and_ends_with_the_case)
{
	alarm(60); /* HANG GUARD (test_util.c) */
	struct box b;
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	char marker[64];

	box_make(&b);
	snprintf(marker, sizeof(marker), "assay-bomb-%ld", (long)getpid());
	tool(&p, "fork-bomb", marker, NULL);
	boxed(&p, &b, true);
	p.limits.processes = 64;
	p.timeout_s = 2;
	p.kill_grace_s = 0.5;
	run_ok(&p, &r);
	cr_assert_eq(r.status, ASSAY_PROC_TIMED_OUT, "status %d, exit %d", r.status, r.exit_code);
	cr_assert(r.limit == ASSAY_LIMIT_PROCESSES || r.limit == ASSAY_LIMIT_WALL, "limit %d",
		  r.limit);
	cr_assert(r.wall_s < 30, "wall %.3f", r.wall_s);
	cr_assert_eq(count_marked(marker), 0, "processes of the bomb survived the case");
	assay_proc_release(&p);
	box_free(&b);
}

/* fork-until-fail under a limit of `limit` processes: how many children it made. */
static long forks_under_limit(const struct box *b, long limit, assay_proc_result *r)
{
	assay_proc p = ASSAY_PROC_INIT;
	long made;

	tool(&p, "fork-until-fail", "100000", NULL);
	boxed(&p, b, true);
	p.limits.processes = limit;
	p.timeout_s = 30;
	run_ok(&p, r);
	cr_assert_eq(exit_code(r), 1, "fork never failed: %s", p.out.ptr);
	made = strtol(p.out.ptr, NULL, 10);
	assay_proc_release(&p);
	return made;
}

Test(sandbox, process_limit_holds)
{
	alarm(60); /* HANG GUARD (test_util.c) */
	struct box b;
	assay_proc_result r;
	long made;

	box_make(&b);
	made = forks_under_limit(&b, 10, &r);
	cr_assert_eq(r.limit, ASSAY_LIMIT_PROCESSES);
	/* Exact with root too: the program is nobody outside, whom RLIMIT_NPROC binds. */
	cr_assert(made >= 1 && made <= 9, "made %ld children under a limit of 10", made);
	box_free(&b);
}

Test(sandbox_nonroot, process_limit_is_exact)
{
	alarm(60); /* HANG GUARD (test_util.c) */
	struct box b;
	assay_proc_result r;
	long made;

	become_nobody();
	box_make(&b);
	/* The program and its children: 10 processes. */
	made = forks_under_limit(&b, 10, &r);
	cr_assert(made >= 1 && made <= 9, "made %ld children under a limit of 10", made);
	cr_assert_eq(r.limit, ASSAY_LIMIT_PROCESSES);
	cr_assert(r.sandbox_applied & ASSAY_SANDBOX_USERNS);
	box_free(&b);
}

/* ---- honest figures ---- */

/* memset through a pointer the compiler cannot see through: a buffer written and never read
 * would otherwise be optimised away, and with it the RSS the test needs. */
static void *(*volatile touch_fn)(void *, int, size_t) = memset;

static void touch(char *mem, size_t len)
{
	touch_fn(mem, 1, len);
}

static void run_true(bool sandbox, assay_proc_result *r)
{
	struct box b;
	assay_proc p = ASSAY_PROC_INIT;

	box_make(&b);
	assay_strvec_push(&p.argv, "/bin/true");
	boxed(&p, &b, sandbox);
	run_ok(&p, r);
	cr_assert_eq(exit_code(r), 0);
	assay_proc_release(&p);
	box_free(&b);
}

Test(figures, max_rss_is_the_programs_not_assays)
{
	alarm(60); /* HANG GUARD (test_util.c) */
	size_t big = 300 * MiB;
	char *mem = malloc(big);
	assay_proc_result r;

	cr_assert_not_null(mem);
	touch(mem, big); /* the test process's peak RSS is now over 300 MB */
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		run_true(sandbox, &r);
		cr_assert(r.max_rss > 0 && r.max_rss < 20 * MiB,
			  "/bin/true reported %lld bytes (sandbox %d)", r.max_rss, sandbox);
	}
	free(mem);
}

Test(figures, max_rss_counts_what_the_program_touches)
{
	alarm(60); /* HANG GUARD (test_util.c) */
	struct box b;

	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;

		tool(&p, "touch-mem", "100", NULL);
		boxed(&p, &b, sandbox);
		run_ok(&p, &r);
		cr_assert_eq(exit_code(&r), 0);
		cr_assert(r.max_rss >= 100 * MiB, "max_rss %lld (sandbox %d)", r.max_rss, sandbox);
		assay_proc_release(&p);
	}
	box_free(&b);
}

Test(figures, cpu_of_an_orphaned_grandchild_is_counted)
{
	alarm(60); /* HANG GUARD (test_util.c) */
	struct box b;

	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;

		tool(&p, "burn-grandchild", "0.3", NULL);
		boxed(&p, &b, sandbox);
		run_ok(&p, &r);
		cr_assert_eq(exit_code(&r), 0);
		cr_assert(r.cpu_user_s + r.cpu_sys_s >= 0.25, "cpu %.3f + %.3f (sandbox %d)",
			  r.cpu_user_s, r.cpu_sys_s, sandbox);
		assay_proc_release(&p);
	}
	box_free(&b);
}

/* ---- limits ---- */

Test(limits, cpu_limit_ends_a_spinning_program)
{
	alarm(60); /* HANG GUARD (test_util.c) */
	struct box b;
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;

	box_make(&b);
	tool(&p, "spin", NULL);
	boxed(&p, &b, true);
	p.limits.cpu_s = 1;
	p.timeout_s = 30;
	run_ok(&p, &r);
	cr_assert_eq(r.status, ASSAY_PROC_SIGNALED, "status %d", r.status);
	cr_assert_eq(r.term_signal, SIGXCPU);
	cr_assert_eq(r.limit, ASSAY_LIMIT_CPU);
	cr_assert(r.cpu_user_s > 0, "the spin was not counted");
	assay_proc_release(&p);
	box_free(&b);
}

Test(limits, file_size_limit)
{
	struct box b;

	box_make(&b);
	for (int limit = 0; limit < 2; limit++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;

		tool(&p, "write-big", "big", "1000000", NULL);
		boxed(&p, &b, false);
		p.limits.file_size_bytes = limit ? 65536 : 0;
		run_ok(&p, &r);
		if (limit) {
			cr_assert_eq(r.status, ASSAY_PROC_SIGNALED, "status %d", r.status);
			cr_assert_eq(r.term_signal, SIGXFSZ);
			cr_assert_eq(r.limit, ASSAY_LIMIT_FILE_SIZE);
		} else {
			cr_assert_eq(exit_code(&r), 0);
			cr_assert_eq(r.limit, ASSAY_LIMIT_NONE);
		}
		assay_proc_release(&p);
	}
	box_free(&b);
}

Test(limits, memory_limit)
{
	alarm(60); /* HANG GUARD (test_util.c) */
	struct box b;

	/* awk, not the test tool: a sanitizer build's tool maps shadow memory that no data limit
	 * holds. mawk and gawk both build a 256 MiB string here. */
	if (access("/usr/bin/awk", X_OK))
		cr_skip_test("no /usr/bin/awk");
	box_make(&b);
	for (int limit = 0; limit < 2; limit++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;

		assay_strvec_push(&p.argv, "/usr/bin/awk");
		assay_strvec_push(&p.argv, "BEGIN { s = \"x\"; while (length(s) < 200000000) "
					   "s = s s; print length(s) }");
		boxed(&p, &b, true);
		p.limits.memory_bytes = limit ? 64 * MiB : 0;
		run_ok(&p, &r);
		if (limit) {
			cr_assert(r.status != ASSAY_PROC_EXITED || r.exit_code != 0,
				  "awk succeeded under the limit: %s", p.out.ptr);
			cr_assert_eq(r.limit, ASSAY_LIMIT_MEMORY, "limit %d, max_rss %lld", r.limit,
				     r.max_rss);
		} else {
			cr_assert_eq(exit_code(&r), 0, "%s", p.err.ptr);
			cr_assert_str_eq(p.out.ptr, "268435456\n");
		}
		assay_proc_release(&p);
	}
	box_free(&b);
}

Test(limits, open_files_limit)
{
	struct box b;
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;

	box_make(&b);
	assay_strvec_push(&p.argv, "/bin/sh");
	assay_strvec_push(&p.argv, "-c");
	assay_strvec_push(&p.argv, "ulimit -n");
	boxed(&p, &b, true);
	p.limits.open_files = 17;
	run_ok(&p, &r);
	cr_assert_eq(exit_code(&r), 0);
	cr_assert_str_eq(p.out.ptr, "17\n");
	assay_proc_release(&p);
	box_free(&b);
}

/* ---- the report ---- */

Test(sandbox, the_report_cannot_be_forged)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	struct box b;
	char stop[16];

	box_make(&b);
	snprintf(stop, sizeof(stop), "%ld", (long)getpid());
	{
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;

		tool(&p, "forge-report", stop, NULL);
		boxed(&p, &b, true);
		run_ok(&p, &r);
		cr_assert_eq(exit_code(&r), 42, "the forged report was believed");
		cr_assert_str_eq(p.out.ptr, "forged 0\n");
		assay_proc_release(&p);
	}
	if (geteuid() == 0) {
		/* Root without the sandbox reaches the supervisor's descriptors: the attack works,
		 * and the library refuses the garbled report instead of believing it. */
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;
		assay_err err = ASSAY_ERR_INIT;

		tool(&p, "forge-report", stop, NULL);
		boxed(&p, &b, false);
		cr_assert_eq(assay_proc_run(&p, &r, &err), ASSAY_ESPAWN, "%s", p.out.ptr);
		cr_assert(strstr(err.msg, "garbled"), "%s", err.msg);
		assay_proc_release(&p);
	}
	box_free(&b);
}

Test(sandbox, the_supervisor_cannot_be_traced)
{
	struct box b;

	box_make(&b);
	cr_assert_neq(attack(&b, true, NULL, "ptrace-parent", NULL), 0);
	/* Without the namespaces and Landlock (any Landlock domain keeps ptrace inside it), the
	 * supervisor's non-dumpable flag alone refuses a non-root program; with assay as root the
	 * program is nobody even then (without the sandbox it is root, holds CAP_SYS_PTRACE and
	 * gets through: the test can fail). */
	cr_assert_eq(setenv("ASSAY_SANDBOX_REFUSE",
			    "user-namespace,landlock-fs,landlock-net,landlock-scope", 1),
		     0);
	{
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;

		tool(&p, "ptrace-parent", NULL);
		boxed(&p, &b, true);
		run_ok(&p, &r);
		cr_assert_eq(exit_code(&r), 1, "%s", p.out.ptr);
		assay_proc_release(&p);
	}
	unsetenv("ASSAY_SANDBOX_REFUSE");
	if (geteuid() == 0)
		cr_assert_eq(attack(&b, false, NULL, "ptrace-parent", NULL), 0);
	box_free(&b);
}

/* ---- what the library leaves alone ---- */

static char *make_input(size_t len)
{
	char *data = malloc(len);

	cr_assert_not_null(data);
	memset(data, 'x', len);
	return data;
}

Test(caller, sigpipe_disposition_and_subreaper_state_unchanged)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	struct box b;
	char *data = make_input(1 << 20);
	struct sigaction before, after;
	sigset_t mask_before, mask_after, pending;
	int sub_before = -1, sub_after = -1;

	box_make(&b);
	signal(SIGPIPE, SIG_DFL);
	cr_assert_eq(sigaction(SIGPIPE, NULL, &before), 0);
	cr_assert_eq(pthread_sigmask(SIG_SETMASK, NULL, &mask_before), 0);
	cr_assert_eq(prctl(PR_GET_CHILD_SUBREAPER, &sub_before), 0);
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;

		/* It exits without reading: writing the 1 MiB raises EPIPE (and SIGPIPE). */
		tool(&p, "exit-with", "4", NULL);
		boxed(&p, &b, sandbox);
		p.stdin_data = data;
		p.stdin_len = 1 << 20;
		run_ok(&p, &r);
		cr_assert_eq(exit_code(&r), 4);
		assay_proc_release(&p);
	}
	cr_assert_eq(sigaction(SIGPIPE, NULL, &after), 0);
	cr_assert(after.sa_handler == before.sa_handler && after.sa_handler == SIG_DFL,
		  "SIGPIPE disposition changed");
	cr_assert_eq(pthread_sigmask(SIG_SETMASK, NULL, &mask_after), 0);
	cr_assert_eq(sigismember(&mask_after, SIGPIPE), sigismember(&mask_before, SIGPIPE));
	cr_assert_eq(sigpending(&pending), 0);
	cr_assert_not(sigismember(&pending, SIGPIPE), "a SIGPIPE was left pending");
	cr_assert_eq(prctl(PR_GET_CHILD_SUBREAPER, &sub_after), 0);
	cr_assert_eq(sub_after, sub_before, "the library made the caller a subreaper");
	cr_assert_eq(sub_after, 0);
	free(data);
	box_free(&b);
}

Test(caller, its_own_child_survives_a_case)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	struct box b;
	pid_t mine = fork();

	if (mine == 0) {
		/* Should the test die first, so does this child, and it holds no pipe of the
		 * test runner's. */
		int null = open("/dev/null", O_RDWR);

		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		pause();
		_exit(0);
	}
	cr_assert(mine > 0);
	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;

		/* A case that leaves an orphan behind: the sweep must take it, not ours. */
		tool(&p, "spawn-grandchild", "--setsid", "30", NULL);
		boxed(&p, &b, sandbox);
		run_ok(&p, &r);
		cr_assert_eq(exit_code(&r), 0);
		assay_proc_release(&p);
	}
	cr_assert_eq(waitpid(mine, NULL, WNOHANG), 0, "the caller's own child was reaped");
	cr_assert_eq(kill(mine, 0), 0, "the caller's own child was killed");
	kill(mine, SIGKILL);
	waitpid(mine, NULL, 0);
	box_free(&b);
}

/* ---- who the program is ---- */

Test(sandbox, the_program_has_no_capability_and_no_root_uid)
{
	struct box b;
	char *out = NULL;
	long uid, euid;
	unsigned long long caps;

	box_make(&b);
	cr_assert_eq(attack(&b, true, &out, "whoami", NULL), 0);
	cr_assert_eq(sscanf(out, "%ld %ld %llx", &uid, &euid, &caps), 3, "%s", out);
	cr_assert(uid != 0 && euid != 0, "%s", out);
	cr_assert_eq(caps, 0, "%s", out);
	free(out);
	if (geteuid() == 0) {
		cr_assert_eq(attack(&b, false, &out, "whoami", NULL), 0);
		cr_assert_eq(sscanf(out, "%ld %ld %llx", &uid, &euid, &caps), 3);
		cr_assert(caps != 0, "root without the sandbox should hold capabilities");
		free(out);
	}
	box_free(&b);
}

Test(sandbox, tmpdir_is_the_private_tmp)
{
	struct box b;
	char *out = NULL, *want;

	box_make(&b);
	cr_assert_eq(attack(&b, true, &out, "env", "TMPDIR", NULL), 0);
	want = assay_xasprintf("%s\n", b.tmp);
	cr_assert_str_eq(out, want);
	free(want);
	free(out);
	box_free(&b);
}

Test(sandbox, timeout_kills_the_whole_namespace)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	struct box b;
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;

	box_make(&b);
	tool(&p, "spawn-grandchild", "--ignore-term", "--parent-ignore-term", "--wait", "30", NULL);
	boxed(&p, &b, true);
	p.timeout_s = 0.3;
	p.kill_grace_s = 0.3;
	run_ok(&p, &r);
	cr_assert_eq(r.status, ASSAY_PROC_TIMED_OUT);
	cr_assert_eq(r.term_signal, SIGKILL);
	cr_assert_eq(r.limit, ASSAY_LIMIT_WALL);
	cr_assert(r.wall_s < 0.3 + 0.3 + 2, "wall %.3f", r.wall_s);
	pid_t g = printed_pid(&p.out);
	cr_assert(kill(g, 0) < 0 && errno == ESRCH, "grandchild %d survived", (int)g);
	assay_proc_release(&p);
	box_free(&b);
}

Test(sandbox, exec_failures_are_reported)
{
	struct box b;
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;

	box_make(&b);
	assay_strvec_push(&p.argv, "assay-no-such-program-in-path");
	boxed(&p, &b, true);
	run_ok(&p, &r);
	cr_assert_eq(r.status, ASSAY_PROC_EXEC_FAILED);
	cr_assert_eq(r.exec_errno, ENOENT);
	assay_proc_release(&p);
	box_free(&b);
}

/* ---- refused layers ---- */

Test(refused, without_namespaces_the_other_layers_hold)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	struct box b;
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	char outside[64];

	box_make(&b);
	snprintf(outside, sizeof(outside), "/tmp/assay-test-canary-ns-%ld", (long)getpid());
	cr_assert_eq(setenv("ASSAY_SANDBOX_REFUSE", "user-namespace", 1), 0);
	tool(&p, "write-file", outside, NULL);
	boxed(&p, &b, true);
	run_ok(&p, &r);
	cr_assert_eq(r.sandbox_refused, ASSAY_SANDBOX_USERNS | ASSAY_SANDBOX_PIDNS,
		     "refused %x", r.sandbox_refused);
	cr_assert(r.sandbox_applied & ASSAY_SANDBOX_LANDLOCK_FS);
	cr_assert_neq(exit_code(&r), 0);
	cr_assert_not(exists(outside));
	assay_proc_release(&p);
	box_free(&b);
}

Test(refused, a_refused_layer_is_reported_and_the_case_runs)
{
	struct box b;
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	char *parent;

	box_make(&b);
	parent = assay_path_join(b.root, "canary");
	cr_assert_eq(setenv("ASSAY_SANDBOX_REFUSE", "landlock-fs", 1), 0);
	tool(&p, "write-file", parent, NULL);
	boxed(&p, &b, true);
	run_ok(&p, &r);
	cr_assert_eq(r.sandbox_refused, ASSAY_SANDBOX_LANDLOCK_FS, "refused %x", r.sandbox_refused);
	cr_assert_not(r.sandbox_applied & ASSAY_SANDBOX_LANDLOCK_FS);
	/* The layer is off, so the write works: the report does not lie about it. */
	cr_assert_eq(exit_code(&r), 0);
	cr_assert(exists(parent));
	assay_proc_release(&p);
	free(parent);
	box_free(&b);
}

Test(refused, required_makes_a_refused_layer_an_error)
{
	static const char *hooks[] = { "user-namespace", "landlock-fs", "landlock-scope",
				       "seccomp",    "no-new-privs", "all" };
	struct box b;
	char *parent;

	box_make(&b);
	parent = assay_path_join(b.root, "canary");
	for (size_t i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++) {
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;
		assay_err err = ASSAY_ERR_INIT;

		cr_assert_eq(setenv("ASSAY_SANDBOX_REFUSE", hooks[i], 1), 0);
		tool(&p, "write-file", parent, NULL);
		boxed(&p, &b, true);
		p.sandbox.required = true;
		cr_assert_eq(assay_proc_run(&p, &r, &err), ASSAY_ESPAWN, "%s", hooks[i]);
		cr_assert(strstr(err.msg, "required"), "%s", err.msg);
		cr_assert_not(exists(parent), "the program ran although %s was refused", hooks[i]);
		cr_assert_eq(assay_proc_finish(&p, &r), ASSAY_EINVALID);
		assay_proc_release(&p);
	}
	unsetenv("ASSAY_SANDBOX_REFUSE");
	{
		/* Nothing refused: required runs the program. */
		assay_proc p = ASSAY_PROC_INIT;
		assay_proc_result r;

		tool(&p, "exit-with", "0", NULL);
		boxed(&p, &b, true);
		p.sandbox.required = true;
		run_ok(&p, &r);
		cr_assert_eq(exit_code(&r), 0);
		cr_assert_eq(r.sandbox_refused, 0);
		assay_proc_release(&p);
	}
	free(parent);
	box_free(&b);
}

Test(refused, probe_reports_what_the_kernel_grants)
{
	assay_sandbox_report rep;
	assay_err err = ASSAY_ERR_INIT;

	cr_assert_eq(assay_sandbox_probe(&rep, &err), 0, "%s", err.msg);
	cr_assert_eq(rep.granted & rep.refused, 0);
	cr_assert_eq(rep.granted | rep.refused, (1u << ASSAY_SANDBOX_NLAYERS) - 1);
	cr_assert(rep.granted & ASSAY_SANDBOX_NO_NEW_PRIVS);
	if (rep.landlock_abi >= 6)
		cr_assert(rep.granted & ASSAY_SANDBOX_LANDLOCK_SCOPE);

	cr_assert_eq(setenv("ASSAY_SANDBOX_REFUSE", "landlock-scope,user-namespace", 1), 0);
	cr_assert_eq(assay_sandbox_probe(&rep, &err), 0, "%s", err.msg);
	cr_assert_eq(rep.refused & (ASSAY_SANDBOX_LANDLOCK_SCOPE | ASSAY_SANDBOX_USERNS),
		     ASSAY_SANDBOX_LANDLOCK_SCOPE | ASSAY_SANDBOX_USERNS);
	cr_assert_eq(rep.refused_errno[4], EPERM);
	cr_assert_eq(rep.refused_errno[0], EPERM);
	unsetenv("ASSAY_SANDBOX_REFUSE");
}

Test(refused, layer_names)
{
	for (int i = 0; i < ASSAY_SANDBOX_NLAYERS; i++) {
		const char *name = assay_sandbox_layer_name(1u << i);

		cr_assert_str_neq(name, "unknown");
		for (int j = 0; j < i; j++)
			cr_assert_str_neq(name, assay_sandbox_layer_name(1u << j));
	}
	cr_assert_str_eq(assay_sandbox_layer_name(0), "unknown");
	cr_assert_str_eq(assay_sandbox_layer_name(3), "unknown");
}

/* ---- without root ---- */

Test(sandbox_nonroot, every_layer_applies_without_root)
{
	alarm(30); /* HANG GUARD (test_util.c) */
	struct box b;
	char *out = NULL, *parent;

	become_nobody();
	box_make(&b);
	parent = assay_path_join(b.root, "canary");
	cr_assert_neq(attack(&b, true, NULL, "write-file", parent, NULL), 0);
	cr_assert_not(exists(parent));
	cr_assert_neq(attack(&b, true, NULL, "read-file", b.secret, NULL), 0);
	cr_assert_eq(attack(&b, false, NULL, "write-file", parent, NULL), 0);
	cr_assert_neq(attack(&b, true, NULL, "ptrace-parent", NULL), 0);
	/* Without the sandbox too: the supervisor is not dumpable (no Yama needed). */
	cr_assert_neq(attack(&b, false, NULL, "ptrace-parent", NULL), 0);
	cr_assert_eq(attack(&b, true, &out, "whoami", NULL), 0);
	cr_assert(strncmp(out, "65534 65534 0\n", 14) == 0, "%s", out);
	free(out);
	escaped_grandchild_dies(NULL);
	free(parent);
	box_free(&b);
}

/*
 * A supervisor started the plain way (no namespaces: the sandbox off, or the kernel refusing
 * them) is never dumpable, not even between its exec and its own PR_SET_DUMPABLE: a case of
 * the same user, running beside it, cannot open its report pipe through /proc/PID/fd and write
 * it a forged report (the attack review's forger won that race at once, its forged exit 0 and
 * times taken as the case's). The attack watches the newest pids, the test's children, while
 * cases start. The caller is not dumpable, as the CLI makes itself (a dumpable caller's own
 * descriptors are open to the same user, the report pipe's write end among them while it
 * starts a supervisor).
 */
Test(sandbox_nonroot, no_case_opens_a_new_supervisors_report_pipe)
{
	alarm(120); /* HANG GUARD (test_util.c) */
	struct box b;
	assay_proc g = ASSAY_PROC_INIT;
	assay_proc_result r;
	assay_err err = ASSAY_ERR_INIT;
	bool done = false;
	int started = 0;
	char self[24];

	/* not dumpable, as the CLI: else the posix_spawn child, a copy of the test process, is
	 * open to the same user until its exec */
	become_nobody_like_the_cli();
	box_make(&b);
	snprintf(self, sizeof(self), "%ld", (long)getpid());
	tool(&g, "grab-report-pipes", "3", self, NULL);
	boxed(&g, &b, false);
	cr_assert_eq(assay_proc_start(&g, &err), 0, "%s", err.msg);
	while (!done) {
		run_true(false, &r);
		started++;
		cr_assert_eq(assay_proc_pump(&g, 0, &done, &err), 0, "%s", err.msg);
	}
	cr_assert_eq(assay_proc_finish(&g, &r), 0);
	cr_assert_eq(exit_code(&r), 1, "%d cases started: %s", started, g.out.ptr);
	cr_assert_gt(started, 20);
	assay_proc_release(&g);
	box_free(&b);
}

Test(sandbox_nonroot, max_rss_is_honest_without_root)
{
	alarm(60); /* HANG GUARD (test_util.c) */
	size_t big = 300 * MiB;
	char *mem;
	assay_proc_result r;

	become_nobody();
	mem = malloc(big);
	cr_assert_not_null(mem);
	touch(mem, big);
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		run_true(sandbox, &r);
		cr_assert(r.max_rss > 0 && r.max_rss < 20 * MiB, "max_rss %lld (sandbox %d)",
			  r.max_rss, sandbox);
	}
	free(mem);
}

/* ---- issue 18 item 11: no namespace of the case's own ---- */

/* The way `how` of making a namespace, in the sandbox: its output. */
static char *new_namespace(const struct box *b, bool sandbox, const char *how, int *code)
{
	char *out = NULL;

	*code = attack(b, sandbox, &out, "new-namespace", how, NULL);
	return out;
}

Test(sandbox, the_case_cannot_make_namespaces)
{
	static const char *const refused[] = { "unshare-user", "unshare-all", "clone-user",
					       "setns-uts" };
	struct box b;
	char *out;
	int code;

	box_make(&b);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		out = new_namespace(&b, true, refused[i], &code);
		cr_expect_eq(code, 1, "%s: %s", refused[i], out);
		cr_expect_str_eq(out, "errno 1\n", "%s", refused[i]); /* EPERM */
		free(out);
	}
	/* clone3's flags lie in memory a filter cannot read: ENOSYS, so libc falls back to
	 * clone, whose flags it can */
	out = new_namespace(&b, true, "clone3-user", &code);
	cr_expect_str_eq(out, "errno 38\n", "clone3"); /* ENOSYS */
	free(out);
	/* what the filter must not take away: threads and processes */
	cr_expect_eq(attack(&b, true, NULL, "spawn-grandchild", "0", NULL), 0);
	box_free(&b);
}

/* System V IPC lives in an IPC namespace: in the host's, a case's shared memory segment (up to
 * its memory limit, counted against no cgroup once the case is gone) outlived the case and the
 * run, and a later case could read it. The case gets an IPC namespace of its own. */
Test(sandbox, system_v_ipc_does_not_outlive_the_case)
{
	struct box b;
	char key[32], *out;
	key_t k = (key_t)(0x5a000000 | (getpid() & 0xffffff));

	snprintf(key, sizeof(key), "%d", (int)k);
	box_make(&b);
	cr_assert_eq(attack(&b, true, &out, "shm-leave", key, NULL), 0, "%s", out);
	cr_assert_str_eq(out, "made\n");
	free(out);
	cr_expect_lt(shmget(k, 0, 0), 0, "the case's segment outlived it");
	/* without the sandbox it does (the test can fail); removed again */
	cr_assert_eq(attack(&b, false, &out, "shm-leave", key, NULL), 0, "%s", out);
	free(out);
	{
		int id = shmget(k, 0, 0);

		cr_assert_geq(id, 0);
		cr_assert_eq(shmctl(id, IPC_RMID, NULL), 0);
	}
	box_free(&b);
}

/* ---- issue 18 item 6: a memory cgroup per case ---- */

/* Enables them (each test is a process of its own), or skips: not root, no delegation. */
static void need_cgroups(assay_cgroup_report *rep)
{
	if (!assay_memory_cgroups_enable(rep))
		cr_skip_test("no memory cgroups here: %s", rep->why);
}

/* Runs "hold-mem HOW MIB" under `limit`; its output (malloc'd) in `*out`. */
static void hold(const struct box *b, bool sandbox, const char *how, const char *mib,
		 long long limit, assay_proc_result *r, char **out)
{
	assay_proc p = ASSAY_PROC_INIT;

	tool(&p, "hold-mem", how, mib, NULL);
	boxed(&p, b, sandbox);
	p.limits.memory_bytes = limit;
	run_ok(&p, r);
	*out = strdup(p.out.ptr ? p.out.ptr : "");
	assay_proc_release(&p);
}

static const char *const hold_ways[] = { "shared", "memfd", "memfd-write" };

/* RLIMIT_DATA let each of these hold 256 MiB under a 64 MiB limit. */
Test(limits, memory_limit_bounds_shared_and_memfd_pages)
{
	alarm(120); /* HANG GUARD (test_util.c) */
	struct box b;
	assay_cgroup_report cg;

	need_cgroups(&cg);
	box_make(&b);
	for (int sandbox = 0; sandbox < 2; sandbox++) {
		for (size_t i = 0; i < 3; i++) {
			assay_proc_result r;
			char *out;

			hold(&b, sandbox, hold_ways[i], "256", 64 * MiB, &r, &out);
			cr_expect(strncmp(out, "held", 4) != 0,
				  "%s (sandbox %d): held 256 MiB under a 64 MiB limit", hold_ways[i],
				  sandbox);
			/* killed by the kernel's OOM killer, or (a write into a memfd) refused */
			if (strcmp(out, "refused\n"))
				cr_expect(r.status == ASSAY_PROC_SIGNALED &&
						  r.term_signal == SIGKILL &&
						  r.limit == ASSAY_LIMIT_MEMORY,
					  "%s (sandbox %d): status %d signal %d limit %d: %s",
					  hold_ways[i], sandbox, r.status, r.term_signal, r.limit, out);
			free(out);
		}
	}
	box_free(&b);
}

/* A memfd's pages are in no process's RSS: max_rss read 1.6 MB for 1.5 GB held. */
Test(figures, max_rss_counts_shared_and_memfd_pages)
{
	alarm(60); /* HANG GUARD (test_util.c) */
	struct box b;
	assay_cgroup_report cg;

	need_cgroups(&cg);
	box_make(&b);
	for (size_t i = 0; i < 3; i++) {
		assay_proc_result r;
		char *out;

		hold(&b, true, hold_ways[i], "200", 1024 * MiB, &r, &out);
		cr_expect_str_eq(out, "held 200\n", "%s", hold_ways[i]);
		cr_expect_geq(r.max_rss, 200 * MiB, "%s: max_rss %lld", hold_ways[i], r.max_rss);
		cr_expect_eq(r.limit, ASSAY_LIMIT_NONE);
		free(out);
	}
	box_free(&b);
}

/* How many assay-PID-* entries `dir` holds. */
static int count_cgroups(const char *dir, long pid)
{
	char prefix[64];
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	snprintf(prefix, sizeof(prefix), "assay-%ld-", pid);
	while (d && (de = readdir(d)))
		n += !strncmp(de->d_name, prefix, strlen(prefix));
	if (d)
		closedir(d);
	return n;
}

Test(limits, cgroups_are_removed_and_a_dead_owners_are_swept)
{
	alarm(60); /* HANG GUARD (test_util.c) */
	struct box b;
	assay_proc_result r;
	assay_cgroup_report cg;
	char *fake, *live, *procs, *out, num[32];
	pid_t dead, orphan;
	FILE *f;
	int st = 0, swept;
	bool moved;

	need_cgroups(&cg);
	/* a cgroup left by an assay killed mid-case (its pid is gone), with a process still in it;
	 * and one whose owner (this process) is alive */
	dead = fork();
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	fake = assay_xasprintf("%s/assay-%ld-12345-0", cg.base, (long)dead);
	live = assay_xasprintf("%s/assay-%ld-%llu-999", cg.base, (long)getpid(),
			       assay_proc__start_time((long)getpid()));
	cr_assert_eq(mkdir(fake, 0755), 0, "%s: %s", fake, strerror(errno));
	if (mkdir(live, 0755)) {
		rmdir(fake);
		cr_assert_fail("%s: %s", live, strerror(errno));
	}
	orphan = fork();
	if (orphan == 0) {
		pause();
		_exit(0);
	}
	snprintf(num, sizeof(num), "%ld", (long)orphan);
	procs = assay_path_join(fake, "cgroup.procs");
	f = fopen(procs, "w");
	moved = f && fputs(num, f) >= 0;
	moved = f && !fclose(f) && moved;
	cr_expect(moved, "%s: %s", procs, strerror(errno));
	free(procs);
	swept = assay_memory_cgroups_sweep();
	cr_expect_eq(swept, 1);
	cr_expect(!assay_fs_exists(fake), "the dead owner's cgroup is still there");
	cr_expect(assay_fs_exists(live), "a live owner's cgroup was removed");
	if (!swept)
		kill(orphan, SIGKILL); /* clean up whatever the outcome */
	cr_expect_eq(waitpid(orphan, &st, 0), orphan);
	cr_expect(swept && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
		  "what was left in it lives");
	rmdir(fake);
	rmdir(live);
	free(fake);
	free(live);
	/* the cases' own cgroups go with them, an OOM-killed one's too */
	box_make(&b);
	hold(&b, true, "shared", "300", 64 * MiB, &r, &out);
	cr_expect_eq(r.limit, ASSAY_LIMIT_MEMORY, "%s", out);
	free(out);
	hold(&b, false, "shared", "8", 64 * MiB, &r, &out);
	free(out);
	cr_expect_eq(count_cgroups(cg.base, (long)getpid()), 0, "a case's cgroup was left behind");
	box_free(&b);
}

/* Not enabled by the caller (or not available): RLIMIT_DATA as before, the guess as before. */
Test(limits, without_cgroups_the_data_limit_holds)
{
	alarm(60); /* HANG GUARD (test_util.c) */
	struct box b;
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	char why[256];

	if (access("/usr/bin/awk", X_OK))
		cr_skip_test("no /usr/bin/awk");
	cr_assert(!assay_memory_cgroups(why, sizeof(why)));
	cr_expect(strstr(why, "enable") != NULL, "%s", why);
	box_make(&b);
	assay_strvec_push(&p.argv, "/usr/bin/awk");
	assay_strvec_push(&p.argv, "BEGIN { s = \"x\"; while (length(s) < 200000000) "
				   "s = s s; print length(s) }");
	boxed(&p, &b, true);
	p.limits.memory_bytes = 64 * MiB;
	run_ok(&p, &r);
	cr_expect(r.status != ASSAY_PROC_EXITED || r.exit_code != 0, "awk succeeded: %s",
		  p.out.ptr);
	cr_expect_eq(r.limit, ASSAY_LIMIT_MEMORY, "limit %d, max_rss %lld", r.limit, r.max_rss);
	assay_proc_release(&p);
	box_free(&b);
}
