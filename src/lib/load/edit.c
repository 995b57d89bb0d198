/*
 * Writing expected values back into a case file (`assay run --accept`, issue #11): the value of
 * expected.<attribute> is replaced, or added, and nothing else of the file changes.
 *
 * Key decisions:
 * - YAML is edited by position, so comments, key order, quoting and layout elsewhere stay as
 *   written: libyaml's events give where each node starts and ends; the value's text (from just
 *   after its key's ':' to the end of its content, never the comments or blank lines after it)
 *   is replaced, or a key is inserted after the last one of its mapping, at that mapping's
 *   indentation (or before the '}' of a flow mapping).
 * - New values are written in a form that reads back exactly: strings double-quoted, or as a
 *   literal block (`|`, `|-`) when they are several lines of plain text; structured values as
 *   JSON-like flow collections (valid YAML); reals always with a '.', since PyYAML's YAML 1.1
 *   reads 1e+16 as a string.
 * - Every edit is checked before anything is written: the new text is parsed again and must be
 *   the old document with exactly that value set; otherwise nothing is written and the error
 *   says to edit by hand. Anchored values (used elsewhere through aliases) are refused.
 * - A JSON case file is parsed, changed and written whole (JSON has no comments; key order is
 *   kept).
 * - Files are replaced atomically, keeping their permissions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/yaml.h"
#include "load/load_int.h"
#include "util/banned.h"

struct ev {
	yaml_event_type_t type;
	size_t start, end;  /* byte offsets */
	size_t col;         /* 0-based column of the start */
	char *value;        /* a scalar's value */
	size_t vlen;
	int style;          /* yaml_scalar_style_t or yaml_*_style_t */
	bool anchored;
};

struct events {
	struct ev *v;
	size_t n, alloc;
};

static void events_free(struct events *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->v[i].value);
	free(e->v);
	memset(e, 0, sizeof(*e));
}

static int events_read(struct events *out, const char *text, size_t len, const char *file,
		       assay_err *err)
{
	yaml_parser_t p;
	yaml_event_t e;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	for (;;) {
		if (!yaml_parser_parse(&p, &e)) {
			rc = assay_err_set(err, ASSAY_EPARSE, file, (int)p.problem_mark.line + 1,
					   (int)p.problem_mark.column + 1, "%s",
					   p.problem ? p.problem : "malformed YAML");
			break;
		}
		if (out->n == out->alloc) {
			out->alloc = out->alloc ? 2 * out->alloc : 64;
			out->v = assay_xrealloc(out->v, out->alloc * sizeof(*out->v));
		}
		struct ev *x = &out->v[out->n++];
		memset(x, 0, sizeof(*x));
		x->type = e.type;
		x->start = e.start_mark.index;
		x->end = e.end_mark.index;
		x->col = e.start_mark.column;
		if (e.type == YAML_SCALAR_EVENT) {
			x->value = assay_xstrndup((const char *)e.data.scalar.value,
						  e.data.scalar.length);
			x->vlen = e.data.scalar.length;
			x->style = e.data.scalar.style;
			x->anchored = e.data.scalar.anchor != NULL;
		} else if (e.type == YAML_MAPPING_START_EVENT) {
			x->style = e.data.mapping_start.style;
			x->anchored = e.data.mapping_start.anchor != NULL;
		} else if (e.type == YAML_SEQUENCE_START_EVENT) {
			x->style = e.data.sequence_start.style;
			x->anchored = e.data.sequence_start.anchor != NULL;
		}
		bool end = e.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&e);
		if (end)
			break;
	}
	yaml_parser_delete(&p);
	return rc;
}

/* The index of the event after the node that starts at `i`. */
static size_t skip(const struct events *e, size_t i)
{
	int depth = 0;

	do {
		yaml_event_type_t t = e->v[i].type;

		if (t == YAML_MAPPING_START_EVENT || t == YAML_SEQUENCE_START_EVENT)
			depth++;
		else if (t == YAML_MAPPING_END_EVENT || t == YAML_SEQUENCE_END_EVENT)
			depth--;
		i++;
	} while (depth > 0 && i < e->n);
	return i;
}

/*
 * Where the node at `i` ends in the text: its last content byte + 1, never the blank lines and
 * comments a block node's end mark takes in.
 */
