/*
 * The json_schema verifier (verification.md, Pattern 2, "Schema Validation"): the actual
 * document must be valid under the expected JSON Schema (draft-07), and every violation is
 * reported with its path and rule. Spec: issue #7 section 2 ("JSON Schema (draft-07: type,
 * properties, required, items, enum, const, pattern, minimum/maximum, exclusive bounds,
 * additionalProperties, min/max length and items, $ref inside the document) as a verifier,
 * reporting the path and rule of every violation").
 *
 * Key decisions:
 * - Judged as SlopCodeBench's jsonschema_verify judges (jsonschema.Draft7Validator, every
 *   error of iter_errors): the diff is an object keyed by each violation's JSON path as
 *   jsonschema's error.json_path writes it ("$", "$.user.age", "$.items[2]"), whose value is
 *   the rule and jsonschema's own message ("minimum: -1 is less than the minimum of 0";
 *   several at one path are joined with "; "). Violations come in jsonschema's order: the
 *   schema's keywords in the order written, depth first.
 * - Keywords: the issue's list, plus allOf, anyOf, oneOf, not, patternProperties,
 *   additionalItems, uniqueItems, multipleOf, minProperties, maxProperties, and boolean
 *   schemas. Annotations are ignored ($schema, $id, title, description, default, examples,
 *   $comment, definitions, format, readOnly, writeOnly). The draft-07 keywords not implemented
 *   (contains, dependencies, propertyNames, if/then/else) are refused, naming where they are,
 *   rather than silently passing what they would reject; other unknown keywords are ignored,
 *   as jsonschema ignores them.
 * - Draft-07 semantics where they surprise: a schema with $ref is only its $ref (siblings are
 *   ignored); "integer" accepts 1.0; booleans are never numbers; enum and const compare as
 *   jsonschema does (1 equals 1.0, true does not equal 1); pattern is a search (not anchored),
 *   in PCRE2 with UTF and UCP (Python's re on str); lengths count characters.
 * - $ref is a JSON pointer into the schema ("#", "#/definitions/x", with ~0 ~1 and %XX
 *   decoded); anything else (another document, an $id, an anchor) is refused. A $ref cycle
 *   that consumes nothing is refused; validation descends at most 1000 levels into the
 *   document (deeper is a violation "depth"), so a hostile document cannot exhaust the stack.
 * - At most 1000 violations are listed ("assay_note" gives the count of the rest).
 * - The verification budget (docs/verifiers.md): the deadline is checked every 1024 steps of
 *   validation and of uniqueItems hashing, and before every pattern match; each match runs
 *   under PCRE2 match and heap limits, and one that reaches a limit stops validation too. The
 *   attribute then fails with the budget reason (`budget` set), never with a verdict.
 *   uniqueItems is O(n log n): keyed hashes of a canonical form (numbers by the diff engine's
 *   number key), sorted, with equal() confirming neighbours whose hashes are equal.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "assay/buf.h"
#include "assay/model.h"
#include "diff/diff_int.h"
#include "verify/verify_int.h"
#include "util/banned.h"

#define MAX_DEPTH 1000
#define MAX_LISTED 1000
#define MAX_REF_HOPS 64
#define REPR_CAP 200
#define MATCH_LIMIT 1000000  /* PCRE2 match() calls per search (its default is 10 million) */
#define HEAP_LIMIT 20000     /* KiB of backtracking memory per search */

static const char *const schema_options[] = { "format", "multi_document", "lower_keys", NULL };

static const char *const ignored[] = {
	"$schema", "$id", "id", "title", "description", "default", "examples", "$comment",
	"definitions", "format", "readOnly", "writeOnly", "contentMediaType", "contentEncoding",
	NULL,
};
static const char *const refused[] = {
	"contains", "dependencies", "propertyNames", "if", "then", "else", NULL,
};

struct pattern {
	const assay_value *src;
	pcre2_code *code;
};

struct sv {
	assay_arena *a;
	const assay_value *root;
	double deadline;
	assay_value diff;
	size_t count;      /* violations found */
	size_t steps;
	int quiet;         /* > 0: count only (inside anyOf, oneOf, not) */
	int rc;            /* a refusal of the schema (ASSAY_EINVALID) or the budget */
	assay_err *err;
	assay_buf path;    /* the instance's JSON path */
	assay_buf spath;   /* the schema's location, for refusals */
	struct pattern *pats;
	size_t npats, apats;
	pcre2_match_context *mctx;
	bool have_key;
	uint8_t key[16];   /* SipHash key of uniqueItems, random per call */
	uint64_t nan_seq;  /* every NaN is its own value */
	const char *why;   /* which budget stopped validation: NULL (time) or a PCRE2 limit */
};

/* True (with the budget reason) once the call's deadline has passed; checked every `every`
 * steps (1 = now). */
static bool over_time(struct sv *s, size_t every)
{
	if (s->rc)
		return true;
	if (++s->steps % every == 0 && s->deadline > 0 && assay_now() > s->deadline)
		s->rc = ASSAY_ETOOBIG;
	return s->rc != 0;
}

static bool in_list(const char *const *list, const assay_value *k)
{
	for (; *list; list++)
		if (assay_value_is_str(k, *list))
			return true;
	return false;
}

static int refuse(struct sv *s, const char *fmt, ...) ASSAY_PRINTF(2, 3);

static int refuse(struct sv *s, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!s->rc)
		s->rc = assay_err_set(s->err, ASSAY_EINVALID, NULL, 0, 0,
				      "json_schema: %s (at #%s)", msg, s->spath.ptr);
	return s->rc;
}

/* Records a violation of `rule` at the current path. */
static void violation(struct sv *s, const char *rule, const char *fmt, ...) ASSAY_PRINTF(3, 4);

