/*
 * Internals of the renderers (src/lib/report/render*.c, view.c, out.c, tally.c). Never
 * installed.
 */
#ifndef ASSAY_REPORT_INT_H
#define ASSAY_REPORT_INT_H

#include <stdint.h>
#include <stdio.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/render.h"
#include "report/report_lib.h"

/* ---- report lines from a reports.parquet file (parquet_in.c; from_parquet_row) -------- */

/* Whether the file at `path` starts with Parquet's magic. */
bool assay_report__is_parquet(const char *path);
/* Calls `fn` (NULL: only checks every row) with each row as its report line; *nrows (or NULL)
 * receives the footer's row count. 0, fn's code, or assay_pq_read's errors (ASSAY_EPARSE
 * naming the row for a row that is not a report row). */
int assay_report__parquet_lines(const char *path,
				int (*fn)(void *payload, const assay_value *line, assay_err *err),
				void *payload, uint64_t *nrows, assay_err *err);

/* ---- where a renderer writes (out.c) -------------------------------------------------- */

/* A report file: a temp file renamed into place at the end, or standard output. Writes are
 * buffered; the first error sticks. */
struct assay_report__out {
	assay_fs_atomic file;
	char *path;        /* the target, NULL for standard output */
	int fd;            /* where bytes go */
	assay_buf buf;
	uint64_t written;  /* bytes handed to write() or buffered so far */
	int rc;            /* the first error */
	assay_err err;
};

int assay_report__out_open(struct assay_report__out *o, const char *path, assay_err *err);
void assay_report__out_add(struct assay_report__out *o, const void *data, size_t len);
void assay_report__out_adds(struct assay_report__out *o, const char *s);
void assay_report__out_addf(struct assay_report__out *o, const char *fmt, ...) ASSAY_PRINTF(2, 3);
/* Copies what was written to the spool `f` (from its start) to `o`; rewinds and empties `f`. */
void assay_report__out_spool(struct assay_report__out *o, FILE *f);
/* Flushes the buffer: returns the first error of any write so far (with `err`). */
int assay_report__out_flush(struct assay_report__out *o, assay_err *err);
/* Flushes and puts the file in place. */
int assay_report__out_commit(struct assay_report__out *o, assay_err *err);
/* Drops an unfinished file (also after commit: then nothing is left to drop). */
void assay_report__out_release(struct assay_report__out *o);

/* A spool: an unlinked temp file. Aborts on failure (no temp room is an EIO later). */
FILE *assay_report__spool(assay_err *err);

/* ---- a case as renderers read it (view.c) --------------------------------------------- */

enum assay_report__outcome {
	ASSAY_OUTCOME_PASS = 0,
	ASSAY_OUTCOME_FAIL,   /* a check said no */
	ASSAY_OUTCOME_ERROR,  /* the program broke (timed out, killed by a signal, could not
				 start) or the harness could not load or verify the case */
};

struct assay_report__case {
	const assay_value *line;
	const char *checkpoint, *group, *id, *type, *timestamp; /* "" when missing */
	double duration, score;
	bool passed;
	const char *error;       /* the case's error (load or verify), or NULL */
	const char *status;      /* execution.status, or NULL */
	const assay_value *results;   /* the attributes (an object), or NULL */
	const assay_value *execution; /* or NULL */
	enum assay_report__outcome outcome;
	int type_index;          /* assay_group_type, or -1 for a type assay does not know */
};

void assay_report__case_read(struct assay_report__case *c, const assay_value *line);
const char *assay_report__outcome_name(enum assay_report__outcome o);
/* The one-line reason a case did not pass: its error, how the program ended, or the
 * attributes that are not correct ("output, status_code not correct"). */
void assay_report__reason(assay_buf *out, const struct assay_report__case *c);
/*
 * Why a case did not pass, in the terminal's words (explain.c, term_explain.c): one line per
 * reason, without colour or indent, no trailing newline. With `tail`, the last lines of its
 * stderr (and an api server's output) go there, unless stderr's diff is a reason already.
 */
void assay_report__explain(assay_buf *out, assay_buf *tail, const struct assay_report__case *c);
/* The first line of assay_report__explain() (with the first difference of a list). */
void assay_report__first_line(assay_buf *out, const struct assay_report__case *c);
/* A shell line running the case again: `assay run-case SUITE --case CP/GROUP/ID` with the
 * run's --entry / --submission from `run` (its description, or NULL); nothing for a case that
 * never ran. */
