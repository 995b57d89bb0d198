/*
 * Internals of the run module (src/lib/run), shared by its files. Never installed.
 */
#ifndef ASSAY_RUN_INT_H
#define ASSAY_RUN_INT_H

#include "assay/adapter.h"
#include "assay/run.h"

/* What every case of a run may do, and the lists it borrows (sandbox.c). */
struct assay_run__sandbox {
	assay_sandbox sb;
	assay_strvec read;  /* static assets, adapter.read_paths, folders of the command's files */
	assay_strvec hide;  /* the suite, the caller's hide_paths */
};

/* Fills `out` for `suite` run with `opts` and argv prefix `command`. */
void assay_run__sandbox_make(struct assay_run__sandbox *out, const assay_suite *suite,
			     const assay_run_opts *opts, const assay_strvec *command);
void assay_run__sandbox_release(struct assay_run__sandbox *s);

/* One run: what runner.c sets up and pool.c drives. */
struct assay_run__run {
	const assay_suite *suite;
	const assay_run_opts *opts;
	assay_strvec command;
	char *root;
	char *tmp_root;                   /* root/.tmp: the cases' private temporary folders */
	struct assay_run__sandbox sandbox;
	struct assay_tallies *t;          /* summary.h: counted in run order */
	assay_strvec not_run;             /* checkpoint/group/id of each case not run (interrupted) */
	size_t released;                  /* cases handed to the in-order sinks */
	int owner_fd;                     /* the lock on root/.owner (workroot.c), or -1 */
	assay_proc_servers *servers;      /* the cases' servers (proc.h), or NULL */
	assay_fs_spares *spares;          /* root/.spare: folders to reuse (fs.h) */
	bool tmp_by_server;               /* per-case temporary folders are made by the case
					     servers (assay_run_ctx.tmp_by_server) */
	bool cwd_by_server;               /* and an empty case's working folder too
					     (assay_run_ctx.workdir_unmade; pool.c): the same
					     (runner.c says when) */
	bool scratch;                     /* root is a tmpfs of ours (scratch.c) */
	assay_err *err;
};

/* ---- scratch.c: the run's root on a tmpfs ---- */

/* The tmpfs's nr_inodes when opts->scratch_inodes is 0. */
#define ASSAY_RUN__SCRATCH_INODES 1000000LL

/* Mounts a tmpfs of opts->scratch_bytes and opts->scratch_inodes on `root` (just made, its
 * .owner claimed), unless opts->keep or no scratch is asked for. @return whether it did. */
bool assay_run__scratch_mount(const char *root, const assay_run_opts *opts);

/* Detaches the tmpfs on `root`: everything in it goes. */
void assay_run__scratch_unmount(const char *root);

/* ---- workroot.c: who owns a run's root ---- */

/* Marks `root` (just made) as this process's: root/.owner, holding our pid and start time,
 * locked (flock) until the returned descriptor is closed. @return it, or -1 (the root is then
 * never removed by a later run: it looks kept). */
int assay_run__root_claim(const char *root);

/* Closes the lock `*fd` (-1 after); with `root` set (--keep), removes root/.owner first, so
 * that later runs leave the kept folders alone. */
void assay_run__root_disown(const char *root, int *fd);

/*
 * Runs every case of the run, up to opts->jobs at once (pool.c), handing each report to
 * assay_run__emit_any() as it finishes and to assay_run__emit_ordered() in run order; the cases
 * not run (interrupted) are pushed to run->not_run. Returns 0 or what stopped the run.
 */
int assay_run__pool(struct assay_run__run *run);

/* Hands a finished case to the sinks taking any order (runner.c). */
int assay_run__emit_any(struct assay_run__run *run, assay_case_report *cr);

/* Tallies a finished case (cr->index set) and hands it to the in-order sinks (runner.c). */
int assay_run__emit_ordered(struct assay_run__run *run, assay_case_report *cr, size_t icp,
			    size_t ig);

/* Tells every sink that case `id` at run position `index` starts (runner.c): once per case, as
 * the adapter has started it (or let it go, armed), never before a start the pool may undo. */
void assay_run__notify_start(struct assay_run__run *run, const assay_checkpoint *cp,
			     const assay_group *g, const char *id, size_t index);

/* Completes `report` into the reports.jsonl line of `cr` (runner.c); `request`: the case is an
 * api request, not a process (its execution has no process figures). */
void assay_run__finish_line(assay_arena *a, assay_value *report, const assay_checkpoint *cp,
			    const assay_case_report *cr, bool request);

#endif
