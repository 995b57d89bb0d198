/*
 * deepdiff's DeepHash, as far as assay's comparison depends on it: which items of two lists
 * are "the same" under ignore_order, and how many nodes an item has (its rough length).
 *
 * Key decisions:
 * - The canonical texts are DeepHash's (docs/internals/deepdiff-parity.md 8.1): "NONE",
 *   "bool:true", "number:" + the number at significant_digits (12 by default), a string as
 *   itself, "list:" + the sorted "hash|count" of distinct items joined by ",", "dict:{" + the
 *   sorted "keyhash:valuehash" joined by ";" + "}"; every text is prefixed "str:" and lowered
 *   with ignore_string_case before it is hashed. So equal texts are one item, including a string
 *   that spells another value's text ("NONE" and null), as in deepdiff. Keys starting with "__"
 *   and excluded paths are left out.
 * - Counts are DeepHash's: 1 per node, plus 1 per dict key (even a private or excluded one).
 * - The digest is SipHash-2-4 (util/hash.h: Aumasson and Bernstein, 2012, from the paper's
 *   description) with a random key per diff, so a hostile output cannot craft an item that
 *   collides with an expected one.
 * - Recursive, as the walk is (diff.c runs deep documents on a large stack).
 */
#include <stdlib.h>
#include <string.h>

#include "diff/diff_int.h"
#include "util/hash.h"
#include "util/banned.h"

uint64_t assay_diff__siphash(const uint8_t *k, const void *data, size_t len)
{
	return assay_siphash24(k, data, len);
}

/* 64 keyed bits: an adversary who cannot see the key cannot aim at a collision, and chance
 * ones among the items of one comparison are far beyond reach (n^2 / 2^65). */
static void digest(struct assay_diff__ctx *c, const void *in, size_t len, uint64_t out[2])
{
	out[0] = assay_diff__siphash(c->sip_key, in, len);
	out[1] = 0;
}

static void hash(struct assay_diff__ctx *c, const assay_value *v, struct assay_diff__hash *out);

/*
 * DeepHash's last step: the canonical text, prefixed "str:" (prepare_string_for_hashing), lowered
 * with ignore_string_case, then hashed. A string's text is the string itself, so a string equal
 * to another value's canonical text ("NONE", "bool:true", "list:") is the same item.
 */
static void finish(struct assay_diff__ctx *c, const char *text, size_t len, uint64_t out[2])
{
	assay_buf *b = &c->hash_scratch;

	assay_buf_reset(b);
	assay_buf_add(b, "str:", 4);
	if (c->o->ignore_string_case)
		assay_diff__lower(b, text, len);
	else
		assay_buf_add(b, text, len);
	digest(c, b->ptr, b->len, out);
}

#define HEX 16 /* a child's hash in its parent's text */

static void put_hex(char *p, uint64_t h)
{
	static const char digits[] = "0123456789abcdef";

	for (int k = HEX - 1; k >= 0; k--, h >>= 4)
		p[k] = digits[h & 15];
}

static int part_cmp(const void *x, const void *y)
{
	return memcmp(x, y, 2 * HEX + 1);
}

void assay_diff__hash(struct assay_diff__ctx *c, const assay_value *v,
		      struct assay_diff__hash *out)
{
	if (++c->depth > c->max_depth) {
		c->stop = c->need_stack = true;
		memset(out, 0, sizeof(*out));
	} else {
		hash(c, v, out);
	}
	c->depth--;
}

static bool private_key(const struct assay_diff__ctx *c, const assay_value *k)
{
	return !c->o->strict_types && k->len >= 2 && k->u.s[0] == '_' && k->u.s[1] == '_';
}

