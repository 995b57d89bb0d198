/*
 * What `assay run` offers for the edit-run loop (issue #11, "Workflow"): --last-failed,
 * --exitfirst and --accept.
 */
#ifndef ASSAY_CLI_WORKFLOW_H
#define ASSAY_CLI_WORKFLOW_H

#include "assay/run.h"
#include "assay/strvec.h"

/*
 * --last-failed: the cases that did not pass in the run kept in results folder `dir`, as
 * checkpoint/group/id, into `names`. Returns 0 (none failed: `names` stays empty), or an exit
 * code with the message printed (no results in `dir`, an unreadable store).
 */
int last_failed_read(assay_strvec *names, const char *dir);

/* --accept: a sink keeping, for each failing case, its failed attributes' actual values. */
struct accept;
void accept_sink(assay_sink *out, struct accept **acc);
/*
 * After the run: lists what the failures would write into which case files, asks (reading
 * stdin) unless `yes`, and writes. Returns 0, or an exit code with the message printed (a case
 * file that could not be written). The sink still frees `acc`.
 */
int accept_apply(struct accept *acc, bool yes);

#endif
