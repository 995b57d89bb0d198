/*
 * Internals of the YAML loader shared between yaml.c (events -> values) and scalar.c (what a
 * scalar's text means). Never installed.
 */
#ifndef ASSAY_YAML_INT_H
#define ASSAY_YAML_INT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* What a scalar resolves to. */
enum yaml_kind {
	YAML_KIND_STR,
	YAML_KIND_NULL,
	YAML_KIND_TRUE,
	YAML_KIND_FALSE,
	YAML_KIND_INT,
	YAML_KIND_FLOAT,
	YAML_KIND_MERGE, /* `<<` (or !!merge): a merge key in key position, a string elsewhere */
};

/*
 * Resolves a scalar as PyYAML's resolver and SafeConstructor do.
 * @param tag      the event's tag (NULL if none)
 * @param implicit libyaml's plain_implicit (untagged plain scalar, or the non-specific tag "!")
 * @param plain    the scalar was written in plain style
 * @return a yaml_kind, or -1 with a message in `msg` (bad content for an explicit tag, an integer
 *         PyYAML cannot convert such as `0b_`, or a collection tag on a scalar)
 */
int assay_yaml__classify(const char *tag, bool implicit, bool plain, const char *s, size_t n,
			 char *msg, size_t msgsize);

/*
 * A new value for `s` resolved as `kind` (from assay_yaml__classify; YAML_KIND_MERGE gives the
 * string). NULL only when a string is not valid UTF-8.
 */
json_t *assay_yaml__value(int kind, const char *s, size_t n);

/* Writes `s` shortened to a printable snippet for messages (at most ~60 bytes, "..." if cut). */
void assay_yaml__snippet(char *out, size_t size, const char *s, size_t n);

#endif
