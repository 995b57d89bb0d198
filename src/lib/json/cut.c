/*
 * Cutting big values out of report lines (json.h: assay_json_write_cut): a layer on top of the
 * plain writer (write.c), through its hooks (write_int.h). The text is the plain writer's,
 * byte for byte, but for the markers this layer puts in place of what it cuts.
 *
 * Key decisions:
 * - A container is written in full, then, if its text passed the limit, its text goes to the
 *   blob store and is replaced by a marker in place (the `closed` hook); a string is cut from
 *   its bytes, unwritten (the `value` hook).
 * - A container of the report's outermost cuttable level whose text passes a few times the
 *   limit is streamed to the store while it is written (the `step` hook: in 1 MiB pieces,
 *   hashed as they go), so a 20 MB document never sits in memory as text; nothing inside a
 *   streamed container is cut.
 * - Inner values are cut before outer ones, so an outer blob holds the markers of its inner
 *   blobs.
 * - The last few cut values are remembered by their data, so a value that occurs twice in a
 *   report (a case's expected output, also in its definition) is serialised and stored once.
 * - A key of the data that looks like a marker's gets one more '$' (the `key` hook).
 *
 * Refuses to: cut anything inside a streamed container, or change a byte of what it does not
 * cut.
 */
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "json/json_lib.h"
#include "json/write_int.h"
#include "value/value_int.h"
#include "util/sha256.h"
#include "util/banned.h"

/* bytes written as they are: printable ASCII but '"' (0x22) and '\\' (0x5c), and DEL */
static const unsigned char safe[256] = {
	[0x20 ... 0x21] = 1,
	[0x23 ... 0x5b] = 1,
	[0x5d ... 0x7f] = 1,
};

#define seq assay_json__seq

/* The slow paths of the hooks (a cut, a marker, the end of a streamed container, an escaped
 * key), out of line, so that a hook's common path (nothing to cut) stays a few instructions. */
#define COLD __attribute__((noinline, cold))


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
	size_t spill_at;      /* a container of the outermost cuttable level streams past this */
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
	bool escaped;         /* a key of the data was written with one '$' more */
};

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
COLD static void spill_end(struct cutter *c, assay_buf *out, const assay_value *v)
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


/* ---- the hooks on the plain writer ------------------------------------------------------ */

/* A container of the report growing big streams to its blob as it is written. */
static void cut_step(void *self, assay_buf *out, const struct assay_json__frame *open,
		     size_t depth)
{
	struct cutter *c = self;
	size_t k = c->cut->keep_depth;

	if (c->spilling) {
		if (out->len - c->spill_start >= SPILL_MIN)
			spill_flush(c, out);
	} else if (depth > k && out->len - open[k].start > c->spill_at) {
		spill_begin(c, out, k, open[k].start);
	}
}

COLD static void cut_string(struct cutter *c, assay_buf *out, const assay_value *v)
{
	write_marker(out, cut_out(c, v, v->u.s, v->len, false));
}

COLD static void cut_container(struct cutter *c, assay_buf *out, const assay_value *v,
			       size_t start)
{
	const struct memo *m = cut_out(c, v, out->ptr + start, out->len - start, true);

	assay_buf_setlen(out, start);
	write_marker(out, m);
}

COLD static void marker_again(assay_buf *out, const struct memo *m)
{
	write_marker(out, m);
}

/* A value cut before (its marker again), or a string past the limit (cut from its bytes). */
static bool cut_value(void *self, assay_buf *out, const assay_value *v)
{
	struct cutter *c = self;
	const struct memo *m;

	if (c->spilling)
		return false;
	if (c->nmemo && (m = memo_find(c, v))) {
		marker_again(out, m);
		return true;
	}
	if ((v->kind == ASSAY_V_STRING || v->kind == ASSAY_V_DATETIME) && v->len > c->cut->max) {
		cut_string(c, out, v);
		return true;
	}
	return false;
}

/* A closed container: the end of the one streaming, or one past the limit cut from its text. */
static void cut_closed(void *self, assay_buf *out, const assay_value *v, size_t depth,
		       size_t start)
{
	struct cutter *c = self;

	if (c->spilling) {
		if (depth == c->spill_frame)
			spill_end(c, out, v);
		return;
	}
	if (depth >= c->cut->keep_depth && out->len - start > c->cut->max)
		cut_container(c, out, v, start);
}

/* A key of the data written with one more '$'. */
COLD static void write_escaped_key(assay_buf *out, const assay_value *key)
{
	assay_buf k = ASSAY_BUF_INIT;

	assay_buf_addch(&k, '$');
	assay_buf_add(&k, key->u.s, key->len);
	assay_json__write_string(out, k.ptr, k.len, key->flags & ASSAY__VF_WTF8);
	assay_buf_release(&k);
}

/* "$assay_cut" in the data itself: one more '$' (json.h). */
static bool cut_key(void *self, assay_buf *out, const assay_value *key)
{
	struct cutter *c = self;

	if (!key->len || key->u.s[0] != '$' || !assay_json__marker_like(key->u.s, key->len))
		return false;
	c->escaped = true;
	write_escaped_key(out, key);
	return true;
}

int assay_json_write_cut(assay_buf *out, const assay_value *v, int flags,
			 const assay_json_cut *cut, assay_err *err)
{
	return assay_json__write_cut_any(out, v, flags, cut, NULL, err);
}

int assay_json__write_cut_any(assay_buf *out, const assay_value *v, int flags,
			      const assay_json_cut *cut, bool *cut_any, assay_err *err)
{
	struct cutter c = { 0 };
	struct assay_json__hooks h = { .key = cut_key, .key_first = '$', .self = &c };

	c.cut = cut;
	c.err = err;
	if (cut->max) {
		c.spill_at = cut->max * 4 > SPILL_MIN ? cut->max * 4 : SPILL_MIN;
		h.value = cut_value;
		h.closed = cut_closed;
		if (cut->store)
			h.step = cut_step;
	}
	assay_json__write_with(out, v, flags, &h);
	/* every cut value is remembered (a marker written again was remembered first) */
	if (cut_any)
		*cut_any = c.nmemo || c.escaped;
	for (size_t i = 0; i < c.nmemo; i++)
		free(c.memo[i].head);
	free(c.head);
	return c.rc;
}
