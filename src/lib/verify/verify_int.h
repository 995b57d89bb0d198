/*
 * What the verifiers of src/lib/verify share beyond verify.h. Never installed.
 */
#ifndef ASSAY_VERIFY_INT_H
#define ASSAY_VERIFY_INT_H

#include "assay/buf.h"
#include "assay/diff.h"
#include "assay/verify.h"

/* The options of every structural verifier (the json verifier's, read by
 * assay_diff_opts_parse), to open a verifier's NULL-terminated list with. */
#define ASSAY_VERIFY__STRUCTURAL_OPTIONS ASSAY_DIFF_OPTION_NAMES

/*
 * The json verifier's comparison, for every structural verifier (verify_json.c): `expected`
 * and `actual` are parsed values; the diff is made in the call's arena with deepdiff's
 * vocabulary, a regex_paths pattern that does not compile is a refusal (ASSAY_EINVALID), the
 * verification budget fails the attribute (budget set), max_diffs adds "assay_note", per-path
 * weights give the score. @return 0 or ASSAY_EINVALID with `err`
 */
int assay_verify__compare(assay_verification *out, const assay_verify_call *call,
			  const assay_diff_opts *opts, const assay_value *expected,
			  const assay_value *actual, assay_err *err);

/* The formats a document verifier reads (verify_formats.c). */
typedef enum assay_verify__format {
	ASSAY_FMT_JSON = 0,
	ASSAY_FMT_YAML,
	ASSAY_FMT_TOML,
	ASSAY_FMT_INI,
	ASSAY_FMT_CSV,
	ASSAY_FMT_TSV,
} assay_verify__format;

/* "JSON", "YAML", "TOML", "INI", "CSV", "TSV". */
const char *assay_verify__format_name(assay_verify__format f);

/*
 * Reads option `format` ("json" default, "yaml", "toml", "ini"): for the verifiers that check
 * a document of any of these (json_fields, json_keys, json_schema). 0 or ASSAY_EINVALID.
 */
int assay_verify__opt_format(const assay_value *options, assay_verify__format *out,
			     assay_err *err);

/*
 * The actual value of the call parsed as format `f` into the call's arena (with the options
 * of the call: multi_document, lower_keys, delimiter). On a failure that is the submission's
 * (not produced, not parsable, past the budget) fills `out` as a failed attribute and returns
 * false; `*rc` is then 0, or a refusal of the options (ASSAY_EINVALID, with `err`).
 */
bool assay_verify__parse_actual(assay_value *v, assay_verification *out,
				const assay_verify_call *call, assay_verify__format f, int *rc,
				assay_err *err);

/*
 * The expected value of the call for format `f`: a string is parsed as that format (a
 * string that does not parse is a refusal naming expected.<attribute>); a structured value
 * is taken as written. 0 or ASSAY_EINVALID.
 */
int assay_verify__parse_expected(assay_value *v, const assay_verify_call *call,
				 assay_verify__format f, assay_err *err);

/* The attribute's name for messages ("output" when unnamed). */
const char *assay_verify__attr(const assay_verify_call *call);
/* What a missing actual value means: "file was not produced" (a file attribute, or none named),
 * else "no value: nothing ran, or no answer was received" (an api request without an answer). */
const char *assay_verify__missing(const assay_verify_call *call);

/* Marks `out` failed with diff `msg`. */
void assay_verify__fail(assay_verification *out, assay_value msg);

/* The two texts assay_verify__udiff() compares, and their labels: borrowed for the call. */
struct assay_verify__texts {
	const char *e; /* expected, `elen` bytes */
	size_t elen;
	const char *a; /* actual, `alen` bytes */
	size_t alen;
	const char *la, *lb; /* the --- and +++ labels */
};

/*
 * The unified diff (3 lines of context) of `t->e` (expected) and `t->a` (actual) appended to
 * `d`, bounded by the call's deadline (assay_udiff_until): true when made; false when the
 * deadline passed, with `out` failed, `budget` set and the reason as its diff (`d` as it was).
 */
bool assay_verify__udiff(assay_verification *out, const assay_verify_call *call, assay_buf *d,
			 const struct assay_verify__texts *t);

/* A copy of `len` bytes of `s` as a string value in `a`, made valid UTF-8 (each invalid
 * sequence becomes U+FFFD, as bytes.decode(errors="replace")) and cut at `cap` bytes (0: no
 * cap) on a character boundary, with "..." after a cut. */
assay_value assay_verify__text(assay_arena *a, const char *s, size_t len, size_t cap);

/* The actual value as text: bytes as they are, a number as its decimal text (in `scratch`),
 * a missing file as NULL. */
const char *assay_verify__actual_text(const assay_actual *ac, assay_buf *scratch, size_t *len);

/* Python's repr() of a value, as messages quote values ('x', 1, 1.5, True, None, [..], {..}),
 * appended to `b`; strings and containers past `cap` bytes are cut with "...". */
void assay_verify__repr(assay_buf *b, const assay_value *v, size_t cap);

/*
 * The `diff` option (verify_diffs.c): reads it into `*out` (NULL: absent, the verifier's own
 * diff) when `out` is not NULL. 0, or ASSAY_EINVALID for another value than simple, lines,
 * unified, visual or structural.
 */
int assay_verify__diff_strategy(const char **out, const assay_value *options, assay_err *err);

/* Replaces the diff of a failed attribute by the strategy its `diff` option names (nothing
 * when absent, when the attribute is correct or stopped at the budget). */
void assay_verify__render_diff(assay_verification *out, const assay_verify_call *call);

/* verify_command.c: the command verifier's `run` is there and well-formed (a list of strings or
 * a shell-quoted string), for a verify entry checked at load. @return 0 or ASSAY_EINVALID. */
int assay_verify__command_check(const assay_value *options, assay_err *err);

#endif
