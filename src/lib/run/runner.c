/*
 * The run loop: checkpoints -> groups -> cases, in order, one case at a time (a process pool
 * drives the adapters' non-blocking interface later). Each case is loaded when its turn comes,
 * gets a fresh working folder (or the group's shared one when `isolated: false`) holding the
 * submission and the case folder's files/, is run by the suite's adapter, verified, and its
 * report goes to the sinks at once, so an interrupted run keeps every finished case.
 *
 * Key decisions:
 * - `duration` runs from the start of loading the case to the end of its verification.
 * - Each case's report lives in an arena of its own whose limit is the verification budget;
 *   it is freed as soon as the sinks have the report.
 * - The library touches no process-wide state: no signal handler (the stop flag is the
 *   caller's), no subreaper.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/render.h"
#include "assay/run.h"
#include "assay/summary.h"
#include "run/run_int.h"
#include "util/banned.h"


struct run {
	const assay_suite *suite;
	const assay_run_opts *opts;
	assay_strvec command;
	char *root;
	char *tmp_root;                   /* root/.tmp: the cases' private temporary folders */
	struct assay_run__sandbox sandbox;
	assay_tallies *t;                 /* summary.h */
	size_t index;
	assay_err *err;
};

static const char *const limit_names[] = { "none", "cpu_time", "memory", "file_size",
					   "open_files", "processes", "timeout" };

/* The names of the sandbox layers in `bits`. */
static assay_value layers_value(assay_arena *a, unsigned bits)
{
	assay_value v = assay_value_array();

	for (unsigned i = 0; i < ASSAY_SANDBOX_NLAYERS; i++)
		if (bits & (1u << i))
			assay_array_push(a, &v,
					 assay_value_strz(a, assay_sandbox_layer_name(1u << i)));
	return v;
}

static assay_value execution_value(assay_arena *a, const assay_case_result *r)
{
	static const char *const status[] = { "exited", "signaled", "timed_out", "exec_failed" };
	const assay_proc_result *p = &r->proc;
	assay_value o = assay_value_object();

	assay_object_set(a, &o, "status", assay_value_strz(a, status[p->status]));
	assay_object_set(a, &o, "exit_code", p->status == ASSAY_PROC_EXITED
						     ? assay_value_int(p->exit_code)
						     : assay_value_null());
	assay_object_set(a, &o, "signal",
			 p->term_signal ? assay_value_int(p->term_signal) : assay_value_null());
	assay_object_set(a, &o, "wall_time", assay_value_real(p->wall_s));
	assay_object_set(a, &o, "cpu_time", assay_value_real(p->cpu_user_s + p->cpu_sys_s));
	assay_object_set(a, &o, "max_rss", assay_value_int(p->max_rss));
	assay_object_set(a, &o, "stdout_truncated", assay_value_bool(p->out_truncated));
	assay_object_set(a, &o, "stderr_truncated", assay_value_bool(p->err_truncated));
	assay_object_set(a, &o, "limit", p->limit == ASSAY_LIMIT_NONE
						 ? assay_value_null()
						 : assay_value_strz(a, limit_names[p->limit]));
	assay_object_set(a, &o, "sandbox", layers_value(a, p->sandbox_applied));
	if (p->sandbox_refused)
		assay_object_set(a, &o, "sandbox_refused", layers_value(a, p->sandbox_refused));
	if (r->error)
		assay_object_set(a, &o, "message", assay_value_strz(a, r->error));
	if (r->log)
		assay_object_set(a, &o, "log", assay_value_strz(a, r->log));
	return o;
}

char *assay_report_key(const char *checkpoint, const char *group, const char *id)
{
	return assay_xasprintf("%s\n%s\n%s", checkpoint, group, id);
}

/* Tallies a finished case and hands it to every sink. */
static int emit(struct run *run, assay_case_report *cr, size_t icp, size_t ig)
{
	assay_tallies_add(run->t, icp, ig, cr);
	cr->index = ++run->index;
	cr->total = run->suite->ncases;
	for (size_t i = 0; i < run->opts->nsinks; i++) {
		assay_sink *s = &run->opts->sinks[i];
		int rc;

		if (s->on_case && (rc = s->on_case(s->payload, cr, run->err)))
			return rc;
	}
	return 0;
}

