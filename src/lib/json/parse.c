/*
 * JSON text -> values (json.h: assay_json_parse), as Python's json.loads reads it.
 *
 * Key decisions:
 * - Python is the reference, because suites and their reference evaluators are Python: NaN,
 *   Infinity and -Infinity are accepted; integers of any length are exact (a bigint past
 *   int64) up to Python's 4300-digit limit (int_max_str_digits), past which Python refuses the
 *   text; reals are correctly rounded doubles (1e400 is inf); a duplicated key keeps the first
 *   key's place and the last value (dict assignment); control characters inside strings are
 *   refused (strict mode); lone surrogate escapes are kept (as WTF-8 bytes, which the writer
 *   escapes back). Error messages and 1-based columns (in characters) are Python's:
 *   "Expecting value", "Expecting ',' delimiter", "Unterminated string starting at", ...
 * - Input is UTF-8 bytes; an invalid sequence inside a string is an error (Python would not
 *   have decoded the text at all).
 * - One pass, no recursion: containers are an explicit frame stack, finished values wait on a
 *   value stack and are moved into the arena in one block when their container closes, so
 *   nesting depth costs memory, never C stack, and each container is one allocation.
 * - `borrow`: a string without escapes points into the input instead of being copied.
 * - Positions are recorded only on request (in the arena's table, value.h); columns are counted
 *   incrementally along a line so a long line does not make them quadratic.
 * - The arena's limit is checked as containers close and strings are made: past it the parse
 *   stops with ASSAY_ETOOBIG (a hostile 66 MB array must not take gigabytes). The stacks and
 *   the key table are charged to the arena as they grow (assay_arena_charge), so a deep
 *   `[[[...` costs budget as values do; every 4096 steps assay_arena_check() also stops the
 *   parse at the budget's time. Containers nest at most ASSAY_MAX_DEPTH (100,000) deep.
 *
 * Refuses to: accept comments, trailing commas, single quotes, leading zeros or '+' signs (as
 * Python does); nest past ASSAY_MAX_DEPTH.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "json/json_int.h"
#include "value/value_int.h"
#include "util/utf8.h"
#include "util/hash.h"
#include "util/banned.h"

#define PY_INT_MAX_DIGITS 4300

_Static_assert(sizeof(assay_member) == 2 * sizeof(assay_value),
	       "an object's members are moved from the value stack as key/value pairs");

enum { C_PLAIN = 0, C_QUOTE, C_BSLASH, C_CTRL, C_HIGH };

static const unsigned char str_class[256] = {
	[0x00 ... 0x1f] = C_CTRL,
	[0x22] = C_QUOTE,   /* '"' */
	[0x5c] = C_BSLASH,  /* '\\' */
	[0x80 ... 0xff] = C_HIGH,
};

struct frame {
	size_t start;   /* first slot of this container on the value stack */
	bool obj;
	assay_pos pos;  /* where it opened (positions only) */
	const assay_value *like; /* its counterpart in the `like` document, or NULL */
};

struct parser {
	const char *text, *p, *end;
	assay_arena *a;
	const assay_json_opts *o;
	const assay_value *like; /* the document this one probably resembles (or NULL) */
	assay_err *err;
	int rc;

	assay_value *vs;
	size_t vn, valloc;
	struct frame *fs;
	size_t fn, falloc;

	/* positions */
	uint32_t line;
	const char *line_start;
	const char *col_at;    /* where col_chars was counted up to on this line */
	size_t col_chars;

	assay_buf scratch;
	struct interned *keys; /* object keys made so far (interning, below), or NULL */
	size_t since_check;
	bool need_value;   /* a container is open and its next item (or first) comes next */
	size_t stamped;    /* positions recorded */
	size_t charged;    /* bytes of the stacks and tables charged to the arena */
};

/*
 * Errors
 */

