/*
 * The cli adapter: one process per case (suite-format.md, "A case (cli adapter)"): argv is the
 * command plus the case's arguments, exactly; stdin is the case's bytes or empty; the working
 * folder is the case's. The environment is clean (docs/security.md): PATH and LANG from assay's,
 * HOME the working folder, TMPDIR a private temporary folder made for the case (removed after
 * it), the variables the caller passes (--pass-env), then the adapter, checkpoint and case env.
 * The case runs under the run's sandbox and its own limits. After the process ends, the
 * expected and tracked files are collected.
 *
 * Decisions: status_code is the exit status, -1 on timeout (the contract), -N when killed by
 * signal N (as Python's subprocess reports it), and 127 when the program could not be started
 * (as a shell reports it), with the reason on stderr and in `error`. The attributes are
 * status_code, output, stderr, execution_time (wall seconds), max_rss (bytes), cpu_time
 * (seconds), then files-<path> for each collected file. Input files are written beneath the
 * working folder without following links an earlier case of a shared folder may have planted.
 * Collected files must be regular files inside the working folder, reached without following
 * any link: a link, FIFO or device is "not produced".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapter/cli_int.h"
#include "assay/fs.h"
#include "proc/reach.h"
#include "adapter/adapter_int.h"
#include "util/banned.h"

struct cli_job {
	assay_proc p;
	const assay_run_ctx *ctx;
	const assay_case *c;
	char *workdir;
	char *tmp; /* the case's private temporary folder */
	bool tmp_removed; /* its case server removed it, empty, after the case (proc.h) */
	char *unstarted; /* why the program was not started (its input files could not be
			    written: a link an earlier case of a shared folder planted), or NULL */
	char *died;      /* its supervisor or case server died during the case: why, or NULL */
};

/* The clean environment of a case (the file's comment), in p->env. */
static void case_env(struct cli_job *job)
{
	job->p.clear_env = true;
	assay_adapter__clean_env(&job->p.env, job->workdir, job->tmp, job->ctx->pass_env,
				 &job->c->env);
}

static void free_job(struct cli_job *job)
{
	assay_proc_release(&job->p); /* kills a case abandoned part way, and all it started */
	if (job->tmp && !job->tmp_removed) {
		const char *slash = strrchr(job->tmp, '/');

		assay_fs_spares_give(job->ctx->spares, job->ctx->tmp_root, slash + 1, NULL);
	}
	free(job->tmp);
	free(job->workdir);
	free(job->unstarted);
	free(job->died);
	free(job);
}

/* A group's state (group_begin): the parents of the last working and temporary folders made
 * passable for the sandbox's user (assay_proc__sandbox_reach), so that the next case of the
 * group with the same parents walks nothing: only assay (root) changes those folders' modes,
 * and it never takes o+x away. */
struct cli_group {
	char *reached[2];
	unsigned char random[192]; /* random bytes for temporary folders' names (tmp_name) */
	size_t random_used;        /* of them (all, at first) */
};

static int group_begin(void **state, const assay_run_ctx *ctx, assay_err *err)
{
	(void)ctx;
	(void)err;
	struct cli_group *g = assay_xcalloc(1, sizeof(*g));

	g->random_used = sizeof(g->random);
	*state = g;
	return 0;
}

static void group_end(void *state)
{
	struct cli_group *g = state;

	if (!g)
		return;
	free(g->reached[0]);
	free(g->reached[1]);
	free(g);
}

/* assay_proc__sandbox_reach(sb, top, path), unless `g` (NULL: none) reached the same parent
 * last time in slot `which`. */
static void reach(struct cli_group *g, int which, const assay_sandbox *sb, const char *top,
		  const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0;
	char *last = g ? g->reached[which] : NULL;

	if (last && strlen(last) == n && !strncmp(last, path, n))
		return;
	assay_proc__sandbox_reach(sb, top, path);
	if (g) {
		free(last);
		g->reached[which] = assay_xstrndup(path, n);
	}
}

/* `root`/case-<6 random letters or digits>, or NULL when the kernel gives no random bytes. */
static char *tmp_name(struct cli_group *g, const char *root)
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	char name[7];

	/* the kernel's random bytes, taken a few dozen names at a time */
	if (g->random_used + sizeof(name) - 1 > sizeof(g->random)) {
		if (getrandom(g->random, sizeof(g->random), 0) != (ssize_t)sizeof(g->random))
			return NULL;
		g->random_used = 0;
	}
	/* the shape of mkdtemp's (assay's own, without a server): a case sees the same */
	for (size_t i = 0; i + 1 < sizeof(name); i++)
		name[i] = set[g->random[g->random_used++] % (sizeof(set) - 1)];
	name[sizeof(name) - 1] = '\0';
	return assay_xasprintf("%s/case-%s", root, name);
}

