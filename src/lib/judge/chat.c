/*
 * The chat-completions judge (type "http"), any OpenAI-compatible endpoint: POST
 * <base_url>/chat/completions with {"model", "messages": [system, user], "temperature": 0},
 * the key from an environment variable as "Authorization: Bearer"; the answer is
 * choices[0].message.content (a ```json fence around it removed) and the cost counts
 * usage.prompt_tokens and completion_tokens. The transport is http.c's.
 */
#include <stdlib.h>

#include "assay/json.h"
#include "judge/judge_int.h"
#include "util/banned.h"

static int chat_open(void **self, const assay_judge_config *cfg, assay_err *err)
{
	if (!cfg->base_url || !*cfg->base_url || !cfg->model || !*cfg->model)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "the http judge needs base_url and model");
	*self = assay_judge__api_new(cfg->base_url, cfg->api_key_env);
	return 0;
}

static int chat_ask(const struct assay_judge *j, const struct assay_judge__question *q,
		    assay_buf *answer, assay_judge_stats *st, assay_err *err)
{
	const struct assay_judge__api *api = j->self;
	assay_arena *a = assay_arena_new(0);
	assay_buf reply = ASSAY_BUF_INIT;
	char *url = assay_judge__endpoint(api->base_url, "/chat/completions");
	char *auth = assay_judge__key_header(api, "Authorization: Bearer ");
	const char *headers[] = { auth, NULL };
	int rc;

	assay_value req = assay_value_object(), msgs = assay_value_array(), v;
	assay_array_push(a, &msgs, assay_judge__message(a, "system", q->system));
	assay_array_push(a, &msgs, assay_judge__message(a, "user", q->prompt));
	assay_object_set(a, &req, "model", assay_value_strz(a, j->model));
	assay_object_set(a, &req, "messages", msgs);
	assay_object_set(a, &req, "temperature", assay_value_int(0));
	struct assay_judge__post post = {
		.url = url, .headers = headers, .timeout_s = j->timeout_s, .req = &req };
	if ((rc = assay_judge__post_json(&post, &reply, &v, a, err)))
		goto out;
	const assay_value *usage = assay_object_get(&v, "usage");
	assay_judge__add_tokens(usage, "prompt_tokens", &st->tokens_in);
	assay_judge__add_tokens(usage, "completion_tokens", &st->tokens_out);
	const assay_value *content = assay_object_get(
		assay_object_get(assay_array_get(assay_object_get(&v, "choices"), 0), "message"),
		"content");
	if (!content || content->kind != ASSAY_V_STRING) {
		rc = assay_err_set(err, ASSAY_ERROR, NULL, 0, 0,
				   "%s: no choices[0].message.content in the reply", url);
		goto out;
	}
	assay_judge__unfence(answer, content->u.s, content->len);
out:
	free(url);
	free(auth);
	assay_buf_release(&reply);
	assay_arena_free(a);
	return rc;
}

const struct assay_judge__kind assay_judge__http = {
	.name = "http",
	.open = chat_open,
	.ask = chat_ask,
	.release = assay_judge__api_release,
};
