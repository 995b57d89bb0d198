/*
 * deepdiff's DeepHash, as far as assay's comparison depends on it: which items of two lists
 * are "the same" under ignore_order, and how many nodes an item has (its rough length).
 *
 * Key decisions:
 * - Equal hash iff DeepHash's canonical strings are equal: None; booleans apart from numbers;
 *   numbers by Python value (DeepHash's shared cache makes 1 and 1.0 hash alike within one
 *   diff), or by their significant_digits text when that option is set; strings by bytes
 *   (lowered with ignore_string_case, keys too); lists as multisets of their items' hashes
 *   (DeepHash sorts "hash|count" entries); dicts as sets of key/value hash pairs. Excluded
 *   paths are left out, as DeepHash's _skip_this does.
 * - Counts are DeepHash's: 1 per node, plus 1 per dict key (even an excluded one).
 * - The digest is SipHash-2-4 (Aumasson and Bernstein, 2012; implemented from the paper's
 *   description) with a random key per diff, 128 bits from two keyed passes, so a hostile
 *   output cannot craft an item that collides with an expected one.
 * - Recursive, as the walk is (diff.c runs deep documents on a large stack).
 */
#include <stdlib.h>
#include <string.h>

#include "diff/diff_int.h"
#include "util/banned.h"

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

static uint64_t load64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

#define SIPROUND                                                                               \
	do {                                                                                   \
		v0 += v1;                                                                      \
		v1 = ROTL(v1, 13);                                                             \
		v1 ^= v0;                                                                      \
		v0 = ROTL(v0, 32);                                                             \
		v2 += v3;                                                                      \
		v3 = ROTL(v3, 16);                                                             \
		v3 ^= v2;                                                                      \
		v0 += v3;                                                                      \
		v3 = ROTL(v3, 21);                                                             \
		v3 ^= v0;                                                                      \
		v2 += v1;                                                                      \
		v1 = ROTL(v1, 17);                                                             \
		v1 ^= v2;                                                                      \
		v2 = ROTL(v2, 32);                                                             \
	} while (0)

/* SipHash-2-4 of `len` bytes with key `k` (16 bytes). */
static uint64_t siphash(const uint8_t *k, const uint8_t *in, size_t len)
{
	uint64_t k0 = load64(k), k1 = load64(k + 8);
	uint64_t v0 = 0x736f6d6570736575ull ^ k0, v1 = 0x646f72616e646f6dull ^ k1;
	uint64_t v2 = 0x6c7967656e657261ull ^ k0, v3 = 0x7465646279746573ull ^ k1;
	const uint8_t *end = in + (len & ~(size_t)7);
	uint64_t b = (uint64_t)len << 56, m;

	for (; in != end; in += 8) {
		m = load64(in);
		v3 ^= m;
		SIPROUND;
		SIPROUND;
		v0 ^= m;
	}
	for (size_t i = 0; i < (len & 7); i++)
		b |= (uint64_t)in[i] << (8 * i);
	v3 ^= b;
	SIPROUND;
	SIPROUND;
	v0 ^= b;
	v2 ^= 0xff;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	return v0 ^ v1 ^ v2 ^ v3;
}

/* 128 bits: the key, and the key with its first byte flipped. */
static void digest(struct assay_diff__ctx *c, const void *in, size_t len, uint64_t out[2])
{
	uint8_t k2[16];

	memcpy(k2, c->sip_key, 16);
	k2[0] ^= 0x5a;
	out[0] = siphash(c->sip_key, in, len);
	out[1] = siphash(k2, in, len);
}

static int hash_cmp(const void *x, const void *y)
{
	const uint64_t *a = x, *b = y;

	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return (a[1] > b[1]) - (a[1] < b[1]);
}

/* Hashes a string's bytes (lowered with ignore_string_case) tagged with `tag`. */
static void hash_text(struct assay_diff__ctx *c, char tag, const char *s, size_t len,
		      uint64_t out[2])
{
	assay_buf b = ASSAY_BUF_INIT;

	assay_buf_addch(&b, tag);
	if (c->o->ignore_string_case && tag != 'T')
		assay_diff__lower(&b, s, len);
	else
		assay_buf_add(&b, s, len);
	digest(c, b.ptr, b.len, out);
	assay_buf_release(&b);
}

static void hash(struct assay_diff__ctx *c, const assay_value *v, struct assay_diff__hash *out);

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

static void hash(struct assay_diff__ctx *c, const assay_value *v, struct assay_diff__hash *out)
{
	bool excl = c->nexcl || c->nexcl_rx;
	assay_buf b = ASSAY_BUF_INIT;

	out->count = 1;
	switch ((assay_kind)v->kind) {
	case ASSAY_V_NULL:
		digest(c, "N", 1, out->h);
		return;
	case ASSAY_V_BOOL:
		digest(c, v->u.b ? "B1" : "B0", 2, out->h);
		return;
	case ASSAY_V_INT:
	case ASSAY_V_BIGINT:
	case ASSAY_V_REAL:
		assay_buf_addch(&b, '#');
		if (c->o->significant_digits >= 0)
			assay_diff__num_fixed(&b, v, c->o->significant_digits);
		else if (!assay_diff__num_key(&b, v))
			assay_buf_adds(&b, "nan");
		digest(c, b.ptr, b.len, out->h);
		assay_buf_release(&b);
		return;
	case ASSAY_V_STRING:
		hash_text(c, 'S', v->u.s, v->len, out->h);
		return;
	case ASSAY_V_DATETIME:
		hash_text(c, 'T', v->u.s, v->len, out->h);
		return;
	case ASSAY_V_ARRAY:
	case ASSAY_V_OBJECT:
		break;
	}

	bool obj = v->kind == ASSAY_V_OBJECT;
	uint64_t (*parts)[2] = assay_xmalloc((v->len ? v->len : 1) * sizeof(*parts));
	size_t n = 0;

	for (uint32_t i = 0; i < v->len; i++) {
		const assay_value *item = obj ? &v->u.members[i].value : &v->u.items[i];
		struct assay_diff__hash h;
		size_t old = 0;

		if (obj)
			out->count++; /* DeepHash counts every key */
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
		if (obj) {
			uint64_t pair[4], kh[2];
			const assay_value *k = &v->u.members[i].key;

			hash_text(c, 'S', k->u.s, k->len, kh);
			pair[0] = kh[0], pair[1] = kh[1], pair[2] = h.h[0], pair[3] = h.h[1];
			digest(c, pair, sizeof(pair), parts[n]);
		} else {
			parts[n][0] = h.h[0], parts[n][1] = h.h[1];
		}
		n++;
	}
	qsort(parts, n, sizeof(*parts), hash_cmp);
	assay_buf_addch(&b, obj ? 'D' : 'L');
	assay_buf_add(&b, parts, n * sizeof(*parts));
	digest(c, b.ptr, b.len, out->h);
	assay_buf_release(&b);
	free(parts);
}
