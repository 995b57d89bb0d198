/*
 * ignore_order: lists compared as multisets, reported as deepdiff reports them with
 * ignore_order=True and report_repetition=True (its _diff_iterable_with_deephash and
 * _get_most_in_common_pairs_in_iterables, distance.py's rough distance). Spec: issue #6,
 * docs/internals/deepdiff-parity.md.
 *
 * Key decisions (deepdiff 6.2.2's):
 * - Each side's items are grouped by DeepHash in order of first appearance, with their indexes.
 *   Hashes only in actual were added, only in expected removed; a hash on both sides with
 *   different counts is a repetition_change at its first expected index.
 * - Unless added and removed hashes are more than 70% of all (cutoff_intersection_for_pairs),
 *   each added hash is paired with the removed hash nearest to it (rough distance below 0.3,
 *   cutoff_distance_for_pairs): every (added, removed) distance is computed, distances are
 *   taken in increasing order, and within one distance added hashes in order, each taking the
 *   removed ones in order (deepdiff lets a later one overwrite an earlier pairing there; so do
 *   we). A pair is compared inside, at the removed item's indexes.
 * - Rough distance: for two numbers |a-b| / ((a+b)/0.3) capped at 0.3; otherwise the length of
 *   the directed delta of their comparison (new values, added/removed items counted once per
 *   object, each leaf 1, None 0, a type 1) over the sum of their DeepHash node counts.
 * - Everything is linear in the items except the distance matrix between added and removed
 *   hashes; that is bounded (PAIR_WORK_MAX comparisons), past which the rest is reported added
 *   or removed, so a hostile output of a million distinct items cannot stall the run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diff/diff_int.h"
#include "util/banned.h"

#define CUTOFF_DISTANCE 0.3
#define CUTOFF_INTERSECTION 0.7
#define PAIR_WORK_MAX 4000000u
#define PROBE_STEPS_MAX 16000000u /* the tolerance pass's comparison steps, all probes */

/* One distinct hash of a side: its first item and every index where it occurs. */
struct slot {
	uint64_t h[2];
	uint64_t count;          /* DeepHash node count of the item */
	const assay_value *item; /* the first item with this hash */
	size_t *idx;
	size_t nidx, alloc;
	long other;              /* index of the same hash on the other side, or -1 */
	long pair;               /* paired hash on the other side, or -1 */
	bool gone;               /* removed from hashes_removed (paired) */
};

struct table {
	struct slot *v;
	size_t nr;
	size_t *map; /* open addressing: slot index + 1 */
	size_t cap;
};

static size_t hslot(const uint64_t h[2], size_t cap)
{
	return (size_t)(h[0] ^ (h[1] >> 7)) & (cap - 1);
}

static long table_find(const struct table *t, const uint64_t h[2])
{
	for (size_t k = hslot(h, t->cap); t->map[k]; k = (k + 1) & (t->cap - 1)) {
		const struct slot *s = &t->v[t->map[k] - 1];

		if (s->h[0] == h[0] && s->h[1] == h[1])
			return (long)(t->map[k] - 1);
	}
	return -1;
}

static void table_build(struct assay_diff__ctx *c, struct table *t, const assay_value *list)
{
	t->cap = 16;
	while (t->cap < (size_t)list->len * 2)
		t->cap *= 2;
	t->map = assay_xcalloc(t->cap, sizeof(*t->map));
	t->v = assay_xmalloc((list->len ? list->len : 1) * sizeof(*t->v));
	t->nr = 0;
	for (uint32_t i = 0; i < list->len; i++) {
		struct assay_diff__hash h;
		size_t old = assay_diff__push_index(c, i);
		bool skip = (c->nexcl || c->nexcl_rx) && assay_diff__skip(c);
		long at;

		if (!skip)
			assay_diff__hash(c, &list->u.items[i], &h);
		assay_diff__pop(c, old);
		if (skip)
			continue;
		at = table_find(t, h.h);
		if (at < 0) {
			struct slot *s = &t->v[t->nr];
			size_t k = hslot(h.h, t->cap);

			memset(s, 0, sizeof(*s));
			s->h[0] = h.h[0], s->h[1] = h.h[1];
			s->count = h.count;
			s->item = &list->u.items[i];
			s->other = s->pair = -1;
			while (t->map[k])
				k = (k + 1) & (t->cap - 1);
			t->map[k] = ++t->nr;
			at = (long)t->nr - 1;
		}
		struct slot *s = &t->v[at];
		if (s->nidx == s->alloc)
			s->idx = assay_xrealloc(s->idx, (s->alloc = s->alloc ? s->alloc * 2 : 2) *
							       sizeof(*s->idx));
		s->idx[s->nidx++] = i;
	}
}

