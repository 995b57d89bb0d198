/*
 * A run: its root and temporary folders, the sandbox its cases share, the tallies and
 * summary.json's object, and the two ways a finished case reaches the sinks (in the order cases
 * finish, and in run order). Scheduling the cases is pool.c's job.
 *
 * Key decisions:
 * - Tallies, and with them summary.json's "failed" list, are made in run order, so the summary
 *   is the same whatever the number of jobs.
 * - The library touches no process-wide state: no signal handler (the stop flag is the
 *   caller's), no subreaper.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "assay/fs.h"
#include "assay/render.h"
#include "assay/report.h"
#include "assay/run.h"
#include "assay/summary.h"
#include "proc/reach.h"
#include "run/run_int.h"
#include "util/banned.h"

static const char *const limit_names[] = { "none", "cpu_time", "memory", "file_size",
					   "open_files", "processes", "timeout" };

/* Key `key` (a literal) of a fresh object: appended, not copied and not looked for first. */
static void put(assay_arena *a, assay_value *o, const char *key, assay_value v)
{
	assay_object_append(a, o, assay_value_string_ref(key, strlen(key)), v);
}

/* A static string (a literal, a name from a static table) as a value, not copied. */
static assay_value lit(const char *s)
{
	return assay_value_string_ref(s, strlen(s));
}

/* The names of the sandbox layers in `bits`. */
static assay_value layers_value(assay_arena *a, unsigned bits)
{
	assay_value v = assay_value_array();

	for (unsigned i = 0; i < ASSAY_SANDBOX_NLAYERS; i++)
		if (bits & (1u << i))
			assay_array_push(a, &v,
					 lit(assay_sandbox_layer_name(1u << i)));
	return v;
}

/*
 * How the case's run ended. A case of the api adapter is a request, not a process: its
 * execution has no exit code, signal, CPU, memory or sandbox of its own (the server's are the
 * group's), so those are left out rather than shown as zeros; "exited" means it was answered.
 */
static assay_value execution_value(assay_arena *a, const assay_case_result *r, bool request)
{
	static const char *const status[] = { "exited", "signaled", "timed_out", "exec_failed" };
	const assay_proc_result *p = &r->proc;
	assay_value o = assay_value_object();

	put(a, &o, "status", lit(status[p->status]));
	if (request) {
		put(a, &o, "wall_time", assay_value_real(p->wall_s));
		put(a, &o, "limit",
		    p->limit == ASSAY_LIMIT_NONE ? assay_value_null() : lit(limit_names[p->limit]));
		if (r->error)
			put(a, &o, "message", assay_value_strz(a, r->error));
		if (r->log)
			put(a, &o, "log", assay_value_strz(a, r->log));
		return o;
	}
	put(a, &o, "exit_code",
	    p->status == ASSAY_PROC_EXITED ? assay_value_int(p->exit_code) : assay_value_null());
	put(a, &o, "signal", p->term_signal ? assay_value_int(p->term_signal) : assay_value_null());
	put(a, &o, "wall_time", assay_value_real(p->wall_s));
	put(a, &o, "cpu_time", assay_value_real(p->cpu_user_s + p->cpu_sys_s));
	put(a, &o, "max_rss", assay_value_int(p->max_rss));
	put(a, &o, "stdout_truncated", assay_value_bool(p->out_truncated));
	put(a, &o, "stderr_truncated", assay_value_bool(p->err_truncated));
	put(a, &o, "limit",
	    p->limit == ASSAY_LIMIT_NONE ? assay_value_null() : lit(limit_names[p->limit]));
	put(a, &o, "sandbox", layers_value(a, p->sandbox_applied));
	if (p->sandbox_refused)
		put(a, &o, "sandbox_refused", layers_value(a, p->sandbox_refused));
	if (r->error)
		put(a, &o, "message", assay_value_strz(a, r->error));
	if (r->log)
		put(a, &o, "log", assay_value_strz(a, r->log));
	return o;
}

char *assay_report_key(const char *checkpoint, const char *group, const char *id)
{
	return assay_xasprintf("%s\n%s\n%s", checkpoint, group, id);
}

