/**
 * @file render.h
 * Reports people and CI read, rendered from report lines: JSON and JSONL of VerifierReports,
 * JUnit XML, TAP 14, a Markdown summary, a self-contained HTML page and SlopCodeBench's
 * reports.parquet. The same renderer runs during a run (a sink, assay_sink_render_new) and later
 * from a results folder (assay_render_store) or a reports.jsonl file (assay_render_jsonl), and
 * writes the same bytes either way, because it is always handed report lines as they are kept:
 * values past the run's value cap cut into markers (json.h), or, for the formats that need
 * whole values (Parquet), with every marker put back from its blob.
 * Also: SlopCodeBench's pass policies, the sink deciding a run's verdict by one of them, and
 * failure repro bundles.
 * Spec: docs/reports.md (formats, pass policies, reading back, repro bundles); verification.md
 * (VerifierReport, AttributeResult, to_parquet_row);
 * docs/reports.md describes every format for users.
 *
 * Memory stays flat whatever the number of cases: a renderer keeps per case only what it needs
 * for counts (a few words per group), spools what must come after counts it does not know yet
 * to an unlinked temp file, and never holds the lines.
 */
#ifndef ASSAY_RENDER_H
#define ASSAY_RENDER_H

#include "sink.h"
#include "suite.h"
#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

struct assay_store;

/**
 * A report format: its position in the library's one table of formats (docs/architecture.md,
 * "Adding a report format"), from 0 to assay_format_count() - 1. The constants name the
 * formats every build has; a format added later has no constant and is found by name
 * (assay_format_find). The numbering is not part of the ABI; use the names.
 */
typedef enum assay_format {
	ASSAY_FORMAT_JSON = 0,  /**< one JSON array of report lines */
	ASSAY_FORMAT_JSONL,     /**< one report line per line (reports.jsonl's text) */
	ASSAY_FORMAT_JUNIT,     /**< JUnit XML (the Ant schema CI systems read) */
	ASSAY_FORMAT_TAP,       /**< TAP version 14 with YAML diagnostics */
	ASSAY_FORMAT_MARKDOWN,  /**< a summary for CI job pages */
	ASSAY_FORMAT_HTML,      /**< one self-contained page */
	ASSAY_FORMAT_PARQUET,   /**< SlopCodeBench's reports.parquet */
} assay_format;

/** How many formats there are (the formats are 0 to this less one). */
ASSAY_EXTERN size_t assay_format_count(void);
/**
 * Appends the formats' names, in the table's order, separated by ", " ("json, jsonl, junit,
 * tap, markdown, html, parquet"): what help and errors list.
 */
ASSAY_EXTERN void assay_format_names(assay_buf *out);
/**
 * The format named `name`: one of assay_format_names(), or a second name a format takes
 * ("md" for markdown).
 * @return 0, or ASSAY_ENOTFOUND ("unknown report format 'x' (json, jsonl, ...)": the message
 *         lists the names)
 */
ASSAY_EXTERN int assay_format_find(assay_format *out, const char *name, assay_err *err);
/** The format's name ("junit", ...); "?" for a number that is no format. */
ASSAY_EXTERN const char *assay_format_name(assay_format f);
/**
 * Where the format goes in a results folder when no path is given ("junit.xml", ...); "?" for
 * a number that is no format.
 */
ASSAY_EXTERN const char *assay_format_file(assay_format f);

/** Options of every renderer; start from ASSAY_RENDER_OPTS_INIT. Zero fields take defaults. */
typedef struct assay_render_opts {
	int version;              /**< ASSAY_RENDER_OPTS_VERSION */
	size_t text_cap;          /**< bytes of any one value shown in JUnit, TAP, Markdown and
				       HTML (output, expected, diff); 0: 4 KiB. Past it the text
				       is cut and says how long the whole is */
	size_t junit_max_bytes;   /**< JUnit: the file stays below this many bytes (0: 30,000,000,
				       GitLab's limit, less room for the closing elements) */
	size_t markdown_max_bytes; /**< Markdown: at most this many bytes (0: 1 MiB, GitHub's job
					summary limit) */
	size_t html_detail_bytes; /**< HTML: bytes of failing cases' details in all (0: 64 MiB);
				       later failures show their verdict without details */
	size_t max_failures;      /**< Markdown: failing cases listed (0: 50) */
	const char *results;      /**< the results folder, named in `assay show` hints, or NULL */
} assay_render_opts;

#define ASSAY_RENDER_OPTS_VERSION 1
#define ASSAY_RENDER_OPTS_INIT { ASSAY_RENDER_OPTS_VERSION, 0, 0, 0, 0, 0, NULL }

/** A renderer writing one format to one file (opaque). */
typedef struct assay_renderer assay_renderer;

