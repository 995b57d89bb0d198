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
#include "util/hash.h"
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

uint32_t assay_diff__classify_lines(const assay_diff__line *const *lines, size_t n,
				    uint32_t *ids)
{
	assay_htab classes = ASSAY_HTAB_INIT; /* the first line of each class */
	uint32_t nclass = 0;

	assay_htab_reserve(&classes, n);
	for (size_t k = 0; k < n; k++) {
		const assay_diff__line *l = lines[k];
		uint64_t h = assay_hash(l->p, l->len);
		assay_htab_it it;
		size_t o;

		for (o = assay_htab_first(&classes, h, &it); o != ASSAY_HTAB_END;
		     o = assay_htab_next(&classes, &it))
			if (lines[o]->len == l->len && !memcmp(lines[o]->p, l->p, l->len))
				break;
		if (o != ASSAY_HTAB_END) {
			ids[k] = ids[o];
		} else {
			ids[k] = nclass++;
			assay_htab_add(&classes, h, k);
		}
	}
	assay_htab_release(&classes);
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
