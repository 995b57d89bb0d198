/**
 * @file verify.h
 * Verifiers: compare one attribute's actual value with its expected value and return a diff, a
 * verdict and a weight (verification.md, VerificationResult). Verifiers are found by name in a
 * registry, which owns registration: the built-in ones are one table (src/lib/verify/verify.c),
 * plug-ins (a process protocol, a C ABI: plugin.h) register into it. A verify entry is checked
 * when its case loads, through the registry (docs/architecture.md, "Adding a verifier").
 * The actual values verifiers read are the case model's (model.h).
 * Spec: suite-format.md "Verifiers (built in)"; verification.md "Core Data Structures".
 */
#ifndef ASSAY_VERIFY_H
#define ASSAY_VERIFY_H

#include "model.h"
#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One verifier call: everything is borrowed from the caller. */
typedef struct assay_verify_call {
	const char *group;           /**< group name */
	const char *case_id;         /**< case id */
	const char *attribute;       /**< "output", "status_code", "stderr", "files-<path>", ... */
	const assay_value *expected; /**< the value under `expected.<attribute>` (any kind) */
	const assay_actual *actual;
	const assay_value *options;  /**< the `verify.<attribute>` object (an empty object when
					  absent; never NULL) */
	assay_arena *arena;          /**< where the verifier makes its diff (and may parse the
					  actual value): it lives as long as the case's report. Its
					  limit is the verification budget's memory part: a verifier
					  whose work takes it past the limit stops and fails the
					  attribute with that reason */
	double deadline;             /**< CLOCK_MONOTONIC seconds after which a verifier gives up
					  the same way (the budget's time part); 0: none */
} assay_verify_call;

/** VerificationResult (verification.md). */
typedef struct assay_verification {
	assay_value diff; /**< any value (null when there is nothing to say); its data lives in
			       the call's arena or in the expected/actual values */
	bool is_correct;
	double weight;    /**< > 0; the framework fills it from `options.weight` (default 1.0); a
			       verifier may lower it (partial credit, verification.md Pattern 1) */
	bool budget;      /**< the verifier stopped at the verification budget (time or memory):
			       is_correct is false and the diff says which */
	double partial;   /**< assay's own partial credit in [0, 1] (the share of numbers, fields,
			       json paths, file checks that held); negative (the default): none.
			       It is shown beside the verdict (`case.partial` in a report) and
			       NEVER enters the case score, which is calculate_score over
			       is_correct and weight alone (verification.md) */
} assay_verification;

#define ASSAY_VERIFICATION_INIT { { .kind = ASSAY_V_NULL }, false, 1.0, false, -1.0 }

/**
 * A verifier. Fills `out->diff` and `out->is_correct` (leave `weight` alone unless the verifier
 * decides it). A mismatch is not an error: it returns 0 with is_correct false.
 * @return 0, or ASSAY_EINVALID when the expected value or an option cannot be used (a regex that
 *         does not compile, an expected mapping given to a text verifier, a bad option value),
 *         with the reason in `err`. The caller reports that as an error of the case.
 */
typedef int (*assay_verifier_fn)(assay_verification *out, const assay_verify_call *call,
				  assay_err *err);

typedef struct assay_verifier {
	const char *name;             /**< as written in `verify.<attribute>.verifier` */
	assay_verifier_fn fn;
	const char *const *options;   /**< NULL-terminated option names it accepts, besides
					   `verifier` and `weight` */
} assay_verifier;

/**
 * Finds a verifier by name among the built-in and registered ones.
 * @return a borrowed pointer (valid for the life of the process), or NULL if unknown
 */
ASSAY_EXTERN const assay_verifier *assay_verifier_find(const char *name);

/**
 * Adds a verifier to the registry (a later one with the same name hides an earlier one).
 * `v` and the strings it points to are borrowed and must live for the rest of the process.
 * @return 0, or ASSAY_EINVALID if the name is empty or fn is NULL
 */
ASSAY_EXTERN int assay_verifier_register(const assay_verifier *v);

/**
 * Runs the verifier named by `call->options.verifier` (default "exact"), after checking that
 * every option is one it accepts and that `weight` is a number > 0; fills `out->weight`.
 * @return 0, ASSAY_ENOTFOUND (unknown verifier), ASSAY_EINVALID (unknown option, bad weight, or
 *         the verifier's own refusal), all with a message in `err`
 */
