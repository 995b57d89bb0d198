/*
 * The process pool of a run: up to `jobs` cases at once, all driven by ONE poll() loop over the
 * adapters' non-blocking interface (start / pollfds / deadline_ms / pump / finish; adapter.h),
 * never a thread per case. Cases are taken in run order. Each case is loaded when it starts,
 * gets a fresh working folder (or its group's shared one), is run by the suite's adapter,
 * verified on the loop's thread once it ends, and its report goes at once to the sinks that take
 * any order (the results store) and, in run order, to the others.
 *
 * Key decisions:
 * - A "lane" is a group whose cases must run one after another: `isolated: false` (they share
 *   one working folder and read each other's files), or any group of an adapter with
 *   `serial_groups` (the api adapter's server keeps state between requests). A lane holds one slot
 *   from its first case to its last; the cases of other groups fill the slots in run order.
 *   group_begin/group_end bracket each group's cases: a group is set up when its first case
 *   that must run starts, and ended when its last case is finished (or given up).
 * - Finished reports wait for the cases before them (run order) in `pending`, indexed by run
 *   position. What waits is bounded: past ORDER_BUDGET bytes no new case starts, only the cases
 *   running and the lanes under way go on, and one of them holds the report the others wait
 *   for, so the run never stalls.
 * - Interrupt (the stop flag): every running case is aborted at once (its processes killed) and
 *   left unreported; every finished case is reported, but one that ended as the run was
 *   stopping and did not pass: what stopped the run may have ended its program too (Slurm's
 *   scancel signals every process of the job), so --resume runs it again. --exitfirst
 *   (fail_fast): no case starts after the first failure; the cases already running end and are
 *   reported, since killing them would throw away work already done and a case ends within its
 *   timeout anyway.
 * - Resume: a case with a result (opts->previous) is replayed, not run; but a lane (a group with
 *   `isolated: false`, or of a `serial_groups` adapter) is replayed only when all its cases have
 *   results, else it runs whole again: its later cases need the state its earlier ones built.
 * - When a case ends, the next one starts before the ended one is verified and stored (its
 *   result is in memory by then), so assay's own work overlaps a program's run even at -j1;
 *   not with fail_fast, where the verdict decides whether anything more starts, and not after
 *   a case that captured more than PIPELINE_MAX bytes (its verification and storing may take
 *   seconds, which at -j1 no other case should have to sit through).
 * - While every slot is busy, the next case in run order is armed (adapter arm; one per slot):
 *   loaded, its folder made and filled, its process made ahead (proc.h `gated`), its program
 *   waiting. When a slot frees, the armed cases go first (the one that follows the case that
 *   ended, then the others in run order), and only then are new ones started; at once when the
 *   case ended, before its results are read, if the working folders' file system has half its
 *   room and inodes free (else after its folder is given back: a case that filled it must not
 *   fail the next); its duration leaves out the time it waited armed. A case that cannot be
 *   armed (its folder, input files or process: the running case may hold the room) is undone
 *   unreported, and no more is armed until a case ends: it starts in its turn, as usual; so is
 *   a case (of a lane only the first to start, its group undone with it) that cannot be
 *   started beside a running case, and none starts until a case ends: only a failure with no
 *   other case running is its verdict. Each armed case follows a
 *   running case no other armed case follows (at -j1 the one running; never a lane's case,
 *   whose slot is its lane's): that case's server lets it go as it ends (the relay, proc.h
 *   assay_proc_follow), and it takes that case's slot, unless another case ends first and the
 *   pool lets it go into that slot. Only a case of an isolated group already set up, no lane (a
 *   shared folder must not change under the running case, and a group is set up when its first
 *   case starts), and not with fail_fast. An interrupt or an error aborts the armed cases
 *   unreported: none of their programs ran (an interrupt lets the one a server let go already
 *   take its slot: reported if it has ended, killed if not).
 * - Verifying and storing a case, or preparing one, can keep the loop from pumping the other
 *   running cases for a while (a 60 MB document takes seconds); a program writing meanwhile
 *   blocks on its full pipe. Every such pause longer than STALL_S is given back to the running
 *   cases (adapter `extend`: their timeouts move by as much), so it never times a case out.
 * - An adapter may cap the groups set up at once (groups_at_once: the api adapter with a fixed
 *   port, where two servers cannot listen at once): no case of a group not yet set up starts
 *   while that many are, whatever `jobs` is, so verdicts do not depend on -j.
 * - `duration` runs from the start of loading the case to the end of its verification, less
 *   the time it waited armed, the time its supervisor's report waited for the loop (busy
 *   with another case, or stopped): from when its supervisor was done with it (the program
 *   and everything it started ended, its report written) until the loop read its end, and
 *   the time the loop then spent starting or arming the cases after it.
 * - An isolated group without spares (the run's scratch tmpfs) keeps its folder open, reached
 *   once without following a link: each case's folder is one mkdirat and one unlinkat by name
 *   there, with no path resolved again; the adapter is told when the folder it gets was made
 *   just now and left empty (adapter_iface.h workdir_empty), so the sandbox's hand-over need
 *   not read it. Anything else (a folder there already, one not empty at the end) goes the
 *   usual way. Where Landlock keeps every case out of that group folder (runner.c
 *   cwd_by_server), a case with nothing to put in its folder has it made and removed by its
 *   case server instead (adapter_iface.h workdir_unmade): the pool only checks, beside a
 *   running case, that the tmpfs has an inode free for it and one for its temporary folder.
 *   A case started beside another (not a lane's) whose server still found no room for its
 *   folders (its program never ran) is started again once a case ends, unreported, before
 *   any case after it (`again`), as one the pool could not start is.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/fs.h"
#include "run/run_int.h"
#include "assay/report.h"
#include "util/fs_int.h"
#include "util/banned.h"

#define STOP_CHECK_MS 200
#define FDS_PER_JOB 16
#define ORDER_BUDGET (128u * 1024 * 1024)
#define IDLE_FLUSH_MS 20                /* the loop idle this long: sinks flush (commit) */
#define STALL_S 0.05                    /* a pause of the loop worth giving back to cases */
#define PIPELINE_MAX (1024u * 1024)     /* captured bytes up to which the next case starts
					   before this one is verified */

/* A group of the run while it has cases to resolve. */
struct group_run {
	size_t icp, ig;
	assay_run_ctx ctx;
	char *grel, *gdir;
	int gfd;           /* isolated, without spares: its folder, opened once beneath the run's
			      root (no link followed), where its cases' folders are made and
			      removed by name; else -1 */
	void *state;
	bool ready;        /* its folder made, group_begin called */
	bool unmade_ok;    /* its empty cases' folders are made by their case servers
			      (assay_run_ctx.workdir_unmade): isolated, gfd open, and with root
			      its folder root's and 0733 */
	bool begun;        /* group_begin succeeded: group_end is owed */
	bool lane;
	bool whole;        /* a shared lane run whole again (resume): no case is replayed */
	bool lane_ran;     /* lane: a case of it has started (its folder holds what it left) */
	size_t next;       /* lane: the next case to resolve */
	size_t unresolved; /* cases not finished, replayed or given up */
	size_t running;
	size_t first_pos;  /* the run position of its first case */
	char *setup_error; /* why its folder could not be prepared (each case fails with it) */
};

