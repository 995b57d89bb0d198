/*
 * Arenas: bump allocation in chunks, freed all at once (value.h).
 *
 * Key decisions:
 * - Chunks grow with what the arena already holds (each new chunk is at least an eighth of the
 *   total so far, between 4 KiB and 64 MiB), so a 20 MB document costs a few dozen malloc calls
 *   and wastes at most about an eighth, while a small report costs one 4 KiB chunk.
 * - Strings are packed byte by byte into chunks of their own, so they cost no alignment padding
 *   and do not break up the aligned blocks of values.
 * - A request bigger than a quarter of the next chunk gets a chunk of its own, so a huge string
 *   does not strand the free tail of the current chunk.
 * - The limit is soft: allocation never fails because of it (the builders stay infallible);
 *   parsers ask assay_arena_check() and stop. Real exhaustion aborts as assay_xmalloc does.
 * - The arena is the verification budget: memory a parser holds outside it (its stacks and
 *   tables, libyaml's) is charged to it while held, and a deadline makes assay_arena_check()
 *   stop parsers when the budget's time is spent.
 *
 * - Source positions live in a hash table keyed by the value's data pointer (value.h), which
 *   only parsers that were asked for positions fill: documents compared by verifiers pay
 *   nothing for them. Past ASSAY_ARENA_MAX_POSITIONS values an arena records no more: a
 *   document that big is data (a huge expected output), not configuration a person edits.
 *
 * Refuses to: free single allocations, or move anything (pointers stay valid until the end).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "assay/value.h"
#include "util/banned.h"

#define MIN_CHUNK (4u * 1024)
#define MAX_CHUNK (64u * 1024 * 1024)
#define ALIGN 8u

struct chunk {
	struct chunk *next;
	size_t size; /* usable bytes after the header */
	size_t used;
	/* data follows, 8-aligned */
};

struct posent {
	const void *key;      /* a value's data pointer */
	assay_pos pos;
};

struct assay_arena {
	struct chunk *head;   /* the chunk being filled */
	struct chunk *bytes;  /* the chunk strings are packed into (no alignment) */
	struct chunk *big;    /* chunks made for single big requests */
	size_t total;         /* bytes handed out */
	size_t charged;       /* bytes held elsewhere, counted against the limit */
	size_t limit;
	double deadline;      /* CLOCK_MONOTONIC seconds, 0: none */
	bool expired;
	struct posent *pos;   /* open addressing, power-of-two size, NULL until used */
	size_t npos, pos_cap;
};

#define CHUNK_DATA(c) ((char *)(c) + ((sizeof(struct chunk) + ALIGN - 1) & ~(size_t)(ALIGN - 1)))
#define CHUNK_HEADER ((sizeof(struct chunk) + ALIGN - 1) & ~(size_t)(ALIGN - 1))

assay_arena *assay_arena_new(size_t limit)
{
	assay_arena *a = assay_xcalloc(1, sizeof(*a));

	a->limit = limit;
	return a;
}

static void free_chunks(struct chunk *c)
{
	while (c) {
		struct chunk *next = c->next;

		free(c);
		c = next;
	}
}

void assay_arena_free(assay_arena *a)
{
	if (!a)
		return;
	free_chunks(a->head);
	free_chunks(a->bytes);
	free_chunks(a->big);
	free(a->pos);
	free(a);
}

static struct chunk *new_chunk(size_t size)
{
	struct chunk *c = assay_xmalloc(CHUNK_HEADER + size);

	c->next = NULL;
	c->size = size;
	c->used = 0;
	return c;
}

/* `need` bytes from the chunk list `*list` (values, or strings), a chunk of their own when big. */
static char *take(assay_arena *a, struct chunk **list, size_t need)
{
	struct chunk *c = *list;
	size_t next;

	a->total += need;
	if (c && c->size - c->used >= need) {
		char *p = CHUNK_DATA(c) + c->used;

		c->used += need;
		return p;
	}
	next = a->total / 8;
	if (next < MIN_CHUNK)
		next = MIN_CHUNK;
	if (next > MAX_CHUNK)
		next = MAX_CHUNK;
	if (need > next / 4) {
		c = new_chunk(need);
		c->used = need;
		c->next = a->big;
		a->big = c;
		return CHUNK_DATA(c);
	}
	c = new_chunk(next);
	c->next = *list;
	*list = c;
	c->used = need;
	return CHUNK_DATA(c);
}

