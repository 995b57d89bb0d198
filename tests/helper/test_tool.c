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

#include "tool.h"
#include "../../src/lib/util/banned.h"

static int usage(void)
{
	fputs("usage: assay-test-tool <command> [args]\n"
	      "  exit-with N          exit with status N\n"
	      "  kill-self SIG        die of signal SIG (name like SEGV or a number)\n"
	      "  ignore-term SECONDS  ignore SIGTERM and sleep\n"
	      "  spawn-grandchild [--ignore-term] [--parent-ignore-term] [--setsid]\n"
	      "                   [--close-stdio] [--wait] SECONDS\n"
	      "                       fork a grandchild that sleeps SECONDS, print its pid (as\n"
	      "                       /proc sees it: outside a PID namespace);\n"
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
	      "  check-signals        print the signals ignored or blocked, or \"none\"\n"
	      "attacks (exit 0: it worked; non-zero: refused):\n"
	      "  write-file PATH      create PATH holding \"canary\"\n"
	      "  read-file PATH       print the start of PATH\n"
	      "  connect PORT         TCP connect to 127.0.0.1:PORT\n"
	      "  udp PORT             send a UDP datagram to 127.0.0.1:PORT\n"
	      "  signal PID SIG       send SIG to PID\n"
	      "  touch-mem MIB        allocate and touch MIB mebibytes (exit 3 when out)\n"
	      "  spin                 burn CPU forever\n"
	      "  write-big PATH BYTES write BYTES to PATH\n"
	      "  burn-grandchild SECONDS\n"
	      "                       an orphaned grandchild burns SECONDS of CPU; wait for it\n"
	      "  fork-until-fail MAX  fork sleeping children until fork fails or MAX; print count\n"
	      "  fork-bomb MARKER     every process forks for ever; the first never ends\n"
	      "  forge-report STOPPID write a fake supervisor report into every writable fd of\n"
	      "                       this process and its ancestors below STOPPID; exit 42\n"
	      "  ptrace-parent        attach to the parent process with ptrace (and detach)\n"
	      "  grab-report-pipes SECONDS PARENT\n"
	      "                       for SECONDS, open (not write) fd 3, a pipe, of every new\n"
	      "                       child of PARENT (or grandparent: its own) it can:\n"
	      "                       \"opened N\", exit 0 if N > 0\n"
	      "  whoami               print uid, euid and effective capabilities\n"
	      "  forge-results ID     append a passing report of case ID to every reports.jsonl\n"
	      "                       or assay.db open in any process; print forged/blocked\n"
	      "  listen PORTFILE SECONDS\n"
	      "                       accept TCP on 127.0.0.1 (port into PORTFILE, a line per\n"
	      "                       connection into PORTFILE.log) for SECONDS\n"
	      "  tcp-server OWN OTHER try to serve on port OWN, bind another, connect to OTHER,\n"
	      "                       make a UDP socket, Fast Open to OTHER (exit: bit mask)\n"
	      "  connect-unix NAME    connect to a unix stream socket (@NAME: abstract)\n"
	      "  dgram-pair-send NAME send a datagram to NAME from a SOCK_DGRAM socketpair\n"
	      "  stream-pair          pass a byte through a SOCK_STREAM socketpair\n"
	      "  read-key DESC        print the user key DESC of the session keyring\n"
	      "  tty PATH             open /dev/tty and PATH, write a line to PATH\n"
	      "  burn-ignored-child SECONDS\n"
	      "                       with SIGCHLD ignored, a child burns SECONDS of CPU\n"
	      "  new-namespace HOW    make a namespace (unshare-user, unshare-all, clone-user,\n"
	      "                       clone3-user, setns-uts): \"made\" or \"errno N\"\n"
	      "  hold-mem HOW MIB     hold MIB MiB (shared, memfd, memfd-write): \"held N\"\n"
	      "  mq-leave NAME        make a POSIX message queue NAME with a message, and exit\n"
	      "  mq-read NAME         print the message in queue NAME, or none\n"
	      "  show-inherited       print the file size and descriptor limits, nice, CPU count,\n"
	      "                       scheduling policy and I/O priority this process inherited\n"
	      "  poison-parent NOFILE set on the parent: file size limit 0, descriptor limit\n"
	      "                       NOFILE, nice 19, one CPU, SCHED_IDLE, idle I/O class\n",
	      stderr);
	return 2;
}

static const char pattern[] =
	"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-\n";

double parse_seconds(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || v < 0) {
		fprintf(stderr, "assay-test-tool: bad seconds '%s'\n", s);
		exit(2);
	}
	return v;
}

long long parse_count(const char *s)
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

void sleep_s(double s)
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

