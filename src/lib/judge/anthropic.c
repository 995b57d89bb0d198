/*
 * The Anthropic judge (type "anthropic"), the Messages API: POST <base_url>/v1/messages with
 * {"model", "max_tokens", "system", "messages": [user], "temperature": 0}, the key as
 * "x-api-key" (from ANTHROPIC_API_KEY unless api_key_env names another variable) and the
 * header "anthropic-version: 2023-06-01"; base_url defaults to https://api.anthropic.com. The
 * answer is the text of every "text" block of "content", in order (a ```json fence around it
 * removed), and the cost counts usage.input_tokens (with the prompt cache's
 * cache_creation_input_tokens and cache_read_input_tokens) and output_tokens. The transport is
 * http.c's.
 */
#include <stdlib.h>

#include "assay/json.h"
#include "judge/judge_int.h"
#include "util/banned.h"

/* What the Messages API is asked to allow for one answer (a grading is short). */
#define ANTHROPIC_MAX_TOKENS 8192
#define ANTHROPIC_VERSION "2023-06-01"

static int anthropic_open(void **self, const assay_judge_config *cfg, assay_err *err)
{
	if (!cfg->model || !*cfg->model)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "the anthropic judge needs a model");
	*self = assay_judge__api_new(cfg->base_url && *cfg->base_url ? cfg->base_url
				     : "https://api.anthropic.com",
				     cfg->api_key_env && *cfg->api_key_env ? cfg->api_key_env
				     : "ANTHROPIC_API_KEY");
	return 0;
}

static int anthropic_ask(const struct assay_judge *j, const struct assay_judge__question *q,
			 assay_buf *answer, assay_judge_stats *st, assay_err *err)
{
	const struct assay_judge__api *api = j->self;
	assay_arena *a = assay_arena_new(0);
	assay_buf text = ASSAY_BUF_INIT, reply = ASSAY_BUF_INIT;
	char *url = assay_judge__endpoint(api->base_url, "/v1/messages");
	char *auth = assay_judge__key_header(api, "x-api-key: ");
	const char *headers[] = { "anthropic-version: " ANTHROPIC_VERSION, auth, NULL };
	int rc;

	assay_value req = assay_value_object(), msgs = assay_value_array(), v;
	assay_array_push(a, &msgs, assay_judge__message(a, "user", q->prompt));
	assay_object_set(a, &req, "model", assay_value_strz(a, j->model));
	assay_object_set(a, &req, "max_tokens", assay_value_int(ANTHROPIC_MAX_TOKENS));
	assay_object_set(a, &req, "system", assay_value_strz(a, q->system));
	assay_object_set(a, &req, "messages", msgs);
	assay_object_set(a, &req, "temperature", assay_value_int(0));
	struct assay_judge__post post = {
		.url = url, .headers = headers, .timeout_s = j->timeout_s, .req = &req };
	if ((rc = assay_judge__post_json(&post, &reply, &v, a, err)))
		goto out;
	/* Tokens are paid for whatever the answer holds: counted before it is judged. */
	const assay_value *usage = assay_object_get(&v, "usage");
	assay_judge__add_tokens(usage, "input_tokens", &st->tokens_in);
	assay_judge__add_tokens(usage, "cache_creation_input_tokens", &st->tokens_in);
	assay_judge__add_tokens(usage, "cache_read_input_tokens", &st->tokens_in);
	assay_judge__add_tokens(usage, "output_tokens", &st->tokens_out);
	const assay_value *content = assay_object_get(&v, "content");
	if (!content || content->kind != ASSAY_V_ARRAY) {
		const assay_value *msg = assay_object_get(assay_object_get(&v, "error"), "message");
		bool m = msg && msg->kind == ASSAY_V_STRING;
		rc = assay_err_set(err, ASSAY_ERROR, NULL, 0, 0,
				   "%s: no content blocks in the reply%s%.*s", url, m ? ": " : "",
				   m ? (int)(msg->len > 200 ? 200 : msg->len) : 0, m ? msg->u.s : "");
		goto out;
	}
	for (uint32_t i = 0; i < content->len; i++) {
		const assay_value *b = &content->u.items[i];
		const assay_value *t = assay_object_get(b, "text");
		if (assay_value_is_str(assay_object_get(b, "type"), "text") && t &&
		    t->kind == ASSAY_V_STRING)
			assay_buf_add(&text, t->u.s, t->len);
	}
	if (!text.len) {
		const assay_value *stop = assay_object_get(&v, "stop_reason");
		bool s = stop && stop->kind == ASSAY_V_STRING;
		rc = assay_err_set(err, ASSAY_ERROR, NULL, 0, 0,
				   "%s: no text block in the reply's content (stop_reason %.*s)",
				   url, s ? (int)(stop->len > 40 ? 40 : stop->len) : 4,
				   s ? stop->u.s : "none");
		goto out;
	}
	assay_judge__unfence(answer, text.ptr, text.len);
out:
	free(url);
	free(auth);
	assay_buf_release(&text);
	assay_buf_release(&reply);
	assay_arena_free(a);
	return rc;
}

const struct assay_judge__kind assay_judge__anthropic = {
	.name = "anthropic",
	.open = anthropic_open,
	.ask = anthropic_ask,
	.release = assay_judge__api_release,
};