static void table_free(struct table *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->v[i].idx);
	free(t->v);
	free(t->map);
}

/* ---- rough distance --------------------------------------------------------------------- */

/* distance.py's _get_item_length of a value: leaves 1, None 0, keys starting with '_' skipped. */
static double item_length(const assay_value *v)
{
	double n = 0;

	switch ((assay_kind)v->kind) {
	case ASSAY_V_NULL: return 0;
	case ASSAY_V_ARRAY:
		for (uint32_t i = 0; i < v->len; i++)
			n += item_length(&v->u.items[i]);
		return n;
	case ASSAY_V_OBJECT:
		for (uint32_t i = 0; i < v->len; i++)
			if (!(v->u.members[i].key.len && v->u.members[i].key.u.s[0] == '_'))
				n += item_length(&v->u.members[i].value);
		return n;
	default: return 1;
	}
}

/* Python's == between two values (True == 1, NaN equal to itself as json's one NaN). */
static bool py_eq(const assay_value *x, const assay_value *y)
{
	if (assay_diff__is_num(x) && assay_diff__is_num(y))
		return assay_diff__num_eq(x, y);
	if (x->kind != y->kind)
		return false;
	switch ((assay_kind)x->kind) {
	case ASSAY_V_NULL: return true;
	case ASSAY_V_ARRAY:
		if (x->len != y->len)
			return false;
		for (uint32_t i = 0; i < x->len; i++)
			if (!py_eq(&x->u.items[i], &y->u.items[i]))
				return false;
		return true;
	case ASSAY_V_OBJECT:
		if (x->len != y->len)
			return false;
		for (uint32_t i = 0; i < x->len; i++) {
			const assay_member *m = &x->u.members[i];
			const assay_value *o = assay_object_getn(y, m->key.u.s, m->key.len);

			if (!o || !py_eq(&m->value, o))
				return false;
		}
		return true;
	default:
		return x->len == y->len && (!x->len || !memcmp(x->u.s, y->u.s, x->len));
	}
}

static bool py_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}

/* Python's int(s) / float(s) text rules: strip, sign, digits with single '_' between. Copies
 * the literal without underscores into `out`; false if Python would refuse it. */
static bool py_numeric_text(const char *s, size_t len, bool is_float, assay_buf *out)
{
	size_t i = 0, end = len;
	bool digit = false, prev_digit = false, dot = false, exp = false;

	while (i < end && py_space(s[i]))
		i++;
	while (end > i && py_space(s[end - 1]))
		end--;
	if (i < end && (s[i] == '+' || s[i] == '-'))
		assay_buf_addch(out, s[i++]);
	if (is_float && end - i >= 3) {
		static const char *const words[] = { "inf", "infinity", "nan" };

		for (int w = 0; w < 3; w++)
			if (end - i == strlen(words[w]) && !strncasecmp(s + i, words[w], end - i)) {
				assay_buf_adds(out, w == 2 ? "nan" : "inf");
				return true;
			}
	}
	for (; i < end; i++) {
		char ch = s[i];

		if (ch >= '0' && ch <= '9') {
			assay_buf_addch(out, ch);
			digit = prev_digit = true;
		} else if (ch == '_' && prev_digit && i + 1 < end && s[i + 1] >= '0' &&
			   s[i + 1] <= '9') {
			prev_digit = false;
		} else if (is_float && ch == '.' && !dot && !exp) {
			assay_buf_addch(out, ch);
			dot = true;
			prev_digit = false;
		} else if (is_float && (ch == 'e' || ch == 'E') && digit && !exp) {
			assay_buf_addch(out, 'e');
			exp = true;
			digit = prev_digit = false;
			if (i + 1 < end && (s[i + 1] == '+' || s[i + 1] == '-'))
				assay_buf_addch(out, s[++i]);
		} else {
			return false;
		}
	}
	return digit;
}