static void violation(struct sv *s, const char *rule, const char *fmt, ...)
{
	assay_buf m = ASSAY_BUF_INIT;
	va_list ap;

	s->count++;
	if (s->quiet || s->count > MAX_LISTED)
		return;
	assay_buf_addf(&m, "%s: ", rule);
	va_start(ap, fmt);
	assay_buf_vaddf(&m, fmt, ap);
	va_end(ap);
	assay_value *prev = (assay_value *)assay_object_getn(&s->diff, s->path.ptr, s->path.len);
	if (prev) {
		assay_buf joined = ASSAY_BUF_INIT;

		assay_buf_add(&joined, prev->u.s, prev->len);
		assay_buf_adds(&joined, "; ");
		assay_buf_add(&joined, m.ptr, m.len);
		*prev = assay_verify__text(s->a, joined.ptr, joined.len, 0);
		assay_buf_release(&joined);
	} else {
		assay_object_setn(s->a, &s->diff, s->path.ptr, s->path.len,
				  assay_verify__text(s->a, m.ptr, m.len, 0));
	}
	assay_buf_release(&m);
}

/* repr(v) for a message, in a buffer the caller releases. */
static const char *rep(assay_buf *b, const assay_value *v)
{
	assay_buf_reset(b);
	assay_verify__repr(b, v, REPR_CAP);
	return b->ptr;
}

static bool is_bool(const assay_value *v)
{
	return v->kind == ASSAY_V_BOOL;
}

static bool is_integer(const assay_value *v)
{
	return assay_value_is_integer(v) ||
	       (v->kind == ASSAY_V_REAL && isfinite(v->u.d) && v->u.d == floor(v->u.d));
}

static bool has_type(const assay_value *v, const assay_value *t)
{
	switch ((assay_kind)v->kind) {
	case ASSAY_V_NULL: return assay_value_is_str(t, "null");
	case ASSAY_V_BOOL: return assay_value_is_str(t, "boolean");
	case ASSAY_V_INT:
	case ASSAY_V_BIGINT:
	case ASSAY_V_REAL:
		return assay_value_is_str(t, "number") ||
		       (assay_value_is_str(t, "integer") && is_integer(v));
	case ASSAY_V_STRING: return assay_value_is_str(t, "string");
	case ASSAY_V_ARRAY: return assay_value_is_str(t, "array");
	case ASSAY_V_OBJECT: return assay_value_is_str(t, "object");
	case ASSAY_V_DATETIME: return false;
	}
	return false;
}

/* A number, or with `bools_are_numbers` a boolean as 0 or 1 (Python's True == 1). */
static bool numeric(const assay_value *v, bool bools_are_numbers)
{
	return assay_value_is_number(v) || (bools_are_numbers && v->kind == ASSAY_V_BOOL);
}

static double numeric_value(const assay_value *v)
{
	return v->kind == ASSAY_V_BOOL ? (double)v->u.b : assay_value_number(v);
}

/*
 * Equality as jsonschema tests it: equal() (const, uniqueItems) keeps booleans apart from
 * numbers at every level; enum's `instance in enums` is Python's ==, where True == 1 (its
 * top-level 0/1 case is the caller's). Numbers compare by value (1 == 1.0), containers deeply.
 */
static bool json_equal_as(const assay_value *x, const assay_value *y, bool bools_are_numbers,
			  size_t depth)
{
	if (depth > MAX_DEPTH)
		return false;
	if (numeric(x, bools_are_numbers) && numeric(y, bools_are_numbers)) {
		if (x->kind == ASSAY_V_INT && y->kind == ASSAY_V_INT)
			return x->u.i == y->u.i;
		if (x->kind == ASSAY_V_BIGINT && y->kind == ASSAY_V_BIGINT)
			return assay_value_equal(x, y);
		return numeric_value(x) == numeric_value(y);
	}
	if (x->kind != y->kind)
		return false;
	switch ((assay_kind)x->kind) {
	case ASSAY_V_ARRAY:
		if (x->len != y->len)
			return false;
		for (uint32_t i = 0; i < x->len; i++)
			if (!json_equal_as(&x->u.items[i], &y->u.items[i], bools_are_numbers,
					   depth + 1))
				return false;
		return true;
	case ASSAY_V_OBJECT:
		if (x->len != y->len)
			return false;
		for (uint32_t i = 0; i < x->len; i++) {
			const assay_member *m = &x->u.members[i];
			const assay_value *o = assay_object_getn(y, m->key.u.s, m->key.len);

			if (!o || !json_equal_as(&m->value, o, bools_are_numbers, depth + 1))
				return false;
		}
		return true;
	default:
		return assay_value_equal(x, y);
	}
}

static bool json_equal(const assay_value *x, const assay_value *y, size_t depth)
{
	return json_equal_as(x, y, false, depth);
}

/* enum: 0, 1, False and True are told apart as equal() does; anything else is Python's ==. */
static bool in_enum(const assay_value *inst, const assay_value *e)
{
	bool zero_one = numeric(inst, true) && (numeric_value(inst) == 0 ||
						numeric_value(inst) == 1);

	return json_equal_as(inst, e, !zero_one, 0);
}

static size_t chars(const assay_value *s)
{
	size_t n = 0;

	for (uint32_t i = 0; i < s->len; i++)
		n += ((unsigned char)s->u.s[i] & 0xc0) != 0x80;
	return n;
}

