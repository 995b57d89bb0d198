/*
 * `assay skill run`: for each case and run, the executor in an isolated run folder, then the
 * grader, then grading/<case>_v<N>_run<R>.json (issue #8 item 5).
 *
 * A run folder (runs/<case>/v<N>/run<R>/) is made afresh: inputs/ holds copies of the case's
 * files, outputs/ is where the executor writes. The executor is started through assay_proc
 * (own process group, timeout, capped captures, nothing left running; the sandbox when
 * executor.sandbox is set: it may then write only in its run folder and read only the
 * version's skill), with the run folder as its working folder. Its standard output becomes
 * transcript.md unless it wrote one; timing.json records its time and exit. Files it left are
 * read without following links. The files assay writes there (timing.json, executor.stderr,
 * grading_error.json, run_error.json) are assay's alone: whatever the executor left under
 * those names is removed first, so it cannot forge a grading error or a timing. An executor
 * that cannot be started (no such program, not executable) is a run error, written to
 * run_error.json: there is nothing to grade, so no judge is asked, nor paid (issue 18 item 5).
 *
 * With opts.without_skill each (case, run) also runs as the no-skill baseline (issue 20 item
 * 2): the same executor with an empty skill folder (without_skill/skill, emptied by assay),
 * ASSAY_CONFIGURATION=without_skill, its own run folder and grading file under without_skill/,
 * counted apart in the summary.
 *
 * Decisions: convention_compliance lints the first SKILL.md found under outputs/ (an authoring
 * skill's artifact), else the version's own SKILL.md, and its details name which. The cost of
 * a run is metrics.json's cost_usd (or total_cost_usd) plus what the grader cost; a cost that is
 * not a number >= 0 is unknown (counted apart, never lowering the total), and under a cost
 * budget it ends the budget: what was spent can no longer be known. The budget
 * is checked before each run starts: runs under way finish, runs not started are skipped.
 * Threads (-j) share nothing but the job list and the counters, under one lock.
 */
#include <dirent.h>
#include <fnmatch.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/proc.h"
#include "load/load_int.h" /* assay_load__distance: the closest case ids */
#include "skill/skill_int.h"
#include "util/banned.h"

struct job {
	const assay_value *ecase;
	const char *case_id;
	int run;
	bool without;              /* a run of the no-skill baseline */
	assay_skill_item item;
	char error[600];
};

