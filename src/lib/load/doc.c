/*
 * Files of a suite as values, located messages, merging and {{static:}} substitution.
 *
 * Key decisions:
 * - YAML and JSON files are parsed straight into the arena of what they belong to (the suite or
 *   one case) with positions recorded (value.h), so a wrong value is reported where it is
 *   written: a locator lists the arenas to look in, each with its file.
 * - Merging shares every unchanged subtree (a struct copy shares the data, and with it the
 *   position), so a value that came from suite.yaml's defaults is still reported in suite.yaml.
 * - Substitution is copy-on-write for the same reason.
 */
#define _GNU_SOURCE /* memmem */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/buf.h"
#include "assay/fs.h"
#include "assay/json.h"
#include "assay/yaml.h"
#include "load/load_int.h"
#include "util/sha256.h"
#include "util/banned.h"

int assay_load__file(assay_value *out, assay_arena *a, const char *path, char *sha256,
		     assay_err *err)
{
	assay_buf text = ASSAY_BUF_INIT;
	size_t n = strlen(path);
	int rc;

	if (sha256)
		sha256[0] = '\0';
	rc = assay_fs_read(&text, path, ASSAY_LOAD_MAX_FILE, err);
	if (rc)
		goto out;
	if (sha256)
		assay_sha256_hex(sha256, text.ptr, text.len);
	if (n > 5 && !strcmp(path + n - 5, ".json")) {
		assay_json_opts o = ASSAY_JSON_OPTS_INIT;

		o.source = path;
		o.positions = true;
		rc = assay_json_parse(out, a, text.ptr, text.len, &o, err);
	} else {
		assay_yaml_opts o = ASSAY_YAML_OPTS_INIT;

		o.source = path;
		o.positions = true;
		rc = assay_yaml_parse(out, a, text.ptr, text.len, &o, err);
	}
out:
	assay_buf_release(&text);
	return rc;
}

static bool find(const struct locator *loc, const assay_value *v, size_t *which, assay_pos *pos)
{
	for (size_t i = 0; v && i < loc->n; i++) {
		if (assay_arena_position(loc->arena[i], v, pos)) {
			*which = i;
			return true;
		}
	}
	return false;
}

bool assay_load__locate(const struct locator *loc, const assay_value *v, char *out, size_t size)
{
	size_t i = 0;
	assay_pos pos;

	if (find(loc, v, &i, &pos)) {
		snprintf(out, size, "%s:%u:%u", loc->path[i], pos.line, pos.col);
		return true;
	}
	snprintf(out, size, "%s", loc->n ? loc->path[0] : "");
	return false;
}

int assay_load__verr_at(const struct locator *loc, const assay_value *v, assay_err *err,
			int code, const char *fmt, va_list ap)
{
	char msg[512];
	size_t i = 0;
	assay_pos pos = { 0, 0 };
	bool found = find(loc, v, &i, &pos);

	vsnprintf(msg, sizeof(msg), fmt, ap);
	return assay_err_set(err, code, loc->n ? loc->path[i] : NULL, found ? (int)pos.line : 0,
			     found ? (int)pos.col : 0, "%s", msg);
}

int assay_load__err_at(const struct locator *loc, const assay_value *v, assay_err *err, int code,
		       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	assay_load__verr_at(loc, v, err, code, fmt, ap);
	va_end(ap);
	return code;
}

char *assay_load__msg_at(const struct locator *loc, const assay_value *v, const char *fmt,
			 va_list ap)
{
	assay_err e = ASSAY_ERR_INIT;
	char out[1200];

	assay_load__verr_at(loc, v, &e, ASSAY_EINVALID, fmt, ap);
	return assay_xstrdup(assay_err_format(&e, out, sizeof(out)));
}

const char *assay_load__scalar_text(const assay_value *v, char *scratch, size_t size)
{
	switch (v ? (assay_kind)v->kind : ASSAY_V_NULL) {
	case ASSAY_V_STRING:
	case ASSAY_V_BIGINT:
	case ASSAY_V_DATETIME:
		return v->u.s;
	case ASSAY_V_INT:
		snprintf(scratch, size, "%lld", (long long)v->u.i);
		return scratch;
	case ASSAY_V_REAL: {
		char b[ASSAY_DOUBLE_BUFSIZE];

		assay_format_double(b, v->u.d);
		snprintf(scratch, size, "%s", b);
		return scratch;
	}
	case ASSAY_V_BOOL:
		return v->u.b ? "true" : "false";
	default:
		return NULL;
	}
}

bool assay_load__in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

