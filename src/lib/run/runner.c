/*
 * The run loop: checkpoints -> groups -> cases, in order, one case at a time (a process pool
 * drives assay_proc's non-blocking API later). Each case gets a fresh working folder (or the
 * group's shared one when `isolated: false`) holding the submission, the case folder's files/
 * and its input files; the adapter runs it; orphans it left are killed; the report goes to the
 * sinks at once, so an interrupted run keeps every finished case.
 */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/run.h"
#include "util/banned.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct tallies {
	/* per checkpoint: [type] and per group */
	assay_tally (*types)[4];
	assay_tally **groups;
	assay_tally total;
};

static void tally_add(assay_tally *t, bool passed, bool error, double score)
{
	t->total++;
	t->passed += passed;
	t->errors += error;
	t->score_sum += score;
}

static json_t *tally_json(const assay_tally *t)
{
	return json_pack("{s:I, s:I, s:f, s:I, s:f}", "passed", (json_int_t)t->passed, "total",
			 (json_int_t)t->total, "pass_rate",
			 t->total ? (double)t->passed / (double)t->total : 0.0, "errors",
			 (json_int_t)t->errors, "mean_score",
			 t->total ? t->score_sum / (double)t->total : 0.0);
}

static json_t *summary_json(const assay_suite *s, const struct tallies *t, double wall,
			    bool interrupted, const char *workdir)
{
	json_t *o = json_object();
	json_t *cps = json_object();

	json_object_set_new(o, "suite", json_string(s->name));
	json_object_set_new(o, "duration", json_real(wall));
	json_object_set_new(o, "interrupted", json_boolean(interrupted));
	json_object_set_new(o, "totals", tally_json(&t->total));
	for (size_t i = 0; i < s->ncheckpoints; i++) {
		const assay_checkpoint *cp = &s->checkpoints[i];
		json_t *c = json_object();
		json_t *types = json_object();
		json_t *groups = json_object();
		assay_tally all = { 0 };
		for (int k = 0; k < 4; k++) {
			const assay_tally *tt = &t->types[i][k];
			if (!tt->total)
				continue;
			json_object_set_new(types, assay_group_type_name((assay_group_type)k),
					    tally_json(tt));
			all.passed += tt->passed;
			all.total += tt->total;
			all.errors += tt->errors;
			all.score_sum += tt->score_sum;
		}
		for (size_t j = 0; j < cp->ngroups; j++) {
			json_t *g = tally_json(&t->groups[i][j]);
			json_object_set_new(g, "type",
					    json_string(assay_group_type_name(cp->groups[j].type)));
			json_object_set_new(groups, cp->groups[j].name, g);
		}
		json_t *counts = tally_json(&all);
		json_object_update(c, counts);
		json_decref(counts);
		json_object_set_new(c, "types", types);
		json_object_set_new(c, "groups", groups);
		json_object_set_new(cps, cp->name, c);
	}
	json_object_set_new(o, "checkpoints", cps);
	if (workdir)
		json_object_set_new(o, "work_dir", json_string(workdir));
	return o;
}

static json_t *execution_json(const assay_case_result *r)
{
	static const char *const status[] = { "exited", "signaled", "timed_out", "exec_failed" };
	const assay_proc_result *p = &r->proc;
	json_t *o = json_object();

	json_object_set_new(o, "status", json_string(status[p->status]));
	json_object_set_new(o, "exit_code", p->status == ASSAY_PROC_EXITED
						     ? json_integer(p->exit_code) : json_null());
	json_object_set_new(o, "signal", p->term_signal ? json_integer(p->term_signal)
							: json_null());
	json_object_set_new(o, "wall_time", json_real(p->wall_s));
	json_object_set_new(o, "cpu_time", json_real(p->cpu_user_s + p->cpu_sys_s));
	json_object_set_new(o, "max_rss", json_integer(p->max_rss));
	json_object_set_new(o, "stdout_truncated", json_boolean(p->out_truncated));
	json_object_set_new(o, "stderr_truncated", json_boolean(p->err_truncated));
	if (r->error)
		json_object_set_new(o, "message", json_string(r->error));
	return o;
}