static pcre2_code *pattern(struct sv *s, const assay_value *p)
{
	for (size_t i = 0; i < s->npats; i++)
		if (s->pats[i].src == p)
			return s->pats[i].code;
	int ecode;
	PCRE2_SIZE eoff;
	pcre2_code *code = pcre2_compile((PCRE2_SPTR)p->u.s, p->len,
					 PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF, &ecode,
					 &eoff, NULL);
	if (!code) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(ecode, msg, sizeof(msg));
		refuse(s, "the pattern '%.*s' does not compile: %s", (int)p->len, p->u.s,
		       (const char *)msg);
		return NULL;
	}
	if (s->npats == s->apats) {
		s->apats = s->apats ? s->apats * 2 : 8;
		s->pats = assay_xrealloc(s->pats, s->apats * sizeof(*s->pats));
	}
	s->pats[s->npats++] = (struct pattern){ p, code };
	return code;
}

/*
 * pattern is a search. Each match is bounded by PCRE2's match and heap limits (MATCH_LIMIT,
 * HEAP_LIMIT: about a tenth of a second at worst) and the deadline is checked before each, so
 * a catastrophic pattern against many strings cannot hold the harness: a match that hits a
 * limit, or a search past the deadline, stops validation with the budget reason.
 */
static bool search(struct sv *s, const assay_value *pat, const assay_value *str)
{
	pcre2_code *code;
	pcre2_match_data *md;
	int r;

	if (over_time(s, 1))
		return true;
	if (!(code = pattern(s, pat)))
		return true;
	if (!s->mctx) {
		s->mctx = pcre2_match_context_create(NULL);
		if (!s->mctx) {
			s->rc = ASSAY_ETOOBIG; /* no memory: the budget */
			return true;
		}
		pcre2_set_match_limit(s->mctx, MATCH_LIMIT);
		pcre2_set_heap_limit(s->mctx, HEAP_LIMIT);
	}
	md = pcre2_match_data_create_from_pattern(code, NULL);
	r = pcre2_match(code, (PCRE2_SPTR)(str->len ? str->u.s : ""), str->len, 0, 0, md,
			s->mctx);
	pcre2_match_data_free(md);
	if (r < 0 && r != PCRE2_ERROR_NOMATCH) {
		/* the match limit, the heap limit: the budget */
		s->why = r == PCRE2_ERROR_MATCHLIMIT  ? "the pattern match limit"
			 : r == PCRE2_ERROR_HEAPLIMIT ? "the pattern memory limit"
						      : "a pattern match error";
		s->rc = ASSAY_ETOOBIG;
		return true;
	}
	return r >= 0;
}

/* Resolves "#..." against the root schema; NULL (with a refusal) if it cannot. */
static const assay_value *resolve(struct sv *s, const assay_value *ref)
{
	const assay_value *v = s->root;
	size_t i = 1;

	if (ref->kind != ASSAY_V_STRING || !ref->len || ref->u.s[0] != '#' ||
	    (ref->len > 1 && ref->u.s[1] != '/')) {
		refuse(s, "$ref '%.*s' is not a pointer into this schema (\"#/definitions/x\")",
		       (int)ref->len, ref->kind == ASSAY_V_STRING ? ref->u.s : "");
		return NULL;
	}
	while (v && i < ref->len) {
		assay_buf tok = ASSAY_BUF_INIT;

		for (i++; i < ref->len && ref->u.s[i] != '/'; i++) {
			char c = ref->u.s[i];

			if (c == '%' && i + 2 < ref->len) {
				char hex[3] = { ref->u.s[i + 1], ref->u.s[i + 2], 0 };
				char *end;
				long b = strtol(hex, &end, 16);

				if (!*end) {
					assay_buf_addch(&tok, (char)b);
					i += 2;
					continue;
				}
			}
			if (c == '~' && i + 1 < ref->len && (ref->u.s[i + 1] == '0' ||
							     ref->u.s[i + 1] == '1')) {
				assay_buf_addch(&tok, ref->u.s[i + 1] == '0' ? '~' : '/');
				i++;
				continue;
			}
			assay_buf_addch(&tok, c);
		}
		if (v->kind == ASSAY_V_OBJECT) {
			v = assay_object_getn(v, tok.ptr, tok.len);
		} else if (v->kind == ASSAY_V_ARRAY) {
			char *end;
			unsigned long idx = strtoul(tok.ptr, &end, 10);
			v = tok.len && !*end ? assay_array_get(v, idx) : NULL;
		} else {
			v = NULL;
		}
		assay_buf_release(&tok);
	}
	if (!v)
		refuse(s, "$ref '%.*s' points at nothing in the schema", (int)ref->len, ref->u.s);
	return v;
}

static void validate(struct sv *s, const assay_value *schema, const assay_value *inst,
		     size_t depth, int hops);

/* Validates `inst` under `schema`, which sits at `spart` + `skey` below the current schema
 * location, with the instance path extended by `ipart` (".key", or "[i]" when `index`). */
static void descend(struct sv *s, const assay_value *schema, const assay_value *inst,
		    size_t depth, const char *ipart, size_t ilen, bool index, const char *spart,
		    const char *skey, size_t sklen)
{
	size_t pl = s->path.len, sl = s->spath.len;

	if (index)
		assay_buf_addf(&s->path, "[%.*s]", (int)ilen, ipart);
	else if (ipart) {
		assay_buf_addch(&s->path, '.');
		assay_buf_add(&s->path, ipart, ilen);
	}
	assay_buf_adds(&s->spath, spart);
	assay_buf_add(&s->spath, skey, sklen);
	validate(s, schema, inst, ipart ? depth + 1 : depth, 0);
	assay_buf_setlen(&s->path, pl);
	assay_buf_setlen(&s->spath, sl);
}

