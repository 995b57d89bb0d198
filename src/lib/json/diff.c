/*
 * assay_json_diff: a structural comparison of two JSON values that reports in deepdiff's
 * vocabulary and JSON shape (DeepDiff(expected, actual).to_json(), so t1 = expected, t2 =
 * actual), plus the comparison options of the json/jsonl verifiers.
 *
 * Key decisions:
 * - Paths are deepdiff's: root, root['key'], root[0]. A key holding a single quote is written in
 *   double quotes ("it's"), otherwise in single quotes; nothing is escaped, as deepdiff does.
 * - Types are Python's (int, float, str, bool, NoneType, list, dict); int, float and bignum are
 *   one type for comparison (deepdiff's ignore_numeric_type_changes), a bool is not a number.
 *   Differing types give type_changes, differing values values_changed.
 * - Numbers are equal when exactly equal, or when |a-b| <= max(abs_tol, rel_tol*max(|a|,|b|))
 *   in long double. Two integers differing at all differ by at least 1, so with the default
 *   tolerances integers (bignums too, compared digit by digit) compare exactly. NaN == NaN.
 * - Objects: keys only in actual -> dictionary_item_added (unless ignore_extra_keys), keys only
 *   in expected -> dictionary_item_removed, then common keys in actual's order, as deepdiff.
 * - Ordered arrays follow deepdiff's _diff_iterable_in_order: when every item on both sides is
 *   a scalar, difflib's SequenceMatcher alignment (reimplemented exactly: longest matching
 *   blocks, autojunk off; items equal when their canonical forms are) turns equal runs into
 *   nothing, replaced runs into item-by-item comparison, deleted runs into
 *   iterable_item_removed (expected index) and inserted runs into iterable_item_added (actual
 *   index); then, if that reports more than one change, plain index-by-index comparison is
 *   tried too and the smaller report wins (ties to index-by-index). Arrays holding containers
 *   compare index by index; the longer side's tail is added/removed.
 * - ignore_order: arrays are multisets (unlike deepdiff, duplicates count). Items are first
 *   matched by canonical form (sorted, O(n log n), so 10k equal items are cheap), then the rest
 *   pairwise under the tolerance rules (quadratic only in the unmatched items). Unmatched
 *   containers are then paired with an unmatched container of the same type (the one with the
 *   fewest differences when there are few candidates, else the first) and compared inside, at
 *   the expected index; what is left is iterable_item_removed (expected index) /
 *   iterable_item_added (actual index).
 * - Finally, as deepdiff does without report_repetition, a path both added and removed becomes
 *   one values_changed entry.
 * - exclude_paths are exact paths (a bare key "a" or index "0" means root['a'] / root[0], as
 *   deepdiff's add_root_to_paths); nothing at or below them is compared. sort_by stable-sorts a
 *   top-level array on both sides by the listed keys first (missing keys first, values in jq's
 *   order). regex_paths: where the expected value is a string, it is a PCRE2 pattern (UTF, UCP)
 *   matched against the actual string in full, prefix or search mode.
 * - Recursion is bounded by the values' depth (jansson parses at most 2048 levels); the current
 *   path is one shared buffer, so a level costs a small stack frame and no allocation.
 *
 * Refuses to: report iterable_item_moved, repetition_change or deepdiff's string "diff"
 * entry; apply regex_paths through the canonical-form fast path (an expected string identical to
 * the actual one counts as equal there).
 */
#include <math.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "json/json_int.h"
#include "util/banned.h"

#define NONE SIZE_MAX
/* difflib is skipped (index-by-index only) past this many first-level match probes */
#define DIFFLIB_MAX_WORK 20000000u
/* ignore_order: score every candidate pair of unmatched containers up to this many pairs */
#define PAIR_SCORE_MAX 4096u
/* ignore_order: pairwise comparisons of items not identical in form, at most (a 2000 x 2000
 * mismatch): a hostile output of a million items must not stall the run. */
#define UNORDERED_WORK_MAX 4000000

/*
 * Options
 */

static int opt_bool(const json_t *options, const char *name, bool *out, assay_err *err)
{
	const json_t *v = json_object_get(options, name);

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_boolean(v))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "option '%s' must be true or false", name);
	*out = json_is_true(v);
	return 0;
}

static int opt_tol(const json_t *options, const char *name, double *out, assay_err *err)
{
	const json_t *v = json_object_get(options, name);
	double d;

	if (!v || json_is_null(v))
		return 0;
	d = json_is_number(v) ? json_number_value(v) : -1;
	if (!json_is_number(v) || !(d >= 0) || isinf(d))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "option '%s' must be a number >= 0", name);
	*out = d;
	return 0;
}

/* A string or a list of strings, as a new array; NULL when absent. */
static int opt_strings(const json_t *options, const char *name, json_t **out, const char *what,
		       assay_err *err)
{
	const json_t *v = json_object_get(options, name);
	size_t i;

	if (!v || json_is_null(v))
		return 0;
	if (json_is_string(v)) {
		*out = json_array();
		json_array_append(*out, (json_t *)v);
		return 0;
	}
	if (json_is_array(v)) {
		for (i = 0; i < json_array_size(v); i++)
			if (!json_is_string(json_array_get(v, i)))
				break;
		if (i == json_array_size(v)) {
			*out = json_copy((json_t *)v);
			return 0;
		}
	}
	return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "option '%s' must be %s", name,
			     what);
}

static bool valid_mode(const json_t *m)
{
	const char *s = json_string_value(m);

	return s && (!strcmp(s, "full") || !strcmp(s, "prefix") || !strcmp(s, "search"));
}

static int opt_regex_paths(const json_t *options, json_t **out, assay_err *err)
{
	const json_t *v = json_object_get(options, "regex_paths");
	json_t *list = NULL;
	void *it;

	if (!v || json_is_null(v))
		return 0;
	if (json_is_object(v)) {
		for (it = json_object_iter((json_t *)v); it;
		     it = json_object_iter_next((json_t *)v, it))
			if (!valid_mode(json_object_iter_value(it)))
				goto bad;
		*out = json_copy((json_t *)v);
		return 0;
	}
	/* a path or a list of paths: full matches */
	if (opt_strings(options, "regex_paths", &list, "", NULL))
		goto bad;
	*out = json_object();
	for (size_t i = 0; i < json_array_size(list); i++) {
		json_t *p = json_array_get(list, i);

		json_object_setn_new(*out, json_string_value(p), json_string_length(p),
				     json_string("full"));
	}
	json_decref(list);
	return 0;
bad:
	return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
			     "option 'regex_paths' must map paths to full, prefix or search");
}

