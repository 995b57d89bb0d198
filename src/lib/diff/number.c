/*
 * Numbers in the diff, as deepdiff (with ignore_numeric_type_changes) sees them through
 * Python: bool, int and float form one group, compared with Python's == unless a tolerance or
 * significant_digits applies.
 *
 * Key decisions:
 * - Python's == between int and float is exact (10**30 != 1e30, 2**53 + 1 != 2.0**53), True is
 *   1 and False is 0. NaN equals NaN: json.loads shares one NaN object, and deepdiff's identity
 *   check (and difflib's dict lookup) then make it equal to itself.
 * - Tolerances follow math.isclose: |a-b| <= max(rel_tol * max(|a|,|b|), abs_tol), equal
 *   values (infinities) always close, NaN never. Unlike isclose, two integers are compared
 *   exactly (a difference of at least 1 is never hidden by float rounding), so integers of any
 *   size keep their exactness.
 * - significant_digits is deepdiff's number_to_string: "{:.Nf}".format(round(x, N)), with zero
 *   shown unsigned; glibc's correctly rounded printf gives Python's digits.
 * - Keys for hashing: equal numbers get equal keys ("i" + exact integer digits for integral
 *   values, "f" + the hex of other doubles).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "diff/diff_int.h"
#include "util/banned.h"

bool assay_diff__is_num(const assay_value *v)
{
	return v->kind == ASSAY_V_BOOL || v->kind == ASSAY_V_INT || v->kind == ASSAY_V_BIGINT ||
	       v->kind == ASSAY_V_REAL;
}

static bool is_intlike(const assay_value *v)
{
	return v->kind == ASSAY_V_BOOL || v->kind == ASSAY_V_INT || v->kind == ASSAY_V_BIGINT;
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

static long double as_ld(const assay_value *v)
{
	switch (v->kind) {
	case ASSAY_V_BOOL: return v->u.b;
	case ASSAY_V_INT: return (long double)v->u.i;
	case ASSAY_V_REAL: return v->u.d;
	default: return (long double)assay_value_number(v);
	}
}

static void fixed(char *buf, size_t size, const assay_value *v, int digits)
{
	double d = v->kind == ASSAY_V_REAL ? v->u.d : (double)as_ld(v);
	bool zero = true;

	snprintf(buf, size, "%.*f", digits, d);
	for (const char *p = buf; *p; p++)
		if (*p >= '1' && *p <= '9')
			zero = false;
	if (zero && buf[0] == '-')
		memmove(buf, buf + 1, strlen(buf));
}

void assay_diff__num_fixed(assay_buf *out, const assay_value *v, int digits)
{
	char buf[512];

	fixed(buf, sizeof(buf), v, digits);
	assay_buf_adds(out, buf);
}

bool assay_diff__num_close(const assay_diff_opts *o, const assay_value *x, const assay_value *y)
{
	long double a, b, diff, tol, mag;

	if (o->significant_digits >= 0) {
		char bx[512], by[512];

		fixed(bx, sizeof(bx), x, o->significant_digits);
		fixed(by, sizeof(by), y, o->significant_digits);
		return !strcmp(bx, by);
	}
	if (assay_diff__num_eq(x, y))
		return true;
	if (!(o->abs_tol > 0) && !(o->rel_tol > 0))
		return false;
	a = as_ld(x);
	b = as_ld(y);
	if (isnan(a) || isnan(b) || isinf(a) || isinf(b))
		return false;
	if (is_intlike(x) && is_intlike(y)) {
		if (x->kind != ASSAY_V_BIGINT && y->kind != ASSAY_V_BIGINT) {
			int64_t i = int_of(x), j = int_of(y);

			/* exact magnitude in 64 bits, whatever long double's precision */
			diff = (long double)(i > j ? (uint64_t)i - (uint64_t)j
						   : (uint64_t)j - (uint64_t)i);
		} else {
			/* distinct integers are at least 1 apart, whatever long double says */
			diff = fabsl(a - b);
			if (diff < 1)
				diff = 1;
		}
	} else {
		diff = fabsl(a - b);
	}
	mag = fabsl(a) > fabsl(b) ? fabsl(a) : fabsl(b);
	tol = (long double)o->rel_tol * mag;
	if (tol < (long double)o->abs_tol)
		tol = o->abs_tol;
	return diff <= tol;
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
