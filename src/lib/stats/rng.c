/*
 * assay_rng: xoshiro256** seeded through splitmix64, written from the public-domain reference
 * code of David Blackman and Sebastiano Vigna (xoshiro256starstar.c and splitmix64.c, 2018,
 * prng.di.unimi.it) and their paper "Scrambled linear pseudorandom number generators" (ACM
 * TOMS 47(4), 2021).
 *
 * Key decisions: the double in [0, 1) takes the top 53 bits (the reference's recommended
 * conversion); the bounded integer rejects the 2^64 mod n lowest draws and reduces the rest
 * modulo n, so every value is equally likely (the method of OpenBSD's arc4random_uniform).
 * Refuses to: be used for anything secret.
 */
#include "assay/stats.h"
#include "util/banned.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void assay_rng_seed(assay_rng *rng, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		rng->s[i] = splitmix64(&seed);
}

uint64_t assay_rng_u64(assay_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double assay_rng_double(assay_rng *rng)
{
	return (double)(assay_rng_u64(rng) >> 11) * 0x1.0p-53;
}

uint64_t assay_rng_below(assay_rng *rng, uint64_t n)
{
	ASSAY_ASSERT(n > 0);
	/* 2^64 mod n, computed in 64 bits: (2^64 - n) mod n. */
	uint64_t threshold = (0 - n) % n;

	for (;;) {
		uint64_t x = assay_rng_u64(rng);
		if (x >= threshold)
			return x % n;
	}
}