/* A case from its start (or replay) until the in-order sinks have it. */
struct task {
	size_t pos, k;
	struct group_run *gr;
	bool again_ok;         /* started beside another case, not a lane's: a folder its server
				  could not make for lack of room starts it again (room_failed) */
	assay_case *c;
	assay_arena *a;        /* the report's (verification budget) */
	assay_case_result r;
	void *job;             /* the adapter's while running (or armed) */
	double armed_at;       /* armed: when its arming was done (assay_now), else 0 */
	double go_at;          /* was armed: when the pool let it go (its t0 moved on by the
				  time it waited armed, to then), else 0 */
	size_t pfd, npfd;      /* its descriptors in the pool's last poll: p->fds[pfd..+npfd] */
	unsigned long polled;  /* the turn that polled them (0: none yet) */
	char *rel;             /* isolated: its working folder beneath the root */
	double t0;
	assay_case_report cr;
	assay_value report;
	size_t bytes;          /* what it holds while waiting for in-order release */
	bool followed;         /* running: an armed case follows it (its server may let it go) */
	void *after;           /* armed: the job of the running case it follows, or NULL */
};

struct pool {
	struct assay_run__run *run;
	const assay_adapter *ad;
	size_t jobs;
	struct group_run *groups; /* flat, checkpoint by checkpoint */
	size_t ngroups;
	size_t cur_group, cur_case, cur_pos; /* the next case to take, in run order */
	struct task **running;
	size_t nrunning;
	struct task *relayed;     /* armed: the one the server of the case that ended let go (the
				   * relay): it goes first, into that case's slot */
	struct task **armed;      /* the next cases, armed while every slot is busy (adapter arm):
				     each goes, in run order, when a slot frees */
	size_t narmed;
	struct again {            /* cases to start again, before any other, in run order: their */
		struct group_run *gr; /* servers could not make their folders for lack of room */
		size_t k, pos;        /* beside a running case (room_failed) */
	} *again;
	size_t nagain;            /* (each a case of the suite: at most ncases) */
	bool room_held;           /* a case could not be armed or started beside a running one
				     (its folder, input files or process: that case may hold the
				     room): none is until a case ends, then it starts as usual */
	struct task **pending;    /* by run position (1-based): finished, waiting for release */
	bool *released;
	size_t next_release;
	size_t waiting_bytes;
	bool no_new;              /* stop, fail_fast or an error: start nothing more */
	size_t groups_max;        /* adapter groups_at_once: groups set up at once (0: any) */
	size_t groups_open;       /* groups set up now (ready) */
	struct pollfd *fds;
	unsigned long turns;      /* turns of the loop so far */
	struct statvfs room;      /* the working folders' file system, as statvfs said in turn */
	unsigned long room_turn;  /* ... this one (room_asked) */
	bool room_asked;
	double unflushed;         /* when the first case the sinks have not flushed was emitted
				     (assay_now), or 0 */
};

static const assay_group *grp(struct pool *p, const struct group_run *gr)
{
	return &p->run->suite->checkpoints[gr->icp].groups[gr->ig];
}

static bool stopping(struct pool *p)
{
	volatile int *stop = p->run->opts->stop;

	return stop && *stop;
}

#define SIGNALLED_WITH_S 0.2 /* how long a stop may follow the signal that ended a program */

/*
 * Did what ended the program of result `r` stop the run too? A program ended by SIGTERM,
 * SIGINT or SIGHUP (not its timeout's) may have been signalled with assay (Slurm's scancel
 * signals every process of the job, one after the other): the stop is given a moment to come
 * before the case counts as ended on its own. The wait ends at the caller's signal (the sleep
 * is interrupted) or after SIGNALLED_WITH_S.
 */
static bool stopped_with(struct pool *p, const assay_case_result *r)
{
	double until = assay_now() + SIGNALLED_WITH_S;

	if (!p->run->opts->stop || r->proc.status != ASSAY_PROC_SIGNALED ||
	    (r->proc.term_signal != SIGTERM && r->proc.term_signal != SIGINT &&
	     r->proc.term_signal != SIGHUP))
		return stopping(p);
	while (!stopping(p) && assay_now() < until)
		poll(NULL, 0, 10);
	return stopping(p);
}

/* Makes the group's folder (its submission copied in, shared) and calls group_begin. */
static int group_setup(struct pool *p, struct group_run *gr)
{
	struct assay_run__run *run = p->run;
	const assay_checkpoint *cp = &run->suite->checkpoints[gr->icp];
	const assay_group *g = &cp->groups[gr->ig];
	const char *submission = run->opts->submission ? run->opts->submission : cp->submission;
	int rc;

	if (gr->ready)
		return 0;
	gr->ready = true;
	p->groups_open++;
	gr->grel = assay_xasprintf("%s/%s", cp->name, g->name);
	gr->gdir = assay_path_join(run->root, gr->grel);
	gr->ctx = (assay_run_ctx){ run->suite, cp, g, &run->command, submission,
				   run->opts->out_cap ? run->opts->out_cap : ASSAY_PROC_DEFAULT_CAP,
				   run->opts->err_cap ? run->opts->err_cap : ASSAY_PROC_DEFAULT_CAP,
				   run->opts->kill_grace_s >= 0 ? run->opts->kill_grace_s : 1.0,
				   gr->gdir, &run->sandbox.sb, run->tmp_root, run->opts->pass_env,
				   run->servers, run->spares, true };
	gr->ctx.tmp_by_server = run->tmp_by_server;
	if (submission && !assay_fs_is_dir(submission))
		return assay_err_set(run->err, ASSAY_EINVALID, submission, 0, 0,
				     "the submission folder does not exist");
	/* A folder that cannot be made (the run's working folders full: a case's --keep'd
	 * folders, or one running beside it) fails the group's cases, not the run. */
	assay_err fe = ASSAY_ERR_INIT;
	char fmsg[1200];

	if (assay_fs_mkdirs_beneath(run->root, gr->grel, &fe)) {
		gr->setup_error = assay_xstrdup(assay_err_format(&fe, fmsg, sizeof(fmsg)));
		return 0;
	}
	/* its cases' folders are then one mkdirat and one unlinkat each, with no path resolved:
	 * what a case could swap on the way is passed already (a failure: the usual way) */
	if (g->isolated && !run->spares)
		gr->gfd = assay_fs__open_dir_beneath(run->root, gr->grel);
	/* with the sandbox (and so root: runner.c) its cases run as nobody, who must make their
	 * folders in it: it may then do that and no more (not list it, not chmod it; Landlock
	 * keeps a case out of it) */
	gr->unmade_ok = gr->gfd >= 0 && run->cwd_by_server && p->ad->makes_workdir &&
			(!run->sandbox.sb.enabled || !fchmod(gr->gfd, 0733));
	/* One folder for the whole group: the submission is copied in once. A copy that fails
	 * (the run's working folders full) fails the group's cases, not the run. Not for
	 * requests (the api adapter): its server's folder has the group's copy (start_case). */
	if (!g->isolated && submission && !p->ad->requests) {
		assay_err e = ASSAY_ERR_INIT;
		char msg[1200];

		if (assay_fs_copy_tree(submission, gr->gdir, &e))
			gr->setup_error = assay_xstrdup(assay_err_format(&e, msg, sizeof(msg)));
	}
	if (p->ad->group_begin && (rc = p->ad->group_begin(&gr->state, &gr->ctx, run->err)))
		return rc;
	gr->begun = true;
	return 0;
}