/* Why working folder `workdir` could not be made (errno `e`), worded as when the pool makes it
 * (pool.c, fs.c assay_fs_mkdirs_beneath); malloc'd. */
static char *workdir_error(const char *workdir, int e)
{
	const char *leaf = strrchr(workdir, '/');

	return assay_xasprintf("cannot prepare the working folder: %s: cannot make the folder "
			       "beneath %.*s (%s)%s", leaf ? leaf + 1 : workdir,
			       leaf ? (int)(leaf - workdir) : 0, workdir, strerror(e),
			       e == EEXIST ? ": was a link planted?" : "");
}

static const char *const cli_case_keys[] = { "arguments", "stdin", "input_files", NULL };
static const char *const cli_attributes[] = { "status_code", "output", "stderr", NULL };
static const char *const cli_suite_keys[] = { "tracked_files", NULL };
static const assay_list_merge cli_merge_lists[] = { { "input_files", "path" }, { NULL, NULL } };

static int start_job(void **jobp, struct cli_group *g, const assay_run_ctx *ctx,
		     const assay_case *c, const char *workdir, bool gated, struct cli_job *after,
		     assay_err *err)
{
	const struct cli_case *cc = c->adapter_data;
	struct cli_job *job;
	int rc;

	*jobp = NULL;
	job = assay_xcalloc(1, sizeof(*job));
	job->p = (assay_proc)ASSAY_PROC_INIT;
	job->ctx = ctx;
	job->c = c;
	/* a working folder the pool left to be made (adapter_iface.h workdir_unmade): its case
	 * server makes it, unless input files go in it first; then it is made here, as the pool
	 * would have (beneath its group's folder, which no case can write) */
	bool cwd_make = ctx->workdir_unmade && !cc->ninput_files;
	if (ctx->workdir_unmade && !cwd_make && mkdir(workdir, 0755)) {
		char *msg = workdir_error(workdir, errno);

		if (gated || ctx->start_again) { /* the pool starts it later, when the room may
						     be back */
			free_job(job);
			rc = assay_err_set(err, ASSAY_EIO, NULL, 0, 0, "%s", msg);
			free(msg);
			return rc;
		}
		job->unstarted = msg;
		*jobp = job;
		return 0;
	}
	for (size_t i = 0; i < cc->ninput_files; i++) {
		const assay_input_file *f = &cc->input_files[i];
		assay_err we = ASSAY_ERR_INIT;
		char msg[1200];

		if (!assay_fs_write_beneath(workdir, f->path, f->content, f->len, 0644, &we))
			continue;
		if (gated || ctx->start_again) { /* the pool starts it later, when the room may
						     be back */
			free_job(job);
			return assay_err_set(err, ASSAY_EIO, NULL, 0, 0,
					     "cannot prepare its input files: %s",
					     assay_err_format(&we, msg, sizeof(msg)));
		}
		/* the case's data, not assay's failure: it ends at once with the reason */
		job->unstarted = assay_xasprintf("cannot prepare its input files: %s",
						 assay_err_format(&we, msg, sizeof(msg)));
		*jobp = job;
		return 0;
	}
	assay_err te = ASSAY_ERR_INIT;
	/* on a tmpfs (no spares), the case's server makes its temporary folder and removes it
	 * (proc.h tmp_make): a name no case can guess, in the run's .tmp, which only the
	 * program's ids and assay write (runner.c) */
	bool tmp_make = ctx->tmp_by_server && g && (job->tmp = tmp_name(g, ctx->tmp_root));

	if (!tmp_make &&
	    (rc = assay_fs_spares_temp(ctx->spares, ctx->tmp_root, "case-", &job->tmp, &te))) {
		char msg[1200];

		assay_err_format(&te, msg, sizeof(msg));
		if (gated || ctx->start_again) { /* the pool starts it later, when the room may
						     be back */
			free_job(job);
			return assay_err_set(err, rc, NULL, 0, 0, "%s", msg);
		}
		/* the working folders' file system is full (a case's --keep'd folders, or one
		 * running beside it that the pool could not wait for): the case's verdict, as a
		 * working folder that cannot be made is, not assay's failure */
		job->unstarted = assay_xasprintf("cannot make its temporary folder: %s", msg);
		*jobp = job;
		return 0;
	}
	job->workdir = assay_xstrdup(workdir);
	if (ctx->sandbox) { /* with root, the program runs as nobody: let it reach its folders */
		char *top = assay_xstrdup(ctx->tmp_root), *slash = strrchr(top, '/');

		if (slash && slash != top)
			*slash = '\0'; /* the run's root, which holds tmp_root and the working folders */

		reach(g, 0, ctx->sandbox, top, workdir);
		reach(g, 1, ctx->sandbox, top, job->tmp);
		free(top);
	}
	assay_strvec_pushv(&job->p.argv, (const char *const *)ctx->command->v);
	assay_strvec_pushv(&job->p.argv, cc->argv);
	case_env(job);
	job->p.cwd = assay_xstrdup(workdir);
	if (ctx->sandbox)
		job->p.sandbox = *ctx->sandbox;
	job->p.sandbox.tmp_dir = job->tmp;
	job->p.sandbox.tmp_make = tmp_make;
	job->p.sandbox.cwd_make = cwd_make;
	/* both made empty for the case (the temporary folder always, by mkdtemp, as an emptied
	 * spare, or by its server): the hand-over to the sandbox's user need not read them */
	job->p.sandbox.tmp_empty = true;
	job->p.sandbox.cwd_empty = (ctx->workdir_empty || ctx->workdir_unmade) && !cc->ninput_files;
	/* made just now beneath the run's root, which only assay writes: given at once, one call
	 * each, not opened and checked at the start (proc.h assay_sandbox_give) */
	if (ctx->sandbox) {
		job->p.sandbox.tmp_given = tmp_make || assay_sandbox_give(ctx->sandbox, job->tmp);
		job->p.sandbox.cwd_given = cwd_make || (job->p.sandbox.cwd_empty &&
							assay_sandbox_give(ctx->sandbox, workdir));
	}
	job->p.limits = c->limits;
	job->p.servers = ctx->servers;
	job->p.stdin_data = cc->stdin_data;
	job->p.stdin_len = cc->stdin_len;
	job->p.out_cap = ctx->out_cap;
	job->p.err_cap = ctx->err_cap;
	job->p.timeout_s = c->timeout;
	job->p.kill_grace_s = ctx->kill_grace_s;
	job->p.gated = gated;
	job->p.relay = ctx->relay;
	if (gated && after && !after->unstarted)
		assay_proc_follow(&job->p, &after->p);
	if ((rc = assay_proc_start(&job->p, err))) {
		free_job(job);
		return rc;
	}
	*jobp = job;
	return 0;
}