/*
 * deepdiff's DeltaResult: a type change carries the new value unless new_type(old_value)
 * already gives it (Python's conversions: str(1) == "1", int("7") == 7, bool(x) truthiness,
 * list("ab") == ["a", "b"], ...). Containers' str() (Python's repr) is taken to never match.
 */
static bool converts_to(const assay_value *old, const assay_value *nw)
{
	assay_buf t = ASSAY_BUF_INIT;
	bool eq = false;

	switch ((assay_kind)nw->kind) {
	case ASSAY_V_STRING:
		switch ((assay_kind)old->kind) {
		case ASSAY_V_NULL: assay_buf_adds(&t, "None"); break;
		case ASSAY_V_BOOL: assay_buf_adds(&t, old->u.b ? "True" : "False"); break;
		case ASSAY_V_INT: assay_buf_addf(&t, "%lld", (long long)old->u.i); break;
		case ASSAY_V_BIGINT: assay_buf_add(&t, old->u.s, old->len); break;
		case ASSAY_V_REAL: {
			char b[ASSAY_DOUBLE_BUFSIZE];

			assay_buf_add(&t, b, assay_format_double(b, old->u.d));
			break;
		}
		default: goto out;
		}
		eq = t.len == nw->len && !memcmp(t.ptr, nw->u.s, t.len);
		break;
	case ASSAY_V_INT:
	case ASSAY_V_BIGINT: {
		assay_arena *a;
		assay_value iv;

		if (old->kind == ASSAY_V_BOOL) {
			iv = assay_value_int(old->u.b);
			eq = assay_diff__num_eq(&iv, nw);
			break;
		}
		if (old->kind == ASSAY_V_REAL) {
			if (!isfinite(old->u.d))
				break;
			assay_buf_addf(&t, "%.0f", trunc(old->u.d));
		} else if (old->kind != ASSAY_V_STRING || !py_numeric_text(old->u.s, old->len, false, &t)) {
			break;
		}
		a = assay_arena_new(0);
		if (!assay_value_integer_text(&iv, a, t.ptr, t.len))
			eq = assay_diff__num_eq(&iv, nw);
		assay_arena_free(a);
		break;
	}
	case ASSAY_V_REAL: {
		double d;

		if (old->kind == ASSAY_V_STRING) {
			if (!py_numeric_text(old->u.s, old->len, true, &t))
				break;
			if (!strcmp(t.ptr, "nan") || !strcmp(t.ptr, "-nan") || !strcmp(t.ptr, "+nan"))
				break; /* float("nan") is a new NaN: never == */
			d = strstr(t.ptr, "inf") ? (t.ptr[0] == '-' ? -INFINITY : INFINITY)
						 : assay_parse_double(t.ptr, t.len);
		} else if (assay_diff__is_num(old)) {
			d = assay_diff__num_double(old);
		} else {
			break;
		}
		eq = d == nw->u.d;
		break;
	}
	case ASSAY_V_BOOL: {
		bool truth;

		switch ((assay_kind)old->kind) {
		case ASSAY_V_NULL: truth = false; break;
		case ASSAY_V_INT: truth = old->u.i != 0; break;
		case ASSAY_V_BIGINT: truth = true; break;
		case ASSAY_V_REAL: truth = old->u.d != 0; break;
		default: truth = old->len != 0; break;
		}
		eq = truth == nw->u.b;
		break;
	}
	case ASSAY_V_ARRAY:
		if (old->kind == ASSAY_V_OBJECT) {
			eq = old->len == nw->len;
			for (uint32_t i = 0; eq && i < old->len; i++)
				eq = py_eq(&old->u.members[i].key, &nw->u.items[i]);
		} else if (old->kind == ASSAY_V_STRING) {
			/* list(str): its code points */
			uint32_t i = 0, k = 0;

			eq = true;
			while (eq && i < old->len) {
				uint32_t n = 1;
				unsigned char b = (unsigned char)old->u.s[i];

				n = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
				if (i + n > old->len)
					n = old->len - i;
				eq = k < nw->len && nw->u.items[k].kind == ASSAY_V_STRING &&
				     nw->u.items[k].len == n && !memcmp(nw->u.items[k].u.s, old->u.s + i, n);
				i += n;
				k++;
			}
			eq = eq && k == nw->len;
		}
		break;
	default:
		break;
	}
out:
	assay_buf_release(&t);
	return eq;
}