/* Ends the group (group_end, its folder removed) once nothing of it runs. */
static void group_teardown(struct pool *p, struct group_run *gr)
{
	if (!gr->ready || gr->running)
		return;
	if (gr->begun && p->ad->group_end)
		p->ad->group_end(gr->state);
	if (gr->gfd >= 0)
		close(gr->gfd);
	gr->gfd = -1;
	if (gr->grel && !p->run->opts->keep)
		assay_fs_remove_beneath(p->run->root, gr->grel, NULL);
	free(gr->grel);
	free(gr->gdir);
	free(gr->setup_error);
	gr->setup_error = NULL;
	gr->grel = gr->gdir = NULL;
	gr->ready = gr->begun = false;
	p->groups_open--;
}

/* Undoes group `gr`, set up for a first case that could not start (start_case): its folder
 * removed, --keep or not (none of its cases ran, and what was put in it must not stay for the
 * set-up that follows), then torn down. */
static void group_undo(struct pool *p, struct group_run *gr)
{
	if (gr->grel && !gr->running)
		assay_fs_remove_beneath(p->run->root, gr->grel, NULL);
	group_teardown(p, gr);
}

static void task_free(struct task *t)
{
	if (!t)
		return;
	assay_case_result_release(&t->r);
	assay_arena_free(t->a);
	assay_case_free(t->c);
	free(t->rel);
	free(t);
}

/* Removes the working folder of isolated task `t`, --keep or not: an empty one through its
 * group's descriptor in one call; else (not empty, not a folder, or no descriptor) as
 * assay_fs_spares_give() does, which follows no link and keeps spares. */
static void remove_workdir(struct pool *p, struct task *t)
{
	const char *leaf;

	if (!t->rel || t->r.proc.cwd_removed) /* its case's server removed it, empty */
		return;
	leaf = strrchr(t->rel, '/');
	/* (gone: its case's server removed it, empty, or never made it) */
	if (t->gr->gfd >= 0 && leaf &&
	    (!unlinkat(t->gr->gfd, leaf + 1, AT_REMOVEDIR) || errno == ENOENT))
		return;
	assay_fs_spares_give(p->run->spares, p->run->root, t->rel, NULL);
}

/* Gives back the working folder of isolated task `t`, unless --keep keeps it. */
static void give_workdir(struct pool *p, struct task *t)
{
	if (!p->run->opts->keep)
		remove_workdir(p, t);
}

/* Hands every finished case whose turn has come to the in-order sinks. */
static int release(struct pool *p, bool all)
{
	size_t n = p->run->suite->ncases;

	for (; p->next_release <= n; p->next_release++) {
		struct task *t = p->pending[p->next_release];
		int rc;

		if (!t) {
			if (!all)
				return 0;
			continue;
		}
		p->pending[p->next_release] = NULL;
		p->waiting_bytes -= t->bytes;
		rc = assay_run__emit_ordered(p->run, &t->cr, t->gr->icp, t->gr->ig);
		p->released[p->next_release] = true;
		task_free(t);
		if (rc) {
			p->next_release++;
			return rc;
		}
	}
	return 0;
}

static size_t arena_bytes(const assay_arena *a)
{
	return a ? assay_arena_used(a) : 0;
}

/* A case is finished (run, replayed or refused): to the sinks, and its group updated. */
static int resolved(struct pool *p, struct task *t)
{
	struct group_run *gr = t->gr;
	int rc;

	t->cr.index = t->pos;
	if (!t->cr.replayed) {
		assay_run__finish_line(t->a, &t->report, t->cr.checkpoint, &t->cr,
				       p->run->suite->adapter->requests);
		t->cr.json = &t->report;
	}
	rc = assay_run__emit_any(p->run, &t->cr);
	if (!(p->unflushed > 0))
		p->unflushed = assay_now();
	if (p->run->opts->fail_fast && !t->cr.passed && !t->cr.replayed)
		p->no_new = true;
	give_workdir(p, t);
	t->bytes = 4096 + arena_bytes(t->a) + (t->c ? arena_bytes(t->c->arena) : 0) +
		   arena_bytes(t->r.arena);
	for (size_t i = 0; i < t->r.nbufs; i++)
		t->bytes += t->r.bufs[i].alloc;
	p->pending[t->pos] = t;
	p->waiting_bytes += t->bytes;
	gr->unresolved--;
	if (!gr->unresolved)
		group_teardown(p, gr);
	if (rc)
		return rc;
	return release(p, false);
}

/* Replays case k of `gr` from an earlier run when it has a result: 1 (resolved), 0, or < 0. */
static int replay(struct pool *p, struct group_run *gr, size_t k, size_t pos)
{
	struct assay_run__run *run = p->run;
	const assay_checkpoint *cp = &run->suite->checkpoints[gr->icp];
	const assay_group *g = &cp->groups[gr->ig];
	struct task *t;
	assay_arena *a;
	int found;

	if (!run->opts->previous || gr->whole || !assay_case_result_replayable(&g->cases[k], NULL))
		return 0;
	a = assay_arena_new(0);
	t = assay_xcalloc(1, sizeof(*t));
	found = run->opts->previous(run->opts->previous_payload, cp->name, g->name, g->cases[k].id,
				    g->cases[k].file, a, &t->report, run->err);
	if (found <= 0) {
		assay_arena_free(a);
		free(t);
		return found;
	}
	const assay_value *err = assay_report_get(&t->report, "error");
	const assay_value *passed = assay_report_get(&t->report, "passed");

	if (!assay_case_result_replayable(&g->cases[k],
					  err && err->kind == ASSAY_V_STRING ? err->u.s : NULL)) {
		assay_arena_free(a);
		free(t);
		return 0;
	}

	t->pos = pos;
	t->k = k;
	t->gr = gr;
	t->a = a;
	t->cr = (assay_case_report){ .checkpoint = cp, .group = g, .id = g->cases[k].id,
				     .json = &t->report,
				     .score = assay_value_number(assay_report_get(&t->report,
										  "score")),
				     .passed = passed && passed->kind == ASSAY_V_BOOL && passed->u.b,
				     .error = err && err->kind == ASSAY_V_STRING ? err->u.s : NULL,
				     .replayed = true };
	if (!(t->cr.score >= 0 && t->cr.score <= 1))
		t->cr.score = 0;
	int rc = resolved(p, t);
	return rc ? rc : 1;
}

