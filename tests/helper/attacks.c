/*
 * assay-test-tool's attacks: what a hostile submission tries against the sandbox (proc.h,
 * docs/security.md). Each prints what happened and exits 0 when the attack worked, non-zero
 * when it was refused, so a test can assert both ways.
 *
 * Key decisions: the attacks that touch other processes take the pid of the test process and
 * never go past it or touch pid 1, so that a sandbox that fails cannot harm the machine or the
 * test runner; the report forger writes a well-formed report (right magic, exit 0), the most
 * convincing forgery there is.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <mqueue.h>
#include <sys/shm.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../src/lib/proc/init/protocol.h"
#include "tool.h"
#include "../../src/lib/util/banned.h"

int cmd_write_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || write(fd, "canary\n", 7) != 7) {
		printf("denied: %s\n", strerror(errno));
		return 1;
	}
	close(fd);
	puts("written");
	return 0;
}

int cmd_read_file(const char *path)
{
	char buf[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0 || (n = read(fd, buf, sizeof(buf))) < 0) {
		printf("denied: %s\n", strerror(errno));
		return 1;
	}
	close(fd);
	fwrite(buf, 1, (size_t)n, stdout);
	return 0;
}

static struct sockaddr_in loopback(const char *port)
{
	struct sockaddr_in a;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)parse_count(port));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

int cmd_connect(const char *port)
{
	struct sockaddr_in a = loopback(port);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		printf("socket: %s\n", strerror(errno));
		return 1;
	}
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		printf("connect: %s\n", strerror(errno));
		return 2;
	}
	puts("connected");
	return 0;
}

int cmd_udp(const char *port)
{
	struct sockaddr_in a = loopback(port);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		printf("socket: %s\n", strerror(errno));
		return 1;
	}
	if (sendto(fd, "x", 1, 0, (struct sockaddr *)&a, sizeof(a)) != 1) {
		printf("sendto: %s\n", strerror(errno));
		return 2;
	}
	puts("sent");
	return 0;
}

int cmd_signal(const char *pid, const char *sig)
{
	if (kill((pid_t)parse_count(pid), parse_signal(sig))) {
		printf("denied: %s\n", strerror(errno));
		return 1;
	}
	puts("sent");
	return 0;
}

int cmd_touch_mem(const char *mib)
{
	long long want = parse_count(mib), i;
	char **chunks = calloc((size_t)want + 1, sizeof(*chunks));
	int rc = 0;

	for (i = 0; chunks && i < want; i++) {
		if (!(chunks[i] = malloc(1 << 20))) {
			rc = 3;
			break;
		}
		memset(chunks[i], (int)(i & 0xff) | 1, 1 << 20);
	}
	if (rc || !chunks)
		printf("out of memory at %lld MiB\n", i);
	else
		printf("touched %lld MiB\n", want);
	for (long long j = 0; chunks && j < i; j++)
		free(chunks[j]);
	free(chunks);
	return chunks ? rc : 3;
}

int cmd_spin(void)
{
	volatile unsigned long n = 0;

	for (;;)
		n++;
}

int cmd_write_big(const char *path, const char *bytes)
{
	static char chunk[65536];
	long long left = parse_count(bytes);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0) {
		printf("open: %s\n", strerror(errno));
		return 1;
	}
	while (left > 0) {
		size_t n = left < (long long)sizeof(chunk) ? (size_t)left : sizeof(chunk);

		if (write(fd, chunk, n) != (ssize_t)n) {
			printf("write: %s\n", strerror(errno));
			return 1;
		}
		left -= (long long)n;
	}
	puts("written");
	return 0;
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A grandchild, orphaned at once, burns `secs` of its own CPU; the program waits for it. */
int cmd_burn_grandchild(const char *secs)
{
	double want = parse_seconds(secs);
	int done[2];
	pid_t child;
	char c;

	if (pipe(done))
		return 1;
	fflush(NULL);
	child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		if (fork() == 0) {
			volatile unsigned long n = 0;

			close(done[0]);
			while (cpu_now() < want)
				n++;
			if (write(done[1], "d", 1) != 1)
				_exit(1);
			_exit(0);
		}
		_exit(0); /* the grandchild is now an orphan */
	}
	close(done[1]);
	waitpid(child, NULL, 0);
	while (read(done[0], &c, 1) < 0 && errno == EINTR)
		;
	puts("burnt");
	return 0;
}