int assay_run__emit_ordered(struct assay_run__run *run, assay_case_report *cr, size_t icp,
			    size_t ig)
{
	assay_tallies_add(run->t, icp, ig, cr);
	run->released++;
	cr->total = run->suite->ncases;
	for (size_t i = 0; i < run->opts->nsinks; i++) {
		assay_sink *s = &run->opts->sinks[i];
		int rc;

		if (!s->any_order && s->on_case && (rc = s->on_case(s->payload, cr, run->err)))
			return rc;
	}
	return 0;
}

int assay_run__emit_any(struct assay_run__run *run, assay_case_report *cr)
{
	cr->total = run->suite->ncases;
	for (size_t i = 0; i < run->opts->nsinks; i++) {
		assay_sink *s = &run->opts->sinks[i];
		int rc;

		if (s->any_order && s->on_case && (rc = s->on_case(s->payload, cr, run->err)))
			return rc;
	}
	return 0;
}

/*
 * The reports.jsonl line: the VerifierReport, whose `case` object also carries checkpoint,
 * score, passed (and execution, error), so that a line stands alone yet loads under the
 * contract's model, which forbids other top-level keys (report.h, assay_report_get).
 */
void assay_run__finish_line(assay_arena *a, assay_value *report, const assay_checkpoint *cp,
			    const assay_case_report *cr, bool request)
{
	assay_report_set(a, report, "checkpoint", assay_value_strz(a, cp->name));
	assay_report_set(a, report, "score", assay_value_real(cr->score));
	assay_report_set(a, report, "passed", assay_value_bool(cr->passed));
	if (cr->result)
		assay_report_set(a, report, "execution", execution_value(a, cr->result, request));
	if (cr->error)
		assay_report_set(a, report, "error", assay_value_strz(a, cr->error));
}

void assay_run__notify_start(struct assay_run__run *run, const assay_checkpoint *cp,
			     const assay_group *g, const char *id, size_t index)
{
	for (size_t i = 0; i < run->opts->nsinks; i++) {
		assay_sink *s = &run->opts->sinks[i];

		if (s->on_start)
			s->on_start(s->payload, cp, g, id, index, run->suite->ncases);
	}
}

static int resolve_command(struct assay_run__run *run, assay_err *err)
{
	if (run->opts->entry) {
		int rc = assay_shell_split(&run->command, run->opts->entry, err);

		if (rc)
			return rc;
	} else {
		assay_strvec_pushv(&run->command, (const char *const *)run->suite->command.v);
	}
	if (!run->command.nr && run->suite->adapter->needs_command)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "no command to run: set adapter.command in suite.yaml or "
				     "pass --entry");
	return 0;
}

/* Is `path` on a tmpfs? (Then a folder is made and removed in a few microseconds, whatever
 * was removed before.) */
static bool on_tmpfs(const char *path)
{
	struct statfs f;

	return !statfs(path, &f) && f.f_type == TMPFS_MAGIC;
}