/* The file system of the run's working folders, asked once in a turn of the loop: a case ends
 * and the next is armed within microseconds, both asking. NULL: statvfs failed. */
static const struct statvfs *room(struct pool *p)
{
	if (!p->room_asked || p->room_turn != p->turns) {
		p->room_asked = !statvfs(p->run->root, &p->room);
		p->room_turn = p->turns;
	}
	return p->room_asked ? &p->room : NULL;
}

/* Has the file system of the run's working folders `n` inodes free (or no count of them)? */
static bool inodes_free(struct pool *p, unsigned n)
{
	const struct statvfs *v = room(p);

	return v && (v->f_files == 0 || v->f_ffree >= n);
}

/*
 * Makes (or, shared, checks) working folder `rel` beneath `root` (the run's, or an isolated
 * case's group folder), reaching it through no link, then puts the submission (fresh folders
 * only) and the case folder's files/ into it, at `dir`. A folder an earlier case replaced by a
 * link is an error, never followed: no process of an earlier case of a shared folder is alive
 * by now (proc.h, and a lane runs one case at a time), so what was checked stays true.
 * `rootfd`: `root` open (assay_fs__open_dir_beneath), or -1. `*empty`: the folder was made
 * just now by this call and nothing was put in it (adapter_iface.h, workdir_empty).
 */
static int prepare_workdir(assay_fs_spares *spares, const char *root, int rootfd, const char *rel,
			   const char *dir, const char *submission, const assay_case *c, bool fresh,
			   bool unmade_ok, bool *empty, bool *unmade, assay_err *err)
{
	/* a new folder, made by name beneath its open parent */
	bool by_name = fresh && !spares && rootfd >= 0 && !strchr(rel, '/'), made = false;
	int rc;

	*empty = false;
	/* nothing to put in it: left to be made by the case's server (`unmade_ok`) */
	*unmade = unmade_ok && by_name && !submission && !c->files_dir;
	if (*unmade)
		return 0;
	/* made here: empty (one that was there already is taken the usual way, which checks it) */
	if (by_name)
		made = mkdirat(rootfd, rel, 0755) == 0;
	if (!made && (rc = assay_fs_spares_take(fresh ? spares : NULL, root, rel, err)))
		return rc;
	if (fresh && submission && (rc = assay_fs_copy_tree(submission, dir, err)))
		return rc;
	/* Earlier cases of a shared folder may have planted links: write beneath, never through. */
	if (c->files_dir && (rc = assay_fs_copy_tree_beneath(c->files_dir, dir, err)))
		return rc;
	*empty = made && !submission && !c->files_dir;
	return 0;
}

/* `error` (a case's, in arena `a`), with where the room went said when the run's working
 * folders are its tmpfs and the error is theirs being full: a user with an empty disk cannot
 * tell otherwise which device is meant, nor that --scratch-size sets it. */
static const char *with_room(const struct pool *p, assay_arena *a, const char *error)
{
	const assay_run_opts *o = p->run->opts;
	long long inodes = o->scratch_inodes > 0 ? o->scratch_inodes : ASSAY_RUN__SCRATCH_INODES;

	if (!error || !p->run->scratch || !strstr(error, strerror(ENOSPC)))
		return error;
	return assay_value_stringf(a, "%s (the run's working folders are a tmpfs of %lld bytes and "
				      "%lld files: --scratch-size, --scratch-inodes)",
				   error, o->scratch_bytes, inodes).u.s;
}

/* Undoes task `t`, whose folder or process could not be made beside a running case: its folder
 * removed, --keep or not (nothing of it ran), and, when it was its lane's first case to start,
 * its group with it (start_case). @return 1, start_case's "start it again once a case ends" */
static int undone(struct pool *p, struct group_run *gr, struct task *t, bool lane_first)
{
	remove_workdir(p, t);
	task_free(t);
	if (lane_first)
		group_undo(p, gr);
	return 1;
}

/* Starts case k of `gr` at run position `pos`: loaded, its folder made, the adapter started (or
 * resolved at once when it cannot be loaded or its folder made). `arm`: armed instead (adapter
 * arm), into p->armed, following `after` (adapter arm); its start is announced at its go. An
 * armed case, or one not of a lane started while another case runs, whose folder (or its
 * group's) or process cannot be made now is undone, unreported, and 1 returned: a case running
 * meanwhile may have filled the working folders' file system, which is given back when it ends;
 * the case starts again then, and only what fails when no other case runs is its verdict (or
 * assay's error). */
