/*
 * The human report: a progress line while the run goes (rewritten in place on a terminal), then
 * the failing cases, each with what a person needs to act on it (issue #11): the reason per
 * attribute in one line where it fits, a short rendering of longer diffs, how the program ended
 * (timed out, a limit, a signal), the last lines of its stderr, and a command line reproducing
 * it; then a table of checkpoints by group type and one line saying what ran.
 *
 * Key decisions:
 * - Everything is rendered from the case's report line (`r->json`), so a case replayed by
 *   --resume reads like one run now.
 * - A regression copy failing exactly as its original (same original case, same reasons) is
 *   one line, and does not count against --max-failures. Past the limit, failing cases are
 *   still named, one per line: a failure is never only a number. One-line entries stop at
 *   MORE_NAMES (summary.json lists every failed case), and a case is only explained when it
 *   is shown or may repeat a shown one, so a run of 100,000 failures costs little here.
 * - The stderr tail is shown for every failed case that wrote to stderr, unless stderr is an
 *   expected attribute whose diff is shown already; for an api case, the tail of what its
 *   server printed since the previous case (execution.log: a server that could not start
 *   says why only there).
 * - The reproduce line is rendered at the end, when the run's root is known (--keep). It names
 *   the program that ran (o.program: as root with the sandbox, nobody's search of PATH may
 *   find another file than the user's shell would), unless the suite or the case set PATH.
 * - A case that never ran (assay_term__never_ran: not loaded, its working folder, input files
 *   or temporary folder not made) is shown by its error alone: no attribute has a value, and
 *   there is nothing to reproduce. So is an api case without an answer
 *   (assay_term__unanswered), and a later one of its group failing for the same reason is one
 *   line, as a regression copy is: the group's server failed them all alike.
 * - The progress line is rewritten at most every PROGRESS_S seconds: a write per case to a
 *   terminal (and the terminal's redraw) would cost a run of trivial cases a good part of its
 *   time, and nobody reads 500 lines a second. A start held back is written by a later tick
 *   once that time has passed, so the line never names a case that has ended while a later
 *   one runs for seconds.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/json.h"
#include "assay/report.h"
#include "assay/sink.h"
#include "report/term_int.h"
#include "assay/stats.h"
#include "util/banned.h"

#define DIFF_LINES 24
#define STDERR_LINES 10
#define MORE_NAMES 50
#define NOT_RUN_NAMES 10
#define PROGRESS_S 0.1

struct failure {
	char *name;          /* checkpoint/group/id */
	char *origin;        /* the original case's checkpoint/group/id (regression copies) */
	char *same_as;       /* an earlier failure it repeats, or NULL */
	double score;
	assay_buf reasons;   /* why: the lines that identify the failure */
	assay_buf tail;      /* stderr's last lines */
	struct term_repro repro;
	bool has_repro;
};

struct term {
	assay_term_opts o;
	struct term_style st;
	struct failure *list; /* failures shown (in detail, or as a repeat) */
	size_t n, alloc;
	size_t *detailed;     /* indices into list of those shown in detail */
	size_t ndetailed;
	size_t repeats;       /* of them, shown as repeats */
	assay_strvec more;    /* the first MORE_NAMES failing cases past the limit */
	size_t nmore;         /* all of them */
	size_t nfailures;
	size_t total;
	size_t unfinished_passes; /* passed, though the program timed out or was killed */
	char first_unfinished[256];
	assay_strvec command; /* the argv prefix cases ran with */
	char *program;        /* the file its first word ran as (o.program, copied), or NULL */
	char cwd[4096];       /* the current folder ("" if unknown) */
	double progress_at;   /* when the progress line was last written (0: never) */
	struct {              /* the latest start not written yet (borrowed from the suite) */
		const assay_checkpoint *cp;
		const assay_group *g;
		const char *id;
		size_t index, total;
	} held;               /* held.id NULL: none */
};

static const struct term_style plain = { "", "", "", "", "", "" };
static const struct term_style ansi = { "\033[1m", "\033[31m", "\033[32m", "\033[36m",
					"\033[2m", "\033[0m" };