static int start(void **jobp, void *state, const assay_run_ctx *ctx, const assay_case *c,
		 const char *workdir, assay_err *err)
{
	return start_job(jobp, state, ctx, c, workdir, false, NULL, err);
}

/* The case's process made and sandboxed on a case server, its program waiting for go (proc.h,
 * `gated`): the pool arms the next case while this one runs. */
static int arm(void **jobp, void *state, const assay_run_ctx *ctx, const assay_case *c,
	       const char *workdir, void *after, assay_err *err)
{
	return start_job(jobp, state, ctx, c, workdir, true, after, err);
}

static int go(void *jobp, assay_err *err)
{
	struct cli_job *job = jobp;

	return job->unstarted ? 0 : assay_proc_go(&job->p, err);
}

static size_t pollfds(void *jobp, struct pollfd *fds, size_t max)
{
	struct cli_job *job = jobp;

	return job->unstarted ? 0 : assay_proc_pollfds(&job->p, fds, max);
}

static int deadline_ms(void *jobp)
{
	struct cli_job *job = jobp;

	return job->unstarted ? 0 : assay_proc_deadline_ms(&job->p);
}

/* pump and pump_polled: `fds` NULL, assay_proc_pump() without waiting; else what the runner
 * polled, assay_proc_pump_polled(). */
static int pump_job(struct cli_job *job, const struct pollfd *fds, size_t n, bool *done,
		    assay_err *err)
{
	int rc;

	if (job->unstarted) {
		*done = true;
		return 0;
	}
	rc = fds ? assay_proc_pump_polled(&job->p, fds, n, done, err)
		 : assay_proc_pump(&job->p, 0, done, err);
	if (rc == ASSAY_ESPAWN && job->p.died) {
		/* its supervisor (or case server) was killed mid-case, which a case can bring
		 * about (docs/security.md): that case fails, the run goes on */
		char msg[1200];

		job->died = assay_xasprintf("%s during the case", assay_err_format(err, msg,
										    sizeof(msg)));
		assay_err_clear(err);
		*done = true;
		return 0;
	}
	return rc;
}

