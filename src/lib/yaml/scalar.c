/*
 * What a YAML scalar means: PyYAML's YAML 1.1 implicit resolver (the regular expressions in
 * yaml/resolver.py, matched here by hand, first character first) and its SafeConstructor's
 * conversions (construct_yaml_int/float/bool).
 *
 * Key decisions:
 * - Implicit resolution happens exactly when libyaml says plain_implicit, which is PyYAML's
 *   implicit[0]: an untagged plain scalar, or any scalar tagged with the non-specific "!" (so
 *   `! "12"` is the integer 12, as in PyYAML).
 * - Integers are converted digit by digit; past int64 they become bignums (json.h) holding the
 *   decimal literal, also for 0x, 0b, octal and sexagesimal spellings. `0b_` and `0x_` match
 *   PyYAML's int pattern but make its constructor raise, so they are errors here too.
 * - Reals are converted with strtod (correctly rounded, like Python's float()), with '.' mapped
 *   to the locale's decimal point. jansson cannot hold NaN or infinities: `.nan`, `.inf` and
 *   `-.inf` become the bignums NaN, Infinity and -Infinity (Python's json spellings); a finite
 *   literal too large for a double becomes a bignum holding it as a JSON literal.
 * - Explicit !!int accepts what the int pattern accepts; !!float what the float or int patterns
 *   or Python's float() (e.g. `1e3`) accept; !!bool yes/no/true/false/on/off in any case; !!null
 *   only the null spellings (PyYAML turns anything into None; here that is an error).
 *
 * Refuses: timestamps stay strings (JSON has no dates); an explicit !!int is not as lenient as
 * Python's int() (`!!int 0o17` is an error, not 15); `=` and a plain `<<` outside key position
 * are strings, where PyYAML's SafeLoader fails for want of a constructor.
 */
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/common.h"
#include "assay/json.h"
#include "yaml/yaml_int.h"
#include "util/banned.h"

#define TAG_PREFIX "tag:yaml.org,2002:"
#define TAG_PREFIX_LEN (sizeof(TAG_PREFIX) - 1)

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int hex_value(char c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return c - 'A' + 10;
}

static bool equals(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && !memcmp(s, lit, n);
}

static bool equals_any(const char *s, size_t n, const char *const *lits)
{
	for (; *lits; lits++)
		if (equals(s, n, *lits))
			return true;
	return false;
}

static bool equals_nocase(const char *s, size_t n, const char *lit)
{
	if (strlen(lit) != n)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i];
		if (c != lit[i])
			return false;
	}
	return true;
}

/* ~ | null | Null | NULL | (empty) */
static bool match_null(const char *s, size_t n)
{
	static const char *const lits[] = { "~", "null", "Null", "NULL", NULL };

	return n == 0 || equals_any(s, n, lits);
}

/* -1: not a boolean, else its value */
static int match_bool(const char *s, size_t n)
{
	static const char *const yes[] = { "yes", "Yes", "YES", "true", "True", "TRUE",
					   "on",  "On",  "ON",  NULL };
	static const char *const no[] = { "no",    "No",    "NO",  "false", "False", "FALSE",
					  "off",   "Off",   "OFF", NULL };

	if (equals_any(s, n, yes))
		return 1;
	if (equals_any(s, n, no))
		return 0;
	return -1;
}

/* Skips `[0-9_]*` from `i`. */
static size_t skip_digits_(const char *s, size_t i, size_t n)
{
	while (i < n && (is_digit(s[i]) || s[i] == '_'))
		i++;
	return i;
}

/*
 * Matches `(:[0-5]?[0-9])+` from `i` (which must be at ':'), greedily: taking two digits is never
 * wrong, since what follows a group can only be ':', '.' or the end. Returns the end, or 0.
 */
static size_t match_sexagesimal_tail(const char *s, size_t i, size_t n)
{
	size_t groups = 0;

	while (i < n && s[i] == ':') {
		i++;
		if (i >= n || !is_digit(s[i]))
			return 0;
		if (s[i] <= '5' && i + 1 < n && is_digit(s[i + 1]))
			i += 2;
		else
			i++;
		groups++;
	}
	return groups ? i : 0;
}

/*
 * [-+]?0b[0-1_]+ | [-+]?0[0-7_]+ | [-+]?(0|[1-9][0-9_]*) | [-+]?0x[0-9a-fA-F_]+
 * | [-+]?[1-9][0-9_]*(:[0-5]?[0-9])+
 */
