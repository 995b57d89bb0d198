/*
 * assay_buf: a growable byte buffer, always NUL-terminated, with an optional cap that keeps
 * what fits (so a capped capture can be marked truncated rather than lost).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/buf.h"
#include "util/buf_int.h"
#include "util/banned.h"

char assay_buf__empty[1];

void assay_buf_init(assay_buf *b, size_t hint, size_t max)
{
	*b = (assay_buf)ASSAY_BUF_INIT;
	b->max = max;
	if (hint)
		assay_buf_grow(b, hint);
}

void assay_buf_release(assay_buf *b)
{
	if (b->alloc)
		free(b->ptr);
	*b = (assay_buf)ASSAY_BUF_INIT;
}

void assay_buf_reset(assay_buf *b)
{
	if (b->alloc)
		assay_buf_setlen(b, 0);
}

void assay_buf_grow(assay_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;

	if (need < b->len)
		ASSAY_BUG("buffer size overflow");
	if (need <= b->alloc)
		return;
	size_t alloc = b->alloc ? b->alloc : 64;
	while (alloc < need)
		alloc = alloc < ((size_t)-1) / 2 ? alloc * 2 : need;
	/* A capped buffer never needs more than its cap (and the NUL). */
	if (b->max && need <= b->max + 1 && alloc > b->max + 1)
		alloc = b->max + 1;
	if (b->alloc) {
		b->ptr = assay_xrealloc(b->ptr, alloc);
	} else {
		b->ptr = assay_xmalloc(alloc);
		b->ptr[0] = '\0';
	}
	b->alloc = alloc;
}

void assay_buf_setlen(assay_buf *b, size_t len)
{
	if (!b->alloc && len == 0)
		return;
	if (len >= b->alloc)
		ASSAY_BUG("assay_buf_setlen beyond allocation");
	b->len = len;
	b->ptr[len] = '\0';
}

int assay_buf_add(assay_buf *b, const void *data, size_t len)
{
	int rc = 0;

	/* the common case: uncapped, with room (one copy) */
	if (assay_buf__fits(b, len)) {
		assay_buf__put(b, data, len);
		return 0;
	}

	if (b->max && b->len + len > b->max) {
		len = b->max > b->len ? b->max - b->len : 0;
		rc = ASSAY_ETOOBIG;
	}
	if (len) {
		assay_buf_grow(b, len);
		memcpy(b->ptr + b->len, data, len);
		assay_buf_setlen(b, b->len + len);
	}
	return rc;
}

int assay_buf_adds(assay_buf *b, const char *s)
{
	return assay_buf_add(b, s, strlen(s));
}

int assay_buf_addch(assay_buf *b, char c)
{
	if (!b->max && b->len + 2 <= b->alloc) {
		b->ptr[b->len++] = c;
		b->ptr[b->len] = '\0';
		return 0;
	}
	return assay_buf_add(b, &c, 1);
}

int assay_buf_vaddf(assay_buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	char small[256];
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n < 0) {
		va_end(ap2);
		ASSAY_BUG("bad format string");
	}
	if ((size_t)n < sizeof(small)) {
		va_end(ap2);
		return assay_buf_add(b, small, (size_t)n);
	}
	char *big = assay_xmalloc((size_t)n + 1);
	vsnprintf(big, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	int rc = assay_buf_add(b, big, (size_t)n);
	free(big);
	return rc;
}

int assay_buf_addf(assay_buf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = assay_buf_vaddf(b, fmt, ap);
	va_end(ap);
	return rc;
}

char *assay_buf_detach(assay_buf *b, size_t *len_out)
{
	char *p;

	if (len_out)
		*len_out = b->len;
	p = b->alloc ? b->ptr : assay_xstrdup("");
	*b = (assay_buf)ASSAY_BUF_INIT;
	return p;
}