/* 1-based line and column in characters (UTF-8 continuation bytes do not count) of `at`. */
static void locate(const char *text, const char *at, int *line, int *col)
{
	const char *ls = text;
	int l = 1, c = 1;

	for (const char *q = text; q < at; q++) {
		if (*q == '\n') {
			l++;
			ls = q + 1;
		}
	}
	for (const char *q = ls; q < at; q++)
		if (((unsigned char)*q & 0xc0) != 0x80)
			c++;
	*line = l;
	*col = c;
}

static int fail(struct parser *ps, const char *at, const char *msg)
{
	int line, col;

	if (ps->rc)
		return ps->rc;
	locate(ps->text, at, &line, &col);
	ps->rc = assay_err_set(ps->err, ASSAY_EPARSE, ps->o->source, line, col, "%s", msg);
	return ps->rc;
}

static int too_big(struct parser *ps)
{
	if (ps->rc)
		return ps->rc;
	if (assay_arena_expired(ps->a))
		ps->rc = assay_err_set(ps->err, ASSAY_ETOOBIG, ps->o->source, 0, 0,
				       "the document could not be read in the time allowed");
	else
		ps->rc = assay_err_set(ps->err, ASSAY_ETOOBIG, ps->o->source, 0, 0,
				       "the document needs more than %zu bytes of memory",
				       assay_arena_used(ps->a));
	return ps->rc;
}

/* The parser's own memory (stacks, tables) changed from `old` to `now` bytes: counted against
 * the arena's limit (the verification budget), so nesting costs budget as values do. */
static void charge(struct parser *ps, size_t old, size_t now)
{
	assay_arena_uncharge(ps->a, old);
	assay_arena_charge(ps->a, now);
	ps->charged += now - old;
	if (assay_arena_over(ps->a))
		too_big(ps);
}

/*
 * Positions
 */

/* The 1-based line and column (in characters) of `at`, on the current line. */
static assay_pos here(struct parser *ps, const char *at)
{
	if (ps->col_at < ps->line_start || ps->col_at > at) {
		ps->col_at = ps->line_start;
		ps->col_chars = 0;
	}
	for (const char *q = ps->col_at; q < at; q++)
		ps->col_chars += ((unsigned char)*q & 0xc0) != 0x80;
	ps->col_at = at;
	return (assay_pos){ ps->line, (uint32_t)ps->col_chars + 1 };
}

/* Records where `v` (a value with data) starts, when positions are asked for. */
static void stamp(struct parser *ps, assay_value *v, const char *at)
{
	if (!ps->o->positions || v->kind < ASSAY_V_BIGINT || v->kind == ASSAY_V_REAL)
		return;
	if (++ps->stamped > ASSAY_ARENA_MAX_POSITIONS)
		return; /* the arena records no more: spare the column counting */
	if (v->kind == ASSAY_V_STRING && !v->len) {
		char *own = assay_arena_alloc(ps->a, 1); /* a pointer of its own, to key the position */

		own[0] = '\0';
		v->u.s = own;
	}
	assay_arena_set_position(ps->a, v, here(ps, at));
}

static void skip_ws_slow(struct parser *ps)
{
	const char *p = ps->p, *end = ps->end;

	while (p < end) {
		char ch = *p;

		if (ch == ' ' || ch == '\t' || ch == '\r') {
			p++;
		} else if (ch == '\n') {
			p++;
			ps->line++;
			ps->line_start = p;
		} else {
			break;
		}
	}
	ps->p = p;
}

/* Most calls find no white space, or the one space of ", " and ": ": those stay inline. */
static inline void skip_ws(struct parser *ps)
{
	if (ps->p < ps->end && (unsigned char)*ps->p > ' ')
		return;
	if (ps->p + 1 < ps->end && *ps->p == ' ' && (unsigned char)ps->p[1] > ' ') {
		ps->p++;
		return;
	}
	skip_ws_slow(ps);
}

/*
 * Stacks
 */

static void vgrow(struct parser *ps)
{
	size_t old = ps->valloc;

	ps->valloc = ps->valloc ? ps->valloc * 2 : 256;
	ps->vs = assay_xrealloc(ps->vs, ps->valloc * sizeof(*ps->vs));
	charge(ps, old * sizeof(*ps->vs), ps->valloc * sizeof(*ps->vs));
}

