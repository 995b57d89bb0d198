/*
 * What a YAML scalar means: PyYAML's YAML 1.1 implicit resolver (the regular expressions in
 * yaml/resolver.py, matched here by hand, first character first) and its SafeConstructor's
 * conversions (construct_yaml_int/float/bool/timestamp in yaml/constructor.py, PyYAML 6.0).
 *
 * Key decisions:
 * - Implicit resolution happens exactly when libyaml says plain_implicit, which is PyYAML's
 *   implicit[0]: an untagged plain scalar, or any scalar tagged with the non-specific "!" (so
 *   `! "12"` is the integer 12, as in PyYAML).
 * - Integers are exact: decimal text goes to assay_value_integer_text; 0x, 0b, 0-octal and
 *   sexagesimal spellings are accumulated in 64 bits, then in base-1e9 limbs, and written out
 *   in decimal (a bigint past int64). `0b_` and `0x_` match PyYAML's int pattern but make its
 *   constructor raise, so they are errors here too. So is an integer of more than 4300 decimal
 *   digits: Python's int() refuses such decimal text (int_max_str_digits), and could not write
 *   any such value back in decimal; the limit also bounds the quadratic base conversion.
 * - Reals follow construct_yaml_float: '_' dropped, lower case, sign taken off; `.inf`/`.nan`
 *   (and Python's `inf`, `infinity`, `nan` for an explicit !!float) are the reals inf and NaN;
 *   anything else is rewritten as a plain decimal literal (`.5` -> 0.5, `1.` -> 1.0) and read
 *   by assay_parse_double, correctly rounded as Python's float() (1.0e+999 is inf). A
 *   sexagesimal real (`1:30.5`) sums float(part) * 60**k from the last part as Python does,
 *   with 60**k rounded once from the exact integer (Python converts the int operand), and is an
 *   error once 60**k is past the largest double (Python's OverflowError).
 * - Timestamps (only when asked): the resolver's pattern picks them (`2001-12-14`, or a date
 *   and time with optional fraction and offset), the constructor's pattern reads them (it also
 *   takes one-digit months and days, for an explicit !!timestamp), and Python's datetime rules
 *   check them (year 1..9999, real days, hour < 24, offset under 24 hours). The text is what
 *   isoformat() prints for PyYAML's object (PyYAML >= 5.3 keeps the offset): `2001-12-14`,
 *   `2001-12-14T21:59:43.100000-05:00` (`Z` is `+00:00`; the fraction is cut to 6 digits, and
 *   left out when 0), and without an offset a local date-time `2001-12-14T21:59:43`.
 * - Explicit !!int accepts what the int pattern accepts; !!float what the float or int patterns
 *   or Python's float() (e.g. `1e3`) accept; !!bool yes/no/true/false/on/off in any case; !!null
 *   only the null spellings (PyYAML turns anything into None; here that is an error).
 *
 * Refuses: an explicit !!int as lenient as Python's int() (`!!int 0o17` is an error, not 15);
 * `=` and a plain `<<` outside key position are strings, where PyYAML's SafeLoader fails for
 * want of a constructor. A scalar ending in a line break (possible only quoted, under `!`)
 * resolves as a string, although Python's `$` would let PyYAML's patterns match before it.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/buf.h"
#include "assay/common.h"
#include "yaml/yaml_int.h"
#include "util/banned.h"

#define TAG_PREFIX "tag:yaml.org,2002:"
#define TAG_PREFIX_LEN (sizeof(TAG_PREFIX) - 1)

/* Python's int_max_str_digits default: the most decimal digits an integer may have. */
#define PY_INT_MAX_DIGITS 4300

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

/*
 * Patterns
 */

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

/* The fields of a timestamp. */
struct stamp {
	int year, month, day;
	bool has_time;
	bool short_date; /* a one-digit month or day (the resolver wants two for a bare date) */
	int hour, minute, second, usec;
	int tz;          /* 0: no offset; '+' or '-': tz_hour, tz_minute; 'Z': UTC */
	int tz_hour, tz_minute;
};

