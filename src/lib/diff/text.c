/*
 * Text helpers of the diff, each Python's own behaviour: str.splitlines() (the lines deepdiff
 * gives unified_diff), str.lower() (deepdiff's ignore_string_case), and class ids for lines.
 *
 * Key decisions:
 * - splitlines breaks at \n, \r, \r\n, \v, \f, \x1c, \x1d, \x1e, U+0085, U+2028 and U+2029, as
 *   CPython's str.splitlines does; a final break adds no empty line.
 * - lower is GNU libunistring's u8_tolower (full Unicode lower-case mapping with the Final_Sigma
 *   context, as CPython's str.lower); text that is not UTF-8 is lowered run by run, invalid bytes
 *   kept.
 * - Lines are classed by hashing their bytes into an open-addressing table.
 */
#include <stdlib.h>
#include <string.h>
#include <unicase.h>
#include <unistr.h>

#include "diff/diff_int.h"
#include "util/banned.h"

/* Bytes of a line break at p (0 if none). */
static size_t line_break(const unsigned char *p, const unsigned char *end)
{
	switch (*p) {
	case '\n':
	case '\v':
	case '\f':
	case 0x1c:
	case 0x1d:
	case 0x1e:
		return 1;
	case '\r':
		return p + 1 < end && p[1] == '\n' ? 2 : 1;
	case 0xc2:
		return p + 1 < end && p[1] == 0x85 ? 2 : 0;
	case 0xe2:
		return p + 2 < end && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9) ? 3 : 0;
	default:
		return 0;
	}
}

assay_diff__line *assay_diff__splitlines(const char *s, size_t len, size_t *nr)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len, *start = p;
	assay_diff__line *lines = NULL;
	size_t n = 0, cap = 0;

	while (p < end) {
		size_t br = line_break(p, end);

		if (!br) {
			p++;
			continue;
		}
		if (n == cap)
			lines = assay_xrealloc(lines, (cap = cap ? cap * 2 : 16) * sizeof(*lines));
		lines[n++] = (assay_diff__line){ (const char *)start, (size_t)(p - start) };
		p += br;
		start = p;
	}
	if (start < end) {
		if (n == cap)
			lines = assay_xrealloc(lines, (cap + 1) * sizeof(*lines));
		lines[n++] = (assay_diff__line){ (const char *)start, (size_t)(end - start) };
	}
	*nr = n;
	return lines;
}

static uint64_t hash_bytes(const char *p, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
	return h;
}

uint32_t assay_diff__classify_lines(const assay_diff__line *const *lines, size_t n,
				    uint32_t *ids)
{
	size_t cap = 16;
	uint32_t nclass = 0;
	size_t *slot;

	while (cap < n * 2)
		cap *= 2;
	slot = assay_xcalloc(cap, sizeof(*slot)); /* index + 1 of the class's first line */
	for (size_t k = 0; k < n; k++) {
		const assay_diff__line *l = lines[k];
		size_t h = (size_t)hash_bytes(l->p, l->len) & (cap - 1);

		for (;; h = (h + 1) & (cap - 1)) {
			if (!slot[h]) {
				slot[h] = k + 1;
				ids[k] = nclass++;
				break;
			}
			const assay_diff__line *o = lines[slot[h] - 1];
			if (o->len == l->len && !memcmp(o->p, l->p, l->len)) {
				ids[k] = ids[slot[h] - 1];
				break;
			}
		}
	}
	free(slot);
	return nclass;
}

void assay_diff__lower(assay_buf *out, const char *s, size_t len)
{
	const uint8_t *p = (const uint8_t *)s, *end = p + len;

	while (p < end) {
		const uint8_t *run = p;
		ucs4_t uc;

		/* the longest valid run */
		while (p < end) {
			int n = u8_mbtoucr(&uc, p, (size_t)(end - p));

			if (n < 0)
				break;
			p += n;
		}
		if (p > run) {
			size_t n = 0;
			uint8_t *lower = u8_tolower(run, (size_t)(p - run), NULL, NULL, NULL, &n);

			if (lower) {
				assay_buf_add(out, lower, n);
				free(lower);
			} else {
				assay_buf_add(out, run, (size_t)(p - run));
			}
		}
		if (p < end)
			assay_buf_addch(out, (char)*p++);
	}
}