int assay_json_diff_opts_parse(assay_json_diff_opts *opts, const json_t *options,
			       assay_err *err)
{
	int rc;

	if (!options || json_is_null(options))
		return 0;
	if (!json_is_object(options))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "verify options must be a mapping");
	if ((rc = opt_bool(options, "ignore_order", &opts->ignore_order, err)) ||
	    (rc = opt_bool(options, "ignore_extra_keys", &opts->ignore_extra_keys, err)) ||
	    (rc = opt_tol(options, "abs_tol", &opts->abs_tol, err)) ||
	    (rc = opt_tol(options, "rel_tol", &opts->rel_tol, err)) ||
	    (rc = opt_strings(options, "exclude_paths", &opts->exclude_paths,
			      "a list of paths like root['a'][0]", err)) ||
	    (rc = opt_strings(options, "sort_by", &opts->sort_by, "a list of key names", err)) ||
	    (rc = opt_regex_paths(options, &opts->regex_paths, err)))
		assay_json_diff_opts_release(opts);
	return rc;
}

void assay_json_diff_opts_release(assay_json_diff_opts *opts)
{
	json_decref(opts->exclude_paths);
	json_decref(opts->sort_by);
	json_decref(opts->regex_paths);
	*opts = (assay_json_diff_opts)ASSAY_JSON_DIFF_OPTS_INIT;
}

/*
 * Types and numbers
 */

enum kind { K_NULL, K_BOOL, K_NUM, K_STR, K_ARR, K_OBJ };

static enum kind kind_of(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return K_OBJ;
	case JSON_ARRAY: return K_ARR;
	case JSON_STRING: return assay_json_is_bignum(v) ? K_NUM : K_STR;
	case JSON_INTEGER:
	case JSON_REAL: return K_NUM;
	case JSON_TRUE:
	case JSON_FALSE: return K_BOOL;
	case JSON_NULL: break;
	}
	return K_NULL;
}

/* An optional sign and digits only: "Infinity" and "NaN" (YAML's .inf, .nan) are floats. */
static bool literal_is_int(const char *lit)
{
	if (*lit == '-' || *lit == '+')
		lit++;
	return *lit && lit[strspn(lit, "0123456789")] == '\0';
}

const char *assay_json__type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "dict";
	case JSON_ARRAY: return "list";
	case JSON_STRING:
		if (assay_json_is_bignum(v))
			return literal_is_int(assay_json_bignum_literal(v)) ? "int" : "float";
		return "str";
	case JSON_INTEGER: return "int";
	case JSON_REAL: return "float";
	case JSON_TRUE:
	case JSON_FALSE: return "bool";
	case JSON_NULL: break;
	}
	return "NoneType";
}

struct num {
	bool is_int, big;
	long long i;
	long double ld;
	const char *lit;
};

static long double literal_value(const char *lit)
{
	const char *point = localeconv()->decimal_point;
	char *s = assay_xstrdup(lit), *dot = strchr(s, '.');
	long double v;

	if (dot && point && point[0] && point[0] != '.' && !point[1])
		*dot = point[0];
	v = strtold(s, NULL);
	free(s);
	return v;
}

static void num_get(const json_t *v, struct num *n)
{
	memset(n, 0, sizeof(*n));
	if (json_is_integer(v)) {
		n->is_int = true;
		n->i = json_integer_value(v);
		n->ld = (long double)n->i;
	} else if (json_is_real(v)) {
		n->ld = json_real_value(v);
	} else {
		n->big = true;
		n->lit = assay_json_bignum_literal(v);
		n->is_int = literal_is_int(n->lit);
		n->ld = literal_value(n->lit);
	}
}

/* An integer's sign and digits without leading zeros ("-0" is "0"). */
static const char *int_digits(const struct num *n, char *buf, size_t size, bool *neg,
			      size_t *len)
{
	const char *p = n->lit;

	if (!n->big) {
		snprintf(buf, size, "%lld", n->i);
		p = buf;
	}
	*neg = *p == '-';
	if (*neg || *p == '+')
		p++;
	while (p[0] == '0' && p[1])
		p++;
	*len = strlen(p);
	if (*len == 1 && *p == '0')
		*neg = false;
	return p;
}

static bool int_equal(const struct num *x, const struct num *y)
{
	char bx[32], by[32];
	bool nx, ny;
	size_t lx, ly;
	const char *dx = int_digits(x, bx, sizeof(bx), &nx, &lx);
	const char *dy = int_digits(y, by, sizeof(by), &ny, &ly);

	return nx == ny && lx == ly && !memcmp(dx, dy, lx);
}

static bool num_equal(const assay_json_diff_opts *o, const json_t *e, const json_t *a)
{
	struct num x, y;
	long double diff, tol, mag;

	num_get(e, &x);
	num_get(a, &y);
	if (x.is_int && y.is_int) {
		if (!x.big && !y.big) {
			if (x.i == y.i)
				return true;
			/* exact magnitude in 64 bits, whatever long double's precision */
			diff = (long double)(x.i > y.i ? (uint64_t)x.i - (uint64_t)y.i
						       : (uint64_t)y.i - (uint64_t)x.i);
		} else {
			if (int_equal(&x, &y))
				return true;
			/* distinct integers are at least 1 apart, whatever long double says */
			diff = fabsl(x.ld - y.ld);
			if (diff < 1)
				diff = 1;
		}
	} else {
		if (isnan(x.ld) || isnan(y.ld))
			return isnan(x.ld) && isnan(y.ld);
		if (isinf(x.ld) || isinf(y.ld))
			return x.big && y.big && !strcmp(x.lit, y.lit);
		if (x.ld == y.ld)
			return true;
		diff = fabsl(x.ld - y.ld);
	}
	mag = fabsl(x.ld) > fabsl(y.ld) ? fabsl(x.ld) : fabsl(y.ld);
	tol = (long double)o->rel_tol * mag;
	if (tol < (long double)o->abs_tol)
		tol = o->abs_tol;
	return diff <= tol;
}

/* jq's order of values, for sort_by. */
static int rank(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_NULL: return 0;
	case JSON_FALSE: return 1;
	case JSON_TRUE: return 2;
	case JSON_INTEGER:
	case JSON_REAL: return 3;
	case JSON_STRING: return assay_json_is_bignum(v) ? 3 : 4;
	case JSON_ARRAY: return 5;
	case JSON_OBJECT: return 6;
	}
	return 0;
}

