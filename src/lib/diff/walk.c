/*
 * The walk: deepdiff's _diff() over two values (DeepDiff(expected, actual) with
 * ignore_numeric_type_changes=True), reporting into a result. Spec: docs/internals/
 * deepdiff-parity.md; issue #6.
 *
 * Key decisions (each one deepdiff 6.2.2's, read in its diff.py):
 * - Type groups: None; bool; numbers (int and float together); str; list; dict; dates and
 *   times. Different groups are a type change, so True vs 1 is a type change when compared
 *   directly, yet in a list of scalars difflib matches them as equal (Python's True == 1):
 *   deepdiff's own inconsistency, kept. Numbers compare with the tolerances or
 *   significant_digits.
 * - Strings: with ignore_string_case both are lowered first, and the report shows them lowered.
 *   A changed string holding a newline on either side gets a "diff" entry: unified_diff of the
 *   two texts' lines.
 * - Dicts: keys only in actual (actual's order), keys only in expected (expected's order), then
 *   the common keys in actual's order.
 * - Lists in order: when every item on both sides is a scalar, difflib's SequenceMatcher
 *   (autojunk off) aligns them: equal runs say nothing, deleted runs are iterable_item_removed
 *   (expected index), inserted runs iterable_item_added (actual index), replaced runs are
 *   paired item by item (compared at the actual index; a pair equal by == at different indexes
 *   is an iterable_item_moved, which counts but is not shown). If that reports more than one
 *   difference, plain index-by-index pairing is tried too, and the smaller report wins, ties to
 *   index-by-index. Lists holding containers are paired index by index.
 * - Every comparison counts toward max_diffs as deepdiff's _count_diff() does (it counts
 *   comparisons made, not differences found); the budget (deadline, arena limit) is checked on
 *   the same count, and the arena limit also at every difference found: the entries found are
 *   charged to the report's arena (result.c) and their paths are made in it, so a run of
 *   differences reported without a step each (difflib's inserted runs) or of long paths stops
 *   at the limit too.
 * - assay's own options: ignore_extra_keys (keys only in actual are not reported), regex_paths
 *   (the expected string at that path is a pattern the actual string must match).
 *
 * Refuses to: report iterable_item_moved (hidden at deepdiff's verbose_level 1), compare
 * datetimes other than by their text.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "assay/value.h"
#include "diff/diff_int.h"
#include "util/buf_int.h"
#include "util/hash.h"
#include "util/banned.h"

/* G_REAL only under strict_types: floats apart from integers */
enum group { G_NONE, G_BOOL, G_NUM, G_REAL, G_STR, G_LIST, G_DICT, G_DT };

static enum group group_of(const struct assay_diff__ctx *c, const assay_value *v)
{
	switch ((assay_kind)v->kind) {
	case ASSAY_V_NULL: return G_NONE;
	case ASSAY_V_STRING: return G_STR;
	case ASSAY_V_ARRAY: return G_LIST;
	case ASSAY_V_OBJECT: return G_DICT;
	case ASSAY_V_DATETIME: return G_DT;
	case ASSAY_V_BOOL: return G_BOOL;
	default: return c->o->strict_types && v->kind == ASSAY_V_REAL ? G_REAL : G_NUM;
	}
}

#define BUDGET_EVERY 4096

bool assay_diff__count(struct assay_diff__ctx *c)
{
	if (c->stop)
		return false;
	/* deepdiff: once over, every step fails, each failing function returns and its caller
	 * goes on to its own next step (reports made without a step still happen) */
	if (c->o->max_diffs >= 0 && c->diff_count > (uint64_t)c->o->max_diffs) {
		c->truncated = true;
		return false;
	}
	c->diff_count++;
	if (++c->steps % BUDGET_EVERY == 0 &&
	    ((c->deadline > 0 && assay_diff__now() > c->deadline) || assay_arena_over(c->a))) {
		c->stop = c->over_budget = true;
		return false;
	}
	return true;
}

/* ---- paths ------------------------------------------------------------------------------ */

size_t assay_diff__push_index(struct assay_diff__ctx *c, size_t i)
{
	size_t old = c->path.len;

	char tmp[24], *d = tmp + sizeof(tmp);

	/* by hand: printf was a tenth of a large pair's walk */
	*--d = ']';
	do
		*--d = (char)('0' + i % 10);
	while (i /= 10);
	*--d = '[';
	assay_buf_add(&c->path, d, (size_t)(tmp + sizeof(tmp) - d));
	return old;
}