/**
 * A renderer of `format` writing to `path`, or to standard output when `path` is "-". A file
 * is written to a temp file beside `path` and renamed over it by assay_renderer_end(), so a
 * report is whole or absent; a renderer freed before its end leaves `path` as it was.
 * @param out receives the renderer (free with assay_renderer_free)
 * @return 0, ASSAY_EINVALID (bad options), ASSAY_EIO (the temp file cannot be made)
 */
ASSAY_EXTERN int assay_renderer_open(assay_renderer **out, assay_format format, const char *path,
				     const assay_render_opts *opts, assay_err *err);

/** True when the renderer wants report lines with whole values (markers put back). */
ASSAY_EXTERN bool assay_renderer_whole(const assay_renderer *r);

/**
 * Starts the report.
 * @param run   the run's description (store.h: assay_store_run_info; suite, host, started,
 *              assay_version ...), or NULL when unknown
 * @param total the cases the run was to run (0: unknown)
 * @return 0 or ASSAY_EIO
 */
ASSAY_EXTERN int assay_renderer_begin(assay_renderer *r, const assay_value *run, size_t total,
				      assay_err *err);

/**
 * Adds one case: its report line (reports.jsonl's object, cut or whole as the renderer wants).
 * @return 0, ASSAY_EIO, or ASSAY_ETOOBIG / ASSAY_EINVALID (Parquet refused a value)
 */
ASSAY_EXTERN int assay_renderer_case(assay_renderer *r, const assay_value *line, assay_err *err);

/**
 * Finishes the report and puts the file in place.
 * @param summary summary.json's object, or NULL when the run never ended (killed): the report
 *                then says it covers the finished cases only
 * @return 0 or ASSAY_EIO
 */
ASSAY_EXTERN int assay_renderer_end(assay_renderer *r, const assay_value *summary,
				    assay_err *err);

/** Frees the renderer; an unfinished file is removed. NULL is allowed. */
ASSAY_EXTERN void assay_renderer_free(assay_renderer *r);

/** What assay_sink_render_new() makes a sink of. */
typedef struct assay_sink_render_in {
	assay_renderer **rs;        /**< `n` renderers; the sink owns them from the call on
				         (freed with the sink), also on error; the array itself
				         is copied */
	size_t n;
	const assay_value *run;     /**< the run's description for assay_renderer_begin()
				         (copied), or NULL */
	size_t value_cap;           /**< bytes: the store sink's cap (store.h: 0 the default,
				         SIZE_MAX never cuts) */
	struct assay_store *store;  /**< the run's store (borrowed; must outlive the sink), or
				         NULL */
} assay_sink_render_in;

/**
 * A sink feeding renderers during a run. Each finished case's line is made as the results
 * store keeps it (cut at `in->value_cap` bytes, the store sink's cap; its blobs are the store's
 * business) and handed to every renderer; a replayed case (resume) is handed as kept, with
 * its values put back from `in->store` for renderers wanting whole values.
 * @param in      the renderers, run, cap and store (see assay_sink_render_in); read during
 *                the call only
 * @return 0
 */
ASSAY_EXTERN int assay_sink_render_new(assay_sink *out, const assay_sink_render_in *in,
				       assay_err *err);

/**
 * Renders a results folder's store: its run's description, every finished case in run order
 * (assay_store_each_case), its summary (NULL when the run never ended). Every renderer is
 * ended on success; on error none is, and the caller frees them.
 * @return 0, a renderer's error, or the store's
 */
ASSAY_EXTERN int assay_render_store(struct assay_store *s, assay_renderer **rs, size_t n,
				    assay_err *err);

/**
 * Renders a reports.jsonl file (one report line per line; summary.json beside it is read
 * when there). Cut values stay cut (there is no store to put them back from). The file is
 * read line by line, so memory stays flat.
 * @return 0; ASSAY_ENOTFOUND; ASSAY_EPARSE naming the file and line (a line that is not a
 *         JSON object, or a last line cut short: "truncated"); a renderer's error
 */
ASSAY_EXTERN int assay_render_jsonl(const char *path, assay_renderer **rs, size_t n,
				    assay_err *err);

/**
 * Calls `fn` with each report line of `source`, in run order: a results folder (its store) or a
 * reports.jsonl file. Cut values stay cut. A reports.jsonl file is checked whole first, so a
 * damaged one is an error before `fn` sees any line. Memory stays flat.
 * @return 0, `fn`'s code; ASSAY_ENOTFOUND (no such file, or a folder without a store: "not a
 *         results folder"); ASSAY_EINVALID (a store of a newer assay); ASSAY_EPARSE (a line
 *         that is not a report line, or a truncated last line, naming file and line);
 *         ASSAY_ESTORE, ASSAY_EIO
 */