static inline void vpush(struct parser *ps, assay_value v)
{
	if (ps->vn == ps->valloc)
		vgrow(ps);
	ps->vs[ps->vn++] = v;
}

static const assay_value *counterpart(const struct parser *ps, bool obj);

static void fpush(struct parser *ps, bool obj, const char *at)
{
	if (ps->fn == ps->falloc) {
		size_t old = ps->falloc;

		ps->falloc = ps->falloc ? ps->falloc * 2 : 64;
		ps->fs = assay_xrealloc(ps->fs, ps->falloc * sizeof(*ps->fs));
		charge(ps, old * sizeof(*ps->fs), ps->falloc * sizeof(*ps->fs));
	}
	ps->fs[ps->fn] = (struct frame){ ps->vn, obj,
					 ps->o->positions && ps->stamped < ASSAY_ARENA_MAX_POSITIONS
						 ? here(ps, at)
						 : (assay_pos){ 0, 0 },
					 ps->like ? counterpart(ps, obj) : NULL };
	ps->fn++;
}

/*
 * Strings
 */

/* Bytes of the valid UTF-8 sequence at p (p < end, *p >= 0x80), or 0. */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
	size_t bad;

	return assay_utf8_seq(p, (size_t)(end - p), &bad);
}

static int hex4(const char *p, const char *end, unsigned *out)
{
	unsigned v = 0;

	if (end - p < 4)
		return -1;
	for (int k = 0; k < 4; k++) {
		char ch = p[k];
		unsigned d;

		if (ch >= '0' && ch <= '9')
			d = (unsigned)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			d = (unsigned)(ch - 'a' + 10);
		else if (ch >= 'A' && ch <= 'F')
			d = (unsigned)(ch - 'A' + 10);
		else
			return -1;
		v = v * 16 + d;
	}
	*out = v;
	return 0;
}

static void put_utf8(assay_buf *b, unsigned cp)
{
	char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (char)cp, n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3f)), n = 2;
	} else if (cp < 0x10000) {
		/* lone surrogates too: WTF-8, written back as \udXXX by the writer */
		u[0] = (char)(0xe0 | cp >> 12), u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f)), n = 3;
	} else {
		u[0] = (char)(0xf0 | cp >> 18), u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		u[2] = (char)(0x80 | (cp >> 6 & 0x3f)), u[3] = (char)(0x80 | (cp & 0x3f)), n = 4;
	}
	assay_buf_add(b, u, n);
}

/* The rest of a string that has an escape, from `p` (inside the string) on. */
static int string_slow(struct parser *ps, assay_value *out, const char *open, const char *p)
{
	assay_buf *b = &ps->scratch;
	const char *end = ps->end, *run = open + 1;
	bool wtf8 = false; /* holds a lone surrogate: the writer writes it back as \udXXX */

	assay_buf_reset(b);
	for (;;) {
		if (p >= end)
			return fail(ps, open, "Unterminated string starting at");
		switch (str_class[(unsigned char)*p]) {
		case C_PLAIN:
			p++;
			break;
		case C_HIGH: {
			size_t n = utf8_len((const unsigned char *)p, (const unsigned char *)end);

			if (!n)
				return fail(ps, p, "Invalid UTF-8 byte in string");
			p += n;
			break;
		}
		case C_CTRL:
			return fail(ps, p, "Invalid control character at");
		case C_QUOTE:
			assay_buf_add(b, run, (size_t)(p - run));
			*out = assay_value_string(ps->a, b->ptr, b->len);
			if (wtf8)
				out->flags |= ASSAY__VF_WTF8;
			ps->p = p + 1;
			return 0;
		case C_BSLASH: {
			const char *esc = p;
			unsigned cp, lo;

			assay_buf_add(b, run, (size_t)(p - run));
			if (++p >= end)
				return fail(ps, open, "Unterminated string starting at");
			switch (*p) {
			case '"': assay_buf_addch(b, '"'); break;
			case '\\': assay_buf_addch(b, '\\'); break;
			case '/': assay_buf_addch(b, '/'); break;
			case 'b': assay_buf_addch(b, '\b'); break;
			case 'f': assay_buf_addch(b, '\f'); break;
			case 'n': assay_buf_addch(b, '\n'); break;
			case 'r': assay_buf_addch(b, '\r'); break;
			case 't': assay_buf_addch(b, '\t'); break;
			case 'u':
				if (hex4(p + 1, end, &cp))
					return fail(ps, p, "Invalid \\uXXXX escape"); /* at the u */
				p += 4;
				if (cp >= 0xd800 && cp <= 0xdbff && end - p >= 7 && p[1] == '\\' &&
				    p[2] == 'u' && !hex4(p + 3, end, &lo) && lo >= 0xdc00 &&
				    lo <= 0xdfff) {
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
					p += 6;
				}
				if (cp >= 0xd800 && cp <= 0xdfff)
					wtf8 = true;
				put_utf8(b, cp);
				break;
			default:
				return fail(ps, esc, "Invalid \\escape");
			}
			p++;
			run = p;
			break;
		}
		}
	}
}