size_t assay_diff__push_key(struct assay_diff__ctx *c, const char *key, size_t len)
{
	size_t old = c->path.len;

	/* deepdiff's DictRelationship: the key in single quotes, nothing escaped */
	if (!c->path.max)
		assay_buf_grow(&c->path, len + 4); /* room made once: the three go in place */
	assay_buf__add(&c->path, "['", 2);
	assay_buf__add(&c->path, key, len);
	assay_buf__add(&c->path, "']", 2);
	return old;
}

void assay_diff__pop(struct assay_diff__ctx *c, size_t old)
{
	assay_buf_setlen(&c->path, old);
}

void assay_diff__set_path(struct assay_diff__ctx *c, struct assay_diff__entry *e)
{
	e->path = assay_arena_strndup(c->a, c->path.ptr, c->path.len);
	e->path_len = (uint32_t)c->path.len;
}

bool assay_diff__skip(struct assay_diff__ctx *c)
{
	for (size_t i = 0; i < c->nexcl; i++)
		if (c->excl_len[i] == c->path.len && !memcmp(c->excl[i], c->path.ptr, c->path.len))
			return true;
	for (size_t i = 0; i < c->nexcl_rx; i++) {
		pcre2_match_data *md = c->md;

		if (c->excl_rx[i].code &&
		    pcre2_match(c->excl_rx[i].code, (PCRE2_SPTR)c->path.ptr, c->path.len, 0, 0, md,
				NULL) >= 0)
			return true;
	}
	return false;
}

void assay_diff__add(struct assay_diff__ctx *c, struct assay_diff__result *r,
		     const struct assay_diff__entry *e)
{
	if (c->stop)
		return;
	assay_diff__result_add(r, e);
	if (c->probe)
		c->stop = true;
	/* the entry's path and the entries' array are charged to the report's arena: a long
	 * run of differences (or of long paths) stops here, not only every BUDGET_EVERY steps */
	if (assay_arena_over(c->a))
		c->stop = c->over_budget = true;
}

void assay_diff__report(struct assay_diff__ctx *c, struct assay_diff__result *r, int cat,
			const assay_value *e, const assay_value *a)
{
	struct assay_diff__entry en = { 0 };

	if (c->stop || assay_diff__skip(c))
		return;
	en.cat = (uint8_t)cat;
	assay_diff__set_path(c, &en);
	en.old_v = e;
	en.new_v = a;
	assay_diff__add(c, r, &en);
}

/* ---- scalars ------------------------------------------------------------------------ */

/* A regex_paths entry for the current path: the mode, or NULL. */
static const char *regex_mode(struct assay_diff__ctx *c)
{
	for (size_t i = 0; i < c->o->nregex_paths; i++) {
		const char *p = c->o->regex_paths[i];

		if (strlen(p) == c->path.len && !memcmp(p, c->path.ptr, c->path.len))
			return c->o->regex_modes[i];
	}
	return NULL;
}

static pcre2_code *regex_get(struct assay_diff__ctx *c, const char *pat, size_t len)
{
	struct assay_diff__rx *x;
	int ecode;
	PCRE2_SIZE eoff;

	for (x = c->rx_cache; x; x = x->next)
		if (x->len == len && !memcmp(x->pattern, pat, len))
			return x->code;
	x = assay_arena_alloc(c->a, sizeof(*x));
	x->pattern = pat;
	x->len = len;
	x->code = pcre2_compile((PCRE2_SPTR)pat, len, PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF,
				&ecode, &eoff, NULL);
	x->next = c->rx_cache;
	c->rx_cache = x;
	return x->code;
}

static bool regex_match(struct assay_diff__ctx *c, const char *mode, const assay_value *e,
			const assay_value *a)
{
	pcre2_code *code = regex_get(c, e->u.s, e->len);
	uint32_t opts = PCRE2_ANCHORED | PCRE2_ENDANCHORED;

	if (!code)
		return false;
	if (!strcmp(mode, "prefix"))
		opts = PCRE2_ANCHORED;
	else if (!strcmp(mode, "search"))
		opts = 0;
	return pcre2_match(code, (PCRE2_SPTR)a->u.s, a->len, 0, opts, c->md, NULL) >= 0;
}

