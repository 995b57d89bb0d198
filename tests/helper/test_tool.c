/*
 * assay-test-tool: children that misbehave on purpose, for the unit and CLI tests (git's
 * t/helper/test-tool). One subcommand per behaviour; see usage() for the list.
 *
 * Key decisions: plain C and libc only (it is built standalone, without libassay); output is
 * flushed before any exit or sleep so a test reading it never waits on stdio buffering;
 * spawn-grandchild reports the grandchild's pid only once the grandchild has finished its setup
 * (signal disposition, setsid), so a test never races it.
 *
 * Refuses to: do anything a test did not ask for; it has no configuration and reads no files
 * except /proc/self/fd (check-fds).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../src/lib/util/banned.h"

static int usage(void)
{
	fputs("usage: assay-test-tool <command> [args]\n"
	      "  exit-with N          exit with status N\n"
	      "  kill-self SIG        die of signal SIG (name like SEGV or a number)\n"
	      "  ignore-term SECONDS  ignore SIGTERM and sleep\n"
	      "  spawn-grandchild [--ignore-term] [--parent-ignore-term] [--setsid]\n"
	      "                   [--close-stdio] [--wait] SECONDS\n"
	      "                       fork a grandchild that sleeps SECONDS, print its pid;\n"
	      "                       --ignore-term: it ignores SIGTERM; --setsid: it leaves the\n"
	      "                       process group; --close-stdio: it points 0-2 at /dev/null;\n"
	      "                       --parent-ignore-term: this process ignores SIGTERM;\n"
	      "                       --wait: wait for the grandchild instead of exiting at once\n"
	      "  spew BYTES [stdout|stderr|both]\n"
	      "                       write BYTES of a 64-byte line pattern\n"
	      "  cat                  copy stdin to stdout\n"
	      "  count-stdin          print how many bytes stdin held\n"
	      "  env NAME             print the value of NAME or <unset>\n"
	      "  pwd                  print the working folder\n"
	      "  sleep SECONDS        sleep\n"
	      "  check-fds            print the open descriptors above 2, or \"none\"\n"
	      "  check-signals        print the signals ignored or blocked, or \"none\"\n",
	      stderr);
	return 2;
}

static const char pattern[] =
	"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-\n";

static double parse_seconds(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || v < 0) {
		fprintf(stderr, "assay-test-tool: bad seconds '%s'\n", s);
		exit(2);
	}
	return v;
}

static long long parse_count(const char *s)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end || errno || v < 0) {
		fprintf(stderr, "assay-test-tool: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

static void sleep_s(double s)
{
	struct timespec ts;

	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void set_signal(int sig, void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static int parse_signal(const char *s)
{
	static const struct {
		const char *name;
		int sig;
	} names[] = {
		{ "HUP", SIGHUP },   { "INT", SIGINT },   { "QUIT", SIGQUIT }, { "ABRT", SIGABRT },
		{ "KILL", SIGKILL }, { "SEGV", SIGSEGV }, { "PIPE", SIGPIPE }, { "TERM", SIGTERM },
		{ "USR1", SIGUSR1 }, { "USR2", SIGUSR2 }, { "BUS", SIGBUS },   { "FPE", SIGFPE },
	};

	if (strncmp(s, "SIG", 3) == 0)
		s += 3;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i].name) == 0)
			return names[i].sig;
	return (int)parse_count(s);
}

static int cmd_kill_self(const char *name)
{
	int sig = parse_signal(name);
	struct rlimit no_core = { 0, 0 };
	sigset_t set;

	setrlimit(RLIMIT_CORE, &no_core);
	/* Sanitizer runtimes catch SEGV and friends; the test wants the plain default action. */
	set_signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	kill(getpid(), sig);
	fprintf(stderr, "assay-test-tool: still alive after signal %d\n", sig);
	return 125;
}

static int cmd_spawn_grandchild(int argc, char **argv)
{
	int ignore = 0, parent_ignore = 0, new_session = 0, close_stdio = 0, wait_for = 0;
	int ready[2];
	double secs;
	pid_t pid;
	char c;
	int i;

	for (i = 0; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
		if (strcmp(argv[i], "--ignore-term") == 0)
			ignore = 1;
		else if (strcmp(argv[i], "--parent-ignore-term") == 0)
			parent_ignore = 1;
		else if (strcmp(argv[i], "--setsid") == 0)
			new_session = 1;
		else if (strcmp(argv[i], "--close-stdio") == 0)
			close_stdio = 1;
		else if (strcmp(argv[i], "--wait") == 0)
			wait_for = 1;
		else
			return usage();
	}
	if (i + 1 != argc)
		return usage();
	secs = parse_seconds(argv[i]);
	if (parent_ignore)
		set_signal(SIGTERM, SIG_IGN);
	if (pipe(ready))
		return 1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		close(ready[0]);
		set_signal(SIGTERM, ignore ? SIG_IGN : SIG_DFL);
		if (new_session && setsid() < 0)
			_exit(1);
		if (close_stdio) {
			int fd = open("/dev/null", O_RDWR);
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		close(ready[1]);
		sleep_s(secs);
		_exit(0);
	}
	close(ready[1]);
	while (read(ready[0], &c, 1) < 0 && errno == EINTR)
		;
	close(ready[0]);
	printf("%ld\n", (long)pid);
	fflush(stdout);
	if (wait_for)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	return 0;
}