/*
 * Forks sleeping children until fork fails or `max` exist; prints how many it made. Exits with
 * _exit: at the process limit a sanitizer's exit-time leak check cannot start its thread.
 */
int cmd_fork_until_fail(const char *max)
{
	long long want = parse_count(max), made = 0;

	fflush(NULL);
	while (made < want) {
		pid_t pid = fork();

		if (pid < 0) {
			printf("%lld %s\n", made, strerror(errno));
			fflush(stdout);
			_exit(1);
		}
		if (pid == 0) {
			sleep_s(60);
			_exit(0);
		}
		made++;
	}
	printf("%lld\n", made);
	fflush(stdout);
	_exit(0);
}

/* Every process forks for ever, ignoring failures; the first never ends. `marker` is unused
 * but shows in every command line, so that a test can look for survivors. */
int cmd_fork_bomb(const char *marker)
{
	(void)marker;
	fflush(NULL);
	for (;;)
		if (fork() < 0)
			sleep_s(0.01);
}

/* The parent of `pid` as /proc sees it (outside any PID namespace of ours), or 0. */
static pid_t proc_parent(pid_t pid)
{
	char path[64], line[256];
	FILE *f;
	long pp = 0;

	snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
	if (!(f = fopen(path, "re")))
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "PPid: %ld", &pp) == 1)
			break;
	fclose(f);
	return (pid_t)pp;
}

static pid_t proc_self(void)
{
	char buf[64];
	ssize_t n = readlink("/proc/self", buf, sizeof(buf) - 1);

	if (n <= 0)
		return getpid();
	buf[n] = '\0';
	return (pid_t)strtol(buf, NULL, 10);
}

/*
 * Writes a well-formed report claiming "exit 0" into every descriptor it can open for writing:
 * its own above 2, and those of each ancestor up to (not including) `stop`, the test process.
 * Prints how many it reached and exits 42.
 */
int cmd_forge_report(const char *stop)
{
	struct assay_init_report fake;
	pid_t stop_pid = (pid_t)parse_count(stop), pid;
	int reached = 0;

	memset(&fake, 0, sizeof(fake));
	fake.magic = ASSAY_INIT_MAGIC;
	fake.size = sizeof(fake);
	fake.processes = -1;
	for (int fd = 3; fd < 1024; fd++)
		if (write(fd, &fake, sizeof(fake)) == (ssize_t)sizeof(fake))
			reached++;
	for (pid = proc_parent(proc_self()); pid > 1 && pid != stop_pid; pid = proc_parent(pid)) {
		char dir[64];
		DIR *d;
		struct dirent *de;

		snprintf(dir, sizeof(dir), "/proc/%ld/fd", (long)pid);
		if (!(d = opendir(dir)))
			continue;
		while ((de = readdir(d))) {
			char path[320];
			int fd;

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
			if (fd < 0)
				continue;
			if (write(fd, &fake, sizeof(fake)) == (ssize_t)sizeof(fake))
				reached++;
			close(fd);
		}
		closedir(d);
	}
	printf("forged %d\n", reached);
	return 42;
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The pid the kernel gave last in this PID namespace, or -1. */
static long last_pid(void)
{
	char buf[32] = { 0 };
	int fd = open("/proc/sys/kernel/ns_last_pid", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	return n > 0 ? strtol(buf, NULL, 10) : -1;
}

/* The parent of process `pid` (the PPid line of its status), or -1. */
static long parent_of(long pid)
{
	char path[64], line[128];
	long ppid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/status", pid);
	if (!(f = fopen(path, "re")))
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "PPid: %ld", &ppid) == 1)
			break;
	fclose(f);
	return ppid;
}

/*
 * For `seconds`, watches the newest processes (the pids around the last one given) for a case
 * supervisor, a child of `parent` (a pid, or "grandparent": its own parent's parent, assay
 * for a case on a supervisor of its own), whose report pipe (fd 3) it can open for writing: the
 * window between a supervisor's exec and its PR_SET_DUMPABLE, in which a process of the same
 * user could write it a forged report. Writes nothing into what it opens (the test goes on).
 * Prints "opened N" and exits 0 if N > 0, else 1.
 */