void assay_report__repro(assay_buf *out, const assay_value *run,
			 const struct assay_report__case *c);
/* A string member of an object as a C string, or `dflt`. */
const char *assay_report__str(const assay_value *obj, const char *key, const char *dflt);

/* {"$assay_cut": {...}}: a value the line carries cut. */
bool assay_report__is_cut(const assay_value *v);
/* assay_report__text: report_lib.h */

/* The next character at p (len >= 1): its length, with *cp set; an invalid sequence is its
 * maximal subpart (as assay_json_write replaces it) with *cp = 0xFFFD and *bad set. */
size_t assay_report__utf8_next(const unsigned char *p, size_t len, uint32_t *cp, bool *bad);
/* `s` when valid UTF-8, else a copy in `a` with each invalid sequence replaced by U+FFFD. */
const char *assay_report__utf8_clean(assay_arena *a, const char *s, size_t len, size_t *len_out);

/* XML text (attribute values too) of `len` bytes: & < > " escaped, invalid UTF-8 as U+FFFD,
 * characters XML 1.0 forbids as \uXXXX text, TAB/LF/CR as character references in
 * attributes. */
void assay_report__xml(assay_buf *out, const char *s, size_t len, bool attribute);

/* ---- counts by checkpoint, group type and group (tally.c) -------------------------------- */

struct assay_report__count {
	size_t passed, failed, errors, total;
	double score_sum, duration_sum;
};

struct assay_report__group_count {
	char *name;
	char *type;
	struct assay_report__count n;
};

struct assay_report__cp_count {
	char *name;
	struct assay_report__count types[4];
	struct assay_report__count other;   /* a type assay does not know */
	struct assay_report__count all;
	struct assay_report__group_count *groups;
	size_t ngroups;
};

struct assay_report__counts {
	struct assay_report__cp_count *cps;
	size_t ncps;
	struct assay_report__count all;
};

void assay_report__count_case(struct assay_report__counts *t, const struct assay_report__case *c);
/* Does every checkpoint pass policy p? */
bool assay_report__counts_pass(const struct assay_report__counts *t, assay_pass_policy p);
void assay_report__counts_release(struct assay_report__counts *t);

/* ---- the formats (render_*.c) ------------------------------------------------------------ */

struct assay_renderer;

/*
 * A report format: render_<name>.c defines `const struct assay_report__format
 * assay_report__<name>`, and formats.c's table lists it (docs/architecture.md, "Adding a
 * report format"). The renderer calls begin once, kase per case line, end once (unless the
 * run never ended) and release always; r->state is `state` bytes, zeroed, the format's own.
 */
struct assay_report__format {
	const char *name;  /* --format's name, listed in help and errors */
	const char *file;  /* its file in a results folder when no path is given */
	bool whole;    /* wants whole values */
	size_t state;  /* bytes of its state */
	int (*begin)(struct assay_renderer *r, const assay_value *run, size_t total,
		     assay_err *err);
	int (*kase)(struct assay_renderer *r, const struct assay_report__case *c, assay_err *err);
	int (*end)(struct assay_renderer *r, const assay_value *summary, assay_err *err);
	void (*release)(struct assay_renderer *r);
	const char *alias; /* NULL, or another name --format takes ("md") */
};

/* The format at `f` in formats.c's table, or NULL past its end. */
const struct assay_report__format *assay_report__format_at(assay_format f);

struct assay_renderer {
	const struct assay_report__format *fmt;
	assay_render_opts o;
	struct assay_report__out out;
	char *path;      /* as given ("-" for standard output) */
	bool begun;
	void *state;     /* the format's, fmt->state bytes, zeroed */
	assay_arena *run_arena;
	assay_value run; /* the run's description (null when not given) */
};

/* The run description's suite name, or "assay". */
const char *assay_report__suite(const assay_value *run);

/* summary.json's unrun_case_files (case files a suite mistake left unrun), 0 without one. */
static inline int64_t assay_report__unrun(const assay_value *summary)
{
	const assay_value *v = assay_object_get(summary, "unrun_case_files");

	return v && v->kind == ASSAY_V_INT && v->u.i > 0 ? v->u.i : 0;
}

#endif
