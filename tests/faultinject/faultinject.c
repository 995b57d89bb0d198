/*
 * faultinject.so: an LD_PRELOAD library for tests (never part of assay) that fails one chosen
 * write to a results folder, as SQLite's and curl's test suites inject faults. Interposes the
 * calls by which data reaches a file: write, pwrite(64), writev, fsync, fdatasync, ftruncate,
 * rename(at) and open/openat with O_CREAT.
 *
 * Environment:
 *   ASSAY_FAULT_PATH   only calls on a file whose path starts with this prefix count (the fd's
 *                      path as /proc/self/fd names it; for rename and open, the path given)
 *   ASSAY_FAULT_AT     the 1-based index of the counted call to fail; 0 or unset: fail none
 *   ASSAY_FAULT_ERRNO  ENOSPC (default) or EIO
 *   ASSAY_FAULT_COUNT  a file that receives the number of counted calls, written at exit
 * Only the process that loaded the library first counts (its children, the cases'
 * supervisors, write elsewhere and are left alone).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static const char *prefix;
static size_t prefix_len;
static long fail_at;
static int fail_errno = ENOSPC;
static long counted;
static pid_t owner;
static const char *count_file;

static void report(void)
{
	if (!count_file || getpid() != owner)
		return;
	FILE *f = fopen(count_file, "w");
	if (f) {
		fprintf(f, "%ld\n", counted);
		fclose(f);
	}
}

__attribute__((constructor)) static void setup(void)
{
	prefix = getenv("ASSAY_FAULT_PATH");
	prefix_len = prefix ? strlen(prefix) : 0;
	const char *at = getenv("ASSAY_FAULT_AT");
	fail_at = at ? strtol(at, NULL, 10) : 0;
	const char *e = getenv("ASSAY_FAULT_ERRNO");
	if (e && !strcmp(e, "EIO"))
		fail_errno = EIO;
	count_file = getenv("ASSAY_FAULT_COUNT");
	owner = getpid();
	atexit(report);
}

static int path_counts(const char *path)
{
	return prefix_len && path && getpid() == owner && !strncmp(path, prefix, prefix_len);
}

static int fd_counts(int fd)
{
	char link[64], path[4096];
	if (!prefix_len || getpid() != owner)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	return path_counts(path);
}

/* Counts one call; returns 1 when it is the one to fail (errno set), saying which on stderr
 * when ASSAY_FAULT_TRACE is set. */
static int fault(int counts, const char *call)
{
	if (!counts)
		return 0;
	if (++counted == fail_at) {
		if (getenv("ASSAY_FAULT_TRACE"))
			fprintf(stderr, "faultinject: failing call %ld, %s\n", counted, call);
		errno = fail_errno;
		return 1;
	}
	return 0;
}

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

ssize_t write(int fd, const void *buf, size_t n)
{
	if (fault(fd_counts(fd), "write"))
		return -1;
	return REAL(write)(fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	if (fault(fd_counts(fd), "pwrite"))
		return -1;
	return REAL(pwrite)(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
	if (fault(fd_counts(fd), "pwrite64"))
		return -1;
	return REAL(pwrite64)(fd, buf, n, off);
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
	if (fault(fd_counts(fd), "writev"))
		return -1;
	return REAL(writev)(fd, iov, cnt);
}

int fsync(int fd)
{
	if (fault(fd_counts(fd), "fsync"))
		return -1;
	return REAL(fsync)(fd);
}

int fdatasync(int fd)
{
	if (fault(fd_counts(fd), "fdatasync"))
		return -1;
	return REAL(fdatasync)(fd);
}

int ftruncate(int fd, off_t len)
{
	if (fault(fd_counts(fd), "ftruncate"))
		return -1;
	return REAL(ftruncate)(fd, len);
}

int ftruncate64(int fd, off64_t len)
{
	if (fault(fd_counts(fd), "ftruncate64"))
		return -1;
	return REAL(ftruncate64)(fd, len);
}

int rename(const char *from, const char *to)
{
	if (fault(path_counts(to), "rename"))
		return -1;
	return REAL(rename)(from, to);
}

int renameat(int dfrom, const char *from, int dto, const char *to)
{
	if (fault(to && to[0] == '/' ? path_counts(to) : dto != AT_FDCWD && fd_counts(dto), "renameat"))
		return -1;
	return REAL(renameat)(dfrom, from, dto, to);
}

static int open_counts(int dirfd, const char *path, int flags)
{
	if (!(flags & O_CREAT) || !path)
		return 0;
	if (path[0] == '/')
		return path_counts(path);
	if (dirfd != AT_FDCWD)
		return fd_counts(dirfd);
	char cwd[4096];
	if (!getcwd(cwd, sizeof(cwd)))
		return 0;
	return path_counts(cwd); /* a relative name under a counted cwd */
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (fault(open_counts(AT_FDCWD, path, flags), "open"))
		return -1;
	return REAL(open)(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (fault(open_counts(AT_FDCWD, path, flags), "open64"))
		return -1;
	return REAL(open64)(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (fault(open_counts(dirfd, path, flags), "openat"))
		return -1;
	return REAL(openat)(dirfd, path, flags, mode);
}
