/*
 * Keys that collide under unkeyed 64-bit FNV-1a in their low 32 bits, the bits a table of up
 * to 2^32 slots indexes by (`h & (cap - 1)`): what a hostile program could print against the
 * tables assay had before util/hash.h. The low 32 bits of FNV-1a's state depend only on the low
 * 32 bits before each byte, so for each of `blocks` positions a pair of 5-character blocks that
 * lead from the same state to the same low 32 bits (a birthday search: 2^18 blocks sorted by
 * their result) gives two choices there, and 2^blocks keys of 5 * blocks characters that all
 * collide. (Shorter blocks cannot collide: FNV's prime is 435 modulo 2^32, and the differences
 * of 3 bytes stay below 2^32.)
 */
#ifndef ASSAY_TEST_FNV_FLOOD_H
#define ASSAY_TEST_FNV_FLOOD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char fnv_flood_alphabet[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

struct fnv_flood_cand {
	uint32_t low;
	uint32_t block;
};

static int fnv_flood_cmp(const void *x, const void *y)
{
	const struct fnv_flood_cand *a = x, *b = y;

	return a->low < b->low ? -1 : a->low > b->low;
}

static uint64_t fnv_flood_step(uint64_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

#define FNV_FLOOD_LEN 5

static void fnv_flood_block(uint32_t b, char out[FNV_FLOOD_LEN])
{
	uint64_t x = (uint64_t)b * 0x9e3779b97f4a7c15ull + 12345;

	for (int i = 0; i < FNV_FLOOD_LEN; i++) {
		x ^= x >> 29;
		x *= 0xbf58476d1ce4e5b9ull;
		out[i] = fnv_flood_alphabet[(x >> 40) % 62];
	}
}

/* The two blocks of each position into pairs[blocks][2][FNV_FLOOD_LEN] (no NUL), for keys
 * hashed after `prefix` (the bytes a table hashes before the key: "" for the key alone). */
static void fnv_flood_pairs_after(const char *prefix, int blocks,
				  char (*pairs)[2][FNV_FLOOD_LEN])
{
	const uint32_t n = 1u << 18;
	struct fnv_flood_cand *c = malloc(n * sizeof(*c));
	uint64_t h = fnv_flood_step(1469598103934665603ull, prefix, strlen(prefix));

	for (int k = 0; k < blocks; k++) {
		uint32_t i;

		for (uint32_t b = 0; b < n; b++) {
			char s[FNV_FLOOD_LEN];

			fnv_flood_block(b, s);
			c[b] = (struct fnv_flood_cand){ (uint32_t)fnv_flood_step(h, s, FNV_FLOOD_LEN),
							b };
		}
		qsort(c, n, sizeof(*c), fnv_flood_cmp);
		for (i = 1; i < n; i++) {
			char x[FNV_FLOOD_LEN], y[FNV_FLOOD_LEN];

			fnv_flood_block(c[i - 1].block, x);
			fnv_flood_block(c[i].block, y);
			if (c[i].low == c[i - 1].low && memcmp(x, y, FNV_FLOOD_LEN))
				break;
		}
		if (i == n)
			abort(); /* 2^18 blocks over 2^32 values: 8 pairs expected */
		fnv_flood_block(c[i - 1].block, pairs[k][0]);
		fnv_flood_block(c[i].block, pairs[k][1]);
		h = fnv_flood_step(h, pairs[k][0], FNV_FLOOD_LEN);
	}
	free(c);
}

/* The pairs for keys hashed alone. */
static inline void fnv_flood_pairs(int blocks, char (*pairs)[2][FNV_FLOOD_LEN])
{
	fnv_flood_pairs_after("", blocks, pairs);
}

/* Key number `i` (< 2^blocks) into `out` (FNV_FLOOD_LEN * blocks characters and a NUL). */
static void fnv_flood_key(char (*pairs)[2][FNV_FLOOD_LEN], int blocks, uint32_t i, char *out)
{
	for (int k = 0; k < blocks; k++)
		memcpy(out + FNV_FLOOD_LEN * k, pairs[k][(i >> k) & 1], FNV_FLOOD_LEN);
	out[FNV_FLOOD_LEN * blocks] = '\0';
}

#endif
