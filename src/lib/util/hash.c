/*
 * The keyed hash and the hash table of util/hash.h.
 *
 * Key decisions:
 * - SipHash-1-3 (Aumasson and Bernstein's SipHash, with the one compression round and three
 *   finalisation rounds Python and Rust chose for hash tables; written from the paper). The
 *   key is drawn once per process (pthread_once) from getrandom(); should getrandom fail (a
 *   kernel without it), from the clock, the pid and an address: weaker, never fatal.
 * - The table stores entry numbers and 32 bits of each hash, never keys: callers compare.
 *
 * Refuses to: delete single entries (every user builds a table, looks up, then drops it).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "assay/common.h"
#include "util/hash.h"
#include "util/banned.h"

static uint64_t key0, key1;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static _Thread_local uint64_t released_probes;

static void draw_key(void)
{
	uint64_t k[2] = { 0, 0 };

	if (getrandom(k, sizeof(k), GRND_NONBLOCK) != (ssize_t)sizeof(k)) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		k[0] = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
		k[1] = (uint64_t)(uintptr_t)&k ^ (uint64_t)ts.tv_sec * 0xbf58476d1ce4e5b9ull;
	}
	key0 = k[0];
	key1 = k[1];
}

void assay_hash_key(uint8_t out[16])
{
	pthread_once(&key_once, draw_key);
	memcpy(out, &key0, 8);
	memcpy(out + 8, &key1, 8);
}

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
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

static inline uint64_t load64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/* SipHash-c-d (Aumasson and Bernstein, 2012) of `len` bytes under k0, k1. */
static inline __attribute__((always_inline)) uint64_t sip(uint64_t k0, uint64_t k1,
							   const void *data, size_t len,
							   int c, int d)
{
	const unsigned char *in = data;
	uint64_t v0 = 0x736f6d6570736575ull ^ k0, v1 = 0x646f72616e646f6dull ^ k1;
	uint64_t v2 = 0x6c7967656e657261ull ^ k0, v3 = 0x7465646279746573ull ^ k1;
	const unsigned char *end = in + (len & ~(size_t)7);
	uint64_t b = (uint64_t)len << 56, m;

	for (; in != end; in += 8) {
		m = load64(in);
		v3 ^= m;
		for (int i = 0; i < c; i++)
			SIPROUND;
		v0 ^= m;
	}
	switch (len & 7) {
	case 7: b |= (uint64_t)in[6] << 48; /* fall through */
	case 6: b |= (uint64_t)in[5] << 40; /* fall through */
	case 5: b |= (uint64_t)in[4] << 32; /* fall through */
	case 4: b |= (uint64_t)in[3] << 24; /* fall through */
	case 3: b |= (uint64_t)in[2] << 16; /* fall through */
	case 2: b |= (uint64_t)in[1] << 8;  /* fall through */
	case 1: b |= (uint64_t)in[0]; break;
	default: break;
	}
	v3 ^= b;
	for (int i = 0; i < c; i++)
		SIPROUND;
	v0 ^= b;
	v2 ^= 0xff;
	for (int i = 0; i < d; i++)
		SIPROUND;
	return v0 ^ v1 ^ v2 ^ v3;
}

static uint64_t siphash13(uint64_t k0, uint64_t k1, const void *data, size_t len)
{
	return sip(k0, k1, data, len, 1, 3);
}

uint64_t assay_siphash24(const uint8_t key[16], const void *p, size_t len)
{
	return sip(load64(key), load64(key + 8), p, len, 2, 4);
}

uint64_t assay_hash(const void *p, size_t len)
{
	pthread_once(&key_once, draw_key);
	return siphash13(key0, key1, p, len);
}

uint64_t assay_hash_tweak(const void *p, size_t len, uint64_t tweak)
{
	pthread_once(&key_once, draw_key);
	return siphash13(key0 ^ tweak, key1 + tweak * 0x9e3779b97f4a7c15ull, p, len);
}

/* ---- the table ------------------------------------------------------------------------- */

static void rehash(assay_htab *t, size_t cap)
{
	struct assay_htab_slot *old = t->slot;
	size_t oldcap = old ? t->mask + 1 : 0;

	t->slot = assay_xcalloc(cap, sizeof(*t->slot));
	t->mask = cap - 1;
	for (size_t i = 0; i < oldcap; i++) {
		if (!old[i].idx)
			continue;
		size_t pos = old[i].h & t->mask;

		while (t->slot[pos].idx)
			pos = (pos + 1) & t->mask;
		t->slot[pos] = old[i];
	}
	free(old);
}

void assay_htab_reserve(assay_htab *t, size_t n)
{
	size_t cap = 16;

	while (cap < 2 * n + 2)
		cap *= 2;
	if (!t->slot || cap > t->mask + 1)
		rehash(t, cap);
}

void assay_htab_add(assay_htab *t, uint64_t hash, size_t i)
{
	size_t pos;

	if (i >= UINT32_MAX)
		ASSAY_BUG("hash table entry number past 32 bits");
	if (!t->slot || 2 * (t->len + 1) > t->mask + 1)
		assay_htab_reserve(t, t->len + 1);
	pos = (size_t)hash & t->mask;
	while (t->slot[pos].idx) {
		t->probes++;
		pos = (pos + 1) & t->mask;
	}
	t->slot[pos] = (struct assay_htab_slot){ (uint32_t)i + 1, (uint32_t)hash };
	t->len++;
}

void assay_htab_release(assay_htab *t)
{
	released_probes += t->probes;
	free(t->slot);
	*t = (assay_htab)ASSAY_HTAB_INIT;
}

uint64_t assay_htab_probes(void)
{
	return released_probes;
}
