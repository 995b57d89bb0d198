/*
 * Internals shared by the json module (src/lib/json) and the json/jsonl verifiers
 * (src/lib/verify/verify_json.c). Never installed.
 */
#ifndef ASSAY_JSON_INT_H
#define ASSAY_JSON_INT_H

#include "assay/json.h"

/**
 * assay_json_diff() that also reports a regex_paths pattern that does not compile: the diff is
 * still returned (the bad pattern counts as not matching), and `err` (may be NULL) receives
 * ASSAY_EINVALID naming the path and PCRE2's message. The verifiers turn that into a refusal.
 */
json_t *assay_json__diff_ex(const json_t *expected, const json_t *actual,
			    const assay_json_diff_opts *opts, assay_err *err);

/** An object member: key bytes (may hold NUL), length, borrowed value. */
struct assay_json__member {
	const char *key;
	size_t len;
	json_t *value;
};

/**
 * The members of `obj` in insertion order, or sorted by key bytes when `sort`; `*n` receives
 * their count. The array is malloc'd (free() it); keys and values are borrowed from `obj`.
 */
struct assay_json__member *assay_json__members(const json_t *obj, bool sort, size_t *n);

/** Python's type name of a JSON value: int, float, str, bool, NoneType, list, dict. */
const char *assay_json__type_name(const json_t *v);

#endif