ASSAY_EXTERN int assay_report_each_line(const char *source,
					int (*fn)(void *payload, const assay_value *line,
						  assay_err *err),
					void *payload, assay_err *err);

/*
 * Pass policies (SlopCodeBench's PassPolicy): whether a checkpoint is solved, from its counts of
 * passed and run cases per group type. A run passes a policy when every checkpoint does.
 */

/** SlopCodeBench's pass policies. */
typedef enum assay_pass_policy {
	ASSAY_POLICY_ANY = 0,            /**< "any": always (whatever passed) */
	ASSAY_POLICY_ANY_CASE,           /**< "any-case": at least one case passed */
	ASSAY_POLICY_ALL_CASES,          /**< "all-cases": every case passed */
	ASSAY_POLICY_ALL_NON_ERROR_CASES, /**< "all-non-error-cases": every case of a group type
					       other than Error passed */
	ASSAY_POLICY_CORE_CASES,         /**< "core-cases" (alias "all-core-cases"): every Core
					      case passed (true when there is none) */
	ASSAY_POLICY_ANY_CORE_CASES,     /**< "any-core-cases": at least one Core case passed */
	ASSAY_POLICY_COUNT
} assay_pass_policy;

/** The policy named `name` (also "all-core-cases"). @return 0 or ASSAY_ENOTFOUND */
ASSAY_EXTERN int assay_pass_policy_find(assay_pass_policy *out, const char *name,
					assay_err *err);
/** The policy's name ("core-cases", ...). */
ASSAY_EXTERN const char *assay_pass_policy_name(assay_pass_policy p);

/**
 * PassPolicy.check(): does a checkpoint with `passed[t]` of `total[t]` cases of each group type
 * t (indexed by assay_group_type) pass policy `p`?
 */
ASSAY_EXTERN bool assay_pass_policy_check(assay_pass_policy p, const size_t passed[4],
					  const size_t total[4]);

/**
 * Adds SlopCodeBench's aggregates to a summary (summary.json's object, as the runner makes it):
 * per checkpoint `pass_counts` and `total_counts` (group type -> cases) and `policies` (policy
 * name -> passed), and over the run `policies` (every checkpoint passed; false for an
 * interrupted run and for one whose `unrun_case_files` is not 0) and `overall_pass_rate` (the
 * mean of the checkpoints' pass rates).
 * @param summary changed in place; new values are made in `a`
 */
ASSAY_EXTERN void assay_summary_add_policies(assay_arena *a, assay_value *summary);

/**
 * A sink that decides the run's verdict by policy `p` when the run ends: `*passed` is set true
 * when the run was not interrupted, left no case file unrun (the summary's
 * `unrun_case_files`), and every checkpoint passes `p` (false until then).
 * @return 0
 */
ASSAY_EXTERN int assay_sink_policy_new(assay_sink *out, assay_pass_policy p, bool *passed);

/*
 * Failure repro bundles (docs/reports.md, "Repro bundles").
 */

/** What a repro bundle needs to know of the run (copied by assay_sink_repro_new). */
typedef struct assay_repro_opts {
	const char *dir;        /**< where bundles go: DIR/<checkpoint>/<group>/<id>/ */
	const char *assay;      /**< the assay program to name in the re-run command */
	const char *suite_dir;  /**< the suite folder as given to the run */
	const char *entry;      /**< --entry, or NULL */
	const char *submission; /**< --submission, or NULL */
	size_t out_cap;         /**< the run's stdout cap, bytes (0: the default) */
	size_t err_cap;         /**< the run's stderr cap, bytes (0: the default) */
	double kill_grace_s;    /**< the run's grace before SIGKILL, seconds */
	size_t value_cap;       /**< the run's value cap, bytes (0: the default) */
	const char *sandbox;    /**< --sandbox as given (on, off, required), or NULL */
	const char *network;    /**< --network as given (on, off), or NULL */
	const char *const *pass_env; /**< --pass-env patterns, NULL-terminated, or NULL */
} assay_repro_opts;

/**
 * A sink writing, for each failing case it sees run, a folder with what it takes to look at
 * it and run it again: argv, the environment delta, stdin, input files, expected and actual
 * attributes and their diffs, the report line, and `rerun`, a one-line command running just
 * that case again under the same limits, sandbox mode, network and passed environment.
 * Replayed cases (resume) get no bundle.
 * @return 0, or ASSAY_EIO (DIR cannot be made)
 */
ASSAY_EXTERN int assay_sink_repro_new(assay_sink *out, const assay_repro_opts *opts,
				      assay_err *err);

#ifdef __cplusplus
}
#endif
#endif
