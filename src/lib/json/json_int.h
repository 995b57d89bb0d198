/*
 * Internals of the json module, for its own files (never installed). What other modules of the
 * library may use is in json_lib.h, which this header includes.
 */
#ifndef ASSAY_JSON_INT_H
#define ASSAY_JSON_INT_H

#include <stdint.h>
#include <string.h>

#include "assay/json.h"
#include "json/json_lib.h"

/*
 * The first byte at or after p that JSON text cannot hold as it is inside a string ('"', '\\',
 * a control character) or that starts a multi-byte sequence (past ASCII), or end: what the
 * parser and the writer look for in every string, eight bytes at a time. In each test below a
 * borrow can flag a byte only above one that is truly flagged, so the lowest flag is exact.
 */
static inline const char *assay_json__plain_run(const char *p, const char *end)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;

	for (; end - p >= 8; p += 8) {
		uint64_t w, q, b, m;

		memcpy(&w, p, 8);
		q = w ^ (ones * '"');
		b = w ^ (ones * '\\');
		m = ((q - ones) & ~q) | ((b - ones) & ~b) | ((w - ones * 0x20) & ~w) | w;
		m &= highs;
		if (m)
			return p + __builtin_ctzll(m) / 8; /* the lowest byte comes first */
	}
#endif
	for (; p < end; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80)
			break;
	}
	return p;
}

/* A key of the form "$...$assay_...": assay_json_write_cut() writes such keys of the data with
 * one more '$', so that every "$assay_cut" key in a line is a real cut marker. */
bool assay_json__marker_like(const char *key, size_t len);

#endif