static int cmd_spew(long long bytes, const char *where)
{
	char chunk[65536];
	int to_out = 1, to_err = 0;
	long long off = 0;

	if (strcmp(where, "stderr") == 0) {
		to_out = 0;
		to_err = 1;
	} else if (strcmp(where, "both") == 0) {
		to_err = 1;
	} else if (strcmp(where, "stdout") != 0) {
		return usage();
	}
	/* 65536 is a multiple of the pattern's 64 bytes: every chunk starts the pattern afresh. */
	for (size_t i = 0; i < sizeof(chunk); i++)
		chunk[i] = pattern[i % 64];
	while (off < bytes) {
		size_t n = bytes - off < (long long)sizeof(chunk) ? (size_t)(bytes - off)
								   : sizeof(chunk);
		if (to_out && write_all(1, chunk, n))
			return 1;
		if (to_err && write_all(2, chunk, n))
			return 1;
		off += (long long)n;
	}
	return 0;
}

static int cmd_cat(void)
{
	char buf[65536];

	for (;;) {
		ssize_t n = read(0, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return 1;
		if (n == 0)
			return 0;
		if (write_all(1, buf, (size_t)n))
			return 1;
	}
}

static int cmd_count_stdin(void)
{
	char buf[65536];
	long long total = 0;

	for (;;) {
		ssize_t n = read(0, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return 1;
		if (n == 0)
			break;
		total += n;
	}
	printf("%lld\n", total);
	return 0;
}

static int cmd_check_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int self, found = 0;

	if (!d)
		return 1;
	self = dirfd(d);
	while ((de = readdir(d))) {
		char *end;
		long fd = strtol(de->d_name, &end, 10);

		if (end == de->d_name || *end || fd <= 2 || fd == self)
			continue;
		printf("%s%ld", found ? " " : "", fd);
		found = 1;
	}
	closedir(d);
	puts(found ? "" : "none");
	return 0;
}

static int cmd_check_signals(void)
{
	sigset_t blocked;
	int found = 0;

	sigprocmask(SIG_BLOCK, NULL, &blocked);
	for (int sig = 1; sig < SIGRTMIN; sig++) {
		struct sigaction sa;
		int ignored = sigaction(sig, NULL, &sa) == 0 && !(sa.sa_flags & SA_SIGINFO) &&
			      sa.sa_handler == SIG_IGN;
		int is_blocked = sigismember(&blocked, sig) == 1;

		if (!ignored && !is_blocked)
			continue;
		printf("%s%d%s", found ? " " : "", sig, ignored ? "i" : "b");
		found = 1;
	}
	puts(found ? "" : "none");
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	int nargs = argc - 2;

	if (strcmp(cmd, "exit-with") == 0 && nargs == 1)
		return (int)parse_count(argv[2]);
	if (strcmp(cmd, "kill-self") == 0 && nargs == 1)
		return cmd_kill_self(argv[2]);
	if (strcmp(cmd, "ignore-term") == 0 && nargs == 1) {
		set_signal(SIGTERM, SIG_IGN);
		sleep_s(parse_seconds(argv[2]));
		return 0;
	}
	if (strcmp(cmd, "spawn-grandchild") == 0 && nargs >= 1)
		return cmd_spawn_grandchild(nargs, argv + 2);
	if (strcmp(cmd, "spew") == 0 && (nargs == 1 || nargs == 2))
		return cmd_spew(parse_count(argv[2]), nargs == 2 ? argv[3] : "stdout");
	if (strcmp(cmd, "cat") == 0 && nargs == 0)
		return cmd_cat();
	if (strcmp(cmd, "count-stdin") == 0 && nargs == 0)
		return cmd_count_stdin();
	if (strcmp(cmd, "env") == 0 && nargs == 1) {
		const char *v = getenv(argv[2]);
		puts(v ? v : "<unset>");
		return 0;
	}
	if (strcmp(cmd, "pwd") == 0 && nargs == 0) {
		char buf[PATH_MAX];
		if (!getcwd(buf, sizeof(buf)))
			return 1;
		puts(buf);
		return 0;
	}
	if (strcmp(cmd, "sleep") == 0 && nargs == 1) {
		sleep_s(parse_seconds(argv[2]));
		return 0;
	}
	if (strcmp(cmd, "check-fds") == 0 && nargs == 0)
		return cmd_check_fds();
	if (strcmp(cmd, "check-signals") == 0 && nargs == 0)
		return cmd_check_signals();
	return usage();
}
