/*
 * Values (value.h): constructors, growing containers, lookups, and the walks every consumer
 * needs (exact equality, deep copy, depth).
 *
 * Key decisions:
 * - A container built by pushing keeps its storage at capacity(len) (4, then powers of two),
 *   marked by VF_GROW; a container made at its final size (the parsers' output,
 *   assay_value_array_of) has exactly `len` slots and is copied to growable storage on its
 *   first push. Old storage stays in the arena until it is freed: building costs at most twice
 *   the final size.
 * - Every walk over a value is iterative with an explicit stack, so nesting depth is limited
 *   only by memory, never by the C stack (issue #6: 100,000-deep nesting must not overflow).
 * - Object lookups are linear: objects that are looked up by key (suites, options, reports) are
 *   small. The diff engine indexes big objects itself.
 *
 * Refuses to: free single values; keep two members with one key (setn replaces).
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/value.h"
#include "value/value_int.h"
#include "util/banned.h"

static size_t capacity(size_t len)
{
	size_t c = 4;

	while (c < len)
		c *= 2;
	return c;
}

/* Storage with room for one more element of `elem` bytes. */
static void *room_for_one(assay_arena *a, void *old, size_t len, size_t elem, uint8_t *flags)
{
	size_t cap = (*flags & ASSAY__VF_GROW) ? capacity(len) : len;
	void *p;

	if (len < cap)
		return old;
	if (len >= UINT32_MAX)
		assay__bug(__FILE__, __LINE__, "container past 2^32 items");
	p = assay_arena_alloc(a, capacity(len + 1) * elem);
	if (len)
		memcpy(p, old, len * elem);
	*flags |= ASSAY__VF_GROW;
	return p;
}

/*
 * Making values
 */

assay_value assay_value_null(void)
{
	return (assay_value){ .kind = ASSAY_V_NULL };
}

assay_value assay_value_bool(bool b)
{
	return (assay_value){ .kind = ASSAY_V_BOOL, .u.b = b };
}

assay_value assay_value_int(int64_t i)
{
	return (assay_value){ .kind = ASSAY_V_INT, .u.i = i };
}

assay_value assay_value_real(double d)
{
	return (assay_value){ .kind = ASSAY_V_REAL, .u.d = d };
}

static uint32_t len32(size_t len)
{
	if (len > UINT32_MAX)
		assay__bug(__FILE__, __LINE__, "string past 4 GiB");
	return (uint32_t)len;
}

assay_value assay_value_string(assay_arena *a, const char *s, size_t len)
{
	return (assay_value){ .kind = ASSAY_V_STRING, .len = len32(len),
			      .u.s = assay_arena_strndup(a, s, len) };
}

assay_value assay_value_strz(assay_arena *a, const char *s)
{
	return assay_value_string(a, s, strlen(s));
}

assay_value assay_value_string_ref(const char *s, size_t len)
{
	return (assay_value){ .kind = ASSAY_V_STRING, .len = len32(len), .u.s = len ? s : "" };
}