static int start_case(struct pool *p, struct group_run *gr, size_t k, size_t pos, bool arm,
		      void *after)
{
	struct assay_run__run *run = p->run;
	const assay_checkpoint *cp = &run->suite->checkpoints[gr->icp];
	const assay_group *g = &cp->groups[gr->ig];
	const char *id = g->cases[k].id;
	size_t budget = run->opts->verify_memory ? run->opts->verify_memory
						 : ASSAY_VERIFY_MEMORY_DEFAULT;
	struct task *t;
	char *dir = NULL;
	int rc;
	/* the case running beside it may hold the room its folder needs: it can wait for that
	 * case to end. Of a lane only its first case to start (those before it, which could not
	 * be loaded, ran nothing), whose whole group is then undone (its shared folder with it):
	 * a later one's folder holds what the cases before it left. */
	bool lane_first = gr->lane && !gr->lane_ran && !gr->running;
	bool undo = arm || ((!gr->lane || lane_first) && p->nrunning > 0);

	/* a slot (or an armed place) is free, always: the arrays hold `jobs` each */
	if (arm ? p->narmed >= p->jobs : p->nrunning >= p->jobs)
		abort();
	t = assay_xcalloc(1, sizeof(*t));
	t->pos = pos;
	t->k = k;
	t->gr = gr;
	t->again_ok = undo && !gr->lane;
	t->t0 = assay_now();
	t->r = (assay_case_result)ASSAY_CASE_RESULT_INIT;
	t->cr = (assay_case_report){ .checkpoint = cp, .group = g, .id = id };
	if ((rc = group_setup(p, gr))) {
		free(t);
		if (!undo || gr->running)
			return rc;
		/* its group's set-up did not fit either: set up again with the case, from nothing
		 * (what was put in its folder goes, --keep or not: none of its cases ran) */
		assay_err_clear(run->err);
		group_undo(p, gr);
		return 1;
	}
	if (gr->setup_error && undo && !gr->running) {
		free(t); /* its group's folder did not fit: made again with the case */
		group_undo(p, gr);
		return 1;
	}
	assay_case_load(&t->c, run->suite, cp, g, k, run->opts->warn, run->opts->warn_payload);
	t->a = assay_arena_new(budget);
	t->cr.kase = t->c;
	if (t->c->error) {
		t->cr.error = t->c->error;
		t->report = assay_case_report_error(t->a, run->suite, g, id, t->c, t->c->error,
						    t->t0);
		return resolved(p, t);
	}
	if (gr->setup_error) {
		t->cr.error = with_room(p, t->a, assay_value_stringf(t->a, "cannot prepare the "
								  "working folder: %s",
								  gr->setup_error).u.s);
		t->report = assay_case_report_error(t->a, run->suite, g, id, t->c, t->cr.error,
						    t->t0);
		return resolved(p, t);
	}
	/* An isolated case's folder is made beneath its group's, which no case can write (each
	 * writes only its own folder): one lookup instead of one per level from the run's root. */
	const char *base = run->root, *rel;
	if (g->isolated) {
		t->rel = assay_xasprintf("%s/%s", gr->grel, t->c->id);
		dir = assay_path_join(gr->gdir, t->c->id);
		base = gr->gdir;
		rel = t->c->id;
	} else {
		dir = assay_xstrdup(gr->gdir);
		rel = gr->grel;
	}
	assay_err e = ASSAY_ERR_INIT;
	bool empty, unmade;
	/* a request (the api adapter) is not a program run in its folder: the submission is its
	 * server's, copied once for the group (.server), not once more for each case */
	if (prepare_workdir(run->spares, base, g->isolated ? gr->gfd : -1, rel, dir,
			    p->ad->requests ? NULL : gr->ctx.submission, t->c, g->isolated,
			    gr->unmade_ok, &empty, &unmade, &e)) {
		char msg[1200];

		if (undo) {
			assay_err_clear(&e);
			free(dir);
			return undone(p, gr, t, lane_first);
		}

		assay_err_format(&e, msg, sizeof(msg));
		t->cr.error = with_room(p, t->a, assay_value_stringf(t->a, "cannot prepare the "
								  "working folder: %s", msg).u.s);
		t->report = assay_case_report_error(t->a, run->suite, g, id, t->c, t->cr.error,
						    t->t0);
		free(dir);
		return resolved(p, t);
	}
	/* its temporary folder is made by its case server (adapter_iface.h tmp_by_server), and
	 * its working folder too when `unmade`, and a server's failure comes with the report,
	 * when the case can no longer be undone: so beside a running case it waits, as for a
	 * folder it could not make, until an inode is free for each (an empty folder takes no
	 * block of a tmpfs) */
	if (undo && gr->ctx.tmp_by_server && !p->ad->requests &&
	    !inodes_free(p, unmade ? 2 : 1)) {
		free(dir);
		return undone(p, gr, t, lane_first);
	}
	gr->ctx.workdir_empty = empty; /* for this call only */
	gr->ctx.workdir_unmade = unmade;
	gr->ctx.start_again = !arm && undo;
	/* a lane's first case beside a running one: its temporary folder is made by the adapter,
	 * as without a server, so that one that does not fit undoes the lane (start_again): a
	 * server's failure comes when the lane has begun, and no lane's case starts again (again) */
	bool by_server = gr->ctx.tmp_by_server;
	if (gr->lane && undo)
		gr->ctx.tmp_by_server = false;
	if (arm)
		rc = p->ad->arm(&t->job, gr->state, &gr->ctx, t->c, dir, after, run->err);
	else
		rc = p->ad->start(&t->job, gr->state, &gr->ctx, t->c, dir, run->err);
	gr->ctx.workdir_empty = gr->ctx.workdir_unmade = gr->ctx.start_again = false;
	gr->ctx.tmp_by_server = by_server;
	free(dir);
	if (rc && undo) {
		assay_err_clear(run->err);
		return undone(p, gr, t, lane_first);
	}
	if (rc) {
		give_workdir(p, t);
		task_free(t);
		return rc;
	}
	gr->running++;
	if (gr->lane)
		gr->lane_ran = true;
	if (arm) {
		t->armed_at = assay_now();
		p->armed[p->narmed++] = t;
	} else {
		assay_run__notify_start(run, cp, g, id, pos); /* once: it can no longer be undone */
		p->running[p->nrunning++] = t;
	}
	return 0;
}

/* Aborts armed task `t` (taken out of p->armed): nothing of its program ran; unreported. */
static void drop_armed(struct pool *p, struct task *t)
{
	if (p->relayed == t)
		p->relayed = NULL;
	t->gr->running--;
	p->ad->abort(t->job);
	give_workdir(p, t);
	task_free(t);
}

/* Lets armed case j go into the free slot: it runs from now, and the time it waited armed is
 * not its duration's. */
static int go_armed(struct pool *p, size_t j)
{
	struct task *t = p->armed[j];
	const assay_group *g = grp(p, t->gr);
	/* taken before the go: its program may start (and, without a server, its process be
	 * made) within it, and the case's duration must hold all of its program's time */
	double go_at = assay_now();
	int rc;

	if (p->relayed == t)
		p->relayed = NULL;
	memmove(p->armed + j, p->armed + j + 1, (--p->narmed - j) * sizeof(*p->armed));
	rc = p->ad->go(t->job, p->run->err);
	if (rc) {
		drop_armed(p, t);
		return rc;
	}
	/* the suite's id, not the loaded case's: a sink may keep it past this task (the terminal's
	 * progress line holds it), which a case started again frees at once (again()) */
	assay_run__notify_start(p->run, &p->run->suite->checkpoints[t->gr->icp], g,
				g->cases[t->k].id, t->pos);
	t->t0 += go_at - t->armed_at;
	t->armed_at = 0;
	t->go_at = go_at;
	p->running[p->nrunning++] = t;
	return 0;
}

/* Aborts every armed case: none of their programs ran; they are left unreported. */
static void abort_armed(struct pool *p)
{
	/* in run order: each after the case it follows, whose server would otherwise let it go */
	for (size_t i = 0; i < p->narmed; i++)
		drop_armed(p, p->armed[i]);
	p->narmed = 0;
}

/* Lets the armed case the server of the case that ended let go (p->relayed: it runs already,
 * and must be timed and counted in a slot) take a free slot, if there is one. */
static int go_relayed(struct pool *p)
{
	for (size_t j = 0; p->relayed && j < p->narmed && p->nrunning < p->jobs; j++)
		if (p->armed[j] == p->relayed)
			return go_armed(p, j);
	return 0;
}

/* Lets armed cases go into the slots that are free: first the relayed one (go_relayed), then
 * the others in run order. */
static int go_free_slots(struct pool *p)
{
	int rc;

	if ((rc = go_relayed(p)))
		return rc;
	while (p->narmed && p->nrunning < p->jobs)
		if ((rc = go_armed(p, 0)))
			return rc;
	return 0;
}