static int on_begin(void *payload, const assay_suite *suite, size_t total, assay_err *err)
{
	struct term *t = payload;

	(void)err;
	t->total = total;
	assay_strvec_clear(&t->command);
	if (!t->o.entry || assay_shell_split(&t->command, t->o.entry, NULL))
		assay_strvec_pushv(&t->command, (const char *const *)suite->command.v);
	if (t->o.summary)
		fprintf(t->o.summary, "assay: %s %s (%zu case%s)\n",
			t->o.doing ? t->o.doing : "running", suite->name, total,
			total == 1 ? "" : "s");
	return 0;
}

static const char *str_of(const assay_value *v, const char *otherwise)
{
	return v && v->kind == ASSAY_V_STRING ? v->u.s : otherwise;
}

static struct failure *new_failure(struct term *t)
{
	if (t->n == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 16;
		t->list = assay_xrealloc(t->list, t->alloc * sizeof(*t->list));
	}
	struct failure *f = &t->list[t->n++];
	memset(f, 0, sizeof(*f));
	f->reasons = (assay_buf)ASSAY_BUF_INIT;
	f->tail = (assay_buf)ASSAY_BUF_INIT;
	return f;
}

/* A failure shown in detail of the same original case, or NULL. */
static const struct failure *same_origin(const struct term *t, const char *origin)
{
	for (size_t i = 0; i < t->ndetailed; i++)
		if (!strcmp(t->list[t->detailed[i]].origin, origin))
			return &t->list[t->detailed[i]];
	return NULL;
}

/* The failure shown in detail of an earlier case of group `prefix` ("checkpoint/group/"), or
 * NULL. */
static const struct failure *same_group(const struct term *t, const char *prefix)
{
	size_t n = strlen(prefix);

	for (size_t i = 0; i < t->ndetailed; i++)
		if (!strncmp(t->list[t->detailed[i]].name, prefix, n))
			return &t->list[t->detailed[i]];
	return NULL;
}

/* Past the limit: only a name, and only the first MORE_NAMES of them. */
static void name_only(struct term *t, const char *name)
{
	if (t->nmore++ < MORE_NAMES)
		assay_strvec_push(&t->more, name);
}

static int on_case(void *payload, const assay_case_report *r, assay_err *err)
{
	struct term *t = payload;
	const assay_value *ocp = assay_object_get(r->json, "original_checkpoint");
	const assay_value *og = assay_object_get(r->json, "original_group");
	assay_buf reasons = ASSAY_BUF_INIT;
	const struct failure *same;
	bool stderr_shown = false;
	char *name, *origin;

	(void)err;
	if (t->o.verbose && t->o.summary)
		fprintf(t->o.summary, "%s %s/%s/%s (%.3fs)\n", r->passed ? "PASS" : "FAIL",
			r->checkpoint->name, r->group->name, r->id,
			assay_value_number(assay_object_get(r->json, "duration")));
	if (r->passed) {
		const char *status = str_of(assay_object_get(assay_report_get(r->json, "execution"),
							     "status"), "exited");

		if (strcmp(status, "exited") && !t->unfinished_passes++)
			snprintf(t->first_unfinished, sizeof(t->first_unfinished), "%s/%s/%s",
				 r->checkpoint->name, r->group->name, r->id);
		return 0;
	}
	t->nfailures++;
	name = assay_xasprintf("%s/%s/%s", r->checkpoint->name, r->group->name, r->id);
	origin = assay_xasprintf("%s/%s/%s", str_of(ocp, r->checkpoint->name),
				 str_of(og, r->group->name), r->id);
	same = same_origin(t, origin);
	if (!same && assay_term__unanswered(r->json)) {
		/* its group's server failed them all alike: the first says why */
		char *prefix = assay_xasprintf("%s/%s/", r->checkpoint->name, r->group->name);

		same = same_group(t, prefix);
		free(prefix);
	}
	if (same || t->ndetailed < t->o.max_failures) {
		struct assay_term__reasons_in in = { .json = r->json, .error = r->error,
						     .cwd = t->cwd, .st = &t->st,
						     .max_lines = DIFF_LINES };
		assay_term__reasons(&reasons, &in, &stderr_shown);
		if (same && (same->reasons.len != reasons.len ||
			     memcmp(same->reasons.ptr, reasons.ptr, reasons.len)))
			same = NULL; /* failing otherwise than its original */
	}
	if (same ? t->repeats >= MORE_NAMES : t->ndetailed >= t->o.max_failures) {
		name_only(t, name);
		free(name);
		free(origin);
		assay_buf_release(&reasons);
		return 0;
	}
	char *same_name = same ? assay_xstrdup(same->name) : NULL;
	struct failure *f = new_failure(t);
	f->name = name;
	f->origin = origin;
	f->same_as = same_name;
	f->score = r->score;
	f->reasons = reasons;
	if (same_name) {
		t->repeats++;
		return 0;
	}
	t->detailed = assay_xrealloc(t->detailed, (t->ndetailed + 1) * sizeof(*t->detailed));
	t->detailed[t->ndetailed++] = t->n - 1;
	const assay_value *err_text = assay_object_get(
		assay_object_get(assay_object_get(r->json, "results"), "stderr"), "actual");
	if (!stderr_shown && err_text && err_text->kind == ASSAY_V_STRING)
		assay_term__tail(&f->tail, "stderr", err_text->u.s, err_text->len, STDERR_LINES,
				 &t->st);
	/* an api case: what its server printed (a server that did not start says why here) */
	const assay_value *log = assay_object_get(assay_report_get(r->json, "execution"), "log");
	if (log && log->kind == ASSAY_V_STRING)
		assay_term__tail(&f->tail, "server output (execution.log)", log->u.s, log->len,
				 STDERR_LINES, &t->st);
	/* a case that was not run (it could not be loaded, its working folder or input files not
	 * made) has nothing to reproduce */
	f->has_repro = assay_report_get(r->json, "execution") &&
		       !assay_term__never_ran(r->json, r->error) &&
		       assay_term__repro_make(&f->repro, r->json, r->checkpoint, r->group, r->id,
					      &t->command, t->program, t->o.pass_env);
	return 0;
}

