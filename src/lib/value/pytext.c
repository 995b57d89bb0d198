/*
 * Python's str.casefold(), str.lower() and str.isspace() on UTF-8 bytes (pytext_int.h), for
 * the text, contains and flexible verifiers and the INI reader, through GNU libunistring.
 *
 * Key decisions:
 * - Python is the reference, not a locale and not ASCII, because suites and their reference
 *   harnesses are Python: `ignore_case` means a.casefold() == b.casefold().
 * - Folding is libunistring's u8_casefold() with no language and no normalisation, one
 *   character at a time. Python's casefold has no context (a final sigma folds to σ like any
 *   sigma), so per character is exactly Python's, and it gives the offsets messages need. With
 *   NFC, u8_casefold would differ from Python (U+0340 -> U+0300; ǰ, ΐ and ΰ recomposed); with
 *   none it is equal to Python 3.11 (Unicode 14.0, as libunistring 1.0) on every code point.
 *   The unit tests hold a table of pairs made by Python.
 * - ASCII is folded inline; libunistring is called for other characters only.
 * - White space is Python's own rule (CPython's makeunicodedata.py: general category Zs or
 *   bidirectional class WS, B or S) asked of libunistring's tables; equal to str.isspace() on
 *   every code point. It includes \x1c-\x1f and U+0085, not U+200B or U+180E.
 * - Bytes that are not UTF-8 (output under test may hold anything) are kept as they are and
 *   are not white space, one invalid byte at a time, so valid text around them is still
 *   folded. That is what Python gives for bytes decoded with errors="surrogateescape", folded
 *   and encoded back. Overlong forms and encoded surrogates are invalid.
 *
 * Refuses: normalisation (NFC, NFKC), language-specific folding (Turkish dotless i: Python's
 * casefold has none either), grapheme clusters.
 */
#include <stdint.h>
#include <stdlib.h>

#include <unicase.h>
#include <unictype.h>
#include <unistr.h>

#include "value/pytext_int.h"
#include "util/banned.h"

/* Room for the fold of one character: at most 3 characters (CaseFolding.txt), 4 bytes each. */
#define FOLD_MAX 32

/* Bytes of the valid character at p (p < end), its code point in *uc; 0 if none starts there. */
static size_t char_at(const uint8_t *p, const uint8_t *end, ucs4_t *uc)
{
	int n;

	if (*p < 0x80) {
		*uc = *p;
		return 1;
	}
	n = u8_mbtoucr(uc, p, (size_t)(end - p));
	return n > 0 ? (size_t)n : 0;
}

/* Folds the valid non-ASCII character of `n` bytes at p into buf. @return the fold's length */
static size_t fold_char(uint8_t buf[FOLD_MAX], const uint8_t *p, size_t n)
{
	size_t len = FOLD_MAX;
	uint8_t *r = u8_casefold(p, n, NULL, NULL, buf, &len);

	/* Cannot fail on one valid character with room for any fold. */
	if (r != buf)
		ASSAY_BUG("u8_casefold failed on a valid character");
	return len;
}

static uint8_t fold_ascii(uint8_t c)
{
	return c >= 'A' && c <= 'Z' ? (uint8_t)(c + ('a' - 'A')) : c;
}

void assay_pytext__casefold(assay_buf *out, const char *s, size_t len)
{
	const uint8_t *p = (const uint8_t *)s, *end = p + len;
	uint8_t buf[FOLD_MAX];
	ucs4_t uc;

	assay_buf_grow(out, len);
	while (p < end) {
		const uint8_t *run = p;

		while (p < end && *p < 0x80)
			p++;
		if (p > run) {
			size_t n = (size_t)(p - run);
			assay_buf_grow(out, n);
			for (size_t i = 0; i < n; i++)
				out->ptr[out->len + i] = (char)fold_ascii(run[i]);
			assay_buf_setlen(out, out->len + n);
		}
		if (p == end)
			break;
		size_t n = char_at(p, end, &uc);
		if (!n) {
			assay_buf_add(out, p, 1);
			p++;
			continue;
		}
		assay_buf_add(out, buf, fold_char(buf, p, n));
		p += n;
	}
}

/*
 * str.lower() of one run of valid UTF-8 (no invalid byte inside): ASCII inline, else
 * libunistring's u8_tolower with no language and no normalisation, which maps as Python does
 * (full mappings, so İ -> i + U+0307; a capital sigma by the Final_Sigma context, as CPython's
 * handle_capital_sigma does, within the run: an invalid byte, a lone surrogate to Python, is
 * neither cased nor case-ignorable, so it ends the context there too).
 */
static void lower_run(assay_buf *out, const uint8_t *run, size_t n)
{
	size_t i = 0, len = 0;
	uint8_t *r;

	while (i < n && run[i] < 0x80)
		i++;
	if (i == n) {
		assay_buf_grow(out, n);
		for (i = 0; i < n; i++)
			out->ptr[out->len + i] = (char)fold_ascii(run[i]);
		assay_buf_setlen(out, out->len + n);
		return;
	}
	r = u8_tolower(run, n, NULL, NULL, NULL, &len);
	if (!r)
		ASSAY_BUG("u8_tolower failed on valid UTF-8");
	assay_buf_add(out, r, len);
	free(r);
}

void assay_pytext__lower(assay_buf *out, const char *s, size_t len)
{
	const uint8_t *p = (const uint8_t *)s, *end = p + len;
	ucs4_t uc;

	while (p < end) {
		const uint8_t *run = p;
		size_t n;

		while (p < end && (n = char_at(p, end, &uc)))
			p += n;
		if (p > run)
			lower_run(out, run, (size_t)(p - run));
		if (p < end) {
			assay_buf_add(out, p, 1); /* not UTF-8: kept as it is */
			p++;
		}
	}
}

size_t assay_pytext__fold_origin(const char *s, size_t len, size_t folded)
{
	const uint8_t *b = (const uint8_t *)s, *p = b, *end = b + len;
	uint8_t buf[FOLD_MAX];
	size_t at = 0;
	ucs4_t uc;

	while (p < end) {
		size_t n = char_at(p, end, &uc);
		size_t m = !n || *p < 0x80 ? 1 : fold_char(buf, p, n);

		if (folded < at + m)
			return (size_t)(p - b);
		at += m;
		p += n ? n : 1;
	}
	return len;
}

static bool is_space(ucs4_t c)
{
	int bidi;

	if (c < 0x80)
		return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20);
	bidi = uc_bidi_class(c);
	return bidi == UC_BIDI_WS || bidi == UC_BIDI_B || bidi == UC_BIDI_S ||
	       uc_is_general_category(c, UC_SPACE_SEPARATOR);
}

size_t assay_pytext__space(const char *s, size_t len)
{
	const uint8_t *p = (const uint8_t *)s;
	ucs4_t uc;
	size_t n;

	if (!len)
		return 0;
	n = char_at(p, p + len, &uc);
	return n && is_space(uc) ? n : 0;
}

size_t assay_pytext__space_before(const char *s, size_t len)
{
	const uint8_t *b = (const uint8_t *)s;
	ucs4_t uc;

	if (!len)
		return 0;
	if (b[len - 1] < 0x80)
		return is_space(b[len - 1]) ? 1 : 0;
	/* Back over continuation bytes to the lead byte; the character must end at len. */
	for (size_t k = 2; k <= 4 && k <= len; k++) {
		if ((b[len - k] & 0xc0) == 0x80)
			continue;
		size_t n = char_at(b + len - k, b + len, &uc);
		return n == k && is_space(uc) ? k : 0;
	}
	return 0;
}
