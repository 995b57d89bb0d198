/*
 * The byte buffer's fast path (buf.h), inline, for the loops that append millions of small
 * pieces (the JSON writer, the diff's paths): assay_buf_add() takes the same path but costs a
 * call per piece. Never installed.
 */
#ifndef ASSAY_UTIL_BUF_INT_H
#define ASSAY_UTIL_BUF_INT_H

#include <stdbool.h>
#include <string.h>

#include "assay/buf.h"

/* `n` more bytes fit without growing, and no cap applies. */
static inline bool assay_buf__fits(const assay_buf *b, size_t n)
{
	return !b->max && n < b->alloc - b->len;
}

/* Bytes that can be written at ptr + len without growing (then assay_buf_setlen): 0 when
 * capped, since a cap is kept only by the appending calls. */
static inline size_t assay_buf__spare(const assay_buf *b)
{
	return b->max || !b->alloc ? 0 : b->alloc - b->len - 1;
}

/* Appends `n` bytes that assay_buf__fits(): one copy, no call. */
static inline void assay_buf__put(assay_buf *b, const void *s, size_t n)
{
	if (n)
		memcpy(b->ptr + b->len, s, n);
	b->len += n;
	b->ptr[b->len] = '\0';
}

/* assay_buf_add() with its fast path inline (its result, a cap's ASSAY_ETOOBIG, is dropped:
 * for uncapped buffers). */
static inline void assay_buf__add(assay_buf *b, const void *s, size_t n)
{
	if (assay_buf__fits(b, n))
		assay_buf__put(b, s, n);
	else
		assay_buf_add(b, s, n);
}

#endif
