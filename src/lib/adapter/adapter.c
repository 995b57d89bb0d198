/*
 * What every adapter shares: running one case to its end through the non-blocking interface
 * (adapter.h). The case result it fills is the case model's (src/lib/model/case_result.c).
 *
 * Key decisions: a case is driven by poll() on the adapter's descriptors with its deadline as
 * the timeout, waking at least every 200 ms to look at the stop flag, so an interrupt kills the
 * running case at once without assay installing any handler itself.
 */
#include <errno.h>
#include <poll.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "assay/adapter.h"
#include "adapter/adapter_int.h"
#include "util/banned.h"

#define STOP_CHECK_MS 200
#define MAX_FDS 16

int assay_adapter_run(const assay_adapter *ad, void *state, const assay_run_ctx *ctx,
		      const assay_case *c, const char *workdir, volatile int *stop,
		      assay_case_result *out, assay_err *err)
{
	struct pollfd fds[MAX_FDS];
	void *job = NULL;
	bool done = false;
	int rc;

	if ((rc = ad->start(&job, state, ctx, c, workdir, err)))
		return rc;
	while (!done) {
		if (stop && *stop) {
			ad->abort(job);
			return ASSAY_EINTERRUPTED;
		}
		if ((rc = ad->pump(job, &done, err))) {
			ad->abort(job);
			return rc;
		}
		if (done)
			break;
		size_t n = ad->pollfds(job, fds, MAX_FDS);
		int wait = ad->deadline_ms(job);

		if (wait < 0 || wait > STOP_CHECK_MS)
			wait = STOP_CHECK_MS;
		if (poll(fds, n, wait) < 0 && errno != EINTR) {
			rc = assay_err_set(err, ASSAY_EIO, NULL, 0, 0, "poll: %s", strerror(errno));
			ad->abort(job);
			return rc;
		}
	}
	return ad->finish(job, out, err);
}

extern char **environ;

/* Does `entry` ("K=V") name a variable one of `patterns` passes? */
static bool env_passed(const char *const *patterns, const char *entry)
{
	const char *eq = strchr(entry, '=');
	char name[256];

	if (!eq || (size_t)(eq - entry) >= sizeof(name))
		return false;
	memcpy(name, entry, (size_t)(eq - entry));
	name[eq - entry] = '\0';
	for (; patterns && *patterns; patterns++)
		if (!fnmatch(*patterns, name, 0))
			return true;
	return false;
}

void assay_adapter__clean_env(assay_strvec *env, const char *home, const char *tmp,
			      const char *const *pass_env, const assay_strvec *extra)
{
	const char *path = getenv("PATH"), *lang = getenv("LANG");

	assay_strvec_pushf(env, "PATH=%s", path ? path : "/usr/local/bin:/usr/bin:/bin");
	assay_strvec_pushf(env, "LANG=%s", lang ? lang : "C.UTF-8");
	assay_strvec_pushf(env, "HOME=%s", home);
	assay_strvec_pushf(env, "TMPDIR=%s", tmp);
	for (char **e = environ; pass_env && e && *e; e++)
		if (env_passed(pass_env, *e))
			assay_strvec_push(env, *e);
	assay_strvec_pushv(env, (const char *const *)extra->v);
}