/* The reports.jsonl line: the VerifierReport plus checkpoint, score, passed (and more). */
static void finish_line(assay_arena *a, assay_value *report, const assay_checkpoint *cp,
			const assay_case_report *cr)
{
	assay_object_set(a, report, "checkpoint", assay_value_strz(a, cp->name));
	assay_object_set(a, report, "score", assay_value_real(cr->score));
	assay_object_set(a, report, "passed", assay_value_bool(cr->passed));
	if (cr->result)
		assay_object_set(a, report, "execution", execution_value(a, cr->result));
	if (cr->error)
		assay_object_set(a, report, "error", assay_value_strz(a, cr->error));
}

static bool replay(struct run *run, const assay_checkpoint *cp, const assay_group *g,
		   const assay_case_ref *ref, size_t icp, size_t ig, int *rc)
{
	assay_value prev;
	assay_arena *a;
	int found;

	if (!run->opts->previous)
		return false;
	a = assay_arena_new(0);
	found = run->opts->previous(run->opts->previous_payload, cp->name, g->name, ref->id,
				    ref->file, a, &prev, run->err);
	if (found <= 0) {
		assay_arena_free(a);
		*rc = found;
		return found < 0;
	}
	const assay_value *err = assay_object_get(&prev, "error");
	const assay_value *passed = assay_object_get(&prev, "passed");
	assay_case_report cr = { .checkpoint = cp, .group = g, .id = ref->id, .json = &prev,
				 .score = assay_value_number(assay_object_get(&prev, "score")),
				 .passed = passed && passed->kind == ASSAY_V_BOOL && passed->u.b,
				 .error = err && err->kind == ASSAY_V_STRING ? err->u.s : NULL,
				 .replayed = true };
	if (!(cr.score >= 0 && cr.score <= 1))
		cr.score = 0;
	*rc = emit(run, &cr, icp, ig);
	assay_arena_free(a);
	return true;
}

static void notify_start(struct run *run, const assay_checkpoint *cp, const assay_group *g,
			 const char *id)
{
	for (size_t i = 0; i < run->opts->nsinks; i++) {
		assay_sink *s = &run->opts->sinks[i];

		if (s->on_start)
			s->on_start(s->payload, cp, g, id, run->index + 1, run->suite->ncases);
	}
}

/*
 * Makes (or, shared, checks) working folder `rel` beneath the run's root, reaching it through
 * no link, then puts the submission (fresh folders only) and the case folder's files/ into it,
 * at `dir`. A folder an earlier case replaced by a link is an error, never followed: no process
 * of an earlier case is alive by now (proc.h), so what was checked stays true.
 */
static int prepare_workdir(const char *root, const char *rel, const char *dir,
			   const char *submission, const assay_case *c, bool fresh, assay_err *err)
{
	int rc;

	if ((rc = assay_fs_mkdirs_beneath(root, rel, err)))
		return rc;
	if (fresh && submission && (rc = assay_fs_copy_tree(submission, dir, err)))
		return rc;
	/* Earlier cases of a shared folder may have planted links: write beneath, never through. */
	if (c->files_dir && (rc = assay_fs_copy_tree_beneath(c->files_dir, dir, err)))
		return rc;
	return 0;
}