/* Reads 1 to `max` digits at s[*i] into *val; false if there is none. */
static bool read_digits(const char *s, size_t n, size_t *i, size_t max, int *val)
{
	size_t k = 0;

	*val = 0;
	while (k < max && *i < n && is_digit(s[*i])) {
		*val = *val * 10 + (s[*i] - '0');
		(*i)++;
		k++;
	}
	return k > 0;
}

/* Exactly `count` digits. */
static bool read_fixed(const char *s, size_t n, size_t *i, size_t count, int *val)
{
	size_t start = *i;

	return read_digits(s, n, i, count, val) && *i - start == count;
}

/*
 * PyYAML's timestamp_regexp (constructor.py):
 *   [0-9]{4} -[0-9][0-9]? -[0-9][0-9]? ( ([Tt]|[ \t]+) [0-9][0-9]? :[0-9]{2} :[0-9]{2}
 *   (\.[0-9]*)? ([ \t]*(Z|[-+][0-9][0-9]?(:[0-9]{2})?))? )?
 * Every optional digit is taken greedily: what may follow it is never a digit, so backing off
 * could not make a match.
 */
static bool match_timestamp(const char *s, size_t n, struct stamp *t)
{
	size_t i = 0, start;

	memset(t, 0, sizeof(*t));
	if (!read_fixed(s, n, &i, 4, &t->year) || i >= n || s[i++] != '-')
		return false;
	start = i;
	if (!read_digits(s, n, &i, 2, &t->month) || i >= n || s[i++] != '-')
		return false;
	t->short_date = i - start < 3;
	start = i;
	if (!read_digits(s, n, &i, 2, &t->day))
		return false;
	t->short_date = t->short_date || i - start < 2;
	if (i == n)
		return true;
	if (s[i] == 'T' || s[i] == 't') {
		i++;
	} else if (s[i] == ' ' || s[i] == '\t') {
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
	} else {
		return false;
	}
	t->has_time = true;
	if (!read_digits(s, n, &i, 2, &t->hour) || i >= n || s[i++] != ':' ||
	    !read_fixed(s, n, &i, 2, &t->minute) || i >= n || s[i++] != ':' ||
	    !read_fixed(s, n, &i, 2, &t->second))
		return false;
	if (i < n && s[i] == '.') {
		int digits = 0;

		for (i++; i < n && is_digit(s[i]); i++)
			if (digits < 6) {
				t->usec = t->usec * 10 + (s[i] - '0');
				digits++;
			}
		for (; digits && digits < 6; digits++)
			t->usec *= 10;
	}
	size_t j = i;
	while (j < n && (s[j] == ' ' || s[j] == '\t'))
		j++;
	if (j < n && s[j] == 'Z') {
		t->tz = 'Z';
		i = j + 1;
	} else if (j < n && (s[j] == '+' || s[j] == '-')) {
		t->tz = s[j];
		i = j + 1;
		if (!read_digits(s, n, &i, 2, &t->tz_hour))
			return false;
		if (i < n && s[i] == ':') {
			i++;
			if (!read_fixed(s, n, &i, 2, &t->tz_minute))
				return false;
		}
	}
	return i == n;
}

/* `s` without '_', in lower case, into `b` (reset first). */
static void clean_copy(assay_buf *b, const char *s, size_t n)
{
	assay_buf_reset(b);
	assay_buf_grow(b, n);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '_')
			continue;
		assay_buf_addch(b, s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i]);
	}
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

/*
 * Resolution
 */