assay_value assay_value_stringf(assay_arena *a, const char *fmt, ...)
{
	va_list ap, ap2;
	char small[256];
	int n;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n < sizeof(small)) {
		va_end(ap2);
		return assay_value_string(a, small, (size_t)n);
	}
	char *p = assay_arena_alloc(a, (size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	return (assay_value){ .kind = ASSAY_V_STRING, .len = (uint32_t)n, .u.s = p };
}

int assay_value_integer_text(assay_value *out, assay_arena *a, const char *text, size_t len)
{
	size_t i = 0, start;
	bool neg = false;
	uint64_t mag = 0;
	bool big = false;

	if (i < len && (text[i] == '-' || text[i] == '+'))
		neg = text[i++] == '-';
	if (i == len)
		return ASSAY_EINVALID;
	for (size_t k = i; k < len; k++)
		if (text[k] < '0' || text[k] > '9')
			return ASSAY_EINVALID;
	while (i + 1 < len && text[i] == '0')
		i++;
	start = i;
	for (; i < len; i++) {
		unsigned d = (unsigned)(text[i] - '0');

		if (mag > (UINT64_MAX - d) / 10) {
			big = true;
			break;
		}
		mag = mag * 10 + d;
	}
	if (!big && (neg ? mag <= (uint64_t)INT64_MAX + 1 : mag <= (uint64_t)INT64_MAX)) {
		*out = assay_value_int(neg ? (int64_t)(0 - mag) : (int64_t)mag);
		return 0;
	}
	size_t nd = len - start;
	char *p = assay_arena_alloc(a, nd + 2);
	size_t o = 0;

	if (neg)
		p[o++] = '-';
	memcpy(p + o, text + start, nd);
	o += nd;
	p[o] = '\0';
	*out = (assay_value){ .kind = ASSAY_V_BIGINT, .len = len32(o), .u.s = p };
	return 0;
}

assay_value assay_value_datetime(assay_arena *a, assay_datetime_kind dk, const char *text,
				 size_t len)
{
	assay_value v = assay_value_string(a, text, len);

	v.kind = ASSAY_V_DATETIME;
	v.flags = (uint8_t)((unsigned)dk << ASSAY__VF_DT_SHIFT);
	return v;
}

assay_value assay_value_array(void)
{
	return (assay_value){ .kind = ASSAY_V_ARRAY };
}

assay_value assay_value_object(void)
{
	return (assay_value){ .kind = ASSAY_V_OBJECT };
}

assay_value assay_value_array_of(assay_arena *a, const assay_value *items, size_t n)
{
	assay_value v = { .kind = ASSAY_V_ARRAY, .len = len32(n) };

	if (n) {
		v.u.items = assay_arena_alloc(a, n * sizeof(*items));
		memcpy(v.u.items, items, n * sizeof(*items));
	}
	return v;
}

void assay_array_push(assay_arena *a, assay_value *arr, assay_value item)
{
	ASSAY_ASSERT(arr->kind == ASSAY_V_ARRAY);
	arr->u.items = room_for_one(a, arr->u.items, arr->len, sizeof(assay_value), &arr->flags);
	arr->u.items[arr->len++] = item;
}

void assay_object_append(assay_arena *a, assay_value *obj, assay_value key, assay_value v)
{
	ASSAY_ASSERT(obj->kind == ASSAY_V_OBJECT);
	obj->u.members = room_for_one(a, obj->u.members, obj->len, sizeof(assay_member),
				      &obj->flags);
	obj->u.members[obj->len].key = key;
	obj->u.members[obj->len].value = v;
	obj->len++;
}

static assay_member *find(const assay_value *obj, const char *key, size_t klen)
{
	if (!obj || obj->kind != ASSAY_V_OBJECT)
		return NULL;
	for (uint32_t i = 0; i < obj->len; i++) {
		assay_member *m = &obj->u.members[i];

		if (m->key.len == klen && (!klen || !memcmp(m->key.u.s, key, klen)))
			return m;
	}
	return NULL;
}

assay_value *assay_object_setn(assay_arena *a, assay_value *obj, const char *key, size_t klen,
			       assay_value v)
{
	assay_member *m = find(obj, key, klen);

	ASSAY_ASSERT(obj->kind == ASSAY_V_OBJECT);
	if (m) {
		m->value = v;
		return &m->value;
	}
	assay_object_append(a, obj, assay_value_string(a, key, klen), v);
	return &obj->u.members[obj->len - 1].value;
}

assay_value *assay_object_set(assay_arena *a, assay_value *obj, const char *key, assay_value v)
{
	return assay_object_setn(a, obj, key, strlen(key), v);
}

bool assay_object_deln(assay_value *obj, const char *key, size_t klen)
{
	assay_member *m = find(obj, key, klen);

	if (!m)
		return false;
	size_t i = (size_t)(m - obj->u.members);
	memmove(m, m + 1, (obj->len - i - 1) * sizeof(*m));
	obj->len--;
	return true;
}

/*
 * Reading values
 */

const assay_value *assay_object_getn(const assay_value *obj, const char *key, size_t klen)
{
	assay_member *m = find(obj, key, klen);

	return m ? &m->value : NULL;
}

const assay_value *assay_object_get(const assay_value *obj, const char *key)
{
	return assay_object_getn(obj, key, strlen(key));
}

const assay_member *assay_object_member(const assay_value *obj, const char *key)
{
	return find(obj, key, strlen(key));
}

const assay_value *assay_member_anchor(const assay_member *m)
{
	switch ((assay_kind)m->value.kind) {
	case ASSAY_V_STRING:
	case ASSAY_V_BIGINT:
	case ASSAY_V_DATETIME:
	case ASSAY_V_ARRAY:
	case ASSAY_V_OBJECT:
		return &m->value;
	default:
		return &m->key;
	}
}

const assay_value *assay_array_get(const assay_value *arr, size_t i)
{
	if (!arr || arr->kind != ASSAY_V_ARRAY || i >= arr->len)
		return NULL;
	return &arr->u.items[i];
}

assay_datetime_kind assay_value_datetime_kind(const assay_value *v)
{
	return (assay_datetime_kind)((v->flags >> ASSAY__VF_DT_SHIFT) & 3u);
}

bool assay_value_is_number(const assay_value *v)
{
	return v && (v->kind == ASSAY_V_INT || v->kind == ASSAY_V_BIGINT ||
		     v->kind == ASSAY_V_REAL);
}

bool assay_value_is_integer(const assay_value *v)
{
	return v && (v->kind == ASSAY_V_INT || v->kind == ASSAY_V_BIGINT);
}

double assay_value_number(const assay_value *v)
{
	switch (v ? v->kind : ASSAY_V_NULL) {
	case ASSAY_V_INT: return (double)v->u.i;
	case ASSAY_V_REAL: return v->u.d;
	case ASSAY_V_BIGINT: return assay_parse_double(v->u.s, v->len);
	default: return NAN;
	}
}

bool assay_value_is_str(const assay_value *v, const char *s)
{
	size_t n = strlen(s);

	return v && v->kind == ASSAY_V_STRING && v->len == n && !memcmp(v->u.s, s, n);
}

const char *assay_value_type_name(const assay_value *v)
{
	switch ((assay_kind)v->kind) {
	case ASSAY_V_NULL: return "NoneType";
	case ASSAY_V_BOOL: return "bool";
	case ASSAY_V_INT:
	case ASSAY_V_BIGINT: return "int";
	case ASSAY_V_REAL: return "float";
	case ASSAY_V_STRING: return "str";
	case ASSAY_V_ARRAY: return "list";
	case ASSAY_V_OBJECT: return "dict";
	case ASSAY_V_DATETIME:
		switch (assay_value_datetime_kind(v)) {
		case ASSAY_DT_DATE: return "date";
		case ASSAY_DT_TIME: return "time";
		default: return "datetime";
		}
	}
	return "NoneType";
}

const char *assay_kind_name(assay_kind k)
{
	switch (k) {
	case ASSAY_V_NULL: return "null";
	case ASSAY_V_BOOL: return "a boolean";
	case ASSAY_V_INT:
	case ASSAY_V_BIGINT: return "an integer";
	case ASSAY_V_REAL: return "a number";
	case ASSAY_V_STRING: return "a string";
	case ASSAY_V_ARRAY: return "a list";
	case ASSAY_V_OBJECT: return "a mapping";
	case ASSAY_V_DATETIME: return "a date or time";
	}
	return "a value";
}

/*
 * Walks
 */

struct pair {
	const assay_value *x, *y;
};

struct pairs {
	struct pair *v;
	size_t nr, alloc;
};

static void pairs_push(struct pairs *s, const assay_value *x, const assay_value *y)
{
	if (s->nr == s->alloc) {
		s->alloc = s->alloc ? s->alloc * 2 : 64;
		s->v = assay_xrealloc(s->v, s->alloc * sizeof(*s->v));
	}
	s->v[s->nr].x = x;
	s->v[s->nr].y = y;
	s->nr++;
}

static int member_cmp(const void *pa, const void *pb)
{
	const assay_member *a = *(assay_member *const *)pa, *b = *(assay_member *const *)pb;
	size_t n = a->key.len < b->key.len ? a->key.len : b->key.len;
	int c = n ? memcmp(a->key.u.s, b->key.u.s, n) : 0;

	return c ? c : (a->key.len > b->key.len) - (a->key.len < b->key.len);
}

/* Pushes the member pairs of two objects of equal size; false if their keys differ. */
static bool push_members(struct pairs *s, const assay_value *x, const assay_value *y)
{
	size_t n = x->len;
	bool ok = true;

	if (n <= 16) {
		for (size_t i = 0; i < n; i++) {
			const assay_member *m = &x->u.members[i];
			const assay_value *other = assay_object_getn(y, m->key.u.s, m->key.len);

			if (!other)
				return false;
			pairs_push(s, &m->value, other);
		}
		return true;
	}
	assay_member **mx = assay_xmalloc(n * sizeof(*mx)), **my = assay_xmalloc(n * sizeof(*my));
	for (size_t i = 0; i < n; i++) {
		mx[i] = &x->u.members[i];
		my[i] = &y->u.members[i];
	}
	qsort(mx, n, sizeof(*mx), member_cmp);
	qsort(my, n, sizeof(*my), member_cmp);
	for (size_t i = 0; i < n && ok; i++) {
		ok = !member_cmp(&mx[i], &my[i]);
		if (ok)
			pairs_push(s, &mx[i]->value, &my[i]->value);
	}
	free(mx);
	free(my);
	return ok;
}

static bool scalar_equal(const assay_value *x, const assay_value *y)
{
	switch ((assay_kind)x->kind) {
	case ASSAY_V_NULL: return true;
	case ASSAY_V_BOOL: return x->u.b == y->u.b;
	case ASSAY_V_INT: return x->u.i == y->u.i;
	case ASSAY_V_REAL:
		return x->u.d == y->u.d || (isnan(x->u.d) && isnan(y->u.d));
	case ASSAY_V_DATETIME:
		if (assay_value_datetime_kind(x) != assay_value_datetime_kind(y))
			return false;
		/* fall through */
	case ASSAY_V_BIGINT:
	case ASSAY_V_STRING:
		return x->len == y->len && (!x->len || !memcmp(x->u.s, y->u.s, x->len));
	default: return false;
	}
}

bool assay_value_equal(const assay_value *x, const assay_value *y)
{
	struct pairs s = { NULL, 0, 0 };
	bool eq = true;

	pairs_push(&s, x, y);
	while (eq && s.nr) {
		struct pair p = s.v[--s.nr];

		if (p.x->kind != p.y->kind) {
			eq = false;
		} else if (p.x->kind == ASSAY_V_ARRAY) {
			eq = p.x->len == p.y->len;
			for (uint32_t i = 0; eq && i < p.x->len; i++)
				pairs_push(&s, &p.x->u.items[i], &p.y->u.items[i]);
		} else if (p.x->kind == ASSAY_V_OBJECT) {
			eq = p.x->len == p.y->len && push_members(&s, p.x, p.y);
		} else {
			eq = scalar_equal(p.x, p.y);
		}
	}
	free(s.v);
	return eq;
}

struct copy_job {
	assay_value *dst;
	const assay_value *src;
};

assay_value assay_value_copy(assay_arena *a, const assay_value *v)
{
	struct copy_job *st = NULL;
	size_t nr = 0, alloc = 0;
	assay_value root = *v;

	st = assay_xmalloc(64 * sizeof(*st));
	alloc = 64;
	st[nr++] = (struct copy_job){ &root, v };
	while (nr) {
		struct copy_job j = st[--nr];
		const assay_value *s = j.src;
		assay_value *d = j.dst;
		size_t n = s->len;

		*d = *s;
		d->flags &= (uint8_t)~ASSAY__VF_GROW;
		switch ((assay_kind)s->kind) {
		case ASSAY_V_STRING:
		case ASSAY_V_BIGINT:
		case ASSAY_V_DATETIME:
			d->u.s = assay_arena_strndup(a, s->u.s, n);
			break;
		case ASSAY_V_ARRAY:
		case ASSAY_V_OBJECT: {
			bool obj = s->kind == ASSAY_V_OBJECT;
			size_t per = obj ? 2 : 1;

			if (!n)
				break;
			if (nr + n * per > alloc) {
				while (nr + n * per > alloc)
					alloc *= 2;
				st = assay_xrealloc(st, alloc * sizeof(*st));
			}
			if (obj) {
				d->u.members = assay_arena_alloc(a, n * sizeof(assay_member));
				for (size_t i = 0; i < n; i++) {
					st[nr++] = (struct copy_job){ &d->u.members[i].key,
								      &s->u.members[i].key };
					st[nr++] = (struct copy_job){ &d->u.members[i].value,
								      &s->u.members[i].value };
				}
			} else {
				d->u.items = assay_arena_alloc(a, n * sizeof(assay_value));
				for (size_t i = 0; i < n; i++)
					st[nr++] = (struct copy_job){ &d->u.items[i],
								      &s->u.items[i] };
			}
			break;
		}
		default:
			break;
		}
	}
	free(st);
	return root;
}

struct depth_job {
	const assay_value *v;
	size_t depth;
};

size_t assay_value_depth(const assay_value *v)
{
	struct depth_job *st = assay_xmalloc(64 * sizeof(*st));
	size_t nr = 0, alloc = 64, max = 0;

	st[nr++] = (struct depth_job){ v, 0 };
	while (nr) {
		struct depth_job j = st[--nr];
		bool obj = j.v->kind == ASSAY_V_OBJECT;

		if (!obj && j.v->kind != ASSAY_V_ARRAY)
			continue;
		if (j.depth + 1 > max)
			max = j.depth + 1;
		if (nr + j.v->len > alloc) {
			while (nr + j.v->len > alloc)
				alloc *= 2;
			st = assay_xrealloc(st, alloc * sizeof(*st));
		}
		for (uint32_t i = 0; i < j.v->len; i++) {
			const assay_value *c = obj ? &j.v->u.members[i].value : &j.v->u.items[i];

			if (c->kind == ASSAY_V_ARRAY || c->kind == ASSAY_V_OBJECT)
				st[nr++] = (struct depth_job){ c, j.depth + 1 };
		}
	}
	free(st);
	return max;
}
