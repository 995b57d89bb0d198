/*
 * The command judge (type "command"): one process per question, through assay_proc (a
 * timeout, capped captures, nothing left running). The question goes to standard input as one
 * JSON document, {"role", "model", "prompt", "request"}; the answer is what the process
 * prints. A non-zero exit, a timeout or a signal is a failed try. With `sandbox`, the judge
 * runs under proc.h's sandbox with the network open and nothing of the workspace readable: it
 * cannot look up which version was A.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/json.h"
#include "assay/proc.h"
#include "judge/judge_int.h"
#include "util/banned.h"

struct command_judge {
	assay_strvec argv;
	bool sandbox;
};

static int command_open(void **self, const assay_judge_config *cfg, assay_err *err)
{
	struct command_judge *c;

	if (!cfg->command || !cfg->command->nr)
		return assay_err_set(err, ASSAY_EINVALID, NULL, 0, 0,
				     "the command judge has no command (set judge.command)");
	c = assay_xcalloc(1, sizeof(*c));
	c->argv = (assay_strvec)ASSAY_STRVEC_INIT;
	assay_strvec_pushv(&c->argv, (const char *const *)cfg->command->v);
	c->sandbox = cfg->sandbox;
	*self = c;
	return 0;
}

static void command_release(void *self)
{
	struct command_judge *c = self;

	if (!c)
		return;
	assay_strvec_clear(&c->argv);
	free(c);
}

/* The question as the judge reads it on standard input: one JSON document and a newline. */
static void question_doc(assay_buf *doc, const struct assay_judge *j,
			 const struct assay_judge__question *q)
{
	assay_arena *a = assay_arena_new(0);
	assay_value in = assay_value_object();

	assay_object_set(a, &in, "role", assay_value_strz(a, q->role));
	assay_object_set(a, &in, "model", assay_value_strz(a, j->model));
	assay_object_set(a, &in, "prompt", assay_value_string(a, q->prompt, q->prompt_len));
	assay_object_set(a, &in, "request", *q->request);
	assay_json_write(doc, &in, 0);
	assay_buf_addch(doc, '\n');
	assay_arena_free(a);
}

static int command_ask(const struct assay_judge *j, const struct assay_judge__question *q,
		       assay_buf *answer, assay_judge_stats *st, assay_err *err)
{
	const struct command_judge *c = j->self;
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	assay_err e = ASSAY_ERR_INIT;
	assay_buf doc = ASSAY_BUF_INIT;
	char *tmp = NULL;
	int rc = ASSAY_ERROR;

	(void)st; /* a command's tokens are not counted */
	question_doc(&doc, j, q);
	assay_strvec_pushv(&p.argv, (const char *const *)c->argv.v);
	p.stdin_data = doc.ptr;
	p.stdin_len = doc.len;
	p.out_cap = 16u << 20;
	p.err_cap = 64u << 10;
	p.timeout_s = j->timeout_s;
	if (c->sandbox) {
		if ((rc = assay_fs_mkdtemp(&tmp, NULL, "assay-judge.", &e))) {
			assay_err_set(err, rc, NULL, 0, 0, "%s", e.msg);
			goto out;
		}
		rc = ASSAY_ERROR;
		p.sandbox.enabled = true;
		p.sandbox.network = true;
		p.sandbox.tmp_dir = tmp;
		p.cwd = assay_xstrdup(tmp);
	}
	if ((rc = assay_proc_run(&p, &r, &e))) {
		assay_err_set(err, rc, NULL, 0, 0, "cannot run the judge: %s", e.msg);
		goto out;
	}
	rc = ASSAY_ERROR;
	if (r.status == ASSAY_PROC_EXEC_FAILED) {
		assay_err_set(err, rc, NULL, 0, 0, "cannot run the judge '%s': %s", c->argv.v[0],
			      strerror(r.exec_errno));
	} else if (r.status == ASSAY_PROC_TIMED_OUT) {
		assay_err_set(err, rc, NULL, 0, 0, "the judge timed out after %g second%s",
			      j->timeout_s, j->timeout_s == 1 ? "" : "s");
	} else if (r.status == ASSAY_PROC_SIGNALED) {
		assay_err_set(err, rc, NULL, 0, 0, "the judge was killed by signal %d",
			      r.term_signal);
	} else if (r.exit_code) {
		assay_err_set(err, rc, NULL, 0, 0, "the judge exited with status %d: %.200s",
			      r.exit_code, p.err.ptr);
	} else if (r.out_truncated) {
		assay_err_set(err, rc, NULL, 0, 0, "the judge's answer is larger than 16 MiB");
	} else {
		assay_buf_add(answer, p.out.ptr, p.out.len);
		rc = 0;
	}
out:
	assay_proc_release(&p);
	assay_buf_release(&doc);
	if (tmp) {
		assay_fs_remove_tree(tmp, NULL);
		free(tmp);
	}
	return rc;
}

const struct assay_judge__kind assay_judge__command = {
	.name = "command",
	.open = command_open,
	.ask = command_ask,
	.release = command_release,
};
