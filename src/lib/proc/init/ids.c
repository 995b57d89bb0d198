/*
 * The case supervisor in its namespaces: waiting for the library to write their uid and gid
 * maps (protocol.h, fd 5), and, when assay runs as root, becoming the unprivileged ids they map.
 *
 * Key decisions:
 * - The wait comes as late as it can: the supervisor prepares what does not depend on its ids
 *   (signals, the Landlock ruleset) while the library writes the maps, and waits only before it
 *   makes itself non-dumpable (the library, not root, may write the maps only while the
 *   supervisor is dumpable) and before the program starts.
 * - Nothing is reported before the go: on EOF the library gave up on the namespaces and starts
 *   another supervisor the plain way with the same report pipe, which must not hold a word of
 *   this one. report_and_exit() waits for the go first.
 *
 * Refuses to: let the program run as outer root (a failure to take the ids is reported and the
 * program never starts); keep a capability.
 */
#include "init.h"
#include "../../util/banned.h"

static bool pending;

void go_expect(void)
{
	pending = true;
}

void go_wait(void)
{
	char go;
	long n;

	if (!pending)
		return;
	pending = false;
	while ((n = s_read(ASSAY_INIT_FD_GO, &go, 1)) == -S_EINTR)
		;
	if (n != 1)
		s_exit(0); /* EOF: no namespaces after all, and not a word on the report pipe */
	s_close(ASSAY_INIT_FD_GO);
}

/*
 * With root: drops root's supplementary groups and becomes the namespace's uid and gid the
 * library mapped to nobody, with the CAP_SETUID and CAP_SETGID the library's clone child made
 * ambient for that, then drops every capability but those of `keep` (a case server's
 * CAP_SYS_ADMIN in its own user namespace, serve.c).
 */
void ids_take(const struct cfg *c, uint32_t keep)
{
	struct assay_init_report rep;
	int r;

	if ((r = s_setgroups()) < 0 || (r = s_setresgid(c->gid)) < 0 ||
	    (r = s_setresuid(c->uid)) < 0 || (r = (keep ? s_keep_caps(keep) : s_drop_caps())) < 0) {
		report_init(&rep);
		rep.failure = ASSAY_INIT_FAIL_SYSTEM;
		rep.fail_errno = -r;
		report_and_exit(&rep);
	}
}