/* Errors `inst` would have under `schema` (at `spart` + item `i`), counted, not listed. */
static size_t quiet_count(struct sv *s, const assay_value *schema, const assay_value *inst,
			  size_t depth, const char *spart, uint32_t i)
{
	size_t before = s->count;
	char idx[24];
	int n = snprintf(idx, sizeof(idx), "%u", i);

	s->quiet++;
	descend(s, schema, inst, depth, NULL, 0, false, spart, idx, (size_t)n);
	s->quiet--;
	n = (int)(s->count - before);
	s->count = before;
	return (size_t)n;
}

static double num(const assay_value *v)
{
	return assay_value_number(v);
}

static void check_number(struct sv *s, const assay_value *k, const assay_value *v,
			 const assay_value *inst, assay_buf *b, assay_buf *c)
{
	double x = num(inst), lim;

	if (!assay_value_is_number(v)) {
		refuse(s, "%.*s must be a number", (int)k->len, k->u.s);
		return;
	}
	lim = num(v);
	if (assay_value_is_str(k, "minimum") && x < lim)
		violation(s, "minimum", "%s is less than the minimum of %s", rep(b, inst), rep(c, v));
	else if (assay_value_is_str(k, "maximum") && x > lim)
		violation(s, "maximum", "%s is greater than the maximum of %s", rep(b, inst),
			  rep(c, v));
	else if (assay_value_is_str(k, "exclusiveMinimum") && x <= lim)
		violation(s, "exclusiveMinimum", "%s is less than or equal to the minimum of %s",
			  rep(b, inst), rep(c, v));
	else if (assay_value_is_str(k, "exclusiveMaximum") && x >= lim)
		violation(s, "exclusiveMaximum",
			  "%s is greater than or equal to the maximum of %s", rep(b, inst),
			  rep(c, v));
	else if (assay_value_is_str(k, "multipleOf")) {
		bool failed;

		if (!(lim > 0))
			refuse(s, "multipleOf must be a number > 0");
		if (inst->kind == ASSAY_V_INT && v->kind == ASSAY_V_INT)
			failed = inst->u.i % v->u.i != 0;
		else {
			double q = x / lim;
			failed = !isfinite(q) || q != trunc(q);
		}
		if (failed)
			violation(s, "multipleOf", "%s is not a multiple of %s", rep(b, inst),
				  rep(c, v));
	}
}

/* A non-negative integer keyword value, or -1 (with a refusal). */
static long long count_of(struct sv *s, const assay_value *k, const assay_value *v)
{
	if (!is_integer(v) || num(v) < 0) {
		refuse(s, "%.*s must be a non-negative integer", (int)k->len, k->u.s);
		return -1;
	}
	return (long long)num(v);
}

/* Python's sorted() of what extras_msg() lists: names (or items of one kind) in order; a list
 * mixing kinds, which Python could not sort, stays as it is. */
static int cmp_value(const void *x, const void *y)
{
	const assay_value *a = x, *b = y;

	if (assay_value_is_number(a) && assay_value_is_number(b)) {
		double p = assay_value_number(a), q = assay_value_number(b);
		return (p > q) - (p < q);
	}
	size_t n = a->len < b->len ? a->len : b->len;
	int c = n ? memcmp(a->u.s, b->u.s, n) : 0;
	return c ? c : (a->len > b->len) - (a->len < b->len);
}

static void sort_names(assay_value *list)
{
	bool numbers = true, strings = true;

	for (uint32_t i = 0; i < list->len; i++) {
		numbers = numbers && assay_value_is_number(&list->u.items[i]);
		strings = strings && list->u.items[i].kind == ASSAY_V_STRING;
	}
	if (list->len > 1 && (numbers || strings))
		qsort(list->u.items, list->len, sizeof(*list->u.items), cmp_value);
}

/* jsonschema's "Additional properties are not allowed ('a', 'b' were unexpected)". */
static void unexpected(struct sv *s, const char *rule, const char *what, assay_value *list)
{
	assay_buf names = ASSAY_BUF_INIT;

	sort_names(list);
	for (uint32_t i = 0; i < list->len; i++) {
		if (i)
			assay_buf_adds(&names, ", ");
		assay_verify__repr(&names, &list->u.items[i], REPR_CAP);
	}
	violation(s, rule, "Additional %s are not allowed (%s %s unexpected)", what, names.ptr,
		  list->len == 1 ? "was" : "were");
	assay_buf_release(&names);
}

/* With patternProperties: "'a', 'b' do not match any of the regexes: 'x', 'y'". */
static void unmatched(struct sv *s, assay_value *list, const assay_value *pats)
{
	assay_buf m = ASSAY_BUF_INIT;
	assay_value keys = assay_value_array();

	sort_names(list);
	for (uint32_t i = 0; i < list->len; i++) {
		if (i)
			assay_buf_adds(&m, ", ");
		assay_verify__repr(&m, &list->u.items[i], REPR_CAP);
	}
	assay_buf_addf(&m, " %s not match any of the regexes: ", list->len == 1 ? "does" : "do");
	for (uint32_t i = 0; i < pats->len; i++)
		assay_array_push(s->a, &keys, pats->u.members[i].key);
	sort_names(&keys);
	for (uint32_t i = 0; i < keys.len; i++) {
		if (i)
			assay_buf_adds(&m, ", ");
		assay_verify__repr(&m, &keys.u.items[i], REPR_CAP);
	}
	violation(s, "additionalProperties", "%s", m.ptr);
	assay_buf_release(&m);
}

