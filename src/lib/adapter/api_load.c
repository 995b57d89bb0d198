/*
 * The api adapter's keys (suite-format.md, "A case (api adapter)"): the suite's (address, port,
 * health_path, startup_timeout, response_is_json) read once at load, and each case's (method,
 * path, headers, query, body, retries) read into typed data in the case's arena. Every bad value
 * is an error located at its line.
 *
 * Key decisions:
 * - The request is built here, once: the target is the path with the query appended, encoded
 *   as Python's requests encodes `params` (urlencode: `+` for a space, %XX for the rest of what
 *   is not unreserved; a list repeats its key; null drops the key; true/false as Python prints
 *   them, True/False). A path keeps its characters, but bytes that are not ASCII are %XX-encoded;
 *   white space and control characters are refused (they cannot be sent as they are).
 * - A body that is a mapping, list, number or boolean is sent as JSON (json.dumps' spacing) with
 *   `Content-Type: application/json` unless the case gives a Content-Type; a string is sent as
 *   it is, with no Content-Type of its own (requests' `data=`).
 * - Header names are HTTP tokens, values text without CR, LF or NUL (a header injection is a
 *   load error, not a request).
 * - Expected `headers` are a mapping; their names are compared in lower case (HTTP names are
 *   case-insensitive; the actual headers are reported in lower case) and their values as text.
 *   Unless the case names a verifier for them, they are compared with `json` and
 *   `ignore_extra_keys` (a server sends Date, Server, ... the case does not care about). An
 *   expected `output` is compared with `json` by default when the suite says
 *   `response_is_json` or the expected value is a mapping or list.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "adapter/api_int.h"
#include "assay/json.h"
#include "util/banned.h"

#define MAX_RETRIES 100

static const struct api_config default_config = { "127.0.0.1", false, 0, "/", 10.0, false };

const struct api_config *assay_api__config(const assay_suite *s)
{
	return s->adapter_data ? s->adapter_data : &default_config;
}

/* Path characters sent as they are: printable ASCII but '#'. */
static bool path_ok(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch <= 0x20 || ch == 0x7f || ch == '#')
			return false;
	}
	return true;
}

int assay_api__load_suite(assay_suite *s, const assay_value *a, assay_err *err)
{
	struct api_config *cfg = assay_arena_alloc(s->arena, sizeof(*cfg));
	const assay_member *m;

	s->adapter_type = ASSAY_ADAPTER_API; /* for programs written before the registry */
	*cfg = default_config;
	if ((m = assay_object_member(a, "address")) && m->value.kind != ASSAY_V_NULL) {
		unsigned char addr[16];

		if (m->value.kind != ASSAY_V_STRING)
			return assay_suite_error_at(s, assay_member_anchor(m), err,
						    "adapter.address must be an IP address "
						    "(127.0.0.1, ::1)");
		cfg->address = m->value.u.s;
		if (inet_pton(AF_INET6, cfg->address, addr) == 1)
			cfg->ipv6 = true;
		else if (inet_pton(AF_INET, cfg->address, addr) != 1)
			return assay_suite_error_at(s, &m->value, err,
						    "adapter.address must be an IP address "
						    "(127.0.0.1, ::1), not '%s'", cfg->address);
	}
	if ((m = assay_object_member(a, "port")) && m->value.kind != ASSAY_V_NULL) {
		if (m->value.kind != ASSAY_V_INT || m->value.u.i < 1 || m->value.u.i > 65535)
			return assay_suite_error_at(s, assay_member_anchor(m), err,
						    "adapter.port must be a port number "
						    "(1-65535); leave it out for a free one");
		cfg->port = (unsigned)m->value.u.i;
	}
	if ((m = assay_object_member(a, "health_path")) && m->value.kind != ASSAY_V_NULL) {
		if (m->value.kind != ASSAY_V_STRING || m->value.u.s[0] != '/' ||
		    !path_ok(m->value.u.s, m->value.len))
			return assay_suite_error_at(s, assay_member_anchor(m), err,
						    "adapter.health_path must be a path starting "
						    "with '/' (no spaces)");
		cfg->health_path = m->value.u.s;
	}
	if ((m = assay_object_member(a, "startup_timeout")) && m->value.kind != ASSAY_V_NULL) {
		double t = assay_value_number(&m->value);

		if (!assay_value_is_number(&m->value) || !(t > 0) || t > 86400)
			return assay_suite_error_at(s, assay_member_anchor(m), err,
						    "adapter.startup_timeout must be a number of "
						    "seconds > 0");
		cfg->startup_timeout = t;
	}
	if ((m = assay_object_member(a, "response_is_json")) && m->value.kind != ASSAY_V_NULL) {
		if (m->value.kind != ASSAY_V_BOOL)
			return assay_suite_error_at(s, assay_member_anchor(m), err,
						    "adapter.response_is_json must be true or "
						    "false");
		cfg->response_is_json = m->value.u.b;
	}
	s->adapter_data = cfg;
	return 0;
}

