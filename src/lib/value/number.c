/*
 * Numbers as Python reads and writes them (value.h: assay_format_double, assay_parse_double).
 *
 * Key decisions:
 * - The digits come from libdouble-conversion's shortest mode (number_dc.cc): the same digits
 *   as Python's repr, which uses David Gay's dtoa in mode 0 (shortest round-trip).
 * - The layout is CPython's format_float_short for repr ('r' with Py_DTSF_ADD_DOT_0): with the
 *   decimal point after `point` digits, positional notation when -4 < point <= 16, else
 *   d.ddde[+-]XX with at least two exponent digits; a '.0' is added to integral values.
 * - Reading: short literals of at most 15 significant digits with a power of ten up to 10^22
 *   are computed exactly in one multiplication or division (Clinger's fast path: both operands
 *   are exact doubles, so the result is correctly rounded); everything else goes to
 *   libdouble-conversion, which is correctly rounded and ignores the locale.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "assay/value.h"
#include "value/value_int.h"
#include "util/banned.h"

size_t assay_format_double(char buf[ASSAY_DOUBLE_BUFSIZE], double d)
{
	char digits[18];
	int len = 0, point = 0;
	size_t o = 0;

	if (isnan(d)) {
		memcpy(buf, "nan", 4);
		return 3;
	}
	if (isinf(d)) {
		memcpy(buf, d < 0 ? "-inf" : "inf", d < 0 ? 5 : 4);
		return d < 0 ? 4 : 3;
	}
	if (signbit(d)) {
		buf[o++] = '-';
		d = -d;
	}
	assay_value__shortest(d, digits, &len, &point);
	if (point > -4 && point <= 16) {
		if (point <= 0) {
			buf[o++] = '0';
			buf[o++] = '.';
			for (int k = 0; k < -point; k++)
				buf[o++] = '0';
			memcpy(buf + o, digits, (size_t)len);
			o += (size_t)len;
		} else if (point < len) {
			memcpy(buf + o, digits, (size_t)point);
			o += (size_t)point;
			buf[o++] = '.';
			memcpy(buf + o, digits + point, (size_t)(len - point));
			o += (size_t)(len - point);
		} else {
			memcpy(buf + o, digits, (size_t)len);
			o += (size_t)len;
			for (int k = len; k < point; k++)
				buf[o++] = '0';
			buf[o++] = '.';
			buf[o++] = '0';
		}
	} else {
		int e = point - 1;

		buf[o++] = digits[0];
		if (len > 1) {
			buf[o++] = '.';
			memcpy(buf + o, digits + 1, (size_t)(len - 1));
			o += (size_t)(len - 1);
		}
		buf[o++] = 'e';
		buf[o++] = e < 0 ? '-' : '+';
		if (e < 0)
			e = -e;
		if (e >= 100)
			buf[o++] = (char)('0' + e / 100);
		buf[o++] = (char)('0' + e / 10 % 10);
		buf[o++] = (char)('0' + e % 10);
	}
	buf[o] = '\0';
	return o;
}

static const double pow10_exact[23] = {
	1e0,  1e1,  1e2,  1e3,	1e4,  1e5,  1e6,  1e7,	1e8,  1e9,  1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

double assay_parse_double(const char *text, size_t len)
{
	size_t i = 0;
	bool neg = false;
	uint64_t mant = 0;
	int digits = 0, frac = 0, exp = 0;

	if (i < len && (text[i] == '-' || text[i] == '+'))
		neg = text[i++] == '-';
	for (; i < len && text[i] >= '0' && text[i] <= '9'; i++) {
		if (digits || text[i] != '0')
			digits++;
		mant = mant * 10 + (uint64_t)(text[i] - '0');
		if (digits > 15)
			goto slow;
	}
	if (i < len && text[i] == '.') {
		for (i++; i < len && text[i] >= '0' && text[i] <= '9'; i++) {
			if (digits || text[i] != '0')
				digits++;
			mant = mant * 10 + (uint64_t)(text[i] - '0');
			frac++;
			if (digits > 15)
				goto slow;
		}
	}
	if (i < len && (text[i] == 'e' || text[i] == 'E')) {
		bool eneg = false;
		int e = 0;

		i++;
		if (i < len && (text[i] == '-' || text[i] == '+'))
			eneg = text[i++] == '-';
		for (; i < len && text[i] >= '0' && text[i] <= '9'; i++) {
			e = e * 10 + (text[i] - '0');
			if (e > 1000)
				goto slow;
		}
		exp = eneg ? -e : e;
	}
	if (i != len)
		goto slow;
	exp -= frac;
	if (exp >= -22 && exp <= 22) {
		double v = (double)mant;

		v = exp < 0 ? v / pow10_exact[-exp] : v * pow10_exact[exp];
		return neg ? -v : v;
	}
slow:
	if (len > INT32_MAX)
		len = INT32_MAX;
	return assay_value__strtod(text, (int)len);
}
