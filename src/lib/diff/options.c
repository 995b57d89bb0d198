/*
 * The comparison options of the json family of verifiers (diff.h), read from a verify entry.
 *
 * Key decisions: a path option takes one string or a list of strings; regex_paths also takes a
 * mapping path -> full | prefix | search; weights a mapping path -> number > 0. Regular
 * expressions (exclude_regex_paths) are compiled here, so a bad one is a load-time error of the
 * suite. A bare exclude path ("a", "0") means root['a'] (and root[0]), as deepdiff's
 * add_root_to_paths does.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "diff/diff_int.h"
#include "util/banned.h"

const char *const assay_diff_option_names[] = { ASSAY_DIFF_OPTION_NAMES, NULL };

static int bad(assay_err *err, const char *name, const char *what)
{
	return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0, "option '%s' must be %s", name, what);
}

static int opt_bool(const assay_value *o, const char *name, bool *out, assay_err *err)
{
	const assay_value *v = assay_object_get(o, name);

	if (!v || v->kind == ASSAY_V_NULL)
		return 0;
	if (v->kind != ASSAY_V_BOOL)
		return bad(err, name, "true or false");
	*out = v->u.b;
	return 0;
}

static int opt_tol(const assay_value *o, const char *name, double *out, assay_err *err)
{
	const assay_value *v = assay_object_get(o, name);
	double d;

	if (!v || v->kind == ASSAY_V_NULL)
		return 0;
	d = assay_value_number(v);
	if (!assay_value_is_number(v) || !(d >= 0) || isinf(d))
		return bad(err, name, "a number >= 0");
	*out = d;
	return 0;
}

static int opt_count(const assay_value *o, const char *name, int64_t max, int64_t *out,
		     assay_err *err)
{
	const assay_value *v = assay_object_get(o, name);

	if (!v || v->kind == ASSAY_V_NULL)
		return 0;
	if (v->kind != ASSAY_V_INT || v->u.i < 0 || v->u.i > max)
		return bad(err, name, "a whole number >= 0");
	*out = v->u.i;
	return 0;
}

/* A string or a list of strings, into an array of C strings in `a`. */
static int opt_strings(const assay_value *o, const char *name, assay_arena *a,
		       const char ***out, size_t *n, const char *what, assay_err *err)
{
	const assay_value *v = assay_object_get(o, name);
	const assay_value *items = v;
	size_t count = 1;

	if (!v || v->kind == ASSAY_V_NULL)
		return 0;
	if (v->kind == ASSAY_V_ARRAY) {
		count = v->len;
		items = v->u.items;
	} else if (v->kind != ASSAY_V_STRING) {
		return bad(err, name, what);
	}
	*out = assay_arena_alloc(a, (count ? count : 1) * sizeof(**out));
	for (size_t i = 0; i < count; i++) {
		if (items[i].kind != ASSAY_V_STRING || memchr(items[i].u.s, '\0', items[i].len))
			return bad(err, name, what);
		(*out)[i] = items[i].u.s;
	}
	*n = count;
	return 0;
}

static bool valid_mode(const assay_value *m)
{
	return assay_value_is_str(m, "full") || assay_value_is_str(m, "prefix") ||
	       assay_value_is_str(m, "search");
}

static int opt_regex_paths(assay_diff_opts *opts, assay_arena *a, const assay_value *o,
			   assay_err *err)
{
	const assay_value *v = assay_object_get(o, "regex_paths");
	static const char *const what = "a path, a list of paths, or a mapping of paths to full, "
					"prefix or search";

	if (!v || v->kind == ASSAY_V_NULL)
		return 0;
	if (v->kind != ASSAY_V_OBJECT) {
		int rc = opt_strings(o, "regex_paths", a, &opts->regex_paths, &opts->nregex_paths,
				     what, err);

		if (rc)
			return rc;
		opts->regex_modes = assay_arena_alloc(a, (opts->nregex_paths + 1) * sizeof(char *));
		for (size_t i = 0; i < opts->nregex_paths; i++)
			opts->regex_modes[i] = "full";
		return 0;
	}
	opts->regex_paths = assay_arena_alloc(a, (v->len + 1) * sizeof(char *));
	opts->regex_modes = assay_arena_alloc(a, (v->len + 1) * sizeof(char *));
	for (uint32_t i = 0; i < v->len; i++) {
		if (!valid_mode(&v->u.members[i].value))
			return bad(err, "regex_paths", what);
		opts->regex_paths[i] = v->u.members[i].key.u.s;
		opts->regex_modes[i] = v->u.members[i].value.u.s;
	}
	opts->nregex_paths = v->len;
	return 0;
}

