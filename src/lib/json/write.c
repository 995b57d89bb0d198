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
 * - Cutting (assay_json_write_cut, for report lines): a container is written in full, then,
 *   if its text passed the limit, its text goes to the blob store and is replaced by a marker
 *   in place; a string is cut from its bytes, unwritten. A container of the report's outermost
 *   cuttable level whose text passes a few times the limit is streamed to the store while it is
 *   written (in 1 MiB pieces, hashed as they go), so a 20 MB document never sits in memory as
 *   text; nothing inside a streamed container is cut. Inner values are cut before outer
 *   ones, so an outer blob holds the markers of its inner blobs. The last few cut values are
 *   remembered by their data, so a value that occurs twice in a report (a case's expected
 *   output, also in its definition) is serialised and stored once.
 *
 * Refuses to: escape non-ASCII, or write anything but JSON text.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "json/json_int.h"
#include "value/value_int.h"
#include "util/buf_int.h"
#include "util/sha256.h"
#include "util/utf8.h"
#include "util/banned.h"

/* bytes written as they are: printable ASCII but '"' (0x22) and '\\' (0x5c), and DEL */
static const unsigned char safe[256] = {
	[0x20 ... 0x21] = 1,
	[0x23 ... 0x5b] = 1,
	[0x5d ... 0x7f] = 1,
};

static const char hexdig[] = "0123456789abcdef";

/* Bytes of a valid UTF-8 sequence at p (*p >= 0x80), 3 for a WTF-8 surrogate of a string the
 * parser marked (*sur set), or 0
 * with *bad = bytes of the maximal invalid subpart to replace. */
static size_t seq(const unsigned char *p, size_t len, bool wtf8, size_t *bad, bool *sur)
{
	*sur = wtf8 && p[0] == 0xed && len >= 3 && p[1] >= 0xa0 && p[1] <= 0xbf && p[2] >= 0x80 &&
	       p[2] <= 0xbf;
	return *sur ? 3 : assay_utf8_seq(p, len, bad);
}

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

struct wframe {
	const assay_value *v;
	assay_member **sorted; /* SORT_KEYS: the members in key order (malloc'd) */
	uint32_t next;
	size_t start;          /* where its text began in `out` (cutting) */
};

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

/* ---- cutting big values --------------------------------------------------------------- */

#define MEMO 16
#define SPILL_MIN (1u << 20)   /* a container streams to its blob past max(this, 4 x max) */
/* A marker's head is an eighth of the cap: a container holding a marker is cut again only
 * after growing by most of the cap, so nested cuts stay few (a head of the whole cap made
 * every level of a deep nest a blob of its own). */
#define HEAD_MAX(max) ((max) / 8 ? (max) / 8 : 1)

struct memo {
	const void *data;  /* the cut value's data pointer */
	uint32_t len;
	uint8_t kind;
	size_t bytes;
	char sha[65];
	char *head;        /* the marker's head text (malloc'd) */
	size_t head_len;
};

struct cutter {
	const assay_json_cut *cut;
	struct memo memo[MEMO];
	size_t nmemo, next;
	assay_err *err;
	int rc;
	/* a container being streamed to its blob */
	bool spilling;
	size_t spill_frame;   /* its index on the writer's stack */
	size_t spill_start;   /* where its text starts in `out` (what is there is not sent yet) */
	size_t spill_bytes;   /* sent so far */
	void *handle;
	assay_sha256_ctx sha;
	char *head;
	size_t head_len;
};

/* The longest prefix of s[0..len) of at most `max` bytes that ends on a whole UTF-8 char. */
/* The longest prefix of s (whole UTF-8 characters) whose JSON text stays within `max` bytes:
 * a head of escapes (\u0000 is six bytes for one) is as long on the line as any other. */
static size_t utf8_prefix(const char *s, size_t len, size_t max)
{
	size_t n = 0, text = 0;

	while (n < len) {
		unsigned char c = (unsigned char)s[n];
		size_t step = 1, cost, bad = 0;
		bool sur;

		if (c >= 0x80) {
			step = seq((const unsigned char *)s + n, len - n, false, &bad, &sur);
			cost = step; /* kept as it is */
			if (!step)
				step = bad, cost = 3; /* one U+FFFD */
		} else {
			cost = safe[c] ? 1
			       : (c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' ||
				  c == '\b' || c == '\f') ? 2 : 6;
		}
		if (text + cost > max)
			break;
		text += cost;
		n += step;
	}
	return n;
}

static void write_marker(assay_buf *out, const struct memo *m)
{
	assay_buf_addf(out, "{\"$assay_cut\": {\"kind\": \"%s\", \"bytes\": %zu, \"sha256\": \"%s\", "
		       "\"head\": ", m->kind == ASSAY_V_STRING ? "string" : "json", m->bytes, m->sha);
	assay_json__write_string(out, m->head, m->head_len, false);
	assay_buf_add(out, "}}", 2);
}

