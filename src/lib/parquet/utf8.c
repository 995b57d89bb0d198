/*
 * UTF-8 validation for string columns (RFC 3629 §4's byte sequences): Parquet readers refuse a
 * STRING value that is not UTF-8, so the writer checks every string and has
 * the JSON writer repair the few that fail (one rule for U+FFFD replacement in assay).
 * Refuses to: repair anything itself.
 */
#include "parquet/parquet_int.h"
#include "util/banned.h"

bool assay_pq__utf8_valid(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < len) {
		unsigned c = s[i];
		if (c < 0x80) {
			i++;
			continue;
		}
		size_t n;
		unsigned lo = 0x80, hi = 0xbf; /* allowed range of the second byte */
		if (c >= 0xc2 && c <= 0xdf) {
			n = 2;
		} else if (c >= 0xe0 && c <= 0xef) {
			n = 3;
			if (c == 0xe0)
				lo = 0xa0; /* no overlongs */
			else if (c == 0xed)
				hi = 0x9f; /* no surrogates */
		} else if (c >= 0xf0 && c <= 0xf4) {
			n = 4;
			if (c == 0xf0)
				lo = 0x90; /* no overlongs */
			else if (c == 0xf4)
				hi = 0x8f; /* nothing past U+10FFFF */
		} else {
			return false;
		}
		if (len - i < n || s[i + 1] < lo || s[i + 1] > hi)
			return false;
		for (size_t k = 2; k < n; k++)
			if (s[i + k] < 0x80 || s[i + k] > 0xbf)
				return false;
		i += n;
	}
	return true;
}
