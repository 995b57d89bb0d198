/*
 * assay run SUITE: runs every case, keeps each finished case in the results store DIR/assay.db
 * and appends it to DIR/reports.jsonl, writes DIR/summary.json at the end, shows progress on a
 * terminal and a summary table. --resume continues the run kept in DIR.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/fs.h"
#include "assay/render.h"
#include "assay/report.h"
#include "assay/shard.h"
#include "assay/store.h"
#include "cmd.h"
#include "exit.h"
#include "report_args.h"
#include "run_common.h"
#include "workflow.h"
#include "util/banned.h"

static const char usage[] = "assay run SUITE [options]";

struct selected {
	char **keys; /* checkpoint\ngroup\nid of each selected case, sorted */
	size_t n;
	size_t outside; /* finished cases of the store the selection leaves out */
	char example[300];
};

static int cmp_key(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static int count_outside(void *payload, size_t position, const char *checkpoint,
			 const char *group, const char *id, assay_err *err)
{
	struct selected *sel = payload;
	char *key = assay_xasprintf("%s\n%s\n%s", checkpoint, group, id);

	(void)position, (void)err;
	if (!bsearch(&key, sel->keys, sel->n, sizeof(*sel->keys), cmp_key) && !sel->outside++)
		snprintf(sel->example, sizeof(sel->example), "%s/%s/%s", checkpoint, group, id);
	free(key);
	return 0;
}

/* --resume refused: "DIR `holds` N `what`s this selection leaves out (...): a resumed run must
 * select `must`". */
static int left_out(const char *dir, const struct selected *sel, const char *holds,
		    const char *what, const char *must)
{
	return cli_error(CLI_EXIT_USAGE,
			 "%s %s %zu %s%s this selection leaves out (%s%s): a resumed run must "
			 "select %s; run without --resume (or with another -o)",
			 dir, holds, sel->outside, what, sel->outside == 1 ? "" : "s",
			 sel->example, sel->outside > 1 ? ", ..." : "", must);
}

/* The selected cases' names in run order (as the pool numbers them from 1), malloc'd:
 * `suite->ncases` of them, borrowed from `suite`. */
static assay_store_case_key *run_order(const assay_suite *suite)
{
	assay_store_case_key *order = assay_xmalloc((suite->ncases + 1) * sizeof(*order));
	size_t n = 0;

	for (size_t i = 0; i < suite->ncheckpoints; i++) {
		const assay_checkpoint *cp = &suite->checkpoints[i];

		for (size_t j = 0; j < cp->ngroups; j++)
			for (size_t k = 0; k < cp->groups[j].ncases && n < suite->ncases; k++)
				order[n++] = (assay_store_case_key){ cp->name, cp->groups[j].name,
								  cp->groups[j].cases[k].id };
	}
	return order;
}

/*
 * --resume must select every case the folder already holds (it may select more: a narrower
 * run grows into a whole one), and every case its last invocation left unrun (its summary's
 * not_run); else its summary and exit status would speak of fewer cases than its run.
 * `order`: the selection (run_order, `n` cases).
 */
static int covers_store(assay_store *store, const assay_store_case_key *order, size_t n,
			const assay_value *info, const char *dir)
{
	struct selected sel = { assay_xmalloc((n + 1) * sizeof(char *)), 0, 0, "" };
	assay_err err = ASSAY_ERR_INIT;
	int rc = 0;

	for (; sel.n < n; sel.n++)
		sel.keys[sel.n] = assay_xasprintf("%s\n%s\n%s", order[sel.n].checkpoint,
						  order[sel.n].group, order[sel.n].id);
	qsort(sel.keys, sel.n, sizeof(*sel.keys), cmp_key);
	if (assay_store_each_position(store, count_outside, &sel, &err)) {
		rc = cli_report_err(CLI_EXIT_INTERNAL, &err);
	} else if (sel.outside) {
		rc = left_out(dir, &sel, "holds", "finished case", "every case it holds "
			      "(--checkpoint, --group, --case), so that its summary covers them");
	} else {
		/* and every case its last invocation left unrun (summary.json's not_run:
		 * checkpoint/group/id, none of which holds a '/') */
		const assay_value *nr = assay_object_get(assay_object_get(info, "summary"),
							 "not_run");

		for (uint32_t i = 0; nr && nr->kind == ASSAY_V_ARRAY && i < nr->len; i++) {
			const assay_value *name = &nr->u.items[i];
			const char *g = name->kind == ASSAY_V_STRING ? strchr(name->u.s, '/') : NULL;
			const char *id = g ? strchr(g + 1, '/') : NULL;

			if (!id)
				continue;
			char *cp = assay_xstrndup(name->u.s, (size_t)(g - name->u.s));
			char *gr = assay_xstrndup(g + 1, (size_t)(id - g - 1));

			count_outside(&sel, 0, cp, gr, id + 1, NULL);
			free(cp);
			free(gr);
		}
		if (sel.outside)
			rc = left_out(dir, &sel, "holds a run that has not run", "case",
				      "every case of the run it continues (it may select more), so "
				      "that its summary and not_run cover them");
	}
	for (size_t i = 0; i < sel.n; i++)
		free(sel.keys[i]);
	free(sel.keys);
	return rc;
}

/*
 * --resume must not select fewer cases than the run it continues did (the store's `cases`):
 * the cases left out would drop from its summary and its not_run, and the run, never finished,
 * would pass (a narrower selection that still holds every finished case: covers_store). A
 * sharded run keeps its shard's selection (same_shard).
 */
static int not_narrower(const assay_value *info, const assay_suite *suite,
			const assay_shard_plan *plan, const char *dir)
{
	const assay_value *n = assay_object_get(info, "cases");
	double was = n ? assay_value_number(n) : 0;

	if (plan || !(was > (double)suite->ncases))
		return 0;
	return cli_error(CLI_EXIT_USAGE,
			 "%s holds a run of %.0f cases; this selection has %zu: a resumed run must "
			 "select every case of the run it continues (it may select more: "
			 "--checkpoint, --group, --case), so that its summary and not_run cover "
			 "them; run without --resume (or with another -o)",
			 dir, was, suite->ncases);
}

static assay_value strings(assay_arena *m, const assay_strvec *v)
{
	assay_value list = assay_value_array();

	for (size_t i = 0; i < v->nr; i++)
		assay_array_push(m, &list, assay_value_strz(m, v->v[i]));
	return list;
}

/*
 * A shard's `shard` object: the plan's (assay_shard_plan_value) and the selection it split
 * ("selection": checkpoint, groups, cases, case_names), which `assay merge` loads the suite
 * with to check that no case of it is missing (docs/scale-out.md, "What a merge checks").
 */
static assay_value shard_value(assay_arena *m, const assay_shard_plan *plan,
			       const struct run_args *a)
{
	assay_value o = assay_shard_plan_value(plan, m), sel = assay_value_object();

	assay_object_set(m, &sel, "checkpoint",
			 a->checkpoint ? assay_value_strz(m, a->checkpoint) : assay_value_null());
	assay_object_set(m, &sel, "groups", strings(m, &a->groups));
	assay_object_set(m, &sel, "cases", strings(m, &a->cases));
	assay_object_set(m, &sel, "case_names", strings(m, &a->case_names));
	assay_object_set(m, &o, "selection", sel);
	return o;
}

/* Do the run's cases get the sandbox (--sandbox on or required, else the suite's)? */
static bool sandboxed(const assay_suite *suite, const struct run_args *a)
{
	if (a->sandbox)
		return strcmp(a->sandbox, "off") != 0;
	return suite->sandbox != ASSAY_SANDBOX_OFF;
}

/* What the store records of this run. */
static assay_value run_meta(assay_arena *m, const assay_suite *suite, const char *hash,
			    const struct run_args *a, const assay_shard_plan *plan, int argc,
			    char **argv)
{
	assay_value meta = assay_value_object(), cmd = assay_value_array();

	assay_array_push(m, &cmd, assay_value_strz(m, "assay"));
	for (int i = 0; i < argc; i++)
		assay_array_push(m, &cmd, assay_value_strz(m, argv[i]));
	char host[256] = "";

	gethostname(host, sizeof(host) - 1);
	assay_object_set(m, &meta, "assay_version", assay_value_strz(m, ASSAY_VERSION));
	assay_object_set(m, &meta, "host", assay_value_strz(m, host));
	assay_object_set(m, &meta, "suite", assay_value_strz(m, suite->name));
	assay_object_set(m, &meta, "suite_path", assay_value_strz(m, suite->root));
	assay_object_set(m, &meta, "suite_hash", assay_value_strz(m, hash));
	assay_object_set(m, &meta, "cases", assay_value_int((int64_t)suite->ncases));
	assay_object_set(m, &meta, "arguments", cmd);
	assay_object_set(m, &meta, "entry",
			 a->entry ? assay_value_strz(m, a->entry) : assay_value_null());
	/* absolute, as suite_path: the reports' reproduce line works from any folder. --entry
	 * stays as typed: a relative program in it is the case's working folder's */
	char *submission = a->submission ? assay_path_absolute(a->submission) : NULL;

	assay_object_set(m, &meta, "submission",
			 submission ? assay_value_strz(m, submission) : assay_value_null());
	free(submission);
	assay_object_set(m, &meta, "sandbox", assay_value_bool(sandboxed(suite, a)));
	if (plan) {
		/* what `assay merge` shows the reproduce lines with: as the shard's own do, its
		 * first word the file that ran when PATH found another for the case than for
		 * you (run_common_program_ran) */
		assay_value prefix = assay_value_array();
		char *program = run_common_program_ran(suite, a);

		for (size_t i = 0; i < suite->command.nr; i++)
			assay_array_push(m, &prefix, assay_value_strz(m, i == 0 && program
									      ? program
									      : suite->command.v[i]));
		free(program);
		assay_object_set(m, &meta, "command", prefix);
		assay_object_set(m, &meta, "cases", assay_value_int((int64_t)plan->total));
		assay_object_set(m, &meta, "shard", shard_value(m, plan, a));
	}
	return meta;
}

/* --resume continues the same shard of the same split (or an unsharded run), nothing else. */
static int same_shard(const assay_value *info, const assay_shard_plan *plan, assay_arena *m,
		      const struct run_args *a)
{
	const assay_value *kept = assay_object_get(info, "shard");
	const char *output = a->output;

	if (!kept && !plan)
		return 0;
	if (kept && plan) {
		assay_value now = shard_value(m, plan, a), was = assay_value_copy(m, kept);

		/* a case file edited since is run again, as unsharded (the store's case hashes);
		 * the shard's digest of the case files stays the first one, so `assay merge`
		 * still sees that this shard no longer ran what the others found */
		assay_object_deln(&now, "cases_hash", strlen("cases_hash"));
		assay_object_deln(&was, "cases_hash", strlen("cases_hash"));
		if (assay_value_equal(&was, &now))
			return 0;
	}
	return cli_error(CLI_EXIT_USAGE,
			 "%s holds %s: --resume continues a run with the same --shard (and "
			 "selection and --shard-durations)", output,
			 plan ? "another shard, or an unsharded run" : "a shard's run");
}

/*
 * A new run replaces the folder's run: the report files an earlier run left in it under their
 * default names (junit.xml, ...) describe that run, not this one, so they go; the formats this
 * run writes come back. reports.jsonl is the store sink's, rewritten anyway.
 */
static void remove_stale_reports(const char *dir)
{
	for (size_t f = 0; f < assay_format_count(); f++) {
		const char *name = assay_format_file((assay_format)f);

		if (f == ASSAY_FORMAT_JSONL || !name)
			continue;
		char *path = assay_path_join(dir, name);

		if (unlink(path) && errno != ENOENT)
			fprintf(stderr, "assay: warning: cannot remove %s, left by an earlier run: %s\n",
				path, strerror(errno));
		free(path);
	}
}

/* --resume runs its cases as the run began: with the sandbox, or without (a run of an older
 * assay says nothing: anything goes). */
static int same_sandbox(const assay_value *info, bool now, const char *dir)
{
	const assay_value *then = assay_object_get(info, "sandbox");

	if (!then || then->kind != ASSAY_V_BOOL || then->u.b == now)
		return 0;
	return cli_error(CLI_EXIT_USAGE,
			 "%s holds a run made with the sandbox %s, and this one has it %s: a resumed "
			 "run runs its cases as the run began; run without --resume (or with another "
			 "-o)",
			 dir, then->u.b ? "on" : "off", now ? "on" : "off");
}

/* Has `suite` a group that a resumed run runs again whole unless all its cases are done? */
static bool any_group_shares_state(const assay_suite *suite)
{
	for (size_t i = 0; i < suite->ncheckpoints; i++)
		for (size_t j = 0; j < suite->checkpoints[i].ngroups; j++)
			if (assay_group_shares_state(suite, &suite->checkpoints[i].groups[j]))
				return true;
	return false;
}

/*
 * On --resume: a group whose cases share state (a folder, an api server) runs again whole unless
 * each of its cases has a result (the pool's lane_decide); the results of one that is only partly
 * done are dropped first, so that a run interrupted again keeps no result made on a folder or
 * server that is gone beside ones of the new (its summary's not_run and the store agree), and
 * reports.jsonl, made from the store as the run starts, holds none of them twice. Says how many
 * finished cases so run again, and in which groups (not with -q).
 * @return 0, or an exit status (the store failed)
 */
static int rerun_partial_groups(assay_store *store, const assay_suite *suite, bool quiet)
{
	size_t rerun = 0, named = 0;
	assay_buf names = ASSAY_BUF_INIT;
	assay_err err = ASSAY_ERR_INIT;
	int rc = 0;

	for (size_t i = 0; i < suite->ncheckpoints && !rc; i++) {
		const assay_checkpoint *cp = &suite->checkpoints[i];

		for (size_t j = 0; j < cp->ngroups && !rc; j++) {
			const assay_group *g = &cp->groups[j];
			size_t found = 0, need = g->ncases;

			if (!assay_group_shares_state(suite, g))
				continue;
			for (size_t k = 0; k < g->ncases && rc >= 0; k++) {
				assay_arena *a;
				assay_value v;

				if (g->cases[k].problem) { /* a duplicate: it never runs, left no state */
					need--;
					continue;
				}
				a = assay_arena_new(0);
				rc = assay_store_previous(store, cp->name, g->name, g->cases[k].id,
							  g->cases[k].file, a, &v, &err);
				const assay_value *e = rc == 1 ? assay_report_get(&v, "error") : NULL;

				found += rc == 1 && assay_case_result_replayable(
					&g->cases[k], e && e->kind == ASSAY_V_STRING ? e->u.s : NULL);
				assay_arena_free(a);
			}
			if (rc < 0 || (rc = 0, !found || found == need))
				continue;
			if ((rc = assay_store_drop_group(store, cp->name, g->name, &err)))
				break;
			rerun += found;
			if (named++ < 3)
				assay_buf_addf(&names, "%s%s/%s", named > 1 ? ", " : "", cp->name,
					       g->name);
		}
	}
	if (rc) {
		assay_buf_release(&names);
		return cli_report_err(CLI_EXIT_INTERNAL, &err);
	}
	if (rerun && !quiet)
		fprintf(stderr, "assay: resuming: %zu of them run again, with %s: %s%s\n", rerun,
			named == 1 ? "their group, which did not finish" :
				     "their groups, which did not finish",
			names.ptr, named > 3 ? ", ..." : "");
	assay_buf_release(&names);
	return 0;
}

/* --resume must run the program the run began with: the same --entry and --submission. */
static int same_program(const assay_value *info, const char *key, const char *now,
			const char *dir)
{
	const assay_value *then = assay_object_get(info, key);
	const char *was = then && then->kind == ASSAY_V_STRING ? then->u.s : NULL;
	bool same = (!was && !now) || (was && now && !strcmp(was, now));

	if (!same && was && now && !strcmp(key, "submission")) {
		/* recorded absolute (run_meta); a store of an older assay holds it as typed */
		char *abs = assay_path_absolute(now);

		same = !strcmp(was, abs);
		free(abs);
	}
	if (same)
		return 0;
	return cli_error(CLI_EXIT_USAGE,
			 "%s holds a run made %s%s%s%s, and this one %s%s%s%s: a resumed run "
			 "must run the same program; run without --resume (or with another -o)",
			 dir, was ? "with --" : "without --", key, was ? " " : "", was ? was : "",
			 now ? "with --" : "without --", key, now ? " " : "", now ? now : "");
}

/*
 * Opens the results store of a.output for writing (refused while another run writes there)
 * and begins the run, or continues it with --resume when it ran this very suite and selection.
 * Returns 0 or an exit code (the message printed).
 */
static int open_results(assay_store **out, const assay_suite *suite, struct run_args *a,
			const assay_shard_plan *plan, int argc, char **argv)
{
	assay_err err = ASSAY_ERR_INIT;
	assay_arena *m = assay_arena_new(0);
	assay_value meta, info;
	assay_store_case_key *order = a->resume ? run_order(suite) : NULL;
	char hash[65];
	int rc;

	if ((rc = assay_suite_hash(suite, hash, &err))) {
		rc = cli_report_err(CLI_EXIT_LOAD, &err);
		goto out;
	}
	if ((rc = assay_store_open(out, a->output, ASSAY_STORE_WRITE, &err))) {
		rc = cli_fail(rc, &err, ASSAY_EBUSY, ASSAY_EINVALID, 0);
		goto out;
	}
	if (a->resume) {
		rc = assay_store_run_info(*out, &info, m, &err);
		if (rc == ASSAY_ENOTFOUND) {
			a->resume = false; /* nothing to resume: a new run */
		} else if (rc) {
			rc = cli_report_err(CLI_EXIT_INTERNAL, &err);
			goto out;
		} else if (!assay_value_is_str(assay_object_get(&info, "suite_hash"), hash)) {
			rc = cli_error(CLI_EXIT_USAGE,
				       "%s holds a run of another suite, or its suite.yaml changed "
				       "since: run without --resume (or with another -o)",
				       a->output);
			goto out;
		} else if ((rc = same_program(&info, "entry", a->entry, a->output)) ||
			   (rc = same_program(&info, "submission", a->submission, a->output)) ||
			   (rc = same_sandbox(&info, sandboxed(suite, a), a->output)) ||
			   (rc = same_shard(&info, plan, m, a)) ||
			   (rc = covers_store(*out, order, suite->ncases, &info, a->output)) ||
			   (rc = not_narrower(&info, suite, plan, a->output))) {
			goto out;
		}
	}
	meta = run_meta(m, suite, hash, a, plan, argc, argv);
	if ((rc = assay_store_begin_run(*out, &meta, a->resume, &err))) {
		rc = cli_report_err(CLI_EXIT_INTERNAL, &err);
		goto out;
	}
	if (a->resume) {
		size_t done = 0;

		/* the finished cases at their places in this run, which a wider selection moves
		 * (a shard's keep theirs in the whole run: the same shard, same_shard) */
		if (!plan && (rc = assay_store_set_positions(*out, order, suite->ncases, &err))) {
			rc = cli_report_err(CLI_EXIT_INTERNAL, &err);
			goto out;
		}
		if ((rc = assay_store_count(*out, &done, NULL, &err))) {
			rc = cli_report_err(CLI_EXIT_INTERNAL, &err);
			goto out;
		}
		a->store = *out;
		if (!assay_store_run_info(*out, &info, m, NULL)) {
			const assay_value *d = assay_object_get(&info, "earlier_duration");

			a->earlier_s = assay_value_number(d);
			if (!(a->earlier_s >= 0 && a->earlier_s < 1e9))
				a->earlier_s = 0;
		}
		if (!a->quiet)
			fprintf(stderr, "assay: resuming: %zu case%s already done%s\n", done,
				done == 1 ? "" : "s",
				any_group_shares_state(suite) ? " (a group whose cases share a working folder "
						      "or server runs again whole unless all of "
						      "them are)"
						    : "");
		if (any_group_shares_state(suite) &&
		    (rc = rerun_partial_groups(*out, suite, a->quiet)))
			goto out;
	}
out:
	free(order);
	assay_arena_free(m);
	return rc;
}

/* The options of the edit-run loop (issue #11). */
struct loop_args {
	bool last_failed;
	bool accept;
	bool yes;
};

/* Checks the loop options and, for --last-failed, selects the failures of the last run. */
static int loop_options(struct run_args *a, const struct loop_args *l)
{
	int rc;

	if (l->last_failed && a->resume)
		return cli_error(CLI_EXIT_USAGE, "--last-failed starts a new run of the failed "
						 "cases; --resume continues one: choose one");
	if (l->accept && !l->yes && !isatty(STDIN_FILENO))
		return cli_error(CLI_EXIT_USAGE, "--accept asks before writing into case files: "
						 "answer on a terminal, or pass --yes");
	if (l->accept && a->quiet)
		return cli_error(CLI_EXIT_USAGE, "--accept lists what it writes: not with --quiet");
	if (!l->last_failed)
		return 0;
	if ((rc = last_failed_read(&a->case_names, a->output)))
		return rc;
	if (!a->case_names.nr && !a->quiet)
		fprintf(stderr, "assay: no failed cases in %s: running every selected case\n",
			a->output);
	return 0;
}

/* --shard and --shard-durations (issue #10 part 3; docs/scale-out.md). */
struct shard_args {
	const char *spec;
	const char *durations;
	assay_shard shard;
	assay_shard_plan plan;
	bool on;
};

/* Reads --shard (before the suite is loaded: a mistake costs nothing). */
static int shard_options(struct shard_args *sh)
{
	assay_err err = ASSAY_ERR_INIT;

	if (!sh->spec) {
		if (sh->durations)
			return cli_error(CLI_EXIT_USAGE, "--shard-durations balances shards: "
							 "give --shard too");
		return 0;
	}
	if (assay_shard_parse(&sh->shard, sh->spec, NULL, &err))
		return cli_report_err(CLI_EXIT_USAGE, &err);
	sh->on = true;
	return 0;
}

/* Keeps only this shard's cases of the loaded suite. */
static int shard_suite(assay_suite *suite, struct shard_args *sh, bool quiet)
{
	assay_shard_durations *d = NULL;
	assay_err err = ASSAY_ERR_INIT;
	int rc;

	if (!sh->on)
		return 0;
	if (sh->durations && (rc = assay_shard_durations_read(&d, sh->durations, &err)))
		return cli_report_err(rc == ASSAY_EIO ? CLI_EXIT_INTERNAL : CLI_EXIT_USAGE, &err);
	if (d && !assay_shard_durations_count(d) && !quiet)
		fprintf(stderr, "assay: warning: %s holds no case durations: shards are balanced "
				"by case counts\n", sh->durations);
	rc = assay_suite_shard(suite, &sh->shard, d, &sh->plan, &err);
	assay_shard_durations_free(d);
	if (rc)
		return cli_report_err(CLI_EXIT_USAGE, &err);
	if (!quiet)
		fprintf(stderr, "assay: shard %zu/%zu: %zu of %zu cases\n", sh->shard.index,
			sh->shard.count, sh->plan.npositions, sh->plan.total);
	return 0;
}

/* Colour on a terminal, unless NO_COLOR is set and not empty (no-color.org). */
static bool use_color(const char *when)
{
	const char *no = getenv("NO_COLOR");

	if (!strcmp(when, "always"))
		return true;
	return !strcmp(when, "auto") && isatty(STDOUT_FILENO) && !(no && *no);
}

/* What --repro and --format write holds expected values: cases must not read it. */
static void hide_outputs(struct run_args *a, const struct report_args *ra)
{
	if (ra->repro && !assay_fs_mkdirs(ra->repro, NULL)) {
		char *p = assay_path_absolute(ra->repro);

		assay_strvec_push(&a->hide, p);
		free(p);
	}
	for (size_t i = 0; i < ra->nformats; i++) {
		const char *colon = strchr(ra->formats[i], ':');

		if (colon && colon[1] && strcmp(colon + 1, "-")) {
			char *p = assay_path_absolute(colon + 1);

			assay_strvec_push(&a->hide, p);
			free(p);
		}
	}
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = { .output = "assay-results", .color = "auto", .max_failures = 10,
			      .kill_grace = 1.0, RUN_ARGS_LISTS };
	struct loop_args l = { 0 };
	struct shard_args sh = { .plan = ASSAY_SHARD_PLAN_INIT };
	struct accept *acc = NULL;
	struct report_args ra = { .nformats = 0 };
	const cli_opt opts[] = {
		RUN_COMMON_OPTS(a),
		{ "output", 'o', CLI_OPT_STRING, &a.output, "DIR",
		  "the results folder: assay.db, reports.jsonl, summary.json (default "
		  "assay-results)" },
		{ "quiet", 'q', CLI_OPT_FLAG, &a.quiet, NULL, "print no progress or summary (a warning that case files never run stays)" },
		{ "verbose", 'v', CLI_OPT_FLAG, &a.verbose, NULL, "print a line per case" },
		{ "color", 0, CLI_OPT_STRING, &a.color, "WHEN",
		  "auto (on a terminal, unless NO_COLOR is set), always or never" },
		{ "max-failures", 0, CLI_OPT_COUNT, &a.max_failures, "N",
		  "show at most N failing cases in detail (default 10); the others are named" },
		{ "value-cap", 0, CLI_OPT_SIZE, &a.value_cap, "BYTES",
		  "report lines carry values up to BYTES; longer ones are kept whole in "
		  "DIR/assay.db (default 64K)" },
		{ "resume", 'r', CLI_OPT_FLAG, &a.resume, NULL,
		  "continue the run kept in DIR: run only the cases without a result" },
		REPORT_RUN_OPTS(ra),
		/* the edit-run loop (issue #11) */
		{ "exitfirst", 'x', CLI_OPT_FLAG, &a.exitfirst, NULL,
		  "start no case after the first failing one (running ones end)" },
		{ "last-failed", 0, CLI_OPT_FLAG, &l.last_failed, NULL,
		  "run only the cases that failed in the run kept in DIR (all if none did)" },
		{ "accept", 0, CLI_OPT_FLAG, &l.accept, NULL,
		  "write the actual values of failing cases into their case files as expected" },
		{ "yes", 'y', CLI_OPT_FLAG, &l.yes, NULL, "--accept without asking" },
		/* scale-out (docs/scale-out.md) */
		{ "shard", 0, CLI_OPT_STRING, &sh.spec, "I/N",
		  "run only shard I of N (from 1) of the selected cases; auto: from Slurm's or "
		  "Kubernetes' environment" },
		{ "shard-durations", 0, CLI_OPT_STRING, &sh.durations, "FILE",
		  "balance the shards by the durations in an earlier run's reports.jsonl (or "
		  "results folder)" },
		{ NULL },
	};
	const char *words[1];
	assay_suite *suite = NULL;
	assay_sink sinks[6]; /* store (or the shard's), report formats' (report_args.h), terminal,
				accept */
	assay_sink store_sink = { NULL };  /* the store's, behind the shard's sink with --shard */
	size_t nsinks = 0;
	assay_err err = ASSAY_ERR_INIT;
	assay_store *store = NULL;
	int rc = report_args_take(&argc, argv, &ra);

	if (rc || (rc = cli_parse_words(argc, argv, opts, usage, words, 1)) != CLI_GO)
		goto out;
	if (strcmp(a.color, "auto") && strcmp(a.color, "always") && strcmp(a.color, "never")) {
		rc = cli_error(CLI_EXIT_USAGE, "--color takes auto, always or never");
		goto out;
	}
	a.suite_dir = words[0];
	/* a mistake in --format costs nothing: checked before the results folder is made */
	if ((rc = report_args_check_run(&ra, a.output)) || (rc = shard_options(&sh)) ||
	    (rc = loop_options(&a, &l)) ||
	    (rc = run_common_load(&suite, &a)) || (rc = shard_suite(suite, &sh, a.quiet)))
		goto out;
	/* a signal while the suite loaded: the results folder (an earlier run's) is left whole */
	if (run_common_stopping() && !a.resume) {
		fprintf(stderr, "assay: interrupted before the run started: %s is untouched\n",
			a.output);
		rc = CLI_EXIT_INTERRUPTED;
		goto out;
	}
	if ((rc = open_results(&store, suite, &a, sh.on ? &sh.plan : NULL, argc, argv)))
		goto out;
	if (assay_sink_store_new(&store_sink, store, a.output, a.value_cap, a.resume, &err)) {
		rc = cli_report_err(CLI_EXIT_INTERNAL, &err);
		goto out;
	}
	if (sh.on)
		assay_sink_shard_new(&sinks[nsinks++], &store_sink, &sh.plan);
	else
		sinks[nsinks++] = store_sink;
	if (!a.resume)
		remove_stale_reports(a.output);
	/* --format, --pass-policy, --repro (report_args.h) */
	if ((rc = report_run_sinks(&ra, &a, store, sinks, &nsinks)))
		goto out;
	hide_outputs(&a, &ra);
	if (!a.quiet) {
		char *program = run_common_program_ran(suite, &a);
		assay_term_opts t = { stderr, isatty(STDERR_FILENO), stdout, use_color(a.color),
				      a.max_failures, a.verbose, a.entry, a.exitfirst, NULL,
				      (const char *const *)a.pass_env.v, program };
		assay_sink_terminal_new(&sinks[nsinks++], &t);
		free(program);
	}
	if (l.accept)
		accept_sink(&sinks[nsinks++], &acc);
	rc = report_run_exit(&ra, run_common_run(suite, &a, sinks, nsinks));
	if (rc <= CLI_EXIT_FAILED && !a.quiet)
		printf("results: %s (reports.jsonl, summary.json, assay.db)\n", a.output);
	if (rc <= CLI_EXIT_FAILED && acc) {
		int arc = accept_apply(acc, l.yes);

		rc = arc ? arc : rc;
	}
out:
	for (size_t i = 0; i < nsinks; i++)
		sinks[i].free(sinks[i].payload);
	if (sh.on && store_sink.free)
		store_sink.free(store_sink.payload);
	assay_shard_plan_release(&sh.plan);
	assay_suite_free(suite);
	assay_store_close(store);
	run_args_release(&a);
	return rc;
}