/* ---- the request ---- */

static bool is_tchar(unsigned char ch)
{
	return isalnum(ch) || (ch && strchr("!#$%&'*+-.^_`|~", ch));
}

static bool token_ok(const char *s, size_t len)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!is_tchar((unsigned char)s[i]))
			return false;
	return true;
}

/* A scalar as Python's str() prints it (what requests sends), or false for other kinds. */
static bool scalar_text(assay_buf *out, const assay_value *v)
{
	switch ((assay_kind)v->kind) {
	case ASSAY_V_STRING:
	case ASSAY_V_BIGINT:
	case ASSAY_V_DATETIME:
		assay_buf_add(out, v->u.s, v->len);
		return true;
	case ASSAY_V_INT:
	case ASSAY_V_REAL:
		assay_json_write(out, v, 0);
		return true;
	case ASSAY_V_BOOL:
		assay_buf_adds(out, v->u.b ? "True" : "False");
		return true;
	default:
		return false;
	}
}

/* Python's urllib.parse.quote_plus. */
static void quote_plus(assay_buf *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (isalnum(ch) || ch == '_' || ch == '.' || ch == '-' || ch == '~')
			assay_buf_addch(out, (char)ch);
		else if (ch == ' ')
			assay_buf_addch(out, '+');
		else
			assay_buf_addf(out, "%%%02X", ch);
	}
}

static void add_param(assay_buf *q, const assay_value *key, const char *val, size_t vlen)
{
	if (q->len)
		assay_buf_addch(q, '&');
	quote_plus(q, key->u.s, key->len);
	assay_buf_addch(q, '=');
	quote_plus(q, val, vlen);
}

static int load_query(assay_buf *q, const assay_member *m, const assay_case_load_ctx *ctx,
		      assay_err *err)
{
	const assay_value *v = &m->value;
	assay_buf text = ASSAY_BUF_INIT;
	int rc = 0;

	if (v->kind == ASSAY_V_NULL)
		return 0;
	if (v->kind == ASSAY_V_STRING) {
		const char *s = v->u.s + (v->len && v->u.s[0] == '?');

		if (!path_ok(s, strlen(s)) || strlen(s) != v->len - (size_t)(s - v->u.s))
			return assay_case_error_at(ctx, v, err,
						   "query as a string must be encoded already "
						   "(no spaces, control characters or '#')");
		assay_buf_adds(q, s);
		return 0;
	}
	if (v->kind != ASSAY_V_OBJECT)
		return assay_case_error_at(ctx, assay_member_anchor(m), err,
					   "query must be a mapping of parameters (or an encoded "
					   "string)");
	for (uint32_t i = 0; i < v->len && !rc; i++) {
		const assay_member *p = &v->u.members[i];
		const assay_value *vals = &p->value;
		uint32_t n = vals->kind == ASSAY_V_ARRAY ? vals->len : 1;

		for (uint32_t j = 0; j < n && !rc; j++) {
			const assay_value *item = vals->kind == ASSAY_V_ARRAY ? &vals->u.items[j]
									      : vals;

			if (item->kind == ASSAY_V_NULL)
				continue; /* requests drops None */
			assay_buf_reset(&text);
			if (!scalar_text(&text, item))
				rc = assay_case_error_at(ctx, assay_member_anchor(p), err,
							 "query parameter '%s' must be a "
							 "string, a number or a list of them",
							 p->key.u.s);
			else
				add_param(q, &p->key, text.ptr, text.len);
		}
	}
	assay_buf_release(&text);
	return rc;
}

