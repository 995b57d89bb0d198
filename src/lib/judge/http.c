/*
 * The HTTP judges over libcurl, two wire formats:
 *
 * - chat completions (OpenAI-compatible): POST <base_url>/chat/completions with
 *   {"model", "messages": [system, user], "temperature": 0}, the key from an environment
 *   variable as "Authorization: Bearer"; the answer is choices[0].message.content and the
 *   cost counts usage.prompt_tokens and completion_tokens;
 * - Anthropic's Messages API: POST <base_url>/v1/messages with {"model", "max_tokens",
 *   "system", "messages": [user], "temperature": 0}, the key as "x-api-key" and the header
 *   "anthropic-version: 2023-06-01"; the answer is the text of every "text" block of
 *   "content", in order, and the cost counts usage.input_tokens and output_tokens.
 *
 * Both: a timeout per try, a ```json fence around the answer removed, only http and https
 * spoken, no redirects followed, the reply capped at 16 MiB. CURLOPT_NOSIGNAL keeps libcurl's
 * timeouts off signals, so judges may run in several threads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "assay/json.h"
#include "judge/judge_int.h"
#include "util/banned.h"

/* What Anthropic's Messages API is asked to allow for one answer (a grading is short). */
#define ANTHROPIC_MAX_TOKENS 8192
#define ANTHROPIC_VERSION "2023-06-01"

static size_t on_data(char *data, size_t size, size_t n, void *userdata)
{
	assay_buf *b = userdata;

	if (assay_buf_add(b, data, size * n))
		return 0; /* past the cap: libcurl stops with CURLE_WRITE_ERROR */
	return size * n;
}

static void unfence(assay_buf *answer, const char *s, size_t n)
{
	while (n && strchr(" \t\r\n", *s))
		s++, n--;
	while (n && strchr(" \t\r\n", s[n - 1]))
		n--;
	if (n >= 6 && !strncmp(s, "```", 3) && !strncmp(s + n - 3, "```", 3)) {
		const char *nl = memchr(s, '\n', n);
		if (nl) {
			n -= (size_t)(nl + 1 - s) + 3;
			s = nl + 1;
		}
	}
	assay_buf_add(answer, s, n);
}

/*
 * POSTs `body` to `url` with `headers`; the reply (HTTP 200, JSON) read into `reply` (which
 * the caller keeps, and releases, as long as it uses `v`: the parser may borrow from it) and
 * parsed into `v` in `a`. 0, or -1 with `why`.
 */
static int post_json(const struct assay_judge *j, const char *url, struct curl_slist *headers,
		     const assay_buf *body, assay_buf *reply, assay_value *v, assay_arena *a,
		     char *why, size_t whysize)
{
	CURL *c = curl_easy_init();
	int rc = -1;

	if (!c) {
		snprintf(why, whysize, "cannot start libcurl");
		return -1;
	}
	reply->max = 16u << 20;
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body->ptr);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)body->len);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)(j->timeout_s * 1000));
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, reply);
	CURLcode cc = curl_easy_perform(c);
	if (cc) {
		snprintf(why, whysize, "%s: %s", url, curl_easy_strerror(cc));
		goto out;
	}
	long status = 0;
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	if (status != 200) {
		snprintf(why, whysize, "%s: HTTP %ld: %.200s", url, status, reply->ptr);
		goto out;
	}
	assay_err e = ASSAY_ERR_INIT;
	if (assay_json_parse(v, a, reply->ptr, reply->len, NULL, &e)) {
		snprintf(why, whysize, "%s: the reply is not JSON: %s", url, e.msg);
		goto out;
	}
	rc = 0;
out:
	curl_easy_cleanup(c);
	return rc;
}

/* usage.<name> as a count of tokens added to *to (a non-integer or negative one adds none). */
static void add_tokens(const assay_value *usage, const char *name, long long *to)
{
	const assay_value *t = assay_object_get(usage, name);

	if (t && t->kind == ASSAY_V_INT && t->u.i >= 0)
		*to += t->u.i;
}

/* base_url without trailing slashes, then `path`. */
static char *endpoint(const char *base, const char *path)
{
	size_t n = strlen(base);

	while (n && base[n - 1] == '/')
		n--;
	return assay_xasprintf("%.*s%s", (int)n, base, path);
}