/*
 * Interning object keys: a document of records repeats a few keys millions of times, so a key
 * without escapes that was made before is shared instead of copied again. Only where no
 * position is recorded any more: positions are keyed by a value's data pointer (value.h), and
 * an interned key that had one would lend it to every later copy.
 */
#define INTERN_SLOTS 1024 /* a power of two */

#define INTERN_MAX_LEN 64

struct interned {
	const char *s;
	uint32_t len;
};

static bool interning(const struct parser *ps)
{
	return !ps->o->borrow && (!ps->o->positions || ps->stamped >= ASSAY_ARENA_MAX_POSITIONS);
}

/* `n` bytes at `s` as a string value: the key made before with the same bytes, or a copy. */
static assay_value intern_key(struct parser *ps, const char *s, size_t n)
{
	uint64_t h;
	size_t i, probes = 0;
	assay_value v;

	if (n > INTERN_MAX_LEN)
		return assay_value_string(ps->a, s, n);
	if (!ps->keys) {
		ps->keys = assay_xcalloc(INTERN_SLOTS, sizeof(*ps->keys));
		charge(ps, 0, INTERN_SLOTS * sizeof(*ps->keys));
	}
	h = assay_hash(s, n);
	for (i = (size_t)(h ^ h >> 32) & (INTERN_SLOTS - 1); ps->keys[i].s;
	     i = (i + 1) & (INTERN_SLOTS - 1)) {
		if (ps->keys[i].len == n && !memcmp(ps->keys[i].s, s, n))
			return assay_value_string_ref(ps->keys[i].s, n);
		if (++probes == 8) /* a table full of other keys: copy */
			return assay_value_string(ps->a, s, n);
	}
	v = assay_value_string(ps->a, s, n);
	ps->keys[i] = (struct interned){ v.u.s, (uint32_t)n };
	return v;
}

/* A string starting at ps->p (the opening quote); `is_key` for an object's key. */
static int string(struct parser *ps, assay_value *out, bool is_key)
{
	const char *open = ps->p, *p = open + 1, *end = ps->end;

	for (;;) {
		p = assay_json__plain_run(p, end);
		if (p >= end)
			return fail(ps, open, "Unterminated string starting at");
		switch (str_class[(unsigned char)*p]) {
		case C_HIGH: {
			size_t n = utf8_len((const unsigned char *)p, (const unsigned char *)end);

			if (!n)
				return fail(ps, p, "Invalid UTF-8 byte in string");
			p += n;
			continue;
		}
		case C_CTRL:
			return fail(ps, p, "Invalid control character at");
		case C_QUOTE: {
			size_t n = (size_t)(p - open - 1);

			if (n > UINT32_MAX)
				return too_big(ps);
			if (ps->o->borrow)
				*out = assay_value_string_ref(open + 1, n);
			else if (is_key && interning(ps))
				*out = intern_key(ps, open + 1, n);
			else
				*out = assay_value_string(ps->a, open + 1, n);
			ps->p = p + 1;
			return 0;
		}
		default:
			return string_slow(ps, out, open, p);
		}
	}
}