assay_value assay_load__merge(assay_arena *a, const assay_value *base, const assay_value *over)
{
	if (!over)
		return base ? *base : assay_value_null();
	if (!base || base->kind != ASSAY_V_OBJECT || over->kind != ASSAY_V_OBJECT)
		return *over;

	assay_value out = assay_value_object();

	for (uint32_t i = 0; i < base->len; i++) {
		const assay_member *m = &base->u.members[i];

		if (!assay_object_getn(over, m->key.u.s, m->key.len))
			assay_object_append(a, &out, m->key, m->value);
	}
	for (uint32_t i = 0; i < over->len; i++) {
		const assay_member *m = &over->u.members[i];
		const assay_value *under = assay_object_getn(base, m->key.u.s, m->key.len);

		assay_object_append(a, &out, m->key, assay_load__merge(a, under, &m->value));
	}
	return out;
}

/* The `by` string of a list entry (an input_files entry's "path"), or NULL. */
static const assay_value *entry_path(const assay_value *e, const char *by)
{
	const assay_value *p = e->kind == ASSAY_V_OBJECT ? assay_object_get(e, by) : NULL;

	return p && p->kind == ASSAY_V_STRING ? p : NULL;
}

static bool same_path(const assay_value *a, const assay_value *b)
{
	return a && b && a->len == b->len && !memcmp(a->u.s, b->u.s, a->len);
}

/* The merged list `rule->key` of `out` (input_files), from the inherited one and the case's. */
static void merge_list(assay_arena *a, assay_value *out, const assay_value *base,
		       const assay_value *over, const assay_list_merge *rule)
{
	const assay_value *bf = assay_object_get(base, rule->key);
	const assay_value *of = assay_object_get(over, rule->key);
	assay_value files = assay_value_array();

	if (!bf || !of || bf->kind != ASSAY_V_ARRAY || of->kind != ASSAY_V_ARRAY)
		return; /* absent, or null (which drops the inherited list): as merged */
	/* the inherited entries in their order, each replaced by the case's entry of that name */
	for (uint32_t i = 0; i < bf->len; i++) {
		const assay_value *e = &bf->u.items[i], *p = entry_path(e, rule->by);

		for (uint32_t j = 0; p && j < of->len; j++)
			if (same_path(p, entry_path(&of->u.items[j], rule->by)))
				e = &of->u.items[j];
		assay_array_push(a, &files, *e);
	}
	/* then the case's other entries, in its order */
	for (uint32_t j = 0; j < of->len; j++) {
		const assay_value *p = entry_path(&of->u.items[j], rule->by);
		bool inherited = false;

		for (uint32_t i = 0; p && i < bf->len && !inherited; i++)
			inherited = same_path(p, entry_path(&bf->u.items[i], rule->by));
		if (!inherited)
			assay_array_push(a, &files, of->u.items[j]);
	}
	assay_object_set(a, out, rule->key, files);
}

assay_value assay_load__merge_case(assay_arena *a, const assay_value *base,
				   const assay_value *over, const assay_list_merge *lists)
{
	assay_value out = assay_load__merge(a, base, over);

	for (const assay_list_merge *rule = lists; out.kind == ASSAY_V_OBJECT && rule && rule->key;
	     rule++)
		merge_list(a, &out, base, over, rule);
	return out;
}

#define STATIC_OPEN "{{static:"

/* The first STATIC_OPEN in [p, end), or NULL: by memchr, since nearly every string has no '{'
 * at all (memmem costs more per call on the short strings of a large document). */
static const char *find_open(const char *p, const char *end)
{
	size_t olen = strlen(STATIC_OPEN);

	while (end - p >= (ptrdiff_t)olen && (p = memchr(p, '{', (size_t)(end - p)))) {
		if (end - p >= (ptrdiff_t)olen && !memcmp(p, STATIC_OPEN, olen))
			return p;
		p++;
	}
	return NULL;
}

static int substitute_string(assay_value *out, assay_arena *a, const assay_value *v,
			     const assay_value *assets, const struct locator *loc, assay_err *err)
{
	const char *s = v->u.s, *p = s, *end = s + v->len;
	size_t olen = strlen(STATIC_OPEN);
	assay_buf b = ASSAY_BUF_INIT;

	*out = *v;
	if (!find_open(s, end))
		return 0;
	while (p < end) {
		const char *open = find_open(p, end);

		if (!open) {
			assay_buf_add(&b, p, (size_t)(end - p));
			break;
		}
		assay_buf_add(&b, p, (size_t)(open - p));
		const char *name = open + olen;
		const char *close = memmem(name, (size_t)(end - name), "}}", 2);
		if (!close) {
			assay_buf_add(&b, open, (size_t)(end - open));
			break;
		}
		const assay_value *path = assay_object_getn(assets, name, (size_t)(close - name));
		if (!path) {
			int rc = assay_load__err_at(loc, v, err, ASSAY_EINVALID,
						    "unknown static asset '%.*s' (suite.yaml "
						    "static_assets)", (int)(close - name), name);
			assay_buf_release(&b);
			return rc;
		}
		assay_buf_add(&b, path->u.s, path->len);
		p = close + 2;
	}
	*out = assay_value_string(a, b.ptr, b.len);
	assay_buf_release(&b);
	return 0;
}

