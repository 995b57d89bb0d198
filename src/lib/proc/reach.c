/*
 * The way through the run's folders for a sandboxed program running as another user (reach.h):
 * search permission for others added, folder by folder, from the run's root down to a case's
 * folder. Used by the runner for the cases' temporary root and by the adapters for each case's
 * working and temporary folders, so it lives with the sandbox it serves.
 *
 * Key decisions: folders are opened without following links and changed through the descriptor
 * (never by name), only when root owns them and they lack o+x; nothing outside `top` is touched.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "proc/proc_int.h"
#include "proc/reach.h"
#include "util/banned.h"

bool assay_proc__landlock_holds(const assay_sandbox *sb)
{
	/* landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION): its ABI, >= 1 */
	return sb && sb->enabled && !(assay_proc__refuse_hook() & ASSAY_SANDBOX_LANDLOCK_FS) &&
	       syscall(SYS_landlock_create_ruleset, NULL, 0, 1u << 0) >= 1;
}

bool assay_proc__path_within(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return true;
	return !strncmp(dir, path, n) && (path[n] == '\0' || path[n] == '/');
}

void assay_proc__sandbox_reach(const assay_sandbox *sb, const char *top, const char *path)
{
	size_t n = strlen(top);
	char *p;

	if (!sb || !sb->enabled || geteuid() != 0 || !assay_proc__path_within(top, path) ||
	    !path[n])
		return;
	p = assay_xstrdup(path);
	/* `top`, then every folder below it on the way to `path`: cut at each '/' from `top`'s
	 * end (path[n] is one) */
	for (size_t i = n; p[i]; i++) {
		struct stat st;
		int fd;

		if (p[i] != '/')
			continue;
		p[i] = '\0';
		/* one lookup per folder when it is passable already, as it is after the first case */
		if (!fstatat(AT_FDCWD, p, &st, AT_SYMLINK_NOFOLLOW) && S_ISDIR(st.st_mode) &&
		    !(st.st_mode & S_IXOTH) &&
		    (fd = open(p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) >= 0) {
			if (!fstat(fd, &st) && st.st_uid == 0 && !(st.st_mode & S_IXOTH))
				fchmod(fd, (st.st_mode & 07777) | S_IXOTH);
			close(fd);
		}
		p[i] = '/';
	}
	free(p);
}