static int bytes_cmp(const char *a, size_t la, const char *b, size_t lb)
{
	int c = memcmp(a, b, la < lb ? la : lb);

	if (c)
		return c;
	return la < lb ? -1 : la > lb;
}

static int num_cmp(const json_t *a, const json_t *b)
{
	struct num x, y;

	num_get(a, &x);
	num_get(b, &y);
	if (x.is_int && y.is_int) {
		char bx[32], by[32];
		bool nx, ny;
		size_t lx, ly;
		const char *dx, *dy;
		int c;

		if (!x.big && !y.big)
			return x.i < y.i ? -1 : x.i > y.i;
		dx = int_digits(&x, bx, sizeof(bx), &nx, &lx);
		dy = int_digits(&y, by, sizeof(by), &ny, &ly);
		if (nx != ny)
			return nx ? -1 : 1;
		c = lx != ly ? (lx < ly ? -1 : 1) : memcmp(dx, dy, lx);
		c = c < 0 ? -1 : c > 0;
		return nx ? -c : c;
	}
	if (isnan(x.ld) || isnan(y.ld))
		return isnan(x.ld) - isnan(y.ld);
	return x.ld < y.ld ? -1 : x.ld > y.ld;
}

static int member_cmp(const void *a, const void *b)
{
	const struct assay_json__member *x = a, *y = b;

	return bytes_cmp(x->key, x->len, y->key, y->len);
}

struct assay_json__member *assay_json__members(const json_t *obj, bool sort, size_t *n)
{
	size_t cap = json_object_size(obj), i = 0;
	struct assay_json__member *m = assay_xmalloc((cap ? cap : 1) * sizeof(*m));

	for (void *it = json_object_iter((json_t *)obj); it && i < cap;
	     it = json_object_iter_next((json_t *)obj, it), i++) {
		m[i].key = json_object_iter_key(it);
		m[i].len = json_object_iter_key_len(it);
		m[i].value = json_object_iter_value(it);
	}
	if (sort)
		qsort(m, i, sizeof(*m), member_cmp);
	*n = i;
	return m;
}

static int json_order(const json_t *a, const json_t *b)
{
	int ra = rank(a), rb = rank(b), c = 0;

	if (ra != rb)
		return ra < rb ? -1 : 1;
	switch (ra) {
	case 3:
		return num_cmp(a, b);
	case 4:
		return bytes_cmp(json_string_value(a), json_string_length(a), json_string_value(b),
				 json_string_length(b));
	case 5: {
		size_t na = json_array_size(a), nb = json_array_size(b);

		for (size_t i = 0; i < na && i < nb && !c; i++)
			c = json_order(json_array_get(a, i), json_array_get(b, i));
		return c ? c : (na < nb ? -1 : na > nb);
	}
	case 6: {
		size_t na, nb, i;
		struct assay_json__member *ma = assay_json__members(a, true, &na);
		struct assay_json__member *mb = assay_json__members(b, true, &nb);

		/* jq: the sorted key lists first, then the values in key order */
		for (i = 0; i < na && i < nb && !c; i++)
			c = bytes_cmp(ma[i].key, ma[i].len, mb[i].key, mb[i].len);
		if (!c)
			c = na < nb ? -1 : na > nb;
		for (i = 0; i < na && !c; i++)
			c = json_order(ma[i].value, mb[i].value);
		free(ma);
		free(mb);
		return c;
	}
	default:
		return 0;
	}
}

/*
 * Paths and results
 */

/* deepdiff's stringify_element with quote_str "'{}'" */
static void add_key_repr(assay_buf *b, const char *key, size_t len)
{
	bool dq = memchr(key, '\'', len) != NULL;

	assay_buf_adds(b, dq ? "[\"" : "['");
	assay_buf_add(b, key, len);
	assay_buf_adds(b, dq ? "\"]" : "']");
}

struct rx {
	struct rx *next;
	char *pattern;
	size_t len;
	pcre2_code *code; /* NULL: did not compile */
};

struct ctx {
	const assay_json_diff_opts *o;
	json_t *excl;  /* normalised exclude_paths as an object used as a set, or NULL */
	json_t *regex; /* borrowed opts->regex_paths when not empty, or NULL */
	assay_buf path;
	struct rx *rx;
	pcre2_match_data *md;
	assay_err *err;
};

static size_t push_key(struct ctx *c, const char *key, size_t len)
{
	size_t old = c->path.len;

	add_key_repr(&c->path, key, len);
	return old;
}

static size_t push_index(struct ctx *c, size_t i)
{
	size_t old = c->path.len;

	assay_buf_addf(&c->path, "[%zu]", i);
	return old;
}

static void pop(struct ctx *c, size_t old)
{
	assay_buf_setlen(&c->path, old);
}

static bool excluded(const struct ctx *c)
{
	return c->excl && json_object_getn(c->excl, c->path.ptr, c->path.len);
}

enum cat { TYPE_CHANGES, DICT_ADDED, DICT_REMOVED, VALUES_CHANGED, ITER_ADDED, ITER_REMOVED, NCAT };

/* deepdiff's TextResult order */
static const char *const cat_name[NCAT] = {
	"type_changes",    "dictionary_item_added", "dictionary_item_removed",
	"values_changed",  "iterable_item_added",   "iterable_item_removed",
};

struct result {
	json_t *cat[NCAT];
	size_t count;
};

static json_t *cat_get(struct result *r, enum cat k)
{
	if (!r->cat[k])
		r->cat[k] = k == DICT_ADDED || k == DICT_REMOVED ? json_array() : json_object();
	return r->cat[k];
}

static void result_release(struct result *r)
{
	for (int k = 0; k < NCAT; k++)
		json_decref(r->cat[k]);
	memset(r, 0, sizeof(*r));
}

static void merge(struct result *dst, struct result *src)
{
	for (int k = 0; k < NCAT; k++) {
		if (!src->cat[k])
			continue;
		if (json_is_array(src->cat[k]))
			json_array_extend(cat_get(dst, k), src->cat[k]);
		else
			json_object_update(cat_get(dst, k), src->cat[k]);
	}
	dst->count += src->count;
	result_release(src);
}

static void rep_values(struct ctx *c, struct result *r, const json_t *e, const json_t *a)
{
	json_t *o = json_object();

	json_object_set(o, "new_value", (json_t *)a);
	json_object_set(o, "old_value", (json_t *)e);
	json_object_setn_new(cat_get(r, VALUES_CHANGED), c->path.ptr, c->path.len, o);
	r->count++;
}

