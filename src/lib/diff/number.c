/*
 * Numbers in the diff, as deepdiff 6.2.2 (with ignore_numeric_type_changes) compares them
 * through Python. Spec: docs/internals/deepdiff-parity.md, 5.2 and 8.1.
 *
 * Key decisions (deepdiff's, each pinned by the parity corpus):
 * - Two numbers are equal by exactly one rule: with significant_digits n, their
 *   number_to_string texts ("{:.nf}" or "{:.ne}" of round(x, n), zero unsigned) are equal;
 *   otherwise math.isclose(a, b, rel_tol, abs_tol) in doubles, with rel_tol at least 1e-9
 *   (deepdiff's math_epsilon brings Python's default rel_tol). Integers are compared as doubles
 *   there, as deepdiff does (2**64 and 2**64 + 1 are equal); they stay exact in the report.
 * - NaN equals NaN: json.loads shares one NaN object and deepdiff checks identity first.
 * - Python's == (difflib's item equality, which knows no tolerance) is exact between int and
 *   float (10**30 != 1e30), with True == 1 and False == 0.
 * - Hash keys (DeepHash): "number:" + the number_to_string text with significant_digits (12 by
 *   default), so equal texts are one item under ignore_order.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff/diff_int.h"
#include "value/value_int.h"
#include "util/banned.h"

bool assay_diff__is_num(const assay_value *v)
{
	return v->kind == ASSAY_V_BOOL || v->kind == ASSAY_V_INT || v->kind == ASSAY_V_BIGINT ||
	       v->kind == ASSAY_V_REAL;
}

static int64_t int_of(const assay_value *v)
{
	return v->kind == ASSAY_V_BOOL ? (int64_t)v->u.b : v->u.i;
}

/* The exact decimal digits of an integral, finite double ("-" for negatives). */
static void double_digits(char *buf, size_t size, double d)
{
	snprintf(buf, size, "%.0f", d);
	if (!strcmp(buf, "-0"))
		memcpy(buf, "0", 2);
}

/* Python's int == float. */
static bool int_eq_real(const assay_value *i, double d)
{
	char buf[400];

	if (!isfinite(d) || d != floor(d))
		return false;
	if (i->kind != ASSAY_V_BIGINT) {
		if (d < -9223372036854775808.0 || d >= 9223372036854775808.0)
			return false;
		return (int64_t)d == int_of(i);
	}
	double_digits(buf, sizeof(buf), d);
	return strlen(buf) == i->len && !memcmp(buf, i->u.s, i->len);
}

bool assay_diff__num_eq(const assay_value *x, const assay_value *y)
{
	if (x->kind == ASSAY_V_REAL && y->kind == ASSAY_V_REAL)
		return x->u.d == y->u.d || (isnan(x->u.d) && isnan(y->u.d));
	if (x->kind == ASSAY_V_REAL)
		return int_eq_real(y, x->u.d);
	if (y->kind == ASSAY_V_REAL)
		return int_eq_real(x, y->u.d);
	if (x->kind == ASSAY_V_BIGINT || y->kind == ASSAY_V_BIGINT)
		return x->kind == y->kind && x->len == y->len && !memcmp(x->u.s, y->u.s, x->len);
	return int_of(x) == int_of(y);
}

/* float(x) as Python does it (a bigint is correctly rounded; past DBL_MAX, inf). */
static double as_double(const assay_value *v)
{
	switch (v->kind) {
	case ASSAY_V_BOOL: return v->u.b;
	case ASSAY_V_INT: return (double)v->u.i;
	case ASSAY_V_REAL: return v->u.d;
	default: return assay_value_number(v);
	}
}

/* "%.*f" of `d`, as glibc and Python write it (half to even on the exact binary value). */
static void fixed_text(char *buf, size_t size, double d, int digits)
{
	char dg[128];
	int len = 0, point = 0;
	size_t o = 0;

	/* An exact tie can only sit at digit n+1 when d * 2^(n+1) is an integer; there (and for
	 * huge values) printf decides. Elsewhere libdouble-conversion's digits are the same. */
	if (fabs(d) >= 1e59 || digits > 60 || ldexp(d, digits + 1) == floor(ldexp(d, digits + 1))) {
		snprintf(buf, size, "%.*f", digits, d);
		return;
	}
	assay_value__fixed(d, digits, dg, (int)sizeof(dg), &len, &point);
	if (signbit(d))
		buf[o++] = '-';
	if (len == 0) {
		dg[0] = '0';
		len = 1;
		point = 1;
	}
	if (point <= 0) {
		buf[o++] = '0';
	} else {
		for (int k = 0; k < point; k++)
			buf[o++] = k < len ? dg[k] : '0';
	}
	if (digits > 0) {
		buf[o++] = '.';
		for (int k = 0; k < digits; k++) {
			int at = point + k; /* index into dg of this fractional digit */

			buf[o++] = at >= 0 && at < len ? dg[at] : '0';
		}
	}
	buf[o] = '\0';
}

