/*
 * Issue 18 item 6: memory RLIMIT_DATA does not bound. `how`: shared (mmap(MAP_SHARED |
 * MAP_ANONYMOUS), touched), memfd (a memfd grown with ftruncate, mapped shared and touched),
 * memfd-write (a memfd filled with write(2), never mapped: no process's RSS holds it). Holds
 * `mib` MiB, prints "held N" and exits 0; "refused" and exit 3 when the kernel said no.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tool.h"
#include "../../src/lib/util/banned.h"

#define MIB (1024L * 1024)

static void *(*volatile fill)(void *, int, size_t) = memset;

int cmd_hold_mem(const char *how, const char *mib_s)
{
	long long mib = parse_count(mib_s);
	size_t len = (size_t)mib * MIB;
	void *mem = MAP_FAILED;
	int fd = -1;

	if (mib <= 0)
		return 2;
	if (!strcmp(how, "shared")) {
		mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	} else if (!strcmp(how, "memfd")) {
		fd = memfd_create("hold", 0);
		if (fd >= 0 && ftruncate(fd, (off_t)len) == 0)
			mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	} else if (!strcmp(how, "memfd-write")) {
		static char chunk[1 << 20];

		memset(chunk, 'x', sizeof(chunk));
		fd = memfd_create("hold", 0);
		for (long long i = 0; fd >= 0 && i < mib; i++)
			if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk)) {
				printf("refused\n");
				return 3;
			}
		printf("held %lld\n", mib);
		return 0;
	} else {
		fprintf(stderr, "unknown way: %s\n", how);
		return 2;
	}
	if (mem == MAP_FAILED) {
		printf("refused\n");
		return 3;
	}
	fill(mem, 'x', len);
	printf("held %lld\n", mib);
	return 0;
}
