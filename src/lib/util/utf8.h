/*
 * UTF-8 sequences (util, never installed): what the JSON parser accepts, the JSON writer and
 * the text verifiers keep, and where Python's bytes.decode(errors="replace") puts one U+FFFD.
 * Inline: the JSON parser calls it for every non-ASCII byte it scans.
 */
#ifndef ASSAY_UTIL_UTF8_H
#define ASSAY_UTIL_UTF8_H

#include <stddef.h>

/*
 * The length of the valid UTF-8 sequence at p (len > 0 bytes available; 1 for ASCII), or 0
 * with *bad set to the bytes one U+FFFD replaces: the maximal invalid subpart (a lone byte, or
 * the valid start of a cut sequence), as Python decodes. Surrogates (ED A0..BF) and overlong
 * forms are invalid.
 */
static inline size_t assay_utf8_seq(const unsigned char *p, size_t len, size_t *bad)
{
	unsigned char b = p[0], lo = 0x80, hi = 0xbf;
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

#endif
