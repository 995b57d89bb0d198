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

#include "diff/diff_int.h"
#include "util/banned.h"

#define CUTOFF_DISTANCE 0.3
#define CUTOFF_INTERSECTION 0.7
#define PAIR_WORK_MAX 4000000u

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

/* distance.py's _get_item_length of a value: leaves 1, None 0. */
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
			n += item_length(&v->u.members[i].value);
		return n;
	default: return 1;
	}
}

/* The parent path of an item path (without its last "[i]"). */
static size_t parent_len(const char *path)
{
	const char *open = strrchr(path, '[');

	return open ? (size_t)(open - path) : strlen(path);
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
			n += 2 + (e->new_v ? item_length(e->new_v) : 0);
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
				    parent_len(o->path) == parent_len(e->path) &&
				    !memcmp(o->path, e->path, parent_len(e->path)))
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
	struct assay_diff__result r = { 0 };
	assay_buf saved = c->path;
	double len;

	if (is_number(removed->item) && is_number(added->item))
		return number_distance(removed->item, added->item);
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
	size_t seq;     /* insertion order: added-major, removed-minor */
};

static int cand_cmp(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;

	if (a->dist != b->dist)
		return a->dist < b->dist ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/*
 * deepdiff's pairing: for each distance (ascending), the added hashes in the order they got a
 * candidate at that distance, each taking its removed candidates at that distance in order,
 * skipping used ones; a later take overwrites the pairing of the same added hash.
 */
static void make_pairs(struct assay_diff__ctx *c, struct table *t1, struct table *t2,
		       const size_t *added, size_t na, const size_t *removed, size_t nr)
{
	struct cand *v = NULL;
	size_t n = 0, cap = 0;
	bool *used1 = assay_xcalloc(t1->nr + 1, sizeof(*used1));
	bool *used2 = assay_xcalloc(t2->nr + 1, sizeof(*used2));

	if ((uint64_t)na * nr > PAIR_WORK_MAX)
		goto out;
	for (size_t i = 0; i < na && !c->stop; i++) {
		for (size_t j = 0; j < nr && !c->stop; j++) {
			double d = rough_distance(c, &t1->v[removed[j]], &t2->v[added[i]]);

			if (!(d < CUTOFF_DISTANCE))
				continue;
			if (n == cap)
				v = assay_xrealloc(v, (cap = cap ? cap * 2 : 16) * sizeof(*v));
			v[n] = (struct cand){ d, i, j, n };
			n++;
		}
	}
	/*
	 * Within one distance, deepdiff visits added hashes in the order they first appear in
	 * most_in_common_pairs (the added order), then each one's removed hashes in order: that is
	 * the (added, removed) insertion order, which `seq` keeps.
	 */
	qsort(v, n, sizeof(*v), cand_cmp);
	for (size_t k = 0; k < n;) {
		/* one added hash's candidates at one distance: contiguous after the sort */
		size_t end = k + 1, ai = added[v[k].added];

		while (end < n && v[end].dist == v[k].dist && v[end].added == v[k].added)
			end++;
		if (!used2[ai]) {
			/* deepdiff marks the added hash used at its first take but goes on taking
			 * (and overwriting) the rest of this distance's candidates */
			for (size_t m = k; m < end; m++) {
				size_t ri = removed[v[m].removed];

				if (used1[ri])
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
out:
	free(v);
	free(used1);
	free(used2);
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

	for (size_t k = 0; k < na && !c->stop; k++) {
		struct slot *s = &t2.v[added[k]];
		struct slot *o = s->pair >= 0 ? &t1.v[s->pair] : NULL;

		if (!assay_diff__count(c))
			break;
		if (o)
			o->gone = true;
		for (size_t m = 0; m < (o ? o->nidx : s->nidx) && !c->stop; m++) {
			size_t old = assay_diff__push_index(c, o ? o->idx[m] : s->idx[m]);

			if (o)
				assay_diff__walk(c, o->item, s->item, r);
			else
				assay_diff__report(c, r, CAT_ITER_ADDED, NULL, s->item);
			assay_diff__pop(c, old);
		}
	}
	for (size_t k = 0; k < nr && !c->stop; k++) {
		struct slot *s = &t1.v[removed[k]];

		if (s->gone)
			continue;
		if (!assay_diff__count(c))
			break;
		for (size_t m = 0; m < s->nidx; m++) {
			size_t old = assay_diff__push_index(c, s->idx[m]);

			assay_diff__report(c, r, CAT_ITER_REMOVED, s->item, NULL);
			assay_diff__pop(c, old);
		}
	}
	for (size_t i = 0; i < t2.nr && !c->stop; i++) {
		const struct slot *s2 = &t2.v[i];
		const struct slot *s1 = s2->other >= 0 ? &t1.v[s2->other] : NULL;

		if (!s1 || s1->nidx == s2->nidx)
			continue;
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
			en.path = assay_diff__path(c);
			en.old_v = s1->item;
			en.new_v = s2->item;
			en.extra = x;
			assay_diff__result_add(r, &en);
		}
		assay_diff__pop(c, old);
	}
	free(added);
	free(removed);
	table_free(&t1);
	table_free(&t2);
}