static void diff_strings(struct assay_diff__ctx *c, const assay_value *e, const assay_value *a,
			 struct assay_diff__result *r)
{
	const char *mode = c->o->nregex_paths ? regex_mode(c) : NULL;
	const char *s1 = e->u.s, *s2 = a->u.s;
	size_t l1 = e->len, l2 = a->len;
	struct assay_diff__entry en = { 0 };

	if (mode) {
		if (regex_match(c, mode, e, a))
			return;
	} else {
		if (c->o->ignore_string_case) {
			assay_buf lo = ASSAY_BUF_INIT;

			assay_diff__lower(&lo, s1, l1);
			s1 = assay_arena_strndup(c->a, lo.ptr, lo.len), l1 = lo.len;
			assay_buf_reset(&lo);
			assay_diff__lower(&lo, s2, l2);
			s2 = assay_arena_strndup(c->a, lo.ptr, lo.len), l2 = lo.len;
			assay_buf_release(&lo);
			en.old_lower = s1, en.old_lower_len = l1;
			en.new_lower = s2, en.new_lower_len = l2;
		}
		if (l1 == l2 && (!l1 || s1 == s2 || !memcmp(s1, s2, l1)))
			return;
	}
	if (assay_diff__skip(c))
		return;
	if (memchr(s1, '\n', l1) || memchr(s2, '\n', l2)) {
		size_t n1, n2;
		assay_diff__line *x = assay_diff__splitlines(s1, l1, &n1);
		assay_diff__line *y = assay_diff__splitlines(s2, l2, &n2);
		assay_buf d = ASSAY_BUF_INIT;

		assay_diff__unified_lines(&d, x, n1, y, n2);
		if (d.len) {
			en.str_diff = assay_arena_strndup(c->a, d.ptr, d.len);
			en.str_diff_len = (uint32_t)d.len;
		}
		assay_buf_release(&d);
		free(x);
		free(y);
	}
	en.cat = CAT_VALUES_CHANGED;
	assay_diff__set_path(c, &en);
	en.old_v = e;
	en.new_v = a;
	assay_diff__add(c, r, &en);
}

/* ---- dicts ------------------------------------------------------------------------------ */

/* A key index of an object (for objects past a few members), in the process's keyed table
 * (util/hash.h): the keys are the submission's, and may have been chosen to collide. */
struct keyidx {
	assay_htab t;
	const assay_value *obj;
};

static void keyidx_init(struct keyidx *x, const assay_value *obj)
{
	x->obj = obj;
	x->t = (assay_htab)ASSAY_HTAB_INIT;
	if (obj->len <= 8)
		return;
	assay_htab_reserve(&x->t, obj->len);
	for (uint32_t i = 0; i < obj->len; i++) {
		const assay_value *k = &obj->u.members[i].key;

		assay_htab_add(&x->t, assay_hash(k->u.s, k->len), i);
	}
}

static bool same_key(const assay_value *x, const assay_value *y)
{
	return x->len == y->len && (!x->len || !memcmp(x->u.s, y->u.s, x->len));
}

/* The member of x->obj under `key`, looked for first at index `hint`: two objects compared
 * usually hold their keys in the same order (keys are unique, value.h). */
static const assay_value *keyidx_get(struct keyidx *x, const assay_value *key, uint32_t hint)
{
	assay_htab_it it;

	if (hint < x->obj->len && same_key(&x->obj->u.members[hint].key, key))
		return &x->obj->u.members[hint].value;
	if (!x->t.slot)
		return assay_object_getn(x->obj, key->u.s, key->len);
	for (size_t i = assay_htab_first(&x->t, assay_hash(key->u.s, key->len), &it);
	     i != ASSAY_HTAB_END; i = assay_htab_next(&x->t, &it)) {
		const assay_member *m = &x->obj->u.members[i];

		if (same_key(&m->key, key))
			return &m->value;
	}
	return NULL;
}

/* ignore_private_variables (on by default; off under strict_types): keys starting with "__"
 * do not exist */
static bool private_key(const struct assay_diff__ctx *c, const assay_value *k)
{
	return !c->o->strict_types && k->len >= 2 && k->u.s[0] == '_' && k->u.s[1] == '_';
}