static size_t content_end(const struct events *e, const char *text, size_t i)
{
	const struct ev *x = &e->v[i];

	if (x->type == YAML_SCALAR_EVENT) {
		size_t end = x->end;

		if (x->style == YAML_LITERAL_SCALAR_STYLE || x->style == YAML_FOLDED_SCALAR_STYLE)
			while (end > x->start && strchr(" \t\r\n", text[end - 1]))
				end--;
		return end;
	}
	if (x->type != YAML_MAPPING_START_EVENT && x->type != YAML_SEQUENCE_START_EVENT)
		return x->end;
	size_t close = skip(e, i) - 1;
	if (x->style == YAML_FLOW_MAPPING_STYLE || x->style == YAML_FLOW_SEQUENCE_STYLE)
		return e->v[close].end;
	/* a block collection ends with its last child */
	size_t last = i + 1;
	for (size_t k = i + 1; k < close; k = skip(e, k))
		last = k;
	return last < close ? content_end(e, text, last) : x->start;
}

/* ---- writing values ------------------------------------------------------------------- */

static void indent(assay_buf *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		assay_buf_addch(out, ' ');
}

/* Valid UTF-8 without NUL: what a YAML file may hold. */
static bool utf8_text(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t k = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
				     : (c & 0xF8) == 0xF0 ? 4 : 0;

		if (!c || !k || i + k > n || (k == 2 && c < 0xC2))
			return false;
		for (size_t j = 1; j < k; j++)
			if (((unsigned char)s[i + j] & 0xC0) != 0x80)
				return false;
		i += k;
	}
	return true;
}

static void double_quoted(assay_buf *out, const char *s, size_t n)
{
	assay_buf_addch(out, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			assay_buf_addf(out, "\\%c", c);
		else if (c == '\n')
			assay_buf_adds(out, "\\n");
		else if (c == '\t')
			assay_buf_adds(out, "\\t");
		else if (c < 0x20 || c == 0x7f)
			assay_buf_addf(out, "\\x%02x", c);
		else if (c == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] <= 0x9F)
			assay_buf_addf(out, "\\x%02x", (unsigned char)s[++i]); /* C1 controls */
		else if (c == 0xEF && i + 2 < n && (unsigned char)s[i + 1] == 0xBB &&
			 (unsigned char)s[i + 2] == 0xBF) {
			assay_buf_adds(out, "\\uFEFF");
			i += 2;
		} else
			assay_buf_addch(out, (char)c);
	}
	assay_buf_addch(out, '"');
}

/*
 * Lines of printable text, the last (at most one) newline-terminated, that a literal block
 * holds: two or more lines, or one ending in a newline when the author wrote a block there.
 */
static bool literal_block_ok(const char *s, size_t n, bool was_block)
{
	if (n < 2 || !memchr(s, '\n', was_block ? n : n - 1) || s[0] == ' ' || s[0] == '\n')
		return false; /* one line reads better quoted */
	if (n >= 2 && s[n - 1] == '\n' && s[n - 2] == '\n')
		return false; /* keep-chomping would take in the blank lines after it */
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\n') || c == 0x7f || c == 0xC2 || c == 0xEF)
			return false; /* controls, tabs, C1, BOM: double-quoted instead */
		if (c == ' ' && (i + 1 == n || s[i + 1] == '\n'))
			return false; /* trailing spaces: invisible, and editors eat them */
	}
	return true;
}

static void real_text(assay_buf *out, double d)
{
	char b[ASSAY_DOUBLE_BUFSIZE];

	if (d != d) {
		assay_buf_adds(out, ".nan");
		return;
	}
	if (d > 1.7976931348623157e308 || d < -1.7976931348623157e308) {
		assay_buf_adds(out, d < 0 ? "-.inf" : ".inf");
		return;
	}
	assay_format_double(b, d);
	char *e = strpbrk(b, "eE");
	if (strchr(b, '.')) {
		assay_buf_adds(out, b);
	} else if (e) {
		assay_buf_add(out, b, (size_t)(e - b));
		assay_buf_addf(out, ".0%s", e);
	} else {
		assay_buf_addf(out, "%s.0", b);
	}
}