/* The next cases of lane `gr`: replayed ones resolved, until one runs or the lane ends.
 * @return 0, an error, or 1: its first case to start did not fit beside the running cases,
 * and the lane is undone to start again once a case ends (start_case). */
static int lane_next(struct pool *p, struct group_run *gr)
{
	const assay_group *g = grp(p, gr);

	while (gr->next < g->ncases && !p->no_new && !stopping(p)) {
		size_t k = gr->next++, pos = gr->first_pos + k;
		int rc = replay(p, gr, k, pos);

		if (rc < 0)
			return rc;
		if (rc == 0 && (rc = start_case(p, gr, k, pos, false, NULL))) {
			if (rc > 0)
				gr->next--;
			return rc;
		}
		if (gr->running)
			return 0; /* it runs; a case that could not be loaded is resolved already */
	}
	return 0;
}

/* A lane on resume: replayed only when every case has a result (else run whole), since its cases
 * build on each other's state (a shared folder, or the server of a `serial_groups` adapter that
 * the interrupted run took down with it). */
static int lane_decide(struct pool *p, struct group_run *gr)
{
	struct assay_run__run *run = p->run;
	const assay_checkpoint *cp = &run->suite->checkpoints[gr->icp];
	const assay_group *g = &cp->groups[gr->ig];

	if (!run->opts->previous || !assay_group_shares_state(run->suite, g))
		return 0;
	for (size_t k = 0; k < g->ncases; k++) {
		assay_arena *a = assay_arena_new(0);
		assay_value v;
		int found = run->opts->previous(run->opts->previous_payload, cp->name, g->name,
						g->cases[k].id, g->cases[k].file, a, &v, run->err);

		assay_arena_free(a);
		if (found < 0)
			return found;
		if (!found) {
			gr->whole = true;
			return 0;
		}
	}
	return 0;
}

static bool over_budget(const struct pool *p)
{
	return p->waiting_bytes > ORDER_BUDGET;
}

/*
 * May the next case in run order be armed (adapter arm) while every slot is busy? Only a case
 * of an isolated group already set up that is no lane (its folder its own: nothing of the
 * running cases' is touched), not with fail_fast (a verdict decides whether it starts), and
 * one armed case per slot. `*gr_out`: its group.
 */
static bool may_arm(struct pool *p, struct group_run **gr_out)
{
	if (!p->ad->arm || !p->ad->go || p->run->opts->fail_fast || p->no_new || p->room_held ||
	    p->nagain || p->nrunning < p->jobs || p->narmed >= p->jobs || over_budget(p) ||
	    stopping(p))
		return false;
	while (p->cur_group < p->ngroups) {
		struct group_run *gr = &p->groups[p->cur_group];

		if (p->cur_case < grp(p, gr)->ncases) {
			*gr_out = gr;
			return gr->ready && !gr->lane;
		}
		p->cur_group++;
		p->cur_case = 0;
	}
	return false;
}

/* Arms the next cases in run order while every slot is busy and one has no armed case. */
static int arm_more(struct pool *p)
{
	struct group_run *agr;
	int rc;

	while (may_arm(p, &agr)) {
		size_t k = p->cur_case++, pos = p->cur_pos++;

		rc = replay(p, agr, k, pos);
		if (rc < 0)
			return rc;
		/* it follows a running case no armed case follows yet: that case's server lets it
		 * go as it ends (the relay), and it goes into that case's slot (go_free_slots). Not
		 * a lane's case: its slot is its lane's next case's. */
		struct task *leader = NULL;
		size_t narmed = p->narmed;

		for (size_t i = 0; i < p->nrunning && !leader; i++)
			if (!p->running[i]->followed && !p->running[i]->gr->lane)
				leader = p->running[i];
		if (rc == 0 && (rc = start_case(p, agr, k, pos, true, leader ? leader->job : NULL))) {
			if (rc < 0)
				return rc;
			/* not armed: it starts in its turn, as usual (start_case) */
			p->cur_case--;
			p->cur_pos--;
			p->room_held = true;
			return 0;
		}
		if (leader && p->narmed > narmed) { /* armed (not replayed): it follows */
			leader->followed = true;
			p->armed[p->narmed - 1]->after = leader->job;
		}
	}
	return 0;
}

/* Starts cases in run order while a slot is free, the armed ones first; then arms the next. */
static int fill(struct pool *p)
{
	int rc;

	if (p->no_new || stopping(p)) {
		/* the armed case the server of the case that ended let go runs already: it takes
		 * that case's slot, reported if it ends before the run stops, killed if not */
		if ((rc = go_relayed(p)))
			return rc;
		if (!p->nrunning)
			abort_armed(p); /* after the cases they follow (abort_all) */
	} else if ((rc = go_free_slots(p))) {
		return rc;
	}
	/* the cases to start again first (they come first in run order) */
	while (p->nagain && p->nrunning < p->jobs && !p->no_new && !p->room_held &&
	       !stopping(p)) {
		struct again a = p->again[0];

		memmove(p->again, p->again + 1, --p->nagain * sizeof(*p->again));
		if ((rc = start_case(p, a.gr, a.k, a.pos, false, NULL))) {
			if (rc < 0)
				return rc;
			memmove(p->again + 1, p->again, p->nagain++ * sizeof(*p->again));
			p->again[0] = a;
			p->room_held = true;
			break;
		}
	}
	while (!p->nagain && p->nrunning < p->jobs && !p->no_new && !p->room_held &&
	       !over_budget(p)) {
		if (stopping(p)) {
			p->no_new = true;
			break;
		}
		if (p->cur_group >= p->ngroups)
			break;
		struct group_run *gr = &p->groups[p->cur_group];
		const assay_group *g = grp(p, gr);

		if (p->cur_case >= g->ncases) {
			p->cur_group++;
			p->cur_case = 0;
			continue;
		}
		/* the adapter's limit of groups at once (a fixed port): wait for one to end */
		if (p->groups_max && !gr->ready && p->groups_open >= p->groups_max)
			break;
		if (gr->lane) {
			/* the whole group is one unit */
			p->cur_case = g->ncases;
			p->cur_pos += g->ncases;
			if ((rc = lane_decide(p, gr)) || (rc = lane_next(p, gr))) {
				if (rc < 0)
					return rc;
				/* its first case did not fit beside the running cases: the lane
				 * starts again once a case ends */
				p->cur_case = 0;
				p->cur_pos -= g->ncases;
				p->room_held = true;
				break;
			}
			continue;
		}
		size_t k = p->cur_case++, pos = p->cur_pos++;

		rc = replay(p, gr, k, pos);
		if (rc < 0)
			return rc;
		if (rc == 0 && (rc = start_case(p, gr, k, pos, false, NULL))) {
			if (rc < 0)
				return rc;
			/* not started while another case runs: it starts again once a case ends */
			p->cur_case--;
			p->cur_pos--;
			p->room_held = true;
			break;
		}
	}
	return arm_more(p);
}