/* Whether substitution can change `v`: a container, or a string long enough to hold a
 * placeholder ("{{static:}}" at least). Checked before the call: a case's expected output can
 * hold millions of values, nearly all short strings and numbers. */
static bool may_hold_placeholder(const assay_value *v)
{
	return v->kind == ASSAY_V_ARRAY || v->kind == ASSAY_V_OBJECT ||
	       (v->kind == ASSAY_V_STRING && v->len >= sizeof(STATIC_OPEN "}}") - 1);
}

int assay_load__substitute(assay_value *out, assay_arena *a, const assay_value *v,
			   const assay_value *assets, const struct locator *loc, assay_err *err)
{
	bool obj = v->kind == ASSAY_V_OBJECT;
	assay_value copy = *v;
	int rc;

	*out = *v;
	if (v->kind == ASSAY_V_STRING)
		return substitute_string(out, a, v, assets, loc, err);
	if (!obj && v->kind != ASSAY_V_ARRAY)
		return 0;
	for (uint32_t i = 0; i < v->len; i++) {
		const assay_value *item = obj ? &v->u.members[i].value : &v->u.items[i];
		assay_value s;

		if (!may_hold_placeholder(item))
			continue;
		if ((rc = assay_load__substitute(&s, a, item, assets, loc, err)))
			return rc;
		if (s.u.s == item->u.s && s.kind == item->kind)
			continue;
		if (copy.u.s == v->u.s) {
			/* first change: copy this container (the items it shares keep theirs) */
			size_t size = obj ? sizeof(assay_member) : sizeof(assay_value);
			void *p = assay_arena_alloc(a, v->len * size);

			memcpy(p, v->u.s, v->len * size);
			copy.u.s = p;
			copy.flags = 0;
		}
		if (obj)
			copy.u.members[i].value = s;
		else
			copy.u.items[i] = s;
	}
	*out = copy;
	return 0;
}

/*
 * Shared readers
 */

int assay_load__argv(assay_strvec *out, const assay_member *m, const char *what,
		     const struct locator *loc, assay_err *err)
{
	char scratch[64];
	const assay_value *v = m ? &m->value : NULL;

	if (!v || v->kind == ASSAY_V_NULL)
		return 0;
	if (v->kind == ASSAY_V_STRING) {
		assay_err e = ASSAY_ERR_INIT;
		int rc = assay_shell_split(out, v->u.s, &e);

		return rc ? assay_load__err_at(loc, v, err, rc, "%s: %s", what, e.msg) : 0;
	}
	if (v->kind != ASSAY_V_ARRAY)
		return assay_load__err_at(loc, assay_member_anchor(m), err, ASSAY_EINVALID,
					  "%s must be a list of strings or a string", what);
	for (uint32_t i = 0; i < v->len; i++) {
		const assay_value *item = &v->u.items[i];
		const char *s = assay_load__scalar_text(item, scratch, sizeof(scratch));
		const assay_value *where = item->kind == ASSAY_V_STRING ? item : v;

		if (!s || item->kind == ASSAY_V_DATETIME)
			return assay_load__err_at(loc, where, err, ASSAY_EINVALID,
						  "%s[%u] must be a string", what, i);
		if (item->kind == ASSAY_V_STRING && memchr(s, '\0', item->len))
			return assay_load__err_at(loc, item, err, ASSAY_EINVALID,
						  "%s[%u] holds a NUL byte", what, i);
		assay_strvec_push(out, s);
	}
	return 0;
}

int assay_load__env(assay_strvec *env, const assay_member *em, const struct locator *loc,
		    assay_err *err)
{
	char scratch[64];
	const assay_value *v = em ? &em->value : NULL;

	if (!v || v->kind == ASSAY_V_NULL)
		return 0;
	if (v->kind != ASSAY_V_OBJECT)
		return assay_load__err_at(loc, assay_member_anchor(em), err, ASSAY_EINVALID,
					  "env must be a mapping of names to strings");
	for (uint32_t i = 0; i < v->len; i++) {
		const assay_member *m = &v->u.members[i];
		const char *key = m->key.u.s;

		if (!*key || strchr(key, '=') || memchr(key, '\0', m->key.len))
			return assay_load__err_at(loc, &m->key, err, ASSAY_EINVALID,
						  "invalid environment variable name '%s'", key);
		if (m->value.kind == ASSAY_V_NULL) {
			assay_strvec_push(env, key);
			continue;
		}
		const char *s = assay_load__scalar_text(&m->value, scratch, sizeof(scratch));
		if (!s || (m->value.kind == ASSAY_V_STRING && memchr(s, '\0', m->value.len)))
			return assay_load__err_at(loc, &m->key, err, ASSAY_EINVALID,
						  "env %s must be a string", key);
		assay_strvec_pushf(env, "%s=%s", key, s);
	}
	return 0;
}

