/*
 * The case result (model.h): the attributes a case produced, their names and small values in an
 * arena of its own, big captures kept as the buffers they were captured in.
 *
 * Key decisions: attributes grow by doubling inside the arena (old storage stays there until the
 * result is released), so an attribute pointer handed out stays valid; a kept capture gives
 * back its doubling slack, since it is held through verification and storing.
 */
#include <stdlib.h>
#include <string.h>

#include "assay/model.h"
#include "util/banned.h"

#define SMALL_KEEP 65536 /* a kept capture up to this size is copied out of its big buffer */

assay_arena *assay_case_result_arena(assay_case_result *r)
{
	if (!r->arena)
		r->arena = assay_arena_new(0);
	return r->arena;
}

assay_attribute *assay_case_result_add(assay_case_result *r, const char *name,
				       assay_actual actual)
{
	assay_arena *a = assay_case_result_arena(r);

	/* capacity: 8, then powers of two (old storage stays in the arena) */
	if (!r->nattrs || (r->nattrs >= 8 && !(r->nattrs & (r->nattrs - 1)))) {
		size_t cap = r->nattrs ? r->nattrs * 2 : 8;
		assay_attribute *n = assay_arena_alloc(a, cap * sizeof(*n));

		if (r->nattrs)
			memcpy(n, r->attrs, r->nattrs * sizeof(*n));
		r->attrs = n;
	}
	assay_attribute *at = &r->attrs[r->nattrs++];
	at->name = assay_arena_strndup(a, name, strlen(name));
	at->actual = actual;
	return at;
}

const char *assay_case_result_keep(assay_case_result *r, assay_buf *b, size_t *len_out)
{
	/* a capture grew by doubling: give back what it will never use (a big output's slack
	 * is a third of it, held through verification and storing) */
	if (b->alloc && b->alloc - b->len > 65536) {
		if (b->len < SMALL_KEEP) {
			/* a small capture in a big buffer (one grown to read its EOF): copied, and
			 * the big one freed, not shrunk in place; a shrunk mmap()ed block stays one
			 * (an mmap, an mremap and a munmap per capture) and keeps malloc from
			 * learning that such blocks are worth keeping on its heap */
			char *p = assay_xmalloc(b->len + 1);

			memcpy(p, b->ptr, b->len + 1);
			free(b->ptr);
			b->ptr = p;
		} else {
			b->ptr = assay_xrealloc(b->ptr, b->len + 1);
		}
		b->alloc = b->len + 1;
	}
	r->bufs = assay_xrealloc(r->bufs, (r->nbufs + 1) * sizeof(*r->bufs));
	r->bufs[r->nbufs] = *b;
	*b = (assay_buf)ASSAY_BUF_INIT;
	*len_out = r->bufs[r->nbufs].len;
	return r->bufs[r->nbufs++].ptr;
}

const assay_attribute *assay_case_result_get(const assay_case_result *r, const char *name)
{
	for (size_t i = 0; i < r->nattrs; i++)
		if (!strcmp(r->attrs[i].name, name))
			return &r->attrs[i];
	return NULL;
}

void assay_case_result_release(assay_case_result *r)
{
	for (size_t i = 0; i < r->nbufs; i++)
		assay_buf_release(&r->bufs[i]);
	free(r->bufs);
	assay_arena_free(r->arena);
	*r = (assay_case_result)ASSAY_CASE_RESULT_INIT;
}
