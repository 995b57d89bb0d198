/*
 * The numeric verifier (verification.md, Example 3): the numbers found in the actual text,
 * compared in order with the expected ones, each within a tolerance, and their count.
 * Spec: suite-format.md "Verifiers (built in)" (`numeric`: abs_tol, rel_tol); issue #7.
 *
 * Key decisions:
 * - Numbers are found as Example 3's re.findall(r"[-+]?\d*\.?\d+(?:[eE][-+]?\d+)?") finds
 *   them (leftmost, longest as the regex backtracks: "1.2.3" is 1.2 and .3, "5." is 5, "1e" is
 *   1, "x-3" is -3), with ASCII digits, and read as float() reads them.
 * - A number passes when math.isclose(expected, actual, rel_tol, abs_tol) (abs_tol defaults to
 *   the example's 1e-6, rel_tol to 0), which is the example's abs(e - a) <= tolerance when
 *   rel_tol is 0; equal infinities pass, NaN never does.
 * - The example makes one result for the count (weight 0.5) and one per number compared
 *   (weight 1.0, for as many as both lists have). assay has one attribute: it is correct when
 *   all of them are, and its score (partial credit) is their weighted share, so a case with one
 *   wrong number of ten keeps most of its credit. `count_weight` changes the 0.5.
 * - Expected: a list of numbers, one number, or a text whose numbers are found the same way.
 * - The diff (when not correct) is an object: "number_count" always, then "number_<i>" for each
 *   number out of tolerance, in the example's words.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/verify_int.h"
#include "util/banned.h"

static const char *const numeric_options[] = { "abs_tol", "rel_tol", "count_weight", NULL };

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The next match of the example's pattern in s[*i..n): its bounds in [*start, *end). Returns
 * false when there is none.
 */
static bool next_number(const char *s, size_t n, size_t *i, size_t *start, size_t *end)
{
	for (size_t p = *i; p < n; p++) {
		size_t q = p;

		if (s[q] == '+' || s[q] == '-')
			q++;
		size_t a = q;
		while (q < n && digit(s[q]))
			q++;
		size_t intdigits = q - a, m;
		if (q + 1 < n && s[q] == '.' && digit(s[q + 1])) {
			q++;
			while (q < n && digit(s[q]))
				q++;
			m = q;
		} else if (intdigits) {
			m = q;
		} else {
			continue; /* no digit here: the sign (if any) starts no match */
		}
		if (m < n && (s[m] == 'e' || s[m] == 'E')) {
			size_t k = m + 1;

			if (k < n && (s[k] == '+' || s[k] == '-'))
				k++;
			if (k < n && digit(s[k])) {
				while (k < n && digit(s[k]))
					k++;
				m = k;
			}
		}
		*start = p;
		*end = m;
		*i = m;
		return true;
	}
	return false;
}

static double read_number(const char *s, size_t n)
{
	bool neg = *s == '-';

	if (*s == '+' || *s == '-') {
		s++;
		n--;
	}
	double d = assay_parse_double(s, n);
	return neg ? -d : d;
}

/* Appends the numbers found in s[0..n) to `out` (a growable array of doubles). */
static void find_numbers(double **out, size_t *count, size_t *alloc, const char *s, size_t n)
{
	size_t i = 0, a, b;

	while (next_number(s, n, &i, &a, &b)) {
		if (*count == *alloc) {
			*alloc = *alloc ? *alloc * 2 : 16;
			*out = assay_xrealloc(*out, *alloc * sizeof(**out));
		}
		(*out)[(*count)++] = read_number(s + a, b - a);
	}
}