static const struct memo *memo_find(const struct cutter *c, const assay_value *v)
{
	for (size_t i = 0; i < c->nmemo; i++)
		if (c->memo[i].data == v->u.s && c->memo[i].len == v->len &&
		    c->memo[i].kind == v->kind)
			return &c->memo[i];
	return NULL;
}

/* Remembers a cut value (its head is taken over). */
static const struct memo *remember(struct cutter *c, const assay_value *v, const char *sha,
				   size_t bytes, char *head, size_t head_len)
{
	struct memo *m = &c->memo[c->next];

	if (c->nmemo == MEMO)
		free(m->head);
	else
		c->nmemo++;
	c->next = (c->next + 1) % MEMO;
	m->data = v->u.s;
	m->len = v->len;
	m->kind = v->kind;
	m->bytes = bytes;
	memcpy(m->sha, sha, 65);
	m->head = head;
	m->head_len = head_len;
	return m;
}

static char *head_of(const char *data, size_t len, size_t max, size_t *head_len)
{
	size_t h = utf8_prefix(data, len, max);
	char *p = assay_xmalloc(h + 1);

	memcpy(p, data, h);
	p[h] = '\0';
	*head_len = h;
	return p;
}

/* Stores data[0..len) whole as the blob of `v` and remembers its marker. */
static const struct memo *cut_out(struct cutter *c, const assay_value *v, const char *data,
				  size_t len, bool json)
{
	const assay_blob_store *st = c->cut->store;
	char sha[65];
	size_t hl;
	char *head = head_of(data, len, HEAD_MAX(c->cut->max), &hl);
	void *h = NULL;

	assay_sha256_hex(sha, data, len);
	if (!c->rc && st) {
		if (!(c->rc = st->open(st->payload, &h, c->err)) &&
		    !(c->rc = st->write(h, data, len, c->err)))
			c->rc = st->close(h, sha, json, c->err);
		else if (h)
			st->abort(h);
	}
	return remember(c, v, sha, len, head, hl);
}

/* Sends what `out` holds of the streamed container to its blob. */
static void spill_flush(struct cutter *c, assay_buf *out)
{
	size_t n = out->len - c->spill_start;

	if (!n)
		return;
	assay_sha256_add(&c->sha, out->ptr + c->spill_start, n);
	if (!c->rc && c->handle)
		c->rc = c->cut->store->write(c->handle, out->ptr + c->spill_start, n, c->err);
	c->spill_bytes += n;
	assay_buf_setlen(out, c->spill_start);
}

/* Starts streaming the container of frame `k`, which began at `start` in `out`. */
static void spill_begin(struct cutter *c, assay_buf *out, size_t k, size_t start)
{
	const assay_blob_store *st = c->cut->store;

	c->spilling = true;
	c->spill_frame = k;
	c->spill_start = start;
	c->spill_bytes = 0;
	c->handle = NULL;
	c->head = head_of(out->ptr + start, out->len - start, HEAD_MAX(c->cut->max),
			  &c->head_len);
	assay_sha256_begin(&c->sha);
	if (!c->rc && st && (c->rc = st->open(st->payload, &c->handle, c->err)))
		c->handle = NULL;
	spill_flush(c, out);
}

/* The streamed container `v` has closed: finish its blob and put its marker in its place. */
static void spill_end(struct cutter *c, assay_buf *out, const assay_value *v)
{
	char sha[65];
	const struct memo *m;

	spill_flush(c, out);
	assay_sha256_end(&c->sha, sha);
	if (c->handle) {
		if (!c->rc)
			c->rc = c->cut->store->close(c->handle, sha, true, c->err);
		else
			c->cut->store->abort(c->handle);
	}
	m = remember(c, v, sha, c->spill_bytes, c->head, c->head_len);
	c->head = NULL;
	c->spilling = false;
	write_marker(out, m);
}

bool assay_json__marker_like(const char *key, size_t len)
{
	size_t n = 0;

	while (n < len && key[n] == '$')
		n++;
	return n && len - n >= 6 && !memcmp(key + n, "assay_", 6);
}

#define marker_like assay_json__marker_like

