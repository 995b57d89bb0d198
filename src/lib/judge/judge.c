/*
 * One interface for the three judge roles: render the role's template, look in the cache,
 * ask (command or http), validate, retry with backoff, cache the valid answer.
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
	struct assay_judge *j;
	bool anthropic = cfg->type && !strcmp(cfg->type, "anthropic");
	bool http = anthropic || (cfg->type && !strcmp(cfg->type, "http"));
	const char *base = cfg->base_url && *cfg->base_url ? cfg->base_url
			   : anthropic ? "https://api.anthropic.com" : NULL;

	*out = NULL;
	if (!http && !(cfg->type && !strcmp(cfg->type, "command")))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "judge type must be \"command\", \"http\" or \"anthropic\", "
				     "not \"%s\"", cfg->type ? cfg->type : "");
	if (!http && (!cfg->command || !cfg->command->nr))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "the command judge has no command (set judge.command)");
	if (http && (!base || !cfg->model || !*cfg->model))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     anthropic ? "the anthropic judge needs a model"
					       : "the http judge needs base_url and model");
	j = assay_xcalloc(1, sizeof(*j));
	j->http = http;
	j->anthropic = anthropic;
	j->argv = (assay_strvec)ASSAY_STRVEC_INIT;
	if (!http)
		assay_strvec_pushv(&j->argv, (const char *const *)cfg->command->v);
	j->sandbox = cfg->sandbox;
	j->base_url = dup_or_null(base);
	j->model = assay_xstrdup(cfg->model ? cfg->model : "");
	j->api_key_env = dup_or_null(cfg->api_key_env && *cfg->api_key_env ? cfg->api_key_env
				     : anthropic ? "ANTHROPIC_API_KEY" : NULL);
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
	assay_strvec_clear(&j->argv);
	free(j->base_url);
	free(j->model);
	free(j->api_key_env);
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

/* Parses and validates `text`; the answer goes to `out` (in `a`). */
static bool accept(assay_judge_role role, const assay_value *req, const char *text, size_t len,
		   assay_value *out, assay_arena *a, char *why, size_t whysize)
{
	assay_err e = ASSAY_ERR_INIT;
	char msg[400];

	if (assay_json_parse(out, a, text, len, NULL, &e)) {
		snprintf(why, whysize, "the answer is not JSON: %s (line %d column %d)", e.msg,
			 e.line, e.column);
		return false;
	}
	if (!assay_judge_validate(role, req, out, msg, sizeof(msg))) {
		snprintf(why, whysize, "invalid answer: %s", msg);
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
	char *tpath = NULL, *cpath = NULL, why[600] = "";
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
	    accept(role, request, text.ptr, text.len, answer, a, why, sizeof(why))) {
		st.cached = true;
		goto out;
	}
	for (int attempt = 0; attempt <= j->retries; attempt++) {
		if (attempt && j->backoff_s > 0)
			pause_s(j->backoff_s * (double)(1 << (attempt - 1 < 10 ? attempt - 1 : 10)));
		st.attempts++;
		assay_buf_reset(&text);
		int sent;
		if (j->http) {
			char sys[200];
			snprintf(sys, sizeof(sys), "You are the %s of a skill evaluation. Answer "
				 "with one JSON object only.", name);
			sent = assay_judge__http(j, sys, prompt.ptr, &text, &st.tokens_in,
						 &st.tokens_out, why, sizeof(why));
		} else {
			assay_arena *ra = assay_arena_new(0);
			assay_value in = assay_value_object();
			assay_buf doc = ASSAY_BUF_INIT;

			assay_object_set(ra, &in, "role", assay_value_strz(ra, name));
			assay_object_set(ra, &in, "model", assay_value_strz(ra, j->model));
			assay_object_set(ra, &in, "prompt", assay_value_string(ra, prompt.ptr,
									      prompt.len));
			assay_object_set(ra, &in, "request", *request);
			assay_json_write(&doc, &in, 0);
			assay_buf_addch(&doc, '\n');
			sent = assay_judge__command(j, doc.ptr, doc.len, &text, why, sizeof(why));
			assay_buf_release(&doc);
			assay_arena_free(ra);
		}
		if (!sent && accept(role, request, text.ptr, text.len, answer, a, why,
				    sizeof(why))) {
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
			   "tr%s: %s", name, st.attempts, st.attempts == 1 ? "y" : "ies", why);
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