/* Puts the submission, the case folder's files/ and the input files into `dir`. */
static int prepare_workdir(const char *dir, const char *submission, const assay_case *c,
			   bool fresh, assay_err *err)
{
	int rc;

	if (fresh) {
		if ((rc = assay_fs_mkdirs(dir, err)))
			return rc;
		if (submission && (rc = assay_fs_copy_tree(submission, dir, err)))
			return rc;
	}
	/* Earlier cases of a shared folder may have planted links: write beneath, never through. */
	if (c->files_dir && (rc = assay_fs_copy_tree_beneath(c->files_dir, dir, err)))
		return rc;
	for (size_t i = 0; i < c->ninput_files; i++) {
		rc = assay_fs_write_beneath(dir, c->input_files[i].path, c->input_files[i].content,
					    c->input_files[i].len, 0644, err);
		if (rc)
			return rc;
	}
	return 0;
}

struct run {
	const assay_suite *suite;
	const assay_run_opts *opts;
	assay_strvec command;
	char *root;
	struct tallies t;
	size_t index;
	assay_err *err;
};

char *assay_report_key(const char *checkpoint, const char *group, const char *id)
{
	return assay_xasprintf("%s\n%s\n%s", checkpoint, group, id);
}

static int emit(struct run *run, const assay_checkpoint *cp, const assay_group *g,
		const assay_case *c, const assay_case_result *r, json_t *report, double score,
		bool passed, const char *error, size_t icp, size_t ig, bool replayed)
{
	if (!replayed) {
		json_object_set_new(report, "checkpoint", json_string(cp->name));
		json_object_set_new(report, "score", json_real(score));
		json_object_set_new(report, "passed", json_boolean(passed));
		if (r)
			json_object_set_new(report, "execution", execution_json(r));
		if (error)
			json_object_set_new(report, "error", json_string(error));
	}
	tally_add(&run->t.types[icp][g->type], passed, error != NULL, score);
	tally_add(&run->t.groups[icp][ig], passed, error != NULL, score);
	tally_add(&run->t.total, passed, error != NULL, score);

	assay_case_report cr = { cp, g, c, r, report, score, passed, error, replayed,
				 ++run->index, run->suite->ncases };
	for (size_t i = 0; i < run->opts->nsinks; i++) {
		assay_sink *s = &run->opts->sinks[i];
		if (s->on_case) {
			int rc = s->on_case(s->payload, &cr, run->err);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static int run_one(struct run *run, const assay_run_ctx *ctx, const assay_case *c,
		   const char *group_dir, size_t icp, size_t ig)
{
	const assay_group *g = ctx->group;
	double t0 = now_s();
	assay_case_result r = { .output = ASSAY_BUF_INIT, .stderr_text = ASSAY_BUF_INIT };
	json_t *report = NULL;
	char *dir = NULL, *error = NULL;
	double score = 0;
	bool passed = false;
	int rc = 0;

	if (run->opts->previous) {
		char *key = assay_report_key(ctx->checkpoint->name, g->name, c->id);
		json_t *prev = json_object_get(run->opts->previous, key);
		free(key);
		if (prev) {
			report = json_incref(prev);
			rc = emit(run, ctx->checkpoint, g, c, NULL, report,
				  json_number_value(json_object_get(prev, "score")),
				  json_is_true(json_object_get(prev, "passed")),
				  json_string_value(json_object_get(prev, "error")), icp, ig, true);
			goto out;
		}
	}
	for (size_t i = 0; i < run->opts->nsinks; i++) {
		assay_sink *s = &run->opts->sinks[i];
		if (s->on_start)
			s->on_start(s->payload, ctx->checkpoint, g, c, run->index + 1,
				    run->suite->ncases);
	}
	if (c->error) {
		report = assay_case_report_error(g, c, c->error, now_s() - t0);
		rc = emit(run, ctx->checkpoint, g, c, NULL, report, 0, false, c->error, icp, ig,
			  false);
		goto out;
	}
	dir = g->isolated ? assay_path_join(group_dir, c->id) : assay_xstrdup(group_dir);
	assay_err e = ASSAY_ERR_INIT;
	if (prepare_workdir(dir, ctx->submission, c, g->isolated, &e)) {
		char msg[1200];
		error = assay_xasprintf("cannot prepare the working folder: %s",
					assay_err_format(&e, msg, sizeof(msg)));
		report = assay_case_report_error(g, c, error, now_s() - t0);
		rc = emit(run, ctx->checkpoint, g, c, NULL, report, 0, false, error, icp, ig,
			  false);
		goto out;
	}
	rc = assay_adapter_cli.run_case(NULL, ctx, c, dir, &r, run->err);
	if (rc)
		goto out;
	assay_case_report_build(&report, &score, &passed, &error, g, c, &r, now_s() - t0);
	rc = emit(run, ctx->checkpoint, g, c, &r, report, score, passed, error, icp, ig, false);
out:
	if (dir && g->isolated && !run->opts->keep)
		assay_fs_remove_tree(dir, NULL);
	json_decref(report);
	assay_case_result_release(&r);
	free(error);
	free(dir);
	return rc;
}

static int run_group(struct run *run, size_t icp, size_t ig)
{
	const assay_checkpoint *cp = &run->suite->checkpoints[icp];
	const assay_group *g = &cp->groups[ig];
	const char *submission = run->opts->submission ? run->opts->submission : cp->submission;
	assay_run_ctx ctx = { run->suite, cp, g, &run->command, submission,
			      run->opts->out_cap ? run->opts->out_cap : ASSAY_PROC_DEFAULT_CAP,
			      run->opts->err_cap ? run->opts->err_cap : ASSAY_PROC_DEFAULT_CAP,
			      run->opts->kill_grace_s >= 0 ? run->opts->kill_grace_s : 1.0,
			      run->opts->stop };
	char *cpdir = assay_path_join(run->root, cp->name);
	char *gdir = assay_path_join(cpdir, g->name);
	int rc = 0;

	free(cpdir);
	if (submission && !assay_fs_is_dir(submission)) {
		rc = assay_err_set(run->err, ASSAY_EINVALID, submission, 0, 0,
				   "the submission folder does not exist");
		goto out;
	}
	if (!g->isolated) {
		/* One folder for the whole group: the submission is copied in once. */
		if ((rc = assay_fs_mkdirs(gdir, run->err)) ||
		    (submission && (rc = assay_fs_copy_tree(submission, gdir, run->err))))
			goto out;
	}
	for (size_t k = 0; k < g->ncases; k++) {
		if (run->opts->stop && *run->opts->stop)
			break;
		if ((rc = run_one(run, &ctx, &g->cases[k], gdir, icp, ig)))
			break;
	}
	if (rc == ASSAY_EINTERRUPTED)
		rc = 0; /* the case that was running is not reported: --resume runs it again */
out:
	if (!run->opts->keep)
		assay_fs_remove_tree(gdir, NULL);
	free(gdir);
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
	if (!run->command.nr)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "no command to run: set adapter.command in suite.yaml or "
				     "pass --entry");
	return 0;
}

int assay_run_suite(const assay_suite *suite, const assay_run_opts *opts,
		    assay_tally *summary_out, assay_err *err)
{
	struct run run = { suite, opts, ASSAY_STRVEC_INIT, NULL, { 0 }, 0, err };
	double t0 = now_s();
	bool interrupted = false;
	int rc;

	if (suite->adapter != ASSAY_ADAPTER_CLI)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "the api adapter is not supported yet");
	if ((rc = resolve_command(&run, err)))
		goto out;
	if (opts->submission && !assay_fs_is_dir(opts->submission)) {
		rc = assay_err_set(err, ASSAY_EINVALID, opts->submission, 0, 0,
				   "the submission folder does not exist");
		goto out;
	}
	if ((rc = assay_fs_mkdtemp(&run.root, opts->work_root, "assay-", err)))
		goto out;

	run.t.types = assay_xcalloc(suite->ncheckpoints + 1, sizeof(*run.t.types));
	run.t.groups = assay_xcalloc(suite->ncheckpoints + 1, sizeof(*run.t.groups));
	for (size_t i = 0; i < suite->ncheckpoints; i++)
		run.t.groups[i] = assay_xcalloc(suite->checkpoints[i].ngroups + 1,
						sizeof(**run.t.groups));
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

	assay_run_summary sum = { suite, summary_json(suite, &run.t, now_s() - t0, interrupted,
						      opts->keep ? run.root : NULL),
				  run.t.total, now_s() - t0, interrupted };
	for (size_t i = 0; i < opts->nsinks && !rc; i++) {
		assay_sink *s = &opts->sinks[i];
		if (s->on_end)
			rc = s->on_end(s->payload, &sum, err);
	}
	json_decref(sum.json);
	if (summary_out)
		*summary_out = run.t.total;
out:
	if (run.root && !opts->keep)
		assay_fs_remove_tree(run.root, NULL);
	free(run.root);
	for (size_t i = 0; run.t.groups && i < suite->ncheckpoints; i++)
		free(run.t.groups[i]);
	free(run.t.groups);
	free(run.t.types);
	assay_strvec_clear(&run.command);
	return rc;
}