static int expected_numbers(double **out, size_t *count, const assay_verify_call *call,
			    assay_err *err)
{
	const assay_value *ex = call->expected;
	size_t alloc = 0;

	*count = 0;
	if (ex && ex->kind == ASSAY_V_STRING) {
		find_numbers(out, count, &alloc, ex->u.s, ex->len);
		return 0;
	}
	if (ex && assay_value_is_number(ex)) {
		*out = assay_xmalloc(sizeof(**out));
		**out = assay_value_number(ex);
		*count = 1;
		return 0;
	}
	if (!ex || ex->kind != ASSAY_V_ARRAY)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "expected.%s must be a list of numbers, a number or a text "
				     "holding numbers", assay_verify__attr(call));
	*out = assay_xmalloc((ex->len ? ex->len : 1) * sizeof(**out));
	for (uint32_t i = 0; i < ex->len; i++) {
		if (!assay_value_is_number(&ex->u.items[i])) {
			free(*out);
			*out = NULL;
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "expected.%s[%u] is not a number",
					     assay_verify__attr(call), i);
		}
		(*out)[(*count)++] = assay_value_number(&ex->u.items[i]);
	}
	return 0;
}

static bool isclose(double e, double a, double rel_tol, double abs_tol)
{
	if (e == a)
		return true;
	if (isinf(e) || isinf(a))
		return false;
	double diff = fabs(e - a);
	return diff <= fabs(rel_tol * e) || diff <= fabs(rel_tol * a) || diff <= abs_tol;
}

static int verify_numeric(assay_verification *out, const assay_verify_call *call,
			  assay_err *err)
{
	assay_arena *ar = call->arena;
	double abs_tol = 1e-6, rel_tol = 0, cw = 0.5;
	double *exp = NULL, *act = NULL;
	size_t ne = 0, na = 0, alloc = 0, tlen;
	assay_buf scratch = ASSAY_BUF_INIT;
	int rc;

	if ((rc = assay_verify_opt_number(call->options, "abs_tol", 0, &abs_tol, err)) ||
	    (rc = assay_verify_opt_number(call->options, "rel_tol", 0, &rel_tol, err)) ||
	    (rc = assay_verify_opt_number(call->options, "count_weight", 0, &cw, err)) ||
	    (rc = expected_numbers(&exp, &ne, call, err)))
		return rc;
	const char *text = assay_verify__actual_text(call->actual, &scratch, &tlen);
	if (!text) {
		free(exp);
		assay_buf_release(&scratch);
		assay_verify__fail(out, assay_value_strz(ar, assay_verify__missing(call)));
		return 0;
	}
	find_numbers(&act, &na, &alloc, text, tlen);
	assay_buf_release(&scratch);

	size_t n = ne < na ? ne : na;
	double got = ne == na ? cw : 0, total = cw + (double)n;
	bool correct = ne == na;
	assay_value diff = assay_value_object();
	char eb[ASSAY_DOUBLE_BUFSIZE], ab[ASSAY_DOUBLE_BUFSIZE], db[ASSAY_DOUBLE_BUFSIZE],
		tb[ASSAY_DOUBLE_BUFSIZE];

	assay_object_set(ar, &diff, "number_count",
			 assay_value_stringf(ar, "Expected %zu numbers, got %zu", ne, na));
	for (size_t i = 0; i < n; i++) {
		if (isclose(exp[i], act[i], rel_tol, abs_tol)) {
			got += 1;
			continue;
		}
		correct = false;
		assay_format_double(eb, exp[i]);
		assay_format_double(ab, act[i]);
		/* the difference without float noise (2.47, not 2.469999999999999): 12
		 * significant digits are more than any tolerance tells apart */
		char dd[32];
		snprintf(dd, sizeof(dd), "%.12g", fabs(exp[i] - act[i]));
		assay_format_double(db, strtod(dd, NULL));
		assay_format_double(tb, abs_tol);
		char key[40];
		snprintf(key, sizeof(key), "number_%zu", i);
		assay_object_set(ar, &diff, key,
				 assay_value_stringf(ar,
						     "Number %zu: expected %s, got %s (diff: %s, "
						     "tolerance: %s)",
						     i, eb, ab, db, tb));
	}
	free(exp);
	free(act);
	out->is_correct = correct;
	out->partial = total > 0 ? got / total : correct ? 1.0 : 0.0;
	out->diff = out->is_correct ? assay_value_null() : diff;
	return 0;
}

const assay_verifier assay_verifier_numeric = { "numeric", verify_numeric, numeric_options };