static int pump(void *jobp, bool *done, assay_err *err)
{
	return pump_job(jobp, NULL, 0, done, err);
}

static int pump_polled(void *jobp, const struct pollfd *fds, size_t n, bool *done,
		       assay_err *err)
{
	static const struct pollfd none;

	return pump_job(jobp, fds ? fds : &none, fds ? n : 0, done, err);
}

/* Reads a file the program left, through assay_fs_read_beneath(): no links, no FIFOs. */
/* Reads one collected file, at most `cap` bytes (0: keep none, marked truncated when there is
 * more); returns the bytes kept. */
static size_t add_file(assay_case_result *r, const char *workdir, const char *rel, size_t cap)
{
	size_t kept_len = 0;

	char *name = assay_file_attribute(rel);
	assay_buf content = ASSAY_BUF_INIT;
	assay_actual a = { .kind = ASSAY_ACTUAL_MISSING };
	int rc;

	if (assay_case_result_get(r, name)) {
		free(name);
		return 0;
	}
	rc = cap ? assay_fs_read_beneath(&content, workdir, rel, cap, NULL)
		 : assay_fs_read_beneath(&content, workdir, rel, 1, NULL);
	if (!cap && (rc == 0 || rc == ASSAY_ETOOBIG)) {
		rc = content.len ? ASSAY_ETOOBIG : 0;
		assay_buf_reset(&content);
	}
	if (rc == 0 || rc == ASSAY_ETOOBIG) {
		size_t len;
		const char *kept = assay_case_result_keep(r, &content, &len);

		a = (assay_actual){ .kind = ASSAY_ACTUAL_BYTES, .bytes = kept, .len = len,
				    .truncated = rc == ASSAY_ETOOBIG };
		kept_len = len;
	}
	assay_buf_release(&content);
	assay_case_result_add(r, name, a);
	free(name);
	return kept_len;
}

/* What the tracked files of one case may bring in all (the expected ones are apart): a case
 * that leaves many big files (sparse ones cost it nothing) cannot fill assay's memory or the
 * results store. Past it a file is recorded, empty and truncated; past MAX_TRACKED files, not
 * at all. */
#define MAX_TRACKED 1000

/* Does `rel` (beneath `workdir`) pass through a symbolic link? glob() follows links to
 * folders, so a case could have assay list a folder it may not read (the suite's cases, an
 * earlier run's results) by planting a link to it. The case has ended: nothing moves now. */
static bool through_link(const char *workdir, const char *rel)
{
	char *path = assay_path_join(workdir, rel);
	size_t base = strlen(workdir) + 1;
	bool link = false;
	struct stat st;

	for (size_t i = base; !link; i++) {
		char ch = path[i];

		if (ch != '/' && ch != '\0')
			continue;
		path[i] = '\0';
		link = lstat(path, &st) != 0 || S_ISLNK(st.st_mode);
		path[i] = ch;
		if (!ch)
			break;
	}
	free(path);
	return link;
}

/* Collects every file named in `expected` (files-<path>), each up to the output cap, and every
 * tracked glob match that passes through no link, up to the output cap in all. */
static void collect_files(assay_case_result *r, const assay_run_ctx *ctx, const assay_case *c,
			  const char *workdir)
{
	size_t prefix = strlen(workdir) + 1, left = ctx->out_cap, ntracked = 0;

	for (uint32_t i = 0; i < c->expected.len; i++) {
		const char *path = assay_file_attribute_path(c->expected.u.members[i].key.u.s);

		if (path)
			add_file(r, workdir, path, ctx->out_cap);
	}
	for (size_t i = 0; i < ctx->suite->tracked_files.nr; i++) {
		assay_buf quoted = ASSAY_BUF_INIT;
		glob_t g;

		for (const char *q = workdir; *q; q++) {
			if (strchr("*?[]\\", *q))
				assay_buf_addch(&quoted, '\\');
			assay_buf_addch(&quoted, *q);
		}
		char *pattern = assay_path_join(quoted.ptr, ctx->suite->tracked_files.v[i]);
		assay_buf_release(&quoted);
		if (!glob(pattern, GLOB_NOSORT, NULL, &g)) {
			for (size_t j = 0; j < g.gl_pathc && ntracked < MAX_TRACKED; j++) {
				if (strlen(g.gl_pathv[j]) <= prefix ||
				    through_link(workdir, g.gl_pathv[j] + prefix))
					continue;
				ntracked++;
				left -= add_file(r, workdir, g.gl_pathv[j] + prefix, left);
			}
			globfree(&g);
		}
		free(pattern);
	}
}

