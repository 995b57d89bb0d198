/*
 * Values -> JSON text (json.h: assay_json_write), in the shape Python's json.dumps writes, so
 * that diffs and reports read the same as those of the Python harnesses.
 *
 * Key decisions:
 * - Compact form uses Python's default separators ", " and ": " ({"a": 1, "b": [1, 2]});
 *   ASSAY_JSON_PRETTY indents by 2 with "," and ": " (json.dumps(indent=2)); empty containers
 *   are always "[]" and "{}".
 * - Numbers: integers and bigints as their digits; reals as Python's repr (value.h,
 *   assay_format_double), NaN/Infinity/-Infinity as Python's json writes them.
 * - Strings: \" \\ \n \r \t \b \f escaped, other control characters as \u00xx (lower-case hex,
 *   as Python), non-ASCII kept as UTF-8 (ensure_ascii=False). Bytes that are not UTF-8 (a
 *   string made from raw output) become U+FFFD, one per maximal invalid subsequence as
 *   Python's bytes.decode(errors="replace"); a lone surrogate kept by the parser (WTF-8, in a string it marked) is
 *   written back as its \udxxx escape. So the text is always valid UTF-8 JSON.
 * - Datetimes are written as strings of their RFC 3339 text (JSON has no dates).
 * - Object keys keep insertion order unless ASSAY_JSON_SORT_KEYS (byte order, which is code
 *   point order for UTF-8, as Python's sort_keys).
 * - Iterative (an explicit stack), so any depth can be written.
 * - This file is the plain writer only. Cutting big values into blobs for report lines
 *   (assay_json_write_cut) is a layer on top of it (cut.c), through the writer's hooks
 *   (write_int.h): the plain writer knows nothing of blobs.
 *
 * Refuses to: escape non-ASCII, or write anything but JSON text.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "json/json_lib.h"
#include "json/write_int.h"
#include "value/value_int.h"
#include "util/buf_int.h"
#include "util/utf8.h"
#include "util/banned.h"

static const char hexdig[] = "0123456789abcdef";

#define seq assay_json__seq

/* Appends n bytes, inline while there is room, as nearly always (a 20 MB document is
 * millions of small appends). */
#define put assay_buf__add

void assay_json__write_string(assay_buf *out, const char *s, size_t len, bool wtf8)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0;

	/* room for the common case at once (escapes may still grow it); a capped buffer goes
	 * through assay_buf_add, which keeps its cap */
	bool direct = !out->max;

	if (direct) {
		assay_buf_grow(out, len + 2);
		out->ptr[out->len++] = '"';
	} else {
		assay_buf_addch(out, '"');
	}
	while (i < len) {
		unsigned char c;
		char esc[8];
		size_t n = 0, bad = 0;
		bool sur;

		i = (size_t)(assay_json__plain_run(s + i, s + len) - s);
		if (i == len)
			break;
		c = p[i];
		if (c >= 0x80) {
			size_t k = seq(p + i, len - i, wtf8, &bad, &sur);

			if (k && !sur) {
				i += k;
				continue;
			}
			assay_buf_add(out, s + run, i - run);
			if (sur) {
				unsigned cp = (unsigned)(p[i] & 0x0f) << 12 |
					      (unsigned)(p[i + 1] & 0x3f) << 6 | (p[i + 2] & 0x3f);

				esc[0] = '\\', esc[1] = 'u';
				for (int d = 0; d < 4; d++)
					esc[2 + d] = hexdig[cp >> (12 - 4 * d) & 0xf];
				assay_buf_add(out, esc, 6);
				i += 3;
			} else {
				assay_buf_add(out, "\xef\xbf\xbd", 3);
				i += bad;
			}
			run = i;
			continue;
		}
		switch (c) {
		case '"': esc[0] = '\\', esc[1] = '"', n = 2; break;
		case '\\': esc[0] = '\\', esc[1] = '\\', n = 2; break;
		case '\n': esc[0] = '\\', esc[1] = 'n', n = 2; break;
		case '\r': esc[0] = '\\', esc[1] = 'r', n = 2; break;
		case '\t': esc[0] = '\\', esc[1] = 't', n = 2; break;
		case '\b': esc[0] = '\\', esc[1] = 'b', n = 2; break;
		case '\f': esc[0] = '\\', esc[1] = 'f', n = 2; break;
		default:
			esc[0] = '\\', esc[1] = 'u', esc[2] = '0', esc[3] = '0';
			esc[4] = hexdig[c >> 4], esc[5] = hexdig[c & 0xf], n = 6;
			break;
		}
		assay_buf_add(out, s + run, i - run);
		assay_buf_add(out, esc, n);
		run = ++i;
	}
	if (!run && direct) {
		/* nothing escaped: one copy into the room made above */
		memcpy(out->ptr + out->len, s, len);
		out->len += len;
		out->ptr[out->len++] = '"';
		out->ptr[out->len] = '\0';
		return;
	}
	assay_buf_add(out, s + run, len - run);
	assay_buf_addch(out, '"');
}

