/*
 * One interface for the three judge roles: render the role's template, look in the cache,
 * ask through the judge's kind (judge_int.h's struct assay_judge__kind, found by type name in
 * kinds.c: command.c, chat.c, anthropic.c), validate, retry with backoff, cache the valid
 * answer. What every kind shares is here; how one question travels is the kind's.
 *
 * Decisions: the cache key is SHA-256 of "role\0model\0" + the prompt hash, where the prompt
 * hash is SHA-256 of the rendered prompt and the request it was rendered from (a command judge
 * sees the request too, so two requests that render alike must not share an answer). Only
 * valid answers are cached; a cached answer that no longer validates is ignored. A failure of
 * the transport and an invalid answer both use a try.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "judge/judge_int.h"
#include "util/banned.h"
#include "util/sha256.h"

static char *dup_or_null(const char *s)
{
	return s && *s ? assay_xstrdup(s) : NULL;
}

int assay_judge_new(assay_judge **out, const assay_judge_config *cfg, assay_err *err)
{
	const struct assay_judge__kind *kind = assay_judge__kind_find(cfg->type, err);
	struct assay_judge *j;
	void *self = NULL;
	int rc;

	*out = NULL;
	if (!kind)
		return ASSAY_EINVALID;
	if ((rc = kind->open(&self, cfg, err)))
		return rc;
	j = assay_xcalloc(1, sizeof(*j));
	j->kind = kind;
	j->self = self;
	j->model = assay_xstrdup(cfg->model ? cfg->model : "");
	j->timeout_s = cfg->timeout_s > 0 ? cfg->timeout_s : 300;
	j->retries = cfg->retries > 0 ? cfg->retries : 0;
	j->backoff_s = cfg->backoff_s > 0 ? cfg->backoff_s : 0;
	j->price_in = cfg->price_in;
	j->price_out = cfg->price_out;
	j->prompts_dir = dup_or_null(cfg->prompts_dir);
	j->cache_dir = dup_or_null(cfg->cache_dir);
	*out = j;
	return 0;
}

void assay_judge_free(assay_judge *j)
{
	if (!j)
		return;
	j->kind->release(j->self);
	free(j->model);
	free(j->prompts_dir);
	free(j->cache_dir);
	free(j);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void pause_s(double s)
{
	struct timespec t = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (s > 0 && nanosleep(&t, &t) && errno == EINTR)
		;
}

/* Parses and validates `text`; the answer goes to `out` (in `a`), or the reason to `why`. */
static bool accept(assay_judge_role role, const assay_value *req, const char *text, size_t len,
		   assay_value *out, assay_arena *a, assay_err *why)
{
	assay_err e = ASSAY_ERR_INIT;
	char msg[400];

	if (assay_json_parse(out, a, text, len, NULL, &e)) {
		assay_err_set(why, ASSAY_EPARSE, NULL, 0, 0,
			      "the answer is not JSON: %s (line %d column %d)", e.msg, e.line,
			      e.column);
		return false;
	}
	if (!assay_judge_validate(role, req, out, msg, sizeof(msg))) {
		assay_err_set(why, ASSAY_EINVALID, NULL, 0, 0, "invalid answer: %s", msg);
		return false;
	}
	return true;
}

int assay_judge_ask(assay_judge *j, assay_judge_role role, const assay_value *request,
		    assay_value *answer, assay_arena *a, assay_judge_stats *stats, assay_err *err)
{
	assay_judge_stats st = { 0 };
	assay_buf tmpl = ASSAY_BUF_INIT, prompt = ASSAY_BUF_INIT, req = ASSAY_BUF_INIT;
	assay_buf text = ASSAY_BUF_INIT, key = ASSAY_BUF_INIT;
	char *tpath = NULL, *cpath = NULL, sys[200];
	assay_err why = ASSAY_ERR_INIT;
	const char *name = assay_judge_role_name(role);
	double t0 = now_s();
	int rc = 0;

	if (j->prompts_dir) {
		tpath = assay_xasprintf("%s/%s.md", j->prompts_dir, name);
		if (assay_fs_read(&tmpl, tpath, 1u << 20, NULL))
			assay_buf_reset(&tmpl);
	}
	assay_judge_render(&prompt, tmpl.len ? tmpl.ptr : assay_judge_builtin_prompt(role),
			   request);
	assay_json_write(&req, request, ASSAY_JSON_SORT_KEYS);
	{
		assay_sha256_ctx h;
		char ph[65], k[65];

		assay_sha256_begin(&h);
		assay_sha256_add(&h, prompt.ptr, prompt.len + 1);
		assay_sha256_add(&h, req.ptr, req.len);
		assay_sha256_end(&h, ph);
		assay_buf_addf(&key, "%s%c%s%c%s", name, 0, j->model, 0, ph);
		assay_sha256_hex(k, key.ptr, key.len);
		if (j->cache_dir)
			cpath = assay_xasprintf("%s/%s/%s.json", j->cache_dir, name, k);
	}
	if (cpath && !assay_fs_read(&text, cpath, 16u << 20, NULL) &&
	    accept(role, request, text.ptr, text.len, answer, a, &why)) {
		st.cached = true;
		goto out;
	}
	snprintf(sys, sizeof(sys), "You are the %s of a skill evaluation. Answer with one JSON "
		 "object only.", name);
	struct assay_judge__question q = { name, sys, prompt.ptr, prompt.len, request };
	for (int attempt = 0; attempt <= j->retries; attempt++) {
		if (attempt && j->backoff_s > 0)
			pause_s(j->backoff_s * (double)(1 << (attempt - 1 < 10 ? attempt - 1 : 10)));
		st.attempts++;
		assay_buf_reset(&text);
		assay_err_clear(&why);
		int sent = j->kind->ask(j, &q, &text, &st, &why);
		if (!sent && accept(role, request, text.ptr, text.len, answer, a, &why)) {
			if (cpath) {
				assay_err e = ASSAY_ERR_INIT;
				if (assay_fs_mkparents(cpath, &e) ||
				    assay_fs_write_atomic(cpath, text.ptr, text.len, 0644, &e))
					rc = assay_err_set(err, ASSAY_EIO, cpath, 0, 0,
							   "cannot cache the answer: %s", e.msg);
			}
			goto out;
		}
	}
	*answer = assay_value_null();
	rc = assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "%s: no valid answer after %d "
			   "tr%s: %s", name, st.attempts, st.attempts == 1 ? "y" : "ies", why.msg);
out:
	st.seconds = now_s() - t0;
	st.cost = (double)st.tokens_in / 1e6 * j->price_in +
		  (double)st.tokens_out / 1e6 * j->price_out;
	if (stats)
		*stats = st;
	assay_buf_release(&tmpl);
	assay_buf_release(&prompt);
	assay_buf_release(&req);
	assay_buf_release(&text);
	assay_buf_release(&key);
	free(tpath);
	free(cpath);
	return rc;
}