/* Is the command a path (it has a slash) to a regular file with no execute bit at all? Then an
 * EACCES is about the file itself, not about what the sandbox hides. */
static bool not_executable(const assay_proc *p)
{
	const char *cmd = p->argv.nr ? p->argv.v[0] : NULL;
	char *path;
	struct stat st;
	bool no_x;

	if (!cmd || !strchr(cmd, '/'))
		return false;
	path = cmd[0] == '/' || !p->cwd ? strdup(cmd) : assay_path_join(p->cwd, cmd);
	no_x = path && stat(path, &st) == 0 && S_ISREG(st.st_mode) && !(st.st_mode & 0111);
	free(path);
	return no_x;
}

/* "stopped at its memory limit (512 MiB)" and the like, in the result's arena. */
static const char *limit_message(assay_case_result *out, assay_limit l, const assay_limits *lim)
{
	assay_arena *a = assay_case_result_arena(out);

	switch (l) {
	case ASSAY_LIMIT_CPU:
		return assay_value_stringf(a, "stopped at its CPU time limit (%g seconds)",
					   lim->cpu_s).u.s;
	case ASSAY_LIMIT_MEMORY:
		return assay_value_stringf(a, "stopped, it seems, at its memory limit (%lld bytes)",
					   lim->memory_bytes).u.s;
	case ASSAY_LIMIT_FILE_SIZE:
		return assay_value_stringf(a, "stopped at its file size limit (%lld bytes)",
					   lim->file_size_bytes).u.s;
	case ASSAY_LIMIT_PROCESSES:
		return assay_value_stringf(a, "stopped, it seems, at its process limit (%ld)",
					   lim->processes).u.s;
	default:
		return NULL;
	}
}