static void object_keywords(struct sv *s, const assay_value *schema, const assay_value *inst,
			    size_t depth, const assay_value *k, const assay_value *v,
			    assay_buf *b)
{
	if (assay_value_is_str(k, "required")) {
		if (v->kind != ASSAY_V_ARRAY) {
			refuse(s, "required must be a list of names");
			return;
		}
		for (uint32_t i = 0; i < v->len; i++)
			if (v->u.items[i].kind == ASSAY_V_STRING &&
			    !assay_object_getn(inst, v->u.items[i].u.s, v->u.items[i].len))
				violation(s, "required", "%s is a required property",
					  rep(b, &v->u.items[i]));
	} else if (assay_value_is_str(k, "properties")) {
		if (v->kind != ASSAY_V_OBJECT) {
			refuse(s, "properties must be a mapping");
			return;
		}
		for (uint32_t i = 0; i < v->len; i++) {
			const assay_member *m = &v->u.members[i];
			const assay_value *child = assay_object_getn(inst, m->key.u.s, m->key.len);

			if (child)
				descend(s, &m->value, child, depth, m->key.u.s, m->key.len, false,
					"/properties/", m->key.u.s, m->key.len);
		}
	} else if (assay_value_is_str(k, "patternProperties")) {
		if (v->kind != ASSAY_V_OBJECT) {
			refuse(s, "patternProperties must be a mapping");
			return;
		}
		for (uint32_t i = 0; i < v->len; i++)
			for (uint32_t j = 0; j < inst->len && !s->rc; j++) {
				const assay_member *m = &inst->u.members[j];

				if (search(s, &v->u.members[i].key, &m->key))
					descend(s, &v->u.members[i].value, &m->value, depth,
						m->key.u.s, m->key.len, false,
						"/patternProperties/", v->u.members[i].key.u.s,
						v->u.members[i].key.len);
			}
	} else if (assay_value_is_str(k, "additionalProperties")) {
		const assay_value *props = assay_object_get(schema, "properties");
		const assay_value *pats = assay_object_get(schema, "patternProperties");
		assay_value extras = assay_value_array();

		for (uint32_t j = 0; j < inst->len; j++) {
			const assay_value *key = &inst->u.members[j].key;
			bool known = props && assay_object_getn(props, key->u.s, key->len);

			for (uint32_t i = 0; !known && pats && pats->kind == ASSAY_V_OBJECT &&
					     i < pats->len; i++)
				known = search(s, &pats->u.members[i].key, key);
			if (known)
				continue;
			if (v->kind == ASSAY_V_BOOL && !v->u.b)
				assay_array_push(s->a, &extras, *key);
			else
				descend(s, v, &inst->u.members[j].value, depth, key->u.s,
					key->len, false, "/additionalProperties", "", 0);
		}
		if (extras.len && pats && pats->kind == ASSAY_V_OBJECT && pats->len)
			unmatched(s, &extras, pats);
		else if (extras.len)
			unexpected(s, "additionalProperties", "properties", &extras);
	} else if (assay_value_is_str(k, "minProperties") ||
		   assay_value_is_str(k, "maxProperties")) {
		long long n = count_of(s, k, v);
		bool min = k->u.s[1] == 'i';

		if (n >= 0 && (min ? inst->len < n : inst->len > n))
			violation(s, min ? "minProperties" : "maxProperties",
				  min ? "%s does not have enough properties"
				      : "%s has too many properties",
				  rep(b, inst));
	}
}

/*
 * uniqueItems in O(n log n): every item gets a keyed hash of a canonical form in which values
 * equal() calls equal hash alike (numbers by value through the diff engine's number key, so
 * 1 and 1.0 are one value; booleans apart from numbers; objects whatever their key order;
 * every NaN distinct), the hashes are sorted, and only neighbours with equal hashes are
 * compared with equal(). The key is random per call, so a document cannot aim at collisions.
 */
static uint64_t canon_hash(struct sv *s, const assay_value *v, size_t depth, assay_buf *tmp)
{
	uint64_t h;

	if (over_time(s, 1024))
		return 0;
	if (depth > MAX_DEPTH) /* equal() calls nothing this deep equal */
		return assay_diff__siphash(s->key, &(uint64_t[2]){ 0xdeeb, ++s->nan_seq }, 16);
	switch ((assay_kind)v->kind) {
	case ASSAY_V_NULL:
		return assay_diff__siphash(s->key, "n", 1);
	case ASSAY_V_BOOL:
		return assay_diff__siphash(s->key, v->u.b ? "t" : "f", 1);
	case ASSAY_V_INT:
	case ASSAY_V_BIGINT:
	case ASSAY_V_REAL:
		assay_buf_reset(tmp);
		assay_buf_addch(tmp, '#');
		if (!assay_diff__num_key(tmp, v))
			return assay_diff__siphash(s->key, &(uint64_t[2]){ 0x4e614e, ++s->nan_seq },
						   16);
		return assay_diff__siphash(s->key, tmp->ptr, tmp->len);
	case ASSAY_V_STRING:
	case ASSAY_V_DATETIME: {
		assay_buf_reset(tmp);
		assay_buf_addch(tmp, v->kind == ASSAY_V_STRING ? '"' : '@');
		assay_buf_add(tmp, v->u.s, v->len);
		return assay_diff__siphash(s->key, tmp->ptr, tmp->len);
	}
	case ASSAY_V_ARRAY:
	case ASSAY_V_OBJECT:
		break;
	}
	bool obj = v->kind == ASSAY_V_OBJECT;
	uint64_t *parts = assay_xmalloc(((size_t)v->len + 3) * sizeof(uint64_t));

	parts[0] = obj ? 0x7b : 0x5b;
	if (obj)
		parts[1] = 0;
	for (uint32_t i = 0; i < v->len && !s->rc; i++) {
		if (obj) {
			const assay_member *m = &v->u.members[i];
			uint64_t kv[2];

			assay_buf_reset(tmp);
			assay_buf_addch(tmp, 'k');
			assay_buf_add(tmp, m->key.u.s, m->key.len);
			kv[0] = assay_diff__siphash(s->key, tmp->ptr, tmp->len);
			kv[1] = canon_hash(s, &m->value, depth + 1, tmp);
			/* unordered: the members' hashes are summed (keys are distinct) */
			parts[1] += assay_diff__siphash(s->key, kv, sizeof(kv));
		} else {
			parts[i + 1] = canon_hash(s, &v->u.items[i], depth + 1, tmp);
		}
	}
	if (obj) {
		parts[2] = v->len;
		h = assay_diff__siphash(s->key, parts, 3 * sizeof(uint64_t));
	} else {
		h = assay_diff__siphash(s->key, parts, ((size_t)v->len + 1) * sizeof(uint64_t));
	}
	free(parts);
	return h;
}

