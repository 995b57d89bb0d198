/*
 * JSON parsing for assay: one value (assay_json_parse), JSON Lines (assay_json_parse_lines),
 * bignums, and byte strings turned into JSON strings (assay_json_string_lossy).
 *
 * Key decisions:
 * - jansson does the parsing (JSON_DECODE_ANY | JSON_ALLOW_NUL; its end-of-input check rejects
 *   trailing garbage). Error positions are jansson's: 1-based line, column in characters.
 * - Big numbers cost nothing in the common case: the text is first parsed as it is. Only when
 *   jansson fails with a numeric overflow does a small scanner rewrite every number literal
 *   jansson cannot hold (integers past int64, reals past DBL_MAX) into a string
 *   "\u0000assay-number:<literal>" and parse again. The scanner knows strings (escapes), and
 *   object keys: a number where a key is expected is left alone, so the text stays an error.
 *   If the second parse fails, its position is mapped back onto the original text.
 * - A string value that happens to begin with ASSAY_JSON_BIGNUM_MARK reads as a bignum; the mark
 *   starts with U+0000, which real data almost never holds at the start of a string.
 * - string_lossy replaces each maximal invalid subsequence by one U+FFFD, as Python's
 *   bytes.decode("utf-8", "replace") does (a lone bad byte is one U+FFFD; a truncated
 *   multi-byte sequence is one U+FFFD; overlongs, surrogates and code points past U+10FFFF
 *   are rejected byte by byte).
 *
 * Refuses to: accept NaN/Infinity literals, comments or trailing commas (jansson is strict),
 * accept NUL in object keys (jansson's limit).
 */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json_int.h"
#include "util/banned.h"

#define PARSE_FLAGS (JSON_DECODE_ANY | JSON_ALLOW_NUL)

static int set_parse_err(assay_err *err, const char *source, int line, int col, const char *text)
{
	return assay_err_set(err, ASSAY_EPARSE, source, line, col, "%s", text);
}

/*
 * Bignums
 */

json_t *assay_json_bignum(const char *literal)
{
	assay_buf b = ASSAY_BUF_INIT;
	json_t *v;

	assay_buf_add(&b, ASSAY_JSON_BIGNUM_MARK, ASSAY_JSON_BIGNUM_MARK_LEN);
	assay_buf_adds(&b, literal);
	v = json_stringn(b.ptr, b.len);
	assay_buf_release(&b);
	ASSAY_ASSERT(v);
	return v;
}

static size_t number_literal(const char *p, size_t len, bool *is_int);

/*
 * A bignum is the mark followed by a whole number literal (JSON's grammar, or YAML's signed
 * Infinity/NaN). Checking the literal, not just the mark, means a string that comes from data
 * (a submission's output holding "\0assay-number:...") is never written out as raw text.
 */
bool assay_json_is_bignum(const json_t *v)
{
	if (!json_is_string(v) || json_string_length(v) <= ASSAY_JSON_BIGNUM_MARK_LEN ||
	    memcmp(json_string_value(v), ASSAY_JSON_BIGNUM_MARK, ASSAY_JSON_BIGNUM_MARK_LEN))
		return false;
	const char *lit = json_string_value(v) + ASSAY_JSON_BIGNUM_MARK_LEN;
	size_t len = json_string_length(v) - ASSAY_JSON_BIGNUM_MARK_LEN;
	bool is_int;
	if (*lit == '+' || (*lit == '-' && len > 1 && (lit[1] == 'I' || lit[1] == 'N'))) {
		lit++;
		len--;
	}
	if ((len == 8 && !memcmp(lit, "Infinity", 8)) || (len == 3 && !memcmp(lit, "NaN", 3)))
		return true;
	if (*lit == '-') {
		lit++;
		len--;
	}
	while (len > 1 && lit[0] == '0' && lit[1] >= '0' && lit[1] <= '9') {
		lit++; /* leading zeros, which JSON's grammar has not but a bignum may */
		len--;
	}
	return len && number_literal(lit, len, &is_int) == len;
}

const char *assay_json_bignum_literal(const json_t *v)
{
	if (!assay_json_is_bignum(v))
		return NULL;
	return json_string_value(v) + ASSAY_JSON_BIGNUM_MARK_LEN;
}

bool assay_json_is_number(const json_t *v)
{
	return json_is_number(v) || assay_json_is_bignum(v);
}

/* Does jansson refuse this (well-formed) number literal as too big? */
static bool literal_overflows(const char *lit, size_t len, bool is_int)
{
	char *s = assay_xstrndup(lit, len);
	bool over;

	errno = 0;
	if (is_int) {
		(void)strtoll(s, NULL, 10);
		over = errno == ERANGE;
	} else {
		/* strtod reads the locale's decimal point, as jansson's own jsonp_strtod knows */
		const char *point = localeconv()->decimal_point;
		char *dot = strchr(s, '.');
		double d;

		if (dot && point && point[0] && point[0] != '.' && !point[1])
			*dot = point[0];
		d = strtod(s, NULL);
		over = errno == ERANGE && (d == HUGE_VAL || d == -HUGE_VAL);
	}
	free(s);
	return over;
}