/* A string: a plain one (no escapes, ASCII) in place when there is room, else as above. */
static inline void write_str(assay_buf *out, const char *s, size_t len, bool wtf8)
{
	if (assay_buf__fits(out, len + 2) && assay_json__plain_run(s, s + len) == s + len) {
		assay_buf__put(out, "\"", 1);
		assay_buf__put(out, s, len);
		assay_buf__put(out, "\"", 1);
		return;
	}
	assay_json__write_string(out, s, len, wtf8);
}

void assay_json__write_number(assay_buf *out, const assay_value *v)
{
	char b[ASSAY_DOUBLE_BUFSIZE];
	size_t n;

	switch (v->kind) {
	case ASSAY_V_INT: {
		uint64_t m = v->u.i < 0 ? 0 - (uint64_t)v->u.i : (uint64_t)v->u.i;
		char *e = b + sizeof(b), *q = e;

		do
			*--q = (char)('0' + m % 10);
		while (m /= 10);
		if (v->u.i < 0)
			*--q = '-';
		put(out, q, (size_t)(e - q));
		return;
	}
	case ASSAY_V_BIGINT:
		assay_buf_add(out, v->u.s, v->len);
		return;
	case ASSAY_V_REAL:
		if (isnan(v->u.d)) {
			assay_buf_add(out, "NaN", 3);
		} else if (isinf(v->u.d)) {
			assay_buf_adds(out, v->u.d < 0 ? "-Infinity" : "Infinity");
		} else {
			n = assay_format_double(b, v->u.d);
			put(out, b, n);
		}
		return;
	default:
		return;
	}
}

/* A member sort for ASSAY_JSON_SORT_KEYS. */
static int member_ptr_cmp(const void *pa, const void *pb)
{
	const assay_member *a = *(assay_member *const *)pa, *b = *(assay_member *const *)pb;
	size_t n = a->key.len < b->key.len ? a->key.len : b->key.len;
	int c = n ? memcmp(a->key.u.s, b->key.u.s, n) : 0;

	return c ? c : (a->key.len > b->key.len) - (a->key.len < b->key.len);
}


/* Indentation stops growing at this depth: a deeply nested value printed in full would
 * otherwise take space growing with the square of its depth. */
#define INDENT_MAX 64

static void newline(assay_buf *out, size_t depth)
{
	static const char spaces[2 * INDENT_MAX + 1] =
		"                                                                "
		"                                                                ";

	assay_buf_addch(out, '\n');
	assay_buf_add(out, spaces, 2 * (depth < INDENT_MAX ? depth : INDENT_MAX));
}

static const struct assay_json__hooks no_hooks;

struct writer {
	assay_buf *out;
	const struct assay_json__hooks *h;
	bool pretty, sort;
	struct assay_json__frame *st; /* the open containers, outermost first */
	size_t nr, alloc;
};

/* Opens non-empty container `v`: its frame, its members in key order if sorted, its bracket. */
static void open_container(struct writer *w, const assay_value *v, bool obj)
{
	struct assay_json__frame *f;

	if (w->nr == w->alloc) {
		w->alloc = w->alloc ? w->alloc * 2 : 32;
		w->st = assay_xrealloc(w->st, w->alloc * sizeof(*w->st));
	}
	f = &w->st[w->nr++];
	*f = (struct assay_json__frame){ v, NULL, 0, w->out->len };
	if (obj && w->sort) {
		f->sorted = assay_xmalloc(v->len * sizeof(assay_member *));
		for (uint32_t i = 0; i < v->len; i++)
			f->sorted[i] = &v->u.members[i];
		qsort(f->sorted, v->len, sizeof(assay_member *), member_ptr_cmp);
	}
	put(w->out, obj ? "{" : "[", 1);
}

/* Writes `v`: a scalar at once; a container opens a frame (its items come from next_item). */
static void write_value(struct writer *w, const assay_value *v)
{
	assay_buf *out = w->out;

	switch ((assay_kind)v->kind) {
	case ASSAY_V_NULL: put(out, "null", 4); break;
	case ASSAY_V_BOOL:
		if (v->u.b)
			put(out, "true", 4);
		else
			put(out, "false", 5);
		break;
	case ASSAY_V_INT:
	case ASSAY_V_BIGINT:
	case ASSAY_V_REAL: assay_json__write_number(out, v); break;
	case ASSAY_V_STRING:
	case ASSAY_V_DATETIME: write_str(out, v->u.s, v->len, v->flags & ASSAY__VF_WTF8); break;
	case ASSAY_V_ARRAY:
	case ASSAY_V_OBJECT: {
		bool obj = v->kind == ASSAY_V_OBJECT;

		if (!v->len)
			assay_buf_add(out, obj ? "{}" : "[]", 2);
		else
			open_container(w, v, obj);
		break;
	}
	}
}

