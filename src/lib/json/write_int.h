/*
 * The JSON writer's internals shared by the plain writer (write.c) and the report cutter laid
 * on top of it (cut.c); the json module's own, never installed.
 */
#ifndef ASSAY_JSON_WRITE_INT_H
#define ASSAY_JSON_WRITE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json/json_int.h"
#include "util/utf8.h"

/* Bytes of a valid UTF-8 sequence at p (*p >= 0x80), 3 for a WTF-8 surrogate of a string the
 * parser marked (`wtf8`: *sur set), or 0 with *bad = bytes of the maximal invalid subpart to
 * replace. */
static inline size_t assay_json__seq(const unsigned char *p, size_t len, bool wtf8, size_t *bad,
				     bool *sur)
{
	*sur = wtf8 && p[0] == 0xed && len >= 3 && p[1] >= 0xa0 && p[1] <= 0xbf && p[2] >= 0x80 &&
	       p[2] <= 0xbf;
	return *sur ? 3 : assay_utf8_seq(p, len, bad);
}

/* A container the writer has open. */
struct assay_json__frame {
	const assay_value *v;
	assay_member **sorted; /* ASSAY_JSON_SORT_KEYS: the members in key order (malloc'd) */
	uint32_t next;         /* the next item or member to write */
	size_t start;          /* where its text began in `out` */
};

/*
 * What a layer on top of the plain writer may do at its points (any hook may be NULL; `self`
 * is passed to each). The writer calls them in this order, so a layer sees the text as it
 * grows and may take it away or write something in a value's place:
 */
struct assay_json__hooks {
	/* before every step (a value to write, or the next item or end of the innermost open
	 * container): open[0..depth) are the open containers, outermost first */
	void (*step)(void *self, assay_buf *out, const struct assay_json__frame *open,
		     size_t depth);
	/* a value with data of its own (a string, datetime, array or object) about to be
	 * written: true when the hook wrote something in its place (then the writer writes
	 * nothing of it, nor opens it) */
	bool (*value)(void *self, assay_buf *out, const assay_value *v);
	/* container `v` has just closed; it was at `depth` (the root is 0) and its text is
	 * out->ptr[start..out->len) */
	void (*closed)(void *self, assay_buf *out, const assay_value *v, size_t depth,
		       size_t start);
	/* an object key about to be written, one that begins with `key_first` (any key when
	 * it is 0): true when the hook wrote it */
	bool (*key)(void *self, assay_buf *out, const assay_value *key);
	char key_first;
	void *self;
};

/* assay_json_write() with a layer's hooks (NULL: none). Iterative: any depth. */
void assay_json__write_with(assay_buf *out, const assay_value *v, int flags,
			    const struct assay_json__hooks *hooks);

#endif