ASSAY_EXTERN int assay_verify_attribute(assay_verification *out, const assay_verify_call *call,
					assay_err *err);

/**
 * Checks one verify entry without running anything: the verifier exists, every option is one it
 * accepts, `weight` is a number > 0. The loader calls it (through the hook assay_suite_load hands
 * it) so that a bad entry is reported at its position before any case runs.
 * @param verifier_out NULL, or receives the verifier (borrowed)
 * @param weight_out   NULL, or receives the weight (default 1.0)
 * @param options      the entry (`{verifier, weight, ...}`), or NULL for `{}`
 * @param attribute    the attribute's name, for messages
 * @return 0, ASSAY_ENOTFOUND (unknown verifier), ASSAY_EINVALID (not a mapping, unknown option,
 *         bad weight), with a message in `err`
 */
ASSAY_EXTERN int assay_verify_check(const assay_verifier **verifier_out, double *weight_out,
				    const assay_value *options, const char *attribute,
				    assay_err *err);

/*
 * Helpers for verifier implementations.
 */

/** Reads boolean option `name` from `options` into `*out` (left alone if absent or null).
 *  @return 0, or ASSAY_EINVALID if present but not a boolean */
ASSAY_EXTERN int assay_verify_opt_bool(const assay_value *options, const char *name, bool *out,
				       assay_err *err);
/** Reads string option `name` into `*out` (a borrowed, NUL-terminated string; left alone if
 *  absent or null). @return 0, or ASSAY_EINVALID if present but not a string */
ASSAY_EXTERN int assay_verify_opt_string(const assay_value *options, const char *name,
					 const char **out, assay_err *err);
/** Reads number option `name` into `*out` (left alone if absent or null).
 *  @return 0, or ASSAY_EINVALID if present but not a finite number >= `min` */
ASSAY_EXTERN int assay_verify_opt_number(const assay_value *options, const char *name,
					 double min, double *out, assay_err *err);

/**
 * The expected value of a text attribute as bytes: a string as is; an integer, real or boolean as
 * its YAML/JSON text (reals as Python writes them). @return 0, or ASSAY_EINVALID for null,
 * arrays and objects. `*out` is borrowed from `expected` or from `scratch` (a caller buffer the
 * text may be put in).
 */
struct assay_buf;
ASSAY_EXTERN int assay_verify_expected_text(const char **out, size_t *len,
					    const assay_value *expected,
					    struct assay_buf *scratch, const char *attribute,
					    assay_err *err);

/* The built-in verifiers (registered by default). */
ASSAY_EXTERN extern const assay_verifier assay_verifier_exact;
ASSAY_EXTERN extern const assay_verifier assay_verifier_text;
ASSAY_EXTERN extern const assay_verifier assay_verifier_contains;
ASSAY_EXTERN extern const assay_verifier assay_verifier_regex;
ASSAY_EXTERN extern const assay_verifier assay_verifier_json;
ASSAY_EXTERN extern const assay_verifier assay_verifier_jsonl;
ASSAY_EXTERN extern const assay_verifier assay_verifier_yaml;
ASSAY_EXTERN extern const assay_verifier assay_verifier_toml;
ASSAY_EXTERN extern const assay_verifier assay_verifier_ini;
ASSAY_EXTERN extern const assay_verifier assay_verifier_csv;
ASSAY_EXTERN extern const assay_verifier assay_verifier_tsv;
ASSAY_EXTERN extern const assay_verifier assay_verifier_numeric;
ASSAY_EXTERN extern const assay_verifier assay_verifier_json_fields;
ASSAY_EXTERN extern const assay_verifier assay_verifier_json_keys;
ASSAY_EXTERN extern const assay_verifier assay_verifier_json_schema;
ASSAY_EXTERN extern const assay_verifier assay_verifier_file;
ASSAY_EXTERN extern const assay_verifier assay_verifier_flexible;
/** The process plug-in (plugin.h): an external program decides. */
ASSAY_EXTERN extern const assay_verifier assay_verifier_command;

/**
 * Stops every persistent `command` plug-in process (closes its standard input, waits up to 2
 * seconds for it to exit, then kills it). Call it at the end of a run; verifying again later
 * starts them anew. Safe to call when none runs.
 */
ASSAY_EXTERN void assay_plugins_shutdown(void);

#ifdef __cplusplus
}
#endif
#endif