/* path (default "/") with its query: the request target. */
static int load_target(struct api_case *ac, const assay_value *def,
		       const assay_case_load_ctx *ctx, assay_err *err)
{
	const assay_member *pm = assay_object_member(def, "path");
	const assay_member *qm = assay_object_member(def, "query");
	assay_buf t = ASSAY_BUF_INIT, q = ASSAY_BUF_INIT;
	int rc;

	if (pm && pm->value.kind != ASSAY_V_NULL) {
		const assay_value *p = &pm->value;

		if (p->kind != ASSAY_V_STRING || p->u.s[0] != '/')
			return assay_case_error_at(ctx, assay_member_anchor(pm), err,
						   "path must be a string starting with '/'");
		for (size_t i = 0; i < p->len; i++) {
			unsigned char ch = (unsigned char)p->u.s[i];

			if (ch <= 0x20 || ch == 0x7f || ch == '#') {
				assay_buf_release(&t);
				return assay_case_error_at(ctx, p, err,
							   "path holds a space, a control "
							   "character or '#' (encode it: %%20)");
			}
			if (ch >= 0x80)
				assay_buf_addf(&t, "%%%02X", ch);
			else
				assay_buf_addch(&t, (char)ch);
		}
	} else {
		assay_buf_addch(&t, '/');
	}
	if (qm && (rc = load_query(&q, qm, ctx, err))) {
		assay_buf_release(&t);
		assay_buf_release(&q);
		return rc;
	}
	if (q.len) {
		assay_buf_addch(&t, memchr(t.ptr, '?', t.len) ? '&' : '?');
		assay_buf_add(&t, q.ptr, q.len);
	}
	ac->target = assay_arena_strndup(ctx->kase->arena, t.ptr, t.len);
	assay_buf_release(&t);
	assay_buf_release(&q);
	return 0;
}