/*
 * Numbers and literals
 */

static bool lit(const struct parser *ps, const char *word, size_t n)
{
	return (size_t)(ps->end - ps->p) >= n && !memcmp(ps->p, word, n);
}

static int number(struct parser *ps, assay_value *out)
{
	const char *start = ps->p, *p = start, *end = ps->end, *digits;
	bool neg = false, is_int = true;

	if (*p == '-') {
		neg = true;
		p++;
	}
	digits = p;
	if (p < end && *p == '0') {
		p++;
	} else if (p < end && *p >= '1' && *p <= '9') {
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	} else {
		return fail(ps, start, "Expecting value");
	}
	if (p + 1 < end && *p == '.' && p[1] >= '0' && p[1] <= '9') {
		is_int = false;
		for (p += 2; p < end && *p >= '0' && *p <= '9'; p++)
			;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		const char *q = p + 1;

		if (q < end && (*q == '+' || *q == '-'))
			q++;
		if (q < end && *q >= '0' && *q <= '9') {
			is_int = false;
			for (p = q; p < end && *p >= '0' && *p <= '9'; p++)
				;
		}
	}
	ps->p = p;
	if (!is_int) {
		*out = assay_value_real(assay_parse_double(start, (size_t)(p - start)));
		return 0;
	}
	size_t nd = (size_t)(p - digits);
	if (nd <= 18) {
		int64_t v = 0;

		for (const char *q = digits; q < p; q++)
			v = v * 10 + (*q - '0');
		*out = assay_value_int(neg ? -v : v);
		return 0;
	}
	if (nd > PY_INT_MAX_DIGITS)
		return fail(ps, start, "Exceeds the limit (4300 digits) for integer string conversion");
	assay_value_integer_text(out, ps->a, start, (size_t)(p - start));
	return 0;
}

/*
 * Containers
 */

/* Keys of one object nearly always differ in length or first byte: memcmp only past that. */
static inline bool same_key(const assay_member *x, const assay_member *y)
{
	return x->key.len == y->key.len &&
	       (!x->key.len || (x->key.u.s[0] == y->key.u.s[0] &&
				!memcmp(x->key.u.s, y->key.u.s, x->key.len)));
}

/*
 * Python's dict: a key seen again keeps its first place and takes the later value. Returns the
 * number of members left (compacted in place).
 */
static size_t dedup_members(assay_member *m, size_t n)
{
	bool *drop = NULL;
	size_t out = 0;

	if (n < 2)
		return n;
	if (n <= 8) {
		for (size_t j = 1; j < n; j++)
			for (size_t i = 0; i < j; i++)
				if (same_key(&m[i], &m[j]) &&
				    (!drop || !drop[i])) {
					if (!drop)
						drop = assay_xcalloc(n, sizeof(*drop));
					m[i].value = m[j].value;
					drop[j] = true;
					break;
				}
	} else {
		/* the process's keyed hash (util/hash.h): 131,072 keys made to collide under
		 * the FNV-1a this used made it quadratic (31 s; hostile review 2) */
		assay_htab seen = ASSAY_HTAB_INIT;

		assay_htab_reserve(&seen, n);
		for (size_t j = 0; j < n; j++) {
			uint64_t h = assay_hash(m[j].key.u.s, m[j].key.len);
			assay_htab_it it;

			for (size_t i = assay_htab_first(&seen, h, &it); i != ASSAY_HTAB_END;
			     i = assay_htab_next(&seen, &it)) {
				if (same_key(&m[i], &m[j])) {
					if (!drop)
						drop = assay_xcalloc(n, sizeof(*drop));
					m[i].value = m[j].value;
					drop[j] = true;
					break;
				}
			}
			if (!drop || !drop[j])
				assay_htab_add(&seen, h, j);
		}
		assay_htab_release(&seen);
	}
	if (!drop)
		return n;
	for (size_t j = 0; j < n; j++)
		if (!drop[j])
			m[out++] = m[j];
	free(drop);
	return out;
}