int parse_signal(const char *s)
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
	char seen[32];
	ssize_t got;
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
		/* The pid as /proc sees it: outside the sandbox's PID namespace, where the test is. */
		char self[32];
		ssize_t n = readlink("/proc/self", self, sizeof(self) - 1);
		if (n <= 0)
			n = snprintf(self, sizeof(self), "%ld", (long)getpid());
		if (write(ready[1], self, (size_t)n) != n)
			_exit(1);
		close(ready[1]);
		sleep_s(secs);
		_exit(0);
	}
	close(ready[1]);
	while ((got = read(ready[0], seen, sizeof(seen) - 1)) < 0 && errno == EINTR)
		;
	close(ready[0]);
	seen[got > 0 ? got : 0] = '\0';
	printf("%s\n", got > 0 ? seen : "0");
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
	if (strcmp(cmd, "write-file") == 0 && nargs == 1)
		return cmd_write_file(argv[2]);
	if (strcmp(cmd, "read-file") == 0 && nargs == 1)
		return cmd_read_file(argv[2]);
	if (strcmp(cmd, "connect") == 0 && nargs == 1)
		return cmd_connect(argv[2]);
	if (strcmp(cmd, "udp") == 0 && nargs == 1)
		return cmd_udp(argv[2]);
	if (strcmp(cmd, "signal") == 0 && nargs == 2)
		return cmd_signal(argv[2], argv[3]);
	if (strcmp(cmd, "touch-mem") == 0 && nargs == 1)
		return cmd_touch_mem(argv[2]);
	if (strcmp(cmd, "spin") == 0 && nargs == 0)
		return cmd_spin();
	if (strcmp(cmd, "write-big") == 0 && nargs == 2)
		return cmd_write_big(argv[2], argv[3]);
	if (strcmp(cmd, "burn-grandchild") == 0 && nargs == 1)
		return cmd_burn_grandchild(argv[2]);
	if (strcmp(cmd, "fork-until-fail") == 0 && nargs == 1)
		return cmd_fork_until_fail(argv[2]);
	if (strcmp(cmd, "fork-bomb") == 0 && nargs == 1)
		return cmd_fork_bomb(argv[2]);
	if (strcmp(cmd, "forge-report") == 0 && nargs == 1)
		return cmd_forge_report(argv[2]);
	if (strcmp(cmd, "grab-report-pipes") == 0 && nargs == 2)
		return cmd_grab_report_pipes(argv[2], argv[3]);
	if (strcmp(cmd, "ptrace-parent") == 0 && nargs == 0)
		return cmd_ptrace_parent();
	if (strcmp(cmd, "whoami") == 0 && nargs == 0)
		return cmd_whoami();
	if (strcmp(cmd, "forge-results") == 0 && nargs == 1)
		return cmd_forge_results(argv[2]);
	if (strcmp(cmd, "listen") == 0 && nargs == 2)
		return cmd_listen(argv[2], argv[3]);
	if (strcmp(cmd, "tcp-server") == 0 && nargs == 2)
		return cmd_tcp_server(argv[2], argv[3]);
	if (strcmp(cmd, "connect-unix") == 0 && nargs == 1)
		return cmd_connect_unix(argv[2]);
	if (strcmp(cmd, "dgram-pair-send") == 0 && nargs == 1)
		return cmd_dgram_pair_send(argv[2]);
	if (strcmp(cmd, "stream-pair") == 0 && nargs == 0)
		return cmd_stream_pair();
	if (strcmp(cmd, "read-key") == 0 && nargs == 1)
		return cmd_read_key(argv[2]);
	if (strcmp(cmd, "tty") == 0 && nargs == 1)
		return cmd_tty(argv[2]);
	if (strcmp(cmd, "burn-ignored-child") == 0 && nargs == 1)
		return cmd_burn_ignored_child(argv[2]);
	if (strcmp(cmd, "new-namespace") == 0 && nargs == 1)
		return cmd_new_namespace(argv[2]);
	if (strcmp(cmd, "hold-mem") == 0 && nargs == 2)
		return cmd_hold_mem(argv[2], argv[3]);
	if (strcmp(cmd, "shm-leave") == 0 && nargs == 1)
		return cmd_shm_leave(argv[2]);
	if (strcmp(cmd, "mq-leave") == 0 && nargs == 1)
		return cmd_mq_leave(argv[2]);
	if (strcmp(cmd, "mq-read") == 0 && nargs == 1)
		return cmd_mq_read(argv[2]);
	if (strcmp(cmd, "show-inherited") == 0 && nargs == 0)
		return cmd_show_inherited();
	if (strcmp(cmd, "poison-parent") == 0 && nargs == 1)
		return cmd_poison_parent(argv[2]);
	return usage();
}