static int finish(void *jobp, assay_case_result *out, assay_err *err)
{
	struct cli_job *job = jobp;
	const assay_proc_result *pr = &out->proc;
	int status = 0, rc;

	(void)err;
	if (job->unstarted) { /* never ran: an error of the case (case_report.c) */
		out->proc = (assay_proc_result){ .status = ASSAY_PROC_EXEC_FAILED };
		out->error = assay_value_strz(assay_case_result_arena(out), job->unstarted).u.s;
		free_job(job);
		return 0;
	}
	if (job->died) {
		/* it ran, and its supervisor died: the case's error, reported as killed, with
		 * what it printed until then */
		out->proc = (assay_proc_result){ .status = ASSAY_PROC_SIGNALED,
						 .term_signal = SIGKILL, .supervisor_died = true };
		out->error = assay_value_strz(assay_case_result_arena(out), job->died).u.s;
	} else if ((rc = assay_proc_finish(&job->p, &out->proc))) {
		free_job(job);
		return rc;
	} else if (pr->cwd_errno || pr->tmp_errno) {
		/* its server could not make one of its folders: as when assay cannot. The errnos
		 * are kept: the pool starts again a case beside which another filled the run's
		 * working folders (pool.c room_failed) */
		assay_proc_result unmade = { .status = ASSAY_PROC_EXEC_FAILED,
					   .cwd_errno = pr->cwd_errno, .tmp_errno = pr->tmp_errno };

		/* worded as when assay makes it (pool.c, fs.c) */
		if (unmade.cwd_errno) {
			char *msg = workdir_error(job->workdir, unmade.cwd_errno);

			out->error = assay_value_strz(assay_case_result_arena(out), msg).u.s;
			free(msg);
		} else {
			out->error = assay_value_stringf(assay_case_result_arena(out),
							 "cannot make its temporary folder: %s: cannot "
							 "create temporary folder: %s", job->tmp,
							 strerror(unmade.tmp_errno)).u.s;
		}
		out->proc = unmade;
		free_job(job);
		return 0;
	}
	job->tmp_removed = pr->tmp_removed;
	switch (pr->status) {
	case ASSAY_PROC_EXITED:
		status = pr->exit_code;
		/* a shell's "cannot execute": in the sandbox, most often a file outside what
		 * cases may read (a shim, an interpreter, a script in the user's home) */
		if (status == 126 && job->p.sandbox.enabled)
			out->error = "exit 126: something the case runs could not be executed, perhaps "
				     "because the sandbox hides it: cases read only the system folders, "
				     "the static assets, adapter.read_paths and the command's own "
				     "folder (docs/security.md); see its stderr";
		break;
	case ASSAY_PROC_SIGNALED:
		status = -pr->term_signal;
		break;
	case ASSAY_PROC_TIMED_OUT:
		status = -1;
		out->error = assay_value_stringf(assay_case_result_arena(out),
						 "timed out after %g second%s",
						 job->c->timeout,
						 job->c->timeout == 1 ? "" : "s").u.s;
		break;
	case ASSAY_PROC_EXEC_FAILED:
		status = 127;
		out->error = assay_value_stringf(
			assay_case_result_arena(out), "cannot run '%s': %s%s", job->p.argv.v[0],
			strerror(pr->exec_errno),
			pr->exec_errno == EACCES && not_executable(&job->p)
				? " (it is not executable: chmod +x it, or run it with its "
				  "interpreter)"
			: pr->exec_errno == EACCES && job->p.sandbox.enabled && geteuid() == 0
				? " (assay runs as root, so the case runs as nobody: the command, "
				  "its folders and the working folder must be reachable by nobody; "
				  "docs/security.md)"
				: "").u.s;
		assay_buf_addf(&job->p.err, "assay: %s\n", out->error);
		break;
	}
	if (!out->error && pr->limit == ASSAY_LIMIT_MEMORY && job->p.cg_oom)
		/* the kernel's OOM kill in the case's memory cgroup: no guess (proc.h) */
		out->error = assay_value_stringf(assay_case_result_arena(out),
						 "memory limit exceeded (%lld bytes): the kernel "
						 "killed a process of the case",
						 job->c->limits.memory_bytes).u.s;
	if (!out->error && pr->limit != ASSAY_LIMIT_NONE && pr->limit != ASSAY_LIMIT_WALL)
		out->error = limit_message(out, pr->limit, &job->c->limits);
	size_t olen, elen;
	const char *o = assay_case_result_keep(out, &job->p.out, &olen);
	const char *e = assay_case_result_keep(out, &job->p.err, &elen);

	assay_case_result_add(out, "status_code",
			      (assay_actual){ .kind = ASSAY_ACTUAL_INT, .integer = status });
	assay_case_result_add(out, "output",
			      (assay_actual){ .kind = ASSAY_ACTUAL_BYTES, .bytes = o, .len = olen,
					      .truncated = pr->out_truncated });
	assay_case_result_add(out, "stderr",
			      (assay_actual){ .kind = ASSAY_ACTUAL_BYTES, .bytes = e, .len = elen,
					      .truncated = pr->err_truncated });
	assay_case_result_add(out, "execution_time",
			      (assay_actual){ .kind = ASSAY_ACTUAL_REAL, .real = pr->wall_s });
	assay_case_result_add(out, "max_rss",
			      (assay_actual){ .kind = ASSAY_ACTUAL_INT, .integer = pr->max_rss });
	assay_case_result_add(out, "cpu_time",
			      (assay_actual){ .kind = ASSAY_ACTUAL_REAL,
					      .real = pr->cpu_user_s + pr->cpu_sys_s });
	/* Nothing the case started still runs while its files are read (a leftover process could
	 * swap a file for a FIFO or a link between checks): assay_proc_finish() guarantees it. */
	collect_files(out, job->ctx, job->c, job->workdir);
	free_job(job);
	return 0;
}

static void extend(void *jobp, double seconds)
{
	struct cli_job *job = jobp;

	if (!job->unstarted)
		assay_proc_extend(&job->p, seconds);
}

static void abort_job(void *jobp)
{
	free_job(jobp); /* releasing the process kills the case and all it started */
}

const assay_adapter assay_adapter_cli = {
	.name = "cli",
	.case_keys = cli_case_keys,
	.attributes = cli_attributes,
	.files = true,
	.makes_workdir = true,
	.load_suite = assay_cli__load_suite,
	.load_case = assay_cli__load_case,
	.start = start,
	.arm = arm,
	.go = go,
	.pollfds = pollfds,
	.deadline_ms = deadline_ms,
	.pump = pump,
	.pump_polled = pump_polled,
	.finish = finish,
	.abort = abort_job,
	.extend = extend,
	.case_inputs = assay_cli__case_inputs,
	.suite_keys = cli_suite_keys,
	.needs_command = true,
	.repro_inputs = assay_cli__repro_inputs,
	.merge_lists = cli_merge_lists,
	.prepare_case = assay_cli__prepare_case,
	.group_begin = group_begin,
	.group_end = group_end,
};
