/*
 * assay_diff(): the structural comparison's entry point (diff.h). Sets up the context (paths
 * to exclude, the hash key, the budget), applies sort_by, runs the walk (on a large private
 * stack when the documents are deep), turns the result into deepdiff's report and scores
 * per-path weights.
 *
 * Key decisions:
 * - Deep documents: the walk recurses once per level, as deepdiff does. A walk that passes
 *   SHALLOW levels stops and starts again in a thread of its own whose stack is sized for the
 *   depth (virtual memory, touched only as deep as it goes), so 100,000 levels neither overflow
 *   nor need every algorithm rewritten with explicit stacks, and shallow documents (nearly all)
 *   pay nothing for it. The thread is joined before returning; nothing else of the caller's
 *   process changes.
 * - sort_by stable-sorts top-level arrays on both sides by the listed keys first (missing keys
 *   first, values in jq's order: null, false, true, numbers, strings, arrays, objects).
 * - Without ignore_order, a path both added and removed becomes one values_changed (deepdiff
 *   does this when report_repetition is off, which assay uses only with ignore_order).
 * - Per-path weights: the attribute is split into one part per weighted path plus the rest
 *   (weight 1); a part is correct when no difference lies at or under its path. The score is
 *   the weighted share of correct parts.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "diff/diff_int.h"
#include "util/banned.h"

#define SHALLOW 2000
#define STACK_PER_LEVEL 2048u
#define STACK_BASE (8u * 1024 * 1024)

double assay_diff__now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- sort_by ------------------------------------------------------------------------- */

static int rank(const assay_value *v)
{
	switch ((assay_kind)v->kind) {
	case ASSAY_V_NULL: return 0;
	case ASSAY_V_BOOL: return v->u.b ? 2 : 1;
	case ASSAY_V_INT:
	case ASSAY_V_BIGINT:
	case ASSAY_V_REAL: return 3;
	case ASSAY_V_STRING:
	case ASSAY_V_DATETIME: return 4;
	case ASSAY_V_ARRAY: return 5;
	case ASSAY_V_OBJECT: return 6;
	}
	return 0;
}

static int bytes_cmp(const char *a, size_t la, const char *b, size_t lb)
{
	int c = memcmp(a, b, la < lb ? la : lb);

	return c ? c : (la > lb) - (la < lb);
}

static int jq_order(const assay_value *a, const assay_value *b);

static int member_cmp(const void *x, const void *y)
{
	const assay_member *a = *(assay_member *const *)x, *b = *(assay_member *const *)y;

	return bytes_cmp(a->key.u.s, a->key.len, b->key.u.s, b->key.len);
}

static int jq_order(const assay_value *a, const assay_value *b)
{
	int ra = rank(a), rb = rank(b), c = 0;

	if (ra != rb)
		return ra < rb ? -1 : 1;
	switch (ra) {
	case 3: {
		long double x = a->kind == ASSAY_V_INT ? (long double)a->u.i
						       : (long double)assay_value_number(a);
		long double y = b->kind == ASSAY_V_INT ? (long double)b->u.i
						       : (long double)assay_value_number(b);

		if (isnan(x) || isnan(y))
			return isnan(x) - isnan(y);
		return (x > y) - (x < y);
	}
	case 4:
		return bytes_cmp(a->u.s, a->len, b->u.s, b->len);
	case 5:
		for (uint32_t i = 0; i < a->len && i < b->len && !c; i++)
			c = jq_order(&a->u.items[i], &b->u.items[i]);
		return c ? c : (a->len > b->len) - (a->len < b->len);
	case 6: {
		assay_member **ma = assay_xmalloc((a->len + 1) * sizeof(*ma));
		assay_member **mb = assay_xmalloc((b->len + 1) * sizeof(*mb));
		uint32_t i;

		for (i = 0; i < a->len; i++)
			ma[i] = &a->u.members[i];
		for (i = 0; i < b->len; i++)
			mb[i] = &b->u.members[i];
		qsort(ma, a->len, sizeof(*ma), member_cmp);
		qsort(mb, b->len, sizeof(*mb), member_cmp);
		/* jq: the sorted key lists first, then the values in key order */
		for (i = 0; i < a->len && i < b->len && !c; i++)
			c = member_cmp(&ma[i], &mb[i]);
		if (!c)
			c = (a->len > b->len) - (a->len < b->len);
		for (i = 0; i < a->len && !c; i++)
			c = jq_order(&ma[i]->value, &mb[i]->value);
		free(ma);
		free(mb);
		return c;
	}
	default:
		return 0;
	}
}