static void rep_type(struct ctx *c, struct result *r, const json_t *e, const json_t *a)
{
	json_t *o = json_object();

	json_object_set_new(o, "old_type", json_string(assay_json__type_name(e)));
	json_object_set_new(o, "new_type", json_string(assay_json__type_name(a)));
	json_object_set(o, "old_value", (json_t *)e);
	json_object_set(o, "new_value", (json_t *)a);
	json_object_setn_new(cat_get(r, TYPE_CHANGES), c->path.ptr, c->path.len, o);
	r->count++;
}

static void rep_key(struct ctx *c, struct result *r, enum cat k)
{
	json_array_append_new(cat_get(r, k), json_stringn(c->path.ptr, c->path.len));
	r->count++;
}

static void rep_item(struct ctx *c, struct result *r, enum cat k, const json_t *v)
{
	json_object_setn(cat_get(r, k), c->path.ptr, c->path.len, (json_t *)v);
	r->count++;
}

/*
 * Canonical forms: byte strings equal exactly when values are equal without tolerance
 * (1 and 1.0 alike; objects by sorted keys; arrays as sorted multisets under ignore_order).
 */

struct span {
	const char *p;
	size_t len;
	size_t idx;
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return bytes_cmp(x->p, x->len, y->p, y->len);
}

static int span_idx_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	int c = span_cmp(a, b);

	if (c)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void canon(assay_buf *out, const json_t *v, bool unordered);

/* The canonical forms of the items of `arr`, in order, backed by `store`. */
static struct span *item_keys(const json_t *arr, bool unordered, assay_buf *store)
{
	size_t n = json_array_size(arr);
	struct span *s = assay_xmalloc((n ? n : 1) * sizeof(*s));
	size_t *off = assay_xmalloc((n + 1) * sizeof(*off));

	for (size_t i = 0; i < n; i++) {
		off[i] = store->len;
		canon(store, json_array_get(arr, i), unordered);
	}
	off[n] = store->len;
	for (size_t i = 0; i < n; i++) {
		s[i].p = store->ptr + off[i];
		s[i].len = off[i + 1] - off[i];
		s[i].idx = i;
	}
	free(off);
	return s;
}

static void canon_number(assay_buf *out, const json_t *v)
{
	if (json_is_integer(v)) {
		assay_buf_addf(out, "i%" JSON_INTEGER_FORMAT ";", json_integer_value(v));
	} else if (json_is_real(v)) {
		double d = json_real_value(v);

		if (isfinite(d) && d == floor(d)) {
			if (fabs(d) < 9.0e18)
				assay_buf_addf(out, "i%lld;", (long long)d);
			else
				assay_buf_addf(out, "i%.0f;", d);
		} else {
			assay_buf_addf(out, "r%.17g;", d);
		}
	} else {
		struct num n;

		num_get(v, &n);
		if (n.is_int) {
			char buf[2];
			bool neg;
			size_t len;
			const char *d = int_digits(&n, buf, sizeof(buf), &neg, &len);

			assay_buf_adds(out, neg ? "i-" : "i");
			assay_buf_add(out, d, len);
			assay_buf_addch(out, ';');
		} else {
			assay_buf_addf(out, "x%s;", n.lit);
		}
	}
}

static void canon(assay_buf *out, const json_t *v, bool unordered)
{
	switch (kind_of(v)) {
	case K_NULL:
		assay_buf_addch(out, 'n');
		break;
	case K_BOOL:
		assay_buf_addch(out, json_is_true(v) ? 't' : 'f');
		break;
	case K_NUM:
		canon_number(out, v);
		break;
	case K_STR:
		assay_buf_addf(out, "s%zu:", json_string_length(v));
		assay_buf_add(out, json_string_value(v), json_string_length(v));
		break;
	case K_ARR:
		if (!unordered) {
			assay_buf_addch(out, '[');
			for (size_t i = 0; i < json_array_size(v); i++)
				canon(out, json_array_get(v, i), false);
			assay_buf_addch(out, ']');
		} else {
			assay_buf store = ASSAY_BUF_INIT;
			struct span *s = item_keys(v, true, &store);
			size_t n = json_array_size(v);

			qsort(s, n, sizeof(*s), span_cmp);
			assay_buf_addch(out, '<');
			for (size_t i = 0; i < n; i++)
				assay_buf_add(out, s[i].p, s[i].len);
			assay_buf_addch(out, '>');
			free(s);
			assay_buf_release(&store);
		}
		break;
	case K_OBJ: {
		size_t n;
		struct assay_json__member *m = assay_json__members(v, true, &n);

		assay_buf_addch(out, '{');
		for (size_t i = 0; i < n; i++) {
			assay_buf_addf(out, "k%zu:", m[i].len);
			assay_buf_add(out, m[i].key, m[i].len);
			canon(out, m[i].value, unordered);
		}
		assay_buf_addch(out, '}');
		free(m);
		break;
	}
	}
}

/*
 * regex_paths
 */

static pcre2_code *regex_get(struct ctx *c, const char *pat, size_t len)
{
	struct rx *x;
	int ecode;
	PCRE2_SIZE eoff;

	for (x = c->rx; x; x = x->next)
		if (x->len == len && !memcmp(x->pattern, pat, len))
			return x->code;
	x = assay_xcalloc(1, sizeof(*x));
	x->pattern = assay_xstrndup(pat, len);
	x->len = len;
	x->code = pcre2_compile((PCRE2_SPTR)pat, len, PCRE2_UTF | PCRE2_UCP, &ecode, &eoff, NULL);
	x->next = c->rx;
	c->rx = x;
	if (!x->code) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(ecode, msg, sizeof(msg));
		assay_err_set(c->err, ASSAY_EINVALID, NULL, 0, 0,
			      "regex_paths: the pattern at %s does not compile: %s (at offset %zu)",
			      c->path.ptr, (const char *)msg, (size_t)eoff);
	}
	return x->code;
}

static bool regex_match(struct ctx *c, const char *mode, const json_t *e, const json_t *a)
{
	pcre2_code *code = regex_get(c, json_string_value(e), json_string_length(e));
	uint32_t opts = 0;
	int rc;

	if (!code)
		return false;
	if (!strcmp(mode, "prefix"))
		opts = PCRE2_ANCHORED;
	else if (strcmp(mode, "search"))
		opts = PCRE2_ANCHORED | PCRE2_ENDANCHORED;
	if (!c->md)
		c->md = pcre2_match_data_create(1, NULL);
	rc = pcre2_match(code, (PCRE2_SPTR)json_string_value(a), json_string_length(a), 0, opts,
			 c->md, NULL);
	return rc >= 0;
}

