/* What `assay run` and `assay report` share about report formats, pass policies and repro
 * bundles: the repeatable --format option, opening its renderers, and the sinks `assay run`
 * adds for them. */
#ifndef ASSAY_CLI_REPORT_ARGS_H
#define ASSAY_CLI_REPORT_ARGS_H

#include "assay/render.h"
#include "assay/store.h"

#define REPORT_MAX_FORMATS 16

struct report_args {
	const char *formats[REPORT_MAX_FORMATS]; /* "F" or "F:PATH", as given */
	size_t nformats;
	size_t text_cap;
	size_t junit_max_bytes;
	const char *pass_policy;
	const char *repro;
	/* filled by report_run_sinks() */
	bool policy_passed;
};

/*
 * --format's help: "also write a report: " and the formats' names from the library's table
 * (assay_format_names), then " (repeatable)". A static string, made on the first call.
 */
const char *report_args_format_help(void);

/* Options both commands take (entries of a cli_opt table). */
#define REPORT_COMMON_OPTS(ra)                                                                 \
	{ "format", 'f', CLI_OPT_STRING, NULL, "F[:PATH]", report_args_format_help() },       \
	{ "text-cap", 0, CLI_OPT_SIZE, &(ra).text_cap, "BYTES",                                \
	  "show at most BYTES of any one value in junit, tap, markdown, html (default 4K)" }

/* The options only `assay run` takes. */
#define REPORT_RUN_OPTS(ra)                                                                    \
	REPORT_COMMON_OPTS(ra),                                                                \
	{ "pass-policy", 0, CLI_OPT_STRING, &(ra).pass_policy, "POLICY",                       \
	  "decide the exit status by a pass policy: any, any-case, all-cases, "                \
	  "all-non-error-cases, core-cases, any-core-cases (default: every case passed)" },    \
	{ "repro", 0, CLI_OPT_STRING, &(ra).repro, "DIR",                                      \
	  "write a repro bundle for each failing case into DIR" }

/*
 * Takes every --format/-f option out of argv (the option table cannot repeat an option), so
 * cli_parse() sees the rest. Returns 0, or CLI_EXIT_USAGE (message printed).
 */
int report_args_take(int *argc, char **argv, struct report_args *ra);

/*
 * `assay run`'s --format options checked before anything is made (the results folder `dir`
 * included): a known name, no empty path, a path for jsonl. Returns 0 or CLI_EXIT_USAGE
 * (message printed).
 */
int report_args_check_run(const struct report_args *ra, const char *dir);

/*
 * Opens a renderer per --format: "F:PATH" writes PATH; a bare "F" writes `dir`/<the format's
 * file> when `dir` is given, else `output` (NULL or "-": standard output). At most one report
 * goes to standard output. Returns 0 or an exit code (message printed); on error nothing is
 * left open.
 */
int report_args_open(const struct report_args *ra, const char *dir, const char *output,
		     const char *results, assay_renderer **rs, size_t *n);

struct run_args;

/*
 * `assay run`'s sinks for --format, --pass-policy and --repro, appended to sinks[*n] (room for
 * three more). Returns 0 or an exit code (message printed).
 */
int report_run_sinks(struct report_args *ra, const struct run_args *a, assay_store *store,
		     assay_sink *sinks, size_t *n);

/* The exit status of a run under --pass-policy: `rc` as run_common_run() returned it. */
int report_run_exit(const struct report_args *ra, int rc);

#endif