/* A value in flow style (one line): JSON's shape, YAML's scalars. False: not writable. */
static bool flow_value(assay_buf *out, const assay_value *v)
{
	switch (v->kind) {
	case ASSAY_V_NULL: assay_buf_adds(out, "null"); return true;
	case ASSAY_V_BOOL: assay_buf_adds(out, v->u.b ? "true" : "false"); return true;
	case ASSAY_V_INT: assay_buf_addf(out, "%lld", (long long)v->u.i); return true;
	case ASSAY_V_BIGINT: assay_buf_add(out, v->u.s, v->len); return true;
	case ASSAY_V_REAL: real_text(out, v->u.d); return true;
	case ASSAY_V_STRING:
	case ASSAY_V_DATETIME:
		if (!utf8_text(v->u.s, v->len))
			return false;
		double_quoted(out, v->u.s, v->len);
		return true;
	case ASSAY_V_ARRAY:
		assay_buf_addch(out, '[');
		for (uint32_t i = 0; i < v->len; i++) {
			if (i)
				assay_buf_adds(out, ", ");
			if (!flow_value(out, &v->u.items[i]))
				return false;
		}
		assay_buf_addch(out, ']');
		return true;
	case ASSAY_V_OBJECT:
		assay_buf_addch(out, '{');
		for (uint32_t i = 0; i < v->len; i++) {
			const assay_member *m = &v->u.members[i];

			if (i)
				assay_buf_adds(out, ", ");
			if (!utf8_text(m->key.u.s, m->key.len))
				return false;
			double_quoted(out, m->key.u.s, m->key.len);
			assay_buf_adds(out, ": ");
			if (!flow_value(out, &m->value))
				return false;
		}
		assay_buf_addch(out, '}');
		return true;
	}
	return false;
}

/*
 * A value to follow "key:" (with its leading space or line break). `block`: the key is in a
 * block mapping at column `col`, so a literal block scalar may be used; `was_block`: the value
 * replaced was one.
 */
static bool value_text(assay_buf *out, const assay_value *v, bool block, size_t col,
		       bool was_block)
{
	if (block && v->kind == ASSAY_V_STRING && literal_block_ok(v->u.s, v->len, was_block) &&
	    utf8_text(v->u.s, v->len)) {
		const char *s = v->u.s, *end = s + v->len;

		assay_buf_adds(out, s[v->len - 1] == '\n' ? " |" : " |-");
		while (s < end) {
			const char *nl = memchr(s, '\n', (size_t)(end - s));
			size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

			assay_buf_addch(out, '\n');
			if (n)
				indent(out, col + 2);
			assay_buf_add(out, s, n);
			s += n + (nl != NULL);
		}
		return true;
	}
	assay_buf_addch(out, ' ');
	return flow_value(out, v);
}

/* A key as written in a mapping. */
static void key_text(assay_buf *out, const char *key)
{
	bool plain = *key && strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_", *key);

	for (const char *p = key; plain && *p; p++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-/",
			       *p) != NULL;
	if (plain)
		assay_buf_adds(out, key);
	else
		double_quoted(out, key, strlen(key));
}

/* "k1:" + nested "k2:" ... + the value, for keys missing from a mapping. */
static bool member_text(assay_buf *out, const char *const *path, size_t n,
			const assay_value *v, bool block, size_t col)
{
	key_text(out, path[0]);
	assay_buf_addch(out, ':');
	if (n == 1)
		return value_text(out, v, block, col, false);
	if (!block) {
		assay_buf_adds(out, " {");
		bool ok = member_text(out, path + 1, n - 1, v, false, col);
		assay_buf_addch(out, '}');
		return ok;
	}
	assay_buf_addch(out, '\n');
	indent(out, col + 2);
	return member_text(out, path + 1, n - 1, v, true, col + 2);
}

/* ---- one edit -------------------------------------------------------------------------- */

/* Finds `key` among the members of the mapping at `map`; *key_i, *val_i, or false. */
static bool find_member(const struct events *e, size_t map, const char *key, size_t *key_i,
			size_t *val_i, size_t *last_val)
{
	size_t close = skip(e, map) - 1;

	*last_val = 0;
	for (size_t k = map + 1; k < close;) {
		size_t v = skip(e, k);

		*last_val = v;
		if (e->v[k].type == YAML_SCALAR_EVENT && !strcmp(e->v[k].value, key) &&
		    strlen(key) == e->v[k].vlen) {
			*key_i = k;
			*val_i = v;
			return true;
		}
		k = skip(e, v);
	}
	return false;
}

static void splice(assay_buf *out, const char *text, size_t len, size_t from, size_t to,
		   const assay_buf *with)
{
	assay_buf_add(out, text, from);
	assay_buf_add(out, with->ptr, with->len);
	assay_buf_add(out, text + to, len - to);
}