static bool str_equal(struct ctx *c, const json_t *e, const json_t *a)
{
	if (c->regex) {
		json_t *m = json_object_getn(c->regex, c->path.ptr, c->path.len);

		if (m)
			return regex_match(c, json_is_string(m) ? json_string_value(m) : "full", e,
					   a);
	}
	return json_string_length(e) == json_string_length(a) &&
	       !memcmp(json_string_value(e), json_string_value(a), json_string_length(e));
}

/*
 * The walk: returns whether `e` and `a` differ at the current path. With `r`, every difference
 * is reported into it; without, it stops at the first.
 */

static bool walk(struct ctx *c, const json_t *e, const json_t *a, struct result *r);
static bool walk_array(struct ctx *c, const json_t *e, const json_t *a, struct result *r);

/* Does comparing e and a report anything? (exclusions make this more than "sizes differ") */
static bool scratch_differs(struct ctx *c, const json_t *e, const json_t *a)
{
	struct result s = { { NULL }, 0 };
	bool d;

	walk_array(c, e, a, &s);
	d = s.count > 0;
	result_release(&s);
	return d;
}

static bool walk_object(struct ctx *c, const json_t *e, const json_t *a, struct result *r)
{
	size_t ne, na, old;
	struct assay_json__member *me = assay_json__members(e, false, &ne);
	struct assay_json__member *ma = assay_json__members(a, false, &na);
	bool diff = false;

	if (!c->o->ignore_extra_keys) {
		for (size_t i = 0; i < na; i++) {
			if (json_object_getn(e, ma[i].key, ma[i].len))
				continue;
			old = push_key(c, ma[i].key, ma[i].len);
			if (!excluded(c)) {
				diff = true;
				if (r)
					rep_key(c, r, DICT_ADDED);
			}
			pop(c, old);
			if (diff && !r)
				goto out;
		}
	}
	for (size_t i = 0; i < ne; i++) {
		if (json_object_getn(a, me[i].key, me[i].len))
			continue;
		old = push_key(c, me[i].key, me[i].len);
		if (!excluded(c)) {
			diff = true;
			if (r)
				rep_key(c, r, DICT_REMOVED);
		}
		pop(c, old);
		if (diff && !r)
			goto out;
	}
	for (size_t i = 0; i < na; i++) {
		json_t *ev = json_object_getn(e, ma[i].key, ma[i].len);

		if (!ev)
			continue;
		old = push_key(c, ma[i].key, ma[i].len);
		if (walk(c, ev, ma[i].value, r))
			diff = true;
		pop(c, old);
		if (diff && !r)
			goto out;
	}
out:
	free(me);
	free(ma);
	return diff;
}

/* Index-by-index over e[i1, i2) and a[j1, j2), as deepdiff's _compare_in_order. */
static bool zip(struct ctx *c, const json_t *e, size_t i1, size_t i2, const json_t *a, size_t j1,
		size_t j2, struct result *r)
{
	bool diff = false;

	for (size_t k = 0; i1 + k < i2 || j1 + k < j2; k++) {
		size_t i = i1 + k, j = j1 + k, old;

		if (i < i2 && j < j2) {
			old = push_index(c, i);
			if (walk(c, json_array_get(e, i), json_array_get(a, j), r))
				diff = true;
		} else if (i < i2) {
			old = push_index(c, i);
			if (!excluded(c)) {
				diff = true;
				if (r)
					rep_item(c, r, ITER_REMOVED, json_array_get(e, i));
			}
		} else {
			old = push_index(c, j);
			if (!excluded(c)) {
				diff = true;
				if (r)
					rep_item(c, r, ITER_ADDED, json_array_get(a, j));
			}
		}
		pop(c, old);
		if (diff && !r)
			break;
	}
	return diff;
}

/* difflib.SequenceMatcher(None, a, b, autojunk=False) over class ids */
struct matcher {
	const size_t *a, *b;
	size_t *off; /* per class: start of its positions in b2j (nclass + 1) */
	size_t *b2j; /* positions in b, grouped by class, ascending */
	size_t *len1, *len2;
	uint64_t *gen1, *gen2;
	uint64_t gen;
};

struct block {
	size_t i, j, k;
};

static struct block longest_match(struct matcher *m, size_t alo, size_t ahi, size_t blo,
				  size_t bhi)
{
	struct block best = { alo, blo, 0 };
	size_t *plen = m->len1, *clen = m->len2, *tl;
	uint64_t *pgen = m->gen1, *cgen = m->gen2, *tg;

	m->gen++; /* a stamp no cell carries: the row before alo is empty */
	for (size_t i = alo; i < ahi; i++) {
		const size_t *p = m->b2j + m->off[m->a[i]], *end = m->b2j + m->off[m->a[i] + 1];
		uint64_t prev = m->gen++;
		size_t lo = 0, hi = (size_t)(end - p);

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (p[mid] < blo)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (p += lo; p < end && *p < bhi; p++) {
			size_t j = *p;
			size_t k = j > 0 && pgen[j - 1] == prev ? plen[j - 1] + 1 : 1;

			clen[j] = k;
			cgen[j] = m->gen;
			if (k > best.k) {
				best.i = i + 1 - k;
				best.j = j + 1 - k;
				best.k = k;
			}
		}
		tl = plen, plen = clen, clen = tl;
		tg = pgen, pgen = cgen, cgen = tg;
	}
	return best;
}

static int block_cmp(const void *x, const void *y)
{
	const struct block *a = x, *b = y;

	if (a->i != b->i)
		return a->i < b->i ? -1 : 1;
	if (a->j != b->j)
		return a->j < b->j ? -1 : 1;
	return a->k < b->k ? -1 : a->k > b->k;
}

/* difflib's get_matching_blocks (collapsed, ending with the (la, lb, 0) sentinel). */
static struct block *matching_blocks(struct matcher *m, size_t la, size_t lb, size_t *nr)
{
	size_t nq = 1, cap = 16, nb = 0, bcap = 16, out = 0;
	size_t (*q)[4] = assay_xmalloc(cap * sizeof(*q));
	struct block *b = assay_xmalloc(bcap * sizeof(*b));