static int run_one(struct run *run, const assay_run_ctx *ctx, void *state, size_t k, size_t icp,
		   size_t ig)
{
	const assay_checkpoint *cp = ctx->checkpoint;
	const assay_group *g = ctx->group;
	const char *id = g->cases[k].id;
	size_t budget = run->opts->verify_memory ? run->opts->verify_memory
						 : ASSAY_VERIFY_MEMORY_DEFAULT;
	double seconds = run->opts->verify_seconds > 0 ? run->opts->verify_seconds
						       : ASSAY_VERIFY_SECONDS_DEFAULT;
	double t0 = assay_now();
	assay_case_result r = ASSAY_CASE_RESULT_INIT;
	assay_arena *a = NULL;
	assay_case *c = NULL;
	assay_case_report cr = { .checkpoint = cp, .group = g, .id = id };
	assay_value report;
	char *dir = NULL, *rel = NULL;
	int rc = 0;

	if (replay(run, cp, g, &g->cases[k], icp, ig, &rc))
		return rc;
	notify_start(run, cp, g, id);
	assay_case_load(&c, run->suite, cp, g, k, run->opts->warn, run->opts->warn_payload);
	a = assay_arena_new(budget);
	cr.kase = c;
	if (c->error) {
		cr.error = c->error;
		report = assay_case_report_error(a, run->suite, g, id, c, c->error, t0);
		goto emit;
	}
	dir = g->isolated ? assay_path_join(ctx->group_dir, c->id) : assay_xstrdup(ctx->group_dir);
	rel = g->isolated ? assay_xasprintf("%s/%s/%s", cp->name, g->name, c->id)
			  : assay_xasprintf("%s/%s", cp->name, g->name);
	assay_err e = ASSAY_ERR_INIT;
	if (prepare_workdir(run->root, rel, dir, ctx->submission, c, g->isolated, &e)) {
		char msg[1200];

		cr.error = assay_value_stringf(a, "cannot prepare the working folder: %s",
					       assay_err_format(&e, msg, sizeof(msg))).u.s;
		report = assay_case_report_error(a, run->suite, g, id, c, cr.error, t0);
		goto emit;
	}
	rc = assay_adapter_run(run->suite->adapter, state, ctx, c, dir, run->opts->stop, &r,
			       run->err);
	if (rc)
		goto out; /* interrupted (unreported: --resume runs it again) or assay broke */
	assay_verdict v;
	assay_case_report_build(&report, &v, a, run->suite, g, c, &r, seconds, t0);
	cr.result = &r;
	cr.score = v.score;
	cr.passed = v.passed;
	cr.error = v.error;
emit:
	finish_line(a, &report, cp, &cr);
	cr.json = &report;
	rc = emit(run, &cr, icp, ig);
out:
	if (rel && g->isolated && !run->opts->keep)
		assay_fs_remove_beneath(run->root, rel, NULL);
	assay_case_result_release(&r);
	assay_arena_free(a);
	assay_case_free(c);
	free(dir);
	free(rel);
	return rc;
}

static int run_group(struct run *run, size_t icp, size_t ig)
{
	const assay_checkpoint *cp = &run->suite->checkpoints[icp];
	const assay_group *g = &cp->groups[ig];
	const assay_adapter *ad = run->suite->adapter;
	const char *submission = run->opts->submission ? run->opts->submission : cp->submission;
	char *grel = assay_xasprintf("%s/%s", cp->name, g->name);
	char *gdir = assay_path_join(run->root, grel);
	assay_run_ctx ctx = { run->suite, cp, g, &run->command, submission,
			      run->opts->out_cap ? run->opts->out_cap : ASSAY_PROC_DEFAULT_CAP,
			      run->opts->err_cap ? run->opts->err_cap : ASSAY_PROC_DEFAULT_CAP,
			      run->opts->kill_grace_s >= 0 ? run->opts->kill_grace_s : 1.0, gdir,
			      &run->sandbox.sb, run->tmp_root, run->opts->pass_env };
	void *state = NULL;
	bool begun = false;
	int rc = 0;

	if (!g->ncases)
		goto out;
	if (submission && !assay_fs_is_dir(submission)) {
		rc = assay_err_set(run->err, ASSAY_EINVALID, submission, 0, 0,
				   "the submission folder does not exist");
		goto out;
	}
	if ((rc = assay_fs_mkdirs_beneath(run->root, grel, run->err)))
		goto out;
	/* One folder for the whole group: the submission is copied in once. */
	if (!g->isolated && submission && (rc = assay_fs_copy_tree(submission, gdir, run->err)))
		goto out;
	if (ad->group_begin && (rc = ad->group_begin(&state, &ctx, run->err)))
		goto out;
	begun = true;
	for (size_t k = 0; k < g->ncases; k++) {
		if (run->opts->stop && *run->opts->stop)
			break;
		if ((rc = run_one(run, &ctx, state, k, icp, ig)))
			break;
	}
	if (rc == ASSAY_EINTERRUPTED)
		rc = 0; /* the case that was running is not reported: --resume runs it again */
out:
	if (begun && ad->group_end)
		ad->group_end(state);
	if (!run->opts->keep)
		assay_fs_remove_beneath(run->root, grel, NULL);
	free(gdir);
	free(grel);
	return rc;
}