static int refuse(assay_err *err, const char *file, const char *what, const char *const *path,
		  size_t n)
{
	assay_buf p = ASSAY_BUF_INIT;
	int rc;

	for (size_t i = 0; i < n; i++)
		assay_buf_addf(&p, "%s%s", i ? "." : "", path[i]);
	rc = assay_err_set(err, ASSAY_EINVALID, file, 0, 0, "cannot write %s: %s; edit it by hand",
			   p.ptr, what);
	assay_buf_release(&p);
	return rc;
}

/* The YAML text with path[0..n) set to `v`, into `out`. */
static int yaml_edit(assay_buf *out, const char *text, size_t len, const char *const *path,
		     size_t n, const assay_value *v, const char *file, assay_err *err)
{
	struct events e;
	assay_buf with = ASSAY_BUF_INIT;
	size_t map = 0;
	int rc;

	if ((rc = events_read(&e, text, len, file, err)))
		return rc;
	for (size_t i = 0; i < e.n && !map; i++)
		if (e.v[i].type == YAML_DOCUMENT_START_EVENT)
			map = i + 1;
	if (!map || map >= e.n || e.v[map].type != YAML_MAPPING_START_EVENT) {
		rc = refuse(err, file, "the file does not hold a mapping", path, n);
		goto out;
	}
	for (size_t d = 0; d < n; d++) {
		bool block = e.v[map].style != YAML_FLOW_MAPPING_STYLE;
		size_t k, val, last;

		if (e.v[map].anchored) {
			rc = refuse(err, file, "it is inside an anchored value", path, n);
			goto out;
		}
		if (!find_member(&e, map, path[d], &k, &val, &last)) {
			/* insert the rest of the path after the mapping's last member */
			size_t at, col = e.v[map].col;

			if (block) {
				at = content_end(&e, text, last);
				while (at < len && text[at] != '\n')
					at++; /* after a comment on that line */
				assay_buf_addch(&with, '\n');
				indent(&with, col);
			} else {
				at = last ? content_end(&e, text, last)
					  : e.v[skip(&e, map) - 1].start;
				if (last)
					assay_buf_adds(&with, ", ");
			}
			if (!member_text(&with, path + d, n - d, v, block, col)) {
				rc = refuse(err, file, "the value is not UTF-8 text", path, n);
				goto out;
			}
			splice(out, text, len, at, at, &with);
			goto out;
		}
		if (d + 1 < n) {
			if (e.v[val].type != YAML_MAPPING_START_EVENT) {
				rc = refuse(err, file, "the value around it is not a mapping", path,
					    d + 1);
				goto out;
			}
			map = val;
			continue;
		}
		/* replace from just after the key's ':' to the end of the value's content */
		size_t from = e.v[k].end;
		while (from < len && text[from] != ':')
			from++;
		if (from == len || e.v[val].anchored) {
			rc = refuse(err, file, e.v[val].anchored ? "the value is anchored (&)"
								 : "its key is unusual",
				    path, n);
			goto out;
		}
		bool was_block = e.v[val].type == YAML_SCALAR_EVENT &&
				 (e.v[val].style == YAML_LITERAL_SCALAR_STYLE ||
				  e.v[val].style == YAML_FOLDED_SCALAR_STYLE);
		if (!value_text(&with, v, block, e.v[k].col, was_block)) {
			rc = refuse(err, file, "the value is not UTF-8 text", path, n);
			goto out;
		}
		/* an empty value (`output:`) has no text of its own: insert after the ':' */
		size_t to = e.v[val].type == YAML_SCALAR_EVENT && !e.v[val].vlen &&
				    e.v[val].style == YAML_PLAIN_SCALAR_STYLE
			    ? from + 1
			    : content_end(&e, text, val);
		splice(out, text, len, from + 1, to, &with);
	}
out:
	assay_buf_release(&with);
	events_free(&e);
	return rc;
}

/* `doc` with path[0..n) set to `v` (mappings made where missing), in `a`. */
static bool set_path(assay_arena *a, assay_value *doc, const char *const *path, size_t n,
		     const assay_value *v)
{
	if (doc->kind != ASSAY_V_OBJECT)
		return false;
	if (n == 1) {
		assay_object_set(a, doc, path[0], *v);
		return true;
	}
	const assay_value *inner = assay_object_get(doc, path[0]);
	assay_value copy = inner ? *inner : assay_value_object();
	/* copy the member list so that the original document stays as it was */
	assay_value fresh = assay_value_object();
	for (uint32_t i = 0; copy.kind == ASSAY_V_OBJECT && i < copy.len; i++)
		assay_object_append(a, &fresh, copy.u.members[i].key, copy.u.members[i].value);
	if (copy.kind != ASSAY_V_OBJECT || !set_path(a, &fresh, path + 1, n - 1, v))
		return false;
	assay_object_set(a, doc, path[0], fresh);
	return true;
}

