/*
 * Parsed documents and positioned errors. YAML and JSON files both become jansson values; YAML
 * files keep the position of every node so a wrong value is reported where it is written.
 */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/buf.h"
#include "assay/fs.h"
#include "assay/json.h"
#include "load/load_int.h"
#include "util/banned.h"

/* Suite and case files are small; anything past this is a mistake, not a suite. */
#define MAX_DOC_BYTES (256u * 1024 * 1024)

int assay_load__doc(struct doc *d, const char *path, assay_err *err)
{
	assay_buf text = ASSAY_BUF_INIT;
	size_t n = strlen(path);
	int rc;

	d->path = assay_xstrdup(path);
	rc = assay_fs_read(&text, path, MAX_DOC_BYTES, err);
	if (rc)
		goto out;
	if (n > 5 && !strcmp(path + n - 5, ".json"))
		rc = assay_json_parse(&d->root, text.ptr, text.len, path, err);
	else
		rc = assay_yaml_parse(&d->root, &d->marks, text.ptr, text.len, path, err);
out:
	assay_buf_release(&text);
	return rc;
}

void assay_load__doc_release(struct doc *d)
{
	free(d->path);
	json_decref(d->root);
	assay_yaml_marks_free(d->marks);
	*d = (struct doc)DOC_INIT;
}

static const struct doc *locate(const struct docset *ds, const json_t *node, int *line, int *col)
{
	*line = *col = 0;
	for (size_t i = 0; node && i < ds->n; i++) {
		if (ds->docs[i]->marks && assay_yaml_mark(ds->docs[i]->marks, node, line, col))
			return ds->docs[i];
	}
	return ds->n ? ds->docs[0] : NULL;
}

static int node_verr(const struct docset *ds, const json_t *node, assay_err *err, int code,
		     const char *fmt, va_list ap)
{
	char msg[512];
	int line, col;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	const struct doc *d = locate(ds, node, &line, &col);
	return assay_err_set(err, code, d ? d->path : NULL, line, col, "%s", msg);
}

int assay_load__node_err(const struct docset *ds, const json_t *node, assay_err *err, int code,
			 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	node_verr(ds, node, err, code, fmt, ap);
	va_end(ap);
	return code;
}

char *assay_load__node_msg(const struct docset *ds, const json_t *node, const char *fmt, ...)
{
	assay_err e = ASSAY_ERR_INIT;
	char out[1200];
	va_list ap;

	va_start(ap, fmt);
	node_verr(ds, node, &e, ASSAY_EINVALID, fmt, ap);
	va_end(ap);
	return assay_xstrdup(assay_err_format(&e, out, sizeof(out)));
}

const char *assay_load__scalar_text(const json_t *v, char *scratch, size_t size)
{
	const char *lit;

	switch (json_typeof(v)) {
	case JSON_STRING:
		if ((lit = assay_json_bignum_literal(v)))
			return lit;
		return json_string_value(v);
	case JSON_INTEGER:
		snprintf(scratch, size, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		return scratch;
	case JSON_REAL: {
		assay_buf b = ASSAY_BUF_INIT;
		assay_json_dump(&b, v, 0);
		snprintf(scratch, size, "%s", b.ptr);
		assay_buf_release(&b);
		return scratch;
	}
	case JSON_TRUE:
		return "true";
	case JSON_FALSE:
		return "false";
	default:
		return NULL;
	}
}

json_t *assay_load__merge(const json_t *base, const json_t *over)
{
	if (!over)
		return base ? json_incref((json_t *)base) : NULL;
	if (!base || !json_is_object(base) || !json_is_object(over))
		return json_incref((json_t *)over);

	json_t *out = json_object();
	const char *key;
	json_t *value;
	json_object_foreach((json_t *)base, key, value)
		json_object_set(out, key, value);
	json_object_foreach((json_t *)over, key, value) {
		json_t *under = json_object_get(base, key);
		json_object_set_new(out, key, assay_load__merge(under, value));
	}
	return out;
}

#define STATIC_OPEN "{{static:"

static json_t *substitute_string(const json_t *v, const json_t *assets, const struct docset *ds,
				 assay_err *err)
{
	const char *s = json_string_value(v);
	size_t len = json_string_length(v);

	if (!memmem(s, len, STATIC_OPEN, strlen(STATIC_OPEN)))
		return json_incref((json_t *)v);

	assay_buf out = ASSAY_BUF_INIT;
	const char *p = s, *end = s + len;
	while (p < end) {
		const char *open = memmem(p, (size_t)(end - p), STATIC_OPEN, strlen(STATIC_OPEN));
		if (!open) {
			assay_buf_add(&out, p, (size_t)(end - p));
			break;
		}
		assay_buf_add(&out, p, (size_t)(open - p));
		const char *name = open + strlen(STATIC_OPEN);
		const char *close = memmem(name, (size_t)(end - name), "}}", 2);
		if (!close) {
			assay_buf_add(&out, open, (size_t)(end - open));
			break;
		}
		char *key = assay_xstrndup(name, (size_t)(close - name));
		const json_t *path = json_object_get(assets, key);
		if (!path) {
			assay_load__node_err(ds, v, err, ASSAY_EINVALID,
					     "unknown static asset '%s' (suite.yaml static_assets)",
					     key);
			free(key);
			assay_buf_release(&out);
			return NULL;
		}
		free(key);
		assay_buf_adds(&out, json_string_value(path));
		p = close + 2;
	}
	json_t *r = json_stringn(out.ptr, out.len);
	assay_buf_release(&out);
	return r;
}

/* Copy-on-write: a container is copied only when something inside it changed, so values
 * keep their identity, and with it their source position. */
json_t *assay_load__substitute(const json_t *v, const json_t *assets, const struct docset *ds,
			       assay_err *err)
{
	bool changed = false;
	json_t *out = NULL;

	if (json_is_string(v))
		return substitute_string(v, assets, ds, err);
	if (json_is_array(v)) {
		size_t i;
		json_t *item;
		out = json_array();
		json_array_foreach(v, i, item) {
			json_t *s = assay_load__substitute(item, assets, ds, err);
			if (!s)
				goto fail;
			changed |= s != item;
			json_array_append_new(out, s);
		}
	} else if (json_is_object(v)) {
		const char *key;
		json_t *item;
		out = json_object();
		json_object_foreach((json_t *)v, key, item) {
			json_t *s = assay_load__substitute(item, assets, ds, err);
			if (!s)
				goto fail;
			changed |= s != item;
			json_object_set_new(out, key, s);
		}
	} else {
		return json_incref((json_t *)v);
	}
	if (changed)
		return out;
	json_decref(out);
	return json_incref((json_t *)v);
fail:
	json_decref(out);
	return NULL;
}