	q[0][0] = 0, q[0][1] = la, q[0][2] = 0, q[0][3] = lb;
	while (nq) {
		size_t alo = q[nq - 1][0], ahi = q[nq - 1][1], blo = q[nq - 1][2], bhi = q[nq - 1][3];
		struct block x = longest_match(m, alo, ahi, blo, bhi);

		nq--;
		if (!x.k)
			continue;
		if (nb + 1 >= bcap)
			b = assay_xrealloc(b, (bcap *= 2) * sizeof(*b));
		b[nb++] = x;
		if (nq + 2 > cap)
			q = assay_xrealloc(q, (cap *= 2) * sizeof(*q));
		if (alo < x.i && blo < x.j) {
			q[nq][0] = alo, q[nq][1] = x.i, q[nq][2] = blo, q[nq][3] = x.j;
			nq++;
		}
		if (x.i + x.k < ahi && x.j + x.k < bhi) {
			q[nq][0] = x.i + x.k, q[nq][1] = ahi, q[nq][2] = x.j + x.k, q[nq][3] = bhi;
			nq++;
		}
	}
	free(q);
	qsort(b, nb, sizeof(*b), block_cmp);
	for (size_t k = 0; k < nb; k++) {
		if (out && b[out - 1].i + b[out - 1].k == b[k].i &&
		    b[out - 1].j + b[out - 1].k == b[k].j)
			b[out - 1].k += b[k].k;
		else
			b[out++] = b[k];
	}
	if (out + 1 > bcap)
		b = assay_xrealloc(b, (out + 1) * sizeof(*b));
	b[out].i = la, b[out].j = lb, b[out].k = 0;
	*nr = out + 1;
	return b;
}

/* deepdiff's _diff_ordered_iterable_by_difflib over the opcodes. */
static void difflib_pass(struct ctx *c, const json_t *e, const json_t *a, struct matcher *m,
			 size_t la, size_t lb, struct result *r)
{
	size_t nb, i = 0, j = 0;
	struct block *b = matching_blocks(m, la, lb, &nb);

	for (size_t k = 0; k < nb; k++) {
		size_t ai = b[k].i, bj = b[k].j, old;

		if (i < ai && j < bj) {
			zip(c, e, i, ai, a, j, bj, r);
		} else if (i < ai) {
			for (; i < ai; i++) {
				old = push_index(c, i);
				if (!excluded(c))
					rep_item(c, r, ITER_REMOVED, json_array_get(e, i));
				pop(c, old);
			}
		} else if (j < bj) {
			for (; j < bj; j++) {
				old = push_index(c, j);
				if (!excluded(c))
					rep_item(c, r, ITER_ADDED, json_array_get(a, j));
				pop(c, old);
			}
		}
		i = ai + b[k].k;
		j = bj + b[k].k;
	}
	free(b);
}

static bool all_scalars(const json_t *arr)
{
	for (size_t i = 0; i < json_array_size(arr); i++)
		if (json_is_array(json_array_get(arr, i)) || json_is_object(json_array_get(arr, i)))
			return false;
	return true;
}

/* Arrays of scalars, reported: difflib alignment or index by index, whichever says less. */
static void ordered_scalars(struct ctx *c, const json_t *e, const json_t *a, struct result *r)
{
	size_t la = json_array_size(e), lb = json_array_size(a), n = la + lb, nclass = 0;
	assay_buf se = ASSAY_BUF_INIT, sa = ASSAY_BUF_INIT;
	struct span *ke = item_keys(e, false, &se), *ka = item_keys(a, false, &sa);
	struct span *all = assay_xmalloc((n ? n : 1) * sizeof(*all));
	size_t *ids = assay_xmalloc((n ? n : 1) * sizeof(*ids));
	struct matcher m = { 0 };
	struct result r1 = { { NULL }, 0 }, r2 = { { NULL }, 0 };
	uint64_t work = 0;
	bool same = la == lb;

	for (size_t i = 0; i < la; i++)
		all[i] = ke[i];
	for (size_t j = 0; j < lb; j++) {
		all[la + j] = ka[j];
		all[la + j].idx = la + j;
	}
	qsort(all, n, sizeof(*all), span_cmp);
	for (size_t k = 0; k < n; k++) {
		if (k && span_cmp(&all[k - 1], &all[k]))
			nclass++;
		ids[all[k].idx] = nclass;
	}
	nclass++;
	for (size_t i = 0; same && i < la; i++)
		same = ids[i] == ids[la + i];
	if (same)
		goto out; /* identical: both of deepdiff's passes report nothing */

	m.a = ids;
	m.b = ids + la;
	m.off = assay_xcalloc(nclass + 1, sizeof(*m.off));
	m.b2j = assay_xmalloc((lb ? lb : 1) * sizeof(*m.b2j));
	for (size_t j = 0; j < lb; j++)
		m.off[m.b[j] + 1]++;
	for (size_t k = 0; k < nclass; k++)
		m.off[k + 1] += m.off[k];
	for (size_t i = 0; i < la; i++)
		work += m.off[m.a[i] + 1] - m.off[m.a[i]];
	if (work > DIFFLIB_MAX_WORK) {
		zip(c, e, 0, la, a, 0, lb, r);
		goto out;
	}
	{
		size_t *fill = assay_xmalloc((nclass + 1) * sizeof(*fill));

		memcpy(fill, m.off, (nclass + 1) * sizeof(*fill));
		for (size_t j = 0; j < lb; j++)
			m.b2j[fill[m.b[j]]++] = j;
		free(fill);
	}
	m.len1 = assay_xcalloc(lb + 1, sizeof(*m.len1));
	m.len2 = assay_xcalloc(lb + 1, sizeof(*m.len2));
	m.gen1 = assay_xcalloc(lb + 1, sizeof(*m.gen1));
	m.gen2 = assay_xcalloc(lb + 1, sizeof(*m.gen2));
	difflib_pass(c, e, a, &m, la, lb, &r1);
	if (r1.count > 1) {
		zip(c, e, 0, la, a, 0, lb, &r2);
		if (r1.count >= r2.count) {
			merge(r, &r2);
			goto out;
		}
	}
	merge(r, &r1);
out:
	result_release(&r1);
	result_release(&r2);
	free(m.off);
	free(m.b2j);
	free(m.len1);
	free(m.len2);
	free(m.gen1);
	free(m.gen2);
	free(all);
	free(ids);
	free(ke);
	free(ka);
	assay_buf_release(&se);
	assay_buf_release(&sa);
}