static int resolve_implicit(bool timestamps, const char *s, size_t n, char *msg, size_t msgsize)
{
	struct stamp t;
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
		/* PyYAML's order for these first characters: float, int, timestamp */
		if (match_float(s, n))
			return YAML_KIND_FLOAT;
		if (match_int(s, n)) {
			if (!int_convertible(s, n))
				return bad_content(msg, msgsize, "integer", s, n);
			return YAML_KIND_INT;
		}
		if (timestamps && match_timestamp(s, n, &t) && (t.has_time || !t.short_date))
			return YAML_KIND_TIMESTAMP;
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

static int resolve_tagged(const char *name, bool plain, bool timestamps, const char *s, size_t n,
			  char *msg, size_t msgsize)
{
	static const char *const strs[] = { "str", "binary", "value", NULL };
	static const char *const colls[] = { "map", "seq", "omap", "pairs", "set", NULL };
	size_t nlen = strlen(name);

	if (equals_any(name, nlen, strs))
		return YAML_KIND_STR;
	if (!strcmp(name, "timestamp")) {
		struct stamp t;

		if (!timestamps)
			return YAML_KIND_STR;
		if (!match_timestamp(s, n, &t))
			return bad_content(msg, msgsize, "!!timestamp value", s, n);
		return YAML_KIND_TIMESTAMP;
	}
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
		assay_buf c = ASSAY_BUF_INIT;
		bool ok;

		clean_copy(&c, s, n);
		ok = match_float(s, n) || match_python_float(c.ptr, c.len) ||
		     (memchr(s, ':', n) && match_int(s, n));
		assay_buf_release(&c);
		if (!ok)
			return bad_content(msg, msgsize, "!!float value", s, n);
		return YAML_KIND_FLOAT;
	}
	if (equals_any(name, nlen, colls)) {
		snprintf(msg, msgsize, "!!%s cannot tag a scalar", name);
		return -1;
	}
	/* a core tag PyYAML does not know either: resolve as if untagged */
	return plain ? resolve_implicit(timestamps, s, n, msg, msgsize) : YAML_KIND_STR;
}

int assay_yaml__classify(const struct assay_yaml__scalar *sc, bool timestamps, char *msg,
			 size_t msgsize)
{
	const char *tag = sc->tag, *s = sc->s;
	bool implicit = sc->implicit, plain = sc->plain;
	size_t n = sc->n;

	if (implicit)
		return resolve_implicit(timestamps, s, n, msg, msgsize);
	if (!tag)
		return YAML_KIND_STR;
	if (!strncmp(tag, TAG_PREFIX, TAG_PREFIX_LEN))
		return resolve_tagged(tag + TAG_PREFIX_LEN, plain, timestamps, s, n, msg,
				      msgsize);
	/* a local or foreign tag: ignored */
	return plain ? resolve_implicit(timestamps, s, n, msg, msgsize) : YAML_KIND_STR;
}

/*
 * Integers
 */

/* Base-1e9 limbs enough for PY_INT_MAX_DIGITS decimal digits, and one more to see it pass. */
#define LIMB_BASE 1000000000u
#define LIMBS_MAX ((PY_INT_MAX_DIGITS + 8) / 9 + 1)

/* An accumulator for v = v * mul + add: 64 bits while it fits, then limbs (little endian). */
struct acc {
	uint64_t v;
	bool big;
	size_t nlimb;
	uint32_t limb[LIMBS_MAX];
};

/* false once the value has more limbs than LIMBS_MAX (too many digits in any case) */
static bool acc_step(struct acc *a, uint32_t mul, uint32_t add)
{
	uint64_t carry = add;

	if (!a->big) {
		uint64_t t;

		if (!__builtin_mul_overflow(a->v, (uint64_t)mul, &t) &&
		    !__builtin_add_overflow(t, (uint64_t)add, &t)) {
			a->v = t;
			return true;
		}
		a->big = true;
		a->nlimb = 0;
		for (uint64_t v = a->v; v; v /= LIMB_BASE)
			a->limb[a->nlimb++] = (uint32_t)(v % LIMB_BASE);
	}
	for (size_t i = 0; i < a->nlimb; i++) {
		uint64_t t = (uint64_t)a->limb[i] * mul + carry;

		a->limb[i] = (uint32_t)(t % LIMB_BASE);
		carry = t / LIMB_BASE;
	}
	while (carry) {
		if (a->nlimb == LIMBS_MAX)
			return false;
		a->limb[a->nlimb++] = (uint32_t)(carry % LIMB_BASE);
		carry /= LIMB_BASE;
	}
	return true;
}