void assay_diff__num_fixed(assay_buf *out, const assay_value *v, int digits, bool e_notation)
{
	char buf[512];
	double d;
	bool zero = true;
	char *p;

	if ((v->kind == ASSAY_V_INT || v->kind == ASSAY_V_BOOL) && !e_notation &&
	    int_of(v) > -(1ll << 53) && int_of(v) < (1ll << 53)) {
		/* an int is formatted as float(int), exact below 2**53 */
		assay_buf_addf(out, "%lld", (long long)int_of(v));
		if (digits > 0) {
			assay_buf_addch(out, '.');
			for (int k = 0; k < digits; k++)
				assay_buf_addch(out, '0');
		}
		return;
	}
	d = as_double(v);
	if (isnan(d)) {
		assay_buf_adds(out, "nan");
		return;
	}
	if (isinf(d)) {
		assay_buf_adds(out, d < 0 ? "-inf" : "inf");
		return;
	}
	/* round(x, n): correctly rounded to n decimal places, half to even on the exact binary
	 * value */
	fixed_text(buf, sizeof(buf), d, digits);
	if (e_notation) {
		double r = assay_parse_double(buf, strlen(buf));

		snprintf(buf, sizeof(buf), "%.*e", digits, r);
		/* deepdiff strips one leading zero of the exponent: e+05 -> e+5 */
		p = strchr(buf, 'e');
		if (p && (p[1] == '+' || p[1] == '-') && p[2] == '0' && p[3])
			memmove(p + 2, p + 3, strlen(p + 3) + 1);
	}
	for (p = buf; *p && *p != 'e'; p++)
		if (*p >= '1' && *p <= '9')
			zero = false;
	if (zero && buf[0] == '-')
		memmove(buf, buf + 1, strlen(buf));
	assay_buf_adds(out, buf);
}

/* math.isclose(a, b, rel_tol=rel, abs_tol=abs_) */
static bool isclose(double a, double b, double rel, double abs_)
{
	double diff;

	if (a == b)
		return true;
	if (isinf(a) || isinf(b) || isnan(a) || isnan(b))
		return false;
	diff = fabs(b - a);
	return diff <= fabs(rel * b) || diff <= fabs(rel * a) || diff <= abs_;
}

static bool is_integer(const assay_value *v)
{
	return v->kind == ASSAY_V_INT || v->kind == ASSAY_V_BIGINT;
}

/* Two numbers of one kind holding one value: their number_to_string texts are equal whatever
 * the options, so the formatting (most of the walk's time on a large, mostly unchanged pair)
 * can be spared. NaN says no here and takes the long way. */
static bool same_number(const assay_value *x, const assay_value *y)
{
	if (x->kind != y->kind)
		return false;
	switch (x->kind) {
	case ASSAY_V_BOOL: return x->u.b == y->u.b;
	case ASSAY_V_INT: return x->u.i == y->u.i;
	case ASSAY_V_REAL: return x->u.d == y->u.d;
	case ASSAY_V_BIGINT: return x->len == y->len && !memcmp(x->u.s, y->u.s, x->len);
	default: return false;
	}
}

bool assay_diff__num_close(const assay_diff_opts *o, const assay_value *x, const assay_value *y)
{
	if (o->exact_integers && is_integer(x) && is_integer(y))
		return assay_diff__num_eq(x, y);
	if (o->significant_digits >= 0) {
		if (same_number(x, y))
			return true;
		assay_buf bx = ASSAY_BUF_INIT, by = ASSAY_BUF_INIT;
		bool eq;

		assay_diff__num_fixed(&bx, x, o->significant_digits, o->e_notation);
		assay_diff__num_fixed(&by, y, o->significant_digits, o->e_notation);
		eq = bx.len == by.len && !memcmp(bx.ptr, by.ptr, bx.len);
		assay_buf_release(&bx);
		assay_buf_release(&by);
		return eq;
	}
	if (x->kind == ASSAY_V_REAL && y->kind == ASSAY_V_REAL && isnan(x->u.d) && isnan(y->u.d))
		return true;
	return isclose(as_double(x), as_double(y), o->rel_tol > 1e-9 ? o->rel_tol : 1e-9,
		       o->abs_tol);
}

bool assay_diff__num_key(assay_buf *out, const assay_value *v)
{
	char buf[400];

	switch (v->kind) {
	case ASSAY_V_BOOL:
	case ASSAY_V_INT:
		assay_buf_addf(out, "i%lld", (long long)int_of(v));
		return true;
	case ASSAY_V_BIGINT:
		assay_buf_addch(out, 'i');
		assay_buf_add(out, v->u.s, v->len);
		return true;
	case ASSAY_V_REAL:
		if (isnan(v->u.d))
			return false;
		if (isfinite(v->u.d) && v->u.d == floor(v->u.d)) {
			double_digits(buf, sizeof(buf), v->u.d);
			assay_buf_addch(out, 'i');
			assay_buf_adds(out, buf);
			return true;
		}
		assay_buf_addf(out, "f%a", v->u.d);
		return true;
	default:
		return false;
	}
}

double assay_diff__num_double(const assay_value *v)
{
	return as_double(v);
}

bool assay_diff__exact_in_double(const assay_value *v)
{
	const int64_t lim = (int64_t)1 << 53;

	return v->kind == ASSAY_V_INT && v->u.i >= -lim && v->u.i <= lim;
}