static bool walk_ordered(struct ctx *c, const json_t *e, const json_t *a, struct result *r)
{
	size_t la = json_array_size(e), lb = json_array_size(a);
	size_t before;

	if (!r) {
		if (la != lb)
			return true;
		return zip(c, e, 0, la, a, 0, lb, NULL);
	}
	before = r->count;
	if (all_scalars(e) && all_scalars(a))
		ordered_scalars(c, e, a, r);
	else
		zip(c, e, 0, la, a, 0, lb, r);
	return r->count > before;
}

static bool is_container(const json_t *v)
{
	return json_is_array(v) || json_is_object(v);
}

/* ignore_order: arrays as multisets. */
static bool walk_unordered(struct ctx *c, const json_t *e, const json_t *a, struct result *r)
{
	size_t ne = json_array_size(e), na = json_array_size(a), old;
	assay_buf se = ASSAY_BUF_INIT, sa = ASSAY_BUF_INIT;
	struct span *ke, *ka;
	size_t *me, *ma, *cur;
	bool diff = false;

	if (!r && ne != na)
		return true;
	ke = item_keys(e, true, &se);
	ka = item_keys(a, true, &sa);
	me = assay_xmalloc((ne ? ne : 1) * sizeof(*me));
	ma = assay_xmalloc((na ? na : 1) * sizeof(*ma));
	cur = assay_xmalloc((na ? na : 1) * sizeof(*cur));
	for (size_t i = 0; i < ne; i++)
		me[i] = NONE;
	for (size_t j = 0; j < na; j++) {
		ma[j] = NONE;
		cur[j] = j;
	}

	/* 1. identical items, by canonical form: each expected takes the first free actual */
	qsort(ka, na, sizeof(*ka), span_idx_cmp);
	for (size_t i = 0; i < ne; i++) {
		size_t lo = 0, hi = na, q;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (span_cmp(&ka[mid], &ke[i]) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == na || span_cmp(&ka[lo], &ke[i]))
			continue;
		q = cur[lo];
		if (q < na && !span_cmp(&ka[q], &ke[i])) {
			me[i] = ka[q].idx;
			ma[ka[q].idx] = i;
			cur[lo] = q + 1;
		}
	}

	/* 2. equal under the tolerances (and exclusions, regex paths): pairwise, so bounded by
	 * UNORDERED_WORK_MAX comparisons; past it, what is left is reported added/removed. */
	size_t work = 0;
	for (size_t i = 0; i < ne; i++) {
		const json_t *ei = json_array_get(e, i);

		if (me[i] != NONE)
			continue;
		for (size_t j = 0; j < na && work < UNORDERED_WORK_MAX; j++) {
			const json_t *aj = json_array_get(a, j);
			bool d;

			if (ma[j] != NONE || kind_of(ei) != kind_of(aj))
				continue;
			work++;
			old = push_index(c, i);
			d = walk(c, ei, aj, NULL);
			pop(c, old);
			if (!d) {
				me[i] = j;
				ma[j] = i;
				break;
			}
		}
		if (me[i] == NONE && !r) {
			old = push_index(c, i);
			diff = !excluded(c);
			pop(c, old);
			if (diff)
				goto out;
		}
	}
	if (!r) {
		for (size_t j = 0; j < na && !diff; j++) {
			if (ma[j] != NONE)
				continue;
			old = push_index(c, j);
			diff = !excluded(c);
			pop(c, old);
		}
		goto out;
	}

	/* 3. pair what is left, container with container of the same type, and look inside */
	{
		size_t ce = 0, ca = 0;
		bool score;

		for (size_t i = 0; i < ne; i++)
			ce += me[i] == NONE && is_container(json_array_get(e, i));
		for (size_t j = 0; j < na; j++)
			ca += ma[j] == NONE && is_container(json_array_get(a, j));
		score = (uint64_t)ce * ca <= PAIR_SCORE_MAX;
		for (size_t i = 0; i < ne && ca; i++) {
			const json_t *ei = json_array_get(e, i);
			size_t best = NONE, best_count = SIZE_MAX;

			if (me[i] != NONE || !is_container(ei))
				continue;
			old = push_index(c, i);
			for (size_t j = 0; j < na; j++) {
				const json_t *aj = json_array_get(a, j);
				struct result s = { { NULL }, 0 };

				if (ma[j] != NONE || json_typeof(aj) != json_typeof(ei))
					continue;
				if (!score) {
					best = j;
					break;
				}
				walk(c, ei, aj, &s);
				if (s.count < best_count) {
					best = j;
					best_count = s.count;
				}
				result_release(&s);
			}
			if (best != NONE) {
				if (walk(c, ei, json_array_get(a, best), r))
					diff = true;
				me[i] = best;
				ma[best] = i;
				ca--;
			}
			pop(c, old);
		}
	}

	/* 4. the rest was removed or added */
	for (size_t i = 0; i < ne; i++) {
		if (me[i] != NONE)
			continue;
		old = push_index(c, i);
		if (!excluded(c)) {
			rep_item(c, r, ITER_REMOVED, json_array_get(e, i));
			diff = true;
		}
		pop(c, old);
	}
	for (size_t j = 0; j < na; j++) {
		if (ma[j] != NONE)
			continue;
		old = push_index(c, j);
		if (!excluded(c)) {
			rep_item(c, r, ITER_ADDED, json_array_get(a, j));
			diff = true;
		}
		pop(c, old);
	}
out:
	free(me);
	free(ma);
	free(cur);
	free(ke);
	free(ka);
	assay_buf_release(&se);
	assay_buf_release(&sa);
	return diff;
}

static bool walk_array(struct ctx *c, const json_t *e, const json_t *a, struct result *r)
{
	/* a size difference may be all excluded: only a full comparison can tell */
	if (!r && c->excl)
		return scratch_differs(c, e, a);
	if (c->o->ignore_order)
		return walk_unordered(c, e, a, r);
	return walk_ordered(c, e, a, r);
}

static bool walk(struct ctx *c, const json_t *e, const json_t *a, struct result *r)
{
	enum kind ke = kind_of(e), ka = kind_of(a);
	bool diff = false;

	if (excluded(c))
		return false;
	if (ke != ka) {
		if (r)
			rep_type(c, r, e, a);
		return true;
	}
	switch (ke) {
	case K_NULL:
		return false;
	case K_BOOL:
		diff = json_typeof(e) != json_typeof(a);
		break;
	case K_NUM:
		diff = !num_equal(c->o, e, a);
		break;
	case K_STR:
		diff = !str_equal(c, e, a);
		break;
	case K_OBJ:
		return walk_object(c, e, a, r);
	case K_ARR:
		return walk_array(c, e, a, r);
	}
	if (diff && r)
		rep_values(c, r, e, a);
	return diff;
}

