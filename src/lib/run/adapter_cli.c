/*
 * The cli adapter: one process per case (suite-format.md, "A case (cli adapter)"): argv is the
 * command plus the case's arguments, exactly; stdin is the case's bytes or empty; the
 * environment is assay's plus the adapter, checkpoint and case env; the working folder is the
 * case's. After the process ends, the expected and tracked files are collected.
 *
 * Decisions: status_code is the exit status, -1 on timeout (the contract), -N when killed by
 * signal N (as Python's subprocess reports it), and 127 when the program could not be started
 * (as a shell reports it), with the reason on stderr and in `error`. Collected files must be
 * regular files inside the working folder, reached without following any link: a link, FIFO
 * or device is "not produced".
 */
#define _GNU_SOURCE /* O_PATH-free realpath use, glob flags */
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "assay/fs.h"
#include "assay/run.h"
#include "util/banned.h"

static assay_result_file *add_file(assay_case_result *r, const char *rel)
{
	for (size_t i = 0; i < r->nfiles; i++)
		if (!strcmp(r->files[i].path, rel))
			return NULL;
	r->files = assay_xrealloc(r->files, (r->nfiles + 1) * sizeof(*r->files));
	assay_result_file *f = &r->files[r->nfiles++];
	memset(f, 0, sizeof(*f));
	f->path = assay_xstrdup(rel);
	f->content = (assay_buf)ASSAY_BUF_INIT;
	return f;
}

/* Reads a file the program left, through assay_fs_read_beneath(): no links, no FIFOs. */
static void read_file(assay_result_file *f, const char *workdir, size_t cap)
{
	int rc = assay_fs_read_beneath(&f->content, workdir, f->path, cap, NULL);

	f->present = rc == 0 || rc == ASSAY_ETOOBIG;
	f->truncated = rc == ASSAY_ETOOBIG;
	if (!f->present)
		assay_buf_reset(&f->content);
}

/* Collects every file named in `expected` (files-<path>) and every tracked glob match. */
static void collect_files(assay_case_result *r, const assay_run_ctx *ctx, const assay_case *c,
			  const char *workdir)
{
	const char *key;
	json_t *value;

	json_object_foreach(c->expected, key, value) {
		if (strncmp(key, "files-", 6))
			continue;
		assay_result_file *f = add_file(r, key + 6);
		if (f)
			read_file(f, workdir, ctx->out_cap);
	}
	size_t prefix = strlen(workdir) + 1;
	for (size_t i = 0; i < ctx->suite->tracked_files.nr; i++) {
		glob_t g;
		assay_buf quoted = ASSAY_BUF_INIT;
		for (const char *q = workdir; *q; q++) {
			if (strchr("*?[]\\", *q))
				assay_buf_addch(&quoted, '\\');
			assay_buf_addch(&quoted, *q);
		}
		char *pattern = assay_path_join(quoted.ptr, ctx->suite->tracked_files.v[i]);
		assay_buf_release(&quoted);
		if (!glob(pattern, GLOB_NOSORT, NULL, &g)) {
			for (size_t j = 0; j < g.gl_pathc; j++) {
				if (strlen(g.gl_pathv[j]) <= prefix)
					continue;
				assay_result_file *f = add_file(r, g.gl_pathv[j] + prefix);
				if (f)
					read_file(f, workdir, ctx->out_cap);
			}
			globfree(&g);
		}
		free(pattern);
	}
}

static int run_case(void *state, const assay_run_ctx *ctx, const assay_case *c,
		    const char *workdir, assay_case_result *out, assay_err *err)
{
	assay_proc p = ASSAY_PROC_INIT;
	int rc;

	(void)state;
	assay_strvec_pushv(&p.argv, (const char *const *)ctx->command->v);
	assay_strvec_pushv(&p.argv, (const char *const *)c->arguments.v);
	assay_strvec_pushv(&p.env, (const char *const *)c->env.v);
	p.cwd = assay_xstrdup(workdir);
	p.stdin_data = c->stdin_data;
	p.stdin_len = c->stdin_len;
	p.out_cap = ctx->out_cap;
	p.err_cap = ctx->err_cap;
	p.timeout_s = c->timeout;
	p.kill_grace_s = ctx->kill_grace_s;

	/* Like assay_proc_run(), waking at least every 200 ms to see a stop request. */
	bool done = false;
	rc = assay_proc_start(&p, err);
	while (!rc && !done) {
		if (ctx->stop && *ctx->stop) {
			rc = ASSAY_EINTERRUPTED; /* assay_proc_release() kills the group */
			break;
		}
		int wait = assay_proc_deadline_ms(&p);
		rc = assay_proc_pump(&p, wait < 0 || wait > 200 ? 200 : wait, &done, err);
	}
	if (!rc)
		rc = assay_proc_finish(&p, &out->proc);
	if (rc)
		goto out;
	out->output = p.out;
	out->stderr_text = p.err;
	p.out = (assay_buf)ASSAY_BUF_INIT;
	p.err = (assay_buf)ASSAY_BUF_INIT;
	switch (out->proc.status) {
	case ASSAY_PROC_EXITED:
		out->status_code = out->proc.exit_code;
		break;
	case ASSAY_PROC_SIGNALED:
		out->status_code = -out->proc.term_signal;
		break;
	case ASSAY_PROC_TIMED_OUT:
		out->status_code = -1;
		out->error = assay_xasprintf("timed out after %g seconds", c->timeout);
		break;
	case ASSAY_PROC_EXEC_FAILED:
		out->status_code = 127;
		out->error = assay_xasprintf("cannot run '%s': %s", p.argv.v[0],
					     strerror(out->proc.exec_errno));
		assay_buf_addf(&out->stderr_text, "assay: %s\n", out->error);
		break;
	}
	/* Nothing the case started still runs while its files are read (a leftover process could
	 * swap a file for a FIFO or a link between checks): assay_proc_finish() guarantees it. */
	collect_files(out, ctx, c, workdir);
out:
	assay_proc_release(&p); /* kills a case abandoned part way, and all it started */
	return rc;
}

const assay_adapter assay_adapter_cli = {
	.name = "cli",
	.group_begin = NULL,
	.run_case = run_case,
	.group_end = NULL,
};

void assay_case_result_release(assay_case_result *r)
{
	assay_buf_release(&r->output);
	assay_buf_release(&r->stderr_text);
	for (size_t i = 0; i < r->nfiles; i++) {
		free(r->files[i].path);
		assay_buf_release(&r->files[i].content);
	}
	free(r->files);
	free(r->error);
	memset(r, 0, sizeof(*r));
	r->output = (assay_buf)ASSAY_BUF_INIT;
	r->stderr_text = (assay_buf)ASSAY_BUF_INIT;
}