/* The length of the parent path of an item path (without its last "[i]"). */
static size_t parent_len(const struct assay_diff__entry *e)
{
	for (size_t i = e->path_len; i > 0; i--)
		if (e->path[i - 1] == '[')
			return i - 1;
	return e->path_len;
}

/* distance.py: the length of the directed delta of a report (ignore_order on). */
static double delta_length(const struct assay_diff__result *r)
{
	double n = 0;

	for (size_t i = 0; i < r->nr; i++) {
		const struct assay_diff__entry *e = &r->v[i];
		const assay_value *item;
		bool dup = false;

		switch (e->cat) {
		case CAT_TYPE_CHANGES:
			n += 2;
			if (e->new_v && !(e->old_v && converts_to(e->old_v, e->new_v)))
				n += item_length(e->new_v);
			break;
		case CAT_VALUES_CHANGED:
			if (e->new_lower)
				n += 1;
			else
				n += e->new_v ? item_length(e->new_v) : 0;
			break;
		case CAT_DICT_ADDED:
			n += item_length(e->new_v);
			break;
		case CAT_DICT_REMOVED:
			n += item_length(e->old_v);
			break;
		case CAT_ITER_ADDED:
		case CAT_ITER_REMOVED:
		case CAT_REPETITION:
			/* grouped by parent path; one object counts once per group */
			item = e->cat == CAT_ITER_ADDED ? e->new_v : e->old_v;
			for (size_t k = 0; k < i && !dup; k++) {
				const struct assay_diff__entry *o = &r->v[k];
				bool same_group = (o->cat == CAT_ITER_REMOVED) ==
						  (e->cat == CAT_ITER_REMOVED);
				const assay_value *oi = o->cat == CAT_ITER_ADDED ? o->new_v : o->old_v;

				if ((o->cat == CAT_ITER_ADDED || o->cat == CAT_ITER_REMOVED ||
				     o->cat == CAT_REPETITION) &&
				    same_group && oi == item &&
				    parent_len(o) == parent_len(e) &&
				    !memcmp(o->path, e->path, parent_len(e)))
					dup = true;
			}
			if (!dup)
				n += item_length(item);
			break;
		default:
			break;
		}
	}
	return n;
}

static double number_distance(const assay_value *x, const assay_value *y)
{
	double a, b, divisor;

	if (assay_diff__num_eq(x, y))
		return 0;
	a = x->kind == ASSAY_V_BOOL ? x->u.b : assay_value_number(x);
	b = y->kind == ASSAY_V_BOOL ? y->u.b : assay_value_number(y);
	divisor = (a + b) / CUTOFF_DISTANCE;
	if (divisor == 0)
		return CUTOFF_DISTANCE;
	double d = fabs((a - b) / divisor);

	return isnan(d) || d > CUTOFF_DISTANCE ? CUTOFF_DISTANCE : d;
}

static bool is_number(const assay_value *v)
{
	return v->kind == ASSAY_V_BOOL || v->kind == ASSAY_V_INT || v->kind == ASSAY_V_BIGINT ||
	       v->kind == ASSAY_V_REAL;
}

/* deepdiff's _get_rough_distance of DeepDiff(removed, added). */
static double rough_distance(struct assay_diff__ctx *c, const struct slot *removed,
			     const struct slot *added)
{
	struct assay_diff__result r = { .charge = c->a };
	assay_buf saved = c->path;
	double len;

	if (is_number(removed->item) && is_number(added->item)) {
		/* deepdiff still makes the inner DeepDiff, whose _diff counts one step */
		(void)assay_diff__count(c);
		return number_distance(removed->item, added->item);
	}
	/* an inner DeepDiff: its own root, the same options and counters */
	c->path = (assay_buf)ASSAY_BUF_INIT;
	assay_buf_adds(&c->path, "root");
	assay_diff__walk(c, removed->item, added->item, &r);
	assay_buf_release(&c->path);
	c->path = saved;
	len = delta_length(&r);
	assay_diff__result_release(&r);
	if (len == 0)
		return 0;
	return len / (double)(removed->count + added->count);
}