static int chat_completions(const struct assay_judge *j, const char *system, const char *prompt,
			    assay_buf *answer, long long *tokens_in, long long *tokens_out,
			    char *why, size_t whysize)
{
	assay_arena *a = assay_arena_new(0);
	assay_buf body = ASSAY_BUF_INIT, reply = ASSAY_BUF_INIT;
	struct curl_slist *headers = NULL;
	char *url = endpoint(j->base_url, "/chat/completions"), *auth = NULL;
	int rc = -1;

	assay_value req = assay_value_object(), msgs = assay_value_array();
	assay_value sys = assay_value_object(), user = assay_value_object();
	assay_object_set(a, &sys, "role", assay_value_strz(a, "system"));
	assay_object_set(a, &sys, "content", assay_value_strz(a, system));
	assay_object_set(a, &user, "role", assay_value_strz(a, "user"));
	assay_object_set(a, &user, "content", assay_value_strz(a, prompt));
	assay_array_push(a, &msgs, sys);
	assay_array_push(a, &msgs, user);
	assay_object_set(a, &req, "model", assay_value_strz(a, j->model));
	assay_object_set(a, &req, "messages", msgs);
	assay_object_set(a, &req, "temperature", assay_value_int(0));
	assay_json_write(&body, &req, 0);

	headers = curl_slist_append(headers, "Content-Type: application/json");
	const char *key = j->api_key_env ? getenv(j->api_key_env) : NULL;
	if (key && *key) {
		auth = assay_xasprintf("Authorization: Bearer %s", key);
		headers = curl_slist_append(headers, auth);
	}
	assay_value v;
	if (post_json(j, url, headers, &body, &reply, &v, a, why, whysize))
		goto out;
	const assay_value *usage = assay_object_get(&v, "usage");
	add_tokens(usage, "prompt_tokens", tokens_in);
	add_tokens(usage, "completion_tokens", tokens_out);
	const assay_value *content = assay_object_get(
		assay_object_get(assay_array_get(assay_object_get(&v, "choices"), 0), "message"),
		"content");
	if (!content || content->kind != ASSAY_V_STRING) {
		snprintf(why, whysize, "%s: no choices[0].message.content in the reply", url);
		goto out;
	}
	unfence(answer, content->u.s, content->len);
	rc = 0;
out:
	curl_slist_free_all(headers);
	free(url);
	free(auth);
	assay_buf_release(&body);
	assay_buf_release(&reply);
	assay_arena_free(a);
	return rc;
}

static int anthropic_messages(const struct assay_judge *j, const char *system,
			      const char *prompt, assay_buf *answer, long long *tokens_in,
			      long long *tokens_out, char *why, size_t whysize)
{
	assay_arena *a = assay_arena_new(0);
	assay_buf body = ASSAY_BUF_INIT, text = ASSAY_BUF_INIT, reply = ASSAY_BUF_INIT;
	struct curl_slist *headers = NULL;
	char *url = endpoint(j->base_url, "/v1/messages"), *auth = NULL;
	int rc = -1;

	assay_value req = assay_value_object(), msgs = assay_value_array();
	assay_value user = assay_value_object();
	assay_object_set(a, &user, "role", assay_value_strz(a, "user"));
	assay_object_set(a, &user, "content", assay_value_strz(a, prompt));
	assay_array_push(a, &msgs, user);
	assay_object_set(a, &req, "model", assay_value_strz(a, j->model));
	assay_object_set(a, &req, "max_tokens", assay_value_int(ANTHROPIC_MAX_TOKENS));
	assay_object_set(a, &req, "system", assay_value_strz(a, system));
	assay_object_set(a, &req, "messages", msgs);
	assay_object_set(a, &req, "temperature", assay_value_int(0));
	assay_json_write(&body, &req, 0);

	headers = curl_slist_append(headers, "Content-Type: application/json");
	headers = curl_slist_append(headers, "anthropic-version: " ANTHROPIC_VERSION);
	const char *key = j->api_key_env ? getenv(j->api_key_env) : NULL;
	if (key && *key) {
		auth = assay_xasprintf("x-api-key: %s", key);
		headers = curl_slist_append(headers, auth);
	}
	assay_value v;
	if (post_json(j, url, headers, &body, &reply, &v, a, why, whysize))
		goto out;
	/* Tokens are paid for whatever the answer holds: counted before it is judged. */
	const assay_value *usage = assay_object_get(&v, "usage");
	add_tokens(usage, "input_tokens", tokens_in);
	add_tokens(usage, "cache_creation_input_tokens", tokens_in);
	add_tokens(usage, "cache_read_input_tokens", tokens_in);
	add_tokens(usage, "output_tokens", tokens_out);
	const assay_value *content = assay_object_get(&v, "content");
	if (!content || content->kind != ASSAY_V_ARRAY) {
		const assay_value *msg = assay_object_get(assay_object_get(&v, "error"), "message");
		bool m = msg && msg->kind == ASSAY_V_STRING;
		snprintf(why, whysize, "%s: no content blocks in the reply%s%.*s", url,
			 m ? ": " : "", m ? (int)(msg->len > 200 ? 200 : msg->len) : 0,
			 m ? msg->u.s : "");
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
		snprintf(why, whysize, "%s: no text block in the reply's content (stop_reason "
			 "%.*s)", url, s ? (int)(stop->len > 40 ? 40 : stop->len) : 4,
			 s ? stop->u.s : "none");
		goto out;
	}
	unfence(answer, text.ptr, text.len);
	rc = 0;
out:
	curl_slist_free_all(headers);
	free(url);
	free(auth);
	assay_buf_release(&body);
	assay_buf_release(&text);
	assay_buf_release(&reply);
	assay_arena_free(a);
	return rc;
}

int assay_judge__http(const struct assay_judge *j, const char *system, const char *prompt,
		      assay_buf *answer, long long *tokens_in, long long *tokens_out, char *why,
		      size_t whysize)
{
	return j->anthropic
		       ? anthropic_messages(j, system, prompt, answer, tokens_in, tokens_out, why,
					    whysize)
		       : chat_completions(j, system, prompt, answer, tokens_in, tokens_out, why,
					  whysize);
}