/* The accumulated value in decimal (with '-' if `neg`) into `b`; its digit count. */
static size_t acc_text(const struct acc *a, bool neg, assay_buf *b)
{
	size_t start;

	assay_buf_reset(b);
	if (neg)
		assay_buf_addch(b, '-');
	start = b->len;
	if (!a->big) {
		assay_buf_addf(b, "%llu", (unsigned long long)a->v);
	} else {
		assay_buf_addf(b, "%u", a->limb[a->nlimb - 1]);
		for (size_t i = a->nlimb - 1; i-- > 0;)
			assay_buf_addf(b, "%09u", a->limb[i]);
	}
	return b->len - start;
}

static int too_many_digits(char *msg, size_t size, const char *s, size_t n)
{
	char snip[80];

	assay_yaml__snippet(snip, sizeof(snip), s, n);
	snprintf(msg, size, "invalid integer '%s': more than %d digits (Python's limit for "
		 "integer string conversion)", snip, PY_INT_MAX_DIGITS);
	return -1;
}

/* PyYAML's construct_yaml_int, on text that matched the int pattern. */
static int int_value(assay_value *out, assay_arena *ar, const char *s, size_t n, char *msg,
		     size_t msgsize)
{
	struct acc *a = NULL;
	assay_buf b = ASSAY_BUF_INIT;
	size_t i = 0, digits;
	bool neg = false, ok = true;
	int rc = 0;

	if (s[i] == '-' || s[i] == '+')
		neg = s[i++] == '-';
	if (s[i] != '0' && !memchr(s, ':', n) && !memchr(s, '_', n)) {
		/* plain decimal: the text itself */
		if (n - i > PY_INT_MAX_DIGITS)
			return too_many_digits(msg, msgsize, s, n);
		if (assay_value_integer_text(out, ar, s, n))
			return bad_content(msg, msgsize, "integer", s, n); /* not reached */
		return 0;
	}
	if (s[i] != '0' && !memchr(s, ':', n)) {
		/* decimal with '_' */
		assay_buf_grow(&b, n);
		if (neg)
			assay_buf_addch(&b, '-');
		for (; i < n; i++)
			if (s[i] != '_')
				assay_buf_addch(&b, s[i]);
		digits = b.len - neg;
		goto made;
	}
	a = assay_xcalloc(1, sizeof(*a));
	if (n - i >= 2 && s[i] == '0' && (s[i + 1] == 'b' || s[i + 1] == 'x')) {
		uint32_t base = s[i + 1] == 'b' ? 2 : 16;

		for (i += 2; i < n && ok; i++)
			if (s[i] != '_')
				ok = acc_step(a, base, (uint32_t)hex_value(s[i]));
	} else if (s[i] == '0') {
		for (; i < n && ok; i++)
			if (s[i] != '_')
				ok = acc_step(a, 8, (uint32_t)(s[i] - '0'));
	} else {
		/* sexagesimal: the first part in base 10, then base-60 digits */
		for (; i < n && s[i] != ':' && ok; i++)
			if (s[i] != '_')
				ok = acc_step(a, 10, (uint32_t)(s[i] - '0'));
		while (i < n && ok) {
			uint32_t d = 0;

			for (i++; i < n && s[i] != ':'; i++)
				d = d * 10 + (uint32_t)(s[i] - '0');
			ok = acc_step(a, 60, d);
		}
	}
	digits = ok ? acc_text(a, neg, &b) : PY_INT_MAX_DIGITS + 1;
made:
	if (digits > PY_INT_MAX_DIGITS)
		rc = too_many_digits(msg, msgsize, s, n);
	else if (assay_value_integer_text(out, ar, b.ptr, b.len))
		rc = bad_content(msg, msgsize, "integer", s, n); /* not reached: matched digits */
	free(a);
	assay_buf_release(&b);
	return rc;
}

/*
 * Reals
 */