static int resolve_command(struct run *run, assay_err *err)
{
	if (run->opts->entry) {
		int rc = assay_shell_split(&run->command, run->opts->entry, err);

		if (rc)
			return rc;
	} else {
		assay_strvec_pushv(&run->command, (const char *const *)run->suite->command.v);
	}
	if (!run->command.nr && run->suite->adapter_type == ASSAY_ADAPTER_CLI)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "no command to run: set adapter.command in suite.yaml or "
				     "pass --entry");
	return 0;
}

int assay_run_suite(const assay_suite *suite, const assay_run_opts *opts,
		    assay_tally *summary_out, assay_err *err)
{
	struct run run = { .suite = suite, .opts = opts, .command = ASSAY_STRVEC_INIT, .err = err };
	double t0 = assay_now();
	bool interrupted = false;
	int rc;

	if ((rc = resolve_command(&run, err)))
		goto out;
	if (opts->submission && !assay_fs_is_dir(opts->submission)) {
		rc = assay_err_set(err, ASSAY_EINVALID, opts->submission, 0, 0,
				   "the submission folder does not exist");
		goto out;
	}
	if ((rc = assay_fs_mkdtemp(&run.root, opts->work_root, "assay-", err)) ||
	    (rc = assay_fs_mkdirs_beneath(run.root, ".tmp", err)))
		goto out;
	run.tmp_root = assay_path_join(run.root, ".tmp");
	assay_run__sandbox_make(&run.sandbox, suite, opts, &run.command);
	/* as root, cases run as nobody: the run's root must let them through */
	assay_run__sandbox_reach(&run.sandbox.sb, run.root, run.tmp_root);

	run.t = assay_tallies_new(suite);
	for (size_t i = 0; i < opts->nsinks; i++) {
		assay_sink *s = &opts->sinks[i];

		if (s->on_begin && (rc = s->on_begin(s->payload, suite, suite->ncases, err)))
			goto out;
	}
	for (size_t i = 0; i < suite->ncheckpoints && !rc; i++) {
		for (size_t j = 0; j < suite->checkpoints[i].ngroups && !rc; j++) {
			if (opts->stop && *opts->stop)
				break;
			rc = run_group(&run, i, j);
		}
	}
	if (rc)
		goto out;
	interrupted = opts->stop && *opts->stop && run.index < suite->ncases;

	assay_arena *a = assay_arena_new(0);
	assay_value sv = assay_tallies_summary(run.t, a, assay_now() - t0, interrupted,
					       opts->keep ? run.root : NULL);
	assay_run_summary sum = { suite, &sv, assay_tallies_total(run.t), suite->ncases,
				  assay_now() - t0, interrupted };
	for (size_t i = 0; i < opts->nsinks && !rc; i++) {
		assay_sink *s = &opts->sinks[i];

		if (s->on_end)
			rc = s->on_end(s->payload, &sum, err);
	}
	assay_arena_free(a);
	if (summary_out)
		*summary_out = assay_tallies_total(run.t);
out:
	if (run.root && !opts->keep)
		assay_fs_remove_tree(run.root, NULL);
	free(run.root);
	free(run.tmp_root);
	assay_run__sandbox_release(&run.sandbox);
	assay_tallies_free(run.t);
	assay_strvec_clear(&run.command);
	return rc;
}