/* Parses `text` as the case file `file` is parsed. */
static int parse_case(assay_value *out, assay_arena *a, const char *text, size_t len,
		      bool json, const char *file, assay_err *err)
{
	if (json) {
		assay_json_opts o = ASSAY_JSON_OPTS_INIT;

		o.source = file;
		return assay_json_parse(out, a, text, len, &o, err);
	}
	assay_yaml_opts o = ASSAY_YAML_OPTS_INIT;

	o.source = file;
	return assay_yaml_parse(out, a, text, len, &o, err);
}

/* The copy of `doc`'s top level, so that set_path changes only the copy. */
static assay_value shallow(assay_arena *a, const assay_value *doc)
{
	assay_value out = assay_value_object();

	for (uint32_t i = 0; doc->kind == ASSAY_V_OBJECT && i < doc->len; i++)
		assay_object_append(a, &out, doc->u.members[i].key, doc->u.members[i].value);
	return out;
}

/* The path in the case file of an attribute: expected.<attr>, or expected.files.<path>. */
static size_t attribute_path(const char *path[3], const char *attribute)
{
	const char *file = assay_file_attribute_path(attribute);

	path[0] = "expected";
	if (file) {
		path[1] = "files";
		path[2] = file;
		return 3;
	}
	path[1] = attribute;
	return 2;
}

static int edit_one(assay_buf *text, bool json, const char *file,
		    const assay_expected_edit *edit, assay_err *err)
{
	assay_arena *a = assay_arena_new(0);
	assay_buf out = ASSAY_BUF_INIT;
	assay_value before, after, want;
	const char *path[3];
	size_t n = attribute_path(path, edit->attribute);
	int rc;

	if ((rc = parse_case(&before, a, text->ptr, text->len, json, file, err)))
		goto out;
	want = shallow(a, &before);
	if (!set_path(a, &want, path, n, &edit->value)) {
		rc = refuse(err, file, "the value around it is not a mapping", path, n);
		goto out;
	}
	if (json) {
		/* in the file's own style: a one-line file (often a big generated one) stays one
		 * line, instead of growing by half in indentation */
		const char *nl = memchr(text->ptr, '\n', text->len);
		bool one_line = !nl || (size_t)(nl - text->ptr) + 1 >= text->len;

		assay_json_write(&out, &want, one_line ? 0 : ASSAY_JSON_PRETTY);
		assay_buf_addch(&out, '\n');
	} else if ((rc = yaml_edit(&out, text->ptr, text->len, path, n, &edit->value, file, err))) {
		goto out;
	}
	/* What was written must read back as the old document with this one value set. */
	assay_err e2 = ASSAY_ERR_INIT;
	if (parse_case(&after, a, out.ptr, out.len, json, file, &e2) ||
	    !assay_value_equal(&after, &want)) {
		rc = refuse(err, file, "the edit would not read back as intended", path, n);
		goto out;
	}
	assay_buf_reset(text);
	assay_buf_add(text, out.ptr, out.len);
out:
	assay_buf_release(&out);
	assay_arena_free(a);
	return rc;
}

int assay_case_file_set_expected(const char *file, const assay_expected_edit *edits, size_t n,
				 assay_err *err)
{
	assay_buf text = ASSAY_BUF_INIT;
	size_t len = strlen(file);
	bool json = len > 5 && !strcmp(file + len - 5, ".json");
	struct stat st;
	int rc;

	if (stat(file, &st))
		return assay_err_set(err, ASSAY_ENOTFOUND, file, 0, 0, "cannot read the case file");
	if ((rc = assay_fs_read(&text, file, ASSAY_LOAD_MAX_FILE, err)))
		goto out;
	for (size_t i = 0; i < n && !rc; i++)
		rc = edit_one(&text, json, file, &edits[i], err);
	if (!rc)
		rc = assay_fs_write_atomic(file, text.ptr, text.len, (int)(st.st_mode & 07777),
					   err);
out:
	assay_buf_release(&text);
	return rc;
}