/*
 * Python's float() on `c` (unsigned, no '_', lower case, matched by a float pattern): written
 * as a literal assay_parse_double reads (digits '.' digits, optional exponent), so `.5`, `1.`
 * and `1e3` read as 0.5, 1.0 and 1000.0. false if `c` is not of that shape.
 */
static bool parse_real(const char *c, size_t n, double *out)
{
	char small[64], *lit = small;
	size_t i = 0, int_end, frac_start, frac_end, exp_start, o = 0;

	while (i < n && is_digit(c[i]))
		i++;
	int_end = frac_start = frac_end = i;
	if (i < n && c[i] == '.') {
		frac_start = ++i;
		while (i < n && is_digit(c[i]))
			i++;
		frac_end = i;
	}
	if (!int_end && frac_end == frac_start)
		return false;
	exp_start = i;
	if (i < n && c[i] == 'e') {
		i++;
		if (i < n && (c[i] == '+' || c[i] == '-'))
			i++;
		if (i >= n || !is_digit(c[i]))
			return false;
		while (i < n && is_digit(c[i]))
			i++;
	}
	if (i != n)
		return false;
	if (n + 4 > sizeof(small))
		lit = assay_xmalloc(n + 4);
	if (int_end) {
		memcpy(lit, c, int_end);
		o = int_end;
	} else {
		lit[o++] = '0';
	}
	lit[o++] = '.';
	if (frac_end > frac_start) {
		memcpy(lit + o, c + frac_start, frac_end - frac_start);
		o += frac_end - frac_start;
	} else {
		lit[o++] = '0';
	}
	memcpy(lit + o, c + exp_start, n - exp_start);
	o += n - exp_start;
	*out = assay_parse_double(lit, o);
	if (lit != small)
		free(lit);
	return true;
}

/*
 * A sexagesimal real `c` (unsigned, clean) as construct_yaml_float sums it: from the last part,
 * value += float(part) * base, base *= 60, where base is a Python int converted to a double
 * (correctly rounded) for each product. false: a part is not a number, or 60**k is past the
 * largest double (Python's OverflowError).
 */
static bool sexagesimal_real(const char *c, size_t n, double *out, bool *overflow)
{
	struct acc *base = assay_xcalloc(1, sizeof(*base));
	assay_buf text = ASSAY_BUF_INIT;
	double value = 0.0;
	size_t end = n;
	bool ok = true;

	*overflow = false;
	base->v = 1;
	while (ok) {
		size_t start = end;
		double part, b;

		while (start > 0 && c[start - 1] != ':')
			start--;
		if (!base->big) {
			b = (double)base->v; /* correctly rounded, as Python's int -> float */
		} else {
			acc_text(base, false, &text);
			b = assay_parse_double(text.ptr, text.len);
		}
		if (isinf(b)) {
			*overflow = true;
			ok = false;
			break;
		}
		ok = parse_real(c + start, end - start, &part);
		if (!ok)
			break;
		value += part * b;
		if (start == 0)
			break;
		end = start - 1;
		ok = acc_step(base, 60, 0);
		if (!ok)
			*overflow = true;
	}
	free(base);
	assay_buf_release(&text);
	*out = value;
	return ok;
}

/* PyYAML's construct_yaml_float. */
static int float_value(assay_value *out, const char *s, size_t n, char *msg, size_t msgsize)
{
	assay_buf cb = ASSAY_BUF_INIT;
	const char *p;
	size_t len;
	bool neg = false, ok = true, overflow = false;
	double d = 0.0;

	clean_copy(&cb, s, n);
	p = cb.ptr;
	len = cb.len;
	if (len && (*p == '-' || *p == '+')) {
		neg = *p++ == '-';
		len--;
	}
	if (equals(p, len, ".inf") || equals(p, len, "inf") || equals(p, len, "infinity"))
		d = INFINITY;
	else if (equals(p, len, ".nan") || equals(p, len, "nan"))
		d = NAN;
	else if (memchr(p, ':', len))
		ok = sexagesimal_real(p, len, &d, &overflow);
	else
		ok = parse_real(p, len, &d);
	assay_buf_release(&cb);
	if (!ok) {
		bad_content(msg, msgsize, "float", s, n);
		if (overflow) {
			size_t used = strlen(msg);

			snprintf(msg + used, msgsize - used,
				 " (int too large to convert to float)");
		}
		return -1;
	}
	*out = assay_value_real(neg && !isnan(d) ? -d : d);
	return 0;
}