/* Length of a well-formed JSON number literal at `p` (at most `len` bytes), or 0. */
static size_t number_literal(const char *p, size_t len, bool *is_int)
{
	size_t i = 0, d;

	*is_int = true;
	if (i < len && p[i] == '-')
		i++;
	for (d = i; i < len && p[i] >= '0' && p[i] <= '9'; i++)
		;
	if (i == d || (p[d] == '0' && i - d > 1))
		return 0;
	if (i < len && p[i] == '.') {
		*is_int = false;
		for (d = ++i; i < len && p[i] >= '0' && p[i] <= '9'; i++)
			;
		if (i == d)
			return 0;
	}
	if (i < len && (p[i] == 'e' || p[i] == 'E')) {
		*is_int = false;
		i++;
		if (i < len && (p[i] == '+' || p[i] == '-'))
			i++;
		for (d = i; i < len && p[i] >= '0' && p[i] <= '9'; i++)
			;
		if (i == d)
			return 0;
	}
	return i;
}

struct rewrite {
	size_t orig_start, orig_len, new_start, new_len;
};

struct rewrites {
	struct rewrite *v;
	size_t nr, alloc;
};

static void add_rewrite(struct rewrites *rw, struct rewrite r)
{
	if (rw->nr == rw->alloc) {
		rw->alloc = rw->alloc ? rw->alloc * 2 : 8;
		rw->v = assay_xrealloc(rw->v, rw->alloc * sizeof(*rw->v));
	}
	rw->v[rw->nr++] = r;
}

/*
 * Copies `text` to `out`, turning each number literal jansson cannot hold (outside strings and
 * object-key positions) into a bignum string. The container stack only decides whether a key is
 * expected; the text may well be malformed, and then it stays malformed.
 */
static void rewrite_bignums(assay_buf *out, struct rewrites *rw, const char *text, size_t len)
{
	assay_buf stack = ASSAY_BUF_INIT;
	bool expect_key = false;
	size_t i = 0;

	while (i < len) {
		char ch = text[i];
		size_t n;
		bool is_int;

		if (ch == '"') {
			size_t j = i + 1;

			while (j < len && text[j] != '"')
				j += text[j] == '\\' ? 2 : 1;
			if (j > len)
				j = len;
			n = j < len ? j + 1 - i : len - i;
			assay_buf_add(out, text + i, n);
			i += n;
			expect_key = false;
			continue;
		}
		if (ch == '-' || (ch >= '0' && ch <= '9')) {
			n = number_literal(text + i, len - i, &is_int);
			if (!n) {
				/* not a literal: copy the sign or digit run as it is */
				n = 1;
				while (i + n < len && text[i + n] >= '0' && text[i + n] <= '9')
					n++;
			} else if (!expect_key && literal_overflows(text + i, n, is_int)) {
				struct rewrite r = { i, n, out->len, 0 };

				assay_buf_adds(out, "\"\\u0000");
				assay_buf_add(out, ASSAY_JSON_BIGNUM_MARK + 1, ASSAY_JSON_BIGNUM_MARK_LEN - 1);
				assay_buf_add(out, text + i, n);
				assay_buf_addch(out, '"');
				r.new_len = out->len - r.new_start;
				add_rewrite(rw, r);
				i += n;
				expect_key = false;
				continue;
			}
			assay_buf_add(out, text + i, n);
			i += n;
			expect_key = false;
			continue;
		}
		switch (ch) {
		case '{':
		case '[':
			assay_buf_addch(&stack, ch);
			expect_key = ch == '{';
			break;
		case '}':
		case ']':
			if (stack.len)
				assay_buf_setlen(&stack, stack.len - 1);
			expect_key = false;
			break;
		case ',':
			expect_key = stack.len && stack.ptr[stack.len - 1] == '{';
			break;
		case ':':
			expect_key = false;
			break;
		default:
			break;
		}
		assay_buf_addch(out, ch);
		i++;
	}
	assay_buf_release(&stack);
}

/* Maps a byte offset in the rewritten text back to the original text. */
static size_t map_position(const struct rewrites *rw, size_t pos)
{
	const struct rewrite *last = NULL;

	for (size_t k = 0; k < rw->nr && rw->v[k].new_start <= pos; k++)
		last = &rw->v[k];
	if (!last)
		return pos;
	if (pos < last->new_start + last->new_len) {
		size_t into = pos - last->new_start;
		return last->orig_start + (into < last->orig_len ? into : last->orig_len);
	}
	return pos - (last->new_start + last->new_len) + last->orig_start + last->orig_len;
}

