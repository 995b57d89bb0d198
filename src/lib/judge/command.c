/*
 * The command judge: one process per question, through assay_proc (a timeout, capped
 * captures, nothing left running). The request goes to standard input as one JSON document;
 * the answer is what the process prints. A non-zero exit, a timeout or a signal is a failed
 * try. With `sandbox`, the judge runs under proc.h's sandbox with the network open and
 * nothing of the workspace readable: it cannot look up which version was A.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/fs.h"
#include "assay/proc.h"
#include "judge/judge_int.h"
#include "util/banned.h"

int assay_judge__command(const struct assay_judge *j, const char *in, size_t len,
			 assay_buf *answer, char *why, size_t whysize)
{
	assay_proc p = ASSAY_PROC_INIT;
	assay_proc_result r;
	assay_err err = ASSAY_ERR_INIT;
	char *tmp = NULL;
	int rc = -1;

	assay_strvec_pushv(&p.argv, (const char *const *)j->argv.v);
	p.stdin_data = in;
	p.stdin_len = len;
	p.out_cap = 16u << 20;
	p.err_cap = 64u << 10;
	p.timeout_s = j->timeout_s;
	if (j->sandbox) {
		if (assay_fs_mkdtemp(&tmp, NULL, "assay-judge.", &err)) {
			snprintf(why, whysize, "%s", err.msg);
			goto out;
		}
		p.sandbox.enabled = true;
		p.sandbox.network = true;
		p.sandbox.tmp_dir = tmp;
		p.cwd = assay_xstrdup(tmp);
	}
	if (assay_proc_run(&p, &r, &err)) {
		snprintf(why, whysize, "cannot run the judge: %s", err.msg);
		goto out;
	}
	if (r.status == ASSAY_PROC_EXEC_FAILED) {
		snprintf(why, whysize, "cannot run the judge '%s': %s", j->argv.v[0],
			 strerror(r.exec_errno));
	} else if (r.status == ASSAY_PROC_TIMED_OUT) {
		snprintf(why, whysize, "the judge timed out after %g second%s", j->timeout_s,
			 j->timeout_s == 1 ? "" : "s");
	} else if (r.status == ASSAY_PROC_SIGNALED) {
		snprintf(why, whysize, "the judge was killed by signal %d", r.term_signal);
	} else if (r.exit_code) {
		snprintf(why, whysize, "the judge exited with status %d: %.200s", r.exit_code,
			 p.err.ptr);
	} else if (r.out_truncated) {
		snprintf(why, whysize, "the judge's answer is larger than 16 MiB");
	} else {
		assay_buf_add(answer, p.out.ptr, p.out.len);
		rc = 0;
	}
out:
	assay_proc_release(&p);
	if (tmp) {
		assay_fs_remove_tree(tmp, NULL);
		free(tmp);
	}
	return rc;
}