/* The progress line names the case now running, with the failures so far. */
static void progress_line(struct term *t, const assay_checkpoint *cp, const assay_group *g,
			  const char *id, size_t index, size_t total, double now)
{
	t->progress_at = now;
	t->held.id = NULL;
	fprintf(t->o.progress, "\r\033[K[%zu/%zu]", index, total);
	if (t->nfailures)
		fprintf(t->o.progress, " %s%zu failed%s", t->st.red, t->nfailures, t->st.reset);
	fprintf(t->o.progress, " %s/%s/%s", cp->name, g->name, id);
	fflush(t->o.progress);
}

static void on_start(void *payload, const assay_checkpoint *cp, const assay_group *g,
		     const char *id, size_t index, size_t total)
{
	struct term *t = payload;
	double now;

	if (!t->o.progress || !t->o.tty)
		return;
	now = assay_now();
	if (t->progress_at > 0 && now - t->progress_at < PROGRESS_S) {
		/* held until the next start, or a tick once PROGRESS_S have passed */
		t->held.cp = cp;
		t->held.g = g;
		t->held.id = id;
		t->held.index = index;
		t->held.total = total;
		return;
	}
	progress_line(t, cp, g, id, index, total, now);
}

/* A turn of the runner's loop: a start held back is written once the rate limit allows. */
static void tick(void *payload)
{
	struct term *t = payload;
	double now;

	if (!t->held.id || !t->o.progress || !t->o.tty)
		return;
	now = assay_now();
	if (now - t->progress_at >= PROGRESS_S)
		progress_line(t, t->held.cp, t->held.g, t->held.id, t->held.index, t->held.total,
			      now);
}

static void row(struct term *t, const char *cp, const char *type, const assay_value *tally)
{
	size_t passed = (size_t)assay_value_number(assay_object_get(tally, "passed"));
	size_t total = (size_t)assay_value_number(assay_object_get(tally, "total"));
	/* as the HTML report computes and rounds it (docs/reports.md, "Rounding") */
	double rate = total ? assay_round_tenth(100.0 * (double)passed / (double)total) : 0;
	const char *color = passed == total ? t->st.green : t->st.red;

	fprintf(t->o.summary, "%-24s %-14s %8zu %8zu  %s%6.1f%%%s\n", cp, type, passed, total,
		color, rate, t->st.reset);
}