int assay_run_suite(const assay_suite *suite, const assay_run_opts *opts,
		    assay_tally *summary_out, assay_err *err)
{
	struct assay_run__run run = { .suite = suite, .opts = opts, .command = ASSAY_STRVEC_INIT,
				      .err = err, .not_run = ASSAY_STRVEC_INIT, .owner_fd = -1 };
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
	if ((rc = assay_fs_mkdtemp(&run.root, opts->work_root, "assay-", err)))
		goto out;
	run.owner_fd = assay_run__root_claim(run.root);
	run.scratch = assay_run__scratch_mount(run.root, opts);
	if ((rc = assay_fs_mkdirs_beneath(run.root, ".tmp", err)))
		goto out;
	run.tmp_root = assay_path_join(run.root, ".tmp");
	assay_run__sandbox_make(&run.sandbox, suite, opts, &run.command);
	/* as root, cases run as nobody: the run's root must let them through */
	assay_proc__sandbox_reach(&run.sandbox.sb, run.root, run.tmp_root);

	run.t = assay_tallies_new(suite);
	/* one case server per lane, unless the caller wants a supervisor per case (proc.h) */
	run.servers = opts->no_case_servers ? NULL : assay_proc_servers_new();
	if (!run.scratch && !on_tmpfs(run.root)) {
		/* on disk; on a tmpfs (the run's, or a --work-dir on one) a folder costs less to
		 * make than to rename */
		char *dir = assay_path_join(run.root, ".spare");

		run.spares = assay_fs_spares_new(dir);
		free(dir);
	} else if (run.servers && run.scratch) {
		/* On the run's own tmpfs (which nothing outside the run reaches: not on a
		 * --work-dir that is a tmpfs) a case's server makes its temporary folder, in .tmp,
		 * and an empty case's working folder, in its group's folder (pool.c), as the case's
		 * ids: where no case can chmod those folders or make anything in them. So with the
		 * sandbox, only with root (cases are nobody; the folders stay root's, 0733: nobody
		 * may make a folder there but not list or chmod them) and Landlock (which keeps
		 * every case out of them: a case could fill .tmp for the rest of the run, or make a
		 * later case's working folder first, named by its id). Without root the cases are
		 * assay's user, who owns those folders and could chmod them: assay, in its user
		 * namespace, still makes folders there, which a server could not (the cases could
		 * not reach them either way: docs/security.md, "File metadata"). */
		bool landlock = assay_proc__landlock_holds(&run.sandbox.sb);

		run.tmp_by_server = !run.sandbox.sb.enabled ||
				    (geteuid() == 0 && landlock && !chmod(run.tmp_root, 0733));
		run.cwd_by_server = run.tmp_by_server;
	}
	for (size_t i = 0; i < opts->nsinks; i++) {
		assay_sink *s = &opts->sinks[i];

		if (s->on_begin && (rc = s->on_begin(s->payload, suite, suite->ncases, err)))
			goto out;
	}
	if ((rc = assay_run__pool(&run)))
		goto out;
	interrupted = run.released < suite->ncases;

	assay_arena *a = assay_arena_new(0);
	double took = assay_now() - t0, earlier = opts->earlier_s > 0 ? opts->earlier_s : 0;
	double wall = took + earlier;
	assay_value sv = assay_tallies_summary(run.t, a, wall, interrupted,
					       opts->keep ? run.root : NULL);
	if (interrupted) {
		/* what did not run, named as the failure listing names cases */
		assay_value not_run = assay_value_array();

		for (size_t i = 0; i < run.not_run.nr; i++)
			assay_array_push(a, &not_run, assay_value_strz(a, run.not_run.v[i]));
		assay_object_set(a, &sv, "not_run", not_run);
	}
	assay_run_summary sum = { suite, &sv, assay_tallies_total(run.t), suite->ncases,
				  took, interrupted, earlier };
	for (size_t i = 0; i < opts->nsinks && !rc; i++) {
		assay_sink *s = &opts->sinks[i];

		if (s->on_end)
			rc = s->on_end(s->payload, &sum, err);
	}
	assay_arena_free(a);
	if (summary_out)
		*summary_out = assay_tallies_total(run.t);
out:
	assay_proc_servers_free(run.servers); /* no case runs in the root any more */
	run.servers = NULL;
	if (run.scratch)
		assay_run__scratch_unmount(run.root);
	if (run.root && !opts->keep) {
		assay_fs_remove_tree(run.root, NULL);
	} else if (run.root && run.spares) {
		/* kept: the cases' folders stay, not the emptied ones waiting for reuse */
		char *dir = assay_path_join(run.root, ".spare");

		assay_fs_remove_tree(dir, NULL);
		free(dir);
	}
	/* kept: the .owner goes, so that no later run takes the folders for a dead run's */
	assay_run__root_disown(opts->keep ? run.root : NULL, &run.owner_fd);
	free(run.root);
	free(run.tmp_root);
	assay_run__sandbox_release(&run.sandbox);
	assay_fs_spares_free(run.spares);
	assay_tallies_free(run.t);
	assay_strvec_clear(&run.not_run);
	assay_strvec_clear(&run.command);
	return rc;
}
