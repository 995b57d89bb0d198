/*
 * The chat-completions judge over libcurl: POST <base_url>/chat/completions with
 * {"model", "messages": [system, user], "temperature": 0}, the key from an environment
 * variable as "Authorization: Bearer", a timeout per try; the answer is
 * choices[0].message.content (a ```json fence around it is removed), and usage's token counts
 * are kept for the cost budget. Only http and https are spoken, redirects are not followed,
 * and the reply is capped at 16 MiB. CURLOPT_NOSIGNAL keeps libcurl's timeouts off signals,
 * so judges may run in several threads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "assay/json.h"
#include "judge/judge_int.h"
#include "util/banned.h"

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

int assay_judge__http(const struct assay_judge *j, const char *system, const char *prompt,
		      assay_buf *answer, long long *tokens_in, long long *tokens_out, char *why,
		      size_t whysize)
{
	assay_arena *a = assay_arena_new(0);
	assay_buf body = ASSAY_BUF_INIT, reply = ASSAY_BUF_INIT;
	struct curl_slist *headers = NULL;
	char *url = NULL, *auth = NULL;
	CURL *c = curl_easy_init();
	int rc = -1;

	if (!c) {
		snprintf(why, whysize, "cannot start libcurl");
		goto out;
	}
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

	size_t n = strlen(j->base_url);
	while (n && j->base_url[n - 1] == '/')
		n--;
	url = assay_xasprintf("%.*s/chat/completions", (int)n, j->base_url);
	headers = curl_slist_append(headers, "Content-Type: application/json");
	const char *key = j->api_key_env ? getenv(j->api_key_env) : NULL;
	if (key && *key) {
		auth = assay_xasprintf("Authorization: Bearer %s", key);
		headers = curl_slist_append(headers, auth);
	}
	reply.max = 16u << 20;
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.ptr);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)body.len);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)(j->timeout_s * 1000));
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &reply);
	CURLcode cc = curl_easy_perform(c);
	if (cc) {
		snprintf(why, whysize, "%s: %s", url, curl_easy_strerror(cc));
		goto out;
	}
	long status = 0;
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	if (status != 200) {
		snprintf(why, whysize, "%s: HTTP %ld: %.200s", url, status, reply.ptr);
		goto out;
	}
	assay_value v;
	assay_err e = ASSAY_ERR_INIT;
	if (assay_json_parse(&v, a, reply.ptr, reply.len, NULL, &e)) {
		snprintf(why, whysize, "%s: the reply is not JSON: %s", url, e.msg);
		goto out;
	}
	const assay_value *usage = assay_object_get(&v, "usage"), *t;
	if ((t = assay_object_get(usage, "prompt_tokens")) && t->kind == ASSAY_V_INT)
		*tokens_in += t->u.i;
	if ((t = assay_object_get(usage, "completion_tokens")) && t->kind == ASSAY_V_INT)
		*tokens_out += t->u.i;
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
	if (c)
		curl_easy_cleanup(c);
	curl_slist_free_all(headers);
	free(url);
	free(auth);
	assay_buf_release(&body);
	assay_buf_release(&reply);
	assay_arena_free(a);
	return rc;
}