/* The failing cases: in detail, repeats in one line, then the names of the rest. */
static void list_failures(struct term *t, FILE *f, const char *work_root)
{
	assay_buf out = ASSAY_BUF_INIT;

	assay_buf_addf(&out, "\nFailures (%zu", t->nfailures);
	if (!t->o.max_failures)
		assay_buf_adds(&out, ", none shown in detail: --max-failures 0");
	else if (t->nmore)
		assay_buf_addf(&out, ", first %zu shown in detail", t->ndetailed);
	assay_buf_adds(&out, "):\n");
	for (size_t i = 0; i < t->n; i++) {
		struct failure *x = &t->list[i];

		assay_buf_addf(&out, "  %sFAIL%s ", t->st.red, t->st.reset);
		assay_term__visible(&out, x->name, strlen(x->name));
		if (x->same_as) {
			assay_buf_addf(&out, "  %sthe same failure as ", t->st.dim);
			assay_term__visible(&out, x->same_as, strlen(x->same_as));
			assay_buf_addf(&out, "%s\n", t->st.reset);
			continue;
		}
		assay_buf_addf(&out, "  score %.2f\n", x->score);
		assay_buf_add(&out, x->reasons.ptr, x->reasons.len);
		assay_buf_add(&out, x->tail.ptr, x->tail.len);
		if (x->has_repro)
			assay_term__repro_line(&out, &x->repro, work_root, &t->st);
	}
	for (size_t i = 0; i < t->more.nr && i < MORE_NAMES; i++) {
		assay_buf_addf(&out, "  %sFAIL%s ", t->st.red, t->st.reset);
		assay_term__visible(&out, t->more.v[i], strlen(t->more.v[i]));
		assay_buf_addch(&out, '\n');
	}
	if (t->nmore > MORE_NAMES)
		assay_buf_addf(&out, "  ... and %zu more (summary.json lists them all)\n",
			       t->nmore - MORE_NAMES);
	fwrite(out.ptr, 1, out.len, f);
	assay_buf_release(&out);
}

/* The last line: what ran and what passed. */
static void last_line(struct term *t, FILE *f, const assay_run_summary *sum)
{
	const assay_tally *tot = &sum->total;
	const assay_value *uv = assay_object_get(sum->json, "unrun_case_files");
	int64_t unrun = uv && uv->kind == ASSAY_V_INT ? uv->u.i : 0;
	const char *color = tot->passed == tot->total && !sum->interrupted && !unrun
				    ? t->st.green : t->st.red;

	if (sum->interrupted) {
		fprintf(f, "\n%s%s: %zu of %zu case%s ran, %zu passed%s in %.2f s",
			color, t->o.exitfirst && t->nfailures
				       ? "stopped at the first failure (--exitfirst)"
				       : "interrupted",
			tot->total, sum->planned, sum->planned == 1 ? "" : "s", tot->passed,
			t->st.reset, sum->wall_s);
	} else {
		fprintf(f, "\n%s%zu of %zu case%s passed%s in %.2f s", color, tot->passed,
			tot->total, tot->total == 1 ? "" : "s", t->st.reset, sum->wall_s);
	}
	if (tot->errors)
		fprintf(f, " (%zu could not be loaded or run)", tot->errors);
	if (sum->earlier_s > 0) /* a resumed run: summary.json's duration is the whole run's */
		fprintf(f, " (%.2f s with its earlier invocations)", sum->wall_s + sum->earlier_s);
	fputc('\n', f);
	if (unrun > 0) /* a suite mistake left cases out: never "all passed" without saying so */
		fprintf(f, "%s%lld case file%s never ran%s: a mistake of the suite left %s out (a "
			"folder suite.yaml declares no group or checkpoint for, a name no case file "
			"has: see the warnings; summary.json's unrun_case_files)\n",
			t->st.red, (long long)unrun, unrun == 1 ? "" : "s", t->st.reset,
			unrun == 1 ? "it" : "them");
	if (sum->interrupted && !(t->o.exitfirst && t->nfailures)) {
		const assay_value *not_run = assay_object_get(sum->json, "not_run");

		/* what did not run: the first few by name (summary.json has them all) */
		for (uint32_t i = 0; not_run && not_run->kind == ASSAY_V_ARRAY && i < not_run->len;
		     i++) {
			const assay_value *n = &not_run->u.items[i];

			if (i == NOT_RUN_NAMES) {
				fprintf(f, "  ... and %u more (summary.json's not_run)\n",
					not_run->len - i);
				break;
			}
			if (n->kind != ASSAY_V_STRING)
				continue;
			assay_buf b = ASSAY_BUF_INIT;
			assay_term__visible(&b, n->u.s, n->len);
			fprintf(f, "  not run: %s\n", b.ptr);
			assay_buf_release(&b);
		}
		if (!t->o.unkept)
			fputs("(--resume runs the rest into the same results folder)\n", f);
	}
	if (t->unfinished_passes)
		fprintf(f, "note: %zu passing case%s (%s%s) passed although the program timed out or "
			"was killed: what %s expect%s does not rule that out (no status_code, or "
			"`nonzero`, or a negative one); --strict fails such cases\n",
			t->unfinished_passes, t->unfinished_passes == 1 ? "" : "s",
			t->first_unfinished, t->unfinished_passes > 1 ? ", ..." : "",
			t->unfinished_passes == 1 ? "it" : "they", t->unfinished_passes == 1 ? "s" : "");
}

