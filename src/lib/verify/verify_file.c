/*
 * The file verifier (verification.md, Advanced Example 2): a file must exist, and may have to
 * hold some texts or exactly some content; each check weighs what the example gives it.
 * Spec: issue #7 section 2 ("The file verifier: exists, exact content with a unified diff,
 * contains; per-check weights").
 *
 * Key decisions:
 * - Expected: a string is the exact content; a mapping may give `exists` (true, or false for a
 *   file that must NOT be produced), `content` (exact text), `contains` (a text or a list of
 *   texts that must all occur). Bytes are compared as they are.
 * - The result is what the example's _verify_file returns for the same file: not produced ->
 *   incorrect, weight 1.0 (whatever was expected of it); else with `content` -> correct when
 *   equal, weight 1.0; else with `contains` -> correct when found, weight 0.5; else (only
 *   existence) -> correct, weight 0.3. Those weights scale the verify entry's `weight`
 *   (default 1.0); `check_weights: {exists, contains, content}` changes the three (a file not
 *   produced keeps 1.0). Beyond the example, `content` and `contains` may both be given (both
 *   must hold; the weight is content's), `contains` may list several texts (all must occur),
 *   and `exists: false` asks that the file NOT be produced (weight 1.0).
 * - assay's partial credit (`case.partial`, never in the score) is the weighted share of the
 *   content and contains checks that hold; existence earns nothing beside them (a file with a
 *   wrong content gets no credit for existing), and counts alone only when it is the only
 *   check.
 * - The diff is null when every check passes; else an object with one message per check run,
 *   in the example's words, the content check's being the unified diff of expected and actual
 *   (labels "<path> (expected)" and "<path> (actual)"), valid UTF-8, cut at 64 KiB.
 *   Past the call's deadline (the verification budget's time) the content check says so instead
 *   and `budget` is set.
 */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>

#include "assay/buf.h"
#include "assay/suite.h"
#include "assay/udiff.h"
#include "verify/verify_int.h"
#include "util/banned.h"

#define DIFF_CAP (64 * 1024)
#define QUOTE_CAP 200

static const char *const file_options[] = { "check_weights", NULL };

enum { EXISTS, CONTAINS, CONTENT, NCHECKS };
static const char *const check_names[NCHECKS] = { "exists", "contains", "content" };

struct spec {
	bool exists;                /* the file must exist (false: must not) */
	const assay_value *content; /* NULL: not checked */
	const assay_value *contains; /* a string or a list of strings; NULL: not checked */
};

static int read_spec(struct spec *s, const assay_verify_call *call, assay_err *err)
{
	const assay_value *ex = call->expected;
	const char *attr = assay_verify__attr(call);

	*s = (struct spec){ true, NULL, NULL };
	if (ex && ex->kind == ASSAY_V_STRING) {
		s->content = ex;
		return 0;
	}
	if (!ex || ex->kind != ASSAY_V_OBJECT)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "expected.%s must be the file's content or a mapping of "
				     "exists, content, contains", attr);
	for (uint32_t i = 0; i < ex->len; i++) {
		const assay_member *m = &ex->u.members[i];
		const assay_value *v = &m->value;

		if (assay_value_is_str(&m->key, "exists") && v->kind == ASSAY_V_BOOL) {
			s->exists = v->u.b;
		} else if (assay_value_is_str(&m->key, "content") && v->kind == ASSAY_V_STRING) {
			s->content = v;
		} else if (assay_value_is_str(&m->key, "contains") &&
			   (v->kind == ASSAY_V_STRING || v->kind == ASSAY_V_ARRAY)) {
			for (uint32_t k = 0; v->kind == ASSAY_V_ARRAY && k < v->len; k++)
				if (v->u.items[k].kind != ASSAY_V_STRING)
					return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
							     "expected.%s.contains must be a text "
							     "or a list of texts", attr);
			s->contains = v;
		} else {
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "expected.%s: '%.*s' is not a file check (exists: "
					     "true|false, content: TEXT, contains: TEXT or [TEXT])",
					     attr, (int)m->key.len, m->key.u.s);
		}
	}
	if (!s->exists && (s->content || s->contains))
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "expected.%s: a file that must not exist has no content to "
				     "check", attr);
	return 0;
}

static int read_weights(double w[NCHECKS], const assay_value *options, assay_err *err)
{
	const assay_value *cw = assay_object_get(options, "check_weights");
	int rc;

	w[EXISTS] = 0.3;
	w[CONTAINS] = 0.5;
	w[CONTENT] = 1.0;
	if (!cw || cw->kind == ASSAY_V_NULL)
		return 0;
	if (cw->kind != ASSAY_V_OBJECT)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "option 'check_weights' must be a mapping {exists, contains, "
				     "content}");
	for (uint32_t i = 0; i < cw->len; i++) {
		const assay_value *k = &cw->u.members[i].key;
		int c = 0;

		while (c < NCHECKS && !assay_value_is_str(k, check_names[c]))
			c++;
		if (c == NCHECKS)
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "check_weights: unknown check '%.*s' (exists, "
					     "contains, content)", (int)k->len, k->u.s);
		if ((rc = assay_verify_opt_number(cw, check_names[c], 1e-12, &w[c], err)))
			return rc;
	}
	return 0;
}

