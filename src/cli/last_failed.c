/*
 * --last-failed, the loop pytest users know: re-run only the cases that failed in the results
 * folder given (read from its store, before the new run replaces it). (--exitfirst is the
 * library's assay_run_opts.fail_fast.)
 */
#include <stdio.h>

#include "assay/store.h"
#include "cmd.h"
#include "exit.h"
#include "workflow.h"
#include "assay/report.h"
#include "util/banned.h"

static int collect(void *payload, const assay_value *line, assay_err *err)
{
	assay_strvec *names = payload;
	const assay_value *passed = assay_report_get(line, "passed");
	const assay_value *cp = assay_report_get(line, "checkpoint");
	const assay_value *g = assay_object_get(line, "group");
	const assay_value *id = assay_object_get(line, "id");

	(void)err;
	if (passed && passed->kind == ASSAY_V_BOOL && passed->u.b)
		return 0;
	if (cp && g && id && cp->kind == ASSAY_V_STRING && g->kind == ASSAY_V_STRING &&
	    id->kind == ASSAY_V_STRING)
		assay_strvec_pushf(names, "%s/%s/%s", cp->u.s, g->u.s, id->u.s);
	return 0;
}

int last_failed_read(assay_strvec *names, const char *dir)
{
	assay_err err = ASSAY_ERR_INIT;
	assay_store *s = NULL;
	int rc = assay_store_open(&s, dir, 0, &err);

	if (rc == ASSAY_ENOTFOUND)
		return cli_error(CLI_EXIT_USAGE,
				 "--last-failed: %s holds no results: it re-runs the failures of an "
				 "earlier run into the same -o folder", dir);
	if (rc)
		return cli_fail(rc, &err, ASSAY_EINVALID, 0);
	rc = assay_store_each_case(s, collect, names, &err);
	assay_store_close(s);
	if (rc)
		return cli_report_err(CLI_EXIT_INTERNAL, &err);
	return 0;
}