/* Removes running task i (swap with the last). */
static void unrun(struct pool *p, size_t i)
{
	struct task *t = p->running[i];

	p->running[i] = p->running[--p->nrunning];
	t->gr->running--;
	t->job = NULL;
}

/* Gives the running cases back the time the loop spent since `t0`, when it was a pause. */
static void give_back(struct pool *p, double t0)
{
	double dt = assay_now() - t0;

	if (dt < STALL_S || !p->ad->extend)
		return;
	for (size_t i = 0; i < p->nrunning; i++)
		p->ad->extend(p->running[i]->job, dt);
}

/* Has the file system of the run's working folders at least half of its room (what is used and
 * what is available) and of its inodes free? Then
 * an ended case's folder need not go before the next case starts: no case can have filled it. */
static bool roomy(struct pool *p)
{
	const struct statvfs *v = room(p);

	/* of the room it may use (used + available: root's reserve aside), half available */
	return v && v->f_bavail >= v->f_blocks - v->f_bfree &&
	       (v->f_files == 0 || v->f_ffree >= v->f_files - v->f_ffree);
}

/* Did the case's server fail to make its folders for lack of room (proc.h cwd_make, tmp_make)?
 * Then its program never ran. */
static bool room_failed(const assay_case_result *r)
{
	int e = r->proc.cwd_errno ? r->proc.cwd_errno : r->proc.tmp_errno;

	return r->proc.status == ASSAY_PROC_EXEC_FAILED && (e == ENOSPC || e == EDQUOT);
}

/* Puts ended task `t` (its folder given back) among the cases to start again, in run order,
 * and frees it; no case is started until a case ends while one runs. */
static void again(struct pool *p, struct task *t)
{
	size_t i = p->nagain;

	while (i > 0 && p->again[i - 1].pos > t->pos)
		i--;
	memmove(p->again + i + 1, p->again + i, (p->nagain - i) * sizeof(*p->again));
	p->again[i] = (struct again){ t->gr, t->k, t->pos };
	p->nagain++;
	if (p->nrunning)
		p->room_held = true;
	task_free(t);
}

/* The adapter has ended task i: its result verified, and its lane goes on. */
static int finished(struct pool *p, size_t i)
{
	struct task *t = p->running[i];
	struct assay_run__run *run = p->run;
	struct group_run *gr = t->gr;
	double seconds = run->opts->verify_seconds > 0 ? run->opts->verify_seconds
						       : ASSAY_VERIFY_SECONDS_DEFAULT;
	void *job = t->job;
	double t0 = assay_now(), others = 0; /* others: the time spent on other cases here */
	assay_verdict v;
	int rc;

	unrun(p, i);
	/* the armed case that follows it, which its server may have let go already (the relay),
	 * has its slot */
	for (size_t j = 0; t->followed && j < p->narmed; j++)
		if (p->armed[j]->after == job)
			p->relayed = p->armed[j];
	/* The armed case goes at once, before this one's results are read, unless this one may
	 * have filled the working folders' file system: then its folder goes first (below). Not
	 * into a lane's slot: the lane's next case has it (lane_next below). */
	bool ahead = !gr->lane && !p->no_new && !stopping(p) && roomy(p);

	/* ... and the case after it is armed at once too, while this one's results are read:
	 * its server (often this case's, free again) sets it up meanwhile, so that it is ready
	 * when the case now running ends. */
	if (ahead && ((p->narmed && (rc = go_free_slots(p))) || (rc = arm_more(p)))) {
		p->ad->abort(job);
		task_free(t);
		return rc;
	}
	others = assay_now() - t0;
	rc = p->ad->finish(job, &t->r, run->err);
	/* Its folder goes before the next case's is made: nothing of it is read any more, and
	 * what it holds (a case that filled the run's working folders) must not fail the next. */
	give_workdir(p, t);
	p->room_held = false; /* its room is back: arming and starting may succeed again */
	p->room_asked = false; /* (and what statvfs said before is stale) */
	free(t->rel);
	t->rel = NULL;
	if (rc) {
		task_free(t);
		return rc;
	}
	if (t->again_ok && room_failed(&t->r)) {
		/* started beside a case that filled the run's working folders, which its server
		 * found as it made its folders: it starts again, unreported, once a case ends (at
		 * once when none runs any more: then a failure is its verdict) */
		again(p, t);
		return fill(p);
	}
	t->r.error = with_room(p, assay_case_result_arena(&t->r), t->r.error);
	/* The next case starts before this one is verified and stored, so that work overlaps
	 * with the next program's run (its result is in memory: nothing of it is read from its
	 * folder any more). Not with fail_fast: this verdict decides whether anything starts. */
	size_t captured = 0;
	for (size_t b = 0; b < t->r.nbufs; b++)
		captured += t->r.bufs[b].len;
	/* (not after a group's last case: its folder goes first, at its teardown) */
	bool early = !run->opts->fail_fast && captured <= PIPELINE_MAX && gr->unresolved > 1;
	if (early) {
		double t1 = assay_now();

		if ((rc = gr->lane ? lane_next(p, gr) : fill(p))) {
			task_free(t);
			return rc;
		}
		others += assay_now() - t1;
	}
	/* Its duration is its preparation, its supervisor's time from its program's start to
	 * its report, and its verification: not the time it waited armed (go_armed), and not the
	 * time its report waited for the loop, busy with another case (verifying a big one) or
	 * stopped. A case the server of the case before it let go (the relay) started before
	 * the pool's go, to which its t0 was moved: moved back by as much. */
	double wall = t->r.proc.wall_s >= 0 ? t->r.proc.wall_s : 0;
	double ended = t->r.proc.end_s > 0 && t->r.proc.end_s < t0 ? t->r.proc.end_s : t0;
	double start = t->r.proc.start_s > 0 && t->r.proc.start_s <= ended ? t->r.proc.start_s
									   : ended - wall;

	if (t->go_at > start)
		t->t0 -= t->go_at - start;
	if (t->t0 > start)
		t->t0 = start;
	t->t0 += t0 - ended + others; /* nor the time spent on the cases after it, here */
	assay_case_report_build(&t->report, &v, t->a, run->suite, t->cr.group, t->c, &t->r,
				seconds, t->t0);
	/* The run is stopping: what stops it may have reached this case's program too (Slurm's
	 * scancel signals every process of the job, as it signals assay, in either order), so a
	 * case that did not pass is not reported: --resume runs it again. One that passed is
	 * kept. */
	if (!v.passed && !t->cr.replayed && stopped_with(p, &t->r)) {
		task_free(t);
		return 0;
	}
	t->cr.result = &t->r;
	t->cr.score = v.score;
	t->cr.passed = v.passed;
	t->cr.error = v.error;
	if ((rc = resolved(p, t)))
		return rc;
	give_back(p, t0);
	if (gr->lane && !early)
		return lane_next(p, gr);
	if (!early)
		return fill(p);
	return 0;
}


