/*
 * Internals of the terminal sink (sink_terminal.c): explaining a failed case in lines a person
 * acts on (term_explain.c) and the command that reproduces it by hand (term_repro.c).
 * Never installed.
 */
#ifndef ASSAY_REPORT_TERM_INT_H
#define ASSAY_REPORT_TERM_INT_H

#include "assay/buf.h"
#include "assay/report.h"

/* ANSI styles, or "" without colour. */
struct term_style {
	const char *bold, *red, *green, *cyan, *dim, *reset;
};

/*
 * Appends `n` bytes of a submission's text with control characters shown as \xNN (C1 controls
 * as \u00NN), so that output under test cannot drive the user's terminal. Tabs and UTF-8 stay.
 */
void assay_term__visible(assay_buf *out, const char *s, size_t n);

/*
 * Appends why one attribute failed, from its AttributeResult `result` (attribute, actual,
 * expected, diff): one line "    <attr>: <reason>" where it fits (`root['id']: expected 2, got
 * 1`, `output is empty`), else a heading and the lines of a short rendering (the unified diff of
 * a text, one line per change of a structured diff), at most `max_lines` of them.
 */
void assay_term__explain(assay_buf *out, const char *attr, const assay_value *result,
			 const struct term_style *st, size_t max_lines);

/* The failed case assay_term__reasons() explains, and how: all borrowed for the call. */
struct assay_term__reasons_in {
	const assay_value *json;     /* the case's report line */
	const char *error;	     /* its error, or NULL */
	const char *cwd;	     /* a path in `error` under it is shown relative; or NULL */
	const struct term_style *st; /* colours */
	size_t max_lines;	     /* of each diff */
};

/*
 * Appends why the case of report line `in->json` did not pass, as the terminal lists it: its
 * error (`in->error`, or NULL; a path under `in->cwd` is shown relative to it), how the program
 * ended when that is news (timed out, a signal), then assay_term__explain() of each attribute
 * that is not correct (a verifier's error only once), diffs cut at `in->max_lines`. Lines are
 * indented by 4 spaces. *stderr_shown says whether stderr's own diff is among them. The one
 * wording of a failure: the HTML, JUnit, TAP and Markdown reports say it too
 * (assay_report__explain).
 */
void assay_term__reasons(assay_buf *out, const struct assay_term__reasons_in *in,
			 bool *stderr_shown);

/* The heading of a diff shown below an attribute's name ("output (- expected, + actual):"):
 * assay_report__first_line finds it to say "output differs" alone. */
#define ASSAY_TERM__DIFF_HEAD " (- expected, + actual):"

/*
 * Whether the case of report line `json`, with error `error` (or NULL), never ran: it has an
 * error and no execution (it could not be loaded, its working folder not made), or an
 * execution that ended before its program was started, with no value of any attribute (the cli
 * adapter's input files or temporary folder could not be made). Such a case is shown by its
 * error alone, with nothing to reproduce. A program that could not be executed (no such file)
 * was started: its status_code (127) and stderr say so, and its reproduce line stays.
 */
bool assay_term__never_ran(const assay_value *json, const char *error);

/*
 * Whether report line `json` is an api case whose request got no answer at all: none of its
 * attributes has a value, and its execution's message says why (its group's server folder not
 * made, its server not started, gone or silent). The listing shows it by that reason alone, and
 * a later case of its group failing for the same reason as "the same failure as" the first.
 */
bool assay_term__unanswered(const assay_value *json);

/* Appends the last `max_lines` lines of `text` (a case's stderr, an api server's
 * execution.log), each cut to a screen width, under a heading naming `what` ("stderr"). */
void assay_term__tail(assay_buf *out, const char *what, const char *text, size_t len,
		      size_t max_lines, const struct term_style *st);

/* Appends one word, quoted for a POSIX shell when it must be ($'...' with control characters). */
void assay_term__shell_word(assay_buf *out, const char *s, size_t n);

/* What a failed case needs to be run again by hand (an adapter with repro_inputs). */
struct term_repro {
	assay_strvec argv;   /* the command and the case's arguments */
	assay_strvec env;    /* "K=V" set, "K" unset, over the clean environment */
	char *stdin_data;    /* the bytes on standard input, or NULL for none */
	size_t stdin_len;
	size_t stdin_cut;    /* a replayed case's stdin that its stored line cut: its bytes (the
				whole is not at hand), else 0 */
	char *workdir;       /* the working folder relative to the run's root: cp/group[/id] */
	char *stdin_file;    /* where --keep puts the stdin: relative to the run's root */
};

/*
 * Fills `r` from a case's report line `json` (its `case`: type, env, and the arguments and
 * stdin its adapter's repro_inputs names) and the group (env of the adapter and checkpoint);
 * `command` is the argv prefix; `program` (or NULL) the file its first word ran as, named
 * instead of it unless the suite or the case set PATH (the case searched that PATH: the line
 * does too); `pass_env` the --pass-env patterns (NULL-terminated, or NULL): each variable of
 * assay's environment they match is taken from the shell (`K="$K"`).
 * Returns false when the case cannot be reproduced by a command (no case definition, an
 * adapter without repro_inputs, no command).
 */
bool assay_term__repro_make(struct term_repro *r, const assay_value *json,
			    const assay_checkpoint *cp, const assay_group *g, const char *id,
			    const assay_strvec *command, const char *program,
			    const char *const *pass_env);

/*
 * Appends "    reproduce: ..." to `out`: a shell command line running the case as assay ran
 * it (its clean environment: docs/security.md), in its kept working folder under `work_root`
 * (with the stdin written beside it), or, with `work_root` NULL, to run in a copy of it.
 */
void assay_term__repro_line(assay_buf *out, const struct term_repro *r, const char *work_root,
			    const struct term_style *st);

void assay_term__repro_release(struct term_repro *r);

#endif