void *assay_arena_alloc(assay_arena *a, size_t size)
{
	size_t need = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);

	if (need < size)
		assay_xmalloc(SIZE_MAX); /* overflow: the out-of-memory path */
	return take(a, &a->head, need);
}

/* `size` bytes with no alignment, from the chunk strings share. */
static char *alloc_bytes(assay_arena *a, size_t size)
{
	return take(a, &a->bytes, size);
}

char *assay_arena_strndup(assay_arena *a, const char *s, size_t len)
{
	char *p = alloc_bytes(a, len + 1);

	if (len)
		memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

size_t assay_arena_used(const assay_arena *a)
{
	return a->total + a->charged;
}

size_t assay_arena_limit(const assay_arena *a)
{
	return a->limit;
}

bool assay_arena_over(const assay_arena *a)
{
	return a->limit && a->total + a->charged > a->limit;
}

void assay_arena_charge(assay_arena *a, size_t bytes)
{
	a->charged += bytes;
}

void assay_arena_uncharge(assay_arena *a, size_t bytes)
{
	a->charged -= bytes < a->charged ? bytes : a->charged;
}

double assay_arena_set_deadline(assay_arena *a, double deadline)
{
	double old = a->deadline;

	a->deadline = deadline;
	a->expired = false;
	return old;
}

int assay_arena_check(assay_arena *a)
{
	if (a->deadline > 0 && !a->expired) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		a->expired = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 > a->deadline;
	}
	return a->expired || assay_arena_over(a) ? ASSAY_ETOOBIG : 0;
}

bool assay_arena_expired(const assay_arena *a)
{
	return a->expired;
}

static const void *data_key(const assay_value *v)
{
	switch ((assay_kind)v->kind) {
	case ASSAY_V_STRING:
	case ASSAY_V_BIGINT:
	case ASSAY_V_DATETIME:
	case ASSAY_V_ARRAY:
	case ASSAY_V_OBJECT:
		return v->u.s;
	default:
		return NULL;
	}
}

static size_t slot(const void *key, size_t cap)
{
	uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 32) & (cap - 1);
}

static void pos_put(struct posent *tab, size_t cap, const void *key, assay_pos pos)
{
	size_t h = slot(key, cap);

	while (tab[h].key && tab[h].key != key)
		h = (h + 1) & (cap - 1);
	tab[h].key = key;
	tab[h].pos = pos;
}

void assay_arena_set_position(assay_arena *a, const assay_value *v, assay_pos pos)
{
	const void *key = data_key(v);

	if (!key || a->npos >= ASSAY_ARENA_MAX_POSITIONS)
		return;
	if ((a->npos + 1) * 2 > a->pos_cap) {
		size_t cap = a->pos_cap ? a->pos_cap * 2 : 256;
		struct posent *tab = assay_xcalloc(cap, sizeof(*tab));

		for (size_t i = 0; i < a->pos_cap; i++)
			if (a->pos[i].key)
				pos_put(tab, cap, a->pos[i].key, a->pos[i].pos);
		free(a->pos);
		a->pos = tab;
		a->pos_cap = cap;
	}
	pos_put(a->pos, a->pos_cap, key, pos);
	a->npos++;
}

bool assay_arena_position(const assay_arena *a, const assay_value *v, assay_pos *out)
{
	const void *key = data_key(v);

	if (!key || !a || !a->pos)
		return false;
	for (size_t h = slot(key, a->pos_cap); a->pos[h].key; h = (h + 1) & (a->pos_cap - 1)) {
		if (a->pos[h].key == key) {
			*out = a->pos[h].pos;
			return true;
		}
	}
	return false;
}