static bool match_int(const char *s, size_t n)
{
	size_t i = 0;

	if (i < n && (s[i] == '-' || s[i] == '+'))
		i++;
	if (i >= n)
		return false;
	if (s[i] == '0') {
		i++;
		if (i == n)
			return true;
		if (s[i] == 'b' || s[i] == 'x') {
			bool hex = s[i] == 'x';
			if (++i == n)
				return false;
			for (; i < n; i++) {
				bool ok = hex ? is_hex(s[i]) : s[i] == '0' || s[i] == '1';
				if (!ok && s[i] != '_')
					return false;
			}
			return true;
		}
		for (; i < n; i++)
			if (!((s[i] >= '0' && s[i] <= '7') || s[i] == '_'))
				return false;
		return true;
	}
	if (s[i] < '1' || s[i] > '9')
		return false;
	i = skip_digits_(s, i + 1, n);
	if (i == n)
		return true;
	return match_sexagesimal_tail(s, i, n) == n;
}

/* ([eE][-+][0-9]+)? up to the end, from `i`. */
static bool match_exponent_end(const char *s, size_t i, size_t n)
{
	if (i == n)
		return true;
	if (s[i] != 'e' && s[i] != 'E')
		return false;
	i++;
	if (i >= n || (s[i] != '-' && s[i] != '+'))
		return false;
	i++;
	if (i >= n)
		return false;
	for (; i < n; i++)
		if (!is_digit(s[i]))
			return false;
	return true;
}

/*
 * [-+]?[0-9][0-9_]*\.[0-9_]*([eE][-+][0-9]+)? | \.[0-9][0-9_]*([eE][-+][0-9]+)?
 * | [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]* | [-+]?\.(inf|Inf|INF) | \.(nan|NaN|NAN)
 */
static bool match_float(const char *s, size_t n)
{
	static const char *const nans[] = { ".nan", ".NaN", ".NAN", NULL };
	static const char *const infs[] = { ".inf", ".Inf", ".INF", NULL };
	size_t i = 0;
	bool sign = false;

	if (equals_any(s, n, nans))
		return true;
	if (i < n && (s[i] == '-' || s[i] == '+')) {
		i++;
		sign = true;
	}
	if (equals_any(s + i, n - i, infs))
		return true;
	if (i >= n)
		return false;
	if (s[i] == '.') {
		if (sign || i + 1 >= n || !is_digit(s[i + 1]))
			return false;
		return match_exponent_end(s, skip_digits_(s, i + 1, n), n);
	}
	if (!is_digit(s[i]))
		return false;
	i = skip_digits_(s, i + 1, n);
	if (i < n && s[i] == '.')
		return match_exponent_end(s, skip_digits_(s, i + 1, n), n);
	if (i < n && s[i] == ':') {
		i = match_sexagesimal_tail(s, i, n);
		if (!i || i >= n || s[i] != '.')
			return false;
		return skip_digits_(s, i + 1, n) == n;
	}
	return false;
}

/* Python's float() grammar on text without '_' and in lower case (for explicit !!float). */
static bool match_python_float(const char *s, size_t n)
{
	static const char *const words[] = { "inf", "infinity", "nan", ".inf", ".nan", NULL };
	size_t i = 0, digits = 0;

	if (i < n && (s[i] == '-' || s[i] == '+'))
		i++;
	if (equals_any(s + i, n - i, words))
		return true;
	for (; i < n && is_digit(s[i]); i++)
		digits++;
	if (i < n && s[i] == '.')
		for (i++; i < n && is_digit(s[i]); i++)
			digits++;
	if (!digits)
		return false;
	if (i < n && s[i] == 'e') {
		i++;
		if (i < n && (s[i] == '-' || s[i] == '+'))
			i++;
		if (i >= n || !is_digit(s[i]))
			return false;
		while (i < n && is_digit(s[i]))
			i++;
	}
	return i == n;
}

/* `s` without '_', in lower case; NUL-terminated; the caller frees. */
static char *clean_copy(const char *s, size_t n, size_t *len)
{
	char *p = assay_xmalloc(n + 1);
	size_t j = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '_')
			continue;
		p[j++] = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i];
	}
	p[j] = '\0';
	*len = j;
	return p;
}

