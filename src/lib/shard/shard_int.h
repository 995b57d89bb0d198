/*
 * Internals of the shard module (src/lib/shard), shared by its files. Never installed.
 */
#ifndef ASSAY_SHARD_INT_H
#define ASSAY_SHARD_INT_H

#include <stdint.h>

#include "assay/shard.h"

/* FNV-1a, 64 bits, of the NUL-terminated `s`: the same on every machine. */
static inline uint64_t assay_shard__hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	return h;
}

/* The duration of `checkpoint/group/id`, or a negative number when the table has none. */
double assay_shard__duration(const assay_shard_durations *d, const char *name);
/* The mean of every duration in the table (0 when empty). */
double assay_shard__duration_mean(const assay_shard_durations *d);

#endif
