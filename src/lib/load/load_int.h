/*
 * Internals of the suite loader: parsed documents with source positions, and the helpers that
 * report a problem at the position of the JSON node it is about.
 */
#ifndef ASSAY_LOAD_INT_H
#define ASSAY_LOAD_INT_H

#include <jansson.h>

#include "assay/suite.h"
#include "assay/yaml.h"

/* A parsed YAML or JSON file. */
struct doc {
	char *path;
	json_t *root;
	assay_yaml_marks *marks; /* NULL for JSON files */
};

#define DOC_INIT { NULL, NULL, NULL }

/* Reads and parses `path` (.json as JSON, anything else as YAML). 0, EPARSE, ENOTFOUND, EIO. */
int assay_load__doc(struct doc *d, const char *path, assay_err *err);
void assay_load__doc_release(struct doc *d);

/* The documents a merged value may have come from, searched in order for a node's position. */
struct docset {
	const struct doc *docs[4];
	size_t n;
};

/* Records `code` and a message at the position of `node` (or the first document's path). */
int assay_load__node_err(const struct docset *ds, const json_t *node, assay_err *err, int code,
			 const char *fmt, ...) ASSAY_PRINTF(5, 6);

/* Formats a message located at `node` into a new string (for warnings). */
char *assay_load__node_msg(const struct docset *ds, const json_t *node, const char *fmt, ...)
	ASSAY_PRINTF(3, 4);

/*
 * A new value: `over` deep-merged onto `base` (mappings merge key by key, anything else in
 * `over` replaces). Unchanged subtrees are shared, not copied, so source positions survive;
 * treat the result as read-only. Either argument may be NULL.
 */
json_t *assay_load__merge(const json_t *base, const json_t *over);

/*
 * A new value with every "{{static:NAME}}" in every string replaced by the asset's absolute
 * path (`assets`: NAME -> path string). Unchanged subtrees are shared.
 * @return NULL with `err` set (ASSAY_EINVALID) for an unknown asset name
 */
json_t *assay_load__substitute(const json_t *v, const json_t *assets, const struct docset *ds,
			       assay_err *err);

/* The text of a scalar (string as is, number/bool as written); NULL for null/array/object.
 * The result is borrowed from `v` or stored in `scratch`. */
const char *assay_load__scalar_text(const json_t *v, char *scratch, size_t size);

/* Fills `c` (id and file already set) from the merged case mapping `def`. */
struct case_ctx {
	const struct docset *ds;
	const json_t *own;             /* the case file's own mapping (warnings are about it) */
	assay_adapter_type adapter;
	const assay_strvec *base_env;  /* adapter + checkpoint env, "K=V" */
	double timeout;                /* inherited timeout, seconds */
	assay_warn_fn warn;
	void *payload;
};
int assay_load__case(assay_case *c, json_t *def, const struct case_ctx *ctx, assay_err *err);

/* A list of strings (numbers as written), or one string split with shell quoting, appended to
 * `out`; `what` names the key in messages. 0 or ASSAY_EINVALID at the value's position. */
int assay_load__argv(assay_strvec *out, const json_t *v, const char *what,
		     const struct docset *ds, assay_err *err);

/* Shared value readers: an env mapping into "K=V"/"K" entries; a timeout in seconds > 0. */
int assay_load__env(assay_strvec *env, const json_t *v, const struct docset *ds, assay_err *err);
int assay_load__timeout(double *out, const json_t *v, const struct docset *ds, assay_err *err);

/* Serialises an input file's content per file_type into `out`. 0 or ASSAY_EINVALID. */
struct assay_buf;
int assay_load__input_content(struct assay_buf *out, const json_t *content, const char *file_type,
			      const struct docset *ds, assay_err *err);

#endif
