/**
 * @file diff.h
 * The structural diff: two values compared the way python deepdiff compares them, reported in
 * deepdiff's JSON vocabulary, with assay's comparison options.
 * Spec: suite-format.md "Verifiers (built in)" (json options) and the deepdiff paragraph below
 * it; docs/internals/deepdiff-parity.md (parity with deepdiff 6.2.2, ignore_order as multisets
 * with repetition_change, exclude paths, string case, significant digits, max_diffs, per-path
 * weights).
 * docs/internals/deepdiff-parity.md describes the semantics in full.
 */
#ifndef ASSAY_DIFF_H
#define ASSAY_DIFF_H

#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A path weight: differences at or below `path` weigh `weight` (see assay_diff_score). */
typedef struct assay_diff_weight {
	const char *path; /**< deepdiff path, e.g. "root['a'][0]" */
	double weight;
} assay_diff_weight;

/**
 * Options of the structural comparison (the json verifier's). Set up with
 * ASSAY_DIFF_OPTS_INIT or assay_diff_opts_parse(); strings are borrowed from where they were
 * parsed (the verify entry).
 */
typedef struct assay_diff_opts {
	bool ignore_order;            /**< arrays compare as multisets (counts matter) */
	double abs_tol;               /**< numbers equal if math.isclose(a, b, rel_tol, abs_tol)
					   (default 1e-6: deepdiff's math_epsilon) */
	double rel_tol;               /**< relative tolerance, at least 1e-9 (the rel_tol deepdiff's
					   math_epsilon brings) */
	int significant_digits;       /**< >= 0: numbers compare by their text rounded to this
					   many digits after the point (deepdiff's); -1: by the
					   tolerances. Items under ignore_order are always told apart
					   this way (12 digits when -1), as deepdiff's DeepHash does */
	bool e_notation;              /**< significant_digits in scientific notation
					   (number_format_notation: e) */
	bool ignore_string_case;      /**< strings compare case-insensitively (deepdiff's
					   str.lower) */
	bool ignore_extra_keys;       /**< keys only in actual are not differences */
	bool exact_integers;          /**< assay's: two integers compare exactly, whatever the
					   tolerances (deepdiff compares them as doubles, so 2**53+1
					   equals 2**53); an integer and a float still by tolerance */
	bool strict_types;            /**< assay's: bool, integer and float are three types (1 vs
					   1.0 and true vs 1 are type_changes, also inside lists
					   and under ignore_order), and keys starting with "__" are
					   compared (deepdiff ignores them) */
	const char **exclude_paths;   /**< exact paths ("root['a'][0]", or a bare key "a") */
	size_t nexclude_paths;
	const char **exclude_regex_paths; /**< PCRE2 patterns searched in paths */
	size_t nexclude_regex_paths;
	const char **sort_by;         /**< keys: top-level arrays of objects are stable-sorted by
					   them on both sides first */
	size_t nsort_by;
	const char **regex_paths;     /**< paths whose expected string is a PCRE2 pattern */
	const char **regex_modes;     /**< "full" | "prefix" | "search", one per path */
	size_t nregex_paths;
	assay_diff_weight *weights;   /**< per-path weights for partial credit */
	size_t nweights;
	long long max_diffs;          /**< deepdiff's max_diffs: stop once this many comparison
					   steps are passed (it counts steps, not differences; see
					   docs/internals/deepdiff-parity.md 9.6); < 0: no limit */
} assay_diff_opts;

#define ASSAY_DIFF_OPTS_INIT                                                                   \
	{ .abs_tol = 1e-6, .rel_tol = 0.0, .significant_digits = -1, .max_diffs = -1 }

/** The option names assay_diff_opts_parse() reads, as a list to open an array initializer with
 *  (a verifier adds its own and the NULL). */
#define ASSAY_DIFF_OPTION_NAMES                                                                \
	"ignore_order", "abs_tol", "rel_tol", "significant_digits", "ignore_string_case",     \
		"ignore_extra_keys", "exact_integers", "strict_types", "exclude_paths",        \
		"exclude_regex_paths", "sort_by", "regex_paths", "weights", "max_diffs",       \
		"number_format_notation"

/** ASSAY_DIFF_OPTION_NAMES, NULL-terminated. */
ASSAY_EXTERN extern const char *const assay_diff_option_names[];

/**
 * Reads the comparison options out of a verify entry (`{verifier, weight, ignore_order, ...}`);
 * keys it does not know are ignored (the verifier checks those). Strings stay borrowed from
 * `options`; arrays are made in `a`.
 * @return 0, or ASSAY_EINVALID naming the bad option (e.g. "option 'abs_tol' must be a number
 *         >= 0"), or a regex that does not compile
 */
ASSAY_EXTERN int assay_diff_opts_parse(assay_diff_opts *opts, assay_arena *a,
				       const assay_value *options, assay_err *err);

/** What a comparison found, besides the report itself. */
typedef struct assay_diff_info {
	size_t count;        /**< differences reported (deepdiff's tree length) */
	bool truncated;      /**< stopped at max_diffs */
	bool over_budget;    /**< stopped at the deadline or the arena's limit: incomplete */
	double score;        /**< with weights: the weighted share of paths without a difference;
				  without: 1.0 when nothing differs, else 0.0 */
} assay_diff_info;

/**
 * Compares `expected` (deepdiff's t1, "old") with `actual` (t2, "new") and makes, in `a`, the
 * report in deepdiff's to_json() vocabulary, an empty object when they are equal:
 *   type_changes:            {path: {"old_type", "new_type", "old_value", "new_value"}}
 *   dictionary_item_added:   [path, ...]   keys only in actual
 *   dictionary_item_removed: [path, ...]   keys only in expected
 *   values_changed:          {path: {"new_value": a, "old_value": e}}
 *   iterable_item_added:     {path: value} items only in actual
 *   iterable_item_removed:   {path: value} items only in expected
 *   repetition_change:       {path: {"old_repeat", "new_repeat", "old_indexes", "new_indexes",
 *                                    "value"}}   (ignore_order)
 * Paths look like root['a'][0]. Values in the report share data with `expected` and `actual`.
 * Everything the report holds (its paths, its values) is made in `a`, and the differences found
 * are charged to `a` while the comparison runs, so `a`'s limit bounds both; the limit is
 * checked at every difference found and every 4,096 comparison steps.
 * Works at any depth (deep documents are compared on a large private stack).
 * @param opts     NULL for ASSAY_DIFF_OPTS_INIT
 * @param deadline CLOCK_MONOTONIC seconds after which the comparison stops (0: none)
 * @param info     NULL, or receives the count and flags
 * @return 0, or ASSAY_ETOOBIG when `a` went past its limit or the deadline passed (the report
 *         of what was found so far, itself cut at `a`'s limit, is still in `*out`,
 *         info->over_budget set)
 */
ASSAY_EXTERN int assay_diff(assay_value *out, assay_arena *a, const assay_value *expected,
			    const assay_value *actual, const assay_diff_opts *opts,
			    double deadline, assay_diff_info *info);

#ifdef __cplusplus
}
#endif
#endif