static void walk_dict(struct assay_diff__ctx *c, const assay_value *e, const assay_value *a,
		      struct assay_diff__result *r)
{
	struct keyidx ie, ia;
	size_t old;

	keyidx_init(&ie, e);
	keyidx_init(&ia, a);
	for (uint32_t i = 0; i < a->len && !c->o->ignore_extra_keys; i++) {
		const assay_member *m = &a->u.members[i];

		if (private_key(c, &m->key) || keyidx_get(&ie, &m->key, i))
			continue;
		if (!assay_diff__count(c))
			goto out;
		old = assay_diff__push_key(c, m->key.u.s, m->key.len);
		assay_diff__report(c, r, CAT_DICT_ADDED, NULL, &m->value);
		assay_diff__pop(c, old);
	}
	for (uint32_t i = 0; i < e->len; i++) {
		const assay_member *m = &e->u.members[i];

		if (private_key(c, &m->key) || keyidx_get(&ia, &m->key, i))
			continue;
		if (!assay_diff__count(c))
			goto out;
		old = assay_diff__push_key(c, m->key.u.s, m->key.len);
		assay_diff__report(c, r, CAT_DICT_REMOVED, &m->value, NULL);
		assay_diff__pop(c, old);
	}
	for (uint32_t i = 0; i < a->len; i++) {
		const assay_member *m = &a->u.members[i];
		const assay_value *ev = private_key(c, &m->key) ? NULL : keyidx_get(&ie, &m->key, i);

		if (!ev)
			continue;
		if (!assay_diff__count(c))
			goto out;
		old = assay_diff__push_key(c, m->key.u.s, m->key.len);
		assay_diff__walk(c, ev, &m->value, r);
		assay_diff__pop(c, old);
	}
out:
	assay_htab_release(&ie.t);
	assay_htab_release(&ia.t);
}

/* ---- lists in order ------------------------------------------------------------------- */

static bool is_scalar(const assay_value *v)
{
	return v->kind != ASSAY_V_ARRAY && v->kind != ASSAY_V_OBJECT;
}

/* Python's == between two scalars (True == 1 == 1.0); under strict_types a bool equals only a
 * bool, an integer only an integer. */
static bool scalar_eq(const struct assay_diff__ctx *c, const assay_value *x, const assay_value *y)
{
	enum group gx = group_of(c, x), gy = group_of(c, y);

	if (gx == G_BOOL && !c->o->strict_types)
		gx = G_NUM;
	if (gy == G_BOOL && !c->o->strict_types)
		gy = G_NUM;
	if (gx != gy)
		return false;
	switch (gx) {
	case G_NONE: return true;
	case G_BOOL:
	case G_NUM:
	case G_REAL: return assay_diff__num_eq(x, y);
	default: return x->len == y->len && (!x->len || !memcmp(x->u.s, y->u.s, x->len));
	}
}

/* deepdiff's _diff_by_forming_pairs_and_comparing_one_by_one over e[i1:i2] and a[j1:j2]. */
static void pairs(struct assay_diff__ctx *c, const assay_value *e, size_t i1, size_t i2,
		  const assay_value *a, size_t j1, size_t j2, struct assay_diff__result *r)
{
	for (size_t k = 0; i1 + k < i2 || j1 + k < j2; k++) {
		size_t i = i1 + k, j = j1 + k, old;

		if (!assay_diff__count(c))
			return;
		if (i < i2 && j < j2) {
			const assay_value *x = &e->u.items[i], *y = &a->u.items[j];

			if (i != j && is_scalar(x) && is_scalar(y) && scalar_eq(c, x, y)) {
				struct assay_diff__entry en = { 0 };

				old = assay_diff__push_index(c, i);
				if (!assay_diff__skip(c)) {
					en.cat = CAT_ITER_MOVED;
					assay_diff__set_path(c, &en);
					en.old_v = x;
					en.new_v = y;
					assay_diff__add(c, r, &en);
				}
				assay_diff__pop(c, old);
				continue;
			}
			old = assay_diff__push_index(c, j);
			assay_diff__walk(c, x, y, r);
		} else if (i < i2) {
			old = assay_diff__push_index(c, i);
			assay_diff__report(c, r, CAT_ITER_REMOVED, &e->u.items[i], NULL);
		} else {
			old = assay_diff__push_index(c, j);
			assay_diff__report(c, r, CAT_ITER_ADDED, NULL, &a->u.items[j]);
		}
		assay_diff__pop(c, old);
	}
}