/* An int pattern match that PyYAML's constructor can convert: not `0b_`, `-0x__`. */
static bool int_convertible(const char *s, size_t n)
{
	size_t i = 0;

	if (i < n && (s[i] == '-' || s[i] == '+'))
		i++;
	if (n - i < 2 || s[i] != '0' || (s[i + 1] != 'b' && s[i + 1] != 'x'))
		return true;
	for (i += 2; i < n; i++)
		if (s[i] != '_')
			return true;
	return false;
}

void assay_yaml__snippet(char *out, size_t size, const char *s, size_t n)
{
	size_t max = 60, j = 0, i = 0;

	if (!size)
		return;
	if (size < 5) {
		out[0] = '\0';
		return;
	}
	if (max > size - 4)
		max = size - 4;
	for (; i < n && j < max; i++) {
		unsigned char c = (unsigned char)s[i];
		/* stop before a multi-byte sequence that would not fit */
		if (c >= 0xC0 && j + (c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2) > max)
			break;
		out[j++] = c < 0x20 || c == 0x7F ? '?' : (char)c;
	}
	if (i < n) {
		while (j > 0 && ((unsigned char)out[j - 1] & 0xC0) == 0x80)
			j--;
		if (j > 0 && (unsigned char)out[j - 1] >= 0xC0)
			j--;
		memcpy(out + j, "...", 3);
		j += 3;
	}
	out[j] = '\0';
}

static int bad_content(char *msg, size_t size, const char *what, const char *s, size_t n)
{
	char snip[80];

	assay_yaml__snippet(snip, sizeof(snip), s, n);
	snprintf(msg, size, "invalid %s '%s'", what, snip);
	return -1;
}

static int resolve_implicit(const char *s, size_t n, char *msg, size_t msgsize)
{
	int b;

	if (n == 0)
		return YAML_KIND_NULL;
	switch (s[0]) {
	case '~': case 'n': case 'N':
		if (match_null(s, n))
			return YAML_KIND_NULL;
		break;
	case '<':
		if (equals(s, n, "<<"))
			return YAML_KIND_MERGE;
		return YAML_KIND_STR;
	case '-': case '+': case '.':
	case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		if (match_float(s, n))
			return YAML_KIND_FLOAT;
		if (match_int(s, n)) {
			if (!int_convertible(s, n))
				return bad_content(msg, msgsize, "integer", s, n);
			return YAML_KIND_INT;
		}
		return YAML_KIND_STR;
	}
	switch (s[0]) {
	case 'y': case 'Y': case 'n': case 'N': case 't': case 'T':
	case 'f': case 'F': case 'o': case 'O':
		b = match_bool(s, n);
		if (b >= 0)
			return b ? YAML_KIND_TRUE : YAML_KIND_FALSE;
		break;
	}
	return YAML_KIND_STR;
}

static int resolve_tagged(const char *name, bool plain, const char *s, size_t n, char *msg,
			  size_t msgsize)
{
	static const char *const strs[] = { "str", "binary", "timestamp", "value", NULL };
	static const char *const colls[] = { "map", "seq", "omap", "pairs", "set", NULL };
	size_t nlen = strlen(name);

	if (equals_any(name, nlen, strs))
		return YAML_KIND_STR;
	if (!strcmp(name, "merge"))
		return YAML_KIND_MERGE;
	if (!strcmp(name, "null")) {
		if (!match_null(s, n))
			return bad_content(msg, msgsize, "!!null value", s, n);
		return YAML_KIND_NULL;
	}
	if (!strcmp(name, "bool")) {
		if (equals_nocase(s, n, "yes") || equals_nocase(s, n, "true") ||
		    equals_nocase(s, n, "on"))
			return YAML_KIND_TRUE;
		if (equals_nocase(s, n, "no") || equals_nocase(s, n, "false") ||
		    equals_nocase(s, n, "off"))
			return YAML_KIND_FALSE;
		return bad_content(msg, msgsize, "!!bool value", s, n);
	}
	if (!strcmp(name, "int")) {
		if (!match_int(s, n) || !int_convertible(s, n))
			return bad_content(msg, msgsize, "!!int value", s, n);
		return YAML_KIND_INT;
	}
	if (!strcmp(name, "float")) {
		size_t clen;
		char *c = clean_copy(s, n, &clen);
		bool ok = match_float(s, n) || match_python_float(c, clen) ||
			  (memchr(s, ':', n) && match_int(s, n));
		free(c);
		if (!ok)
			return bad_content(msg, msgsize, "!!float value", s, n);
		return YAML_KIND_FLOAT;
	}
	if (equals_any(name, nlen, colls)) {
		snprintf(msg, msgsize, "!!%s cannot tag a scalar", name);
		return -1;
	}
	/* a core tag PyYAML does not know either: resolve as if untagged */
	return plain ? resolve_implicit(s, n, msg, msgsize) : YAML_KIND_STR;
}

