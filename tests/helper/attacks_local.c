/*
 * assay-test-tool's attacks on what a machine shares locally, not over the network: unix
 * sockets (by path, abstract, and through a datagram socketpair), the keyrings, terminals, and
 * CPU hidden in children the kernel reaps by itself. Each prints what happened and exits 0
 * when the attack worked, non-zero when it was refused (docs/security.md).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tool.h"
#include "../../src/lib/util/banned.h"

/* `name` starting with '@' is abstract (the '@' becomes the leading NUL). */
static socklen_t unix_addr(struct sockaddr_un *a, const char *name)
{
	size_t len = strlen(name);

	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	if (len >= sizeof(a->sun_path))
		len = sizeof(a->sun_path) - 1;
	memcpy(a->sun_path, name, len);
	if (name[0] == '@')
		a->sun_path[0] = '\0';
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len + (name[0] != '@'));
}

int cmd_connect_unix(const char *name)
{
	struct sockaddr_un a;
	socklen_t alen = unix_addr(&a, name);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		printf("socket: %s\n", strerror(errno));
		return 1;
	}
	if (connect(fd, (struct sockaddr *)&a, alen)) {
		printf("connect: %s\n", strerror(errno));
		return 2;
	}
	puts("connected");
	return 0;
}

int cmd_dgram_pair_send(const char *name)
{
	struct sockaddr_un a;
	socklen_t alen = unix_addr(&a, name);
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv)) {
		printf("socketpair: %s\n", strerror(errno));
		return 1;
	}
	if (sendto(sv[0], "x", 1, 0, (struct sockaddr *)&a, alen) != 1) {
		printf("sendto: %s\n", strerror(errno));
		return 2;
	}
	puts("sent");
	return 0;
}

/* What a program may still do without the network: a stream socketpair carries bytes. */
int cmd_stream_pair(void)
{
	int sv[2];
	char c = 0;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) ||
	    write(sv[0], "y", 1) != 1 || read(sv[1], &c, 1) != 1 || c != 'y') {
		printf("socketpair: %s\n", strerror(errno));
		return 1;
	}
	puts("paired");
	return 0;
}

#define KEY_SPEC_SESSION_KEYRING -3
#define KEYCTL_READ 11
#define KEYCTL_SEARCH 10

/* Finds a "user" key named `desc` in the session keyring and prints its payload. */
int cmd_read_key(const char *desc)
{
	char buf[256];
	long id = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_SESSION_KEYRING, "user", desc, 0);
	long n;

	if (id < 0) {
		printf("search: %s\n", strerror(errno));
		return 1;
	}
	n = syscall(SYS_keyctl, KEYCTL_READ, id, buf, sizeof(buf) - 1);
	if (n < 0) {
		printf("read: %s\n", strerror(errno));
		return 2;
	}
	buf[n < (long)sizeof(buf) - 1 ? n : (long)sizeof(buf) - 1] = '\0';
	printf("key: %s\n", buf);
	return 0;
}

/*
 * Opens `path` (a terminal) for reading and writing and writes a line to it; prints whether
 * it worked. Exit 0: it did. Also says whether this process has a controlling terminal:
 * opening /dev/tty gives ENXIO without one.
 */
int cmd_tty(const char *path)
{
	int fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY);

	printf("/dev/tty: %s\n", fd >= 0 ? "opened" : strerror(errno));
	if (fd >= 0)
		close(fd);
	fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		printf("%s: %s\n", path, strerror(errno));
		return 1;
	}
	if (write(fd, "injected\n", 9) != 9) {
		printf("write: %s\n", strerror(errno));
		return 2;
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

/* With SIGCHLD ignored, a child burns `secs` of CPU and is reaped by the kernel, unwaited. */
int cmd_burn_ignored_child(const char *secs)
{
	double want = parse_seconds(secs);
	int done[2];
	char c;

	signal(SIGCHLD, SIG_IGN);
	if (pipe(done))
		return 1;
	fflush(NULL);
	if (fork() == 0) {
		volatile unsigned long n = 0;

		close(done[0]);
		while (cpu_now() < want)
			n++;
		_exit(0); /* closes done[1]: the parent's read returns */
	}
	close(done[1]);
	while (read(done[0], &c, 1) < 0 && errno == EINTR)
		;
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		; /* ECHILD: the kernel reaped it */
	puts("burnt");
	return 0;
}