/* Class ids by Python equality (NaN is one class: json.loads shares one NaN object). */
static uint32_t classify_scalars(struct assay_diff__ctx *c, const assay_value *e,
				 const assay_value *a, uint32_t *ids)
{
	size_t n = (size_t)e->len + a->len;
	uint32_t nclass = 0;
	assay_buf *keys = &c->scratch;
	size_t *off = assay_xmalloc((n + 1) * sizeof(*off));
	assay_htab classes = ASSAY_HTAB_INIT; /* the first item of each class */

	assay_buf_reset(keys);
	for (size_t k = 0; k < n; k++) {
		const assay_value *v = k < e->len ? &e->u.items[k] : &a->u.items[k - e->len];

		off[k] = keys->len;
		switch (group_of(c, v)) {
		case G_NONE: assay_buf_addch(keys, 'n'); break;
		case G_BOOL:
		case G_NUM:
		case G_REAL:
			if (c->o->strict_types) /* kinds apart: true, 1 and 1.0 are three items */
				assay_buf_addch(keys, v->kind == ASSAY_V_BOOL	? 'b'
						      : v->kind == ASSAY_V_REAL ? 'r'
										: 'i');
			if (!assay_diff__num_key(keys, v))
				assay_buf_adds(keys, "nan");
			break;
		case G_STR:
			assay_buf_addch(keys, 's');
			assay_buf_add(keys, v->u.s, v->len);
			break;
		default:
			assay_buf_addch(keys, 'd');
			assay_buf_add(keys, v->u.s, v->len);
			break;
		}
	}
	off[n] = keys->len;
	assay_htab_reserve(&classes, n);
	for (size_t k = 0; k < n; k++) {
		const char *p = keys->ptr + off[k];
		size_t len = off[k + 1] - off[k];
		uint64_t h = assay_hash(p, len);
		assay_htab_it it;
		size_t o;

		for (o = assay_htab_first(&classes, h, &it); o != ASSAY_HTAB_END;
		     o = assay_htab_next(&classes, &it))
			if (off[o + 1] - off[o] == len && !memcmp(keys->ptr + off[o], p, len))
				break;
		if (o != ASSAY_HTAB_END) {
			ids[k] = ids[o];
		} else {
			ids[k] = nclass++;
			assay_htab_add(&classes, h, k);
		}
	}
	assay_htab_release(&classes);
	free(off);
	return nclass;
}

static void difflib_pass(struct assay_diff__ctx *c, const assay_value *e, const assay_value *a,
			 struct assay_diff__result *r)
{
	size_t n = (size_t)e->len + a->len, nb, nops;
	uint32_t *ids = assay_xmalloc((n ? n : 1) * sizeof(*ids));
	uint32_t nclass = classify_scalars(c, e, a, ids);
	struct assay_diff__seqs seqs = { .a = ids, .la = e->len, .b = ids + e->len, .lb = a->len,
					 .nclass = nclass, .autojunk = false };
	assay_diff__block *blocks = assay_diff__matching_blocks(&seqs, &nb);
	assay_diff__opcode *ops = assay_diff__opcodes(blocks, nb, &nops);

	for (size_t k = 0; k < nops && !c->stop; k++) {
		const assay_diff__opcode *op = &ops[k];
		size_t old;

		if (op->tag == 'r') {
			pairs(c, e, op->i1, op->i2, a, op->j1, op->j2, r);
		} else if (op->tag == 'd') {
			for (size_t i = op->i1; i < op->i2 && !c->stop; i++) {
				old = assay_diff__push_index(c, i);
				assay_diff__report(c, r, CAT_ITER_REMOVED, &e->u.items[i], NULL);
				assay_diff__pop(c, old);
			}
		} else if (op->tag == 'i') {
			for (size_t j = op->j1; j < op->j2 && !c->stop; j++) {
				old = assay_diff__push_index(c, j);
				assay_diff__report(c, r, CAT_ITER_ADDED, NULL, &a->u.items[j]);
				assay_diff__pop(c, old);
			}
		}
	}
	free(ops);
	free(blocks);
	free(ids);
}