/*
 * sort_by
 */

static int sort_cmp(const json_t *x, const json_t *y, const json_t *keys)
{
	for (size_t k = 0; k < json_array_size(keys); k++) {
		const json_t *key = json_array_get(keys, k);
		const char *s = json_string_value(key);
		size_t len = json_string_length(key);
		json_t *vx = json_is_object(x) ? json_object_getn(x, s, len) : NULL;
		json_t *vy = json_is_object(y) ? json_object_getn(y, s, len) : NULL;
		int c;

		if (!vx || !vy) {
			if (vx || vy)
				return vx ? 1 : -1;
			continue;
		}
		if ((c = json_order(vx, vy)))
			return c;
	}
	return 0;
}

static void merge_sort(json_t **v, json_t **tmp, size_t n, const json_t *keys)
{
	size_t mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	merge_sort(v, tmp, mid, keys);
	merge_sort(v + mid, tmp, n - mid, keys);
	while (i < mid && j < n)
		tmp[k++] = sort_cmp(v[j], v[i], keys) < 0 ? v[j++] : v[i++];
	while (i < mid)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

static json_t *sorted_copy(const json_t *arr, const json_t *keys)
{
	size_t n = json_array_size(arr);
	json_t **v = assay_xmalloc((n ? n : 1) * sizeof(*v));
	json_t **tmp = assay_xmalloc((n ? n : 1) * sizeof(*tmp));
	json_t *out = json_array();

	for (size_t i = 0; i < n; i++)
		v[i] = json_array_get(arr, i);
	merge_sort(v, tmp, n, keys);
	for (size_t i = 0; i < n; i++)
		json_array_append(out, v[i]);
	free(v);
	free(tmp);
	return out;
}

/*
 * Entry points
 */

static void add_exclusion(json_t *set, const json_t *p)
{
	const char *s = json_string_value(p);
	size_t len = json_string_length(p), k;
	assay_buf b = ASSAY_BUF_INIT;

	if (len >= 4 && !memcmp(s, "root", 4)) {
		json_object_setn_new(set, s, len, json_true());
		return;
	}
	/* deepdiff's add_root_to_paths: a bare key or index */
	for (k = 0; k < len && s[k] >= '0' && s[k] <= '9'; k++)
		;
	if (len && k == len) {
		assay_buf_adds(&b, "root[");
		assay_buf_add(&b, s, len);
		assay_buf_addch(&b, ']');
		json_object_setn_new(set, b.ptr, b.len, json_true());
		assay_buf_reset(&b);
	}
	assay_buf_adds(&b, "root");
	add_key_repr(&b, s, len);
	json_object_setn_new(set, b.ptr, b.len, json_true());
	assay_buf_release(&b);
}

/* deepdiff (report_repetition off): a path both added and removed is a changed value. */
static void mutual_to_changes(struct result *r)
{
	json_t *added = r->cat[ITER_ADDED], *removed = r->cat[ITER_REMOVED], *both;

	if (!added || !removed)
		return;
	both = json_array();
	for (void *it = json_object_iter(removed); it; it = json_object_iter_next(removed, it)) {
		const char *k = json_object_iter_key(it);
		size_t len = json_object_iter_key_len(it);
		json_t *av = json_object_getn(added, k, len), *o;

		if (!av)
			continue;
		o = json_object();
		json_object_set(o, "new_value", av);
		json_object_set(o, "old_value", json_object_iter_value(it));
		json_object_setn_new(cat_get(r, VALUES_CHANGED), k, len, o);
		json_array_append_new(both, json_stringn(k, len));
	}
	for (size_t i = 0; i < json_array_size(both); i++) {
		json_t *k = json_array_get(both, i);

		json_object_deln(added, json_string_value(k), json_string_length(k));
		json_object_deln(removed, json_string_value(k), json_string_length(k));
	}
	json_decref(both);
}

json_t *assay_json__diff_ex(const json_t *expected, const json_t *actual,
			    const assay_json_diff_opts *opts, assay_err *err)
{
	static const assay_json_diff_opts defaults = ASSAY_JSON_DIFF_OPTS_INIT;
	struct ctx c = { 0 };
	struct result r = { { NULL }, 0 };
	json_t *es = NULL, *as = NULL, *out = json_object();
	const json_t *e = expected ? expected : json_null();
	const json_t *a = actual ? actual : json_null();

	c.o = opts ? opts : &defaults;
	c.err = err;
	c.path = (assay_buf)ASSAY_BUF_INIT;
	if (json_array_size(c.o->exclude_paths)) {
		c.excl = json_object();
		for (size_t i = 0; i < json_array_size(c.o->exclude_paths); i++)
			if (json_is_string(json_array_get(c.o->exclude_paths, i)))
				add_exclusion(c.excl, json_array_get(c.o->exclude_paths, i));
	}
	if (json_object_size(c.o->regex_paths))
		c.regex = c.o->regex_paths;
	if (json_array_size(c.o->sort_by)) {
		if (json_is_array(e))
			e = es = sorted_copy(e, c.o->sort_by);
		if (json_is_array(a))
			a = as = sorted_copy(a, c.o->sort_by);
	}
	assay_buf_adds(&c.path, "root");
	walk(&c, e, a, &r);
	mutual_to_changes(&r);
	for (int k = 0; k < NCAT; k++) {
		if (!r.cat[k] || !(json_is_array(r.cat[k]) ? json_array_size(r.cat[k])
							    : json_object_size(r.cat[k])))
			continue;
		json_object_set(out, cat_name[k], r.cat[k]);
	}
	result_release(&r);
	json_decref(es);
	json_decref(as);
	json_decref(c.excl);
	while (c.rx) {
		struct rx *next = c.rx->next;

		pcre2_code_free(c.rx->code);
		free(c.rx->pattern);
		free(c.rx);
		c.rx = next;
	}
	pcre2_match_data_free(c.md);
	assay_buf_release(&c.path);
	return out;
}

json_t *assay_json_diff(const json_t *expected, const json_t *actual,
			const assay_json_diff_opts *opts)
{
	return assay_json__diff_ex(expected, actual, opts, NULL);
}