static int load_method(struct api_case *ac, const assay_member *m, const assay_case_load_ctx *ctx,
		       assay_err *err)
{
	char *up;

	ac->method = "GET";
	if (!m || m->value.kind == ASSAY_V_NULL)
		return 0;
	if (m->value.kind != ASSAY_V_STRING || !token_ok(m->value.u.s, m->value.len))
		return assay_case_error_at(ctx, assay_member_anchor(m), err,
					   "method must be an HTTP method (GET, POST, PUT, PATCH, "
					   "DELETE, ...)");
	up = assay_arena_strndup(ctx->kase->arena, m->value.u.s, m->value.len);
	for (char *p = up; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	ac->method = up;
	return 0;
}

/* headers into "Name: value" lines; `*has_type` when one is Content-Type. */
static int load_headers(assay_strvec *lines, bool *has_type, const assay_member *m,
			const assay_case_load_ctx *ctx, assay_err *err)
{
	const assay_value *v = m ? &m->value : NULL;
	assay_buf text = ASSAY_BUF_INIT;

	if (!v || v->kind == ASSAY_V_NULL)
		return 0;
	if (v->kind != ASSAY_V_OBJECT)
		return assay_case_error_at(ctx, assay_member_anchor(m), err,
					   "headers must be a mapping of name to value");
	for (uint32_t i = 0; i < v->len; i++) {
		const assay_member *h = &v->u.members[i];

		assay_buf_reset(&text);
		if (!token_ok(h->key.u.s, h->key.len)) {
			assay_buf_release(&text);
			return assay_case_error_at(ctx, &h->key, err,
						   "header name '%s' is not an HTTP token",
						   h->key.u.s);
		}
		if (h->value.kind == ASSAY_V_BOOL || !scalar_text(&text, &h->value) ||
		    memchr(text.ptr, '\r', text.len) || memchr(text.ptr, '\n', text.len) ||
		    memchr(text.ptr, '\0', text.len)) {
			assay_buf_release(&text);
			return assay_case_error_at(ctx, assay_member_anchor(h), err,
						   "header '%s' must be text on one line (or a "
						   "number)", h->key.u.s);
		}
		if (!strcasecmp(h->key.u.s, "content-type"))
			*has_type = true;
		assay_strvec_pushf(lines, "%s: %s", h->key.u.s, text.ptr);
	}
	assay_buf_release(&text);
	return 0;
}

static int load_body(struct api_case *ac, bool *json, const assay_member *m,
		     const assay_case_load_ctx *ctx)
{
	assay_buf b = ASSAY_BUF_INIT;

	*json = false;
	if (!m || m->value.kind == ASSAY_V_NULL)
		return 0;
	if (m->value.kind == ASSAY_V_STRING) {
		ac->body = m->value.u.s;
		ac->body_len = m->value.len;
		return 0;
	}
	assay_json_write(&b, &m->value, 0);
	ac->body = assay_arena_strndup(ctx->kase->arena, b.ptr, b.len);
	ac->body_len = b.len;
	assay_buf_release(&b);
	*json = true;
	return 0;
}

static int load_retries(struct api_case *ac, const assay_member *m,
			const assay_case_load_ctx *ctx, assay_err *err)
{
	if (!m || m->value.kind == ASSAY_V_NULL)
		return 0;
	if (m->value.kind != ASSAY_V_INT || m->value.u.i < 0 || m->value.u.i > MAX_RETRIES)
		return assay_case_error_at(ctx, assay_member_anchor(m), err,
					   "retries must be a whole number from 0 to %d",
					   MAX_RETRIES);
	ac->retries = (int)m->value.u.i;
	return 0;
}

/* ---- expected headers and default verifiers ---- */

/* Expected headers: names in lower case, values as text. */
static int normalise_headers(assay_case *c, const assay_case_load_ctx *ctx, assay_err *err)
{
	const assay_value *h = assay_object_get(&c->expected, "headers");
	assay_value out = assay_value_object();
	assay_buf text = ASSAY_BUF_INIT;

	if (!h)
		return 0;
	if (h->kind != ASSAY_V_OBJECT)
		return assay_case_error_at(ctx, h->kind == ASSAY_V_STRING ? h : ctx->own, err,
					   "expected headers must be a mapping of name to value");
	for (uint32_t i = 0; i < h->len; i++) {
		const assay_member *m = &h->u.members[i];
		char *name = assay_arena_strndup(c->arena, m->key.u.s, m->key.len);

		for (char *p = name; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		assay_buf_reset(&text);
		if (m->value.kind == ASSAY_V_STRING || m->value.kind == ASSAY_V_OBJECT ||
		    m->value.kind == ASSAY_V_ARRAY || m->value.kind == ASSAY_V_NULL ||
		    !scalar_text(&text, &m->value))
			assay_object_set(c->arena, &out, name, m->value);
		else
			assay_object_set(c->arena, &out, name,
					 assay_value_string(c->arena, text.ptr, text.len));
	}
	assay_buf_release(&text);
	assay_object_set(c->arena, &c->expected, "headers", out);
	return 0;
}

/* verify.<attr> gets `verifier` (and `extra`: true, when given) unless it names one. */
static void default_verifier(assay_case *c, const char *attr, const char *verifier,
			     const char *extra)
{
	const assay_value *old = assay_object_get(&c->verify, attr);
	assay_value entry = assay_value_object();

	if (!assay_object_get(&c->expected, attr) ||
	    (old && assay_object_get(old, "verifier")))
		return;
	for (uint32_t i = 0; old && old->kind == ASSAY_V_OBJECT && i < old->len; i++)
		assay_object_append(c->arena, &entry, old->u.members[i].key,
				    old->u.members[i].value);
	assay_object_set(c->arena, &entry, "verifier", assay_value_strz(c->arena, verifier));
	if (extra && !assay_object_get(&entry, extra))
		assay_object_set(c->arena, &entry, extra, assay_value_bool(true));
	assay_object_set(c->arena, &c->verify, attr, entry);
}

int assay_api__load_case(assay_case *c, const assay_value *def, const assay_case_load_ctx *ctx,
			 assay_err *err)
{
	const struct api_config *cfg = assay_api__config(ctx->suite);
	struct api_case *ac = assay_arena_alloc(c->arena, sizeof(*ac));
	assay_strvec lines = ASSAY_STRVEC_INIT;
	bool has_type = false, json = false;
	const assay_value *out;
	int rc;

	memset(ac, 0, sizeof(*ac));
	if ((rc = load_method(ac, assay_object_member(def, "method"), ctx, err)) ||
	    (rc = load_target(ac, def, ctx, err)) ||
	    (rc = load_headers(&lines, &has_type, assay_object_member(def, "headers"), ctx,
			       err)) ||
	    (rc = load_body(ac, &json, assay_object_member(def, "body"), ctx)) ||
	    (rc = load_retries(ac, assay_object_member(def, "retries"), ctx, err)) ||
	    (rc = normalise_headers(c, ctx, err))) {
		assay_strvec_clear(&lines);
		return rc;
	}
	if (json && !has_type)
		assay_strvec_push(&lines, "Content-Type: application/json");
	ac->headers = assay_arena_alloc(c->arena, (lines.nr + 1) * sizeof(char *));
	for (size_t i = 0; i < lines.nr; i++)
		ac->headers[i] = assay_arena_strndup(c->arena, lines.v[i], strlen(lines.v[i]));
	ac->headers[lines.nr] = NULL;
	assay_strvec_clear(&lines);

	out = assay_object_get(&c->expected, "output");
	if (cfg->response_is_json ||
	    (out && (out->kind == ASSAY_V_OBJECT || out->kind == ASSAY_V_ARRAY)))
		default_verifier(c, "output", "json", NULL);
	default_verifier(c, "headers", "json", "ignore_extra_keys");
	c->adapter_data = ac;
	return 0;
}