/*
 * Sharing with a `like` document (assay_json__parse_like): a container equal to its
 * counterpart there takes the counterpart's storage instead of a copy of its own, so an actual
 * output that is mostly its expected value costs little more than its differences.
 */

/* x and y are the same value to every reader: same kind, flags and bytes (a double's bits);
 * a non-empty container only when it already shares y's storage (so equal subtrees are found
 * from the leaves up, one level at a time), whatever its growth state (its only flag: a like
 * document built by pushes is not told apart). */
static bool same_value(const assay_value *x, const assay_value *y)
{
	if (x->kind != y->kind || x->len != y->len)
		return false;
	switch ((assay_kind)x->kind) {
	case ASSAY_V_ARRAY:
	case ASSAY_V_OBJECT: return !x->len || x->u.items == y->u.items;
	default: break;
	}
	if (x->flags != y->flags) /* a lone surrogate's mark, a datetime's sub-kind */
		return false;
	switch ((assay_kind)x->kind) {
	case ASSAY_V_NULL: return true;
	case ASSAY_V_BOOL: return x->u.b == y->u.b;
	case ASSAY_V_INT: return x->u.i == y->u.i;
	case ASSAY_V_REAL: return !memcmp(&x->u.d, &y->u.d, sizeof(double));
	default: return !x->len || !memcmp(x->u.s, y->u.s, x->len);
	}
}

/* The open container's counterpart at `like`'s path (the frame being pushed is the child of
 * the innermost open one): the item at the same index, or the member under the same key. */
static const assay_value *counterpart(const struct parser *ps, bool obj)
{
	const assay_value *cv = NULL;

	if (!ps->fn) {
		cv = ps->like;
	} else {
		const struct frame *f = &ps->fs[ps->fn - 1];
		size_t k = ps->vn - f->start; /* values of the parent so far */

		if (!f->like) {
			return NULL;
		} else if (!f->obj) {
			cv = k < f->like->len ? &f->like->u.items[k] : NULL;
		} else {
			/* the key was just pushed: member k / 2; members usually come in the same
			 * order, else a small object is searched */
			const assay_value *key = &ps->vs[ps->vn - 1];
			const assay_member *m = f->like->u.members;
			size_t i = k / 2, n = f->like->len;

			if (i >= n || !same_value(&m[i].key, key)) {
				for (i = 0; i < n && n <= 16; i++)
					if (same_value(&m[i].key, key))
						break;
				if (n > 16)
					i = n;
			}
			cv = i < n ? &m[i].value : NULL;
		}
	}
	if (cv && cv->kind != (obj ? ASSAY_V_OBJECT : ASSAY_V_ARRAY))
		return NULL;
	return cv;
}

/* True when the `n` items (or members: 2 n values) at `vs` equal the counterpart's. */
static bool same_items(const assay_value *vs, size_t n, const assay_value *like)
{
	const assay_value *ys = like->u.items; /* members are key/value pairs of values */

	if (like->kind == ASSAY_V_OBJECT)
		n *= 2;
	for (size_t i = 0; i < n; i++)
		if (!same_value(&vs[i], &ys[i]))
			return false;
	return true;
}