/* Kills every running case (unreported: --resume runs it again), then the armed ones (after
 * the case each follows: that case's server would otherwise let it go). */
static void abort_all(struct pool *p)
{
	while (p->nrunning) {
		struct task *t = p->running[p->nrunning - 1];
		void *job = t->job;

		unrun(p, p->nrunning - 1);
		p->ad->abort(job);
		give_workdir(p, t);
		task_free(t);
	}
	abort_armed(p);
	p->no_new = true;
}

/* Sinks make lasting what they took (a store commits its batch): when the loop idles, and
 * ASSAY_SINK_FLUSH_SECONDS after the first case not flushed at the latest. */
static int flush(struct pool *p, bool idle)
{
	const assay_run_opts *o = p->run->opts;

	if (!(p->unflushed > 0) ||
	    (!idle && assay_now() - p->unflushed < ASSAY_SINK_FLUSH_SECONDS))
		return 0;
	p->unflushed = 0;
	for (size_t i = 0; i < o->nsinks; i++) {
		int rc = o->sinks[i].flush ? o->sinks[i].flush(o->sinks[i].payload, p->run->err)
					   : 0;
		if (rc)
			return rc;
	}
	return 0;
}

/* One turn of the loop: poll every running case, then pump each. With the adapter's
 * pump_polled, a case is given what this poll said of its descriptors (no poll of its own),
 * and one that started during the turn is left for the next, which polls it. */
static int turn(struct pool *p)
{
	size_t nfds = 0;
	int wait = STOP_CHECK_MS, rc, n;
	unsigned long now_turn = ++p->turns;

	for (size_t i = 0; i < p->nrunning; i++) {
		struct task *t = p->running[i];
		int d = p->ad->deadline_ms(t->job);

		t->pfd = nfds;
		t->npfd = p->ad->pollfds(t->job, p->fds + nfds, FDS_PER_JOB);
		t->polled = now_turn;
		nfds += t->npfd;
		if (d >= 0 && d < wait)
			wait = d;
	}
	if (p->unflushed > 0 && wait > IDLE_FLUSH_MS)
		wait = IDLE_FLUSH_MS;
	if ((n = poll(p->fds, nfds, wait)) < 0 && errno != EINTR)
		return assay_err_set(p->run->err, ASSAY_EIO, NULL, 0, 0, "poll: %s",
				     strerror(errno));
	if ((rc = flush(p, n == 0)))
		return rc;
	for (size_t i = 0; i < p->run->opts->nsinks; i++)
		if (p->run->opts->sinks[i].tick)
			p->run->opts->sinks[i].tick(p->run->opts->sinks[i].payload);
	/* Each case is pumped even when the run is stopping: one that has ended (its results all
	 * in) is reported, so that --resume need not run it again; only the others are killed. */
	for (size_t i = 0; i < p->nrunning;) {
		struct task *t = p->running[i];
		bool done = false;

		if (!p->ad->pump_polled || n < 0)
			rc = p->ad->pump(t->job, &done, p->run->err);
		else if (t->polled == now_turn)
			rc = p->ad->pump_polled(t->job, p->fds + t->pfd, t->npfd, &done,
						p->run->err);
		else {
			i++; /* started during this turn: the next polls it */
			continue;
		}
		if (rc)
			return rc;
		if (!done) {
			i++;
			continue;
		}
		/* task i is replaced by the last one: pump index i again */
		if ((rc = finished(p, i)))
			return rc;
	}
	if (stopping(p)) {
		/* A case that ended while the loop was busy (verifying another) but was started
		 * in this turn, so not pumped in it, is reported, not killed: a last pump each. */
		for (size_t i = 0; i < p->nrunning;) {
			bool done = false;

			if ((rc = p->ad->pump(p->running[i]->job, &done, p->run->err)))
				return rc;
			if (!done)
				i++;
			else if ((rc = finished(p, i)))
				return rc;
		}
		abort_all(p);
	}
	return 0;
}

int assay_run__pool(struct assay_run__run *run)
{
	const assay_suite *s = run->suite;
	struct pool p = { .run = run, .ad = s->adapter, .next_release = 1, .cur_pos = 1 };
	int rc = 0;

	p.jobs = run->opts->jobs ? run->opts->jobs : 1;
	p.groups_max = p.ad->groups_at_once ? p.ad->groups_at_once(s) : 0;
	if (p.jobs > s->ncases)
		p.jobs = s->ncases ? s->ncases : 1; /* more slots than cases would stay empty */
	for (size_t i = 0; i < s->ncheckpoints; i++)
		p.ngroups += s->checkpoints[i].ngroups;
	p.groups = assay_xcalloc(p.ngroups + 1, sizeof(*p.groups));
	for (size_t i = 0, n = 0, pos = 1; i < s->ncheckpoints; i++) {
		for (size_t j = 0; j < s->checkpoints[i].ngroups; j++, n++) {
			const assay_group *g = &s->checkpoints[i].groups[j];
			struct group_run *gr = &p.groups[n];

			gr->icp = i;
			gr->ig = j;
			gr->gfd = -1;
			gr->lane = assay_group_shares_state(s, g);
			gr->unresolved = g->ncases;
			gr->first_pos = pos;
			pos += g->ncases;
		}
	}
	p.running = assay_xcalloc(p.jobs, sizeof(*p.running));
	p.armed = assay_xcalloc(p.jobs, sizeof(*p.armed));
	p.again = assay_xcalloc(s->ncases + 1, sizeof(*p.again));
	p.fds = assay_xcalloc(p.jobs * FDS_PER_JOB, sizeof(*p.fds));
	p.pending = assay_xcalloc(s->ncases + 2, sizeof(*p.pending));
	p.released = assay_xcalloc(s->ncases + 2, sizeof(*p.released));

	for (;;) {
		double t0 = assay_now();

		if ((rc = fill(&p)))
			break;
		give_back(&p, t0);
		if (!p.nrunning)
			break; /* nothing left that may start */
		if ((rc = turn(&p)))
			break;
	}
	if (rc)
		abort_all(&p);
	else
		rc = release(&p, true);
	/* what did not run, for the summary; groups still set up are ended */
	for (size_t n = 0, pos = 1; n < p.ngroups; n++) {
		struct group_run *gr = &p.groups[n];
		const assay_checkpoint *cp = &s->checkpoints[gr->icp];
		const assay_group *g = &cp->groups[gr->ig];

		group_teardown(&p, gr);
		for (size_t k = 0; k < g->ncases; k++, pos++)
			if (!p.released[pos])
				assay_strvec_pushf(&run->not_run, "%s/%s/%s", cp->name, g->name,
						   g->cases[k].id);
	}
	for (size_t i = 1; i <= s->ncases; i++)
		task_free(p.pending[i]);
	free(p.pending);
	free(p.released);
	free(p.running);
	free(p.armed);
	free(p.again);
	free(p.fds);
	free(p.groups);
	return rc;
}