int cmd_grab_report_pipes(const char *seconds, const char *parent)
{
	double limit = parse_seconds(seconds), t0 = mono_now();
	long self = (long)getpid();
	long want = strcmp(parent, "grandparent") ? (long)parse_count(parent)
						  : parent_of((long)getppid());
	int opened = 0;

	while (mono_now() - t0 < limit) {
		long last = last_pid();

		for (long pid = last - 3; last > 0 && pid <= last + 3; pid++) {
			char path[64], link[64] = { 0 };
			int fd;

			if (pid <= 1 || pid == self)
				continue;
			snprintf(path, sizeof(path), "/proc/%ld/fd/3", pid);
			if ((fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
				continue;
			if (readlink(path, link, sizeof(link) - 1) < 0)
				link[0] = '\0';
			if (!strncmp(link, "pipe:", 5) && parent_of(pid) == want)
				opened++;
			close(fd);
		}
	}
	printf("opened %d\n", opened);
	return opened ? 0 : 1;
}

/* Attaches to its parent (the supervisor) with ptrace, and lets go at once. */
int cmd_ptrace_parent(void)
{
	pid_t parent = getppid();

	if (ptrace(PTRACE_SEIZE, parent, NULL, NULL)) {
		printf("denied: %s\n", strerror(errno));
		return 1;
	}
	ptrace(PTRACE_DETACH, parent, NULL, NULL);
	puts("attached");
	return 0;
}

/* Prints "uid euid caps": the real and effective uid and the effective capabilities (hex). */
int cmd_whoami(void)
{
	char line[256];
	unsigned long long caps = ~0ull;
	FILE *f = fopen("/proc/self/status", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	if (f)
		fclose(f);
	printf("%ld %ld %llx\n", (long)getuid(), (long)geteuid(), caps);
	return 0;
}

/*
 * The forger of issue #5: looks through every process's open files (/proc/PID/fd) for assay's
 * results (reports.jsonl, assay.db) and appends a well-formed passing report for case `id` to
 * each it can open. Prints "forged" if any write went through, else "blocked".
 */
int cmd_forge_results(const char *id)
{
	DIR *procs = opendir("/proc");
	struct dirent *p;
	char line[512];
	int n = snprintf(line, sizeof(line),
			 "{\"id\": \"%s\", \"group\": \"attacks\", \"checkpoint\": \"checkpoint_1\", "
			 "\"results\": {}, \"score\": 1.0, \"passed\": true}\n", id);
	bool forged = false;

	while (procs && (p = readdir(procs))) {
		char fddir[300];
		DIR *fds;
		struct dirent *f;

		if (p->d_name[0] < '0' || p->d_name[0] > '9')
			continue;
		snprintf(fddir, sizeof(fddir), "/proc/%s/fd", p->d_name);
		if (!(fds = opendir(fddir)))
			continue;
		while ((f = readdir(fds))) {
			char link[600], target[4096];
			ssize_t len;
			int fd;

			snprintf(link, sizeof(link), "%s/%s", fddir, f->d_name);
			if ((len = readlink(link, target, sizeof(target) - 1)) <= 0)
				continue;
			target[len] = '\0';
			if (!strstr(target, "reports.jsonl") && !strstr(target, "assay.db"))
				continue;
			fd = open(link, O_WRONLY | O_APPEND | O_CLOEXEC);
			if (fd < 0)
				fd = open(target, O_WRONLY | O_APPEND | O_CLOEXEC);
			if (fd >= 0 && write(fd, line, (size_t)n) == n)
				forged = true;
			if (fd >= 0)
				close(fd);
		}
		closedir(fds);
	}
	if (procs)
		closedir(procs);
	puts(forged ? "forged" : "blocked");
	return forged ? 0 : 1;
}

/*
 * A loopback TCP listener for the network attacks: binds 127.0.0.1 on any port, writes the
 * port to `portfile`, and for `seconds` accepts connections, appending "connected" to
 * `portfile`.log for each. Runs in the foreground (the test backgrounds it).
 */
int cmd_listen(const char *portfile, const char *seconds)
{
	struct sockaddr_in a;
	socklen_t alen = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	time_t end = time(NULL) + (time_t)parse_count(seconds);
	char log[4096];
	FILE *f;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 16) ||
	    getsockname(fd, (struct sockaddr *)&a, &alen))
		return 1;
	if (!(f = fopen(portfile, "w")))
		return 1;
	fprintf(f, "%d\n", ntohs(a.sin_port));
	fclose(f);
	snprintf(log, sizeof(log), "%s.log", portfile);
	while (time(NULL) < end) {
		struct timeval tv = { 1, 0 };
		fd_set r;
		int c;

		FD_ZERO(&r);
		FD_SET(fd, &r);
		if (select(fd + 1, &r, NULL, NULL, &tv) <= 0)
			continue;
		if ((c = accept(fd, NULL, NULL)) < 0)
			continue;
		if ((f = fopen(log, "a"))) {
			fputs("connected\n", f);
			fclose(f);
		}
		close(c);
	}
	close(fd);
	return 0;
}

/*
 * What an api server confined to its own port (assay_sandbox.tcp_port) can do: bind and listen
 * on `own`, bind any other port, connect to `other` (a port the test listens on), make a UDP
 * socket, and connect to `other` through TCP Fast Open (sendto with MSG_FASTOPEN, where
 * connect(2)'s checks are not made). Prints one line per try; the exit status has bit 0 set
 * when its own port was bound, and bits 1-4 for each other thing that worked.
 */
int cmd_tcp_server(const char *own, const char *other)
{
	struct sockaddr_in me = loopback(own), them = loopback(other), any = loopback("0");
	int code = 0, fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&me, sizeof(me)) && !listen(fd, 4)) {
		puts("own port: bound");
		code |= 1;
	} else {
		printf("own port: %s\n", strerror(errno));
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&any, sizeof(any))) {
		puts("other port: bound");
		code |= 2;
	} else {
		printf("other port: %s\n", strerror(errno));
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && !connect(fd, (struct sockaddr *)&them, sizeof(them))) {
		puts("connect: connected");
		code |= 4;
	} else {
		printf("connect: %s\n", strerror(errno));
	}
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		puts("udp: socket made");
		code |= 8;
	} else {
		printf("udp: %s\n", strerror(errno));
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && sendto(fd, "x", 1, MSG_FASTOPEN, (struct sockaddr *)&them, sizeof(them)) >= 0) {
		puts("fastopen: connected");
		code |= 16;
	} else {
		printf("fastopen: %s\n", strerror(errno));
	}
	return code;
}