/* Moves the open container's values from the stack into the arena, as one value. */
static int close_container(struct parser *ps)
{
	struct frame f = ps->fs[--ps->fn];
	size_t n = ps->vn - f.start;
	assay_value v = { .kind = f.obj ? ASSAY_V_OBJECT : ASSAY_V_ARRAY };

	if (f.obj && n) {
		assay_member *m = (assay_member *)(ps->vs + f.start);

		n = dedup_members(m, n / 2);
		if (n && f.like && f.like->len == n && same_items(ps->vs + f.start, n, f.like)) {
			v.u.members = f.like->u.members;
		} else if (n) {
			v.u.members = assay_arena_alloc(ps->a, n * sizeof(*m));
			memcpy(v.u.members, m, n * sizeof(*m));
		}
	} else if (n && f.like && f.like->len == n && same_items(ps->vs + f.start, n, f.like)) {
		v.u.items = f.like->u.items;
	} else if (n) {
		v.u.items = assay_arena_alloc(ps->a, n * sizeof(assay_value));
		memcpy(v.u.items, ps->vs + f.start, n * sizeof(assay_value));
	}
	if (n > UINT32_MAX)
		return too_big(ps);
	v.len = (uint32_t)n;
	if (ps->o->positions && f.pos.line && ++ps->stamped <= ASSAY_ARENA_MAX_POSITIONS) {
		if (!n)
			v.u.items = assay_arena_alloc(ps->a, 1); /* a pointer to key the position */
		assay_arena_set_position(ps->a, &v, f.pos);
	}
	ps->vn = f.start;
	vpush(ps, v);
	if (assay_arena_over(ps->a))
		return too_big(ps);
	return 0;
}

/* A key (a string) and its ':' at ps->p; leaves ps->p at the value. */
static int key(struct parser *ps)
{
	assay_value k = { 0 };
	const char *at;

	skip_ws(ps);
	at = ps->p;
	if (at >= ps->end || *at != '"')
		return fail(ps, at, "Expecting property name enclosed in double quotes");
	if (string(ps, &k, true))
		return ps->rc;
	stamp(ps, &k, at);
	vpush(ps, k);
	skip_ws(ps);
	if (ps->p >= ps->end || *ps->p != ':')
		return fail(ps, ps->p, "Expecting ':' delimiter");
	ps->p++;
	return 0;
}

/* One value at ps->p: a scalar is pushed; a container opens a frame (and may close at once). */
static int value(struct parser *ps)
{
	assay_value v = { 0 };
	const char *at;

	ps->need_value = false;
	skip_ws(ps);
	at = ps->p;
	if (at >= ps->end)
		return fail(ps, at, "Expecting value");
	switch (*at) {
	case '{':
	case '[': {
		bool obj = *at == '{';

		if (ps->fn >= ASSAY_MAX_DEPTH)
			return fail(ps, at, "Nested deeper than 100000 levels");
		fpush(ps, obj, at);
		ps->p++;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) {
			ps->p++;
			return close_container(ps);
		}
		ps->need_value = true;
		return obj ? key(ps) : 0;
	}
	case '"':
		if (string(ps, &v, false))
			return ps->rc;
		if (++ps->since_check >= 4096) {
			ps->since_check = 0;
			if (assay_arena_over(ps->a))
				return too_big(ps);
		}
		break;
	case 't':
		if (!lit(ps, "true", 4))
			return fail(ps, at, "Expecting value");
		v = assay_value_bool(true);
		ps->p += 4;
		break;
	case 'f':
		if (!lit(ps, "false", 5))
			return fail(ps, at, "Expecting value");
		v = assay_value_bool(false);
		ps->p += 5;
		break;
	case 'n':
		if (!lit(ps, "null", 4))
			return fail(ps, at, "Expecting value");
		v = assay_value_null();
		ps->p += 4;
		break;
	case 'N':
		if (!lit(ps, "NaN", 3))
			return fail(ps, at, "Expecting value");
		v = assay_value_real(NAN);
		ps->p += 3;
		break;
	case 'I':
		if (!lit(ps, "Infinity", 8))
			return fail(ps, at, "Expecting value");
		v = assay_value_real(INFINITY);
		ps->p += 8;
		break;
	case '-':
		if (lit(ps, "-Infinity", 9)) {
			v = assay_value_real(-INFINITY);
			ps->p += 9;
			break;
		}
		/* fall through */
	default:
		if (number(ps, &v))
			return ps->rc;
		break;
	}
	stamp(ps, &v, at);
	vpush(ps, v);
	return 0;
}