static void hash(struct assay_diff__ctx *c, const assay_value *v, struct assay_diff__hash *out)
{
	bool excl = c->nexcl || c->nexcl_rx;
	assay_buf b = ASSAY_BUF_INIT;

	out->count = 1;
	switch ((assay_kind)v->kind) {
	case ASSAY_V_NULL:
		finish(c, "NONE", 4, out->h);
		return;
	case ASSAY_V_BOOL:
		finish(c, v->u.b ? "bool:true" : "bool:false", v->u.b ? 9 : 10, out->h);
		return;
	case ASSAY_V_INT:
	case ASSAY_V_BIGINT:
	case ASSAY_V_REAL:
		assay_buf_adds(&b, "number:");
		if (c->o->strict_types) /* 1 and 1.0 are different items */
			assay_buf_adds(&b, v->kind == ASSAY_V_REAL ? "real:" : "integer:");
		if (c->o->exact_integers && v->kind != ASSAY_V_REAL &&
		    !assay_diff__exact_in_double(v)) {
			/* its own digits: only an equal integer is the same item */
			assay_buf_adds(&b, "int:");
			assay_diff__num_key(&b, v);
		} else {
			assay_diff__num_fixed(&b, v, c->o->significant_digits >= 0
							     ? c->o->significant_digits
							     : 12,
					      c->o->e_notation);
		}
		finish(c, b.ptr, b.len, out->h);
		assay_buf_release(&b);
		return;
	case ASSAY_V_STRING:
	case ASSAY_V_DATETIME:
		finish(c, v->u.s, v->len, out->h);
		return;
	case ASSAY_V_ARRAY:
	case ASSAY_V_OBJECT:
		break;
	}

	bool obj = v->kind == ASSAY_V_OBJECT;
	size_t width = obj ? 2 * HEX + 1 : HEX, n = 0;
	/* fixed-width parts: "keyhash:valuehash" or "hash", sorted as texts */
	char *parts = assay_xmalloc((v->len ? v->len : 1) * (2 * HEX + 1));

	for (uint32_t i = 0; i < v->len; i++) {
		const assay_value *item = obj ? &v->u.members[i].value : &v->u.items[i];
		struct assay_diff__hash h;
		char *part = parts + n * (2 * HEX + 1);
		size_t old = 0;

		if (obj) {
			out->count++; /* DeepHash counts every key */
			if (private_key(c, &v->u.members[i].key))
				continue;
		}
		if (excl) {
			old = obj ? assay_diff__push_key(c, v->u.members[i].key.u.s,
							 v->u.members[i].key.len)
				  : assay_diff__push_index(c, i);
			if (assay_diff__skip(c)) {
				assay_diff__pop(c, old);
				continue;
			}
		}
		assay_diff__hash(c, item, &h);
		if (excl)
			assay_diff__pop(c, old);
		out->count += h.count;
		memset(part, 0, 2 * HEX + 1);
		if (obj) {
			uint64_t kh[2];
			const assay_value *k = &v->u.members[i].key;

			finish(c, k->u.s, k->len, kh);
			put_hex(part, kh[0]);
			part[HEX] = ':';
			put_hex(part + HEX + 1, h.h[0]);
		} else {
			put_hex(part, h.h[0]);
		}
		n++;
	}
	qsort(parts, n, 2 * HEX + 1, part_cmp);
	if (obj) {
		/* "dict:{" + sorted "key:value" joined by ";" + "}" */
		assay_buf_adds(&b, "dict:{");
		for (size_t i = 0; i < n; i++) {
			if (i)
				assay_buf_addch(&b, ';');
			assay_buf_add(&b, parts + i * (2 * HEX + 1), width);
		}
		assay_buf_addch(&b, '}');
	} else {
		/* "list:" + sorted "hash|count" of the distinct items, joined by "," */
		assay_buf_adds(&b, "list:");
		for (size_t i = 0; i < n;) {
			size_t j = i + 1;

			while (j < n && !part_cmp(parts + i * (2 * HEX + 1), parts + j * (2 * HEX + 1)))
				j++;
			if (i)
				assay_buf_addch(&b, ',');
			assay_buf_add(&b, parts + i * (2 * HEX + 1), HEX);
			assay_buf_addf(&b, "|%zu", j - i);
			i = j;
		}
	}
	finish(c, b.ptr, b.len, out->h);
	free(parts);
	assay_buf_release(&b);
}
