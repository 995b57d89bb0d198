/*
 * The diff's results: the reported differences in report order (deepdiff's TreeResult), then
 * the report value in deepdiff's to_json() shape (its TextResult at verbose_level 1).
 *
 * Key decisions:
 * - Categories come out in TextResult's order: type_changes, dictionary_item_added,
 *   dictionary_item_removed, values_changed, iterable_item_added, iterable_item_removed,
 *   repetition_change. Inside each, entries keep report order; a second entry for a path
 *   already present replaces its value in place (a Python dict assignment).
 * - iterable_item_moved is counted (it decides which of two list passes says less) but, as at
 *   deepdiff's verbose_level 1, not shown.
 * - mutual add/removes (report_repetition off): a path both added and removed becomes one
 *   values_changed entry, appended in the order of the removals (deepdiff iterates a set there,
 *   whose order Python does not fix; ours is the stable choice).
 */
#include <stdlib.h>
#include <string.h>

#include "diff/diff_int.h"
#include "util/hash.h"
#include "util/banned.h"

static const char *const cat_name[CAT_N] = {
	"type_changes",		"dictionary_item_added", "dictionary_item_removed",
	"values_changed",	"iterable_item_added",	 "iterable_item_removed",
	"iterable_item_moved",	"repetition_change",
};

/* TextResult's key order, as cat indexes (moved is not shown at verbose level 1) */
static const int out_order[] = { CAT_TYPE_CHANGES, CAT_DICT_ADDED,   CAT_DICT_REMOVED,
				 CAT_VALUES_CHANGED, CAT_ITER_ADDED, CAT_ITER_REMOVED,
				 CAT_REPETITION };

void assay_diff__result_add(struct assay_diff__result *r, const struct assay_diff__entry *e)
{
	if (r->nr == r->alloc) {
		size_t more = r->alloc ? r->alloc : 16;

		r->v = assay_xrealloc(r->v, (r->alloc + more) * sizeof(*r->v));
		r->alloc += more;
		if (r->charge)
			assay_arena_charge(r->charge, more * sizeof(*r->v));
	}
	r->v[r->nr++] = *e;
}

void assay_diff__result_merge(struct assay_diff__result *dst, struct assay_diff__result *src)
{
	if (!dst->nr && dst->charge == src->charge) {
		/* into an empty result (the common case): the entries move, not copied */
		struct assay_diff__result t = *dst;

		*dst = *src;
		*src = t;
		return;
	}
	for (size_t i = 0; i < src->nr; i++)
		assay_diff__result_add(dst, &src->v[i]);
	src->nr = 0;
}

void assay_diff__result_release(struct assay_diff__result *r)
{
	assay_arena *charge = r->charge;

	if (charge)
		assay_arena_uncharge(charge, r->alloc * sizeof(*r->v));
	free(r->v);
	memset(r, 0, sizeof(*r));
	r->charge = charge;
}

static bool same_path(const struct assay_diff__entry *a, const struct assay_diff__entry *b)
{
	return a->path_len == b->path_len && !memcmp(a->path, b->path, a->path_len);
}

/* An index from path to entry position for one category, in the process's keyed table
 * (util/hash.h): paths hold the keys a program printed, which may have been chosen to collide
 * under an unkeyed hash (the FNV-1a index used before). */
struct pathset {
	assay_htab t;
};

static void pathset_init(struct pathset *s, size_t n)
{
	s->t = (assay_htab)ASSAY_HTAB_INIT;
	assay_htab_reserve(&s->t, n);
}

static void pathset_release(struct pathset *s)
{
	assay_htab_release(&s->t);
}

/* The entry (index + 1) indexed under the path of `e`, or 0. */
static size_t pathset_get(struct pathset *s, const struct assay_diff__entry *v,
			  const struct assay_diff__entry *e)
{
	assay_htab_it it;

	for (size_t i = assay_htab_first(&s->t, assay_hash(e->path, e->path_len), &it);
	     i != ASSAY_HTAB_END; i = assay_htab_next(&s->t, &it))
		if (same_path(&v[i], e))
			return i + 1;
	return 0;
}

/* Indexes entry `i` of `v` under its path (not there yet). */
static void pathset_put(struct pathset *s, const struct assay_diff__entry *v, size_t i)
{
	assay_htab_add(&s->t, assay_hash(v[i].path, v[i].path_len), i);
}