struct item_hash {
	uint64_t h;
	uint32_t i;
};

static int cmp_item_hash(const void *x, const void *y)
{
	const struct item_hash *a = x, *b = y;

	if (a->h != b->h)
		return a->h < b->h ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

/* Whether two items of the array are equal() (false once past the budget). */
static bool has_duplicate(struct sv *s, const assay_value *arr)
{
	struct item_hash *hs;
	assay_buf tmp = ASSAY_BUF_INIT;
	bool dup = false;

	if (arr->len < 2)
		return false;
	if (!s->have_key) {
		if (getrandom(s->key, sizeof(s->key), GRND_NONBLOCK) != sizeof(s->key)) {
			struct timespec t;

			clock_gettime(CLOCK_MONOTONIC, &t);
			memcpy(s->key, &t, sizeof(t) < sizeof(s->key) ? sizeof(t) : sizeof(s->key));
		}
		s->have_key = true;
	}
	hs = assay_xmalloc((size_t)arr->len * sizeof(*hs));
	for (uint32_t i = 0; i < arr->len && !s->rc; i++)
		hs[i] = (struct item_hash){ canon_hash(s, &arr->u.items[i], 0, &tmp), i };
	if (!s->rc) {
		qsort(hs, arr->len, sizeof(*hs), cmp_item_hash);
		for (uint32_t i = 1; i < arr->len && !dup && !over_time(s, 1024); i++)
			dup = hs[i].h == hs[i - 1].h &&
			      json_equal(&arr->u.items[hs[i].i], &arr->u.items[hs[i - 1].i], 0);
	}
	free(hs);
	assay_buf_release(&tmp);
	return dup && !s->rc;
}

static void array_keywords(struct sv *s, const assay_value *schema, const assay_value *inst,
			   size_t depth, const assay_value *k, const assay_value *v,
			   assay_buf *b)
{
	char idx[24];

	if (assay_value_is_str(k, "items")) {
		for (uint32_t i = 0; i < inst->len && !s->rc; i++) {
			const assay_value *sub = v->kind == ASSAY_V_ARRAY ? assay_array_get(v, i) : v;
			int n = snprintf(idx, sizeof(idx), "%u", i);

			if (sub)
				descend(s, sub, &inst->u.items[i], depth, idx, (size_t)n, true,
					v->kind == ASSAY_V_ARRAY ? "/items/" : "/items",
					v->kind == ASSAY_V_ARRAY ? idx : "",
					v->kind == ASSAY_V_ARRAY ? (size_t)n : 0);
		}
	} else if (assay_value_is_str(k, "additionalItems")) {
		const assay_value *items = assay_object_get(schema, "items");
		uint32_t from = items && items->kind == ASSAY_V_ARRAY ? items->len : inst->len;
		assay_value extras = assay_value_array();

		if (!items || items->kind != ASSAY_V_ARRAY)
			return; /* only tuple items leave additional items */
		for (uint32_t i = from; i < inst->len; i++) {
			int n = snprintf(idx, sizeof(idx), "%u", i);

			if (v->kind == ASSAY_V_BOOL && !v->u.b)
				assay_array_push(s->a, &extras, inst->u.items[i]);
			else
				descend(s, v, &inst->u.items[i], depth, idx, (size_t)n, true,
					"/additionalItems", "", 0);
		}
		if (extras.len)
			unexpected(s, "additionalItems", "items", &extras);
	} else if (assay_value_is_str(k, "minItems") || assay_value_is_str(k, "maxItems")) {
		long long n = count_of(s, k, v);
		bool min = k->u.s[1] == 'i';

		if (n >= 0 && (min ? inst->len < n : inst->len > n))
			violation(s, min ? "minItems" : "maxItems",
				  min ? "%s is too short" : "%s is too long", rep(b, inst));
	} else if (assay_value_is_str(k, "uniqueItems")) {
		if (v->kind == ASSAY_V_BOOL && v->u.b && has_duplicate(s, inst))
			violation(s, "uniqueItems", "%s has non-unique elements", rep(b, inst));
	}
}

static void string_keywords(struct sv *s, const assay_value *inst, const assay_value *k,
			    const assay_value *v, assay_buf *b, assay_buf *c)
{
	if (assay_value_is_str(k, "pattern")) {
		if (v->kind != ASSAY_V_STRING) {
			refuse(s, "pattern must be a string");
			return;
		}
		if (!search(s, v, inst))
			violation(s, "pattern", "%s does not match %s", rep(b, inst), rep(c, v));
	} else if (assay_value_is_str(k, "minLength") || assay_value_is_str(k, "maxLength")) {
		long long n = count_of(s, k, v);
		bool min = k->u.s[1] == 'i';
		size_t len = chars(inst);

		if (n >= 0 && (min ? len < (size_t)n : len > (size_t)n))
			violation(s, min ? "minLength" : "maxLength",
				  min ? "%s is too short" : "%s is too long", rep(b, inst));
	}
}

static void combinators(struct sv *s, const assay_value *inst, size_t depth,
			const assay_value *k, const assay_value *v, assay_buf *b, assay_buf *c)
{
	bool list = v->kind == ASSAY_V_ARRAY && v->len;

	if (assay_value_is_str(k, "not")) {
		size_t before = s->count, sl = s->spath.len;

		s->quiet++;
		assay_buf_adds(&s->spath, "/not");
		validate(s, v, inst, depth, 0);
		assay_buf_setlen(&s->spath, sl);
		s->quiet--;
		bool valid = s->count == before;
		s->count = before;
		if (valid)
			violation(s, "not", "%s should not be valid under %s", rep(b, inst),
				  rep(c, v));
		return;
	}
	if (!list) {
		refuse(s, "%.*s must be a non-empty list of schemas", (int)k->len, k->u.s);
		return;
	}
	const char *at = k->u.s[1] == 'l' ? "/allOf/" : k->u.s[0] == 'a' ? "/anyOf/" : "/oneOf/";
	if (assay_value_is_str(k, "allOf")) {
		for (uint32_t i = 0; i < v->len; i++) {
			char idx[24];
			int n = snprintf(idx, sizeof(idx), "%u", i);

			descend(s, &v->u.items[i], inst, depth, NULL, 0, false, at, idx, (size_t)n);
		}
		return;
	}
	long first = -1;
	assay_value more = assay_value_array();
	for (uint32_t i = 0; i < v->len && !s->rc; i++) {
		if (quiet_count(s, &v->u.items[i], inst, depth, at, i))
			continue;
		if (first < 0) {
			first = i;
			if (k->u.s[0] == 'a')
				break; /* anyOf: one is enough */
		} else {
			assay_array_push(s->a, &more, v->u.items[i]);
		}
	}
	if (first < 0) {
		violation(s, k->u.s[0] == 'a' ? "anyOf" : "oneOf",
			  "%s is not valid under any of the given schemas", rep(b, inst));
	} else if (more.len) {
		/* jsonschema lists the later valid ones, then the first */
		assay_array_push(s->a, &more, v->u.items[first]);
		assay_buf_reset(c);
		for (uint32_t i = 0; i < more.len; i++) {
			if (i)
				assay_buf_adds(c, ", ");
			assay_verify__repr(c, &more.u.items[i], REPR_CAP);
		}
		violation(s, "oneOf", "%s is valid under each of %s", rep(b, inst), c->ptr);
	}
}

/*
 * Refuses, wherever they are, the draft-07 keywords assay does not implement, so that a schema
 * is refused whatever the document (validation visits only the parts the document reaches).
 */
static void check_schema(struct sv *s, const assay_value *schema, size_t depth)
{
	static const char *const maps[] = { "properties", "patternProperties", "definitions",
					    NULL };
	static const char *const lists[] = { "allOf", "anyOf", "oneOf", "items", NULL };
	static const char *const single[] = { "additionalProperties", "additionalItems", "not",
					      "items", NULL };
	size_t sl = s->spath.len;

	if (s->rc || schema->kind != ASSAY_V_OBJECT || depth > MAX_DEPTH)
		return;
	for (uint32_t i = 0; i < schema->len && !s->rc; i++) {
		const assay_value *k = &schema->u.members[i].key;
		const assay_value *v = &schema->u.members[i].value;

		if (in_list(refused, k)) {
			refuse(s, "the draft-07 keyword '%.*s' is not supported by assay",
			       (int)k->len, k->u.s);
			break;
		}
		for (uint32_t j = 0; in_list(maps, k) && v->kind == ASSAY_V_OBJECT && j < v->len;
		     j++) {
			assay_buf_addf(&s->spath, "/%.*s/%.*s", (int)k->len, k->u.s,
				       (int)v->u.members[j].key.len, v->u.members[j].key.u.s);
			check_schema(s, &v->u.members[j].value, depth + 1);
			assay_buf_setlen(&s->spath, sl);
		}
		for (uint32_t j = 0; in_list(lists, k) && v->kind == ASSAY_V_ARRAY && j < v->len;
		     j++) {
			assay_buf_addf(&s->spath, "/%.*s/%u", (int)k->len, k->u.s, j);
			check_schema(s, &v->u.items[j], depth + 1);
			assay_buf_setlen(&s->spath, sl);
		}
		if (in_list(single, k) && v->kind == ASSAY_V_OBJECT) {
			assay_buf_addf(&s->spath, "/%.*s", (int)k->len, k->u.s);
			check_schema(s, v, depth + 1);
			assay_buf_setlen(&s->spath, sl);
		}
	}
}

static void validate(struct sv *s, const assay_value *schema, const assay_value *inst,
		     size_t depth, int hops)
{
	assay_buf b = ASSAY_BUF_INIT, c = ASSAY_BUF_INIT;

	if (over_time(s, 1024))
		return;
	if (depth > MAX_DEPTH) {
		violation(s, "depth", "the document is nested deeper than %d levels", MAX_DEPTH);
		return;
	}
	if (schema->kind == ASSAY_V_BOOL) {
		if (!schema->u.b)
			violation(s, "false", "False schema does not allow %s", rep(&b, inst));
		assay_buf_release(&b);
		return;
	}
	if (schema->kind != ASSAY_V_OBJECT) {
		refuse(s, "a schema must be a mapping or a boolean");
		return;
	}
	const assay_value *ref = assay_object_get(schema, "$ref");
	if (ref) {
		const assay_value *target;

		if (hops >= MAX_REF_HOPS) {
			refuse(s, "$ref cycle: the schema refers to itself without end");
			return;
		}
		if ((target = resolve(s, ref)))
			validate(s, target, inst, depth, hops + 1);
		return;
	}
	for (uint32_t i = 0; i < schema->len && !s->rc; i++) {
		const assay_value *k = &schema->u.members[i].key;
		const assay_value *v = &schema->u.members[i].value;

		if (in_list(ignored, k))
			continue;
		if (in_list(refused, k)) {
			refuse(s, "the draft-07 keyword '%.*s' is not supported by assay",
			       (int)k->len, k->u.s);
			break;
		}
		if (assay_value_is_str(k, "type")) {
			bool ok = false;

			if (v->kind == ASSAY_V_STRING) {
				ok = has_type(inst, v);
			} else if (v->kind == ASSAY_V_ARRAY) {
				for (uint32_t t = 0; t < v->len && !ok; t++)
					ok = has_type(inst, &v->u.items[t]);
			} else {
				refuse(s, "type must be a name or a list of names");
				break;
			}
			if (!ok) {
				assay_buf_reset(&c);
				for (uint32_t t = 0; v->kind == ASSAY_V_ARRAY && t < v->len; t++) {
					if (t)
						assay_buf_adds(&c, ", ");
					assay_verify__repr(&c, &v->u.items[t], REPR_CAP);
				}
				if (v->kind == ASSAY_V_STRING)
					assay_verify__repr(&c, v, REPR_CAP);
				assay_buf_reset(&b);
				assay_verify__repr(&b, inst, REPR_CAP);
				violation(s, "type", "%s is not of type %s", b.ptr, c.ptr);
			}
		} else if (assay_value_is_str(k, "enum")) {
			bool found = false;

			if (v->kind != ASSAY_V_ARRAY) {
				refuse(s, "enum must be a list");
				break;
			}
			for (uint32_t e = 0; e < v->len && !found; e++)
				found = in_enum(inst, &v->u.items[e]);
			if (!found)
				violation(s, "enum", "%s is not one of %s", rep(&b, inst), rep(&c, v));
		} else if (assay_value_is_str(k, "const")) {
			if (!json_equal(inst, v, 0))
				violation(s, "const", "%s was expected", rep(&b, v));
		} else if (assay_value_is_str(k, "allOf") || assay_value_is_str(k, "anyOf") ||
			   assay_value_is_str(k, "oneOf") || assay_value_is_str(k, "not")) {
			combinators(s, inst, depth, k, v, &b, &c);
		} else if (inst->kind == ASSAY_V_OBJECT) {
			object_keywords(s, schema, inst, depth, k, v, &b);
		} else if (inst->kind == ASSAY_V_ARRAY) {
			array_keywords(s, schema, inst, depth, k, v, &b);
		} else if (inst->kind == ASSAY_V_STRING) {
			string_keywords(s, inst, k, v, &b, &c);
		} else if (assay_value_is_number(inst) && !is_bool(inst) &&
			   (assay_value_is_str(k, "minimum") || assay_value_is_str(k, "maximum") ||
			    assay_value_is_str(k, "exclusiveMinimum") ||
			    assay_value_is_str(k, "exclusiveMaximum") ||
			    assay_value_is_str(k, "multipleOf"))) {
			check_number(s, k, v, inst, &b, &c);
		}
	}
	assay_buf_release(&b);
	assay_buf_release(&c);
}

static int verify_schema(assay_verification *out, const assay_verify_call *call,
			 assay_err *err)
{
	assay_verify__format f;
	assay_value schema, doc;
	struct sv s;
	int rc;

	if ((rc = assay_verify__opt_format(call->options, &f, err)))
		return rc;
	/* the schema is JSON (or the case file's own YAML mapping), whatever the document is */
	if (call->expected && call->expected->kind == ASSAY_V_STRING) {
		assay_verify_call c = *call;
		if ((rc = assay_verify__parse_expected(&schema, &c, ASSAY_FMT_JSON, err)))
			return rc;
	} else if (call->expected && (call->expected->kind == ASSAY_V_OBJECT ||
				      call->expected->kind == ASSAY_V_BOOL)) {
		schema = *call->expected;
	} else {
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "expected.%s must be a JSON Schema (a mapping, or its JSON "
				     "text)", assay_verify__attr(call));
	}
	if (!assay_verify__parse_actual(&doc, out, call, f, &rc, err))
		return rc;
	memset(&s, 0, sizeof(s));
	s.a = call->arena;
	s.root = &schema;
	s.deadline = call->deadline;
	s.diff = assay_value_object();
	s.err = err;
	s.path = (assay_buf)ASSAY_BUF_INIT;
	s.spath = (assay_buf)ASSAY_BUF_INIT;
	assay_buf_adds(&s.path, "$");
	check_schema(&s, &schema, 0);
	validate(&s, &schema, &doc, 0, 0);
	for (size_t i = 0; i < s.npats; i++)
		pcre2_code_free(s.pats[i].code);
	pcre2_match_context_free(s.mctx);
	free(s.pats);
	assay_buf_release(&s.path);
	assay_buf_release(&s.spath);
	if (s.rc == ASSAY_ETOOBIG) {
		out->budget = true;
		assay_verify__fail(out, assay_value_stringf(call->arena,
							    "%s could not be validated within the "
							    "verification budget (%s)",
							    assay_verify__attr(call),
							    s.why ? s.why : "time"));
		return 0;
	}
	if (s.rc)
		return s.rc;
	if (s.count > MAX_LISTED)
		assay_object_set(call->arena, &s.diff, "assay_note",
				 assay_value_stringf(call->arena,
						     "%zu more violations are not listed",
						     s.count - MAX_LISTED));
	out->is_correct = s.count == 0;
	out->diff = s.count ? s.diff : assay_value_null();
	return 0;
}

const assay_verifier assay_verifier_json_schema = { "json_schema", verify_schema,
						    schema_options };
