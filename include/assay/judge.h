/**
 * @file judge.h
 * Judges: the grader, comparator and analyzer of a skill evaluation behind one interface.
 * Spec: docs/skills.md ("Judges"); docs/eval-schemas.md (the answers' shapes: grading.json,
 * comparison.json, analysis.json); docs/skill-evals.md decisions 8 and 9.
 *
 * A judge is either a command (it reads one JSON request on standard input and prints one JSON
 * answer on standard output; run through assay_proc, with a timeout), an OpenAI-compatible
 * chat-completions endpoint (libcurl: POST BASE_URL/chat/completions with the model, the API
 * key read from an environment variable, a timeout, retries with exponential backoff), or
 * Anthropic's Messages API (POST BASE_URL/v1/messages, headers x-api-key and
 * anthropic-version, the answer from the reply's text content blocks, usage's
 * input_tokens/output_tokens priced; docs/skills.md).
 *
 * Every request is rendered from a prompt template: `<prompts_dir>/<role>.md` when that file
 * exists, else the built-in one (assay_judge_builtin_prompt()). `{{field}}` in a template is
 * replaced by the request's member `field` (a string as it is, anything else as JSON text).
 *
 * Every answer is validated against the role's schema (assay_judge_validate()); an invalid
 * answer, a failed command or a failed HTTP exchange is retried `retries` times (sleeping
 * backoff_s * 2^k between tries), then the call fails with ASSAY_EINVALID and the reason:
 * the caller records a grading error, it never guesses. Valid answers are cached in
 * `<cache_dir>/<role>/<key>.json`, key = SHA-256 of (role, model, SHA-256 of the prompt).
 *
 * Thread safety: one assay_judge may be used by several threads at once.
 */
#ifndef ASSAY_JUDGE_H
#define ASSAY_JUDGE_H

#include "buf.h"
#include "strvec.h"
#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The three roles (numbering is part of the ABI). */
typedef enum assay_judge_role {
	ASSAY_JUDGE_GRADER = 0,     /**< scores each expectation 1-5 (grading.json's results) */
	ASSAY_JUDGE_COMPARATOR = 1, /**< picks A or B, blind (comparison.json) */
	ASSAY_JUDGE_ANALYZER = 2,   /**< explains the winner, unblinded (analysis.json) */
} assay_judge_role;

/** "grader", "comparator", "analyzer" (never NULL). */
ASSAY_EXTERN const char *assay_judge_role_name(assay_judge_role role);

/** How a judge is reached. Strings are borrowed for assay_judge_new() only (it copies). */
typedef struct assay_judge_config {
	const char *type;         /**< "command", "http" (chat completions) or "anthropic" */
	const assay_strvec *command; /**< command judge: argv (argv[0] looked up in PATH) */
	bool sandbox;             /**< command judge: run it under proc.h's sandbox (network on,
				       nothing of the workspace readable) */
	const char *base_url;     /**< http judge: e.g. "http://127.0.0.1:8080/v1"; anthropic:
				       NULL or "" for "https://api.anthropic.com" */
	const char *model;        /**< the model name (http: sent; both: part of the cache key) */
	const char *api_key_env;  /**< http judges: name of the environment variable holding the
				       key (NULL or unset: no Authorization / x-api-key header;
				       anthropic: NULL or "" means "ANTHROPIC_API_KEY") */
	double timeout_s;         /**< per try, seconds (<= 0: 300) */
	int retries;              /**< further tries after a failed or invalid one (< 0: 0) */
	double backoff_s;         /**< first pause between tries, doubled each time */
	double price_in;          /**< cost per million prompt tokens (http usage), 0: free */
	double price_out;         /**< cost per million completion tokens */
	const char *prompts_dir;  /**< NULL or the folder of template overrides */
	const char *cache_dir;    /**< NULL: no cache */
} assay_judge_config;

#define ASSAY_JUDGE_CONFIG_INIT { "command", NULL, false, NULL, NULL, NULL, 300, 2, 1.0, 0, 0, \
				  NULL, NULL }

/** A judge (opaque). */
typedef struct assay_judge assay_judge;