/* jansson's line and column (characters: UTF-8 continuation bytes do not count) at `pos`. */
static void line_column(const char *text, size_t pos, int *line, int *col)
{
	int l = 1, c = 0;

	for (size_t i = 0; i < pos; i++) {
		unsigned char b = (unsigned char)text[i];

		if (b == '\n') {
			l++;
			c = 0;
		} else if (b < 0x80 || (b >= 0xc2 && b <= 0xf4)) {
			c++;
		}
	}
	*line = l;
	*col = c;
}

static int parse_bignums(json_t **out, const char *text, size_t len, const char *source,
			 const json_error_t *first, assay_err *err)
{
	assay_buf re = ASSAY_BUF_INIT;
	struct rewrites rw = { NULL, 0, 0 };
	json_error_t je;
	json_t *v = NULL;
	int rc = 0;

	rewrite_bignums(&re, &rw, text, len);
	if (!rw.nr) {
		/* an overflowing number where a key belongs: jansson's first word stands */
		rc = set_parse_err(err, source, first->line, first->column, first->text);
		goto out;
	}
	v = json_loadb(re.ptr, re.len, PARSE_FLAGS, &je);
	if (!v) {
		int line, col;
		size_t pos = map_position(&rw, (size_t)je.position);

		if (pos > len)
			pos = len;
		line_column(text, pos, &line, &col);
		rc = set_parse_err(err, source, line, col, je.text);
		goto out;
	}
	*out = v;
out:
	free(rw.v);
	assay_buf_release(&re);
	return rc;
}

int assay_json_parse(json_t **out, const char *text, size_t len, const char *source,
		     assay_err *err)
{
	json_error_t je;
	json_t *v;

	*out = NULL;
	if (!text)
		text = "";
	v = json_loadb(text, len, PARSE_FLAGS, &je);
	if (v) {
		*out = v;
		return 0;
	}
	if (json_error_code(&je) != json_error_numeric_overflow)
		return set_parse_err(err, source, je.line, je.column, je.text);
	return parse_bignums(out, text, len, source, &je, err);
}

static bool blank(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr(" \t\r\f\v", p[i]) || !p[i])
			return false;
	return true;
}

int assay_json_parse_lines(json_t **out, const char *text, size_t len, bool skip_invalid,
			   const char *source, assay_err *err)
{
	json_t *arr = json_array();
	size_t pos = 0;
	int lineno = 0;

	*out = NULL;
	if (!text)
		text = "";
	while (pos < len) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		assay_err le = ASSAY_ERR_INIT;
		json_t *v;

		lineno++;
		pos += n + (nl ? 1 : 0);
		if (n && line[n - 1] == '\r')
			n--;
		if (blank(line, n))
			continue;
		if (assay_json_parse(&v, line, n, source, &le)) {
			if (skip_invalid)
				continue;
			json_decref(arr);
			return assay_err_set(err, ASSAY_EPARSE, source, lineno + le.line - 1,
					     le.column, "%s", le.msg);
		}
		json_array_append_new(arr, v);
	}
	*out = arr;
	return 0;
}

/*
 * Lossy strings
 */

/* Length of the valid UTF-8 sequence at p, or 0 with *bad set to the bytes to replace. */
static size_t utf8_seq(const unsigned char *p, size_t len, size_t *bad)
{
	unsigned char b = p[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t need;

	if (b < 0x80)
		return 1;
	if (b >= 0xc2 && b <= 0xdf) {
		need = 1;
	} else if (b >= 0xe0 && b <= 0xef) {
		need = 2;
		if (b == 0xe0)
			lo = 0xa0;
		else if (b == 0xed)
			hi = 0x9f;
	} else if (b >= 0xf0 && b <= 0xf4) {
		need = 3;
		if (b == 0xf0)
			lo = 0x90;
		else if (b == 0xf4)
			hi = 0x8f;
	} else {
		*bad = 1;
		return 0;
	}
	for (size_t k = 1; k <= need; k++) {
		if (k >= len || p[k] < lo || p[k] > hi) {
			*bad = k;
			return 0;
		}
		lo = 0x80;
		hi = 0xbf;
	}
	return need + 1;
}

json_t *assay_json_string_lossy(const char *bytes, size_t len)
{
	assay_buf b = ASSAY_BUF_INIT;
	const unsigned char *p = (const unsigned char *)bytes;
	size_t i = 0, start = 0;
	json_t *v;

	while (i < len) {
		size_t bad = 0, n = utf8_seq(p + i, len - i, &bad);

		if (n) {
			i += n;
			continue;
		}
		assay_buf_add(&b, bytes + start, i - start);
		assay_buf_adds(&b, "\xef\xbf\xbd");
		i += bad;
		start = i;
	}
	if (!start) {
		v = json_stringn(len ? bytes : "", len);
	} else {
		assay_buf_add(&b, bytes + start, len - start);
		v = json_stringn(b.ptr, b.len);
	}
	assay_buf_release(&b);
	ASSAY_ASSERT(v);
	return v;
}
