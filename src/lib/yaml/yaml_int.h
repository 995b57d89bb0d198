/*
 * Internals of the YAML loader shared between yaml.c (events -> values) and scalar.c (what a
 * scalar's text means). Never installed.
 */
#ifndef ASSAY_YAML_INT_H
#define ASSAY_YAML_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "assay/value.h"

/* What a scalar resolves to. */
enum yaml_kind {
	YAML_KIND_STR,
	YAML_KIND_NULL,
	YAML_KIND_TRUE,
	YAML_KIND_FALSE,
	YAML_KIND_INT,
	YAML_KIND_FLOAT,
	YAML_KIND_MERGE,     /* `<<` (or !!merge): a merge key as a key, else a string */
	YAML_KIND_TIMESTAMP, /* only when asked for (assay_yaml_opts.timestamps) */
};

/* A scalar event as the resolver sees it: borrowed from the event for the call. */
struct assay_yaml__scalar {
	const char *tag; /* the event's tag (NULL if none) */
	bool implicit;	 /* libyaml's plain_implicit (untagged plain, or the non-specific "!") */
	bool plain;	 /* written in plain style */
	const char *s;	 /* its text, `n` bytes */
	size_t n;
};

/*
 * Resolves scalar `sc` as PyYAML's resolver and SafeConstructor do.
 * @param timestamps resolve timestamps (else they are strings, and !!timestamp gives a string)
 * @return a yaml_kind, or -1 with a message in `msg` (bad content for an explicit tag, an integer
 *         PyYAML cannot convert such as `0b_`, or a collection tag on a scalar)
 */
int assay_yaml__classify(const struct assay_yaml__scalar *sc, bool timestamps, char *msg,
			 size_t msgsize);

/*
 * Makes in `a` the value of scalar `sc` (its text) resolved as `kind` (from
 * assay_yaml__classify; YAML_KIND_MERGE gives the string). @return 0, or -1 with a message in
 * `msg` where PyYAML's constructor fails too: an integer past Python's 4300-digit limit, a
 * sexagesimal float whose powers of 60 no double holds, an impossible date or time.
 */
int assay_yaml__value(assay_value *out, assay_arena *a, int kind,
		      const struct assay_yaml__scalar *sc, char *msg, size_t msgsize);

/* Writes `s` shortened to a printable snippet for messages (at most ~60 bytes, "..." if cut). */
void assay_yaml__snippet(char *out, size_t size, const char *s, size_t n);

#endif
