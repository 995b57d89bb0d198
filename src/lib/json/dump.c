/*
 * assay_json_dump: JSON text in the shape Python's json.dumps writes, so that diffs and reports
 * read the same as those of the Python harnesses.
 *
 * Key decisions:
 * - Our own writer, not json_dumps: bignums must come out as bare literals and reals in Python's
 *   repr form, which jansson does not do.
 * - Compact form uses Python's default separators ", " and ": " ({"a": 1, "b": [1, 2]});
 *   ASSAY_JSON_PRETTY indents by 2 with "," and ": " (json.dumps(indent=2)); empty containers
 *   are always "[]" and "{}".
 * - Reals: the shortest of 15, 16 or 17 significant digits that reads back to the same double,
 *   laid out as Python's repr: positional when the decimal exponent is in [-4, 16), with ".0"
 *   when integral (1.0, 123.0, 0.0001, 1e+16, 1.5e-05); NaN, Infinity and -Infinity as
 *   Python's json writes them (jansson cannot hold those, but the writer does not assume it).
 * - Strings: \" \\ \n \r \t \b \f escaped, other control characters as \u00xx (lower-case hex,
 *   as Python), everything else (non-ASCII included) as the UTF-8 it is (ensure_ascii=False).
 * - Object keys keep insertion order unless ASSAY_JSON_SORT_KEYS (byte order, which is code
 *   point order for UTF-8, as Python's sort_keys).
 *
 * Refuses to: escape non-ASCII, or write anything but JSON text.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json_int.h"
#include "util/banned.h"

static void dump_string(assay_buf *out, const char *s, size_t len)
{
	size_t start = 0;

	assay_buf_addch(out, '"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *esc = NULL;
		char hex[8];

		switch (c) {
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '\n': esc = "\\n"; break;
		case '\r': esc = "\\r"; break;
		case '\t': esc = "\\t"; break;
		case '\b': esc = "\\b"; break;
		case '\f': esc = "\\f"; break;
		default:
			if (c < 0x20) {
				snprintf(hex, sizeof(hex), "\\u%04x", c);
				esc = hex;
			}
			break;
		}
		if (!esc)
			continue;
		assay_buf_add(out, s + start, i - start);
		assay_buf_adds(out, esc);
		start = i + 1;
	}
	assay_buf_add(out, s + start, len - start);
	assay_buf_addch(out, '"');
}

/* Python's float repr (the 'r' format of PyOS_double_to_string). */
static void dump_real(assay_buf *out, double d)
{
	char buf[64], digits[32];
	size_t nd = 0;
	int prec, exp10, decpt;
	const char *p;
	bool neg;

	if (isnan(d)) {
		assay_buf_adds(out, "NaN");
		return;
	}
	if (isinf(d)) {
		assay_buf_adds(out, d > 0 ? "Infinity" : "-Infinity");
		return;
	}
	/*
	 * For normal doubles, 15 digits always read back when a shorter form exists (DBL_DIG), so
	 * trying 15, 16, then 17 finds the shortest; subnormals hold fewer digits: try them all.
	 */
	for (prec = fabs(d) < DBL_MIN && d != 0 ? 0 : 14; prec < 16; prec++) {
		snprintf(buf, sizeof(buf), "%.*e", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	if (prec == 16)
		snprintf(buf, sizeof(buf), "%.*e", prec, d);
	neg = buf[0] == '-';
	/* digits up to the 'e', skipping the (locale's) decimal point */
	for (p = buf; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9' && nd < sizeof(digits) - 1)
			digits[nd++] = *p;
	exp10 = *p == 'e' ? (int)strtol(p + 1, NULL, 10) : 0;
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = '\0';
	decpt = exp10 + 1;
	if (neg)
		assay_buf_addch(out, '-');
	if (decpt > -4 && decpt <= 16) {
		if (decpt <= 0) {
			assay_buf_adds(out, "0.");
			for (int k = 0; k < -decpt; k++)
				assay_buf_addch(out, '0');
			assay_buf_add(out, digits, nd);
		} else if ((size_t)decpt >= nd) {
			assay_buf_add(out, digits, nd);
			for (size_t k = nd; k < (size_t)decpt; k++)
				assay_buf_addch(out, '0');
			assay_buf_adds(out, ".0");
		} else {
			assay_buf_add(out, digits, (size_t)decpt);
			assay_buf_addch(out, '.');
			assay_buf_add(out, digits + decpt, nd - (size_t)decpt);
		}
		return;
	}
	assay_buf_addch(out, digits[0]);
	if (nd > 1) {
		assay_buf_addch(out, '.');
		assay_buf_add(out, digits + 1, nd - 1);
	}
	assay_buf_addf(out, "e%c%02d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
}

static void newline(assay_buf *out, int flags, int depth)
{
	if (!(flags & ASSAY_JSON_PRETTY))
		return;
	assay_buf_addch(out, '\n');
	for (int k = 0; k < depth; k++)
		assay_buf_adds(out, "  ");
}

static void dump_value(assay_buf *out, const json_t *v, int flags, int depth);

static void dump_object(assay_buf *out, const json_t *v, int flags, int depth)
{
	size_t n, i;
	struct assay_json__member *m;

	if (!json_object_size(v)) {
		assay_buf_adds(out, "{}");
		return;
	}
	m = assay_json__members(v, flags & ASSAY_JSON_SORT_KEYS, &n);
	assay_buf_addch(out, '{');
	for (i = 0; i < n; i++) {
		if (i)
			assay_buf_adds(out, flags & ASSAY_JSON_PRETTY ? "," : ", ");
		newline(out, flags, depth + 1);
		dump_string(out, m[i].key, m[i].len);
		assay_buf_adds(out, ": ");
		dump_value(out, m[i].value, flags, depth + 1);
	}
	newline(out, flags, depth);
	assay_buf_addch(out, '}');
	free(m);
}

static void dump_array(assay_buf *out, const json_t *v, int flags, int depth)
{
	size_t n = json_array_size(v);

	if (!n) {
		assay_buf_adds(out, "[]");
		return;
	}
	assay_buf_addch(out, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			assay_buf_adds(out, flags & ASSAY_JSON_PRETTY ? "," : ", ");
		newline(out, flags, depth + 1);
		dump_value(out, json_array_get(v, i), flags, depth + 1);
	}
	newline(out, flags, depth);
	assay_buf_addch(out, ']');
}

static void dump_value(assay_buf *out, const json_t *v, int flags, int depth)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		dump_object(out, v, flags, depth);
		break;
	case JSON_ARRAY:
		dump_array(out, v, flags, depth);
		break;
	case JSON_STRING:
		if (assay_json_is_bignum(v))
			assay_buf_add(out, json_string_value(v) + ASSAY_JSON_BIGNUM_MARK_LEN,
				      json_string_length(v) - ASSAY_JSON_BIGNUM_MARK_LEN);
		else
			dump_string(out, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		assay_buf_addf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		dump_real(out, json_real_value(v));
		break;
	case JSON_TRUE:
		assay_buf_adds(out, "true");
		break;
	case JSON_FALSE:
		assay_buf_adds(out, "false");
		break;
	case JSON_NULL:
		assay_buf_adds(out, "null");
		break;
	}
}

void assay_json_dump(assay_buf *out, const json_t *v, int flags)
{
	if (!v) {
		assay_buf_adds(out, "null");
		return;
	}
	dump_value(out, v, flags, 0);
}