int assay_load__timeout(double *out, const assay_member *m, const struct locator *loc,
			assay_err *err)
{
	const assay_value *v = m ? &m->value : NULL;
	double d;

	if (!v || v->kind == ASSAY_V_NULL)
		return 0;
	d = assay_value_number(v);
	if (!assay_value_is_number(v) || !(d > 0) || d > 1e9)
		return assay_load__err_at(loc, assay_member_anchor(m), err, ASSAY_EINVALID,
					  "timeout must be a number of seconds > 0");
	*out = d;
	return 0;
}

/* A size in bytes: an integer, or a string "N", "NK", "NM", "NG" (powers of 1024). */
static bool size_of(const assay_value *v, long long *out)
{
	if (v->kind == ASSAY_V_INT) {
		*out = v->u.i;
		return v->u.i > 0;
	}
	if (v->kind == ASSAY_V_STRING && v->len) {
		char *end;
		double n = strtod(v->u.s, &end);
		double unit = 1;

		switch (*end) {
		case 'k': case 'K': unit = 1024.0; end++; break;
		case 'm': case 'M': unit = 1024.0 * 1024; end++; break;
		case 'g': case 'G': unit = 1024.0 * 1024 * 1024; end++; break;
		default: break;
		}
		if (*end == 'B' || *end == 'b')
			end++;
		if (*end || !(n > 0) || n * unit > 9e18)
			return false;
		*out = (long long)(n * unit);
		return *out > 0;
	}
	return false;
}

int assay_load__limits(assay_limits *out, const assay_member *m, const struct locator *loc,
		       assay_err *err)
{
	static const char *const keys[] = { "cpu_time", "memory", "file_size", "open_files",
					    "processes", NULL };
	const assay_value *v = m ? &m->value : NULL;

	if (!v || v->kind == ASSAY_V_NULL)
		return 0;
	if (v->kind != ASSAY_V_OBJECT)
		return assay_load__err_at(loc, assay_member_anchor(m), err, ASSAY_EINVALID,
					  "limits must be a mapping (cpu_time, memory, file_size, "
					  "open_files, processes)");
	for (uint32_t i = 0; i < v->len; i++) {
		const assay_member *lm = &v->u.members[i];
		const char *k = lm->key.u.s;
		const assay_value *x = &lm->value;
		bool null = x->kind == ASSAY_V_NULL;
		long long n = 0;

		if (!assay_load__in_list(keys, k))
			return assay_load__err_at(loc, &lm->key, err, ASSAY_EINVALID,
						  "limits: unknown limit '%s' (cpu_time, memory, "
						  "file_size, open_files, processes)", k);
		if (!strcmp(k, "cpu_time")) {
			double d = assay_value_number(x);

			if (!null && (!assay_value_is_number(x) || !(d > 0) || d > 1e9))
				return assay_load__err_at(loc, assay_member_anchor(lm), err,
							  ASSAY_EINVALID, "limits.cpu_time must "
							  "be a number of seconds > 0");
			out->cpu_s = null ? 0 : d;
		} else if (!strcmp(k, "memory") || !strcmp(k, "file_size")) {
			if (!null && !size_of(x, &n))
				return assay_load__err_at(loc, assay_member_anchor(lm), err,
							  ASSAY_EINVALID, "limits.%s must be a "
							  "number of bytes > 0, or a size such as "
							  "\"512M\"", k);
			if (!strcmp(k, "memory"))
				out->memory_bytes = n;
			else
				out->file_size_bytes = n;
		} else {
			if (!null && (x->kind != ASSAY_V_INT || x->u.i <= 0 || x->u.i > 1 << 30))
				return assay_load__err_at(loc, assay_member_anchor(lm), err,
							  ASSAY_EINVALID, "limits.%s must be an "
							  "integer > 0", k);
			if (!strcmp(k, "open_files"))
				out->open_files = null ? 0 : (long)x->u.i;
			else
				out->processes = null ? 0 : (long)x->u.i;
		}
	}
	return 0;
}