static void walk_ordered(struct assay_diff__ctx *c, const assay_value *e, const assay_value *a,
			 struct assay_diff__result *r)
{
	bool scalars = true;

	for (uint32_t i = 0; i < e->len && scalars; i++)
		scalars = is_scalar(&e->u.items[i]);
	for (uint32_t j = 0; j < a->len && scalars; j++)
		scalars = is_scalar(&a->u.items[j]);
	if (!scalars) {
		pairs(c, e, 0, e->len, a, 0, a->len, r);
		return;
	}
	if (e->len == a->len) {
		/* identical lists (the common case): difflib would say "equal" and nothing else;
		 * deepdiff still counts one comparison per item for them in neither pass */
		uint32_t i = 0;

		while (i < e->len && scalar_eq(c, &e->u.items[i], &a->u.items[i]) &&
		       (e->u.items[i].kind == ASSAY_V_BOOL) == (a->u.items[i].kind == ASSAY_V_BOOL))
			i++;
		if (i == e->len)
			return;
	}
	struct assay_diff__result p1 = { .charge = c->a }, p2 = { .charge = c->a };

	difflib_pass(c, e, a, &p1);
	if (p1.nr > 1 && !c->stop) {
		pairs(c, e, 0, e->len, a, 0, a->len, &p2);
		if (p1.nr >= p2.nr) {
			assay_diff__result_merge(r, &p2);
			goto out;
		}
	}
	assay_diff__result_merge(r, &p1);
out:
	assay_diff__result_release(&p1);
	assay_diff__result_release(&p2);
}

/* ---- the walk -------------------------------------------------------------------------- */

static void walk(struct assay_diff__ctx *c, const assay_value *e, const assay_value *a,
		 struct assay_diff__result *r);

void assay_diff__walk(struct assay_diff__ctx *c, const assay_value *e, const assay_value *a,
		      struct assay_diff__result *r)
{
	if (++c->depth > c->max_depth) {
		c->stop = c->need_stack = true;
	} else {
		walk(c, e, a, r);
	}
	c->depth--;
}

/*
 * Containers sharing their storage (an actual parsed like its expected, json_lib.h) are one
 * value: nothing below them can be reported, unless a regex_paths pattern is below (it may not
 * match its own text), and only max_diffs would count the comparisons below.
 */
static bool one_value(const struct assay_diff__ctx *c, const assay_value *e,
		      const assay_value *a)
{
	return (e->kind == ASSAY_V_ARRAY || e->kind == ASSAY_V_OBJECT) && e->kind == a->kind &&
	       e->len && e->len == a->len && e->u.items == a->u.items && c->o->max_diffs < 0 &&
	       !c->o->nregex_paths;
}

static void walk(struct assay_diff__ctx *c, const assay_value *e, const assay_value *a,
		 struct assay_diff__result *r)
{
	enum group ge, ga;

	if (!assay_diff__count(c))
		return;
	if (assay_diff__skip(c) || one_value(c, e, a))
		return;
	ge = group_of(c, e);
	ga = group_of(c, a);
	if (ge != ga) {
		assay_diff__report(c, r, CAT_TYPE_CHANGES, e, a);
		return;
	}
	switch (ge) {
	case G_NONE:
		return;
	case G_BOOL:
		if (e->u.b != a->u.b)
			assay_diff__report(c, r, CAT_VALUES_CHANGED, e, a);
		return;
	case G_NUM:
	case G_REAL:
		if (!assay_diff__num_close(c->o, e, a))
			assay_diff__report(c, r, CAT_VALUES_CHANGED, e, a);
		return;
	case G_STR:
		diff_strings(c, e, a, r);
		return;
	case G_DT:
		if (e->len != a->len || memcmp(e->u.s, a->u.s, e->len) ||
		    assay_value_datetime_kind(e) != assay_value_datetime_kind(a))
			assay_diff__report(c, r, CAT_VALUES_CHANGED, e, a);
		return;
	case G_DICT:
		walk_dict(c, e, a, r);
		return;
	case G_LIST:
		if (c->o->ignore_order)
			assay_diff__unordered(c, e, a, r);
		else
			walk_ordered(c, e, a, r);
		return;
	}
}