void assay_diff__mutual_to_changes(struct assay_diff__result *r)
{
	struct pathset added;
	size_t nadded = 0, out = 0;
	bool *drop = NULL;
	struct assay_diff__result moved = { .charge = r->charge };

	for (size_t i = 0; i < r->nr; i++)
		nadded += r->v[i].cat == CAT_ITER_ADDED;
	if (!nadded)
		return;
	pathset_init(&added, nadded);
	for (size_t i = 0; i < r->nr; i++) {
		if (r->v[i].cat != CAT_ITER_ADDED)
			continue;
		if (!pathset_get(&added, r->v, &r->v[i]))
			pathset_put(&added, r->v, i);
	}
	for (size_t i = 0; i < r->nr; i++) {
		struct assay_diff__entry *e = &r->v[i];
		size_t s;

		if (e->cat != CAT_ITER_REMOVED)
			continue;
		s = pathset_get(&added, r->v, e);
		if (!s)
			continue;
		if (!drop)
			drop = assay_xcalloc(r->nr, sizeof(*drop));
		if (drop[s - 1])
			continue;
		struct assay_diff__entry vc = *e;
		vc.cat = CAT_VALUES_CHANGED;
		vc.new_v = r->v[s - 1].new_v;
		assay_diff__result_add(&moved, &vc);
		drop[i] = drop[s - 1] = true;
	}
	pathset_release(&added);
	if (!drop)
		return;
	for (size_t i = 0; i < r->nr; i++)
		if (!drop[i])
			r->v[out++] = r->v[i];
	r->nr = out;
	free(drop);
	assay_diff__result_merge(r, &moved);
	assay_diff__result_release(&moved);
}

static assay_value value_or_null(const assay_value *v)
{
	return v ? *v : assay_value_null();
}

static assay_value shown(assay_arena *a, const assay_value *v, const char *lower, size_t len)
{
	if (lower)
		return assay_value_string_ref(lower, len);
	(void)a;
	return value_or_null(v);
}

static assay_value entry_value(assay_arena *a, const struct assay_diff__entry *e)
{
	assay_value o = assay_value_object();

	switch (e->cat) {
	case CAT_TYPE_CHANGES:
		assay_object_set(a, &o, "old_type",
				 assay_value_strz(a, e->old_v ? assay_value_type_name(e->old_v)
							      : "NoneType"));
		assay_object_set(a, &o, "new_type",
				 assay_value_strz(a, e->new_v ? assay_value_type_name(e->new_v)
							      : "NoneType"));
		assay_object_set(a, &o, "old_value", value_or_null(e->old_v));
		assay_object_set(a, &o, "new_value", value_or_null(e->new_v));
		return o;
	case CAT_VALUES_CHANGED:
		assay_object_set(a, &o, "new_value",
				 shown(a, e->new_v, e->new_lower, e->new_lower_len));
		assay_object_set(a, &o, "old_value",
				 shown(a, e->old_v, e->old_lower, e->old_lower_len));
		if (e->str_diff)
			assay_object_set(a, &o, "diff",
					 assay_value_string_ref(e->str_diff, e->str_diff_len));
		return o;
	case CAT_ITER_ADDED:
		return value_or_null(e->new_v);
	case CAT_ITER_REMOVED:
		return value_or_null(e->old_v);
	case CAT_REPETITION:
		o = e->extra;
		assay_object_set(a, &o, "value", value_or_null(e->old_v));
		return o;
	default:
		return assay_value_null();
	}
}

assay_value assay_diff__result_value(assay_arena *a, const struct assay_diff__result *r,
				     bool *cut)
{
	assay_value out = assay_value_object();
	size_t count[CAT_N] = { 0 };

	*cut = false;
	for (size_t i = 0; i < r->nr; i++)
		count[r->v[i].cat]++;
	for (size_t k = 0; k < sizeof(out_order) / sizeof(out_order[0]); k++) {
		int cat = out_order[k];
		bool list = cat == CAT_DICT_ADDED || cat == CAT_DICT_REMOVED;
		assay_value c = list ? assay_value_array() : assay_value_object();
		struct pathset seen;

		if (!count[cat])
			continue;
		pathset_init(&seen, count[cat]);
		for (size_t i = 0; i < r->nr; i++) {
			const struct assay_diff__entry *e = &r->v[i];
			size_t s;

			if (e->cat != cat)
				continue;
			if (assay_arena_over(a)) {
				*cut = true;
				break;
			}
			s = pathset_get(&seen, r->v, e);
			if (list) {
				/* an ordered set of paths */
				if (!s) {
					pathset_put(&seen, r->v, i);
					assay_array_push(a, &c,
							 assay_value_string_ref(e->path, e->path_len));
				}
				continue;
			}
			if (s) {
				/* a dict assignment: the first place, the last value */
				const char *p = r->v[s - 1].path;

				for (uint32_t m = 0; m < c.len; m++)
					if (c.u.members[m].key.u.s == p)
						c.u.members[m].value = entry_value(a, e);
				continue;
			}
			pathset_put(&seen, r->v, i);
			assay_object_append(a, &c, assay_value_string_ref(e->path, e->path_len),
					    entry_value(a, e));
		}
		pathset_release(&seen);
		assay_object_set(a, &out, cat_name[cat], c);
	}
	return out;
}
