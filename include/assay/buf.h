/**
 * @file buf.h
 * A growable byte buffer with an optional size cap (git's strbuf rules plus curl's dynbuf cap).
 * Spec: docs/architecture.md ("Ownership rules": caller-allocated structs).
 *
 * Invariants: `ptr` is never NULL and `ptr[len] == '\0'`; the content may hold NUL bytes.
 * `alloc` is private. With `max` > 0, the content never grows past `max` bytes: an append that
 * would keeps the part that fits and returns ASSAY_ETOOBIG (captures use this to mark truncation).
 * Appends that are not capped never fail (allocation failure aborts, see assay_xmalloc).
 */
#ifndef ASSAY_BUF_H
#define ASSAY_BUF_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct assay_buf {
	char *ptr;
	size_t len;
	size_t alloc;
	size_t max; /**< cap in bytes; 0 = no cap */
} assay_buf;

ASSAY_EXTERN extern char assay_buf__empty[];
#define ASSAY_BUF_INIT { assay_buf__empty, 0, 0, 0 }

/** Sets `b` up empty with room for `hint` bytes and a cap of `max` bytes (0 = none). */
ASSAY_EXTERN void assay_buf_init(assay_buf *b, size_t hint, size_t max);
/** Frees the content and returns `b` to ASSAY_BUF_INIT (keeps nothing, not even the cap). */
ASSAY_EXTERN void assay_buf_release(assay_buf *b);
/** Empties the content, keeping the allocation and the cap. */
ASSAY_EXTERN void assay_buf_reset(assay_buf *b);
/** Ensures room for `extra` more bytes (ignores the cap). */
ASSAY_EXTERN void assay_buf_grow(assay_buf *b, size_t extra);
/** Sets the length to `len`, which must be less than the allocated size, and terminates. */
ASSAY_EXTERN void assay_buf_setlen(assay_buf *b, size_t len);

/**
 * Appends `len` bytes of `data`. Returns 0, or ASSAY_ETOOBIG when the cap cut the append short
 * (what fits is kept).
 */
ASSAY_EXTERN int assay_buf_add(assay_buf *b, const void *data, size_t len);
/** Appends a NUL-terminated string; returns as assay_buf_add(). */
ASSAY_EXTERN int assay_buf_adds(assay_buf *b, const char *s);
/** Appends one byte; returns as assay_buf_add(). */
ASSAY_EXTERN int assay_buf_addch(assay_buf *b, char c);
/** Appends printf-formatted text; returns as assay_buf_add(). */
ASSAY_EXTERN int assay_buf_addf(assay_buf *b, const char *fmt, ...) ASSAY_PRINTF(2, 3);
ASSAY_EXTERN int assay_buf_vaddf(assay_buf *b, const char *fmt, va_list ap);

/**
 * Hands the content to the caller (free() it) and returns `b` to ASSAY_BUF_INIT.
 * @param len_out NULL or where to store the length
 * @return a malloc'd, NUL-terminated string, never NULL
 */
ASSAY_EXTERN char *assay_buf_detach(assay_buf *b, size_t *len_out);

#ifdef __cplusplus
}
#endif
#endif