/* ---- pairing ------------------------------------------------------------------------- */

struct cand {
	double dist;
	size_t added;   /* index into the added list */
	size_t removed; /* index into the removed list */
	size_t key;     /* its distance key (cands with equal distances share one; NaNs do not) */
};

/* Python's float < (False whenever a NaN is involved). */
static bool py_lt(double a, double b)
{
	return a < b;
}

/*
 * CPython's list.sort() (Objects/listobject.c) as it runs on fewer than 64 items: count_run,
 * reverse a strictly descending run, then binarysort the rest into it. With NaN among the
 * keys the order this gives is not a total order's, and deepdiff's pairing depends on it.
 * (Lists of 64 or more keys are sorted the same way here; CPython would merge runs.)
 */
static void python_sort(double *v, size_t *order, size_t n)
{
	size_t run = 1;

	if (n < 2)
		return;
	if (py_lt(v[order[1]], v[order[0]])) {
		for (run = 2; run < n && py_lt(v[order[run]], v[order[run - 1]]); run++)
			;
		for (size_t i = 0, j = run - 1; i < j; i++, j--) {
			size_t t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
	} else {
		for (run = 2; run < n && !py_lt(v[order[run]], v[order[run - 1]]); run++)
			;
	}
	for (size_t start = run; start < n; start++) {
		size_t pivot = order[start], l = 0, r = start;

		while (l < r) {
			size_t p = l + ((r - l) >> 1);

			if (py_lt(v[pivot], v[order[p]]))
				r = p;
			else
				l = p + 1;
		}
		memmove(&order[l + 1], &order[l], (start - l) * sizeof(*order));
		order[l] = pivot;
	}
}

/* deepdiff's numpy shortcut applies: 2+ added and 2+ removed, all ints or all floats alike. */
static int numpy_kind(const struct table *t, const size_t *idx, size_t n)
{
	int kind = t->v[idx[0]].item->kind;

	if (kind != ASSAY_V_INT && kind != ASSAY_V_REAL)
		return -1;
	for (size_t i = 1; i < n; i++)
		if (t->v[idx[i]].item->kind != kind)
			return -1;
	return kind;
}

/* distance.py's _get_numpy_array_distance for one pair (num1 = added, num2 = removed). */
static double numpy_distance(const assay_value *added, const assay_value *removed)
{
	double a = assay_diff__num_double(added), b = assay_diff__num_double(removed);
	double num = a - b, div = (a + b) / CUTOFF_DISTANCE, d;

	if (num == div)
		return 0;
	d = div != 0 ? fabs(num / div) : CUTOFF_DISTANCE;
	return d > CUTOFF_DISTANCE ? CUTOFF_DISTANCE : d; /* np.clip keeps NaN */
}

/*
 * deepdiff's pairing (_get_most_in_common_pairs_in_iterables): distances grouped by value
 * (each NaN its own group), the groups taken in sorted order, and within one, the added hashes
 * in order, each taking its removed candidates there in order, skipping used ones; deepdiff
 * does not stop at the first take, so a later one overwrites the pairing of the same added hash
 * and the earlier candidate stays unpaired.
 */
static void make_pairs(struct assay_diff__ctx *c, struct table *t1, struct table *t2,
		       const size_t *added, size_t na, const size_t *removed, size_t nr)
{
	struct cand *v = NULL;
	size_t n = 0, cap = 0, nkeys = 0;
	double *keyd = NULL;
	size_t *order = NULL;
	bool *used1 = assay_xcalloc(t1->nr + 1, sizeof(*used1));
	bool *used2 = assay_xcalloc(t2->nr + 1, sizeof(*used2));
	bool numpy = false;

	if ((uint64_t)na * nr > PAIR_WORK_MAX)
		goto out;
	if (na > 1 && nr > 1 && t2->v[added[0]].item->kind != ASSAY_V_ARRAY) {
		int ka = numpy_kind(t2, added, na), kr = numpy_kind(t1, removed, nr);

		numpy = ka >= 0 && ka == kr;
	}
	for (size_t i = 0; i < na && !c->stop; i++) {
		for (size_t j = 0; j < nr && !c->stop; j++) {
			const struct slot *rs = &t1->v[removed[j]], *as = &t2->v[added[i]];
			double d = numpy ? numpy_distance(as->item, rs->item)
					 : rough_distance(c, rs, as);

			if (d >= CUTOFF_DISTANCE)
				continue; /* a NaN distance is not >= 0.3: a candidate */
			if (n == cap)
				v = assay_xrealloc(v, (cap = cap ? cap * 2 : 16) * sizeof(*v));
			v[n] = (struct cand){ d, i, j, 0 };
			n++;
		}
	}
	/* distance keys in the order deepdiff first meets them (added-major), then sorted */
	keyd = assay_xmalloc((n ? n : 1) * sizeof(*keyd));
	order = assay_xmalloc((n ? n : 1) * sizeof(*order));
	for (size_t k = 0; k < n; k++) {
		size_t m = 0;

		if (!isnan(v[k].dist))
			for (m = 0; m < nkeys && !(keyd[m] == v[k].dist); m++)
				;
		if (isnan(v[k].dist) || m == nkeys) {
			keyd[nkeys] = v[k].dist;
			order[nkeys] = nkeys;
			m = nkeys++;
		}
		v[k].key = m;
	}
	python_sort(keyd, order, nkeys);
	for (size_t o = 0; o < nkeys; o++) {
		size_t key = order[o];

		for (size_t k = 0; k < n;) {
			/* one added hash's candidates (contiguous: added-major order) */
			size_t end = k + 1, ai = added[v[k].added];

			if (v[k].key != key) {
				k++;
				continue;
			}
			while (end < n && v[end].added == v[k].added)
				end++;
			if (!used2[ai]) {
				for (size_t m = k; m < end; m++) {
					size_t ri = removed[v[m].removed];

					if (v[m].key != key || used1[ri])
						continue;
					used2[ai] = used1[ri] = true;
					if (t2->v[ai].pair >= 0)
						t1->v[t2->v[ai].pair].pair = -1;
					t2->v[ai].pair = (long)ri;
					t1->v[ri].pair = (long)ai;
				}
			}
			k = end;
		}
	}
out:
	free(v);
	free(keyd);
	free(order);
	free(used1);
	free(used2);
}

/* ---- items equal within the tolerances ------------------------------------------------- */

struct numref {
	double d;
	size_t slot; /* index into the table */
};

static int numref_cmp(const void *x, const void *y)
{
	const struct numref *p = x, *q = y;

	if (p->d != q->d)
		return p->d < q->d ? -1 : 1;
	return p->slot < q->slot ? -1 : p->slot > q->slot;
}

static void pair_slots(struct table *t1, struct table *t2, size_t ri, size_t ai)
{
	t1->v[ri].pair = (long)ai;
	t2->v[ai].pair = (long)ri;
}

static bool pairable(const struct slot *r, const struct slot *a)
{
	return r->pair < 0 && a->pair < 0;
}

/* Are two items equal under the options? A walk that stops at its first difference, and
 * costs no max_diffs steps. */
static bool probe_equal(struct assay_diff__ctx *c, const struct slot *r, const struct slot *a)
{
	struct assay_diff__result res = { .charge = c->a };
	uint64_t count = c->diff_count;
	bool probe = c->probe, truncated = c->truncated, eq;
	size_t old = assay_diff__push_index(c, r->idx[0]);

	c->probe = true;
	assay_diff__walk(c, r->item, a->item, &res);
	eq = res.nr == 0 && !c->stop;
	assay_diff__result_release(&res);
	assay_diff__pop(c, old);
	c->probe = probe;
	c->diff_count = count;
	c->truncated = truncated;
	if (!c->over_budget && !c->need_stack)
		c->stop = false;
	return eq;
}

/*
 * Past deepdiff's cutoff nothing is paired, so items equal only within the tolerances (1.0 in
 * expected, 1.0000001 in actual) would be reported removed and added. assay pairs them first
 * (issue #6: tolerance-equal items still match; deepdiff ignores math_epsilon under
 * ignore_order): numbers by one sweep over both sides sorted by value, each removed number
 * taking the smallest added one close to it (n log n); containers by comparing each removed
 * with each added of the same kind, at most PAIR_WORK_MAX comparisons and PROBE_STEPS_MAX steps
 * in all (each stops at its first difference). A pair is then compared
 * like any other: no report when equal, a repetition_change when its counts differ.
 */
static void pair_within_tolerance(struct assay_diff__ctx *c, struct table *t1, struct table *t2,
				  const size_t *added, size_t na, const size_t *removed, size_t nr)
{
	struct numref *rn = assay_xmalloc((nr + 1) * sizeof(*rn));
	struct numref *an = assay_xmalloc((na + 1) * sizeof(*an));
	size_t nrn = 0, nan_ = 0, j = 0;
	uint64_t work = 0, steps0 = c->steps;

	for (size_t k = 0; k < nr; k++) {
		const assay_value *v = t1->v[removed[k]].item;

		if (is_number(v) && v->kind != ASSAY_V_BOOL && !isnan(assay_diff__num_double(v)))
			rn[nrn++] = (struct numref){ assay_diff__num_double(v), removed[k] };
	}
	for (size_t k = 0; k < na; k++) {
		const assay_value *v = t2->v[added[k]].item;

		if (is_number(v) && v->kind != ASSAY_V_BOOL && !isnan(assay_diff__num_double(v)))
			an[nan_++] = (struct numref){ assay_diff__num_double(v), added[k] };
	}
	qsort(rn, nrn, sizeof(*rn), numref_cmp);
	qsort(an, nan_, sizeof(*an), numref_cmp);
	/* An added number below r and not close to it is not close to any larger r either, while
	 * the relative tolerance is below 1 (it grows slower than the gap). */
	for (size_t i = 0; i < nrn; i++) {
		struct slot *rs = &t1->v[rn[i].slot];

		if (c->o->rel_tol >= 1) { /* no order to use: every added number */
			for (size_t k = 0; k < nan_; k++)
				if (pairable(rs, &t2->v[an[k].slot]) &&
				    assay_diff__num_close(c->o, rs->item, t2->v[an[k].slot].item)) {
					pair_slots(t1, t2, rn[i].slot, an[k].slot);
					break;
				}
			continue;
		}
		while (j < nan_ && (t2->v[an[j].slot].pair >= 0 ||
				    (an[j].d < rn[i].d &&
				     !assay_diff__num_close(c->o, rs->item, t2->v[an[j].slot].item))))
			j++;
		for (size_t k = j; k < nan_; k++) {
			struct slot *as = &t2->v[an[k].slot];

			if (!assay_diff__num_close(c->o, rs->item, as->item)) {
				if (an[k].d > rn[i].d)
					break;
				continue;
			}
			if (pairable(rs, as)) {
				pair_slots(t1, t2, rn[i].slot, an[k].slot);
				break;
			}
		}
	}
	/* containers, each removed against the added of its kind */
	for (size_t k = 0; k < nr && !c->stop; k++) {
		struct slot *rs = &t1->v[removed[k]];

		if (rs->item->kind != ASSAY_V_ARRAY && rs->item->kind != ASSAY_V_OBJECT)
			continue;
		for (size_t m = 0; m < na && !c->stop; m++) {
			struct slot *as = &t2->v[added[m]];

			if (as->item->kind != rs->item->kind || !pairable(rs, as))
				continue;
			if (++work > PAIR_WORK_MAX || c->steps - steps0 > PROBE_STEPS_MAX)
				goto out;
			if (probe_equal(c, rs, as)) {
				pair_slots(t1, t2, removed[k], added[m]);
				break;
			}
		}
	}
out:
	free(rn);
	free(an);
}

/* A repetition_change: an item occurring s1->nidx times in expected, s2->nidx in actual. */
static void report_repetition(struct assay_diff__ctx *c, struct assay_diff__result *r,
			      const struct slot *s1, const struct slot *s2)
{
	size_t old = assay_diff__push_index(c, s1->idx[0]);

	if (!assay_diff__skip(c)) {
		struct assay_diff__entry en = { 0 };
		assay_value x = assay_value_object(), oi = assay_value_array(),
			    ni = assay_value_array();

		for (size_t m = 0; m < s1->nidx; m++)
			assay_array_push(c->a, &oi, assay_value_int((int64_t)s1->idx[m]));
		for (size_t m = 0; m < s2->nidx; m++)
			assay_array_push(c->a, &ni, assay_value_int((int64_t)s2->idx[m]));
		assay_object_set(c->a, &x, "old_repeat", assay_value_int((int64_t)s1->nidx));
		assay_object_set(c->a, &x, "new_repeat", assay_value_int((int64_t)s2->nidx));
		assay_object_set(c->a, &x, "old_indexes", oi);
		assay_object_set(c->a, &x, "new_indexes", ni);
		en.cat = CAT_REPETITION;
		assay_diff__set_path(c, &en);
		en.old_v = s1->item;
		en.new_v = s2->item;
		en.extra = x;
		assay_diff__add(c, r, &en);
	}
	assay_diff__pop(c, old);
}

void assay_diff__unordered(struct assay_diff__ctx *c, const assay_value *e, const assay_value *a,
			   struct assay_diff__result *r)
{
	struct table t1, t2;
	size_t *added, *removed, na = 0, nr = 0;

	table_build(c, &t1, e);
	table_build(c, &t2, a);
	added = assay_xmalloc((t2.nr + 1) * sizeof(*added));
	removed = assay_xmalloc((t1.nr + 1) * sizeof(*removed));
	for (size_t i = 0; i < t2.nr; i++) {
		long o = table_find(&t1, t2.v[i].h);

		t2.v[i].other = o;
		if (o < 0)
			added[na++] = i;
		else
			t1.v[o].other = (long)i;
	}
	for (size_t i = 0; i < t1.nr; i++)
		if (t1.v[i].other < 0)
			removed[nr++] = i;
	if ((double)(na + nr) / (double)(t1.nr + t2.nr + 1) <= CUTOFF_INTERSECTION && na && nr)
		make_pairs(c, &t1, &t2, added, na, removed, nr);
	else if (na && nr && c->o->significant_digits < 0)
		pair_within_tolerance(c, &t1, &t2, added, na, removed, nr);

	for (size_t k = 0; k < na && !c->stop; k++) {
		struct slot *s = &t2.v[added[k]];
		struct slot *o = s->pair >= 0 ? &t1.v[s->pair] : NULL;

		if (!assay_diff__count(c))
			goto out; /* deepdiff returns from the whole comparison */
		if (o)
			o->gone = true;
		size_t before = r->nr;

		for (size_t m = 0; m < (o ? o->nidx : s->nidx) && !c->stop; m++) {
			size_t old = assay_diff__push_index(c, o ? o->idx[m] : s->idx[m]);

			if (o)
				assay_diff__walk(c, o->item, s->item, r);
			else
				assay_diff__report(c, r, CAT_ITER_ADDED, NULL, s->item);
			assay_diff__pop(c, old);
		}
		/* assay's: a pair equal within the tolerances that occurs a different number of
		 * times is a repetition_change, where deepdiff (comparing at 12 digits, never
		 * equal) reports values_changed at each index: a count never hides */
		if (o && r->nr == before && o->nidx != s->nidx && !c->stop)
			report_repetition(c, r, o, s);
	}
	for (size_t k = 0; k < nr && !c->stop; k++) {
		struct slot *s = &t1.v[removed[k]];

		if (s->gone)
			continue;
		if (!assay_diff__count(c))
			goto out;
		for (size_t m = 0; m < s->nidx; m++) {
			size_t old = assay_diff__push_index(c, s->idx[m]);

			assay_diff__report(c, r, CAT_ITER_REMOVED, s->item, NULL);
			assay_diff__pop(c, old);
		}
	}
	for (size_t i = 0; i < t2.nr && !c->stop; i++) {
		const struct slot *s2 = &t2.v[i];
		const struct slot *s1 = s2->other >= 0 ? &t1.v[s2->other] : NULL;

		if (s1 && s1->nidx != s2->nidx)
			report_repetition(c, r, s1, s2);
	}
out:
	free(added);
	free(removed);
	table_free(&t1);
	table_free(&t2);
}
