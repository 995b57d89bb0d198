/*
 * What every adapter shares: the case result's attribute list, and running one case to its end
 * through the non-blocking interface (adapter.h).
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

assay_arena *assay_case_result_arena(assay_case_result *r)
{
	if (!r->arena)
		r->arena = assay_arena_new(0);
	return r->arena;
}

assay_attribute *assay_case_result_add(assay_case_result *r, const char *name,
				       assay_actual actual)
{
	assay_arena *a = assay_case_result_arena(r);

	/* capacity: 8, then powers of two (old storage stays in the arena) */
	if (!r->nattrs || (r->nattrs >= 8 && !(r->nattrs & (r->nattrs - 1)))) {
		size_t cap = r->nattrs ? r->nattrs * 2 : 8;
		assay_attribute *n = assay_arena_alloc(a, cap * sizeof(*n));

		if (r->nattrs)
			memcpy(n, r->attrs, r->nattrs * sizeof(*n));
		r->attrs = n;
	}
	assay_attribute *at = &r->attrs[r->nattrs++];
	at->name = assay_arena_strndup(a, name, strlen(name));
	at->actual = actual;
	return at;
}

const char *assay_case_result_keep(assay_case_result *r, assay_buf *b, size_t *len_out)
{
	/* a capture grew by doubling: give back what it will never use (a big output's slack
	 * is a third of it, held through verification and storing) */
	if (b->alloc && b->alloc - b->len > 65536) {
		b->ptr = assay_xrealloc(b->ptr, b->len + 1);
		b->alloc = b->len + 1;
	}
	r->bufs = assay_xrealloc(r->bufs, (r->nbufs + 1) * sizeof(*r->bufs));
	r->bufs[r->nbufs] = *b;
	*b = (assay_buf)ASSAY_BUF_INIT;
	*len_out = r->bufs[r->nbufs].len;
	return r->bufs[r->nbufs++].ptr;
}

const assay_attribute *assay_case_result_get(const assay_case_result *r, const char *name)
{
	for (size_t i = 0; i < r->nattrs; i++)
		if (!strcmp(r->attrs[i].name, name))
			return &r->attrs[i];
	return NULL;
}

void assay_case_result_release(assay_case_result *r)
{
	for (size_t i = 0; i < r->nbufs; i++)
		assay_buf_release(&r->bufs[i]);
	free(r->bufs);
	assay_arena_free(r->arena);
	*r = (assay_case_result)ASSAY_CASE_RESULT_INIT;
}

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