int assay_yaml__classify(const char *tag, bool implicit, bool plain, const char *s, size_t n,
			 char *msg, size_t msgsize)
{
	if (implicit)
		return resolve_implicit(s, n, msg, msgsize);
	if (!tag)
		return YAML_KIND_STR;
	if (!strncmp(tag, TAG_PREFIX, TAG_PREFIX_LEN))
		return resolve_tagged(tag + TAG_PREFIX_LEN, plain, s, n, msg, msgsize);
	/* a local or foreign tag: ignored */
	return plain ? resolve_implicit(s, n, msg, msgsize) : YAML_KIND_STR;
}

/* ---- numbers ---- */

static json_t *bignum(const char *lit)
{
	return assay_json_bignum(lit);
}

/*
 * An accumulator for n = n * mul + add: 64 bits while it fits, then base-1e9 limbs (little
 * endian) sized from the text length, which bounds the value (every spelling takes at least one
 * character per factor of 16).
 */
struct acc {
	uint64_t v;
	uint32_t *limb;
	size_t nlimb, cap;
};

#define LIMB_BASE 1000000000u

static void limbs_muladd(struct acc *a, uint32_t mul, uint32_t add)
{
	uint64_t carry = add;

	for (size_t i = 0; i < a->nlimb; i++) {
		uint64_t t = (uint64_t)a->limb[i] * mul + carry;
		a->limb[i] = (uint32_t)(t % LIMB_BASE);
		carry = t / LIMB_BASE;
	}
	while (carry) {
		ASSAY_ASSERT(a->nlimb < a->cap);
		a->limb[a->nlimb++] = (uint32_t)(carry % LIMB_BASE);
		carry /= LIMB_BASE;
	}
}

static void acc_step(struct acc *a, uint32_t mul, uint32_t add)
{
	if (!a->limb) {
		uint64_t t;
		if (!__builtin_mul_overflow(a->v, (uint64_t)mul, &t) &&
		    !__builtin_add_overflow(t, (uint64_t)add, &t)) {
			a->v = t;
			return;
		}
		a->limb = assay_xmalloc(a->cap * sizeof(*a->limb));
		for (uint64_t v = a->v; v; v /= LIMB_BASE)
			a->limb[a->nlimb++] = (uint32_t)(v % LIMB_BASE);
	}
	limbs_muladd(a, mul, add);
}

static json_t *acc_value(struct acc *a, bool neg)
{
	if (!a->limb) {
		if (a->v <= (uint64_t)INT64_MAX)
			return json_integer(neg ? -(json_int_t)a->v : (json_int_t)a->v);
		if (neg && a->v == (uint64_t)INT64_MAX + 1)
			return json_integer(INT64_MIN);
		char lit[32];
		snprintf(lit, sizeof(lit), "%s%llu", neg ? "-" : "", (unsigned long long)a->v);
		return bignum(lit);
	}
	char *lit = assay_xmalloc(a->nlimb * 9 + 2), *p = lit;
	size_t room = a->nlimb * 9 + 2;
	int w = snprintf(p, room, "%s%u", neg ? "-" : "", a->limb[a->nlimb - 1]);
	for (size_t i = a->nlimb - 1; i-- > 0;) {
		p += w;
		room -= (size_t)w;
		w = snprintf(p, room, "%09u", a->limb[i]);
	}
	json_t *v = bignum(lit);
	free(lit);
	return v;
}