/* Closes the innermost open container, whose items are all written. */
static void close_container(struct writer *w)
{
	struct assay_json__frame *f = &w->st[w->nr - 1];

	if (w->pretty)
		newline(w->out, w->nr - 1);
	put(w->out, f->v->kind == ASSAY_V_OBJECT ? "}" : "]", 1);
	free(f->sorted);
	w->nr--;
	if (w->h->closed)
		w->h->closed(w->h->self, w->out, f->v, w->nr, f->start);
}

/* The next item of the innermost open container, after its separator (and key), or NULL when
 * the container has ended (it is closed). */
static const assay_value *next_item(struct writer *w)
{
	struct assay_json__frame *f = &w->st[w->nr - 1];
	assay_buf *out = w->out;

	if (f->next == f->v->len) {
		close_container(w);
		return NULL;
	}
	if (w->pretty) {
		if (f->next)
			assay_buf_addch(out, ',');
		newline(out, w->nr);
	} else if (f->next) {
		put(out, ", ", 2);
	}
	if (f->v->kind != ASSAY_V_OBJECT)
		return &f->v->u.items[f->next++];

	const assay_member *m = f->sorted ? f->sorted[f->next] : &f->v->u.members[f->next];

	if (!w->h->key || (w->h->key_first && (!m->key.len || m->key.u.s[0] != w->h->key_first)) ||
	    !w->h->key(w->h->self, out, &m->key))
		write_str(out, m->key.u.s, m->key.len, m->key.flags & ASSAY__VF_WTF8);
	put(out, ": ", 2);
	f->next++;
	return &m->value;
}

void assay_json__write_with(assay_buf *out, const assay_value *v, int flags,
			    const struct assay_json__hooks *hooks)
{
	struct writer w = { out, hooks ? hooks : &no_hooks, flags & ASSAY_JSON_PRETTY,
			    flags & ASSAY_JSON_SORT_KEYS, NULL, 0, 0 };
	const assay_value *cur = v;

	for (;;) {
		if (w.h->step)
			w.h->step(w.h->self, out, w.st, w.nr);
		if (cur && (!w.h->value || cur->kind < ASSAY_V_STRING ||
			    !w.h->value(w.h->self, out, cur)))
			write_value(&w, cur);
		if (!w.nr)
			break;
		cur = next_item(&w);
	}
	free(w.st);
}

void assay_json_write(assay_buf *out, const assay_value *v, int flags)
{
	assay_json__write_with(out, v, flags, NULL);
}

/* ---- what reads back (json_lib.h) ------------------------------------------------------- */

#define READS_BACK_DEPTH 64
#define READS_BACK_MEMBERS 32

/* Valid UTF-8 without a lone surrogate's mark: the writer writes it as it is, escapes aside,
 * and the parser reads the same bytes back. */
static bool text_reads_back(const assay_value *s)
{
	const unsigned char *p = (const unsigned char *)s->u.s;
	size_t i = 0, bad;

	if (s->flags & ASSAY__VF_WTF8)
		return false;
	while (i < s->len) {
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		size_t n = assay_utf8_seq(p + i, s->len - i, &bad);

		if (!n)
			return false;
		i += n;
	}
	return true;
}

static bool reads_back(const assay_value *v, size_t depth)
{
	switch (v->kind) {
	case ASSAY_V_NULL:
	case ASSAY_V_BOOL:
	case ASSAY_V_INT:
		return true;
	case ASSAY_V_REAL:
		return !isnan(v->u.d);
	case ASSAY_V_STRING:
		return text_reads_back(v);
	case ASSAY_V_ARRAY:
		if (depth >= READS_BACK_DEPTH)
			return false;
		for (uint32_t i = 0; i < v->len; i++)
			if (!reads_back(&v->u.items[i], depth + 1))
				return false;
		return true;
	case ASSAY_V_OBJECT:
		if (depth >= READS_BACK_DEPTH || v->len > READS_BACK_MEMBERS)
			return false;
		for (uint32_t i = 0; i < v->len; i++) {
			const assay_member *m = &v->u.members[i];

			if (m->key.kind != ASSAY_V_STRING || !text_reads_back(&m->key) ||
			    !reads_back(&m->value, depth + 1))
				return false;
			for (uint32_t j = 0; j < i; j++)
				if (v->u.members[j].key.len == m->key.len &&
				    (!m->key.len ||
				     !memcmp(v->u.members[j].key.u.s, m->key.u.s, m->key.len)))
					return false;
		}
		return true;
	default: /* a bigint (perhaps one an int64 holds), a datetime (a string once read) */
		return false;
	}
}

bool assay_json__reads_back(const assay_value *v)
{
	return v && reads_back(v, 0);
}