static int on_end(void *payload, const assay_run_summary *sum, assay_err *err)
{
	struct term *t = payload;
	FILE *f = t->o.summary;
	const assay_value *work = assay_object_get(sum->json, "work_dir");

	(void)err;
	t->held.id = NULL;
	if (t->o.progress && t->o.tty) {
		fputs("\r\033[K", t->o.progress);
		fflush(t->o.progress);
	}
	if (!f)
		return 0;
	if (t->nfailures)
		list_failures(t, f, work && work->kind == ASSAY_V_STRING ? work->u.s : NULL);
	fprintf(f, "\n%-24s %-14s %8s %8s  %7s\n", "checkpoint", "type", "passed", "total",
		"rate");
	const assay_value *cps = assay_object_get(sum->json, "checkpoints");
	for (uint32_t i = 0; cps && i < cps->len; i++) {
		const assay_value *types = assay_object_get(&cps->u.members[i].value, "types");

		for (uint32_t j = 0; types && j < types->len; j++)
			row(t, cps->u.members[i].key.u.s, types->u.members[j].key.u.s,
			    &types->u.members[j].value);
	}
	row(t, "total", "", assay_object_get(sum->json, "totals"));
	last_line(t, f, sum);
	if (work && work->kind == ASSAY_V_STRING)
		fprintf(f, "working folders kept in %s\n", work->u.s);
	fflush(f);
	return 0;
}

static void sink_free(void *payload)
{
	struct term *t = payload;

	for (size_t i = 0; i < t->n; i++) {
		struct failure *f = &t->list[i];

		free(f->name);
		free(f->origin);
		free(f->same_as);
		assay_buf_release(&f->reasons);
		assay_buf_release(&f->tail);
		if (f->has_repro)
			assay_term__repro_release(&f->repro);
	}
	free(t->list);
	free(t->detailed);
	assay_strvec_clear(&t->more);
	assay_strvec_clear(&t->command);
	free(t->program);
	free(t);
}

int assay_sink_terminal_new(assay_sink *out, const assay_term_opts *opts)
{
	struct term *t = assay_xcalloc(1, sizeof(*t));

	t->o = *opts;
	t->o.program = NULL; /* the caller's: t->program is the copy */
	t->program = opts->program ? assay_xstrdup(opts->program) : NULL;
	t->st = opts->color ? ansi : plain;
	if (!getcwd(t->cwd, sizeof(t->cwd)))
		t->cwd[0] = '\0';
	t->more = (assay_strvec)ASSAY_STRVEC_INIT;
	t->command = (assay_strvec)ASSAY_STRVEC_INIT;
	*out = (assay_sink){ t, on_begin, on_case, on_end, sink_free, on_start, false, NULL, tick };
	return 0;
}
