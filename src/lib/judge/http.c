/*
 * What the API judges share (judge_int.h): one POST of a JSON body over libcurl, the
 * endpoint's URL, an answer's fence removed, a reply's token counts. The wire formats are the
 * kinds' own (chat.c, anthropic.c).
 *
 * Decisions: a timeout per try; only http and https spoken, no redirects followed; the reply
 * capped at 16 MiB. CURLOPT_NOSIGNAL keeps libcurl's timeouts off signals, so judges may run
 * in several threads.
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

void assay_judge__unfence(assay_buf *answer, const char *s, size_t n)
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

assay_value assay_judge__message(assay_arena *a, const char *role, const char *text)
{
	assay_value m = assay_value_object();

	assay_object_set(a, &m, "role", assay_value_strz(a, role));
	assay_object_set(a, &m, "content", assay_value_strz(a, text));
	return m;
}

int assay_judge__post_json(const struct assay_judge__post *p, assay_buf *reply, assay_value *v,
			   assay_arena *a, assay_err *err)
{
	const char *url = p->url;
	const char *const *headers = p->headers;
	double timeout_s = p->timeout_s;
	const assay_value *req = p->req;
	CURL *c = curl_easy_init();
	struct curl_slist *list = NULL;
	assay_buf body = ASSAY_BUF_INIT;
	int rc = ASSAY_ERROR;

	if (!c)
		return assay_err_set(err, ASSAY_ERROR, NULL, 0, 0, "cannot start libcurl");
	assay_json_write(&body, req, 0);
	list = curl_slist_append(list, "Content-Type: application/json");
	for (size_t i = 0; headers && headers[i]; i++)
		list = curl_slist_append(list, headers[i]);
	reply->max = 16u << 20;
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, list);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.ptr);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)body.len);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)(timeout_s * 1000));
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, reply);
	CURLcode cc = curl_easy_perform(c);
	if (cc) {
		assay_err_set(err, ASSAY_ERROR, NULL, 0, 0, "%s: %s", url, curl_easy_strerror(cc));
		goto out;
	}
	long status = 0;
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	if (status != 200) {
		assay_err_set(err, ASSAY_ERROR, NULL, 0, 0, "%s: HTTP %ld: %.200s", url, status,
			      reply->ptr);
		goto out;
	}
	assay_err e = ASSAY_ERR_INIT;
	if (assay_json_parse(v, a, reply->ptr, reply->len, NULL, &e)) {
		assay_err_set(err, ASSAY_ERROR, NULL, 0, 0, "%s: the reply is not JSON: %s", url,
			      e.msg);
		goto out;
	}
	rc = 0;
out:
	curl_slist_free_all(list);
	curl_easy_cleanup(c);
	assay_buf_release(&body);
	return rc;
}

void assay_judge__add_tokens(const assay_value *usage, const char *name, long long *to)
{
	const assay_value *t = assay_object_get(usage, name);

	if (t && t->kind == ASSAY_V_INT && t->u.i >= 0)
		*to += t->u.i;
}

char *assay_judge__endpoint(const char *base, const char *path)
{
	size_t n = strlen(base);

	while (n && base[n - 1] == '/')
		n--;
	return assay_xasprintf("%.*s%s", (int)n, base, path);
}

static char *dup_or_null(const char *s)
{
	return s && *s ? assay_xstrdup(s) : NULL;
}

struct assay_judge__api *assay_judge__api_new(const char *base_url, const char *api_key_env)
{
	struct assay_judge__api *api = assay_xcalloc(1, sizeof(*api));

	api->base_url = dup_or_null(base_url);
	api->api_key_env = dup_or_null(api_key_env);
	return api;
}

void assay_judge__api_release(void *p)
{
	struct assay_judge__api *api = p;

	if (!api)
		return;
	free(api->base_url);
	free(api->api_key_env);
	free(api);
}

char *assay_judge__key_header(const struct assay_judge__api *api, const char *prefix)
{
	const char *key = api->api_key_env ? getenv(api->api_key_env) : NULL;

	return key && *key ? assay_xasprintf("%s%s", prefix, key) : NULL;
}