/*
 * Timestamps
 */

static bool leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in_month(int y, int m)
{
	static const int days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	return m == 2 && leap(y) ? 29 : days[m - 1];
}

/* Python's reason for refusing the fields, in the order PyYAML meets them, or NULL. */
static const char *stamp_problem(const struct stamp *t)
{
	if ((t->tz == '+' || t->tz == '-') && t->tz_hour * 60 + t->tz_minute >= 24 * 60)
		return "offset must be a timedelta strictly between -timedelta(hours=24) and "
		       "timedelta(hours=24)";
	if (t->year < 1)
		return "year 0 is out of range";
	if (t->month < 1 || t->month > 12)
		return "month must be in 1..12";
	if (t->day < 1 || t->day > days_in_month(t->year, t->month))
		return "day is out of range for month";
	if (t->hour > 23)
		return "hour must be in 0..23";
	if (t->minute > 59)
		return "minute must be in 0..59";
	if (t->second > 59)
		return "second must be in 0..59";
	return NULL;
}

/* PyYAML's construct_yaml_timestamp, written as isoformat() writes its result. */
static int timestamp_value(assay_value *out, assay_arena *a, const char *s, size_t n, char *msg,
			   size_t msgsize)
{
	struct stamp t;
	const char *problem;
	char text[64];
	int len;

	if (!match_timestamp(s, n, &t))
		return bad_content(msg, msgsize, "timestamp", s, n); /* not reached: classified */
	problem = stamp_problem(&t);
	if (problem) {
		size_t used;

		bad_content(msg, msgsize, "timestamp", s, n);
		used = strlen(msg);
		snprintf(msg + used, msgsize - used, " (%s)", problem);
		return -1;
	}
	if (!t.has_time) {
		len = snprintf(text, sizeof(text), "%04d-%02d-%02d", t.year, t.month, t.day);
		*out = assay_value_datetime(a, ASSAY_DT_DATE, text, (size_t)len);
		return 0;
	}
	len = snprintf(text, sizeof(text), "%04d-%02d-%02dT%02d:%02d:%02d", t.year, t.month, t.day,
		       t.hour, t.minute, t.second);
	if (t.usec)
		len += snprintf(text + len, sizeof(text) - (size_t)len, ".%06d", t.usec);
	if (!t.tz) {
		*out = assay_value_datetime(a, ASSAY_DT_LOCAL, text, (size_t)len);
		return 0;
	}
	int off = t.tz == 'Z' ? 0 : t.tz_hour * 60 + t.tz_minute;
	len += snprintf(text + len, sizeof(text) - (size_t)len, "%c%02d:%02d",
			t.tz == '-' && off ? '-' : '+', off / 60, off % 60);
	*out = assay_value_datetime(a, ASSAY_DT_OFFSET, text, (size_t)len);
	return 0;
}

int assay_yaml__value(assay_value *out, assay_arena *a, int kind,
		      const struct assay_yaml__scalar *sc, char *msg, size_t msgsize)
{
	const char *s = sc->s;
	size_t n = sc->n;

	switch (kind) {
	case YAML_KIND_NULL: *out = assay_value_null(); return 0;
	case YAML_KIND_TRUE: *out = assay_value_bool(true); return 0;
	case YAML_KIND_FALSE: *out = assay_value_bool(false); return 0;
	case YAML_KIND_INT: return int_value(out, a, s, n, msg, msgsize);
	case YAML_KIND_FLOAT: return float_value(out, s, n, msg, msgsize);
	case YAML_KIND_TIMESTAMP: return timestamp_value(out, a, s, n, msg, msgsize);
	}
	*out = assay_value_string(a, s, n);
	return 0;
}
