/*
 * Diff strategies (verification.md, "Diff Generation Strategies"): the `diff` option of any
 * verify entry chooses how a failed attribute's difference is shown. Spec: issue #7 section 2
 * ("Diff strategies selectable per verifier (diff: simple | lines | unified | visual |
 * structural)").
 *
 * Key decisions:
 * - The strategies work on two texts: the expected value as text (a string as it is, a
 *   number or boolean as written, a list or mapping as JSON indented by 2) and the actual
 *   value as captured (a file not produced is "(file was not produced)"). Lines are split at
 *   '\n' (a '\r' before it is dropped).
 *   simple     "Expected:\n<expected>\n\nActual:\n<actual>"          (strategy 1)
 *   lines      "Line 3: 'b' != 'B'" per differing line, then "Line count: expected N, got M"
 *              when the counts differ                                 (strategy 2)
 *   unified    the unified diff, labels "expected" and "actual"       (strategy 3)
 *   visual     "  same", "- expected", "+ actual", line by line, the longer side's rest
 *              after                                                  (strategy 4)
 *   structural deepdiff's report: a structural verifier's own diff as it is; for text,
 *              DeepDiff(expected, actual) of the two strings (values_changed at root, with
 *              its "diff" for multi-line text)
 * - Without the option each verifier keeps its own diff (unified for text, structural for
 *   documents). A correct attribute keeps its diff (null for text); an attribute stopped at
 *   the verification budget keeps its reason.
 * - The text is valid UTF-8 and cut at 64 KiB, like every text diff.
 */
#include <string.h>

#include "assay/buf.h"
#include "assay/json.h"
#include "assay/udiff.h"
#include "verify/verify_int.h"
#include "util/banned.h"

#define DIFF_CAP (64 * 1024)

static const char *const strategies[] = { "simple", "lines", "unified", "visual", "structural",
					  NULL };

int assay_verify__diff_strategy(const char **out, const assay_value *options, assay_err *err)
{
	const char *s = NULL;
	int rc = assay_verify_opt_string(options, "diff", &s, err);

	if (out)
		*out = NULL;
	if (rc || !s)
		return rc;
	for (const char *const *k = strategies; *k; k++)
		if (!strcmp(*k, s)) {
			if (out)
				*out = *k;
			return 0;
		}
	return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
			     "option 'diff' must be simple, lines, unified, visual or structural "
			     "(got '%s')", s);
}

static void expected_text(assay_buf *out, const assay_value *ex)
{
	assay_buf scratch = ASSAY_BUF_INIT;
	const char *s;
	size_t n;

	if (ex && !assay_verify_expected_text(&s, &n, ex, &scratch, NULL, NULL))
		assay_buf_add(out, s, n);
	else if (ex)
		assay_json_write(out, ex, ASSAY_JSON_PRETTY);
	assay_buf_release(&scratch);
}

/* The line at *p (up to '\n', without a '\r' before it); advances *p past it. */
static bool next_line(const char **p, const char *end, const char **s, size_t *n)
{
	const char *nl;

	if (*p >= end)
		return false;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	*s = *p;
	*n = (size_t)((nl ? nl : end) - *p);
	*p = nl ? nl + 1 : end;
	if (*n && (*s)[*n - 1] == '\r')
		(*n)--;
	return true;
}

static size_t count_lines(const char *t, size_t len)
{
	const char *p = t, *s;
	size_t n = 0, l;

	while (next_line(&p, t + len, &s, &l))
		n++;
	return n;
}

static void lines(assay_buf *d, const char *e, size_t el, const char *a, size_t al, bool visual)
{
	const char *pe = e, *pa = a, *ls, *as;
	size_t ln, an, i = 0, ne = count_lines(e, el), na = count_lines(a, al);
	bool has_e, has_a;

	for (;;) {
		has_e = next_line(&pe, e + el, &ls, &ln);
		has_a = next_line(&pa, a + al, &as, &an);
		if (!has_e && !has_a)
			break;
		i++;
		if (d->len > DIFF_CAP)
			break;
		if (has_e && has_a && ln == an && !memcmp(ls, as, ln)) {
			if (visual)
				assay_buf_addf(d, "  %.*s\n", (int)ln, ls);
			continue;
		}
		if (!visual) {
			if (has_e && has_a)
				assay_buf_addf(d, "Line %zu: '%.*s' != '%.*s'\n", i, (int)ln, ls,
					       (int)an, as);
			continue;
		}
		if (has_e)
			assay_buf_addf(d, "- %.*s\n", (int)ln, ls);
		if (has_a)
			assay_buf_addf(d, "+ %.*s\n", (int)an, as);
	}
	if (!visual && ne != na)
		assay_buf_addf(d, "Line count: expected %zu, got %zu\n", ne, na);
	if (d->len && d->ptr[d->len - 1] == '\n')
		assay_buf_setlen(d, d->len - 1);
}

void assay_verify__render_diff(assay_verification *out, const assay_verify_call *call)
{
	const char *how = NULL;
	assay_buf e = ASSAY_BUF_INIT, d = ASSAY_BUF_INIT, scratch = ASSAY_BUF_INIT;
	const char *a;
	size_t al;

	if (out->is_correct || out->budget || assay_verify__diff_strategy(&how, call->options, NULL) ||
	    !how)
		return;
	if (!strcmp(how, "structural") && out->diff.kind == ASSAY_V_OBJECT)
		return;
	expected_text(&e, call->expected);
	a = assay_verify__actual_text(call->actual, &scratch, &al);
	if (!a) {
		a = "(file was not produced)";
		al = strlen(a);
	}
	if (!strcmp(how, "simple")) {
		assay_buf_adds(&d, "Expected:\n");
		assay_buf_add(&d, e.ptr, e.len);
		assay_buf_adds(&d, "\n\nActual:\n");
		assay_buf_add(&d, a, al);
	} else if (!strcmp(how, "lines") || !strcmp(how, "visual")) {
		lines(&d, e.ptr, e.len, a, al, how[0] == 'v');
	} else if (!strcmp(how, "unified")) {
		struct assay_verify__texts t = { .e = e.ptr, .elen = e.len, .a = a, .alen = al,
						 .la = "expected", .lb = "actual" };

		if (!assay_verify__udiff(out, call, &d, &t))
			goto done;
	} else {
		assay_value ev = assay_verify__text(call->arena, e.ptr, e.len, 0);
		assay_value av = assay_verify__text(call->arena, a, al, 0);

		if (assay_diff(&out->diff, call->arena, &ev, &av, NULL, call->deadline, NULL)) {
			out->budget = true;
			assay_verify__fail(out, assay_value_stringf(call->arena,
								    "%s could not be compared "
								    "within the verification "
								    "budget (time or memory)",
								    assay_verify__attr(call)));
		}
		goto done;
	}
	out->diff = assay_verify__text(call->arena, d.ptr, d.len, DIFF_CAP);
done:
	assay_buf_release(&e);
	assay_buf_release(&d);
	assay_buf_release(&scratch);
}