/* Makes a POSIX message queue NAME ("/name") with one message in it and exits without
 * unlinking it. Prints "made" or the error. */
int cmd_mq_leave(const char *name)
{
	mqd_t q = mq_open(name, O_CREAT | O_WRONLY, 0666, NULL);

	if (q == (mqd_t)-1) {
		printf("mq_open: %s\n", strerror(errno));
		return 1;
	}
	if (mq_send(q, "left", 4, 0) < 0) {
		printf("mq_send: %s\n", strerror(errno));
		return 1;
	}
	printf("made\n");
	return 0;
}

/* Reads a message from the POSIX message queue NAME, if there is one: prints it, or "none"
 * when there is no such queue, or the error. */
int cmd_mq_read(const char *name)
{
	mqd_t q = mq_open(name, O_RDONLY | O_NONBLOCK);
	char msg[8192];
	ssize_t n;

	if (q == (mqd_t)-1) {
		printf("%s\n", errno == ENOENT ? "none" : strerror(errno));
		return errno == ENOENT ? 0 : 1;
	}
	n = mq_receive(q, msg, sizeof(msg), NULL);
	printf("%.*s\n", n < 0 ? 0 : (int)n, msg);
	return 0;
}

/* Makes a 1 MiB System V shared memory segment under KEY, writes to it and exits without
 * removing it: a segment in the host's IPC namespace would outlive the case (and count against
 * no one). Prints "made" or the error. */
int cmd_shm_leave(const char *key)
{
	int id = shmget((key_t)strtol(key, NULL, 0), 1 << 20, IPC_CREAT | 0666);
	char *p;

	if (id < 0) {
		printf("shmget: %s\n", strerror(errno));
		return 1;
	}
	p = shmat(id, NULL, 0);
	if (p == (void *)-1) {
		printf("shmat: %s\n", strerror(errno));
		return 1;
	}
	memset(p, 'x', 1 << 20);
	printf("made\n");
	return 0;
}