/* PyYAML's construct_yaml_int, on text that matched the int pattern. */
static json_t *int_value(const char *s, size_t n)
{
	struct acc a = { 0, NULL, 0, 2 * n / 9 + 3 };
	size_t i = 0;
	bool neg = false;

	if (s[i] == '-' || s[i] == '+')
		neg = s[i++] == '-';
	if (n - i >= 2 && s[i] == '0' && (s[i + 1] == 'b' || s[i + 1] == 'x')) {
		uint32_t base = s[i + 1] == 'b' ? 2 : 16;
		for (i += 2; i < n; i++)
			if (s[i] != '_')
				acc_step(&a, base, (uint32_t)hex_value(s[i]));
	} else if (s[i] == '0') {
		for (; i < n; i++)
			if (s[i] != '_')
				acc_step(&a, 8, (uint32_t)(s[i] - '0'));
	} else {
		/* decimal, or sexagesimal: the first part in base 10, then base-60 digits */
		for (; i < n && s[i] != ':'; i++)
			if (s[i] != '_')
				acc_step(&a, 10, (uint32_t)(s[i] - '0'));
		while (i < n) {
			uint32_t d = 0;
			for (i++; i < n && s[i] != ':'; i++)
				d = d * 10 + (uint32_t)(s[i] - '0');
			acc_step(&a, 60, d);
		}
	}
	json_t *v = acc_value(&a, neg);
	free(a.limb);
	return v;
}

/* strtod in the C locale's notation, whatever the process locale is. */
static double c_strtod(char *s)
{
	const char *dp = localeconv()->decimal_point;

	if (dp && dp[0] && dp[0] != '.' && !dp[1]) {
		char *dot = strchr(s, '.');
		if (dot)
			*dot = dp[0];
	}
	return strtod(s, NULL);
}

/* `c` (clean, unsigned, finite, too big) as a JSON number literal: "1." -> "1.0", ".5" -> "0.5" */
static json_t *real_literal(const char *c, size_t n, bool neg)
{
	assay_buf b = ASSAY_BUF_INIT;
	size_t i = 0;

	if (neg)
		assay_buf_addch(&b, '-');
	while (i + 1 < n && c[i] == '0' && is_digit(c[i + 1]))
		i++;
	size_t start = i;
	while (i < n && is_digit(c[i]))
		i++;
	if (i == start)
		assay_buf_addch(&b, '0');
	else
		assay_buf_add(&b, c + start, i - start);
	if (i < n && c[i] == '.') {
		start = ++i;
		while (i < n && is_digit(c[i]))
			i++;
		assay_buf_addch(&b, '.');
		if (i == start)
			assay_buf_addch(&b, '0');
		else
			assay_buf_add(&b, c + start, i - start);
	}
	if (i < n)
		assay_buf_add(&b, c + i, n - i); /* e[+-]digits */
	json_t *v = bignum(b.ptr);
	assay_buf_release(&b);
	return v;
}

static json_t *special_real(double d)
{
	if (isnan(d))
		return bignum("NaN");
	if (isinf(d))
		return bignum(d > 0 ? "Infinity" : "-Infinity");
	return json_real(d);
}

/* PyYAML's construct_yaml_float. */
static json_t *float_value(const char *s, size_t n)
{
	size_t len;
	char *c = clean_copy(s, n, &len), *p = c;
	bool neg = false;
	json_t *v;

	if (*p == '-' || *p == '+') {
		neg = *p++ == '-';
		len--;
	}
	if (!strcmp(p, ".inf") || !strcmp(p, "inf") || !strcmp(p, "infinity")) {
		v = bignum(neg ? "-Infinity" : "Infinity");
	} else if (!strcmp(p, ".nan") || !strcmp(p, "nan")) {
		v = bignum("NaN");
	} else if (strchr(p, ':')) {
		/* as Python: parts as floats, summed from the last with growing powers of 60 */
		double sum = 0.0, base = 1.0;
		char *end = p + len;
		while (end > p) {
			char *colon = end;
			while (colon > p && colon[-1] != ':')
				colon--;
			*end = '\0';
			sum += c_strtod(colon) * base;
			base *= 60;
			end = colon > p ? colon - 1 : p;
		}
		v = special_real(neg ? -sum : sum);
	} else {
		double d = c_strtod(p);
		if (isinf(d))
			v = real_literal(p, len, neg);
		else
			v = json_real(neg ? -d : d);
	}
	free(c);
	return v;
}

json_t *assay_yaml__value(int kind, const char *s, size_t n)
{
	switch (kind) {
	case YAML_KIND_NULL: return json_null();
	case YAML_KIND_TRUE: return json_true();
	case YAML_KIND_FALSE: return json_false();
	case YAML_KIND_INT: return int_value(s, n);
	case YAML_KIND_FLOAT: return float_value(s, n);
	}
	return json_stringn(s, n);
}