static int sort_cmp(const assay_value *x, const assay_value *y, const assay_diff_opts *o)
{
	for (size_t k = 0; k < o->nsort_by; k++) {
		const assay_value *vx = assay_object_get(x, o->sort_by[k]);
		const assay_value *vy = assay_object_get(y, o->sort_by[k]);
		int c;

		if (!vx || !vy) {
			if (vx || vy)
				return vx ? 1 : -1;
			continue;
		}
		if ((c = jq_order(vx, vy)))
			return c;
	}
	return 0;
}

static void merge_sort(assay_value *v, assay_value *tmp, size_t n, const assay_diff_opts *o)
{
	size_t mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	merge_sort(v, tmp, mid, o);
	merge_sort(v + mid, tmp, n - mid, o);
	while (i < mid && j < n)
		tmp[k++] = sort_cmp(&v[j], &v[i], o) < 0 ? v[j++] : v[i++];
	while (i < mid)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

static assay_value sorted(assay_arena *a, const assay_value *arr, const assay_diff_opts *o)
{
	assay_value out = assay_value_array_of(a, arr->u.items, arr->len);
	assay_value *tmp = assay_xmalloc((arr->len + 1) * sizeof(*tmp));

	merge_sort(out.u.items, tmp, out.len, o);
	free(tmp);
	return out;
}

/* ---- the run --------------------------------------------------------------------------- */

struct job {
	struct assay_diff__ctx *c;
	const assay_value *e, *a;
	struct assay_diff__result *r;
};

static void *run_walk(void *p)
{
	struct job *j = p;

	assay_diff__walk(j->c, j->e, j->a, j->r);
	return NULL;
}

/*
 * Walks on this thread's stack while the documents are shallow; a walk that gets deeper than
 * SHALLOW levels stops, and the comparison starts again from scratch on a thread whose stack
 * is sized for the documents' depth.
 */
static void walk_any_depth(struct job *j)
{
	struct assay_diff__ctx *c = j->c;
	pthread_attr_t attr;
	pthread_t t;
	size_t depth;

	c->max_depth = SHALLOW;
	run_walk(j);
	if (!c->need_stack)
		return;
	/* start again: nothing of the shallow attempt is kept */
	j->r->nr = 0;
	c->stop = c->need_stack = c->truncated = c->over_budget = false;
	c->diff_count = c->steps = 0;
	c->depth = 0;
	assay_buf_reset(&c->path);
	assay_buf_adds(&c->path, "root");
	depth = assay_value_depth(j->e);
	if (assay_value_depth(j->a) > depth)
		depth = assay_value_depth(j->a);
	c->max_depth = SIZE_MAX;
	if (pthread_attr_init(&attr) ||
	    pthread_attr_setstacksize(&attr, STACK_BASE + (2 * depth + 16) * STACK_PER_LEVEL) ||
	    pthread_create(&t, &attr, run_walk, j)) {
		/* no thread: refuse rather than overflow */
		c->stop = c->over_budget = true;
		pthread_attr_destroy(&attr);
		return;
	}
	pthread_join(t, NULL);
	pthread_attr_destroy(&attr);
}

/* deepdiff's add_root_to_paths: "a" means root['a'], "0" also root[0]. */
static void add_exclusions(struct assay_diff__ctx *c)
{
	const assay_diff_opts *o = c->o;

	c->excl = assay_arena_alloc(c->a, (2 * o->nexclude_paths + 1) * sizeof(char *));
	c->excl_len = assay_arena_alloc(c->a, (2 * o->nexclude_paths + 1) * sizeof(size_t));
	for (size_t i = 0; i < o->nexclude_paths; i++) {
		const char *p = o->exclude_paths[i];
		size_t n = strlen(p), d = strspn(p, "0123456789");

		if (!strncmp(p, "root", 4)) {
			c->excl[c->nexcl++] = p;
		} else {
			if (n && d == n)
				c->excl[c->nexcl++] = assay_value_stringf(c->a, "root[%s]", p).u.s;
			c->excl[c->nexcl++] = assay_value_stringf(c->a, "root['%s']", p).u.s;
		}
	}
	for (size_t i = 0; i < c->nexcl; i++)
		c->excl_len[i] = strlen(c->excl[i]);
	c->excl_rx = assay_arena_alloc(c->a, (o->nexclude_regex_paths + 1) * sizeof(*c->excl_rx));
	for (size_t i = 0; i < o->nexclude_regex_paths; i++) {
		int ecode;
		PCRE2_SIZE eoff;

		c->excl_rx[i].code = pcre2_compile((PCRE2_SPTR)o->exclude_regex_paths[i],
						   PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_UCP,
						   &ecode, &eoff, NULL);
		c->nexcl_rx++;
	}
}

static bool under(const struct assay_diff__entry *e, const char *prefix)
{
	size_t n = strlen(prefix);

	return e->path_len >= n && !memcmp(e->path, prefix, n) &&
	       (e->path_len == n || e->path[n] == '[');
}

static double weighted_score(const assay_diff_opts *o, const struct assay_diff__result *r)
{
	double total = 1, ok = 0;
	bool rest_ok = true;

	for (size_t w = 0; w < o->nweights; w++) {
		bool part_ok = true;

		for (size_t i = 0; i < r->nr && part_ok; i++)
			if (r->v[i].cat != CAT_ITER_MOVED && under(&r->v[i], o->weights[w].path))
				part_ok = false;
		total += o->weights[w].weight;
		ok += part_ok ? o->weights[w].weight : 0;
	}
	for (size_t i = 0; i < r->nr && rest_ok; i++) {
		bool weighted = false;

		for (size_t w = 0; w < o->nweights && !weighted; w++)
			weighted = under(&r->v[i], o->weights[w].path);
		if (!weighted && r->v[i].cat != CAT_ITER_MOVED)
			rest_ok = false;
	}
	ok += rest_ok ? 1 : 0;
	return ok / total;
}

int assay_diff(assay_value *out, assay_arena *a, const assay_value *expected,
	       const assay_value *actual, const assay_diff_opts *opts, double deadline,
	       assay_diff_info *info)
{
	static const assay_diff_opts defaults = ASSAY_DIFF_OPTS_INIT;
	struct assay_diff__ctx c = { 0 };
	struct assay_diff__result r = { .charge = a };
	assay_value se, sa;
	struct job j = { &c, expected, actual, &r };
	size_t shown = 0;

	c.o = opts ? opts : &defaults;
	c.a = a;
	c.path = (assay_buf)ASSAY_BUF_INIT;
	c.scratch = (assay_buf)ASSAY_BUF_INIT;
	c.hash_scratch = (assay_buf)ASSAY_BUF_INIT;
	c.deadline = deadline;
	c.md = pcre2_match_data_create(1, NULL);
	if (getrandom(c.sip_key, sizeof(c.sip_key), GRND_NONBLOCK) != sizeof(c.sip_key)) {
		uint64_t t = (uint64_t)(assay_diff__now() * 1e9) ^ (uint64_t)(uintptr_t)&c;

		memcpy(c.sip_key, &t, sizeof(t));
		memcpy(c.sip_key + 8, &t, sizeof(t));
	}
	add_exclusions(&c);
	if (c.o->nsort_by) {
		if (expected->kind == ASSAY_V_ARRAY) {
			se = sorted(a, expected, c.o);
			j.e = &se;
		}
		if (actual->kind == ASSAY_V_ARRAY) {
			sa = sorted(a, actual, c.o);
			j.a = &sa;
		}
	}
	assay_buf_adds(&c.path, "root");
	walk_any_depth(&j);
	if (!c.o->ignore_order)
		assay_diff__mutual_to_changes(&r);
	bool cut;

	*out = assay_diff__result_value(a, &r, &cut);
	if (cut)
		c.over_budget = true;
	for (size_t i = 0; i < r.nr; i++)
		shown += r.v[i].cat != CAT_ITER_MOVED;
	if (info) {
		info->count = shown;
		info->truncated = c.truncated;
		info->over_budget = c.over_budget;
		info->score = c.o->nweights ? weighted_score(c.o, &r) : (shown ? 0.0 : 1.0);
	}
	for (size_t i = 0; i < c.nexcl_rx; i++)
		pcre2_code_free(c.excl_rx[i].code);
	for (struct assay_diff__rx *x = c.rx_cache; x; x = x->next)
		pcre2_code_free(x->code);
	pcre2_match_data_free(c.md);
	assay_diff__result_release(&r);
	assay_buf_release(&c.path);
	assay_buf_release(&c.scratch);
	assay_buf_release(&c.hash_scratch);
	return c.over_budget ? ASSAY_ETOOBIG : 0;
}