/* After a value inside a container: ',' and the next value, or the closing bracket. */
static int after_value(struct parser *ps)
{
	bool obj = ps->fs[ps->fn - 1].obj;

	skip_ws(ps);
	if (ps->p < ps->end) {
		char ch = *ps->p;

		if (ch == ',') {
			ps->p++;
			ps->need_value = true;
			return obj ? key(ps) : 0;
		}
		if (ch == (obj ? '}' : ']')) {
			ps->p++;
			return close_container(ps);
		}
	}
	return fail(ps, ps->p, "Expecting ',' delimiter");
}

int assay_json_parse(assay_value *out, assay_arena *a, const char *text, size_t len,
		     const assay_json_opts *opts, assay_err *err)
{
	return assay_json__parse_like(out, a, text, len, opts, NULL, err);
}

int assay_json__parse_like(assay_value *out, assay_arena *a, const char *text, size_t len,
			   const assay_json_opts *opts, const assay_value *like, assay_err *err)
{
	static const assay_json_opts defaults = ASSAY_JSON_OPTS_INIT;
	struct parser ps = { 0 };
	int rc;

	*out = assay_value_null();
	if (!text)
		text = "";
	ps.text = ps.p = text;
	ps.end = text + len;
	ps.a = a;
	ps.o = opts ? opts : &defaults;
	ps.like = ps.o->positions ? NULL : like; /* positions are keyed by storage: none shared */
	ps.err = err;
	ps.line = 1;
	ps.line_start = ps.col_at = text;
	ps.scratch = (assay_buf)ASSAY_BUF_INIT;

	ps.need_value = true;
	rc = 0;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) /* json.loads of decoded text */
		rc = fail(&ps, ps.p, "Unexpected UTF-8 BOM (decode using utf-8-sig)");
	for (size_t steps = 1; !rc; steps++) {
		if (steps % 4096 == 0 && assay_arena_check(a)) /* the budget's time, and memory */
			rc = too_big(&ps);
		else if (ps.need_value)
			rc = value(&ps);
		else if (ps.fn)
			rc = after_value(&ps);
		else
			break;
		if (!rc)
			rc = ps.rc; /* a stack's growth went past the budget */
	}
	if (!rc) {
		skip_ws(&ps);
		if (ps.p < ps.end)
			rc = fail(&ps, ps.p, "Extra data");
	}
	if (!rc)
		*out = ps.vs[0];
	free(ps.vs);
	free(ps.fs);
	free(ps.keys);
	assay_arena_uncharge(a, ps.charged);
	assay_buf_release(&ps.scratch);
	return rc;
}

static bool blank(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r' && p[i] != '\f' && p[i] != '\v')
			return false;
	return true;
}

int assay_json_parse_lines(assay_value *out, assay_arena *a, const char *text, size_t len,
			   bool skip_invalid, const assay_json_opts *opts, assay_err *err)
{
	static const assay_json_opts defaults = ASSAY_JSON_OPTS_INIT;
	const assay_json_opts *o = opts ? opts : &defaults;
	assay_value arr = assay_value_array();
	size_t pos = 0;
	int lineno = 0;

	*out = assay_value_null();
	if (!text)
		text = "";
	while (pos < len) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		assay_err le = ASSAY_ERR_INIT;
		assay_value v;
		int rc;

		lineno++;
		pos += n + (nl ? 1 : 0);
		if (lineno % 4096 == 0 && assay_arena_check(a))
			return assay_err_set(err, ASSAY_ETOOBIG, o->source, 0, 0, "%s",
					     assay_arena_expired(a)
						     ? "the document could not be read in the time "
						       "allowed"
						     : "the document needs more memory than allowed");
		if (n && line[n - 1] == '\r')
			n--;
		if (blank(line, n))
			continue;
		rc = assay_json_parse(&v, a, line, n, o, &le);
		if (rc == ASSAY_ETOOBIG)
			return assay_err_set(err, rc, o->source, 0, 0, "%s", le.msg);
		if (rc) {
			if (skip_invalid)
				continue;
			return assay_err_set(err, ASSAY_EPARSE, o->source, lineno, le.column, "%s",
					     le.msg);
		}
		assay_array_push(a, &arr, v);
	}
	*out = arr;
	return 0;
}