struct runner {
	struct skill_config *c;
	const assay_skill_run_opts *o;
	int version;
	char *skill_dir;           /* v<N>/skill, absolute */
	char *noskill_dir;         /* without_skill/skill (empty), absolute */
	char *name_dir;            /* the original skill folder's name (decision 6) */
	assay_judge *grader;
	struct job *jobs;
	size_t njobs, next;
	pthread_mutex_t lock;
	double t0, budget_seconds, budget_cost;
	assay_skill_run_summary *sum;
	int fatal;
	assay_err fatal_err;
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The shallowest SKILL.md below `dir` (sorted, no links), relative, or NULL. */
static char *find_skill_md(const char *root, const char *rel, int depth)
{
	char *dir = rel[0] ? assay_path_join(root, rel) : assay_xstrdup(root);
	struct dirent **names = NULL;
	int n = depth > 4 ? -1 : scandir(dir, &names, NULL, alphasort);
	char *found = NULL;

	for (int i = 0; i < n && !found; i++)
		if (!strcmp(names[i]->d_name, "SKILL.md"))
			found = rel[0] ? assay_xasprintf("%s/SKILL.md", rel)
				       : assay_xstrdup("SKILL.md");
	for (int i = 0; i < n && !found; i++) {
		struct stat st;
		char *p = assay_path_join(dir, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && !lstat(p, &st) && S_ISDIR(st.st_mode)) {
			char *sub = rel[0] ? assay_xasprintf("%s/%s", rel, names[i]->d_name)
					   : assay_xstrdup(names[i]->d_name);
			found = find_skill_md(root, sub, depth + 1);
			free(sub);
		}
		free(p);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(dir);
	return found;
}

static assay_value compliance(struct runner *r, const struct job *job, const char *run_dir,
			      assay_arena *a)
{
	char *outputs = assay_path_join(run_dir, "outputs");
	char *rel = find_skill_md(outputs, "", 0);
	assay_skill_lint l;
	assay_skill_lint_opts lo = ASSAY_SKILL_LINT_OPTS_INIT;
	char *dir, *label;
	assay_value v;

	lo.profile = r->c->profile;
	lo.skill_type = r->c->skill_type;
	lo.budget_class = r->c->budget_class;
	if (rel) {
		char *slash = strrchr(rel, '/');
		char *sub = slash ? assay_xstrndup(rel, (size_t)(slash - rel)) : assay_xstrdup("");
		dir = sub[0] ? assay_path_join(outputs, sub) : assay_xstrdup(outputs);
		label = assay_xasprintf("outputs/%s", rel);
		free(sub);
	} else if (job->without) {
		/* no skill was installed: nothing of a skill to lint, and it says so */
		dir = assay_xstrdup(r->noskill_dir);
		label = assay_xstrdup("without_skill/skill/SKILL.md");
	} else {
		dir = assay_xstrdup(r->skill_dir);
		lo.name_dir = r->name_dir;
		label = assay_xasprintf("v%d/skill/SKILL.md", r->version);
	}
	assay_skill_lint_run(&l, dir, &lo, NULL);
	v = assay_skill_lint_compliance(&l, label, a);
	assay_skill_lint_release(&l);
	free(dir);
	free(label);
	free(rel);
	free(outputs);
	return v;
}

/* Copies the case's files (relative to the workspace) into inputs/. */
static int copy_inputs(struct runner *r, const assay_value *files, const char *inputs,
		       assay_err *err)
{
	int rc = 0;

	for (uint32_t i = 0; !rc && files && files->kind == ASSAY_V_ARRAY && i < files->len; i++) {
		const char *f = files->u.items[i].u.s;
		char *src = assay_path_join(r->c->workspace, f);

		if (assay_fs_is_dir(src)) {
			char *dst = assay_path_join(inputs, f);
			if (!(rc = assay_fs_mkdirs(dst, err)))
				rc = assay_fs_copy_tree_beneath(src, dst, err);
			free(dst);
		} else {
			assay_buf b = ASSAY_BUF_INIT;
			if (!(rc = assay_fs_read(&b, src, 0, err)))
				rc = assay_fs_write_beneath(inputs, f, b.ptr, b.len, 0644, err);
			assay_buf_release(&b);
		}
		free(src);
	}
	return rc;
}

/*
 * The executor's cost from metrics.json: the first of cost_usd, total_cost_usd, cost that is
 * present. A cost that is not a finite number >= 0 (negative, NaN, text, a container at any
 * depth) is unknown: it adds nothing and the run is counted in the summary's cost_unknown, so a forged
 * cost can never lower the total that the budget checks. No cost at all is 0 (an executor
 * that does not report one).
 */
static double metric_cost(const assay_value *m, bool *unknown)
{
	static const char *const keys[] = { "cost_usd", "total_cost_usd", "cost", NULL };

	*unknown = false;
	for (int i = 0; keys[i]; i++) {
		const assay_value *v = assay_object_get(m, keys[i]);
		double x;

		if (!v)
			continue;
		if (v->kind == ASSAY_V_BOOL || !assay_value_is_number(v) ||
		    !isfinite(x = assay_value_number(v)) || x < 0) {
			*unknown = true;
			return 0;
		}
		return x;
	}
	return 0;
}

/*
 * The executor's metrics as execution_metrics may hold them: a member nested deeper than
 * METRICS_DEPTH levels (which jq and Python's json could not read back) is not copied, nor is
 * a member named "assay_errors"; each such member is listed, with why, under
 * execution_metrics.assay_errors.
 */
#define METRICS_DEPTH 64

static assay_value bounded_metrics(assay_arena *a, const assay_value *m)
{
	assay_value out = assay_value_object(), errors = assay_value_object();

	for (uint32_t i = 0; i < m->len; i++) {
		const assay_member *mb = &m->u.members[i];

		if (assay_value_is_str(&mb->key, "assay_errors"))
			assay_object_setn(a, &errors, mb->key.u.s, mb->key.len,
					  assay_value_strz(a, "a name kept for assay: not copied"));
		else if (assay_value_depth(&mb->value) >= METRICS_DEPTH)
			assay_object_setn(a, &errors, mb->key.u.s, mb->key.len,
					  assay_value_stringf(a, "nested deeper than %d levels: "
								 "not copied", METRICS_DEPTH));
		else
			assay_object_setn(a, &out, mb->key.u.s, mb->key.len, mb->value);
	}
	if (errors.len)
		assay_object_set(a, &out, "assay_errors", errors);
	return out;
}

/* The files assay writes in a run folder: whatever the executor left under these names (a
 * file, a link, a folder) is removed, never followed, before assay writes its own. */
static const char *const assay_files[] = { "grading_error.json", "timing.json",
					   "executor.stderr", "run_error.json", NULL };

/* The grading file of a job. */
static char *grading_path(const struct runner *r, const struct job *job)
{
	return job->without
		       ? assay_skill__path(r->c->workspace, "without_skill/grading/%s_run%d.json",
					   job->case_id, job->run)
		       : assay_skill__path(r->c->workspace, "grading/%s_v%d_run%d.json",
					   job->case_id, r->version, job->run);
}

/* What an error file of a job opens with: {case_id, version (null without the skill), run}. */
static assay_value job_value(const struct runner *r, const struct job *job, assay_arena *a)
{
	assay_value e = assay_value_object();

	assay_object_set(a, &e, "case_id", assay_value_strz(a, job->case_id));
	assay_object_set(a, &e, "version", job->without ? assay_value_null()
							: assay_value_int(r->version));
	assay_object_set(a, &e, "run", assay_value_int(job->run));
	return e;
}

/* run_error.json: {case_id, version, run, error}, and the item a run error. */
static int run_error(struct runner *r, struct job *job, const char *run_dir, assay_arena *a,
		     assay_err *err)
{
	assay_value e = job_value(r, job, a);
	char *path = assay_path_join(run_dir, "run_error.json");
	int rc;

	job->item.state = ASSAY_SKILL_RUN_ERROR;
	job->item.error = job->error;
	assay_object_set(a, &e, "error", assay_value_strz(a, job->error));
	if (job->without)
		assay_object_set(a, &e, "configuration", assay_value_strz(a, "without_skill"));
	rc = assay_skill__write_json(path, &e, err);
	free(path);
	return rc;
}

/* The folders of one run, and what it is given. */
struct run_paths {
	char *run_dir, *inputs, *outputs, *tmp;
	char *gpath;                 /* its grading file */
	const char *skill;           /* the skill folder it runs with (an empty one without) */
	const char *config;          /* with_skill or without_skill */
};

static void run_paths_release(struct run_paths *rp)
{
	free(rp->run_dir);
	free(rp->inputs);
	free(rp->outputs);
	free(rp->tmp);
	free(rp->gpath);
}

/* The run's folder made afresh: a new run replaces the old one, and its grade, which no longer
 * describes it; the case's files copied into inputs/. */
static int prepare_run(struct runner *r, struct job *job, struct run_paths *rp, assay_err *err)
{
	struct skill_config *c = r->c;
	int rc;

	rp->run_dir = job->without ? assay_skill__path(c->workspace, "without_skill/runs/%s/run%d",
						       job->case_id, job->run)
				   : assay_skill__path(c->workspace, "runs/%s/v%d/run%d",
						       job->case_id, r->version, job->run);
	rp->inputs = assay_path_join(rp->run_dir, "inputs");
	rp->outputs = assay_path_join(rp->run_dir, "outputs");
	rp->tmp = assay_path_join(rp->run_dir, "tmp");
	rp->gpath = grading_path(r, job);
	rp->skill = job->without ? r->noskill_dir : r->skill_dir;
	rp->config = job->without ? "without_skill" : "with_skill";
	if ((rc = assay_fs_remove_tree(rp->run_dir, err)) ||
	    (rc = assay_fs_remove_tree(rp->gpath, err)) ||
	    (rc = assay_fs_mkdirs(rp->inputs, err)) || (rc = assay_fs_mkdirs(rp->outputs, err)) ||
	    (rc = assay_fs_mkdirs(rp->tmp, err)))
		return rc;
	return copy_inputs(r, assay_object_get(job->ecase, "files"), rp->inputs, err);
}

/* The executor on the run: its command line, environment and limits (config.json), then its
 * exit status, time and timeout into the job's item. */
static int execute(struct runner *r, struct job *job, const struct run_paths *rp,
		   assay_proc *p, assay_proc_result *pr, assay_err *err)
{
	struct skill_config *c = r->c;
	const char *prompt = assay_skill__str(job->ecase, "prompt");
	char runs[16], ver[16];
	int rc;

	snprintf(runs, sizeof(runs), "%d", job->run);
	snprintf(ver, sizeof(ver), "%d", r->version);
	const char *vars[] = { "{prompt}", prompt, "{skill}", rp->skill, "{inputs}", rp->inputs,
			       "{outputs}", rp->outputs, "{run_dir}", rp->run_dir, "{case_id}",
			       job->case_id, "{run}", runs, "{configuration}", rp->config, NULL };
	for (size_t i = 0; i < c->executor.nr; i++)
		assay_strvec_push_nodup(&p->argv, assay_skill__expand(c->executor.v[i], vars));
	assay_strvec_pushf(&p->env, "ASSAY_SKILL_DIR=%s", rp->skill);
	assay_strvec_pushf(&p->env, "ASSAY_CONFIGURATION=%s", rp->config);
	assay_strvec_pushf(&p->env, "ASSAY_PROMPT=%s", prompt);
	assay_strvec_pushf(&p->env, "ASSAY_INPUTS=%s", rp->inputs);
	assay_strvec_pushf(&p->env, "ASSAY_OUTPUTS=%s", rp->outputs);
	assay_strvec_pushf(&p->env, "ASSAY_RUN_DIR=%s", rp->run_dir);
	assay_strvec_pushf(&p->env, "ASSAY_CASE_ID=%s", job->case_id);
	assay_strvec_pushf(&p->env, "ASSAY_RUN=%d", job->run);
	p->cwd = assay_xstrdup(rp->run_dir);
	p->out_cap = 16u << 20;
	p->err_cap = 1u << 20;
	p->timeout_s = c->exec_timeout;
	const char *reads[] = { rp->skill, NULL };
	const char *writes[] = { rp->run_dir, NULL };
	if (c->exec_sandbox) {
		p->sandbox.enabled = true;
		p->sandbox.network = true;
		p->sandbox.tmp_dir = rp->tmp;
		p->sandbox.read_paths = reads;
		p->sandbox.write_paths = writes;
	}
	if ((rc = assay_proc_run(p, pr, err)))
		return rc;
	job->item.seconds = pr->wall_s;
	job->item.exit_code = pr->status == ASSAY_PROC_EXITED ? pr->exit_code
			      : pr->status == ASSAY_PROC_TIMED_OUT ? -1
			      : pr->status == ASSAY_PROC_SIGNALED ? -pr->term_signal : 127;
	job->item.timed_out = pr->status == ASSAY_PROC_TIMED_OUT;
	job->item.timeout_s = c->exec_timeout;
	return 0;
}

/* timing.json of a run that ended. */
static void write_timing(const char *run_dir, const assay_proc_result *pr, int exit_code,
			 assay_arena *a)
{
	static const char *const states[] = { "exited", "signaled", "timed_out", "exec_failed" };
	assay_value t = assay_value_object();
	assay_buf tb = ASSAY_BUF_INIT;

	assay_object_set(a, &t, "seconds", assay_value_real(pr->wall_s));
	assay_object_set(a, &t, "cpu_seconds", assay_value_real(pr->cpu_user_s + pr->cpu_sys_s));
	assay_object_set(a, &t, "max_rss", assay_value_int(pr->max_rss));
	assay_object_set(a, &t, "status", assay_value_strz(a, states[pr->status]));
	assay_object_set(a, &t, "exit_code", assay_value_int(exit_code));
	assay_json_write(&tb, &t, ASSAY_JSON_PRETTY);
	assay_buf_addch(&tb, '\n');
	assay_fs_write_beneath(run_dir, "timing.json", tb.ptr, tb.len, 0644, NULL);
	assay_buf_release(&tb);
}

/*
 * The run's metrics.json, bounded, and its cost into the job's item. The cost is read from
 * metrics.json as parsed, before bounded_metrics() leaves anything out: a cost nested too deep
 * to copy must stay unknown, not give way to the next key (issue 18 item 12). A metrics.json
 * that is present but no readable JSON object (malformed, too big, a folder or a link) has an
 * unknown cost too.
 */
static assay_value read_metrics(struct job *job, const char *run_dir, assay_arena *a)
{
	assay_buf b = ASSAY_BUF_INIT;
	char *mpath = assay_path_join(run_dir, "metrics.json");
	struct stat mst;
	bool present = !lstat(mpath, &mst);
	assay_value m, metrics = assay_value_object();

	free(mpath);
	if (!assay_fs_read_beneath(&b, run_dir, "metrics.json", 4u << 20, NULL) &&
	    !assay_json_parse(&m, a, b.ptr, b.len, NULL, NULL) && m.kind == ASSAY_V_OBJECT) {
		job->item.cost = metric_cost(&m, &job->item.cost_unknown);
		metrics = bounded_metrics(a, &m);
	} else {
		job->item.cost = 0;
		job->item.cost_unknown = present;
	}
	assay_buf_release(&b);
	return metrics;
}

/* What the grader is given: the case, the transcript, the outputs (paths redacted), the
 * user's notes and the executor's exit status. */
static assay_value grader_request(const struct runner *r, const struct job *job,
				  const struct run_paths *rp, assay_arena *a)
{
	const char *redact[] = { rp->run_dir, "<run>", rp->skill, "<skill>", r->c->workspace,
				 "<workspace>", NULL };
	assay_value req = assay_value_object(), ex = assay_value_object();
	assay_buf b = ASSAY_BUF_INIT, text = ASSAY_BUF_INIT;

	assay_object_set(a, &req, "case_id", assay_value_strz(a, job->case_id));
	assay_object_set(a, &req, "run", assay_value_int(job->run));
	assay_object_set(a, &req, "eval_prompt",
			 assay_value_strz(a, assay_skill__str(job->ecase, "prompt")));
	assay_object_set(a, &req, "expectations",
			 assay_value_copy(a, assay_object_get(job->ecase, "expectations")));
	assay_fs_read_beneath(&b, rp->run_dir, "transcript.md", 256u << 10, NULL);
	assay_object_set(a, &req, "transcript", assay_value_string(a, b.ptr, b.len));
	assay_skill__run_outputs(&text, rp->run_dir, redact, 1u << 20);
	assay_object_set(a, &req, "outputs", assay_value_string(a, text.ptr, text.len));
	assay_buf_release(&text);
	assay_buf_reset(&b);
	assay_fs_read_beneath(&b, rp->run_dir, "user_notes.md", 64u << 10, NULL);
	assay_object_set(a, &req, "user_notes", assay_value_string(a, b.ptr, b.len));
	assay_buf_release(&b);
	assay_object_set(a, &ex, "exit_code", assay_value_int(job->item.exit_code));
	assay_object_set(a, &req, "executor", ex);
	return req;
}

/* The grader on a run that ended: its grading file, or grading_error.json. */
static int grade(struct runner *r, struct job *job, const struct run_paths *rp,
		 const assay_value *metrics, assay_arena *a, assay_err *err)
{
	assay_value req = grader_request(r, job, rp, a), answer;
	assay_judge_stats st;
	assay_err je = ASSAY_ERR_INIT;
	int rc = 0, jrc = assay_judge_ask(r->grader, ASSAY_JUDGE_GRADER, &req, &answer, a, &st,
					  &je);

	job->item.judge_seconds = st.seconds;
	if (isfinite(st.cost) && st.cost > 0)
		job->item.cost += st.cost;
	if (jrc == ASSAY_EINVALID) {
		/* grading_error.json: no valid answer; the item a grading error */
		assay_value e = job_value(r, job, a);
		char *epath = assay_path_join(rp->run_dir, "grading_error.json");

		snprintf(job->error, sizeof(job->error), "%s", je.msg);
		job->item.state = ASSAY_SKILL_GRADING_ERROR;
		job->item.error = job->error;
		if (job->without)
			assay_object_set(a, &e, "configuration",
					 assay_value_strz(a, "without_skill"));
		assay_object_set(a, &e, "role", assay_value_strz(a, "grader"));
		assay_object_set(a, &e, "attempts", assay_value_int(st.attempts));
		assay_object_set(a, &e, "error", assay_value_strz(a, je.msg));
		rc = assay_skill__write_json(epath, &e, err);
		free(epath);
		return rc;
	}
	if (jrc)
		return assay_err_set(err, jrc, je.path, je.line, je.column, "%s", je.msg);
	assay_value cc = compliance(r, job, rp->run_dir, a);
	assay_value g = assay_skill_grading_build(a, job->ecase, r->version, job->run, &answer,
						  &cc, metrics);
	if (job->without) {
		/* grading.json's shape; no version was run, and the configuration says so */
		assay_object_set(a, &g, "version", assay_value_null());
		assay_object_set(a, &g, "configuration", assay_value_strz(a, "without_skill"));
		rc = assay_fs_mkparents(rp->gpath, err);
	}
	if (!rc)
		rc = assay_skill__write_json(rp->gpath, &g, err);
	job->item.state = ASSAY_SKILL_GRADED;
	job->item.pass = assay_value_is_str(assay_object_get(&g, "overall"), "pass");
	job->item.overall_score = assay_value_number(assay_object_get(&g, "overall_score"));
	return rc;
}

/* One run of a case: prepared, executed, what it left kept, graded. */
static int do_job(struct runner *r, struct job *job, assay_err *err)
{
	assay_arena *a = assay_arena_new(0);
	struct run_paths rp = { 0 };
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result pr;
	assay_buf b = ASSAY_BUF_INIT;
	int rc;

	if ((rc = prepare_run(r, job, &rp, err)) || (rc = execute(r, job, &rp, &p, &pr, err)))
		goto out;
	/* What the executor left (it and everything it started have ended). */
	for (int i = 0; assay_files[i]; i++)
		if ((rc = assay_fs_remove_beneath(rp.run_dir, assay_files[i], err)))
			goto out;
	if (pr.status == ASSAY_PROC_EXEC_FAILED) {
		snprintf(job->error, sizeof(job->error), "the executor could not be started: "
			 "%.400s: %s", p.argv.v[0], strerror(pr.exec_errno));
		rc = run_error(r, job, rp.run_dir, a, err);
		goto out;
	}
	if (assay_fs_read_beneath(&b, rp.run_dir, "transcript.md", 1, NULL) == ASSAY_ENOTFOUND)
		assay_fs_write_beneath(rp.run_dir, "transcript.md", p.out.ptr, p.out.len, 0644,
				       NULL);
	if (p.err.len)
		assay_fs_write_beneath(rp.run_dir, "executor.stderr", p.err.ptr, p.err.len, 0644,
				       NULL);
	write_timing(rp.run_dir, &pr, job->item.exit_code, a);
	assay_value metrics = read_metrics(job, rp.run_dir, a);
	rc = grade(r, job, &rp, &metrics, a, err);
out:
	assay_proc_release(&p);
	assay_buf_release(&b);
	run_paths_release(&rp);
	assay_arena_free(a);
	return rc;
}

static void report(struct runner *r, struct job *job)
{
	assay_skill_run_summary *s = r->sum;
	assay_skill_run_counts *w = &s->without_skill;

	s->cost += job->item.cost;
	s->cost_unknown += job->item.cost_unknown;
	switch (job->item.state) {
	case ASSAY_SKILL_GRADED:
		if (job->without)
			w->graded++, w->passed += job->item.pass;
		else
			s->graded++, s->passed += job->item.pass;
		break;
	case ASSAY_SKILL_GRADING_ERROR: (job->without ? w->grading_errors++
						      : s->grading_errors++); break;
	case ASSAY_SKILL_SKIPPED: (job->without ? w->skipped++ : s->skipped++); break;
	case ASSAY_SKILL_RUN_ERROR: (job->without ? w->run_errors++ : s->run_errors++); break;
	}
	if (r->o->progress)
		r->o->progress(r->o->payload, &job->item);
}

/* resume: a job whose grading file exists and reads as one is kept, not run again. */
static bool kept(struct runner *r, struct job *job)
{
	char *p = grading_path(r, job);
	assay_arena *a = assay_arena_new(0);
	assay_value g;
	bool ok = !assay_skill__load_json(&g, a, p, NULL) && g.kind == ASSAY_V_OBJECT &&
		  assay_value_is_number(assay_object_get(&g, "overall_score"));

	if (ok) {
		job->item.state = ASSAY_SKILL_GRADED;
		job->item.kept = true;
		job->item.pass = assay_value_is_str(assay_object_get(&g, "overall"), "pass");
		job->item.overall_score = assay_value_number(assay_object_get(&g, "overall_score"));
	}
	assay_arena_free(a);
	free(p);
	return ok;
}

static void *worker(void *arg)
{
	struct runner *r = arg;

	for (;;) {
		pthread_mutex_lock(&r->lock);
		if (r->fatal || r->next >= r->njobs) {
			pthread_mutex_unlock(&r->lock);
			return NULL;
		}
		struct job *job = &r->jobs[r->next++];
		if (r->o->resume && kept(r, job)) {
			report(r, job);
			pthread_mutex_unlock(&r->lock);
			continue;
		}
		double used = now_s() - r->t0;
		if ((r->budget_seconds > 0 && used >= r->budget_seconds) ||
		    (r->budget_cost > 0 && (r->sum->cost >= r->budget_cost ||
					     r->sum->cost_unknown))) {
			r->sum->budget_hit = true;
			job->item.state = ASSAY_SKILL_SKIPPED;
			report(r, job);
			pthread_mutex_unlock(&r->lock);
			continue;
		}
		pthread_mutex_unlock(&r->lock);

		assay_err err = ASSAY_ERR_INIT;
		int rc = do_job(r, job, &err);

		pthread_mutex_lock(&r->lock);
		if (rc && !r->fatal) {
			r->fatal = rc;
			r->fatal_err = err;
		} else if (!rc) {
			report(r, job);
		}
		pthread_mutex_unlock(&r->lock);
	}
}

/*
 * A --case that matches no id: ASSAY_ENOMATCH naming the three closest ids (by edit distance
 * to the pattern without its glob characters), as `assay run` does for a case name.
 */
static int no_case(const assay_value *cases, const char *glob, assay_err *err)
{
	const char *near[3] = { NULL, NULL, NULL };
	size_t dist[3] = { 0, 0, 0 };
	assay_buf plain = ASSAY_BUF_INIT, msg = ASSAY_BUF_INIT;
	int rc;

	for (const char *q = glob; *q; q++)
		if (!strchr("*?[]\\", *q))
			assay_buf_addch(&plain, *q);
	for (uint32_t i = 0; i < cases->len; i++) {
		const char *id = assay_skill__str(&cases->u.items[i], "id");
		size_t d;
		int at;

		if (!id)
			continue;
		d = assay_load__distance(plain.ptr, id);
		for (at = 0; at < 3 && near[at] && dist[at] <= d; at++)
			;
		if (at == 3)
			continue;
		memmove(&near[at + 1], &near[at], (size_t)(2 - at) * sizeof(*near));
		memmove(&dist[at + 1], &dist[at], (size_t)(2 - at) * sizeof(*dist));
		near[at] = id;
		dist[at] = d;
	}
	assay_buf_addf(&msg, "no case of evals.json matches '%s'", glob);
	for (int i = 0; i < 3 && near[i]; i++)
		assay_buf_addf(&msg, "%s%s", i ? ", " : " (closest: ", near[i]);
	if (near[0])
		assay_buf_addch(&msg, ')');
	rc = assay_err_set(err, ASSAY_ENOMATCH, NULL, 0, 0, "%s", msg.ptr);
	assay_buf_release(&plain);
	assay_buf_release(&msg);
	return rc;
}

int assay_skill_run(assay_skill_run_summary *out, const assay_skill_run_opts *o,
		    assay_err *err)
{
	struct skill_config c;
	struct runner r = { 0 };
	assay_arena *a = assay_arena_new(0);
	assay_value evals, history;
	int rc;

	memset(out, 0, sizeof(*out));
	out->average_score = NAN;
	if ((rc = assay_skill__config_load(&c, o->workspace, err)) ||
	    (rc = assay_skill__history_load(&history, a, c.workspace, err)) ||
	    (rc = assay_skill__evals_load(&evals, a, &c, err)))
		goto out;
	r.c = &c;
	r.o = o;
	r.sum = out;
	r.version = o->version >= 0 ? o->version
				    : (int)assay_object_get(&history, "current_version")->u.i;
	out->version = r.version;
	r.skill_dir = assay_skill__path(c.workspace, "v%d/skill", r.version);
	if (!assay_fs_is_dir(r.skill_dir)) {
		rc = assay_err_set(err, ASSAY_ENOMATCH, r.skill_dir, 0, 0,
				   "version %d has no snapshot", r.version);
		goto out;
	}
	if (!c.executor.nr) {
		rc = assay_err_set(err, ASSAY_EINVALID, c.path, 0, 0,
				   "executor.command is empty");
		goto out;
	}
	r.name_dir = assay_skill__basename(c.skill);
	const assay_value *cases = assay_object_get(&evals, "cases");
	int runs = o->runs > 0 ? o->runs : o->improve ? 3 : 1;
	int configs = o->without_skill ? 2 : 1;
	r.jobs = assay_xcalloc((size_t)cases->len * (size_t)runs * (size_t)configs + 1,
			       sizeof(*r.jobs));
	for (uint32_t i = 0; i < cases->len; i++) {
		const char *id = assay_skill__str(&cases->u.items[i], "id");
		if (o->case_glob && fnmatch(o->case_glob, id, 0))
			continue;
		for (int k = 1; k <= runs; k++)
			for (int w = 0; w < configs; w++) {
				struct job *j = &r.jobs[r.njobs++];
				j->ecase = &cases->u.items[i];
				j->case_id = id;
				j->run = k;
				j->without = w;
				j->item.case_id = id;
				j->item.version = r.version;
				j->item.run = k;
				j->item.without_skill = w;
				if (w)
					out->without_skill.planned++;
				else
					out->planned++;
			}
	}
	if (o->case_glob && !r.njobs && cases->len) {
		rc = no_case(cases, o->case_glob, err);
		goto out;
	}
	if ((rc = assay_skill__judge_new(&r.grader, &c, ASSAY_JUDGE_GRADER, o->no_cache, err)))
		goto out;
	if (o->without_skill) {
		/* the baseline's skill folder: assay's own, and always empty */
		r.noskill_dir = assay_skill__path(c.workspace, "without_skill/skill");
		if ((rc = assay_fs_remove_tree(r.noskill_dir, err)) ||
		    (rc = assay_fs_mkdirs(r.noskill_dir, err)))
			goto out;
	}

	r.budget_seconds = o->budget_seconds >= 0 ? o->budget_seconds : c.budget_seconds;
	r.budget_cost = o->budget_cost >= 0 ? o->budget_cost : c.budget_cost;
	r.t0 = now_s();
	pthread_mutex_init(&r.lock, NULL);
	size_t jobs = o->jobs ? o->jobs : c.jobs;
	if (jobs > r.njobs)
		jobs = r.njobs ? r.njobs : 1;
	pthread_t *threads = assay_xcalloc(jobs, sizeof(*threads));
	size_t started = 0;
	for (size_t i = 1; i < jobs && !pthread_create(&threads[i], NULL, worker, &r); i++)
		started = i;
	worker(&r);
	for (size_t i = 1; i <= started; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	pthread_mutex_destroy(&r.lock);
	out->seconds = now_s() - r.t0;
	if (r.fatal) {
		rc = r.fatal;
		if (err)
			*err = r.fatal_err;
		goto out;
	}
	if ((rc = assay_skill_refresh_average(c.workspace, r.version, err)))
		goto out;
	out->average_score = assay_skill__version_average(c.workspace, r.version, NULL);
out:
	assay_judge_free(r.grader);
	free(r.jobs);
	free(r.skill_dir);
	free(r.noskill_dir);
	free(r.name_dir);
	assay_skill__config_release(&c);
	assay_arena_free(a);
	return rc;
}