static int opt_weights(assay_diff_opts *opts, assay_arena *a, const assay_value *o,
		       assay_err *err)
{
	const assay_value *v = assay_object_get(o, "weights");

	if (!v || v->kind == ASSAY_V_NULL)
		return 0;
	if (v->kind != ASSAY_V_OBJECT)
		return bad(err, "weights", "a mapping of paths to numbers > 0");
	opts->weights = assay_arena_alloc(a, (v->len + 1) * sizeof(*opts->weights));
	for (uint32_t i = 0; i < v->len; i++) {
		double w = assay_value_number(&v->u.members[i].value);

		if (!assay_value_is_number(&v->u.members[i].value) || !(w > 0) || isinf(w))
			return bad(err, "weights", "a mapping of paths to numbers > 0");
		opts->weights[i].path = v->u.members[i].key.u.s;
		opts->weights[i].weight = w;
	}
	opts->nweights = v->len;
	return 0;
}

static int check_regexes(const assay_diff_opts *opts, assay_err *err)
{
	for (size_t i = 0; i < opts->nexclude_regex_paths; i++) {
		int ecode;
		PCRE2_SIZE eoff;
		pcre2_code *code = pcre2_compile((PCRE2_SPTR)opts->exclude_regex_paths[i],
						 PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_UCP,
						 &ecode, &eoff, NULL);

		if (!code) {
			PCRE2_UCHAR msg[256];

			pcre2_get_error_message(ecode, msg, sizeof(msg));
			return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
					     "exclude_regex_paths: '%s' does not compile: %s (at "
					     "offset %zu)",
					     opts->exclude_regex_paths[i], (const char *)msg,
					     (size_t)eoff);
		}
		pcre2_code_free(code);
	}
	return 0;
}

int assay_diff_opts_parse(assay_diff_opts *opts, assay_arena *a, const assay_value *options,
			  assay_err *err)
{
	int64_t digits = -1, max_diffs = -1;
	int rc;

	*opts = (assay_diff_opts)ASSAY_DIFF_OPTS_INIT;
	if (!options || options->kind == ASSAY_V_NULL)
		return 0;
	if (options->kind != ASSAY_V_OBJECT)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "verify options must be a mapping");
	if ((rc = opt_bool(options, "ignore_order", &opts->ignore_order, err)) ||
	    (rc = opt_bool(options, "ignore_extra_keys", &opts->ignore_extra_keys, err)) ||
	    (rc = opt_bool(options, "exact_integers", &opts->exact_integers, err)) ||
	    (rc = opt_bool(options, "strict_types", &opts->strict_types, err)) ||
	    (rc = opt_bool(options, "ignore_string_case", &opts->ignore_string_case, err)) ||
	    (rc = opt_tol(options, "abs_tol", &opts->abs_tol, err)) ||
	    (rc = opt_tol(options, "rel_tol", &opts->rel_tol, err)) ||
	    (rc = opt_count(options, "significant_digits", 300, &digits, err)) ||
	    (rc = opt_count(options, "max_diffs", INT64_MAX, &max_diffs, err)) ||
	    (rc = opt_strings(options, "exclude_paths", a, &opts->exclude_paths,
			      &opts->nexclude_paths, "a path or a list of paths like root['a'][0]",
			      err)) ||
	    (rc = opt_strings(options, "exclude_regex_paths", a, &opts->exclude_regex_paths,
			      &opts->nexclude_regex_paths, "a regex or a list of regexes", err)) ||
	    (rc = opt_strings(options, "sort_by", a, &opts->sort_by, &opts->nsort_by,
			      "a key name or a list of key names", err)) ||
	    (rc = opt_regex_paths(opts, a, options, err)) ||
	    (rc = opt_weights(opts, a, options, err)) || (rc = check_regexes(opts, err)))
		return rc;
	const assay_value *nf = assay_object_get(options, "number_format_notation");
	if (nf && nf->kind != ASSAY_V_NULL) {
		if (!assay_value_is_str(nf, "f") && !assay_value_is_str(nf, "e"))
			return bad(err, "number_format_notation", "f or e");
		opts->e_notation = assay_value_is_str(nf, "e");
	}
	for (size_t i = 0; i < opts->nexclude_paths; i++)
		if (!*opts->exclude_paths[i])
			return bad(err, "exclude_paths", "a list of non-empty paths");
	if (assay_object_get(options, "significant_digits") &&
	    assay_object_get(options, "significant_digits")->kind != ASSAY_V_NULL)
		opts->significant_digits = (int)digits;
	opts->max_diffs = max_diffs;
	return 0;
}