/**
 * Makes a judge from `cfg`.
 * @param out receives the judge (free with assay_judge_free)
 * @return 0; ASSAY_EINVALID for an unknown type (the message names every type), a command
 *         judge without a command, an http judge without base_url or model, or an anthropic
 *         judge without a model (details in `err`)
 */
ASSAY_EXTERN int assay_judge_new(assay_judge **out, const assay_judge_config *cfg,
				 assay_err *err);
/** Frees a judge. NULL is allowed. */
ASSAY_EXTERN void assay_judge_free(assay_judge *j);

/** What one assay_judge_ask() cost. */
typedef struct assay_judge_stats {
	int attempts;          /**< tries made (0 when answered from the cache) */
	bool cached;           /**< answered from the cache */
	double seconds;        /**< wall seconds spent */
	long long tokens_in;   /**< http usage.prompt_tokens summed over tries */
	long long tokens_out;  /**< http usage.completion_tokens summed over tries */
	double cost;           /**< tokens priced with price_in/price_out */
} assay_judge_stats;

/**
 * Asks the judge: renders the role's template with `request` (an object), sends it, validates
 * the answer, retries, caches.
 * @param answer receives the validated answer (an object made in `a`)
 * @param a      arena for the answer
 * @param stats  NULL or filled with what the call cost
 * @return 0; ASSAY_EINVALID when every try failed or gave an answer that is not valid (the
 *         last reason in `err`); ASSAY_EIO if the cache could not be written
 */
ASSAY_EXTERN int assay_judge_ask(assay_judge *j, assay_judge_role role,
				 const assay_value *request, assay_value *answer, assay_arena *a,
				 assay_judge_stats *stats, assay_err *err);

/**
 * Checks `answer` against the role's schema: grader {results: [{criterion, score 1-5 integer,
 * reasoning}] naming each criterion of request.expectations exactly once, claims?,
 * user_notes_summary?, eval_feedback?}; comparator {winner "A"|"B", reasoning, scores: the
 * five dimensions of comparison.json, each {A, B} integers 1-10}; analyzer {strengths and
 * weaknesses: arrays of strings, suggestions: [{area, before, after, reasoning}] non-empty
 * strings}. Fields a judge may leave out are optional; derived ones (passed, overall, the
 * version labels) are ignored, since assay computes them.
 * @param msg receives the first problem ("results[2].score must be an integer 1-5")
 * @return true if valid
 */
ASSAY_EXTERN bool assay_judge_validate(assay_judge_role role, const assay_value *request,
				       const assay_value *answer, char *msg, size_t msgsize);

/** The built-in prompt template of a role (never NULL, static). */
ASSAY_EXTERN const char *assay_judge_builtin_prompt(assay_judge_role role);

/**
 * Renders `tmpl`: each `{{name}}` becomes request member `name` (a string as it is, another
 * value as JSON text, a missing member as ""), so that no inserted text can pass for the
 * template's own structure (docs/skills.md, "What judges see"): a placeholder alone on its
 * line becomes a fenced block (assay_judge_fence; other values as pretty JSON), one inside a
 * line becomes one line (assay_judge_escape_line; other values as compact JSON).
 * @param out receives the text (appended)
 */
ASSAY_EXTERN void assay_judge_render(assay_buf *out, const char *tmpl,
				     const assay_value *request);

/**
 * Appends `n` bytes of `s` (any bytes) as a CommonMark fenced code block with info string
 * "text": the fence is backticks, one more than the longest run of backticks in `s` and at
 * least 3, so nothing in `s` can close it; a newline is added before the closing fence when
 * `s` does not end with one. No trailing newline after the closing fence.
 */
ASSAY_EXTERN void assay_judge_fence(assay_buf *out, const char *s, size_t n);

/**
 * Appends `n` bytes of `s` on one line: newline, carriage return, tab and backslash as \n,
 * \r, \t, \\; other control bytes (below 0x20, and 0x7f) as \xNN; everything else as it
 * is. For names and values shown inside the template's own text (file names, versions).
 */
ASSAY_EXTERN void assay_judge_escape_line(assay_buf *out, const char *s, size_t n);

#ifdef __cplusplus
}
#endif
#endif