/* The contains check: every needle found; the message names the first one missing. */
static bool check_contains(assay_arena *a, assay_value *msg, const assay_value *needles,
			   const char *text, size_t len)
{
	uint32_t n = needles->kind == ASSAY_V_ARRAY ? needles->len : 1;

	for (uint32_t i = 0; i < n; i++) {
		const assay_value *nd = needles->kind == ASSAY_V_ARRAY ? &needles->u.items[i]
								       : needles;

		if (nd->len && (!text || !memmem(text, len, nd->u.s, nd->len))) {
			assay_value q = assay_verify__text(a, nd->u.s, nd->len, QUOTE_CAP);
			*msg = assay_value_stringf(a, "✗ Missing pattern '%s'", q.u.s);
			return false;
		}
	}
	*msg = assay_value_strz(a, n == 1 ? "✓ Contains the expected text"
					  : "✓ Contains every expected text");
	return true;
}

/* The diff of the content check; past the call's deadline, the reason (and `*budget` set). */
static assay_value content_diff(const assay_verify_call *call, const assay_value *want,
				const char *text, size_t len, bool *budget)
{
	const char *path = assay_file_attribute_path(assay_verify__attr(call));
	char *la, *lb;
	assay_buf d = ASSAY_BUF_INIT;

	if (!path)
		path = assay_verify__attr(call);
	la = assay_xasprintf("%s (expected)", path);
	lb = assay_xasprintf("%s (actual)", path);
	assay_value v;
	if (assay_udiff_until(&d, want->u.s, want->len, text, len, la, lb, 3, call->deadline)) {
		*budget = true;
		v = assay_value_strz(call->arena, "Content differs; the diff could not be made "
						  "within the verification budget (time)");
	} else {
		v = assay_verify__text(call->arena, d.ptr, d.len, DIFF_CAP);
	}
	assay_buf_release(&d);
	free(la);
	free(lb);
	return v;
}

static int verify_file(assay_verification *out, const assay_verify_call *call, assay_err *err)
{
	assay_arena *a = call->arena;
	struct spec s;
	double w[NCHECKS], total = 0, got = 0, top = 0;
	assay_buf scratch = ASSAY_BUF_INIT;
	assay_value diff = assay_value_object(), msg;
	size_t len;
	bool all = true;
	int rc;

	if ((rc = read_spec(&s, call, err)) || (rc = read_weights(w, call->options, err)))
		return rc;
	const char *text = assay_verify__actual_text(call->actual, &scratch, &len);
	const char *path = assay_file_attribute_path(assay_verify__attr(call));
	if (!path)
		path = assay_verify__attr(call);

	for (int c = 0; c < NCHECKS; c++) {
		bool ok;

		if ((c == CONTAINS && !s.contains) || (c == CONTENT && !s.content))
			continue;
		if (c == EXISTS) {
			ok = s.exists == (text != NULL);
			msg = ok ? assay_value_strz(a, s.exists ? "✓ File exists"
								: "✓ File was not produced")
				 : assay_value_stringf(a, s.exists ? "File not found: %s"
								   : "File exists but must not: %s",
						       path);
		} else if (c == CONTAINS) {
			ok = check_contains(a, &msg, s.contains, text, len);
		} else {
			ok = text && len == s.content->len &&
			     !memcmp(text, s.content->u.s, len);
			msg = ok ? assay_value_strz(a, "✓ Content matches")
				 : content_diff(call, s.content, text ? text : "", len,
						&out->budget);
		}
		/* existence is a prerequisite beside another check, not a credit of its own */
		if (c != EXISTS || (!s.contains && !s.content)) {
			total += w[c];
			got += ok ? w[c] : 0;
		}
		top = w[c];
		all = all && ok;
		assay_object_set(a, &diff, check_names[c], msg);
		if (!text && s.exists)
			break; /* not produced: the example stops there */
	}
	assay_buf_release(&scratch);
	/* the example's weight: the check it ran last (content over contains over existence),
	 * 1.0 for a file that is missing or must not exist */
	if ((!text && s.exists) || !s.exists)
		top = 1.0;
	out->weight *= top;
	out->is_correct = all;
	out->partial = !text && s.exists ? 0 : got / total;
	out->diff = all ? assay_value_null() : diff;
	return 0;
}

const assay_verifier assay_verifier_file = { "file", verify_file, file_options };
