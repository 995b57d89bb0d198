/*
 * One keyed hash and one hash table for every module that looks things up by bytes it did not
 * choose (object keys of a submission's output, case names of a results file...). Never
 * installed.
 *
 * - assay_hash() is SipHash-1-3 (the variant Python and Rust use for their dicts) keyed with
 *   16 bytes drawn once per process from getrandom(): which keys collide cannot be known
 *   without the key, so no output can be made of keys that collide (a hash flood), as it could
 *   for the unkeyed FNV-1a it replaces (65,536 such YAML keys took 12.5 s).
 * - assay_htab is an open-addressing index (linear probing, at most half full) from a hash to
 *   the caller's entry numbers: the caller keeps its entries (a value stack, an array of
 *   records) and compares keys itself, so one table serves every kind of key. Each slot keeps
 *   32 bits of the hash, so most non-matching entries are skipped without comparing keys and
 *   growing needs no rehashing of keys.
 * - A table counts its probe steps (assay_htab.probes), and every table released adds them to
 *   a per-thread total (assay_htab_probes()): tests assert that a flood costs linear work
 *   without timing anything.
 *
 * Not for hashes that must be the same on every machine (shard's split order keeps its own).
 */
#ifndef ASSAY_UTIL_HASH_H
#define ASSAY_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

/* SipHash-1-3 of `len` bytes at `p` under the process's key (drawn at the first call). */
uint64_t assay_hash(const void *p, size_t len);

/* assay_hash() of `len` bytes at `p` and a 64-bit `tweak` (an INI section's number...). */
uint64_t assay_hash_tweak(const void *p, size_t len, uint64_t tweak);

/* SipHash-2-4 of `len` bytes at `p` under a caller's 16-byte key: for digests whose collisions
 * would change a verdict (the diff's items under ignore_order, json_schema's uniqueItems). */
uint64_t assay_siphash24(const uint8_t key[16], const void *p, size_t len);

/* The process's 16-byte key (for a module that needs a keyed hash of its own making). */
void assay_hash_key(uint8_t out[16]);

struct assay_htab_slot {
	uint32_t idx; /* entry + 1; 0: empty */
	uint32_t h;   /* the low 32 bits of the entry's hash */
};

typedef struct assay_htab {
	struct assay_htab_slot *slot; /* NULL until the first add */
	size_t mask;                  /* slots - 1 */
	size_t len;                   /* entries */
	uint64_t probes;              /* slots looked at so far */
} assay_htab;

#define ASSAY_HTAB_INIT { NULL, 0, 0, 0 }
/* What a walk returns when no entry is left. */
#define ASSAY_HTAB_END ((size_t)-1)

/* A walk over the entries that may have one hash (assay_htab_first, assay_htab_next). */
typedef struct assay_htab_it {
	size_t pos;
	uint32_t h;
} assay_htab_it;

static inline size_t assay_htab__scan(assay_htab *t, assay_htab_it *it)
{
	for (;;) {
		const struct assay_htab_slot *s = &t->slot[it->pos];

		t->probes++;
		if (!s->idx)
			return ASSAY_HTAB_END;
		if (s->h == it->h)
			return s->idx - 1;
		it->pos = (it->pos + 1) & t->mask;
	}
}

/*
 * The first entry whose hash may be `hash`, or ASSAY_HTAB_END; the caller compares its key and
 * calls assay_htab_next() for the next candidate:
 *     for (size_t i = assay_htab_first(t, h, &it); i != ASSAY_HTAB_END;
 *          i = assay_htab_next(t, &it))
 *             if (same(i, key)) return i;
 */
static inline size_t assay_htab_first(assay_htab *t, uint64_t hash, assay_htab_it *it)
{
	it->h = (uint32_t)hash;
	if (!t->slot)
		return ASSAY_HTAB_END;
	it->pos = (size_t)hash & t->mask;
	return assay_htab__scan(t, it);
}

static inline size_t assay_htab_next(assay_htab *t, assay_htab_it *it)
{
	it->pos = (it->pos + 1) & t->mask;
	return assay_htab__scan(t, it);
}

/* Adds entry `i` (< UINT32_MAX) under `hash`; the table grows to stay at most half full. An
 * entry already there under that hash is not looked for (a second one is added). */
void assay_htab_add(assay_htab *t, uint64_t hash, size_t i);

/* Makes room for `n` entries in all without growing again. */
void assay_htab_reserve(assay_htab *t, size_t n);

/* Bytes the table holds (for a parser that counts its memory against a budget). */
static inline size_t assay_htab_bytes(const assay_htab *t)
{
	return t->slot ? (t->mask + 1) * sizeof(*t->slot) : 0;
}

/* Frees the table (its probes go to this thread's total) and sets it to ASSAY_HTAB_INIT. */
void assay_htab_release(assay_htab *t);

/* Probe steps of every table this thread released so far (for tests). */
uint64_t assay_htab_probes(void);

#endif