static int write_any(assay_buf *out, const assay_value *v, int flags, struct cutter *cut)
{
	bool pretty = flags & ASSAY_JSON_PRETTY, sort = flags & ASSAY_JSON_SORT_KEYS;
	size_t max = cut && cut->cut->max ? cut->cut->max : 0;
	size_t spill_at = max * 4 > SPILL_MIN ? max * 4 : SPILL_MIN;
	struct wframe *st = NULL;
	size_t nr = 0, alloc = 0;
	const assay_value *cur = v;

	for (;;) {
		/* a container of the report growing big streams to its blob as it is written */
		if (max && cut->cut->store) {
			size_t k = cut->cut->keep_depth;

			if (cut->spilling) {
				if (out->len - cut->spill_start >= SPILL_MIN)
					spill_flush(cut, out);
			} else if (nr > k && out->len - st[k].start > spill_at) {
				spill_begin(cut, out, k, st[k].start);
			}
		}
		/* write `cur`: a scalar at once, a container opens a frame */
		if (cur) {
			const struct memo *m = max && !(cut && cut->spilling) ? memo_find(cut, cur)
									    : NULL;

			if (m) {
				write_marker(out, m);
				cur = NULL;
			}
		}
		if (cur) {
			switch ((assay_kind)cur->kind) {
			case ASSAY_V_NULL: put(out, "null", 4); break;
			case ASSAY_V_BOOL:
				if (cur->u.b)
					put(out, "true", 4);
				else
					put(out, "false", 5);
				break;
			case ASSAY_V_INT:
			case ASSAY_V_BIGINT:
			case ASSAY_V_REAL: assay_json__write_number(out, cur); break;
			case ASSAY_V_STRING:
			case ASSAY_V_DATETIME:
				if (max && cur->len > max && !cut->spilling)
					write_marker(out, cut_out(cut, cur, cur->u.s, cur->len,
								  false));
				else
					write_str(out, cur->u.s, cur->len,
						  cur->flags & ASSAY__VF_WTF8);
				break;
			case ASSAY_V_ARRAY:
			case ASSAY_V_OBJECT: {
				bool obj = cur->kind == ASSAY_V_OBJECT;

				if (!cur->len) {
					assay_buf_add(out, obj ? "{}" : "[]", 2);
					break;
				}
				if (nr == alloc) {
					alloc = alloc ? alloc * 2 : 32;
					st = assay_xrealloc(st, alloc * sizeof(*st));
				}
				st[nr] = (struct wframe){ cur, NULL, 0, out->len };
				if (obj && sort) {
					st[nr].sorted = assay_xmalloc(cur->len * sizeof(assay_member *));
					for (uint32_t i = 0; i < cur->len; i++)
						st[nr].sorted[i] = &cur->u.members[i];
					qsort(st[nr].sorted, cur->len, sizeof(assay_member *),
					      member_ptr_cmp);
				}
				nr++;
				put(out, obj ? "{" : "[", 1);
				break;
			}
			}
			cur = NULL;
		}
		if (!nr)
			break;
		/* the next item of the innermost open container, or its end */
		struct wframe *f = &st[nr - 1];
		bool obj = f->v->kind == ASSAY_V_OBJECT;

		if (f->next == f->v->len) {
			if (pretty)
				newline(out, nr - 1);
			put(out, obj ? "}" : "]", 1);
			free(f->sorted);
			nr--;
			if (max && cut->spilling && nr == cut->spill_frame) {
				spill_end(cut, out, f->v);
				continue;
			}
			if (max && !cut->spilling && nr >= cut->cut->keep_depth &&
			    out->len - f->start > max) {
				const struct memo *m = cut_out(cut, f->v, out->ptr + f->start,
							       out->len - f->start, true);

				assay_buf_setlen(out, f->start);
				write_marker(out, m);
			}
			continue;
		}
		if (pretty) {
			if (f->next)
				assay_buf_addch(out, ',');
			newline(out, nr);
		} else if (f->next) {
			put(out, ", ", 2);
		}
		if (obj) {
			const assay_member *m = f->sorted ? f->sorted[f->next] : &f->v->u.members[f->next];

			if (cut && m->key.len && m->key.u.s[0] == '$' &&
			    marker_like(m->key.u.s, m->key.len)) {
				/* "$assay_cut" in the data itself: one more '$' (json.h) */
				assay_buf k = ASSAY_BUF_INIT;

				assay_buf_addch(&k, '$');
				assay_buf_add(&k, m->key.u.s, m->key.len);
				assay_json__write_string(out, k.ptr, k.len,
							 m->key.flags & ASSAY__VF_WTF8);
				assay_buf_release(&k);
			} else {
				write_str(out, m->key.u.s, m->key.len,
					  m->key.flags & ASSAY__VF_WTF8);
			}
			put(out, ": ", 2);
			cur = &m->value;
		} else {
			cur = &f->v->u.items[f->next];
		}
		f->next++;
	}
	free(st);
	return cut ? cut->rc : 0;
}

void assay_json_write(assay_buf *out, const assay_value *v, int flags)
{
	write_any(out, v, flags, NULL);
}

int assay_json_write_cut(assay_buf *out, const assay_value *v, int flags,
			 const assay_json_cut *cut, assay_err *err)
{
	struct cutter c = { 0 };
	int rc;

	c.cut = cut;
	c.err = err;
	rc = write_any(out, v, flags, &c);
	for (size_t i = 0; i < c.nmemo; i++)
		free(c.memo[i].head);
	free(c.head);
	return rc;
}
